"""The evidence run: Riemann v0.6 against v0.5 on fresh real-card deals (SPEC section 7).

For each player type of the population (:class:`poker51.policies.types.TypePlayer` in seat H),
Riemann plays ``hands`` hands in seat R twice, once as the v0.6 table player and once as
the v0.5 read-and-threshold player (:class:`poker51.policies.v05.V05Player`), on the **same deals**:
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

Next to the training types (population ``in_sample``) the run plays the hold-out types of
``config/holdout.yaml`` (population ``holdout``, :mod:`poker51.policies.holdout`): players defined
on real cards, independently of the population Riemann was solved against, including v0.5
itself in seat H.  Hold-out type ``i`` plays with seed ``type_seed(seed, 1000 + i)``.

The players are a language model's judgments in the study and documented design choices
here (``config/population.yaml``, ``config/holdout.yaml``): this is evidence about those
modelled players only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from tqdm import tqdm  # not tqdm.auto: it warns (TqdmExperimentalWarning) in a notebook

from poker51.abstraction.tables import AbstractionTables, build_abstraction
from poker51.games.population import PlayerType, Population
from poker51.hands.house import house_keep
from poker51.play.actions import Action, H, R, View
from poker51.play.engine import HandState, run_hand, shuffled_deck
from poker51.policies.holdout import HoldoutType, holdout_player
from poker51.policies.riemann import Riemann
from poker51.policies.types import TypePlayer, type_seed
from poker51.policies.v05 import V05Player
from poker51.rules import VARIANT_RULES

POLICIES = ("v0.6", "v0.5")
DIFF = "v0.6-v0.5"
CONFIDENCE = 0.95
DEFAULT_STACK = 100
SUMMARY_COLUMNS = ["variant", "population", "type", "policy", "hands", "seed", "mean", "sd", "se", "ci_low", "ci_high"]

#: a factory is a player object, or a callable ``factory(variant) -> player``
PlayerFactory = Any


# --------------------------------------------------------------------------- inputs
@lru_cache(maxsize=3)
def built_tables(variant: str) -> AbstractionTables:
    """A variant's abstraction tables built in-process (once per process and variant)."""
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
#: the two populations of the evidence run: the training types and the hold-out types
IN_SAMPLE, HOLDOUT = "in_sample", "holdout"
#: hold-out type i plays with seed type_seed(seed, HOLDOUT_SEED_OFFSET + i)
HOLDOUT_SEED_OFFSET = 1000


def _humans(
    types: Population | Sequence[PlayerType], holdout: Sequence[HoldoutType], variant: str, tables, seed: int
) -> list[tuple[str, str, Callable[[], Any]]]:
    """(population, type name, fresh seat-H player factory) of every type, in-sample first."""
    tlist = list(types.types if isinstance(types, Population) else types)

    def training(t: PlayerType, i: int) -> Callable[[], Any]:
        return lambda: TypePlayer(t, variant, tables, type_seed(seed, i))

    def held_out(h: HoldoutType, i: int) -> Callable[[], Any]:
        return lambda: holdout_player(h, variant, tables, type_seed(seed, HOLDOUT_SEED_OFFSET + i))

    out = [(IN_SAMPLE, t.name, training(t, i)) for i, t in enumerate(tlist)]
    return out + [(HOLDOUT, h.name, held_out(h, i)) for i, h in enumerate(holdout)]


