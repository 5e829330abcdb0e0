"""Hand strength and the House rule in plain Python: the game server's path, without Numba.

The slim core (``pip install poker51``: NumPy, pandas, pyarrow) plays Riemann and the real-card
engine with these functions; the pipeline's Numba kernels (:mod:`poker51.hands.evaluate`,
:mod:`poker51.hands.house`) compute the same numbers for millions of hands at a time.  Both
follow the same definitions, and ``tests/hands/test_pure.py`` checks that they agree on every
dealt hand of ``standard``, ``wild`` and ``bug`` (a seeded sample in ``make test``, every hand in
``make slow``).

**Strength** (:func:`pure_strength`) is one int, higher is better, equal means a split::

    strength = category << 20 | k1 << 16 | k2 << 12 | k3 << 8 | k4 << 4 | k5

with ``k1..k5`` the distinct ranks (0..12 for 2..A) ordered by (multiplicity, rank); a straight
keeps only its top rank (the wheel A-2-3-4-5 has top 3).  A hand holding the marker Ⅰ is worth
the best reading the rule allows (:mod:`poker51.hands.evaluate` lists the rules).  Wild and bug
readings are grouped by rank: every card of a rank that is not the four naturals' suit reads
the same, so the readings are the 13 ranks without a flush plus, when the four naturals share a
suit, the free cards of that suit with one (at most 26 evaluations instead of the kernel's 65).

**The House rule** (:func:`pure_house`) returns ``(keep mask over the five positions, step
1..7, strength)`` exactly as :func:`poker51.hands.house.house_kernel` (the seven steps, Ⅰ always
kept, a marker hand read at its best).

>>> from poker51.cards import parse_cards
>>> hex(pure_strength(parse_cards("Ah Kh Qh Jh Th")))
'0x8c0000'
>>> CATEGORIES[pure_strength(parse_cards("2c Kd Kh Ks Kc"), RULE_WILD) >> 20]
'five_of_a_kind'
>>> pure_house(parse_cards("2c 9h 9d 4s Jc"), RULE_WILD)[:2]   # Ⅰ + a pair of nines = trips
(7, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement

from poker51.rules import (
    CATEGORIES,
    FIVE_OF_A_KIND,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    MARKER_CARD,
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

#: House-rule steps (rule card numbering)
STEP_MADE, STEP_TRIPS, STEP_TWO_PAIR, STEP_PAIR, STEP_FOUR_FLUSH, STEP_FOUR_STRAIGHT, STEP_HIGH_CARD = range(1, 8)
_WHEEL = [12, 3, 2, 1, 0]


def _direct(ranks: Sequence[int]) -> int:
    """Strength of five ranks without a flush, computed from the definition (builds the tables)."""
    rs = sorted(ranks, reverse=True)
    a, b, c, d, e = rs
    if a > b > c > d > e:
        if a - e == 4:
            return (STRAIGHT << 20) | (a << 16)
        if rs == _WHEEL:
            return (STRAIGHT << 20) | (3 << 16)
        return (a << 16) | (b << 12) | (c << 8) | (d << 4) | e
    counts: dict[int, int] = {}
    for r in rs:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    s, shift, pairs = 0, 16, 0
    for n, r in groups:
        s |= r << shift
        shift -= 4
        pairs += n == 2
    top = groups[0][0]
    if top == 5:
        cat = FIVE_OF_A_KIND
    elif top == 4:
        cat = FOUR_OF_A_KIND
    elif top == 3:
        cat = FULL_HOUSE if pairs == 1 else THREE_OF_A_KIND
    else:
        cat = TWO_PAIR if pairs == 2 else ONE_PAIR
    return (cat << 20) | s


def _as_flush(v: int) -> int:
    """The strength of the same ranks in one suit (the kernel's reading of ``flush``)."""
    cat = v >> 20
    if cat == STRAIGHT:
        return v + ((STRAIGHT_FLUSH - STRAIGHT) << 20)
    if cat <= TWO_PAIR:
        return (v & 0xFFFFF) | (FLUSH << 20)
    return v


#: a multiset of ranks as one int: sum of 6**rank (a rank occurs at most five times)
_POW = tuple(6**r for r in range(13))
#: no-flush strength of every multiset of five ranks (6,188)
_FIVE = {sum(_POW[r] for r in rs): _direct(rs) for rs in combinations_with_replacement(range(13), 5)}
_FOUR = [sum(_POW[r] for r in rs) for rs in combinations_with_replacement(range(13), 4)]
#: best no-flush reading of four ranks + a wild card (any rank)
_WILD = {k: max(_FIVE[k + p] for p in _POW) for k in _FOUR}
#: best no-flush reading of four ranks + the bug (the ace, or a rank that makes a straight)
_BUG = {k: max(v for r, p in enumerate(_POW) if ((v := _FIVE[k + p]) >> 20) == STRAIGHT or r == 12) for k in _FOUR}
#: best flush reading of four distinct ranks of one suit + a card of that suit they do not hold
_SUITED = {
    sum(_POW[r] for r in rs): max(
        _as_flush(_FIVE[sum(_POW[r] for r in rs) + _POW[r]]) for r in range(13) if r not in rs
    )
    for rs in combinations(range(13), 4)
}


def rank_strength(ranks: Sequence[int], flush: bool) -> int:
    """Strength of five ranks (repeats allowed, up to five of a kind); ``flush`` if one suit
    (the plain counterpart of ``poker51.hands.evaluate._eval_ranks``).

    >>> hex(rank_strength([12, 3, 2, 1, 0], False)), hex(rank_strength([5, 5, 9, 9, 9], False))
    ('0x430000', '0x695000')
    """
    a, b, c, d, e = ranks
    v = _FIVE[_POW[a] + _POW[b] + _POW[c] + _POW[d] + _POW[e]]
    return _as_flush(v) if flush else v


def card_strength(cards: Sequence[int]) -> int:
    """Ordinary strength of five distinct cards (ints ``4 * rank + suit``)."""
    c0, c1, c2, c3, c4 = cards
    v = _FIVE[_POW[c0 >> 2] + _POW[c1 >> 2] + _POW[c2 >> 2] + _POW[c3 >> 2] + _POW[c4 >> 2]]
    s = c0 & 3
    if (c1 & 3) == s and (c2 & 3) == s and (c3 & 3) == s and (c4 & 3) == s:
        return _as_flush(v)
    return v


def marker_strength(nat: Sequence[int], rule: int, marker: int = MARKER_CARD) -> int:
    """Best strength of four natural cards plus ``marker`` read under ``rule`` (the plain
    counterpart of ``poker51.hands.evaluate._best_marker_at``).  Wild and bug: the best
    no-flush reading of the four ranks (tables above) and, when the four share a suit, the
    best flush reading."""
    if rule == RULE_WILD or rule == RULE_BUG:
        n0, n1, n2, n3 = nat
        k = _POW[n0 >> 2] + _POW[n1 >> 2] + _POW[n2 >> 2] + _POW[n3 >> 2]
        best = _WILD[k] if rule == RULE_WILD else _BUG[k]
        s = n0 & 3
        if (n1 & 3) == s and (n2 & 3) == s and (n3 & 3) == s:
            best = max(best, _SUITED[k])
        return best
    held = set(nat)
    if rule == RULE_SUIT_TWO:
        cands = [(marker & ~3) | s for s in range(4)]  # the marker's rank in any suit
    elif rule == RULE_CLUB_ANY:
        cands = [4 * r + (marker & 3) for r in range(13)]  # the marker's suit, any rank
    else:
        raise ValueError(f"unknown marker rule {rule}")
    return max(card_strength([*nat, c]) for c in cands if c not in held)


def pure_strength(hand: Sequence[int], rule: int = RULE_ORDINARY, marker: int = MARKER_CARD) -> int:
    """Strength of five distinct cards under a marker rule (equal to
    :func:`poker51.hands.evaluate.strength`); the hand is not validated."""
    if rule != RULE_ORDINARY and marker in hand:
        return marker_strength([c for c in hand if c != marker], rule, marker)
    return card_strength(hand)


def _house_ordinary(hand: Sequence[int]) -> tuple[int, int, int]:
    s = card_strength(hand)
    cat = s >> 20
    if cat >= STRAIGHT:
        return 31, STEP_MADE, s
    if cat != HIGH_CARD:  # trips, two pair, one pair: keep the cards of the repeated ranks
        r1 = (s >> 16) & 15
        r2 = (s >> 12) & 15 if cat == TWO_PAIR else -1
        m = 0
        for i in range(5):
            r = hand[i] >> 2
            if r == r1 or r == r2:
                m |= 1 << i
        return m, (STEP_TRIPS if cat == THREE_OF_A_KIND else STEP_TWO_PAIR if cat == TWO_PAIR else STEP_PAIR), s
    counts = [0, 0, 0, 0]
    for c in hand:
        counts[c & 3] += 1
    if 4 in counts:
        su = counts.index(4)
        return sum(1 << i for i in range(5) if hand[i] & 3 == su), STEP_FOUR_FLUSH, s
    bits = 0
    for c in hand:
        bits |= 1 << (c >> 2)
    for lo in range(9):  # 2-3-4-5 (lo = 0) .. T-J-Q-K (lo = 8)
        if (bits >> lo) & 15 == 15:
            return sum(1 << i for i in range(5) if lo <= hand[i] >> 2 <= lo + 3), STEP_FOUR_STRAIGHT, s
    top = max(hand)  # rank first, then the suit order
    return 1 << list(hand).index(top), STEP_HIGH_CARD, s


def pure_house(hand: Sequence[int], rule: int = RULE_ORDINARY, marker: int = MARKER_CARD) -> tuple[int, int, int]:
    """(keep mask over positions, House step 1..7, strength) of one hand under ``rule``
    (equal to :func:`poker51.hands.house.house_kernel`); the hand is not validated."""
    if rule == RULE_ORDINARY or marker not in hand:
        return _house_ordinary(hand)
    k = list(hand).index(marker)
    s = marker_strength([c for c in hand if c != marker], rule, MARKER_CARD)
    cat = s >> 20
    if cat >= STRAIGHT:
        return 31, STEP_MADE, s
    r1, r2 = (s >> 16) & 15, (s >> 12) & 15
    if cat == TWO_PAIR:
        step = STEP_TWO_PAIR
    else:
        step = STEP_TRIPS if cat == THREE_OF_A_KIND else STEP_PAIR if cat == ONE_PAIR else STEP_HIGH_CARD
        r2 = -1
    m = 1 << k
    for i in range(5):
        if i != k and (hand[i] >> 2 == r1 or hand[i] >> 2 == r2):
            m |= 1 << i
    return m, step, s


__all__ = [
    "CATEGORIES", "STEP_FOUR_FLUSH", "STEP_FOUR_STRAIGHT", "STEP_HIGH_CARD", "STEP_MADE", "STEP_PAIR",
    "STEP_TRIPS", "STEP_TWO_PAIR", "card_strength", "marker_strength", "pure_house", "pure_strength",
    "rank_strength",
]  # fmt: skip
