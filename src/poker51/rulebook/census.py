"""The exact Hold'em census: the best five of every seven-card set, counted by category.

Hold'em's best hand uses any five of the seven cards (7.1), so a deal's category depends
only on the set of seven: all ``C(52, 7) = 133,784,560`` sets are counted once each.

The kernel never builds a hand.  Like the five-card census
(:mod:`poker51.census.count`) it walks seven nested loops over card positions and keeps,
incrementally, what decides a category:

* ``key = n2 + 4 n3 + 16 n4``, where ``n_k`` is the number of ranks held exactly ``k``
  times (a rank going from ``c`` to ``c + 1`` cards adds ``DELTA[c] = 0, 1, 3, 12``), read
  through ``KEY_CATEGORY``: four of a kind if ``n4``; a full house if two triples or a
  triple and a pair; then three of a kind, two pair, one pair, high card;
* the 13-bit rank mask (``STRAIGHT_CATEGORY[mask]`` is 4 if it holds five ranks in a row,
  the wheel A-2-3-4-5 included (6.1), else 0; the category is the larger of the two);
* per suit a count and a rank mask.  Five or more cards of one suit make the category
  ``FLUSH_CATEGORY[suit mask]`` (royal flush, straight flush or flush): with five cards of
  one suit among seven no rank can be held three times together with a pair, nor four
  times, so nothing the flush misses is higher.

The first card is spread over the threads (``prange``) by longest-first assignment of its
``C(n - 1 - a, 6)`` hands, so two cores share the work evenly; counts are exact integers and
do not depend on the number of threads.  :func:`holdem_census_plain` is the plain twin
(every seven-card set, every five-card subset, :func:`~poker51.rulebook.reading.strength5_plain`).

>>> from math import comb
>>> c = holdem_census()
>>> int(c.sum()) == comb(52, 7), int(c[ROYAL_FLUSH])
(True, 4324)
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numba
import numpy as np
from numba import njit, prange

from poker51.rulebook.games import N_CATEGORIES, ROYAL_FLUSH
from poker51.rulebook.reading import category_of, strength5_plain
from poker51.rules import (
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
)

__all__ = [
    "DELTA",
    "FLUSH_CATEGORY",
    "KEY_CATEGORY",
    "STRAIGHT_CATEGORY",
    "holdem_census",
    "holdem_census_plain",
    "straight_top",
]


def straight_top(mask: int) -> int:
    """Top rank of the highest straight in a 13-bit rank mask, -1 if none (the wheel's top is the five)."""
    for top in range(12, 3, -1):
        run = 0b11111 << (top - 4)
        if mask & run == run:
            return top
    wheel = (1 << 12) | 0b1111
    return 3 if mask & wheel == wheel else -1


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    key_cat = np.zeros(64, np.int64)
    for n2 in range(4):
        for n3 in range(3):
            for n4 in range(2):
                if n4:
                    cat = FOUR_OF_A_KIND
                elif n3 >= 2 or (n3 == 1 and n2 >= 1):
                    cat = FULL_HOUSE
                elif n3 == 1:
                    cat = THREE_OF_A_KIND
                elif n2 >= 2:
                    cat = TWO_PAIR
                elif n2 == 1:
                    cat = ONE_PAIR
                else:
                    cat = HIGH_CARD
                key_cat[n2 + 4 * n3 + 16 * n4] = cat
    straight = np.zeros(1 << 13, np.int64)
    flush = np.zeros(1 << 13, np.int64)
    for m in range(1 << 13):
        top = straight_top(m)
        straight[m] = STRAIGHT if top >= 0 else 0
        flush[m] = ROYAL_FLUSH if top == 12 else (STRAIGHT_FLUSH if top >= 0 else FLUSH)
    delta = np.array([0, 1, 3, 12], np.int64)
    for a in (key_cat, straight, flush, delta):
        a.setflags(write=False)
    return key_cat, straight, flush, delta


#: category by ``n2 + 4 n3 + 16 n4``; straight (4) or 0 by rank mask; flush-type category by
#: the rank mask of a suit holding five or more cards; key change when a rank's count grows
KEY_CATEGORY, STRAIGHT_CATEGORY, FLUSH_CATEGORY, DELTA = _tables()


@njit(cache=True)
def _first_card(cards, after, pos, a, cnt, sc, sm, local):
    """Count every seven-card set whose lowest position is ``a`` into ``local``.

    The seventh card is counted by rank: ``after[f, r]`` cards of rank ``r`` lie beyond
    position ``f``; outside a flush they all give the same category, and only the one of a
    suit holding four (``pos[card] > f``) can differ.
    """
    n = cards.shape[0]
    ranks = cards >> 2
    suits = cards & 3
    ra = ranks[a]
    sa = suits[a]
    cnt[ra] += 1
    sc[sa] += 1
    sm[sa] |= 1 << ra
    m1 = 1 << ra
    for b in range(a + 1, n - 5):
        rb, sb = ranks[b], suits[b]
        k2 = DELTA[cnt[rb]]
        cnt[rb] += 1
        sc[sb] += 1
        sm[sb] |= 1 << rb
        m2 = m1 | (1 << rb)
        for c in range(b + 1, n - 4):
            rc, s_c = ranks[c], suits[c]
            k3 = k2 + DELTA[cnt[rc]]
            cnt[rc] += 1
            sc[s_c] += 1
            sm[s_c] |= 1 << rc
            m3 = m2 | (1 << rc)
            for d in range(c + 1, n - 3):
                rd, sd = ranks[d], suits[d]
                k4 = k3 + DELTA[cnt[rd]]
                cnt[rd] += 1
                sc[sd] += 1
                sm[sd] |= 1 << rd
                m4 = m3 | (1 << rd)
                for e in range(d + 1, n - 2):
                    re, se = ranks[e], suits[e]
                    k5 = k4 + DELTA[cnt[re]]
                    cnt[re] += 1
                    sc[se] += 1
                    sm[se] |= 1 << re
                    m5 = m4 | (1 << re)
                    for f in range(e + 1, n - 1):
                        rf, sf = ranks[f], suits[f]
                        k6 = k5 + DELTA[cnt[rf]]
                        cnt[rf] += 1
                        sc[sf] += 1
                        sm[sf] |= 1 << rf
                        m6 = m5 | (1 << rf)
                        fs = -1  # a suit with five or more of the six cards, or with four
                        for s in range(4):
                            if sc[s] >= 4:
                                fs = s
                        if fs < 0:
                            for r in range(rf, 13):
                                k = after[f, r]
                                if k:
                                    local[max(KEY_CATEGORY[k6 + DELTA[cnt[r]]], STRAIGHT_CATEGORY[m6 | (1 << r)])] += k
                        elif sc[fs] >= 5:
                            base = FLUSH_CATEGORY[sm[fs]]
                            for r in range(rf, 13):
                                k = after[f, r]
                                if k:
                                    if pos[4 * r + fs] > f:
                                        local[FLUSH_CATEGORY[sm[fs] | (1 << r)]] += 1
                                        k -= 1
                                    local[base] += k
                        else:
                            for r in range(rf, 13):
                                k = after[f, r]
                                if k:
                                    if pos[4 * r + fs] > f:
                                        local[FLUSH_CATEGORY[sm[fs] | (1 << r)]] += 1
                                        k -= 1
                                    if k:
                                        local[
                                            max(KEY_CATEGORY[k6 + DELTA[cnt[r]]], STRAIGHT_CATEGORY[m6 | (1 << r)])
                                        ] += k
                        cnt[rf] -= 1
                        sc[sf] -= 1
                        sm[sf] &= ~(1 << rf)
                    cnt[re] -= 1
                    sc[se] -= 1
                    sm[se] &= ~(1 << re)
                cnt[rd] -= 1
                sc[sd] -= 1
                sm[sd] &= ~(1 << rd)
            cnt[rc] -= 1
            sc[s_c] -= 1
            sm[s_c] &= ~(1 << rc)
        cnt[rb] -= 1
        sc[sb] -= 1
        sm[sb] &= ~(1 << rb)
    cnt[ra] -= 1
    sc[sa] -= 1
    sm[sa] &= ~(1 << ra)


@njit(cache=True, parallel=True)
def _holdem_kernel(cards, assign, out):
    """``out[t]`` += category counts of the sets whose first position is in ``assign[t]`` (-1 pads)."""
    n = cards.shape[0]
    after = np.zeros((n, 13), np.int64)
    pos = np.full(52, -1, np.int64)
    for p in range(n):
        pos[cards[p]] = p
        for q in range(p + 1, n):
            after[p, cards[q] >> 2] += 1
    for t in prange(assign.shape[0]):
        cnt = np.zeros(13, np.int64)
        sc = np.zeros(4, np.int64)
        sm = np.zeros(4, np.int64)
        local = np.zeros(N_CATEGORIES, np.int64)
        for q in range(assign.shape[1]):
            a = assign[t, q]
            if a < 0:
                break
            _first_card(cards, after, pos, a, cnt, sc, sm, local)
        out[t] += local


def _assignment(n: int, threads: int) -> np.ndarray:
    """First positions per thread, longest first to the least loaded thread (``-1`` pads)."""
    work = sorted(range(max(n - 6, 0)), key=lambda a: -comb(n - 1 - a, 6))
    bins: list[list[int]] = [[] for _ in range(threads)]
    load = [0] * threads
    for a in work:
        t = load.index(min(load))
        bins[t].append(a)
        load[t] += comb(n - 1 - a, 6)
    width = max((len(b) for b in bins), default=0)
    out = np.full((threads, max(width, 1)), -1, np.int64)
    for t, b in enumerate(bins):
        out[t, : len(b)] = b
    return out


def holdem_census(cards=None, threads: int | None = None) -> np.ndarray:
    """Category counts (``int64[10]``, ids of :data:`~poker51.rulebook.games.CATEGORY_NAMES`) of the
    best hand of every seven-card set of ``cards`` (default: all 52)."""
    deck = np.sort(np.asarray(range(52) if cards is None else list(cards), dtype=np.int64))
    if len(set(deck.tolist())) != len(deck) or (len(deck) and (deck[0] < 0 or deck[-1] > 51)):
        raise ValueError("a deck is distinct cards 0..51")
    t = numba.get_num_threads() if threads is None else int(threads)
    out = np.zeros((t, N_CATEGORIES), np.int64)
    if len(deck) >= 7:
        _holdem_kernel(deck, _assignment(len(deck), t), out)
    return out.sum(axis=0)


def holdem_census_plain(cards) -> np.ndarray:
    """Plain twin of :func:`holdem_census`: every seven-card set, its best five by brute force."""
    out = np.zeros(N_CATEGORIES, np.int64)
    for seven in combinations(sorted(int(c) for c in cards), 7):
        out[category_of(max(strength5_plain(five) for five in combinations(seven, 5)))] += 1
    return out
