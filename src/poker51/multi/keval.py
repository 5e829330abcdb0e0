"""Numba kernels of hand values and reads for the simulation: a rank evaluator and Riemann's read.

**Ranks** (:class:`RankTables`).  The 7,462 distinct ordinary five-card strengths of
:func:`poker51.hands.evaluate.strength`, sorted, are numbered 0..7461 (``strength[rank]``);
:func:`rank5` returns a hand's rank from three small look-up tables built from
:func:`~poker51.hands.evaluate.strength` itself: five distinct ranks index a 13-bit rank
mask (a flush table and a non-flush one, 8,192 entries each); any other hand its ranks
sorted by a branch-free 9-comparator network, ``r0 >= ... >= r4``, numbered as a multiset
``C(r0+4, 5) + C(r1+3, 4) + C(r2+2, 3) + C(r3+1, 2) + r4`` (6,188 entries).  Higher rank
wins; equal ranks split.

**Reads in counts** (:meth:`RankTables.counts`): for a sorted sample ``row``,
``lr[rank] = searchsorted(row, s, "left") + searchsorted(row, s, "right")`` of
``s = strength[rank]``, so a score ``(#below + #equal / 2) / Q`` is ``lr[rank] / (2 Q)``, the
same float operations as :func:`poker51.policies.v05.fast_read`.

**Riemann's read before the draw** (:func:`pre_read_kernel`; plain twin
:func:`poker51.policies.v05.pre_draw_read` at draw count 5): the House keep set
(:func:`poker51.hands.house.house_kernel`); the 128 completions of v0.3, i.e. a
``numpy.random.default_rng(fnv1a_64(b"poker51-v05-completions" + bytes(sorted cards)))``
stream of ``128 x 46`` uniforms, completion ``i`` drawing the outside cards of the ``d``
smallest uniforms of row ``i`` (ties to the lower index, as a stable argsort); each final
hand scored ``0.6 x + 0.4 x`` with ``x = lr5[rank] / 2000``; their mean by NumPy's pairwise
summation (8 accumulators, then ``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))``) over 128
and a division by 128.  The PCG64 stream runs as four interleaved chains (jump-ahead by four
steps: ``s -> A s + C`` with ``A = M**4``, ``C = inc (1 + M + M**2 + M**3)`` mod ``2**128``).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement
from math import comb

import numpy as np
from numba import njit

from poker51.hands.evaluate import strength
from poker51.hands.house import house_kernel
from poker51.multi.krng import fnv1a_k, mul128, pcg64_seed, pcg64_step

N_COMPLETIONS = 128
#: the bytes the v0.3 completions' seed starts with (poker51.policies.v05)
COMPLETION_DOMAIN = np.frombuffer(b"poker51-v05-completions", np.uint8).copy()
_M = 2549297995355413924 * 2**64 + 4865540595714422341
_A4 = pow(_M, 4, 2**128)
_G4 = (1 + _M + _M * _M + _M**3) % 2**128
A4_HI, A4_LO = np.uint64(_A4 >> 64), np.uint64(_A4 & (2**64 - 1))
G4_HI, G4_LO = np.uint64(_G4 >> 64), np.uint64(_G4 & (2**64 - 1))
W0, W1 = 0.6, 0.4  # poker51.abstraction.belief READ_WEIGHT_DRAW, READ_WEIGHT_RANDOM
OUTSIDE_SIZE = 46
#: per draw count d: a threshold on the 53-bit uniforms below which about 2d + 2 of the 46
#: columns fall; the d smallest are ranked among those (all 46 in the rare row with fewer)
KEY_MAX = np.uint64(2**64 - 1)
THRESHOLDS = np.array([0] + [int((2 * d + 2) / OUTSIDE_SIZE * 2**53) for d in range(1, 6)], np.uint64)


@dataclass(frozen=True)
class RankTables:
    """``strength`` (7462,) sorted strengths; ``nonflush``/``flush`` (8192,) ranks by rank mask;
    ``paired`` (6188,) ranks by multiset number (-1 where no hand has them); int16 ranks."""

    strength: np.ndarray
    nonflush: np.ndarray
    flush: np.ndarray
    paired: np.ndarray

    @classmethod
    def build(cls) -> RankTables:
        reps: dict[tuple[str, int], int] = {}
        for ranks in combinations_with_replacement(range(12, -1, -1), 5):
            counts = [ranks.count(r) for r in set(ranks)]
            if max(counts) > 4:
                continue
            if len(set(ranks)) == 5:
                mask = sum(1 << r for r in ranks)
                cards = [4 * r for r in ranks]
                reps[("flush", mask)] = strength(cards)
                reps[("nonflush", mask)] = strength([cards[0] + 1] + cards[1:])
            else:
                seen: dict[int, int] = {}
                cards = []
                for r in ranks:
                    cards.append(4 * r + seen.get(r, 0))
                    seen[r] = seen.get(r, 0) + 1
                reps[("paired", multiset_index(*sorted(ranks, reverse=True)))] = strength(cards)
        values = np.array(sorted(set(reps.values())), np.int64)
        tabs = {"nonflush": np.full(8192, -1, np.int16), "flush": np.full(8192, -1, np.int16),
                "paired": np.full(N_MULTISETS, -1, np.int16)}  # fmt: skip
        for (kind, key), s in reps.items():
            tabs[kind][key] = np.searchsorted(values, s)
        return cls(values, tabs["nonflush"], tabs["flush"], tabs["paired"])

    @property
    def lut(self) -> np.ndarray:
        """The three tables in one int16 array, as :func:`rank5` reads them: non-flush masks at
        0, flush masks at 8192, multisets at 16384 (one array argument keeps the call cheap)."""
        return np.concatenate([self.nonflush, self.flush, self.paired]).astype(np.int16)

    def counts(self, row: np.ndarray) -> np.ndarray:
        """``lr[rank]`` = #below * 2 + #equal of each strength in the sorted ``row``."""
        row = np.asarray(row)
        return (np.searchsorted(row, self.strength, "left") + np.searchsorted(row, self.strength, "right")).astype(
            np.int64
        )


