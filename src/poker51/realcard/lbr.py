"""Local best response runs: what a real-card opponent can at least win from each policy.

The local best response (LBR, Lisý and Bowling 2017; rules in :mod:`poker51.realcard.lbr_kernels`)
plays seat H against Riemann v0.6 (the exported table) and against v0.5 (the read-and-threshold
policy with the variant's belief table) on seeded real-card deals: hand ``i`` is the engine's
deck ``shuffled_deck(variant, seed, i)`` (:func:`poker51.play.engine.shuffled_deck`), both
stacks start at :data:`STACK` (deep: no all-in is possible, as in the abstraction), and the
LBR's random key of hand ``i`` is ``SeedSequence([seed, i, LBR_DOMAIN])``'s first 64-bit word.
Both policies meet the same deals.

LBR is one fixed real-card strategy, so its mean winnings are a *lower bound* on what the best
real opponent could win from the policy; per (variant, policy) the run reports the mean jbits
per hand that LBR wins (``-`` Riemann's), its sample sd, standard error and Student-t 95%
interval (:func:`poker51.realcard.evidence.mean_ci`), and the per-hand results from which any
interval can be recomputed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from poker51.abstraction.tables import AbstractionTables
from poker51.play.engine import shuffled_deck
from poker51.policies.kernels import (
    CHECKCALL,
    V05,
    V06,
    PolicyArrays,
    fill_reads,
    hand_arrays,
    policy_tuple,
    table_arrays,
)
from poker51.policies.riemann import Riemann
from poker51.realcard.evidence import mean_ci
from poker51.realcard.lbr_kernels import OUT_COLUMNS, decode_line, lbr_hands

#: the policies LBR plays against; "check-call" is the known-answer stand-in
POLICIES = ("v0.6", "v0.5")
KINDS = {"v0.6": V06, "v0.5": V05, "check-call": CHECKCALL}
#: both stacks at the start of every hand: at least 49 jbits, so nobody is ever all in
STACK = 100
#: the unit of every LBR result (the opposite sign of the other tables' Riemann-side jbits)
LBR_UNIT = "jbits per hand won by the local best response from Riemann (+ = LBR wins)"
#: entropy word that separates LBR's random keys from the deals' seeds
LBR_DOMAIN = 0x4C4252
HAND_COLUMNS = [
    "variant",
    "policy",
    "hand",
    "net",
    "pre_line",
    "post_line",
    "h_draw",
    "r_draw",
    "fallbacks",
    "particles",
]


@dataclass(frozen=True)
class LBRScore:
    """The LBR result of one (variant, policy): jbits per hand that LBR wins from Riemann."""

    variant: str
    policy: str
    hands: int
    seed: int
    particles: int
    max_tries: int
    mean: float
    sd: float
    se: float
    ci_low: float
    ci_high: float
    fallbacks: int

    def row(self) -> dict:
        return asdict(self)

    def columns(self) -> dict[str, float | int]:
        """The columns of ``results/scores.parquet``: the lower bound and its interval."""
        return {
            "lbr_win": self.mean,
            "lbr_win_ci_low": self.ci_low,
            "lbr_win_ci_high": self.ci_high,
            "lbr_hands": self.hands,
        }


def hand_keys(seed: int, first: int, n: int) -> np.ndarray:
    """LBR's random key (uint64) of hands ``first .. first + n - 1``."""
    return np.array(
        [
            np.random.SeedSequence([int(seed), i, LBR_DOMAIN]).generate_state(1, np.uint64)[0]
            for i in range(first, first + n)
        ],
        dtype=np.uint64,
    )


def hand_decks(variant: str, seed: int, first: int, n: int) -> np.ndarray:
    """The engine's decks of hands ``first .. first + n - 1`` as an (n, cards) int64 array."""
    return np.array([shuffled_deck(variant, seed, i) for i in range(first, first + n)], dtype=np.int64)


