"""The House draw rule (rule card, "The House rule for the draw"; SPEC section 3).

Riemann keeps, from its five dealt cards, by the first step that applies:

1. straight or better: all five;
2. three of a kind: the three;
3. two pair: both pairs;
4. one pair: the pair;
5. four to a flush: the four;
6. four to an open-ended straight (four consecutive ranks, 2-3-4-5 up to T-J-Q-K): the four;
7. otherwise the single highest card, a tie going to the suit order ♠ > ♥ > ♦ > ♣.

The keep set is returned as a bitmask over the five *positions* of the hand
(bit ``i`` = ``hand[i]`` is kept); the draw count is ``5 - popcount(mask)``.

**The marker** (``wild``, ``bug``; rule card "Ⅰ back in play"): Ⅰ is always kept and the
rule applies to the hand Ⅰ makes *at its best*, read as its strongest hand at showdown
(the strength of :func:`poker51.hands.evaluate.strength` under the variant's rule).  That
strength fixes the category and, below a straight, the rank multiset of the read hand,
so the keep set is unambiguous:

- straight or better (flush, full house, four or five of a kind, straight flush): all five;
- three of a kind, two pair, one pair: the natural cards of the repeated rank(s) of the
  reading, plus Ⅰ.  Wild: Ⅰ + a natural pair is trips, keep the pair and Ⅰ (draw 2);
  Ⅰ with four unpaired naturals (no straight or flush to complete) reads as a pair of
  the top natural card, keep that card and Ⅰ (draw 3).  Bug: Ⅰ reads as an ace unless
  it completes a straight or flush, so Ⅰ + a natural pair of 7s is a pair of 7s with an
  ace kicker: keep the 7s and Ⅰ (draw 2); Ⅰ + 7-7-7-x is trips, keep the 7s and Ⅰ
  (draw 1); Ⅰ + two natural pairs (no ace) is two pair: keep all five (draw 0);
  Ⅰ + A + pair is aces up: keep the pair, the ace and Ⅰ (draw 1);
- high card (bug only: Ⅰ is the ace on top): keep Ⅰ alone (draw 4).  Equal-strength
  readings of Ⅰ that differ only in its suit are the same hand at showdown, so Ⅰ is
  given no suit there and never counts toward *four to a flush* (the alternative,
  letting Ⅰ be the ace of a three-card suit, would make a bug class "four to a flush
  with Ⅰ, draw 1"; see ``docs/abstraction.md``).

Steps 5 and 6 never apply to a marker hand: four naturals to a flush or to an
open-ended straight are completed by Ⅰ.  The suit tie-break of step 7 never decides
the House keep (step 7 is reached only by hands with five distinct ranks); it decides the
human's padded and trimmed keep sets of :func:`keep_for_draw`.

>>> from poker51.cards import parse_cards
>>> from poker51.hands.evaluate import RULE_WILD, RULE_BUG
>>> house_keep(parse_cards("Ks Kd 7h 4c 2d"))          # one pair: keep the kings
(3, 3)
>>> house_keep(parse_cards("2c 9h 9d 4s Jc"), RULE_WILD)  # I + pair = trips
(7, 2)
>>> house_keep(parse_cards("2c 3d 6s 9h Qc"), RULE_BUG)   # I reads as the ace on top
(1, 4)
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from numba import njit, prange

from poker51.cards import MARKER
from poker51.hands.evaluate import (
    FLUSH,
    ONE_PAIR,
    RULE_BUG,
    RULE_ORDINARY,
    RULE_WILD,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    best_marker_kernel,
    eval_cards_kernel,
    eval_ranks_plain,
    naturals_kernel,
)

#: House-rule steps (rule card numbering)
STEP_MADE, STEP_TRIPS, STEP_TWO_PAIR, STEP_PAIR, STEP_FOUR_FLUSH, STEP_FOUR_STRAIGHT, STEP_HIGH_CARD = range(1, 8)
STEP_NAMES = {
    1: "straight_or_better",
    2: "three_of_a_kind",
    3: "two_pair",
    4: "one_pair",
    5: "four_to_a_flush",
    6: "four_to_an_open_ended_straight",
    7: "high_card",
}


# --------------------------------------------------------------------------- kernels
@njit(cache=True)
def _popcount5(m):
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1) + ((m >> 4) & 1)


@njit(cache=True)
def _house_ordinary(hand):
    """(mask, step, strength) of five real cards read ordinarily."""
    s = eval_cards_kernel(hand[0], hand[1], hand[2], hand[3], hand[4])
    cat = s >> 20
    if cat >= STRAIGHT:
        return 31, STEP_MADE, s
    rc = np.zeros(13, np.int64)
    sc = np.zeros(4, np.int64)
    for i in range(5):
        rc[hand[i] >> 2] += 1
        sc[hand[i] & 3] += 1
    if cat == THREE_OF_A_KIND or cat == TWO_PAIR or cat == ONE_PAIR:
        m = 0
        for i in range(5):
            if rc[hand[i] >> 2] >= 2:
                m |= 1 << i
        step = STEP_TRIPS if cat == THREE_OF_A_KIND else (STEP_TWO_PAIR if cat == TWO_PAIR else STEP_PAIR)
        return m, step, s
    for su in range(4):
        if sc[su] == 4:
            m = 0
            for i in range(5):
                if (hand[i] & 3) == su:
                    m |= 1 << i
            return m, STEP_FOUR_FLUSH, s
    for lo in range(9):  # 2-3-4-5 (lo = 0) .. T-J-Q-K (lo = 8)
        if rc[lo] > 0 and rc[lo + 1] > 0 and rc[lo + 2] > 0 and rc[lo + 3] > 0:
            m = 0
            for i in range(5):
                r = hand[i] >> 2
                if lo <= r <= lo + 3:
                    m |= 1 << i
            return m, STEP_FOUR_STRAIGHT, s
    best = 0
    for i in range(1, 5):
        if hand[i] > hand[best]:  # card = 4*rank + suit: rank first, then the suit order
            best = i
    return 1 << best, STEP_HIGH_CARD, s


@njit(cache=True)
def house_kernel(hand, rule, marker):
    """(keep mask over positions, House step 1..7, strength) of one hand under ``rule``."""
    if rule == RULE_ORDINARY:
        return _house_ordinary(hand)
    k, nat = naturals_kernel(hand, marker)
    if k < 0:
        return _house_ordinary(hand)
    s = best_marker_kernel(nat, rule)
    cat = s >> 20
    if cat >= STRAIGHT:
        return 31, STEP_MADE, s
    r1 = (s >> 16) & 15
    r2 = (s >> 12) & 15
    if cat == THREE_OF_A_KIND:
        step = STEP_TRIPS
        r2 = -1
    elif cat == TWO_PAIR:
        step = STEP_TWO_PAIR
    elif cat == ONE_PAIR:
        step = STEP_PAIR
        r2 = -1
    else:  # high card: the top rank of the reading (bug: the marker as the ace)
        step = STEP_HIGH_CARD
        r2 = -1
    m = 1 << k
    for i in range(5):
        if i != k:
            r = hand[i] >> 2
            if r == r1 or r == r2:
                m |= 1 << i
    return m, step, s


# parallel=True: hands are independent; halves the wall time on the 2-core target
@njit(cache=True, parallel=True)
def _house_many(hands, rule, marker, masks, steps, strengths):
    for h in prange(hands.shape[0]):
        m, st, s = house_kernel(hands[h], rule, marker)
        masks[h] = m
        steps[h] = st
        strengths[h] = s


@njit(cache=True)
def _keep_for_draw(hand, house_mask, d, marker):
    """Keep mask of ``5 - d`` cards: the House keep set padded with the highest other
    cards or trimmed of its lowest cards; the marker ranks above every card."""
    want = 5 - d
    k = _popcount5(house_mask)
    m = 0
    for i in range(5):
        ini = (house_mask >> i) & 1
        ki = 99 if hand[i] == marker else hand[i]
        above = 0  # cards of the same group (kept / not kept) ranking above card i
        for j in range(5):
            if ((house_mask >> j) & 1) == ini:
                kj = 99 if hand[j] == marker else hand[j]
                if kj > ki:
                    above += 1
        if (ini == 1 and above < want) or (ini == 0 and above < want - k):
            m |= 1 << i
    return m


# parallel=True: hands are independent; halves the wall time on the 2-core target
@njit(cache=True, parallel=True)
def _keep_table(hands, house_masks, marker, out):
    """out[h, d] = keep mask of hand h for the human draw count d = 0..5."""
    for h in prange(hands.shape[0]):
        for d in range(6):
            out[h, d] = _keep_for_draw(hands[h], house_masks[h], d, marker)


# --------------------------------------------------------------------------- public
def check_hand(hand) -> np.ndarray:
    h = np.asarray(hand, dtype=np.int64)
    if h.shape != (5,) or len(set(h.tolist())) != 5 or h.min() < 0 or h.max() > 51:
        raise ValueError(f"a hand is five distinct cards 0..51, got {hand!r}")
    return h


def house_keep(hand, rule: int = RULE_ORDINARY, marker: int = MARKER) -> tuple[int, int]:
    """(keep mask over the five positions, draw count) of the House rule for one hand."""
    m, _, _ = house_kernel(check_hand(hand), rule, marker)
    return int(m), 5 - bin(int(m)).count("1")


def house_step(hand, rule: int = RULE_ORDINARY, marker: int = MARKER) -> int:
    """The House-rule step (1..7, ``STEP_*``) that decides this hand's draw."""
    return int(house_kernel(check_hand(hand), rule, marker)[1])


