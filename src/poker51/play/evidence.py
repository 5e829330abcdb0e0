"""The evidence run: Riemann v0.6 against v0.5 on fresh real-card deals (SPEC section 7).

For each player type of the population (:class:`poker51.play.players.TypePlayer` in seat H),
Riemann plays ``hands`` hands in seat R twice, once as the v0.6 table player and once as
the v0.5 read-and-threshold player (:class:`poker51.play.v05.V05Player`), on the **same deals**:
hand ``k`` of every match is the engine's deck ``[seed, k]``
(:func:`poker51.play.engine.shuffled_deck`), for both policies and every type.  Each hand
starts from the same stacks (default 100 each: deep, as in the abstraction).  The type
player gets the same seed in both matches and reseeds per hand, so it draws the same
random numbers hand by hand (common random numbers), and the paired difference
``v0.6 − v0.5`` per hand has a much smaller variance than either.

Statistics, per (variant, type, policy), over the per-hand nets ``x_k`` of Riemann in jbits
(policy ``"v0.6-v0.5"`` is the per-hand paired difference)::

    mean = x̄,  sd = sample standard deviation (ddof 1),  se = sd / √n,
    95% CI = mean ± t_{0.975, n-1} · se   (Student t; hands are independent deals)

The players are a language model's judgments in the study and documented design choices
here (``config/population.yaml``): this is evidence about those modelled players only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy import stats
from tqdm.auto import tqdm

from poker51.games.population import PlayerType, Population
from poker51.hands.house import house_keep
from poker51.play.engine import VARIANT_RULES, Action, H, R, View, play_hand
from poker51.play.players import TypePlayer, type_seed

POLICIES = ("v0.6", "v0.5")
DIFF = "v0.6-v0.5"
CONFIDENCE = 0.95
DEFAULT_STACK = 100
TABLE_NAMES = ("classes", "buckets", "transitions", "belief")
SUMMARY_COLUMNS = ["variant", "type", "policy", "hands", "seed", "mean", "sd", "se", "ci_low", "ci_high"]

#: a factory is a player object, or a callable ``factory(variant) -> player``
PlayerFactory = Any


# --------------------------------------------------------------------------- inputs
def load_tables(variant: str, tables_dir: str | Path | None = None) -> dict[str, pd.DataFrame]:
    """A variant's abstraction tables: read from ``tables_dir`` or built in-process (cached).

    ``tables_dir`` holds ``classes``, ``buckets``, ``transitions`` and ``belief`` as
    ``<dir>/<variant>/<name>.parquet`` or ``<dir>/<name>.parquet``.  Without a directory
    :func:`poker51.abstraction.classes.build_abstraction` runs once per variant and process.
    """
    if tables_dir is None:
        return _built_tables(variant)
    from poker51.errors import InputError
    from poker51.io import read_parquet

    base = Path(tables_dir)
    for where in (base / variant, base):
        if all((where / f"{n}.parquet").exists() for n in TABLE_NAMES):
            return {n: read_parquet(where / f"{n}.parquet") for n in TABLE_NAMES}
    raise InputError(
        f"{base}: no abstraction tables for {variant!r} "
        f"(need {', '.join(n + '.parquet' for n in TABLE_NAMES)} in {base / variant} or {base})"
    )


@lru_cache(maxsize=3)
def _built_tables(variant: str) -> dict[str, pd.DataFrame]:
    from poker51.abstraction.classes import build_abstraction

    return build_abstraction(variant, progress=False)


def make_player(factory: PlayerFactory, variant: str):
    """A player from a factory: an object with ``act`` and ``choose_keep`` is used as is
    (it is shared by every match), anything else is called as ``factory(variant)``."""
    if not isinstance(factory, type) and hasattr(factory, "act") and hasattr(factory, "choose_keep"):
        return factory
    if not callable(factory):
        raise TypeError(f"{factory!r} is neither a player nor a factory")
    return factory(variant)


class CheckCallPlayer:
    """A stand-in Riemann for tests and smoke runs: House-rule draw; checks, else calls."""

    def __init__(self, variant: str = "standard"):
        self.rule = VARIANT_RULES[variant]

    def choose_keep(self, view: View) -> int:
        return house_keep(list(view.cards), self.rule)[0]

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        kinds = {a.kind: a for a in legal}
        return kinds.get("check") or kinds["call"]


# --------------------------------------------------------------------------- the run
def evidence_hands(
    riemann_v06: PlayerFactory,
    v05: PlayerFactory,
    types: Population | Sequence[PlayerType],
    variant: str,
    hands: int,
    seed: int,
    stacks: int | dict[str, int] | None = None,
    tables: dict[str, pd.DataFrame] | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Per-hand nets of Riemann: columns variant, type, hand, ``v0.6``, ``v0.5`` (int jbits).

    ``tables`` are the variant's abstraction tables for the type players (default
    :func:`load_tables`).  ``stacks``: both players' balance at the start of every hand
    (an int, or ``{"H": .., "R": ..}``; default 100 each).
    """
    if int(hands) < 1:
        raise ValueError(f"hands must be at least 1, got {hands}")
    tlist = list(types.types if isinstance(types, Population) else types)
    if not tlist:
        raise ValueError("no player types")
    tables = load_tables(variant) if tables is None else tables
    start = _stacks(stacks)
    factories = {"v0.6": riemann_v06, "v0.5": v05}
    frames = []
    bar = tqdm(total=len(tlist) * len(POLICIES) * int(hands), desc=f"evidence {variant}", disable=not progress)
    for i, ptype in enumerate(tlist):
        nets = {}
        for policy in POLICIES:
            riemann = make_player(factories[policy], variant)
            human = TypePlayer(ptype, variant, tables, type_seed(seed, i))
            x = np.empty(int(hands), np.int64)
            for k in range(int(hands)):
                res = play_hand(
                    {H: human, R: riemann}, stacks=start, variant=variant, base_seed=int(seed), hand_index=k
                )
                x[k] = res.net[R]
                bar.update()
            nets[policy] = x
        frames.append(
            pd.DataFrame(
                {
                    "variant": variant,
                    "type": ptype.name,
                    "hand": np.arange(int(hands)),
                    "v0.6": nets["v0.6"],
                    "v0.5": nets["v0.5"],
                }
            )
        )
    bar.close()
    return pd.concat(frames, ignore_index=True)