def policy_model(
    policy: str, variant: str, tables: AbstractionTables, table: str | Path | Riemann | None = None
) -> PolicyArrays:
    """The kernel view of Riemann's policy (:func:`poker51.policies.kernels.policy_tuple`): ``v0.6``
    reads the exported ``table`` (checked as :meth:`Riemann.load` does; or a :class:`Riemann`
    built from a table in memory, as the abstraction-size study does), ``v0.5`` the variant's
    belief table, ``check-call`` nothing."""
    if policy not in KINDS:
        raise ValueError(f"unknown policy {policy!r}: expected one of {sorted(KINDS)}")
    if policy == "v0.6" and table is None:
        raise ValueError("the v0.6 policy needs its exported table")
    hands = hand_arrays(variant, tables.classes, tables.buckets)
    if policy == "v0.6" and table is not None:
        if isinstance(table, Riemann):
            riemann = table
        else:
            riemann = Riemann.load(table, variant=variant, classes=tables.classes, buckets=tables.buckets)
        return policy_tuple(V06, hands, table_arrays(*riemann.kernel_arrays()))
    if policy == "v0.5":
        return policy_tuple(V05, hands, belief=tables.belief_array())
    return policy_tuple(CHECKCALL, hands)


def lbr_run(
    model: PolicyArrays,
    variant: str,
    policy: str,
    hands: int,
    seed: int,
    particles: int,
    max_tries: int,
    chunk: int = 5000,
    progress: bool = False,
) -> pd.DataFrame:
    """Per-hand results (:data:`HAND_COLUMNS`) of LBR against ``model`` on hands 0 .. hands - 1."""
    if int(hands) < 1 or int(particles) < 1 or int(max_tries) < int(particles):
        raise ValueError(
            f"need hands >= 1, particles >= 1 and max_tries >= particles, got {hands}, {particles}, {max_tries}"
        )
    out = np.zeros((int(hands), len(OUT_COLUMNS)), np.int64)
    if int(hands) * int(particles) >= len(model.by_draw):  # most hands will be candidates: fill v0.5's reads at once
        fill_reads(model)
    bar = tqdm(total=int(hands), desc=f"lbr {variant} {policy}", disable=not progress)
    for first in range(0, int(hands), chunk):
        n = min(chunk, int(hands) - first)
        decks = hand_decks(variant, seed, first, n)
        lbr_hands(decks, hand_keys(seed, first, n), model, int(particles), int(max_tries), out[first : first + n])
        bar.update(n)
    bar.close()
    cols = dict(zip(OUT_COLUMNS, out.T))
    lines = {code: decode_line(code) for code in np.unique(np.concatenate([cols["pre_code"], cols["post_code"]]))}
    return pd.DataFrame(
        {
            "variant": variant,
            "policy": policy,
            "hand": np.arange(int(hands), dtype=np.int64),
            "net": cols["net"],
            "pre_line": [lines[c] for c in cols["pre_code"]],
            "post_line": [lines[c] for c in cols["post_code"]],
            "h_draw": cols["h_draw"].astype(np.int8),
            "r_draw": cols["r_draw"].astype(np.int8),
            "fallbacks": cols["fallbacks"].astype(np.int8),
            "particles": cols["min_particles"].astype(np.int32),
        }
    )


def summarize_lbr(per_hand: pd.DataFrame, seed: int, particles: int, max_tries: int) -> list[LBRScore]:
    """One :class:`LBRScore` per (variant, policy) of a per-hand frame."""
    out = []
    for (variant, policy), g in per_hand.groupby(["variant", "policy"], sort=False):
        mean, sd, se, lo, hi = mean_ci(g["net"].to_numpy())
        out.append(
            LBRScore(
                str(variant), str(policy), len(g), int(seed), int(particles), int(max_tries), mean, sd, se, lo, hi,
                int((g["fallbacks"] > 0).sum()),
            )
        )  # fmt: skip
    return out


__all__ = [
    "HAND_COLUMNS", "LBRScore", "LBR_DOMAIN", "LBR_UNIT", "POLICIES", "STACK", "hand_decks", "hand_keys", "lbr_run",
    "policy_model", "summarize_lbr",
]  # fmt: skip
