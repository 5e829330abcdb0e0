"""The Numba simulation kernel of a seeded table; its plain twin is the reference engine.

:func:`simulate_table` plays ``n_hands`` hands of one table exactly as
:func:`poker51.multi.simulate.simulate_plain` plays them on :class:`poker51.multi.table.Table`
with :class:`~poker51.multi.riemann.RiemannPolicy` and
:class:`~poker51.multi.population.TypePolicy`: the same committed decks
(:mod:`~poker51.multi.kdeal`), betting law (:mod:`~poker51.multi.law`), reads
(:mod:`poker51.policies.kernels`: v0.5's read), uniforms (:mod:`~poker51.multi.krng`), pot law
(:mod:`~poker51.multi.kpots`) and ledger (:mod:`~poker51.multi.ledger`), and the same
table dynamics (:mod:`~poker51.multi.simulate`): before each hand a person holding less
than one ante leaves and sits again with the buy-in, then every missing Riemann is added
again by its adder.  ``tests/multi/test_kernels.py`` checks that both give identical hands.
Riemann's read before the draw depends on its five cards only; ``memo`` keeps each one
computed (``-1`` where none is) for the hands of later tables.

Seat kinds: 0 empty, 1 person, 2 Riemann.  Move codes: 0 check, 1 open, 2 call, 3 raise,
4 fold.  ``ptab`` rows (one per type): open value, open size (cents), bluff, call, raise,
softness, keep-kicker (0/1).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from poker51.multi.kdeal import shuffle_kernel
from poker51.multi.kledger import EMPTY, PERSON, RIEMANN, audit_k, book_k, person_leaves_k, riemann_leaves_k
from poker51.multi.kpolicy import (
    CALL,
    CHECK,
    FOLD,
    OPEN,
    can_answer_k,
    house_plan_k,
    in_bluff_class_k,
    next_turn_k,
    riemann_move_k,
    type_keep_k,
    type_move_k,
)
from poker51.multi.kpots import settle_kernel
from poker51.multi.krng import decision_uniform_k, hand_seed_words
from poker51.multi.law import ANTE, MAX_RAISES, N_SEATS
from poker51.policies.kernels import rank5_lut, v05_post_read, v05_pre_read_random

MAX_ACTIONS = 64
#: BINOM51[n, k] = C(n, k), n < 51, k <= 5; N_HANDS = C(51, 5)
BINOM51 = np.array([[math.comb(n, k) for k in range(6)] for n in range(51)], np.int64)
N_HANDS = math.comb(51, 5)
N_STATS = 4  # per seat: net against people, abit score, Riemann's abits result, hands dealt in


@njit(cache=True)
def simulate_table(
    n_hands, kind0, ptype, adder, buyin, bank0, base_words, ptab, deck_cards,
    lut, lr, q, flr, n_finals, pre_tab, memo,
    hand_out, seat_out, act_out, stats, audit,
):  # fmt: skip
    """Play ``n_hands`` hands (module docstring).  Outputs: ``hand_out[h] = (button, actions)``;
    ``seat_out[h, s] = (dealt, committed, payout, draw, stack after)``; ``act_out[h, a] =
    (round, seat, code, cents)``; ``stats[s]`` (:data:`N_STATS`); ``audit = (steps, failures)``."""
    stack = np.zeros(N_SEATS, np.int64)
    kind = np.zeros(N_SEATS, np.int64)
    held = np.zeros((N_SEATS, N_SEATS), np.int64)
    bank = np.zeros(N_SEATS, np.int64)
    initial = np.zeros(N_SEATS, np.int64)
    net = np.zeros(N_SEATS, np.int64)
    sess_in = np.zeros(N_SEATS, np.int64)
    sess_net = np.zeros(N_SEATS, np.int64)
    for s in range(N_SEATS):
        if kind0[s] == PERSON:
            bank[s] = bank0
            initial[s] = bank0
    deck = np.empty(deck_cards.shape[0], np.int64)
    seedw = np.empty(8, np.uint64)
    cards = np.zeros((N_SEATS, 5), np.int64)
    scratch = np.empty(128)
    buf = np.empty(128 * 46, np.uint64)
    finals = np.empty((128, 5), np.int64)
    order = np.zeros(N_SEATS, np.int64)
    live = np.zeros(N_SEATS, np.bool_)
    to_act = np.zeros(N_SEATS, np.bool_)
    bet = np.zeros(N_SEATS, np.int64)
    committed = np.zeros(N_SEATS, np.int64)
    draws = np.full(N_SEATS, -1, np.int64)
    rank = np.zeros(N_SEATS, np.int64)
    k_dec = np.zeros(N_SEATS, np.int64)
    plan = np.zeros((N_SEATS, 4), np.int64)
    pre_read = np.full(N_SEATS, -1.0)
    tf = np.empty(160, np.int64)
    tt = np.empty(160, np.int64)
    ta = np.empty(160, np.int64)
    pots = np.empty((N_SEATS, 3), np.int64)
    button = 0
    for h in range(n_hands):
        # ---------------------------------------------------------------- between hands
        for s in range(N_SEATS):
            if kind0[s] == PERSON and (kind[s] == EMPTY or stack[s] < ANTE):
                if kind[s] == PERSON:
                    person_leaves_k(s, kind, adder, stack, held, bank, initial, net, sess_in, sess_net, audit)
                bank[s] -= buyin
                kind[s], stack[s], sess_in[s], sess_net[s] = PERSON, buyin, buyin, 0
                audit_k(kind, stack, held, bank, initial, net, committed, audit)
        for s in range(N_SEATS):
            if kind0[s] == RIEMANN and kind[s] == EMPTY:
                kind[s], stack[s] = RIEMANN, stack[adder[s]]
                audit_k(kind, stack, held, bank, initial, net, committed, audit)
        # ---------------------------------------------------------------- the deal
        if h > 0:
            button = (button + 1) % N_SEATS
        n = 0
        for j in range(N_SEATS):
            s = (button + 1 + j) % N_SEATS
            if kind[s] != EMPTY and stack[s] >= ANTE:
                order[n] = s
                n += 1
        hand_seed_words(base_words, h + 1, 0, seedw)
        shuffle_kernel(seedw, deck_cards, deck)
        hand_seed_words(base_words, h + 1, 2, seedw)
        key = seedw[0] | (seedw[1] << np.uint64(32))
        for s in range(N_SEATS):
            live[s] = False
            committed[s] = 0
            draws[s] = -1
            k_dec[s] = 0
            pre_read[s] = -1.0
            seat_out[h, s, 0] = 0
        for i in range(n):
            s = order[i]
            live[s] = True
            stack[s] -= ANTE
            committed[s] = ANTE
            seat_out[h, s, 0] = 1
            for c in range(5):
                cards[s, c] = deck[c * n + i]
            hm, hstep, hdraw, htop = house_plan_k(cards[s])  # the House plan of the dealt cards, used twice
            plan[s, 0], plan[s, 1], plan[s, 2], plan[s, 3] = hm, hstep, hdraw, htop
        pos = 5 * n
        na = 0
        hand_out[h, 0] = button
        # ---------------------------------------------------------------- two rounds and the draw
        for rnd in range(2):
            if rnd == 1:
                for i in range(n):  # the draw, in turn, by everyone still in
                    s = order[i]
                    if not live[s]:
                        continue
                    m, hd = plan[s, 0], plan[s, 2]
                    d = hd
                    if kind[s] == PERSON and ptab[ptype[s], 6] > 0 and hd >= 3:
                        d = hd - 1
                    if kind[s] == PERSON:
                        m = type_keep_k(cards[s], m, d)
                    newc = np.empty(5, np.int64)
                    j = 0
                    for c in range(5):
                        if (m >> c) & 1:
                            newc[j] = cards[s, c]
                            j += 1
                    d = 5 - j
                    for c in range(d):
                        newc[j + c] = deck[pos + c]
                    pos += d
                    cards[s, :] = newc
                    draws[s] = d
                    rank[s] = rank5_lut(newc[0], newc[1], newc[2], newc[3], newc[4], lut)
            for s in range(N_SEATS):
                bet[s] = 0
                to_act[s] = live[s] and stack[s] > 0
            level, opening, raises, closed, aggr, last = 0, 0, 0, False, 0, -1
            while True:
                nlive = 0
                for i in range(n):
                    nlive += live[order[i]]
                if nlive <= 1:
                    break
                s = next_turn_k(order, n, last, to_act, live, stack, bet, level)
                if s < 0:
                    break
                owe = level - bet[s]
                st = stack[s]
                ans = can_answer_k(s, order, n, live, stack)
                can_raise = raises < MAX_RAISES and not closed and st > owe and ans and st >= owe + opening
                pot = 0
                for i in range(n):
                    pot += committed[order[i]] + bet[order[i]]
                opp = nlive - 1
                if kind[s] == RIEMANN:
                    if rnd == 0:
                        if pre_read[s] < 0.0:
                            hs = np.sort(cards[s].copy())
                            idx = hand_index(hs)
                            if memo[idx] >= 0.0:
                                pre_read[s] = memo[idx]
                            else:
                                pre_read[s] = v05_pre_read_random(hs, deck_cards, lr[5], q, lut, scratch, buf, finals)
                                memo[idx] = pre_read[s]
                        read = pre_read[s]
                    else:
                        md = 5
                        for i in range(n):
                            t = order[i]
                            if t != s and live[t] and draws[t] < md:
                                md = draws[t]
                        read = v05_post_read(rank[s], lr, md, q)
                    may = ans and not ((aggr >> s) & 1)
                    code, amount = riemann_move_k(read, opp, owe, st, opening, raises, level, may, can_raise,
                                                  in_bluff_class_k(cards[s]), pot)  # fmt: skip
                else:
                    t = ptype[s]
                    if rnd == 0:
                        step, hd, top = plan[s, 1], plan[s, 2], plan[s, 3]
                        d = hd - 1 if ptab[t, 6] > 0 and hd >= 3 else hd
                        if d == 0:
                            r0 = rank5_lut(cards[s, 0], cards[s, 1], cards[s, 2], cards[s, 3], cards[s, 4], lut)
                            sv = flr[r0] / (2.0 * n_finals)
                        else:
                            sv = pre_tab[step * 13 + top, d]
                    else:
                        sv = flr[rank[s]] / (2.0 * n_finals)
                    u = decision_uniform_k(key, s, k_dec[s])
                    k_dec[s] += 1
                    code, amount = type_move_k(sv, u, ptab[t], owe, st, ans, level, can_raise, opening)
                # ------------------------------------------------ apply (BettingRound.apply)
                act_out[h, na, 0], act_out[h, na, 1], act_out[h, na, 2], act_out[h, na, 3] = rnd, s, code, amount
                na += 1
                if code == FOLD:
                    live[s] = False
                    to_act[s] = False
                elif code == CHECK or code == CALL:
                    stack[s] -= amount
                    bet[s] += amount
                    to_act[s] = False
                else:
                    before = level
                    stack[s] -= amount
                    bet[s] += amount
                    level = bet[s]
                    aggr |= 1 << s
                    if code == OPEN:
                        opening = amount
                    else:
                        raises += 1
                        if level - before < opening:
                            closed = True
                    for i in range(n):
                        t2 = order[i]
                        to_act[t2] = t2 != s and live[t2] and stack[t2] > 0
                last = s
            for i in range(n):
                committed[order[i]] += bet[order[i]]
            nlive = 0
            for i in range(n):
                nlive += live[order[i]]
            if nlive <= 1:
                break
        hand_out[h, 1] = na
        # ---------------------------------------------------------------- settlement and booking
        nlive = 0
        for i in range(n):
            nlive += live[order[i]]
        showdown = nlive > 1
        if showdown:
            for i in range(n):
                s = order[i]
                if draws[s] < 0:
                    rank[s] = rank5_lut(cards[s, 0], cards[s, 1], cards[s, 2], cards[s, 3], cards[s, 4], lut)
        nt, _np = settle_kernel(order, n, committed, live, rank, showdown, button, tf, tt, ta, pots)
        for s in range(N_SEATS):
            seat_out[h, s, 1] = committed[s]
            seat_out[h, s, 2] = 0
            seat_out[h, s, 3] = draws[s]
        for k in range(nt):
            seat_out[h, tt[k], 2] += ta[k]
            book_k(tf[k], tt[k], ta[k], kind, stack, held, net, sess_net, stats)
        for i in range(n):
            s = order[i]
            stats[s, 3] += 1
            if kind[s] == RIEMANN:
                stats[s, 2] -= committed[s]
            committed[s] = 0
        audit_k(kind, stack, held, bank, initial, net, committed, audit)
        for s in range(N_SEATS):  # a Riemann out of abits leaves
            if kind[s] == RIEMANN and stack[s] < ANTE:
                riemann_leaves_k(s, kind, stack, held, bank)
                audit_k(kind, stack, held, bank, initial, net, committed, audit)
        for s in range(N_SEATS):
            seat_out[h, s, 4] = stack[s]
    for s in range(N_SEATS):  # the table closes
        if kind[s] == RIEMANN:
            riemann_leaves_k(s, kind, stack, held, bank)
    for s in range(N_SEATS):
        if kind[s] == PERSON:
            person_leaves_k(s, kind, adder, stack, held, bank, initial, net, sess_in, sess_net, audit)
    for s in range(N_SEATS):
        if kind0[s] == PERSON and bank[s] != initial[s] + net[s]:
            audit[1] += 1
    audit[0] += 1


@njit(cache=True, inline="always")
def hand_index(hs):
    """The colex number of five sorted cards of the 51 (card ``c`` at position ``c - 1``):
    ``sum C(c_i - 1, i + 1)``, 0 .. C(51, 5) - 1; the index of :func:`simulate_table`'s ``memo``."""
    return BINOM51[hs[0] - 1, 1] + BINOM51[hs[1] - 1, 2] + BINOM51[hs[2] - 1, 3] + BINOM51[hs[3] - 1, 4] + (
        BINOM51[hs[4] - 1, 5])  # fmt: skip


