"""Riemann's public policies as kernels: its action for any candidate hand in any spot.

A local best response (:mod:`poker51.realcard.lbr_kernels`) keeps Riemann's range as a posterior
over its possible hands: for thousands of candidate hands per decision it needs the action
Riemann *would* take with those cards.  Both policies are public and deterministic given the
cards, so the kernels here reproduce them exactly (the tests compare them with the players):

- **v0.6** (:class:`poker51.policies.riemann.Riemann`): the table row of the spot and of the class
  (before the draw) or bucket (after it), and the FNV-1a hash of ``"<sorted cards>;<spot>"``
  picking the first action whose cumulative probability exceeds ``u = hash / 2**64``;
- **v0.5** (:class:`poker51.policies.v05.V05Player`): the read (before the draw: the mean over 128
  completions of its House draw seeded by FNV-1a of its cards, drawn with NumPy's PCG64, here
  :mod:`poker51.pcg64`; after it: the read of its five cards), the range fraction of H's
  bet, the price thresholds and the 1-in-8 hash bluff class (steps 1–7 of the rule card).

**v0.5's read has one kernel**: :func:`v05_completions` draws the 128 completions of a dealt
hand's House draw, both for the local best response (:func:`v05_pre_reads`, every draw count of H,
the variant's strength ranks) and for Riemann at the five-seat tables (:func:`v05_pre_read_random`,
the random row only, ordinary ranks of :class:`RankTables`, read by :mod:`poker51.multi.ktable`);
its plain twin is :func:`poker51.policies.v05.pre_draw_read`.

Hands are looked up by the colex index of their sorted cards, ``Σ_i C(c_i, i + 1)`` over the
52 card ints (0 .. C(52,5) - 1): :class:`HandArrays` holds, per index, the strength, the House
keep mask (over the sorted positions), the class and the bucket of the variant.  The v0.5
pre-draw reads are filled lazily into a per-index cache (NaN = not computed yet): computing
one costs 128 · (cards outside) PCG64 draws, about 30 µs.

Spots are codes: ``line`` indexes :func:`poker51.export.schema.decision_lines` (the rounds
Riemann answers), ``pre_done`` indexes :func:`poker51.export.schema.completed_pre_lines`, and
actions are :data:`poker51.export.schema.ACTION_COLUMNS` positions (fold 0, call 1, raise 2,
check 3, bet 4).  The stacks are deep (every raise can be answered), as in the LBR runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement
from math import comb
from typing import NamedTuple

import numpy as np
import pandas as pd
from numba import njit, prange

from poker51.abstraction.belief import READ_WEIGHT_DRAW, READ_WEIGHT_RANDOM
from poker51.abstraction.classes import class_key_array, hand_keys, hand_table
from poker51.abstraction.keys import class_set_of
from poker51.cards import card_str
from poker51.export.schema import completed_pre_lines, decision_lines
from poker51.fnv import FNV64_OFFSET_BASIS
from poker51.hands.evaluate import strength
from poker51.hands.house import house_kernel
from poker51.pcg64 import MULT_HI as PCG_MULT_HI_INT
from poker51.pcg64 import MULT_LO as PCG_MULT_LO_INT
from poker51.pcg64 import mul128, pcg64_output, pcg64_seed, pcg64_step
from poker51.policies.v05 import (
    BET_AT,
    BLUFF_BELOW,
    BLUFF_CLASS_SIZE,
    CALL_BET_BETS,
    CALL_RAISED_BETS,
    CALL_RERAISE_BETS,
    N_COMPLETIONS,
    RAISE_AT,
    RANGE_FRACTION,
    RERAISE_FACTOR,
    line_contributions,
)
from poker51.rules import ANTE, BET_SIZES, RIEMANN_BET, VARIANT_RULES, VARIANTS

FOLD, CALL, RAISE, CHECK, BET = range(5)
#: the rounds Riemann answers, in table order: x, x-b2-r, b1, b2, b4, b8, b1-r-r .. b8-r-r
R_LINES: tuple[str, ...] = decision_lines()
#: the completed pre-draw lines, in table order
PRE_DONE: tuple[str, ...] = completed_pre_lines()
N_HANDS52 = comb(52, 5)
BINOM = np.array([[comb(n, k) for k in range(6)] for n in range(53)], dtype=np.int64)
_CHARS = np.array([[ord(ch) for ch in card_str(c)] for c in range(52)], dtype=np.uint8)
_FNV_PRIME = np.uint64(0x100000001B3)
_BASIS = np.uint64(FNV64_OFFSET_BASIS)
#: the domain prefix of the v0.5 completion seed (poker51.policies.v05)
_COMPLETION_DOMAIN = np.frombuffer(b"poker51-v05-completions", dtype=np.uint8).copy()
#: each player's contribution after a completed pre-draw line (antes included)
PRE_DONE_CONTRIB = np.array([line_contributions(p.split("-"))[0] for p in PRE_DONE], dtype=np.int64)
#: the read's weights: 0.6 the row of H's draw count, 0.4 the random row (poker51.abstraction.belief)
W_DRAW, W_RANDOM = READ_WEIGHT_DRAW, READ_WEIGHT_RANDOM
_FRACTION = np.array([RANGE_FRACTION[b] for b in BET_SIZES])
_BETS = np.array(BET_SIZES, dtype=np.int64)


def line_id(line: str) -> int:
    return R_LINES.index(line)


# --------------------------------------------------------------------------- hands
@njit(cache=True)
def sort5(h):
    """Sort five ints in place (insertion sort)."""
    for i in range(1, 5):
        x = h[i]
        j = i - 1
        while j >= 0 and h[j] > x:
            h[j + 1] = h[j]
            j -= 1
        h[j + 1] = x


@njit(cache=True)
def colex(h):
    """Colex index of five sorted card ints: ``Σ_i C(h[i], i + 1)``."""
    return BINOM[h[0], 1] + BINOM[h[1], 2] + BINOM[h[2], 3] + BINOM[h[3], 4] + BINOM[h[4], 5]


@njit(cache=True)
def rank5(M, a, b, c, d, e):
    """The strength rank (``srank``) of five distinct cards in any order: a 9-comparator sorting
    network, then one of three small tables (they stay in the core's cache): the flush table by
    the rank set of a one-suit hand, the rank table by the multiset number of the five ranks
    (their sorted ranks ``r_i``: ``Σ_i C(r_i + i, i + 1)``, 6,188 entries), and, for a hand
    holding the marker (card 0) in a variant that reads it, the marker table by the multiset
    number of the other four ranks and whether those four share a suit."""
    if a > b:
        a, b = b, a
    if d > e:
        d, e = e, d
    if c > e:
        c, e = e, c
    if c > d:
        c, d = d, c
    if b > e:
        b, e = e, b
    if a > d:
        a, d = d, a
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    if M.marker and a == 0:
        s = b & 3
        suited = 1 if (c & 3) == s and (d & 3) == s and (e & 3) == s else 0
        return M.marker_table[2 * _multiset4(b >> 2, c >> 2, d >> 2, e >> 2) + suited]
    s = a & 3
    if (b & 3) == s and (c & 3) == s and (d & 3) == s and (e & 3) == s:
        return M.flush_table[(1 << (a >> 2)) | (1 << (b >> 2)) | (1 << (c >> 2)) | (1 << (d >> 2)) | (1 << (e >> 2))]
    ra, rb, rc, rd, re = a >> 2, b >> 2, c >> 2, d >> 2, e >> 2
    return M.rank_table[BINOM[ra, 1] + BINOM[rb + 1, 2] + BINOM[rc + 2, 3] + BINOM[rd + 3, 4] + BINOM[re + 4, 5]]


@njit(cache=True)
def _multiset4(r0, r1, r2, r3):
    """Colex number of four non-decreasing ranks as a multiset (``r_i + i`` strictly increasing):
    0 .. C(16, 4) - 1."""
    return BINOM[r0, 1] + BINOM[r1 + 1, 2] + BINOM[r2 + 2, 3] + BINOM[r3 + 3, 4]


def colex_plain(cards) -> int:
    """Plain twin of :func:`colex` (any order of the five cards)."""
    return sum(comb(c, i + 1) for i, c in enumerate(sorted(int(c) for c in cards)))


@dataclass(frozen=True)
class HandArrays:
    """Per colex index (``N_HANDS52`` entries; -1 where the hand is not a hand of the variant):
    ``strength`` int32, ``srank`` int32 (its position in ``strengths``, the variant's distinct
    strengths ascending), ``house_mask`` uint8 (over the sorted positions), ``class_id`` int16
    (the class table's id) and ``bucket`` int16 (the bucket table's).  ``by_draw`` (int8, n x 5)
    lists the variant's hands sorted by House draw count, then colex; the hands drawing ``k``
    are rows ``draw_start[k] .. draw_start[k + 1] - 1``; ``by_draw_mask`` is each row's
    64-bit card set (bit c for card c).  ``rank_table`` (6,188 entries, by the multiset number
    of the five ranks), ``flush_table`` (by the 13-bit rank set of a one-suit hand) and
    ``marker_table`` (2 x 1,820 entries, by the other four cards of a hand holding the marker)
    give the ``srank`` of every hand from 60 kB instead of 10 MB of memory (:func:`rank5`);
    ``bucket_by_srank`` maps a strength rank to its bucket."""

    variant: str
    rule: int
    cards: np.ndarray
    strengths: np.ndarray
    strength: np.ndarray
    srank: np.ndarray
    house_mask: np.ndarray
    class_id: np.ndarray
    bucket: np.ndarray
    by_draw: np.ndarray
    draw_start: np.ndarray
    by_draw_mask: np.ndarray
    rank_table: np.ndarray
    flush_table: np.ndarray
    bucket_by_srank: np.ndarray
    marker_table: np.ndarray


def hand_arrays(variant: str, classes: pd.DataFrame, buckets: pd.DataFrame) -> HandArrays:
    """Index every hand of ``variant`` by colex; classes and buckets from the abstraction's tables."""
    ht = hand_table(variant)
    idx = BINOM[ht.hands, np.arange(1, 6)].sum(axis=1)
    strength = np.full(N_HANDS52, -1, np.int32)
    mask = np.zeros(N_HANDS52, np.uint8)
    cls = np.full(N_HANDS52, -1, np.int16)
    bkt = np.full(N_HANDS52, -1, np.int16)
    strength[idx], mask[idx] = ht.strengths, ht.masks
    uniq, inv = np.unique(ht.strengths, return_inverse=True)
    srank = np.full(N_HANDS52, -1, np.int32)
    srank[idx] = inv
    keys = class_key_array(classes["base"], classes["marker"], classes["house_draw"])
    order = np.argsort(keys)
    hkeys = hand_keys(ht, class_set_of(classes["base"]))
    pos = np.searchsorted(keys[order], hkeys)
    if (pos >= keys.size).any() or (keys[order][np.minimum(pos, keys.size - 1)] != hkeys).any():
        raise ValueError(f"the {variant} class table does not hold every hand's class")
    cls[idx] = classes["class"].to_numpy(np.int64)[order][pos]
    lows = buckets.sort_values("bucket")["low"].to_numpy()
    bkt[idx] = np.maximum(np.searchsorted(lows, ht.strengths, side="right") - 1, 0)
    cards = np.array(VARIANTS[variant].cards, dtype=np.int64)
    order = np.lexsort((idx, ht.house_draw))
    by_draw = ht.hands[order].astype(np.int8)
    draw_start = np.searchsorted(ht.house_draw[order], np.arange(7)).astype(np.int64)
    bits = (np.uint64(1) << by_draw.astype(np.uint64)).sum(axis=1, dtype=np.uint64)
    suited = (ht.hands & 3 == ht.hands[:, :1] & 3).all(axis=1)
    plain, flush = ~ht.marker & ~suited, ~ht.marker & suited
    rank_table = _keyed_table(comb(17, 5), "rank", variant, _multiset_numbers(ht.hands[plain] >> 2), inv[plain])
    flush_table = _keyed_table(1 << 13, "flush", variant, (1 << (ht.hands[flush] >> 2)).sum(axis=1), inv[flush])
    marker_table = _keyed_table(2 * comb(16, 4), "marker", variant, _marker_keys(ht.hands[ht.marker]), inv[ht.marker])
    bucket_by_srank = np.maximum(np.searchsorted(lows, uniq, side="right") - 1, 0).astype(np.int16)
    return HandArrays(
        variant, VARIANT_RULES[variant], cards, uniq, strength, srank, mask, cls, bkt, by_draw, draw_start, bits,
        rank_table, flush_table, bucket_by_srank, marker_table,
    )  # fmt: skip


def _multiset_numbers(ranks: np.ndarray) -> np.ndarray:
    """The multiset number of each row of ranks (any order): ``Σ_i C(r_i + i, i + 1)`` over the
    row sorted, as :func:`rank5` computes it."""
    r = np.sort(ranks, axis=1)
    return sum(BINOM[r[:, i] + i, i + 1] for i in range(r.shape[1]))


def _marker_keys(hands: np.ndarray) -> np.ndarray:
    """Marker-table keys of hands holding the marker (card 0, their first): twice the multiset
    number of the other four ranks, plus 1 when those four share a suit."""
    if hands.size and (hands[:, 0] != 0).any():
        raise ValueError("a hand holding the marker does not hold it as its lowest card")
    other = hands[:, 1:]
    return 2 * _multiset_numbers(other >> 2) + (other & 3 == other[:, :1] & 3).all(axis=1)


def _keyed_table(size: int, name: str, variant: str, keys: np.ndarray, values: np.ndarray) -> np.ndarray:
    """A table ``t[key] = value`` (-1 elsewhere), refused when two hands of one key differ."""
    t = np.full(size, -1, np.int32)
    t[keys] = values
    if (t[keys] != values).any():
        raise ValueError(f"the {variant} {name} table: hands with one key have different strengths")
    return t


# --------------------------------------------------------------------------- v0.6
@njit(cache=True)
def hand_hash_prefix(h):
    """FNV-1a state after ``"c1,c2,c3,c4,c5;"`` of five sorted cards (Riemann's hashed prefix)."""
    x = _BASIS
    for i in range(5):
        if i > 0:
            x = (x ^ np.uint64(44)) * _FNV_PRIME
        x = (x ^ np.uint64(_CHARS[h[i], 0])) * _FNV_PRIME
        x = (x ^ np.uint64(_CHARS[h[i], 1])) * _FNV_PRIME
    return (x ^ np.uint64(59)) * _FNV_PRIME


@njit(cache=True)
def table_action(prefix, sid, state, P, spot_bytes, spot_len):
    """Riemann v0.6's action (code) at table spot ``sid`` with class or bucket ``state`` and
    hashed prefix ``prefix``: the first positive action whose cumulative probability exceeds
    ``u = fnv / 2**64``, else the last positive one (``Riemann.decide``)."""
    x = prefix
    for i in range(spot_len[sid]):
        x = (x ^ np.uint64(spot_bytes[sid, i])) * _FNV_PRIME
    u = float(x) / 18446744073709551616.0
    acc = 0.0
    out = -1
    for a in range(5):
        p = P[sid, state, a]
        if p > 0.0:
            acc += p
            out = a
            if acc > u:
                break
    return out


@dataclass(frozen=True)
class TableArrays:
    """A v0.6 table as kernel arrays: ``P`` (spots, max(C, B), 5) probabilities, the hashed
    spot strings (``spot_bytes`` padded, ``spot_len``), and spot ids ``pre_sid[d4, line]`` and
    ``post_sid[d4, r_draw, pre_done, line]`` (-1 where the variant has no such spot)."""

    P: np.ndarray
    spot_bytes: np.ndarray
    spot_len: np.ndarray
    pre_sid: np.ndarray
    post_sid: np.ndarray


def table_arrays(spot_index: dict[tuple, int], P: np.ndarray) -> TableArrays:
    """Kernel arrays of a Riemann's ``spot_index`` ((street, d4, r_draw, pre, post) -> id) and rows."""
    n = len(spot_index)
    texts = [b""] * n
    pre_sid = np.full((5, len(R_LINES)), -1, np.int64)
    post_sid = np.full((5, 5, len(PRE_DONE), len(R_LINES)), -1, np.int64)
    for (street, d4, k, pre, post), sid in spot_index.items():
        texts[sid] = f"{street}|{d4}|{k}|{pre}|{post}".encode("ascii")
        if street == 0:
            pre_sid[d4, R_LINES.index(pre)] = sid
        else:
            post_sid[d4, k, PRE_DONE.index(pre), R_LINES.index(post)] = sid
    width = max(len(t) for t in texts)
    spot_bytes = np.zeros((n, width), np.uint8)
    for i, t in enumerate(texts):
        spot_bytes[i, : len(t)] = np.frombuffer(t, np.uint8)
    spot_len = np.array([len(t) for t in texts], np.int64)
    return TableArrays(np.ascontiguousarray(np.nan_to_num(P, nan=0.0)), spot_bytes, spot_len, pre_sid, post_sid)


# --------------------------------------------------------------------------- v0.5
def score_table(belief: np.ndarray, strengths: np.ndarray) -> np.ndarray:
    """(n, 6): the score of each strength in each belief row, ``(#below + #equal / 2) / Q``,
    computed as ``poker51.policies.v05.fast_read`` does, so a read ``0.6 · S[s, d] + 0.4 · S[s, 5]``
    is bit-equal to the player's."""
    belief = np.asarray(belief)
    q = belief.shape[1]
    return np.stack(
        [(np.searchsorted(r, strengths, "left") + np.searchsorted(r, strengths, "right")) / (2.0 * q) for r in belief],
        axis=1,
    )


@njit(cache=True)
def pairwise_mean(x):
    """``numpy.mean`` of at most 128 float64 values with NumPy's summation order (pairwise:
    eight running sums for 8 <= n <= 128, then ``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))``
    and the rest in order; a plain loop below 8), so the reads are bit-equal."""
    n = x.shape[0]
    if n < 8:
        res = 0.0
        for i in range(n):
            res += x[i]
        return res / n
    r0, r1, r2, r3, r4, r5, r6, r7 = x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]
    i = 8
    m = n - (n % 8)
    while i < m:
        r0 += x[i]
        r1 += x[i + 1]
        r2 += x[i + 2]
        r3 += x[i + 3]
        r4 += x[i + 4]
        r5 += x[i + 5]
        r6 += x[i + 6]
        r7 += x[i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += x[i]
        i += 1
    return res / n


# PCG64 advanced four steps at once, for four interleaved chains: s -> A s + C with A = M**4 and
# C = inc (1 + M + M**2 + M**3) mod 2**128 (M the PCG64 multiplier)
_M128 = PCG_MULT_HI_INT * 2**64 + PCG_MULT_LO_INT
_A4 = pow(_M128, 4, 2**128)
_G4 = (1 + _M128 + _M128 * _M128 + _M128**3) % 2**128
A4_HI, A4_LO = np.uint64(_A4 >> 64), np.uint64(_A4 & (2**64 - 1))
G4_HI, G4_LO = np.uint64(_G4 >> 64), np.uint64(_G4 & (2**64 - 1))
_KEY_MAX = np.uint64(2**64 - 1)


@njit(cache=True, inline="always")
def _mul_add(shi, slo, ahi, alo, chi, clo):
    """(a * s + c) mod 2**128 of 128-bit values given as (hi, lo)."""
    lo, hi = mul128(slo, alo)
    hi = hi + slo * ahi + shi * alo
    nlo = lo + clo
    carry = np.uint64(1) if nlo < lo else np.uint64(0)
    return hi + chi + carry, nlo


@njit(cache=True)
def v05_completions(h, mask, cards, buf, finals):
    """The 128 completions of v0.3 (v0.5 step 1) of the sorted dealt hand ``h`` keeping ``mask``
    (its House keep set, over the sorted positions) from the variant's ``cards`` (ascending); the one
    kernel of v0.5's read before the draw, for the local best response (:func:`v05_pre_reads`) and the
    tables (:func:`v05_pre_read_random`); plain twin :func:`poker51.policies.v05.completion_strengths`.

    Completion ``k`` replaces the discards with the cards outside ``h`` at the ``d`` smallest of the
    k-th row of ``128 x n_out`` uniforms of ``default_rng(fnv1a_64(b"poker51-v05-completions" +
    bytes(h)))`` (a tie keeps the lower index: NumPy's stable argsort).  The PCG64 stream runs as four
    interleaved chains; in each row the keys ``uniform << 6 | column`` below a threshold (about
    ``2d + 2`` of the columns, all of them in the rare row with fewer than ``d``) are ranked by ``d``
    branch-free passes.  ``finals[k]`` gets the kept cards (ascending), then the drawn ones;
    ``buf`` is a uint64 work array of at least ``128 * n_out``.  Returns ``d`` (0: nothing drawn,
    ``finals`` untouched)."""
    kept = np.empty(5, np.int64)
    nk = 0
    for i in range(5):
        if (mask >> i) & 1:
            kept[nk] = h[i]
            nk += 1
    d = 5 - nk
    if d == 0:
        return 0
    outside = np.empty(cards.shape[0], np.int64)
    n_out = 0
    for c in cards:
        if c != h[0] and c != h[1] and c != h[2] and c != h[3] and c != h[4]:
            outside[n_out] = c
            n_out += 1
    seed = _BASIS
    for i in range(_COMPLETION_DOMAIN.shape[0]):
        seed = (seed ^ np.uint64(_COMPLETION_DOMAIN[i])) * _FNV_PRIME
    for i in range(5):
        seed = (seed ^ np.uint64(h[i])) * _FNV_PRIME
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
    for t in range(0, N_COMPLETIONS * n_out, 4):  # 128 * n_out is a multiple of 4
        buf[t] = pcg64_output(a_hi, a_lo) >> sh
        buf[t + 1] = pcg64_output(b_hi, b_lo) >> sh
        buf[t + 2] = pcg64_output(c_hi, c_lo) >> sh
        buf[t + 3] = pcg64_output(d_hi, d_lo) >> sh
        a_hi, a_lo = _mul_add(a_hi, a_lo, A4_HI, A4_LO, chi, clo)
        b_hi, b_lo = _mul_add(b_hi, b_lo, A4_HI, A4_LO, chi, clo)
        c_hi, c_lo = _mul_add(c_hi, c_lo, A4_HI, A4_LO, chi, clo)
        d_hi, d_lo = _mul_add(d_hi, d_lo, A4_HI, A4_LO, chi, clo)
    keys = np.empty(n_out, np.uint64)
    best = np.empty(5, np.int64)
    thr = np.uint64((2 * d + 2) / n_out * 9007199254740992.0)
    six = np.uint64(6)
    low6 = np.uint64(63)
    for row in range(N_COMPLETIONS):
        base = row * n_out
        nc = 0
        for col in range(n_out):  # branch-free: (uniform, column) keys below a threshold
            v = buf[base + col]
            keys[nc] = (v << six) | np.uint64(col)  # 53 + 6 bits: key order = a stable argsort's order
            nc += v < thr
        if nc < d:  # rare: fewer than d below the threshold, take all
            nc = n_out
            for col in range(n_out):
                keys[col] = (buf[base + col] << six) | np.uint64(col)
        last = np.uint64(0)
        for t in range(d):  # the d smallest keys, in order, by d branch-free passes
            m = _KEY_MAX
            for i in range(nc):
                k = keys[i]
                m = min(m, k if (k > last or t == 0) else _KEY_MAX)
            best[t] = np.int64(m & low6)
            last = m
        for i in range(nk):
            finals[row, i] = kept[i]
        for t in range(d):
            finals[row, nk + t] = outside[best[t]]
    return d


@njit(cache=True)
def v05_pre_reads(M, h, out):
    """``out[d]`` = v0.5's pre-draw read of sorted hand ``h`` against H's draw count d = 0..5
    (``poker51.policies.v05.pre_draw_read``): the mean over its 128 completions
    (:func:`v05_completions`) of ``0.6 S[s, d] + 0.4 S[s, 5]``.  ``M`` is a v0.5 policy's kernel
    view (:func:`policy_tuple`): its cards, House masks, score table (:func:`score_table`) and
    strength ranks."""
    scores = M.scores
    idx = colex(h)
    finals = np.empty((N_COMPLETIONS, 5), np.int64)
    buf = np.empty(N_COMPLETIONS * (M.cards.shape[0] - 5), np.uint64)
    if v05_completions(h, M.house_mask[idx], M.cards, buf, finals) == 0:
        r = M.srank[idx]
        for dh in range(6):
            out[dh] = (W_DRAW * scores[r, dh] + W_RANDOM * scores[r, 5]) / 1.0
        return
    vals = np.empty((6, N_COMPLETIONS))
    for k in range(N_COMPLETIONS):
        f = finals[k]
        r = rank5(M, f[0], f[1], f[2], f[3], f[4])
        for dh in range(6):
            vals[dh, k] = W_DRAW * scores[r, dh] + W_RANDOM * scores[r, 5]
    for dh in range(6):
        out[dh] = pairwise_mean(vals[dh])


# --------------------------------------------------------------------------- v0.5 at the tables
@dataclass(frozen=True)
class RankTables:
    """The ordinary ranks the tables read (:mod:`poker51.multi.ktable`).  The 7,462 distinct
    ordinary five-card strengths of :func:`poker51.hands.evaluate.strength`, sorted, are numbered
    0..7461 (``strength[rank]``); :func:`rank5_lut` returns a hand's rank from three small look-up
    tables built from :func:`~poker51.hands.evaluate.strength` itself: five distinct ranks index a
    13-bit rank mask (a flush table and a non-flush one, 8,192 entries each); any other hand its
    ranks sorted by a 9-comparator network, ``r0 >= ... >= r4``, numbered as a multiset
    ``C(r0+4, 5) + C(r1+3, 4) + C(r2+2, 3) + C(r3+1, 2) + r4`` (6,188 entries).  Higher rank wins;
    equal ranks split.

    ``strength`` (7462,) sorted strengths; ``nonflush``/``flush`` (8192,) ranks by rank mask;
    ``paired`` (6188,) ranks by multiset number (-1 where no hand has them); int16 ranks.
    **Reads in counts** (:meth:`counts`): for a sorted sample ``row``, ``lr[rank] =
    searchsorted(row, s, "left") + searchsorted(row, s, "right")`` of ``s = strength[rank]``, so a
    score ``(#below + #equal / 2) / Q`` is ``lr[rank] / (2 Q)``, the same float operations as
    :func:`poker51.policies.v05.fast_read` and :func:`score_table`."""

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
        """The three tables in one int16 array, as :func:`rank5_lut` reads them: non-flush masks at
        0, flush masks at 8192, multisets at 16384 (one array argument keeps the call cheap)."""
        return np.concatenate([self.nonflush, self.flush, self.paired]).astype(np.int16)

    def counts(self, row: np.ndarray) -> np.ndarray:
        """``lr[rank]`` = #below * 2 + #equal of each strength in the sorted ``row``."""
        row = np.asarray(row)
        return (np.searchsorted(row, self.strength, "left") + np.searchsorted(row, self.strength, "right")).astype(
            np.int64
        )


#: five ranks 0..12 as a multiset: C(17, 5) numbers
N_MULTISETS = comb(17, 5)


def multiset_index(r0: int, r1: int, r2: int, r3: int, r4: int) -> int:
    """The number of a multiset of five ranks given in descending order (:class:`RankTables`)."""
    return comb(r0 + 4, 5) + comb(r1 + 3, 4) + comb(r2 + 2, 3) + comb(r3 + 1, 2) + r4


@njit(cache=True, inline="always")
def _desc(a, b):
    return max(a, b), min(a, b)


@njit(cache=True)
def rank5_lut(c0, c1, c2, c3, c4, lut):
    """The ordinary rank (0..7461) of five distinct cards (:class:`RankTables`; ``lut`` =
    :attr:`RankTables.lut`); plain twin: the position of :func:`poker51.hands.evaluate.strength` in
    :attr:`RankTables.strength`."""
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
        out[i] = rank5_lut(h[0], h[1], h[2], h[3], h[4], lut)


def ranks_of(hands: np.ndarray, tables: RankTables) -> np.ndarray:
    """The ordinary rank of each row of ``hands`` (:func:`rank5_lut`)."""
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    out = np.empty(hands.shape[0], np.int32)
    ranks_many(hands, tables.lut, out)
    return out


@njit(cache=True)
def v05_pre_read_random(hand, cards, lr5, q, lut, scratch, buf, finals):
    """Riemann's read at a table before the draw (v1 rule 1): v0.5's pre-draw read at draw count 5,
    both terms against the random row (plain twin :func:`poker51.policies.v05.pre_draw_read` with
    ``d = 5``).  ``hand`` (5,) int64 sorted ascending, ordinary reading (its House keep set by
    :func:`poker51.hands.house.house_kernel`); ``cards`` the 51 cards ascending; ``lr5`` the random
    row's counts (:meth:`RankTables.counts`) and ``q`` its quantiles (1000); ``scratch`` (128,)
    float64, ``buf`` (at least 128 * 46,) uint64 and ``finals`` (128, 5) int64 work arrays."""
    mask, _step, _s = house_kernel(hand, 0, 0)
    d = v05_completions(hand, mask, cards, buf, finals)
    den = 2.0 * q
    if d == 0:
        x = lr5[rank5_lut(hand[0], hand[1], hand[2], hand[3], hand[4], lut)] / den
        return -0.0 + (W_DRAW * x + W_RANDOM * x)
    for row in range(N_COMPLETIONS):
        f = finals[row]
        x = lr5[rank5_lut(f[0], f[1], f[2], f[3], f[4], lut)] / den
        scratch[row] = W_DRAW * x + W_RANDOM * x
    return pairwise_mean(scratch)


@njit(cache=True)
def v05_post_read(rank, lr, d, q):
    """v0.2's read of a final hand of ordinary ``rank`` against draw count ``d`` (0..5):
    ``0.6 x_d + 0.4 x_5`` with ``x = lr[d, rank] / (2 q)`` (:func:`poker51.policies.v05.post_draw_read`)."""
    den = 2.0 * q
    return W_DRAW * (lr[d, rank] / den) + W_RANDOM * (lr[5, rank] / den)


@njit(cache=True)
def _adjusted(read, f):
    return max(0.0, min(1.0, (read - (1.0 - f)) / f))


@njit(cache=True)
def v05_action(read, bluff, line, pot0):
    """v0.5's action (code) after ``line`` with read ``read``, bluff class ``bluff`` and the pot
    at the start of the round ``pot0`` (``poker51.policies.v05.spot_probabilities`` and the argmax
    of ``V05Player.act``; deep stacks)."""
    if line == 0:  # checked to (step 6)
        if read >= BET_AT or (read < BLUFF_BELOW and bluff):
            return BET
        return CHECK
    if line == 1:  # H raised its bet (step 7)
        s = _adjusted(read, _FRACTION[1] * RERAISE_FACTOR)
        pot = pot0 + 3.0 * RIEMANN_BET  # Riemann's bet, H's call of it and H's raise by it
        return CALL if s >= RIEMANN_BET / (pot + CALL_RAISED_BETS * RIEMANN_BET) else FOLD
    b = _BETS[(line - 2) % 4]
    if line <= 5:  # facing H's bet (steps 3-4)
        s = _adjusted(read, _FRACTION[(line - 2) % 4])
        if s >= RAISE_AT or (s < BLUFF_BELOW and bluff):
            return RAISE
        return CALL if s >= b / (pot0 + CALL_BET_BETS * b) else FOLD
    s = _adjusted(read, _FRACTION[(line - 2) % 4] * RERAISE_FACTOR)  # facing a re-raise (step 5)
    return CALL if s >= b / (pot0 + CALL_RERAISE_BETS * b) else FOLD


@njit(cache=True)
def bluff_class(h):
    """``fnv1a_64(bytes(sorted cards)) % 8 == 0`` (v0.5 step 4) of five sorted cards."""
    x = _BASIS
    for i in range(5):
        x = (x ^ np.uint64(h[i])) * _FNV_PRIME
    return x % np.uint64(BLUFF_CLASS_SIZE) == np.uint64(0)


# --------------------------------------------------------------------------- both
#: policy kinds: v0.6, v0.5, and a Riemann that checks when it can and calls otherwise (the LBR's
#: known-answer opponent)
V06, V05, CHECKCALL = 0, 1, 2


class PolicyArrays(NamedTuple):
    """The kernel view ``M`` of a policy (:func:`policy_tuple`; Numba takes it as a named tuple
    and the kernels read its fields by name).  ``kind`` is :data:`V06`, :data:`V05` or
    :data:`CHECKCALL`; ``cards`` .. ``bucket``, ``srank`` .. ``bucket_by_srank`` and
    ``marker_table`` are the :class:`HandArrays` fields of the variant; ``P`` .. ``post_sid``
    the :class:`TableArrays` of a v0.6 table (stand-ins otherwise); ``scores`` v0.5's score
    table (:func:`score_table`) and ``reads`` its cache of pre-draw reads (NaN = not computed);
    ``marker`` is 1 when the variant reads the marker (its :func:`rank5` uses ``marker_table``)."""

    kind: np.int64
    cards: np.ndarray
    strength: np.ndarray
    house_mask: np.ndarray
    class_id: np.ndarray
    bucket: np.ndarray
    P: np.ndarray
    spot_bytes: np.ndarray
    spot_len: np.ndarray
    pre_sid: np.ndarray
    post_sid: np.ndarray
    scores: np.ndarray
    reads: np.ndarray
    srank: np.ndarray
    by_draw: np.ndarray
    draw_start: np.ndarray
    by_draw_mask: np.ndarray
    rank_table: np.ndarray
    flush_table: np.ndarray
    bucket_by_srank: np.ndarray
    marker: np.int64
    marker_table: np.ndarray


@njit(cache=True)
def pre_actions(M, h, h_draw, lines, out):
    """``out[i]``: Riemann's action before the draw with sorted dealt hand ``h`` after
    ``lines[i]``, H drawing ``h_draw`` (0..5)."""
    if M.kind == CHECKCALL:
        for i in range(lines.shape[0]):
            out[i] = CHECK if lines[i] == 0 else CALL
        return
    idx = colex(h)
    if M.kind == V06:
        prefix, state = hand_hash_prefix(h), M.class_id[idx]
        for i in range(lines.shape[0]):
            out[i] = table_action(prefix, M.pre_sid[min(h_draw, 4), lines[i]], state, M.P, M.spot_bytes, M.spot_len)
        return
    reads = M.reads
    if np.isnan(reads[idx, 0]):
        v05_pre_reads(M, h, reads[idx])
    read, bluff = reads[idx, h_draw], bluff_class(h)
    for i in range(lines.shape[0]):
        out[i] = v05_action(read, bluff, lines[i], 2.0 * ANTE)


@njit(cache=True)
def post_actions(M, f, h_draw, r_draw, pre_done, lines, out):
    """``out[i]``: Riemann's action after the draw with sorted final hand ``f`` after
    ``lines[i]`` (its draw count ``r_draw``, the completed pre-draw line ``pre_done``)."""
    if M.kind == CHECKCALL:
        for i in range(lines.shape[0]):
            out[i] = CHECK if lines[i] == 0 else CALL
        return
    r = rank5(M, f[0], f[1], f[2], f[3], f[4])
    if M.kind == V06:
        prefix, state = hand_hash_prefix(f), M.bucket_by_srank[r]
        for i in range(lines.shape[0]):
            out[i] = table_action(
                prefix, M.post_sid[min(h_draw, 4), r_draw, pre_done, lines[i]], state, M.P, M.spot_bytes, M.spot_len
            )
        return
    read = W_DRAW * M.scores[r, h_draw] + W_RANDOM * M.scores[r, 5]
    bluff = bluff_class(f)
    for i in range(lines.shape[0]):
        out[i] = v05_action(read, bluff, lines[i], 2.0 * PRE_DONE_CONTRIB[pre_done])


@njit(cache=True)
def pre_action(M, h, h_draw, line):
    """Riemann's action before the draw after one ``line`` (:func:`pre_actions`)."""
    out = np.empty(1, np.int64)
    pre_actions(M, h, h_draw, np.full(1, line, np.int64), out)
    return out[0]


@njit(cache=True)
def post_action(M, f, h_draw, r_draw, pre_done, line):
    """Riemann's action after the draw after one ``line`` (:func:`post_actions`)."""
    out = np.empty(1, np.int64)
    post_actions(M, f, h_draw, r_draw, pre_done, np.full(1, line, np.int64), out)
    return out[0]


@njit(cache=True, parallel=True)
def _fill_reads(M, hands):
    reads = M.reads
    for i in prange(hands.shape[0]):
        h = hands[i].astype(np.int64)
        idx = colex(h)
        if np.isnan(reads[idx, 0]):
            v05_pre_reads(M, h, reads[idx])


def fill_reads(M: PolicyArrays) -> None:
    """Compute every hand's v0.5 pre-draw reads into the cache of ``M`` (Numba's threads in
    parallel: each hand's row is written by one thread only).  Worth it when a run touches
    most hands; a no-op for the other policies."""
    if M.kind == V05:
        _fill_reads(M, M.by_draw)


def policy_tuple(kind: int, hands: HandArrays, table: TableArrays | None = None, belief=None) -> PolicyArrays:
    """The kernel view ``M`` of a policy: v0.6 with its ``table``, v0.5 with its ``belief``
    table (a fresh, empty cache of pre-draw reads), or the check-call stand-in."""
    empty = TableArrays(
        np.zeros((1, 1, 5)),
        np.zeros((1, 1), np.uint8),
        np.zeros(1, np.int64),
        np.zeros((5, len(R_LINES)), np.int64),
        np.zeros((5, 5, len(PRE_DONE), len(R_LINES)), np.int64),
    )
    t, scores, reads = empty, np.zeros((1, 6)), np.zeros((1, 6))
    if kind == V06:
        if table is None:
            raise ValueError("a v0.6 policy needs its table arrays")
        t = table
    elif kind == V05:
        if belief is None:
            raise ValueError("a v0.5 policy needs its belief table")
        scores = score_table(belief, hands.strengths)
        reads = np.full((N_HANDS52, 6), np.nan)
    elif kind != CHECKCALL:
        raise ValueError(f"unknown policy kind {kind}")
    return PolicyArrays(
        np.int64(kind),
        hands.cards,
        hands.strength,
        hands.house_mask,
        hands.class_id,
        hands.bucket,
        t.P,
        t.spot_bytes,
        t.spot_len,
        t.pre_sid,
        t.post_sid,
        scores,
        reads,
        hands.srank,
        hands.by_draw,
        hands.draw_start,
        hands.by_draw_mask,
        hands.rank_table,
        hands.flush_table,
        hands.bucket_by_srank,
        np.int64(hands.rule != VARIANT_RULES["standard"]),
        hands.marker_table,
    )


__all__ = [
    "BET", "BINOM", "CALL", "CHECK", "CHECKCALL", "FOLD", "HandArrays", "N_HANDS52", "PRE_DONE", "PRE_DONE_CONTRIB",
    "PolicyArrays",
    "RAISE", "R_LINES", "TableArrays", "V05", "V06", "bluff_class", "colex", "colex_plain", "fill_reads",
    "hand_arrays", "hand_hash_prefix", "line_id", "pairwise_mean", "policy_tuple", "post_action", "post_actions",
    "pre_action", "pre_actions", "rank5", "score_table", "sort5", "table_action", "table_arrays", "v05_action",
    "v05_pre_reads", "RankTables", "multiset_index", "rank5_lut", "ranks_many", "ranks_of", "v05_completions",
    "v05_post_read", "v05_pre_read_random", "W_DRAW", "W_RANDOM",
]  # fmt: skip