def house_keeps(hands: np.ndarray, rule: int = RULE_ORDINARY, marker: int = MARKER):
    """For an (n, 5) array of hands: ``(masks uint8, steps int8, strengths int32)``, each (n,)."""
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    n = hands.shape[0]
    masks = np.empty(n, np.uint8)
    steps = np.empty(n, np.int8)
    strengths = np.empty(n, np.int32)
    _house_many(hands, rule, marker, masks, steps, strengths)
    return masks, steps, strengths


def draw_counts(masks: np.ndarray) -> np.ndarray:
    """Draw counts (int8) of keep masks."""
    m = np.asarray(masks, dtype=np.uint8)
    return (5 - np.unpackbits(m[:, None], axis=1).sum(axis=1)).astype(np.int8)


def keep_for_draw(hand, d: int, rule: int = RULE_ORDINARY, marker: int = MARKER) -> int:
    """Keep mask when the holder of ``hand`` draws ``d`` (0..5) cards.

    The House keep set, padded with the highest other cards, or trimmed of its lowest
    kept cards, until ``5 - d`` remain.  "Highest" is by rank, then by the suit order
    ♠ > ♥ > ♦ > ♣ (the card integer); the marker Ⅰ (when the rule reads it) ranks above
    every card, so it is the last card given up.

    >>> from poker51.cards import parse_cards
    >>> keep_for_draw(parse_cards("Ks Kd 7h 4c 2d"), 2)   # pad the kings with the 7
    7
    >>> keep_for_draw(parse_cards("7s 7d 9h 9c Ad"), 3)   # trim two pair to the nines
    12
    """
    if not 0 <= int(d) <= 5:
        raise ValueError(f"a draw count is 0..5, got {d}")
    h = check_hand(hand)
    m, _, _ = house_kernel(h, rule, marker)
    mk = marker if rule != RULE_ORDINARY else -1
    return int(_keep_for_draw(h, m, int(d), mk))