@njit(cache=True, parallel=True)
def run_tables(n_hands, kinds, ptypes, adders, buyin, bank, words, nwords, ptab, deck, lut, lr, q, flr, nf, pre, memo,
               stats_out, audit_out):  # fmt: skip
    """Tables ``i`` in parallel (``prange``); table ``i``'s entropy is ``words[i, :nwords[i]]``.  The
    threads share ``memo``: a read is a function of the cards, so whichever thread stores it
    first stores the same bits, and every table's hands are the same with or without it."""
    for i in prange(kinds.shape[0]):
        hand_out = np.zeros((n_hands, 2), np.int64)
        seat_out = np.zeros((n_hands, N_SEATS, 5), np.int64)
        act_out = np.zeros((n_hands, MAX_ACTIONS, 4), np.int64)
        simulate_table(n_hands, kinds[i], ptypes[i], adders[i], buyin, bank, words[i, : nwords[i]], ptab, deck, lut,
                       lr, q, flr, nf, pre, memo, hand_out, seat_out, act_out, stats_out[i], audit_out[i])  # fmt: skip


def new_memo() -> np.ndarray:
    """An empty memo of Riemann's reads before the draw (-1: not computed yet), one per hand of 51 cards."""
    return np.full(N_HANDS, -1.0)


__all__ = ["MAX_ACTIONS", "N_HANDS", "N_STATS", "hand_index", "new_memo", "run_tables", "simulate_table"]
