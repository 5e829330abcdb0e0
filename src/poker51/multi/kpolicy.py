"""Numba twins of the betting law's turn order and of the players' decisions (kernel side).

:func:`next_turn_k` and :func:`can_answer_k` are :class:`poker51.multi.law.BettingRound`'s turn
rule; :func:`riemann_move_k` is :func:`poker51.multi.riemann.decide_from_read` and
:func:`type_move_k` :meth:`poker51.multi.population.TypePolicy.decide` (same float operations,
``math.exp`` for the types' ramps); :func:`house_plan_k` and :func:`type_keep_k` the House and
keep-kicker draws.  The twins are compared through whole hands (``tests/multi/test_kernels.py``).
Move codes: 0 check, 1 open, 2 call, 3 raise, 4 fold.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from poker51.hands.house import house_kernel
from poker51.multi.krng import fnv1a_k
from poker51.multi.law import JBIT, OPEN_SIZES, RIEMANN_OPEN
from poker51.policies.v05 import BLUFF_BELOW, RAISE_AT, RANGE_FRACTION, RERAISE_FACTOR

# Numba freezes these module globals at compile time: the kernels read the tables' law
# (poker51.multi.law) and v0.3's thresholds (poker51.policies.v05), never a copy.
SIZES: tuple[int, ...] = OPEN_SIZES
CHECK, OPEN, CALL, RAISE, FOLD = 0, 1, 2, 3, 4
#: range fractions of the opening sizes 1, 2, 4, 8 (poker51.policies.v05.RANGE_FRACTION)
FRACTIONS: tuple[float, ...] = tuple(RANGE_FRACTION[s // JBIT] for s in OPEN_SIZES)


@njit(cache=True)
def can_answer_k(seat, order, n, live, stack):
    for i in range(n):
        t = order[i]
        if t != seat and live[t] and stack[t] > 0:
            return True
    return False


@njit(cache=True)
def next_turn_k(order, n, last, to_act, live, stack, bet, level):
    start = 0
    if last >= 0:
        for i in range(n):
            if order[i] == last:
                start = (i + 1) % n
    for k in range(n):
        s = order[(start + k) % n]
        if to_act[s] and live[s] and stack[s] > 0:
            if level - bet[s] > 0 or can_answer_k(s, order, n, live, stack):
                return s
    return -1


@njit(cache=True)
def ramp_k(s, thr, soft):
    if soft == 0.0:
        return 1.0 if s >= thr else 0.0
    return 1.0 / (1.0 + math.exp(-(s - thr) / soft))


@njit(cache=True)
def adjusted_k(read, f):
    return max(0.0, min(1.0, (read - (1.0 - f)) / f))


@njit(cache=True)
def fraction_k(opening, raised):
    best, bi = 1 << 60, 0
    for i in range(len(SIZES)):
        dist = abs(SIZES[i] - opening)
        if dist < best:
            best, bi = dist, i
    f = FRACTIONS[bi]
    return f * RERAISE_FACTOR if raised else f


@njit(cache=True)
def in_bluff_class_k(cards):
    srt = np.sort(cards.copy())
    b = np.empty(5, np.uint8)
    for i in range(5):
        b[i] = srt[i]
    return fnv1a_k(np.empty(0, np.uint8), b) % np.uint64(8) == np.uint64(0)


@njit(cache=True)
def house_plan_k(cards):
    m, step, _s = house_kernel(cards, 0, 0)
    kept = 0
    top = -1
    for i in range(5):
        if (m >> i) & 1:
            kept += 1
            if (cards[i] >> 2) > top:
                top = cards[i] >> 2
    return m, step, 5 - kept, top


@njit(cache=True)
def type_keep_k(cards, mask, d):
    kept = 0
    for i in range(5):
        kept += (mask >> i) & 1
    while 5 - kept > d:
        best, bi = -1, -1
        for i in range(5):
            if not (mask >> i) & 1 and cards[i] > best:
                best, bi = cards[i], i
        mask |= 1 << bi
        kept += 1
    return mask


@njit(cache=True)
def power_k(s, k):
    p = 1.0
    for _ in range(k):
        p *= s
    return p


@njit(cache=True)
def riemann_move_k(read, opp, owe, st, opening, raises, level, may, can_raise, bluff, pot):
    """(code, cents) of Riemann's rules 3-5 on a read (:func:`poker51.multi.riemann.decide_from_read`)."""
    if owe <= 0:
        sc = power_k(adjusted_k(read, 1.0), opp)
        if may and level == 0 and (sc >= RAISE_AT or (sc < BLUFF_BELOW and bluff)):
            return OPEN, min(RIEMANN_OPEN, st)
        return CHECK, 0
    sc = power_k(adjusted_k(read, fraction_k(opening, raises > 0)), opp)
    if may and can_raise and (sc >= RAISE_AT or (sc < BLUFF_BELOW and bluff)):
        return RAISE, owe + opening
    call = min(owe, st)
    if sc >= call / (pot + call):
        return CALL, call
    return FOLD, 0


@njit(cache=True)
def type_move_k(sv, u, params, owe, st, ans, level, can_raise, opening):
    """(code, cents) of a population type (:meth:`poker51.multi.population.TypePolicy.decide`);
    ``params`` its row of ``ptab``: open value, open size, bluff, call, raise, softness."""
    if owe <= 0:
        v = ramp_k(sv, params[0], params[5])
        if ans and level == 0 and u < v + (1.0 - v) * params[2]:
            return OPEN, min(np.int64(params[1]), st)
        return CHECK, 0
    pr = ramp_k(sv, params[4], params[5])
    pc = (1.0 - pr) * ramp_k(sv, params[3], params[5])
    pf = 1.0 - pr - pc
    if u < pf:
        return FOLD, 0
    if u < pf + pc or not can_raise:
        return CALL, min(owe, st)
    return RAISE, owe + opening


__all__ = [
    "adjusted_k", "can_answer_k", "fraction_k", "house_plan_k", "in_bluff_class_k", "next_turn_k", "power_k",
    "ramp_k", "riemann_move_k", "type_keep_k", "type_move_k",
]  # fmt: skip
