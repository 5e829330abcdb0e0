"""The abstraction of one variant as data: its four tables, how they are built, saved and
loaded, and the arrays the abstract game takes (SPEC section 4).

:class:`AbstractionTables` is the contract between the ``abstraction`` stage and every later
stage: the four tables ``classes``, ``buckets``, ``transitions`` and ``belief`` (columns
below), written as ``{directory}/{name}.parquet`` and read back by
:meth:`AbstractionTables.load`.  :meth:`AbstractionTables.arrays` gives the
:class:`AbstractionArrays` the game builder (:mod:`poker51.games.abstract`) takes.

- classes: class int16, name, base int8, base_name, marker bool, house_draw int8,
  members int64, probability float64
- buckets: bucket int8 (int16 above 127 buckets: :func:`poker51.rules.bucket_dtype`), low int32,
  high int32, n_strengths int32, weight int64, probability
- transitions: drawer ("human" rows d = 0..5, "riemann" one row set at its House draw),
  class int16, draw int8, bucket int8 (int16 above 127 buckets), count int64, total int64,
  probability float64;
  count / total exact (total = members · C(n_rest, draw))
- belief: draw int8 (0..5), quantile int16 (0..999), strength int32
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from tqdm import tqdm  # not tqdm.auto: it warns (TqdmExperimentalWarning) in a notebook

from poker51.abstraction.belief import build_belief
from poker51.abstraction.buckets import N_BUCKETS, bucket_of_strength, bucket_table, final_strength_distribution
from poker51.abstraction.classes import ALL_BASE_NAMES, HandTable, class_keys, class_names, hand_keys, hand_table
from poker51.abstraction.transitions import class_histograms, subset_histograms
from poker51.errors import InputError
from poker51.hands.house import keep_table
from poker51.io import TableError, check_metadata, read_parquet, write_parquet
from poker51.provenance import HANDS, PROBABILITY, STRENGTH
from poker51.rules import ABSTRACTION_TABLES, N_DRAWS, bucket_dtype

#: the units of the tables' columns (written into each table's metadata)
UNITS: dict[str, dict[str, str]] = {
    "classes": {"members": HANDS, "probability": PROBABILITY},
    "buckets": {"low": STRENGTH, "high": STRENGTH, "weight": "probability x C(n,5) · lcm_d C(n_rest, d) (exact)",
                "probability": PROBABILITY},
    "transitions": {"count": "(dealt hand, replacement) pairs", "total": "(dealt hand, replacement) pairs",
                    "probability": PROBABILITY},
    "belief": {"quantile": "index j: the quantile at (j + 1/2) / 1000", "strength": STRENGTH},
}  # fmt: skip


#: metadata keys that the four tables of one abstraction run share (:meth:`AbstractionTables.load`)
_RUN_KEYS = ("n_buckets", "belief_seed", "belief_samples", "config_sha256")


@dataclass(frozen=True)
class AbstractionArrays:
    """What the game needs from the abstraction of one variant.

    ``class_prob`` (C,) sums to 1; ``h_trans`` (C, 6, B) and ``r_trans`` (C, B) have
    rows summing to 1; ``r_draw`` (C,) is R's House draw count per class (0..4).
    """

    variant: str
    class_prob: np.ndarray
    h_trans: np.ndarray
    r_trans: np.ndarray
    r_draw: np.ndarray
    class_names: tuple[str, ...] = ()

    @property
    def n_classes(self) -> int:
        return len(self.class_prob)

    @property
    def n_buckets(self) -> int:
        return int(self.r_trans.shape[1])

    def validate(self) -> None:
        C, B = self.n_classes, self.n_buckets
        if self.h_trans.shape != (C, N_DRAWS, B) or self.r_trans.shape != (C, B) or self.r_draw.shape != (C,):
            raise ValueError(f"{self.variant}: abstraction arrays have inconsistent shapes")
        for name, arr in (("class_prob", self.class_prob), ("h_trans", self.h_trans), ("r_trans", self.r_trans)):
            sums = arr.sum(axis=-1)
            if np.any(arr < 0) or not np.allclose(sums, 1.0, atol=1e-9):
                raise ValueError(f"{self.variant}: {name} is not a probability distribution")


@dataclass(frozen=True)
class AbstractionTables:
    """The four tables of one variant's abstraction (module docstring)."""

    variant: str
    classes: pd.DataFrame
    buckets: pd.DataFrame
    transitions: pd.DataFrame
    belief: pd.DataFrame

    # ------------------------------------------------------------------ files
    @classmethod
    def load(cls, directory: str | Path, variant: str) -> AbstractionTables:
        """Read ``{directory}/{classes,buckets,transitions,belief}.parquet``; a missing,
        truncated or malformed table raises :class:`~poker51.io.TableError` naming its path,
        and so does a table whose metadata names another variant (``poker51.variant``) or
        another abstraction run than the classes table (``n_buckets``, ``belief_seed``,
        ``belief_samples``, ``config_sha256``: a folder of mixed runs)."""
        directory = Path(directory)
        if not directory.is_dir():
            raise TableError(f"{directory}: no such abstraction directory")
        frames = {name: read_parquet(directory / f"{name}.parquet") for name in ABSTRACTION_TABLES}
        run: dict[str, Any] = {}
        for name in ABSTRACTION_TABLES:
            path = directory / f"{name}.parquet"
            check_metadata(path, {"variant": variant}, f"{name} table")
            meta = check_metadata(path, run, f"{name} table", f"as in {directory / 'classes.parquet'}")
            run = run or {k: meta[k] for k in _RUN_KEYS if k in meta}
        tables = cls(variant, **frames)
        try:
            tables.arrays().validate()
        except (KeyError, ValueError) as exc:
            raise TableError(f"{directory}: not the abstraction tables of {variant} ({exc})") from exc
        return tables

    def save(self, paths: Mapping[str, str | Path], metadata: Mapping[str, Any]) -> None:
        """Write each table to ``paths[name]`` (byte-reproducible Parquet with ``metadata`` and
        the ``units`` of its columns, :data:`UNITS`)."""
        for name in ABSTRACTION_TABLES:
            write_parquet(self.frame(name), paths[name], metadata={**metadata, "units": UNITS[name]})

    def frame(self, name: str) -> pd.DataFrame:
        if name not in ABSTRACTION_TABLES:
            raise KeyError(f"no abstraction table {name!r}; expected one of {ABSTRACTION_TABLES}")
        frame: pd.DataFrame = getattr(self, name)
        return frame

    # ------------------------------------------------------------------ arrays
    @property
    def n_classes(self) -> int:
        return len(self.classes)

    @property
    def n_buckets(self) -> int:
        return len(self.buckets)

    def class_probabilities(self) -> np.ndarray:
        """(n_classes,) float64."""
        return self.classes.sort_values("class")["probability"].to_numpy(np.float64)

    def human_transitions(self) -> np.ndarray:
        """(n_classes, 6, n_buckets) float64: P(final bucket | class, human draw count)."""
        t = self.transitions
        t = t[t["drawer"] == "human"].sort_values(["class", "draw", "bucket"])
        return t["probability"].to_numpy(np.float64).reshape(self.n_classes, N_DRAWS, self.n_buckets)

    def riemann_transitions(self) -> np.ndarray:
        """(n_classes, n_buckets) float64: P(final bucket | class) under Riemann's House draw."""
        t = self.transitions
        t = t[t["drawer"] == "riemann"].sort_values(["class", "bucket"])
        return t["probability"].to_numpy(np.float64).reshape(self.n_classes, self.n_buckets)

    def riemann_draws(self) -> np.ndarray:
        """(n_classes,) int8: Riemann's House draw count per class."""
        return self.classes.sort_values("class")["house_draw"].to_numpy(np.int8)

    def belief_array(self) -> np.ndarray:
        """(6, 1000) int32 belief table (rows: draw count 0..4, random hands 5)."""
        t = self.belief.sort_values(["draw", "quantile"])
        return t["strength"].to_numpy(np.int32).reshape(t["draw"].nunique(), -1)

    def arrays(self) -> AbstractionArrays:
        """The arrays the game builder takes."""
        return AbstractionArrays(
            self.variant,
            class_prob=self.class_probabilities(),
            h_trans=self.human_transitions(),
            r_trans=self.riemann_transitions(),
            r_draw=self.riemann_draws(),
            class_names=tuple(self.classes.sort_values("class")["name"]),
        )