N_MULTISETS = comb(17, 5)
#: BINOM[n, k] = C(n, k) for n < 17, k <= 5
BINOM = np.array([[comb(n, k) for k in range(6)] for n in range(17)], np.int64)


def multiset_index(r0: int, r1: int, r2: int, r3: int, r4: int) -> int:
    """The number of a multiset of five ranks given in descending order (module docstring)."""
    return comb(r0 + 4, 5) + comb(r1 + 3, 4) + comb(r2 + 2, 3) + comb(r3 + 1, 2) + r4


@njit(cache=True, inline="always")
def _desc(a, b):
    return max(a, b), min(a, b)


@njit(cache=True)
def rank5(c0, c1, c2, c3, c4, lut):
    """The rank (0..7461) of five distinct cards (module docstring; ``lut`` = :attr:`RankTables.lut`);
    plain twin: the position of :func:`poker51.hands.evaluate.strength` in :attr:`RankTables.strength`."""
    r0, r1, r2, r3, r4 = c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2, c4 >> 2
    r0, r1 = _desc(r0, r1)
    r3, r4 = _desc(r3, r4)
    r2, r4 = _desc(r2, r4)
    r2, r3 = _desc(r2, r3)
    r0, r3 = _desc(r0, r3)
    r0, r2 = _desc(r0, r2)
    r1, r4 = _desc(r1, r4)
    r1, r3 = _desc(r1, r3)
    r1, r2 = _desc(r1, r2)
    if r0 > r1 and r1 > r2 and r2 > r3 and r3 > r4:
        mask = (1 << r0) | (1 << r1) | (1 << r2) | (1 << r3) | (1 << r4)
        s = c0 & 3
        if (c1 & 3) == s and (c2 & 3) == s and (c3 & 3) == s and (c4 & 3) == s:
            return np.int64(lut[8192 + mask])
        return np.int64(lut[mask])
    return np.int64(lut[16384 + BINOM[r0 + 4, 5] + BINOM[r1 + 3, 4] + BINOM[r2 + 2, 3] + BINOM[r3 + 1, 2] + r4])


@njit(cache=True)
def ranks_many(hands, lut, out):
    for i in range(hands.shape[0]):
        h = hands[i]
        out[i] = rank5(h[0], h[1], h[2], h[3], h[4], lut)


@njit(cache=True, inline="always")
def _mul_add(shi, slo, ahi, alo, chi, clo):
    """(a * s + c) mod 2**128 of 128-bit values given as (hi, lo)."""
    lo, hi = mul128(slo, alo)
    hi = hi + slo * ahi + shi * alo
    nlo = lo + clo
    carry = np.uint64(1) if nlo < lo else np.uint64(0)
    return hi + chi + carry, nlo