def keep_table(
    hands: np.ndarray, house_masks: np.ndarray, rule: int = RULE_ORDINARY, marker: int = MARKER
) -> np.ndarray:
    """(n, 6) uint8: the keep mask of every hand for every draw count 0..5."""
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    out = np.empty((hands.shape[0], 6), np.uint8)
    _keep_table(hands, np.ascontiguousarray(house_masks, dtype=np.int64), marker if rule != RULE_ORDINARY else -1, out)
    return out


# --------------------------------------------------------------------------- plain twins
def _steps_plain(cards: list[tuple[int, int | None]], category: int) -> tuple[set[int], int]:
    """The seven steps on read cards ``(rank, suit or None)``; returns kept indices and step."""
    if category >= STRAIGHT:
        return set(range(5)), STEP_MADE
    counts = Counter(r for r, _ in cards)
    if category in (THREE_OF_A_KIND, TWO_PAIR, ONE_PAIR):
        step = {THREE_OF_A_KIND: STEP_TRIPS, TWO_PAIR: STEP_TWO_PAIR, ONE_PAIR: STEP_PAIR}[category]
        return {i for i, (r, _) in enumerate(cards) if counts[r] >= 2}, step
    suits = Counter(s for _, s in cards if s is not None)
    for s, n in suits.items():
        if n == 4:
            return {i for i, (_, t) in enumerate(cards) if t == s}, STEP_FOUR_FLUSH
    for lo in range(9):
        run = set(range(lo, lo + 4))
        if run <= set(counts):
            return {i for i, (r, _) in enumerate(cards) if r in run}, STEP_FOUR_STRAIGHT
    top = max(range(5), key=lambda i: (cards[i][0], -1 if cards[i][1] is None else cards[i][1]))
    return {top}, STEP_HIGH_CARD