def load_abstraction(directory: str | Path | None, variant: str) -> AbstractionTables:
    """The tables of ``variant`` from ``directory`` (a variant folder ``results/{variant}``, or
    the results folder above it), or built in-process when ``directory`` is None."""
    if directory is None:
        return build_abstraction(variant, progress=False)
    base = Path(directory)
    for where in (base, base / variant):
        if all((where / f"{n}.parquet").exists() for n in ABSTRACTION_TABLES):
            return AbstractionTables.load(where, variant)
    need = ", ".join(f"{n}.parquet" for n in ABSTRACTION_TABLES)
    raise InputError(f"{base}: no abstraction tables for {variant!r} (need {need} in {base} or {base / variant})")


# --------------------------------------------------------------------------- build
def build_abstraction(
    variant: str,
    n_buckets: int = N_BUCKETS,
    belief_seed: int = 51,
    belief_samples: int = 20_000,
    progress: bool = True,
    timings: dict[str, float] | None = None,
    class_set: str = "standard",
) -> AbstractionTables:
    """The four tables of a variant (sorted rows, fixed dtypes; module docstring).

    ``timings``, if given, receives the seconds of each stage; ``class_set`` is ``standard`` (the
    pipeline's classes) or ``refined`` (the abstraction-size study's refined set,
    :data:`poker51.abstraction.keys.CLASS_SETS`; the class table's ``base`` codes say which).
    """
    bar = tqdm(total=5, desc=f"abstraction {variant}", disable=not progress, leave=False)
    clock = [time.perf_counter()]

    def stage(name: str) -> None:
        now = time.perf_counter()
        if timings is not None:
            timings[name] = timings.get(name, 0.0) + now - clock[0]
        clock[0] = now
        bar.update()

    ht = hand_table(variant)
    stage("hands")
    buckets = bucket_table(*final_strength_distribution(ht), n_buckets)
    stage("buckets")
    keys = class_keys(variant, class_set)
    cls = np.searchsorted(keys, hand_keys(ht, class_set))
    members = np.bincount(cls, minlength=keys.size).astype(np.int64)
    hist = _transition_counts(ht, cls, keys.size, buckets, n_buckets)
    stage("transitions")
    classes = _class_frame(variant, keys, members, ht.hands.shape[0])
    transitions = _transition_frame(hist, members, ht.n_rest, (keys % 10).astype(np.int8))
    stage("tables")
    belief = _belief_frame(
        build_belief(ht.hands, ht.masks, ht.house_draw, ht.deck, ht.rule, belief_seed, belief_samples)
    )
    stage("belief")
    bar.close()
    return AbstractionTables(variant, classes, buckets, transitions, belief)