@njit(cache=True)
def pre_read_kernel(hand, deck, lr5, q, lut, scratch, buf):
    """Riemann's read before the draw (module docstring).  ``hand`` (5,) int64 sorted
    ascending; ``deck`` the 51 cards ascending; ``lr5`` the random row's counts; ``q`` its
    quantiles (1000); ``scratch`` (128,) float64 and ``buf`` (5888,) uint64 work arrays."""
    mask, _step, _s = house_kernel(hand, 0, 0)
    kept = np.empty(5, np.int64)
    nk = 0
    for i in range(5):
        if (mask >> i) & 1:
            kept[nk] = hand[i]
            nk += 1
    d = 5 - nk
    den = 2.0 * q
    if d == 0:
        x = lr5[rank5(hand[0], hand[1], hand[2], hand[3], hand[4], lut)] / den
        return -0.0 + (W0 * x + W1 * x)
    outside = np.empty(OUTSIDE_SIZE, np.int64)
    k = 0
    for c in deck:
        if c != hand[0] and c != hand[1] and c != hand[2] and c != hand[3] and c != hand[4]:
            outside[k] = c
            k += 1
    hb = np.empty(5, np.uint8)
    for i in range(5):
        hb[i] = hand[i]
    seed = fnv1a_k(COMPLETION_DOMAIN, hb)
    hi32 = seed >> np.uint64(32)
    words = np.empty(2 if hi32 else 1, np.uint64)
    words[0] = seed & np.uint64(0xFFFFFFFF)
    if hi32:
        words[1] = hi32
    shi, slo, ihi, ilo = pcg64_seed(words)
    chi, clo = _mul_add(ihi, ilo, G4_HI, G4_LO, np.uint64(0), np.uint64(0))  # C = inc * G4
    a_hi, a_lo = pcg64_step(shi, slo, ihi, ilo)
    b_hi, b_lo = pcg64_step(a_hi, a_lo, ihi, ilo)
    c_hi, c_lo = pcg64_step(b_hi, b_lo, ihi, ilo)
    d_hi, d_lo = pcg64_step(c_hi, c_lo, ihi, ilo)
    sh = np.uint64(11)
    for t in range(0, N_COMPLETIONS * OUTSIDE_SIZE, 4):
        buf[t] = _xslrr(a_hi, a_lo) >> sh
        buf[t + 1] = _xslrr(b_hi, b_lo) >> sh
        buf[t + 2] = _xslrr(c_hi, c_lo) >> sh
        buf[t + 3] = _xslrr(d_hi, d_lo) >> sh
        a_hi, a_lo = _mul_add(a_hi, a_lo, A4_HI, A4_LO, chi, clo)
        b_hi, b_lo = _mul_add(b_hi, b_lo, A4_HI, A4_LO, chi, clo)
        c_hi, c_lo = _mul_add(c_hi, c_lo, A4_HI, A4_LO, chi, clo)
        d_hi, d_lo = _mul_add(d_hi, d_lo, A4_HI, A4_LO, chi, clo)
    keys = np.empty(OUTSIDE_SIZE, np.uint64)
    best = np.empty(5, np.int64)
    thr = THRESHOLDS[d]
    six = np.uint64(6)
    low6 = np.uint64(63)
    for row in range(N_COMPLETIONS):
        base = row * OUTSIDE_SIZE
        nc = 0
        for col in range(OUTSIDE_SIZE):  # branch-free: (uniform, column) keys below a threshold
            v = buf[base + col]
            keys[nc] = (v << six) | np.uint64(col)  # 53 + 6 bits: key order = a stable argsort's order
            nc += v < thr
        if nc < d:  # rare: fewer than d below the threshold, take all 46
            nc = OUTSIDE_SIZE
            for col in range(OUTSIDE_SIZE):
                keys[col] = (buf[base + col] << six) | np.uint64(col)
        last = np.uint64(0)
        for t in range(d):  # the d smallest keys, in order, by d branch-free passes
            m = KEY_MAX
            for i in range(nc):
                k = keys[i]
                m = min(m, k if (k > last or t == 0) else KEY_MAX)
            best[t] = np.int64(m & low6)
            last = m
        for t in range(d):
            kept[nk + t] = outside[best[t]]
        x = lr5[rank5(kept[0], kept[1], kept[2], kept[3], kept[4], lut)] / den
        scratch[row] = W0 * x + W1 * x
    return pairwise_mean_128(scratch)


@njit(cache=True, inline="always")
def _xslrr(shi, slo):
    x = shi ^ slo
    rot = shi >> np.uint64(58)
    return (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63)))


@njit(cache=True)
def pairwise_mean_128(a):
    """``numpy.mean`` of 128 float64 values, in NumPy's summation order."""
    r0, r1, r2, r3, r4, r5, r6, r7 = a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
    for i in range(8, 128, 8):
        r0 += a[i]
        r1 += a[i + 1]
        r2 += a[i + 2]
        r3 += a[i + 3]
        r4 += a[i + 4]
        r5 += a[i + 5]
        r6 += a[i + 6]
        r7 += a[i + 7]
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    return (0.0 + res) / 128.0


@njit(cache=True)
def post_read_kernel(rank, lr, d, q):
    """v0.2's read of a final hand of ``rank`` against draw count ``d`` (0..5): ``0.6 x_d + 0.4 x_5``."""
    den = 2.0 * q
    return W0 * (lr[d, rank] / den) + W1 * (lr[5, rank] / den)


def ranks_of(hands: np.ndarray, tables: RankTables) -> np.ndarray:
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    out = np.empty(hands.shape[0], np.int32)
    ranks_many(hands, tables.lut, out)
    return out


__all__ = [
    "RankTables", "post_read_kernel", "pre_read_kernel", "pairwise_mean_128", "rank5", "ranks_many", "ranks_of",
]  # fmt: skip