def _stacks(stacks) -> dict[str, int]:
    if stacks is None:
        return {H: DEFAULT_STACK, R: DEFAULT_STACK}
    if isinstance(stacks, dict):
        return {H: int(stacks[H]), R: int(stacks[R])}
    return {H: int(stacks), R: int(stacks)}


def mean_ci(x: np.ndarray, confidence: float = CONFIDENCE) -> tuple[float, float, float, float, float]:
    """(mean, sd, se, ci_low, ci_high) of a sample with a Student-t interval (NaN spread for n = 1).

    >>> [round(v, 4) for v in mean_ci(np.array([1.0, 2.0, 3.0]))]
    [2.0, 1.0, 0.5774, -0.4841, 4.4841]
    """
    x = np.asarray(x, np.float64)
    n = x.size
    mean = float(x.mean())
    if n < 2:
        return mean, float("nan"), float("nan"), float("nan"), float("nan")
    sd = float(x.std(ddof=1))
    se = float(sd / np.sqrt(n))
    half = float(stats.t.ppf(0.5 + confidence / 2, n - 1)) * se
    return mean, sd, se, mean - half, mean + half


def summarize(per_hand: pd.DataFrame, seed: int) -> pd.DataFrame:
    """One row per (variant, type, policy) with policy ``v0.6``, ``v0.5``, ``v0.6-v0.5``."""
    rows = []
    for (variant, tname), g in per_hand.groupby(["variant", "type"], sort=False):
        series = {"v0.6": g["v0.6"].to_numpy(), "v0.5": g["v0.5"].to_numpy()}
        series[DIFF] = series["v0.6"] - series["v0.5"]
        for policy, x in series.items():
            rows.append((variant, tname, policy, int(x.size), int(seed), *mean_ci(x)))
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def evidence_run(
    riemann_v06: PlayerFactory,
    v05: PlayerFactory,
    types: Population | Sequence[PlayerType],
    variant: str,
    hands: int,
    seed: int,
    stacks: int | dict[str, int] | None = None,
    tables: dict[str, pd.DataFrame] | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """v0.6 against v0.5 against each type on the same deals: the summary table
    (:data:`SUMMARY_COLUMNS`, one row per variant, type and policy; means in jbits per
    hand for Riemann).  Arguments as :func:`evidence_hands`."""
    per_hand = evidence_hands(riemann_v06, v05, types, variant, hands, seed, stacks, tables, progress)
    return summarize(per_hand, seed)


# --------------------------------------------------------------------------- figure
_STYLE = {"font.size": 8, "axes.titlesize": 9, "svg.hashsalt": "poker51", "pdf.compression": 6}
PDF_METADATA = {"CreationDate": None, "Producer": None, "Creator": None}
PNG_METADATA = {"Software": None}


def fig_evidence(df: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """Mean jbits per hand for Riemann with 95% CIs: v0.6 and v0.5 per type (left), and
    the paired difference v0.6 − v0.5 (right); one row of panels per variant.

    ``df`` is the :func:`evidence_run` summary.  Writes ``out_stem.pdf`` and ``.png``
    with fixed metadata (same table, same bytes).
    """
    variants = list(dict.fromkeys(df["variant"]))
    with plt.rc_context(_STYLE):
        fig, axes = plt.subplots(
            len(variants), 2, figsize=(7.0, 2.6 * len(variants)), squeeze=False, gridspec_kw={"width_ratios": [2, 1]}
        )
        for row, variant in zip(axes, variants):
            sub = df[df["variant"] == variant]
            names = list(dict.fromkeys(sub["type"]))
            y = np.arange(len(names))
            for k, (policy, marker) in enumerate(((POLICIES[0], "o"), (POLICIES[1], "s"))):
                s = sub[sub["policy"] == policy].set_index("type").reindex(names)
                err = np.vstack([s["mean"] - s["ci_low"], s["ci_high"] - s["mean"]])
                row[0].errorbar(
                    s["mean"],
                    y + (-0.15 if k == 0 else 0.15),
                    xerr=err,
                    fmt=marker,
                    markersize=4,
                    capsize=2,
                    linewidth=0.8,
                    label=f"Riemann {policy}",
                )
            d = sub[sub["policy"] == DIFF].set_index("type").reindex(names)
            row[1].errorbar(
                d["mean"],
                y,
                xerr=np.vstack([d["mean"] - d["ci_low"], d["ci_high"] - d["mean"]]),
                fmt="D",
                markersize=4,
                capsize=2,
                linewidth=0.8,
                color="black",
            )
            for ax in row:
                ax.axvline(0.0, color="grey", linewidth=0.6)
                ax.set_yticks(y, [n.replace("_", " ") for n in names])
                ax.grid(axis="x", linewidth=0.4, alpha=0.5)
            n = int(sub["hands"].iloc[0]) if len(sub) else 0
            row[0].set_title(f"{variant}: {n:,} deals per type")
            row[0].set_xlabel("Riemann's mean jbits per hand (95% CI)")
            row[0].invert_yaxis()  # the first type on top
            row[0].legend(fontsize=7, frameon=False, loc="best")
            row[1].set_title("paired difference v0.6 − v0.5")
            row[1].set_xlabel("jbits per hand (95% CI)")
            row[1].set_ylim(row[0].get_ylim())
            row[1].tick_params(labelleft=False)
        fig.tight_layout()
        return _save(fig, out_stem)


def _save(fig, out_stem: str | Path) -> list[Path]:
    out_stem = Path(out_stem)
    out_stem.parent.mkdir(parents=True, exist_ok=True)
    pdf, png = out_stem.with_name(out_stem.name + ".pdf"), out_stem.with_name(out_stem.name + ".png")
    fig.savefig(pdf, metadata=PDF_METADATA)
    fig.savefig(png, metadata=PNG_METADATA, dpi=150)
    plt.close(fig)
    return [pdf, png]


def v05_factory(tables: dict[str, pd.DataFrame]) -> Callable[[str], Any]:
    """``factory(variant)`` of the v0.5 player reading ``tables``' belief table."""
    from poker51.play.v05 import V05Player

    return lambda variant: V05Player.from_tables(variant, tables)


def riemann_factory(
    tables: dict[str, pd.DataFrame],
    strategy: str | Path | None = None,
    receipt: str | Path | None = None,
    variant: str = "standard",
) -> Callable[[str], Any]:
    """``factory(variant)`` of the v0.6 table player :class:`poker51.play.riemann.Riemann`.

    The table is loaded and checked now (errors surface here, not mid-run): ``strategy``
    is the exported table (default: the variant's table in
    ``poker51.play.riemann.DEFAULT_TABLES_DIR``); ``receipt``, if given, must hold its SHA-256.
    The player classifies with ``tables``' classes and buckets.  Riemann is a pure
    function of cards and spot, so the one player serves every match.
    """
    from poker51.play.riemann import Riemann

    player = Riemann.load(
        variant if strategy is None else strategy,
        receipt=receipt,
        variant=variant,
        classes=tables["classes"],
        buckets=tables["buckets"],
    )

    def make(v: str):
        if v != player.variant:
            raise ValueError(f"the v0.6 table is for {player.variant}, not {v}")
        return player

    return make


__all__ = [
    "CheckCallPlayer",
    "DIFF",
    "POLICIES",
    "SUMMARY_COLUMNS",
    "evidence_hands",
    "evidence_run",
    "fig_evidence",
    "load_tables",
    "make_player",
    "mean_ci",
    "riemann_factory",
    "summarize",
    "v05_factory",
]
