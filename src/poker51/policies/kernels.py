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
from math import comb
from typing import NamedTuple

import numpy as np
import pandas as pd
from numba import njit, prange

from poker51.abstraction.classes import class_key_array, hand_table
from poker51.cards import card_str
from poker51.export.schema import completed_pre_lines, decision_lines
from poker51.fnv import FNV64_OFFSET_BASIS
from poker51.pcg64 import pcg64_next64, pcg64_state
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
    hand_keys = class_key_array(ht.base, ht.marker, ht.house_draw)
    pos = np.searchsorted(keys[order], hand_keys)
    if (pos >= keys.size).any() or (keys[order][np.minimum(pos, keys.size - 1)] != hand_keys).any():
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
    eight running sums for 8 <= n <= 128, a plain loop below 8), so the reads are bit-equal."""
    n = x.shape[0]
    if n < 8:
        res = 0.0
        for i in range(n):
            res += x[i]
        return res / n
    r = np.empty(8)
    for j in range(8):
        r[j] = x[j]
    i = 8
    while i < n - (n % 8):
        for j in range(8):
            r[j] += x[i + j]
        i += 8
    res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    while i < n:
        res += x[i]
        i += 1
    return res / n


_NONE = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True)
def v05_pre_reads(M, h, out):
    """``out[d]`` = v0.5's pre-draw read of sorted hand ``h`` against H's draw count d = 0..5
    (``poker51.policies.v05.pre_draw_read``): 128 completions of its House draw from the PCG64
    stream ``default_rng(fnv1a_64(b"poker51-v05-completions" + bytes(h)))``; completion k
    replaces the discards with the cards outside ``h`` at the d smallest of the k-th row of
    uniforms (a tie keeps the lower index: NumPy's stable argsort; the cards outside number at
    most 47, so an index fits in the 6 low bits of a 53-bit uniform shifted left).  ``M`` is a
    v0.5 policy's kernel view (:func:`policy_tuple`): its cards, House masks, score table
    (:func:`score_table`) and strength ranks."""
    cards, srank, house_mask, scores = M.cards, M.srank, M.house_mask, M.scores
    idx = colex(h)
    mask = house_mask[idx]
    kept = np.empty(5, np.int64)
    nk = 0
    for i in range(5):
        if (mask >> i) & 1:
            kept[nk] = h[i]
            nk += 1
    d = 5 - nk
    if d == 0:
        r = srank[idx]
        for dh in range(6):
            out[dh] = (0.6 * scores[r, dh] + 0.4 * scores[r, 5]) / 1.0
        return
    seed = _BASIS
    for i in range(_COMPLETION_DOMAIN.shape[0]):
        seed = (seed ^ np.uint64(_COMPLETION_DOMAIN[i])) * _FNV_PRIME
    for i in range(5):
        seed = (seed ^ np.uint64(h[i])) * _FNV_PRIME
    st = np.zeros(4, np.uint64)
    pcg64_state(seed, st)
    outside = np.empty(cards.shape[0], np.int64)
    n_out = 0
    for c in cards:
        if c != h[0] and c != h[1] and c != h[2] and c != h[3] and c != h[4]:
            outside[n_out] = c
            n_out += 1
    vals = np.empty((6, N_COMPLETIONS))
    f = np.empty(5, np.int64)
    low6 = np.uint64(63)
    for k in range(N_COMPLETIONS):
        # the 4 smallest keys (53-bit value << 6 | index) of the row, branch-free: the d
        # smallest uniforms, a tie going to the lower index as in a stable argsort
        s0, s1, s2, s3 = _NONE, _NONE, _NONE, _NONE
        for j in range(n_out):
            x = ((pcg64_next64(st) >> np.uint64(11)) << np.uint64(6)) | np.uint64(j)
            a = min(s0, x)
            x = max(s0, x)
            s0 = a
            a = min(s1, x)
            x = max(s1, x)
            s1 = a
            a = min(s2, x)
            x = max(s2, x)
            s2 = a
            s3 = min(s3, x)
        for i in range(nk):
            f[i] = kept[i]
        sel = (s0, s1, s2, s3)
        for t in range(d):
            f[nk + t] = outside[sel[t] & low6]
        sort5(f)
        r = rank5(M, f[0], f[1], f[2], f[3], f[4])
        for dh in range(6):
            vals[dh, k] = 0.6 * scores[r, dh] + 0.4 * scores[r, 5]
    for dh in range(6):
        out[dh] = pairwise_mean(vals[dh])


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
    read = 0.6 * M.scores[r, h_draw] + 0.4 * M.scores[r, 5]
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
    "v05_pre_reads",
]  # fmt: skip
