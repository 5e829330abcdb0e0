"""Strength buckets of a variant (SPEC section 4).

**Buckets** (``n_buckets``, default 40): the exact distribution of the final strength of a
House-rule draw from a uniformly dealt hand (each dealt hand weight 1/C(n,5), each of its
replacements 1/C(n_rest, d)); strength ``s`` goes to bucket ``floor(n_buckets · P(S < s))``,
so equal strengths share a bucket and bucket 0 is the weakest.  Every probability is an exact
rational with denominator C(n,5) · lcm_d C(n_rest, d), stored as an integer ``weight``.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb, lcm

import numpy as np
import pandas as pd

from poker51.abstraction.classes import HandTable, hand_table, variant_spec
from poker51.abstraction.transitions import final_hand_weights
from poker51.hands.evaluate import strengths as eval_strengths
from poker51.rules import bucket_dtype

N_BUCKETS = 40


def final_strength_distribution(ht: HandTable) -> tuple[np.ndarray, np.ndarray, int]:
    """(strengths ascending int32, exact int64 weights, total) of the House-rule final hand.

    ``weights[i] / total`` is the probability that a uniformly dealt hand ends, after its House
    draw, with strength ``strengths[i]``; total = C(n,5) · lcm_d C(n_rest, d)."""
    L = lcm(*(comb(ht.n_rest, d) for d in range(5)))
    w = L // np.array([comb(ht.n_rest, d) for d in range(5)], dtype=np.int64)[ht.house_draw]
    fw = final_hand_weights(ht.hands, ht.masks.astype(np.int64), w)
    values, inv = np.unique(ht.strengths, return_inverse=True)
    weights = np.zeros(values.size, np.int64)
    np.add.at(weights, inv, fw)
    total = ht.hands.shape[0] * L
    if weights.sum() != total or weights.min() < 0:
        raise AssertionError("final-strength weights do not sum to C(n,5) · L")
    return values.astype(np.int32), weights, int(total)


def bucket_table(values: np.ndarray, weights: np.ndarray, total: int, n_buckets: int = N_BUCKETS) -> pd.DataFrame:
    """Quantile buckets of a strength distribution: bucket, low, high, n_strengths, weight, probability."""
    pos = weights > 0
    v, w = values[pos], weights[pos]
    below = np.cumsum(w) - w
    b = (n_buckets * below) // total  # exact: floor(n_buckets · P(S < s))
    if np.unique(b).size != n_buckets:
        raise ValueError(f"only {np.unique(b).size} of {n_buckets} buckets are non-empty")
    rows = []
    for k in range(n_buckets):
        sel = b == k
        rows.append((k, v[sel].min(), v[sel].max(), sel.sum(), w[sel].sum()))
    df = pd.DataFrame(rows, columns=["bucket", "low", "high", "n_strengths", "weight"])
    df = df.astype(
        {"bucket": bucket_dtype(n_buckets), "low": "int32", "high": "int32", "n_strengths": "int32", "weight": "int64"}
    )
    df["probability"] = (df["weight"] / total).astype("float64")
    return df


def bucket_of_strength(strengths, variant_buckets) -> np.ndarray:
    """Bucket of each strength: the last bucket whose lowest strength is ≤ it (int8, int16 above
    127 buckets: :func:`poker51.rules.bucket_dtype`).

    ``variant_buckets`` is a bucket table or its ``low`` column; a strength below every
    bucket goes to bucket 0.
    """
    lows = np.asarray(variant_buckets["low"] if isinstance(variant_buckets, pd.DataFrame) else variant_buckets)
    b = np.searchsorted(lows, np.asarray(strengths), side="right") - 1
    return np.maximum(b, 0).astype(bucket_dtype(lows.size))


@lru_cache(maxsize=3)
def exact_buckets(variant: str, n_buckets: int = N_BUCKETS) -> pd.DataFrame:
    """The bucket table of a variant, computed from every dealt hand (once per process)."""
    return bucket_table(*final_strength_distribution(hand_table(variant)), n_buckets)


def bucket_of(final_hand5, variant: str, buckets: pd.DataFrame | None = None) -> int:
    """Bucket of a final hand (five card ints) of a variant; ``buckets`` defaults to the
    exact 40-bucket table, computed once per process."""
    deck, rule = variant_spec(variant)
    if not set(np.ravel(final_hand5).tolist()) <= set(deck.tolist()):  # a set test: np.isin costs more on five cards
        raise ValueError(f"hand {final_hand5!r} holds a card not in play in {variant}")
    s = eval_strengths(np.asarray(final_hand5, dtype=np.int64)[None, :], rule)
    return int(bucket_of_strength(s, exact_buckets(variant) if buckets is None else buckets)[0])