def _transition_counts(ht: HandTable, cls: np.ndarray, n_classes: int, buckets: pd.DataFrame, n_buckets: int):
    """Exact (C, 6, B) counts of final buckets per class and human draw count."""
    labels = bucket_of_strength(ht.strengths, buckets).astype(np.int64)
    A = subset_histograms(ht.hands, labels, n_buckets)
    keeps = keep_table(ht.hands, ht.masks, ht.rule)
    return class_histograms(ht.hands, cls, n_classes, keeps, labels, A)


def _class_frame(variant: str, keys: np.ndarray, members: np.ndarray, n_hands: int) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "class": np.arange(keys.size, dtype=np.int16),
            "name": class_names(variant, keys),
            "base": (keys // 100).astype(np.int8),
            "base_name": [ALL_BASE_NAMES[k // 100] for k in keys],
            "marker": ((keys // 10) % 10).astype(bool),
            "house_draw": (keys % 10).astype(np.int8),
            "members": members,
            "probability": members / n_hands,
        }
    )


def _transition_frame(hist: np.ndarray, members: np.ndarray, n_rest: int, house_draw: np.ndarray) -> pd.DataFrame:
    n_classes, _, n_buckets = hist.shape
    totals = members[:, None] * np.array([comb(n_rest, d) for d in range(N_DRAWS)], dtype=np.int64)[None, :]
    if not np.array_equal(hist.sum(axis=2), totals) or hist.min() < 0:
        raise AssertionError("transition counts do not sum to members · C(n_rest, d)")
    c, d, b = np.meshgrid(np.arange(n_classes), np.arange(N_DRAWS), np.arange(n_buckets), indexing="ij")
    human = pd.DataFrame(
        {
            "drawer": "human",
            "class": c.ravel(),
            "draw": d.ravel(),
            "bucket": b.ravel(),
            "count": hist.ravel(),
            "total": np.broadcast_to(totals[:, :, None], hist.shape).ravel(),
        }
    )
    riemann = human[human["draw"].to_numpy() == house_draw[human["class"].to_numpy()]].assign(drawer="riemann")
    transitions = pd.concat([human, riemann], ignore_index=True)
    transitions = transitions.astype(
        {"class": "int16", "draw": "int8", "bucket": bucket_dtype(n_buckets), "count": "int64", "total": "int64"}
    )
    transitions["probability"] = transitions["count"] / transitions["total"]
    return transitions.sort_values(["drawer", "class", "draw", "bucket"], kind="stable").reset_index(drop=True)


def _belief_frame(table: np.ndarray) -> pd.DataFrame:
    q = table.shape[1]
    return pd.DataFrame(
        {
            "draw": np.repeat(np.arange(table.shape[0]), q).astype(np.int8),
            "quantile": np.tile(np.arange(q), table.shape[0]).astype(np.int16),
            "strength": table.ravel().astype(np.int32),
        }
    )


__all__ = ["AbstractionArrays", "AbstractionTables", "build_abstraction", "load_abstraction"]
