"""Five-card hand strength, ordinary and with the marker I read under a rule.

Strength is one ``int32``, higher is better, equal means a split::

    strength = category << 20 | k1 << 16 | k2 << 12 | k3 << 8 | k4 << 4 | k5

``k1..k5`` are ranks (0..12 for 2..A) ordered by (multiplicity, rank), each distinct
rank once; a straight keeps only its top rank (the wheel A-2-3-4-5 has top 3, the
five).  Categories, worst first, are numbered 0..9 (``CATEGORIES``); five of a kind
(9) exists only when the marker is read as a card.  On the 52-card deck there are
7,462 distinct strengths.

Marker rules (``RULE_*``), SPEC section 1 and rule card "Ⅰ back in play".  A hand
that holds the marker is worth the best hand the marker can make:

- ``RULE_WILD``: any card.  It may duplicate the rank of a held card (four of a
  rank + I = five of a kind); for a flush it is a card of the suit not held.
- ``RULE_BUG``: an ace (four aces + I = five aces), or any card not held that
  completes a straight, flush or straight flush.
- ``RULE_SUIT_TWO``: a two of any suit not already held (for another marker
  card: a card of the marker's rank in any suit not held).
- ``RULE_CLUB_ANY``: a club of any rank not already held (for another marker
  card: a card of the marker's suit, any rank, not held).
- ``RULE_ORDINARY``: the marker is the ordinary card it is.

Each kernel has a plain-Python twin (``*_plain``); the tests compare them on every
hand of the decks.

>>> from poker51.cards import parse_cards
>>> s = strength_plain(parse_cards("Ah Kh Qh Jh Th"))
>>> CATEGORIES[category_of(s)], hex(s)
('straight_flush', '0x8c0000')
>>> CATEGORIES[category_of(strength(parse_cards("2c Kd Kh Ks Kc"), RULE_WILD))]
'five_of_a_kind'
>>> CATEGORIES[category_of(strength(parse_cards("2c 2d 2h 2s Ad"), RULE_WILD))]  # I + three natural twos
'four_of_a_kind'
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from numba import njit

from poker51.cards import MARKER
from poker51.rules import (  # noqa: F401  (re-exported: the evaluator's names)
    CATEGORIES,
    FIVE_OF_A_KIND,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    MARKER_RULES,
    ONE_PAIR,
    RULE_BUG,
    RULE_CLUB_ANY,
    RULE_ORDINARY,
    RULE_SUIT_TWO,
    RULE_WILD,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
)

RULES = MARKER_RULES  # the marker rules by name

_WHEEL = (1 << 12) | 0b1111  # A,2,3,4,5


@njit(cache=True, inline="always")
def category_of(strength):
    """The category (0..9) of a strength."""
    return strength >> 20


# --------------------------------------------------------------------------- kernels
@njit(cache=True)
def _eval_ranks(ranks, flush):
    """Strength of five ranks (repeats allowed, up to five of a kind); ``flush`` if one suit."""
    counts = np.zeros(13, np.int64)
    for r in ranks:
        counts[r] += 1
    mask = 0
    distinct = 0
    for r in range(13):
        if counts[r] > 0:
            mask |= 1 << r
            distinct += 1
    if distinct == 5:
        top = -1
        for t in range(12, 3, -1):
            if mask == (0b11111 << (t - 4)):
                top = t
                break
        if top < 0 and mask == _WHEEL:
            top = 3
        if top >= 0:
            return ((STRAIGHT_FLUSH if flush else STRAIGHT) << 20) | (top << 16)
    # kickers by (multiplicity, rank), descending
    s = 0
    shift = 16
    maxc = 0
    npairs = 0
    for c in range(5, 0, -1):
        for r in range(12, -1, -1):
            if counts[r] == c:
                s |= r << shift
                shift -= 4
                if c > maxc:
                    maxc = c
                if c == 2:
                    npairs += 1
    if maxc == 5:
        cat = FIVE_OF_A_KIND
    elif maxc == 4:
        cat = FOUR_OF_A_KIND
    elif maxc == 3:
        cat = FULL_HOUSE if npairs == 1 else THREE_OF_A_KIND
    elif flush:
        cat = FLUSH
    elif npairs == 2:
        cat = TWO_PAIR
    elif npairs == 1:
        cat = ONE_PAIR
    else:
        cat = HIGH_CARD
    return (cat << 20) | s


@njit(cache=True)
def eval_cards_kernel(c0, c1, c2, c3, c4):
    """Ordinary strength of five distinct cards."""
    ranks = np.empty(5, np.int64)
    ranks[0] = c0 >> 2
    ranks[1] = c1 >> 2
    ranks[2] = c2 >> 2
    ranks[3] = c3 >> 2
    ranks[4] = c4 >> 2
    s = c0 & 3
    flush = (c1 & 3) == s and (c2 & 3) == s and (c3 & 3) == s and (c4 & 3) == s
    return _eval_ranks(ranks, flush)


@njit(cache=True)
def _eval_with(n0, n1, n2, n3, sub):
    return eval_cards_kernel(n0, n1, n2, n3, sub)


@njit(cache=True)
def best_marker_kernel(nat, rule):
    """Best strength of four natural cards ``nat`` plus the marker I = 2c under ``rule``."""
    return _best_marker_at(nat, rule, MARKER)


@njit(cache=True)
def _best_marker_at(nat, rule, marker):
    """Best strength of four natural cards ``nat`` plus the card ``marker`` read under ``rule``."""
    n0, n1, n2, n3 = nat[0], nat[1], nat[2], nat[3]
    held = np.zeros(52, np.bool_)
    for c in nat:
        held[c] = True
    best = -1
    ranks = np.empty(5, np.int64)
    for i in range(4):
        ranks[i] = nat[i] >> 2
    if rule == RULE_WILD or rule == RULE_BUG:
        # rank readings, suit irrelevant: any rank for wild, the ace for the bug
        lo = 0 if rule == RULE_WILD else 12
        for r in range(lo, 13):
            ranks[4] = r
            v = _eval_ranks(ranks, False)
            if rule == RULE_BUG:
                best = max(best, v)
            elif v > best:
                best = v
        # cards not held: flush / straight readings
        for c in range(52):
            if held[c]:
                continue
            v = _eval_with(n0, n1, n2, n3, c)
            if rule == RULE_WILD:
                if v > best:
                    best = v
            else:
                cat = v >> 20
                if (cat == STRAIGHT or cat == FLUSH or cat == STRAIGHT_FLUSH or (c >> 2) == 12) and v > best:
                    best = v
    elif rule == RULE_SUIT_TWO:
        for s in range(4):
            c = (marker & ~3) | s  # the marker's rank (a two for I) in suit s
            if not held[c]:
                v = _eval_with(n0, n1, n2, n3, c)
                if v > best:
                    best = v
    elif rule == RULE_CLUB_ANY:
        for r in range(13):
            c = 4 * r + (marker & 3)  # rank r in the marker's suit (a club for I)
            if not held[c]:
                v = _eval_with(n0, n1, n2, n3, c)
                if v > best:
                    best = v
    return best


@njit(cache=True)
def naturals_kernel(hand, marker):
    """(position of ``marker`` in the five-card ``hand`` or -1, the four other cards)."""
    k = -1
    for i in range(5):
        if hand[i] == marker:
            k = i
    nat = np.empty(4, np.int64)
    if k >= 0:
        j = 0
        for i in range(5):
            if i != k:
                nat[j] = hand[i]
                j += 1
    return k, nat


@njit(cache=True)
def strength_kernel(hand, rule, marker):
    if rule != RULE_ORDINARY:
        k, nat = naturals_kernel(hand, marker)
        if k >= 0:
            return _best_marker_at(nat, rule, marker)
    return eval_cards_kernel(hand[0], hand[1], hand[2], hand[3], hand[4])


@njit(cache=True)
def _strength_many(hands, rule, marker, out):
    for i in range(hands.shape[0]):
        out[i] = strength_kernel(hands[i], rule, marker)


# --------------------------------------------------------------------------- public
def strength(hand, rule: int = RULE_ORDINARY, marker: int = MARKER) -> int:
    """Strength of one five-card hand (card ints) under a marker rule."""
    h = np.asarray(hand, dtype=np.int64)
    if h.shape != (5,) or len(set(h.tolist())) != 5 or h.min() < 0 or h.max() > 51:
        raise ValueError(f"a hand is five distinct cards 0..51, got {hand!r}")
    return int(strength_kernel(h, rule, marker))


def strengths(hands: np.ndarray, rule: int = RULE_ORDINARY, marker: int = MARKER) -> np.ndarray:
    """Strengths of an (n, 5) array of hands, as int32."""
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    out = np.empty(hands.shape[0], np.int32)
    _strength_many(hands, rule, marker, out)
    return out


# --------------------------------------------------------------------------- plain twins
def eval_ranks_plain(ranks: list[int], flush: bool) -> int:
    """Plain twin of the rank kernel, written from the rules with ``Counter``."""
    counts = Counter(ranks)
    distinct = sorted(counts, reverse=True)
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            return ((STRAIGHT_FLUSH if flush else STRAIGHT) << 20) | (distinct[0] << 16)
        if distinct == [12, 3, 2, 1, 0]:
            return ((STRAIGHT_FLUSH if flush else STRAIGHT) << 20) | (3 << 16)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 5:
        cat = FIVE_OF_A_KIND
    elif shape[0] == 4:
        cat = FOUR_OF_A_KIND
    elif shape[:2] == [3, 2]:
        cat = FULL_HOUSE
    elif flush:
        cat = FLUSH
    elif shape[0] == 3:
        cat = THREE_OF_A_KIND
    elif shape[:2] == [2, 2]:
        cat = TWO_PAIR
    elif shape[0] == 2:
        cat = ONE_PAIR
    else:
        cat = HIGH_CARD
    value = cat << 20
    for i, (r, _) in enumerate(groups):
        value |= r << (16 - 4 * i)
    return value


def strength_plain(hand, rule: int = RULE_ORDINARY, marker: int = MARKER) -> int:
    """Plain twin of :func:`strength`: tries every reading the rule allows."""
    hand = [int(c) for c in hand]

    def ordinary(cards):
        return eval_ranks_plain([c >> 2 for c in cards], len({c & 3 for c in cards}) == 1)

    if rule == RULE_ORDINARY or marker not in hand:
        return ordinary(hand)
    nat = [c for c in hand if c != marker]
    free = [c for c in range(52) if c not in nat]
    if rule == RULE_WILD:
        rank_reads = [eval_ranks_plain([c >> 2 for c in nat] + [r], False) for r in range(13)]
        return max(rank_reads + [ordinary(nat + [c]) for c in free])
    if rule == RULE_BUG:
        reads = [eval_ranks_plain([c >> 2 for c in nat] + [12], False)]
        for c in free:
            v = ordinary(nat + [c])
            if c >> 2 == 12 or category_of(v) in (STRAIGHT, FLUSH, STRAIGHT_FLUSH):
                reads.append(v)
        return max(reads)
    if rule == RULE_SUIT_TWO:
        return max(ordinary(nat + [c]) for c in free if c >> 2 == marker >> 2)
    if rule == RULE_CLUB_ANY:
        return max(ordinary(nat + [c]) for c in free if c & 3 == marker & 3)
    raise ValueError(f"unknown marker rule {rule}")