def evidence_hands(
    riemann_v06: PlayerFactory,
    v05: PlayerFactory,
    types: Population | Sequence[PlayerType],
    variant: str,
    hands: int,
    seed: int,
    stacks: int | dict[str, int] | None = None,
    tables: AbstractionTables | None = None,
    progress: bool = False,
    holdout: Sequence[HoldoutType] = (),
) -> pd.DataFrame:
    """Per-hand nets of Riemann: columns variant, population, type, hand, ``v0.6``, ``v0.5``
    (int jbits), the training ``types`` (population ``in_sample``) then the ``holdout``
    types (population ``holdout``, :mod:`poker51.policies.holdout`).

    ``tables`` are the variant's abstraction tables for the type players (default
    :func:`built_tables`).  ``stacks``: both players' balance at the start of every hand
    (an int, or ``{"H": .., "R": ..}``; default 100 each).
    """
    if int(hands) < 1:
        raise ValueError(f"hands must be at least 1, got {hands}")
    tables = built_tables(variant) if tables is None else tables
    humans = _humans(types, holdout, variant, tables, int(seed))
    if not humans:
        raise ValueError("no player types")
    start = _stacks(stacks)
    # the deals, shuffled once for every match: hand k is play_hand's seeded hand k
    decks = np.array([shuffled_deck(variant, int(seed), k) for k in range(int(hands))], np.int8)
    factories = {"v0.6": riemann_v06, "v0.5": v05}
    frames = []
    bar = tqdm(total=len(humans) * len(POLICIES) * int(hands), desc=f"evidence {variant}", disable=not progress)
    for population, name, make_human in humans:
        nets = {}
        for policy in POLICIES:
            riemann = make_player(factories[policy], variant)
            human = make_human()
            x = np.empty(int(hands), np.int64)
            for k in range(int(hands)):
                hand = HandState(variant, start, decks[k].tolist(), seed=(int(seed), k), hand_index=k)
                res = run_hand(hand, {H: human, R: riemann})
                x[k] = res.net[R]
                bar.update()
            nets[policy] = x
        frames.append(
            pd.DataFrame(
                {
                    "variant": variant,
                    "population": population,
                    "type": name,
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
    from scipy import stats  # on first use: it costs about half a second of every job's start

    half = float(stats.t.ppf(0.5 + confidence / 2, n - 1)) * se
    return mean, sd, se, mean - half, mean + half


def summarize(per_hand: pd.DataFrame, seed: int) -> pd.DataFrame:
    """One row per (variant, population, type, policy) with policy ``v0.6``, ``v0.5``,
    ``v0.6-v0.5``; a per-hand frame without ``population`` is the in-sample population."""
    if "population" not in per_hand.columns:
        per_hand = per_hand.assign(population=IN_SAMPLE)
    rows = []
    for (variant, population, tname), g in per_hand.groupby(["variant", "population", "type"], sort=False):
        series = {"v0.6": g["v0.6"].to_numpy(), "v0.5": g["v0.5"].to_numpy()}
        series[DIFF] = series["v0.6"] - series["v0.5"]
        for policy, x in series.items():
            rows.append((variant, population, tname, policy, int(x.size), int(seed), *mean_ci(x)))
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def bonferroni(summary: pd.DataFrame, policy: str = DIFF, level: float = 1 - CONFIDENCE) -> pd.DataFrame:
    """The family of ``policy``'s intervals (default every paired gain v0.6 - v0.5) of a summary
    table (:data:`SUMMARY_COLUMNS`) with the Bonferroni correction: ``m`` intervals, each at
    confidence ``1 - level / m`` (Student-t on the row's ``se`` and ``hands``), so that all of
    them hold together with probability at least ``1 - level``.  Columns variant, population,
    type, mean, ``m``, ``adj_low``, ``adj_high`` and ``survives`` (the corrected interval
    excludes 0: the gain, or loss, is established family-wise).

    >>> s = pd.DataFrame({"variant": ["a", "a"], "population": "in_sample", "type": ["x", "y"],
    ...     "policy": DIFF, "hands": 1000, "mean": [0.1, 0.2], "se": [0.045, 0.05]})
    >>> bonferroni(s)[["m", "survives"]].values.tolist()
    [[2, False], [2, True]]
    """
    from scipy import stats

    fam = summary[summary["policy"] == policy].reset_index(drop=True)
    m = len(fam)
    if m == 0:
        return pd.DataFrame(columns=["variant", "population", "type", "mean", "m", "adj_low", "adj_high", "survives"])
    t = stats.t.ppf(1 - level / (2 * m), fam["hands"].to_numpy(np.float64) - 1)
    half = t * fam["se"].to_numpy(np.float64)
    mean = fam["mean"].to_numpy(np.float64)
    low, high = mean - half, mean + half
    return pd.DataFrame({"variant": fam["variant"], "population": fam["population"], "type": fam["type"],
                         "mean": mean, "m": m, "adj_low": low, "adj_high": high,
                         "survives": (low > 0) | (high < 0)})  # fmt: skip


def evidence_run(
    riemann_v06: PlayerFactory,
    v05: PlayerFactory,
    types: Population | Sequence[PlayerType],
    variant: str,
    hands: int,
    seed: int,
    stacks: int | dict[str, int] | None = None,
    tables: AbstractionTables | None = None,
    progress: bool = False,
    holdout: Sequence[HoldoutType] = (),
) -> pd.DataFrame:
    """v0.6 against v0.5 against each type on the same deals: the summary table
    (:data:`SUMMARY_COLUMNS`, one row per variant, population, type and policy; means in
    jbits per hand for Riemann).  Arguments as :func:`evidence_hands`."""
    per_hand = evidence_hands(riemann_v06, v05, types, variant, hands, seed, stacks, tables, progress, holdout)
    return summarize(per_hand, seed)


def v05_factory(tables: AbstractionTables) -> Callable[[str], Any]:
    """``factory(variant)`` of the v0.5 player reading ``tables``' belief table.  The player is
    a pure function of cards and spot, so one player per variant serves every match (and its
    cache of reads carries over: every match plays the same deals)."""

    @cache
    def make(variant: str) -> V05Player:
        return V05Player.from_tables(variant, tables)

    return make


def riemann_factory(
    tables: AbstractionTables,
    strategy: str | Path | None = None,
    receipt: str | Path | None = None,
    variant: str = "standard",
) -> Callable[[str], Any]:
    """``factory(variant)`` of the v0.6 table player :class:`poker51.policies.riemann.Riemann`.

    The table is loaded and checked now (errors surface here, not mid-run): ``strategy``
    is the exported table (default: the variant's table in
    ``poker51.policies.riemann.DEFAULT_TABLES_DIR``); ``receipt``, if given, must hold its SHA-256.
    The player classifies with ``tables``' classes and buckets.  Riemann is a pure
    function of cards and spot, so the one player serves every match.
    """
    player = Riemann.load(
        variant if strategy is None else strategy,
        receipt=receipt,
        variant=variant,
        classes=tables.classes,
        buckets=tables.buckets,
    )

    def make(v: str):
        if v != player.variant:
            raise ValueError(f"the v0.6 table is for {player.variant}, not {v}")
        return player

    return make


__all__ = [
    "CheckCallPlayer",
    "bonferroni",
    "DIFF",
    "HOLDOUT",
    "IN_SAMPLE",
    "POLICIES",
    "SUMMARY_COLUMNS",
    "evidence_hands",
    "evidence_run",
    "built_tables",
    "make_player",
    "mean_ci",
    "riemann_factory",
    "summarize",
    "v05_factory",
]
