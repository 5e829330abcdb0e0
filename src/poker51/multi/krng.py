"""Numba twins of the random streams the tables use: SeedSequence, PCG64, SplitMix64, FNV-1a.

Each kernel reproduces a reference bit for bit (``tests/multi/test_kernels.py``):

- :func:`seedseq_state`, :func:`pcg64_seed`, :func:`pcg64_step`, :func:`pcg64_randoms` are
  NumPy's ``SeedSequence`` and ``PCG64``, from :mod:`poker51.pcg64` (shared with the local
  best response);
- :func:`splitmix64` and :func:`decision_uniform_k` are :mod:`poker51.multi.rng`'s;
- :func:`fnv1a_k` is :func:`poker51.fnv.fnv1a_64`;
- :func:`hand_seed_words` is the per-hand key of :func:`poker51.table.deal.new_seed`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from poker51.pcg64 import (
    TWO_M53,
    entropy_words,
    mul128,
    pcg64_output,
    pcg64_randoms,
    pcg64_seed,
    pcg64_step,
    seedseq_state,
)

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
SM1, SM2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
FNV_OFFSET, FNV_PRIME = np.uint64(0xCBF29CE484222325), np.uint64(0x100000001B3)


@njit(cache=True, inline="always")
def splitmix64(z):
    z = (z ^ (z >> np.uint64(30))) * SM1
    z = (z ^ (z >> np.uint64(27))) * SM2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def decision_uniform_k(key, seat, k):
    """:func:`poker51.multi.rng.decision_uniform` (key a uint64)."""
    z = splitmix64(key + GOLDEN * np.uint64(64 * seat + k + 1))
    return (z >> np.uint64(11)) * TWO_M53


@njit(cache=True)
def fnv1a_k(prefix, data):
    """FNV-1a-64 of the bytes ``prefix`` then ``data`` (uint8 arrays)."""
    h = FNV_OFFSET
    for b in prefix:
        h = (h ^ np.uint64(b)) * FNV_PRIME
    for b in data:
        h = (h ^ np.uint64(b)) * FNV_PRIME
    return h


@njit(cache=True)
def hand_seed_words(base, hand, which, out):
    """``out`` (8 words) = SeedSequence([*base words, hand, which]).generate_state(8): the key of
    :func:`poker51.table.deal.new_seed` ``("seedsequence", entropy, key=(*table_key, hand, which))``."""
    n = base.shape[0]
    words = np.empty(n + 2, np.uint64)
    words[:n] = base
    words[n] = np.uint64(hand)
    words[n + 1] = np.uint64(which)
    seedseq_state(words, 8, out)


__all__ = [
    "decision_uniform_k", "entropy_words", "fnv1a_k", "hand_seed_words", "mul128", "pcg64_randoms", "pcg64_seed",
    "pcg64_step", "pcg64_output", "seedseq_state", "splitmix64",
]  # fmt: skip