def house_keep_plain(hand, rule: int = RULE_ORDINARY, marker: int = MARKER) -> tuple[int, int]:
    """Plain twin of :func:`house_keep`: tries every reading of the marker the rule allows,
    keeps the strongest, applies the seven steps to each strongest reading (the marker
    without a suit) and requires them to agree."""
    hand = [int(c) for c in hand]
    if rule == RULE_ORDINARY or marker not in hand:
        cards = [(c >> 2, c & 3) for c in hand]
        cat = eval_ranks_plain([r for r, _ in cards], len({s for _, s in cards}) == 1) >> 20
        kept, _ = _steps_plain(cards, cat)
        m = sum(1 << i for i in kept)
        return m, 5 - len(kept)
    k = hand.index(marker)
    nat = [c for c in hand if c != marker]
    free = [c for c in range(52) if c not in nat]
    readings: list[tuple[int, int]] = []  # (strength, rank of the marker)

    def value(rank: int, suit: int | None) -> int:
        flush = suit is not None and len({c & 3 for c in nat} | {suit}) == 1
        return eval_ranks_plain([c >> 2 for c in nat] + [rank], flush)

    if rule == RULE_WILD:
        readings += [(value(r, None), r) for r in range(13)]
        readings += [(value(c >> 2, c & 3), c >> 2) for c in free]
    elif rule == RULE_BUG:
        readings.append((value(12, None), 12))
        for c in free:
            v = value(c >> 2, c & 3)
            if c >> 2 == 12 or (v >> 20) in (STRAIGHT, FLUSH, STRAIGHT_FLUSH):
                readings.append((v, c >> 2))
    else:
        raise ValueError(f"the House rule reads the marker only under wild or bug, not rule {rule}")
    best = max(v for v, _ in readings)
    masks = set()
    for v, r in readings:
        if v != best:
            continue
        cards = [(c >> 2, c & 3) for c in nat] + [(r, None)]
        kept, _ = _steps_plain(cards, best >> 20)
        pos = [i for i in range(5) if i != k] + [k]  # read-card index -> hand position
        masks.add(sum(1 << pos[i] for i in kept) | (1 << k))
    if len(masks) != 1:
        raise AssertionError(f"hand {hand}: strongest readings disagree on the keep set {masks}")
    m = masks.pop()
    return m, 5 - bin(m).count("1")


def keep_for_draw_plain(hand, d: int, rule: int = RULE_ORDINARY, marker: int = MARKER) -> int:
    """Plain twin of :func:`keep_for_draw`, by sorting."""
    hand = [int(c) for c in hand]
    m, _ = house_keep_plain(hand, rule, marker)

    def key(i: int) -> tuple[int, int]:
        inset = (m >> i) & 1
        return (inset, 99 if (rule != RULE_ORDINARY and hand[i] == marker) else hand[i])

    order = sorted(range(5), key=key, reverse=True)
    return sum(1 << i for i in order[: 5 - d])


__all__ = [
    "STEP_NAMES",
    "house_keep",
    "house_keep_plain",
    "house_keeps",
    "house_step",
    "draw_counts",
    "keep_for_draw",
    "keep_for_draw_plain",
    "keep_table",
]
