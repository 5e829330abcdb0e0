"""The class key of a dealt hand in plain Python: the game server's path, without Numba.

The key is ``base*100 + holds_marker*10 + house_draw`` (:func:`poker51.rules.class_key`), with
``base`` the standard class 0..18 of the hand's House step and strength
(:data:`poker51.abstraction.classes.BASE_NAMES`); a variant's classes are its keys in ascending
order.  :func:`hand_class_key` equals the kernel
:func:`poker51.abstraction.classes.hand_class_key_kernel` on every hand (``tests/abstraction/
test_keys.py``), and :func:`base_class` equals
:func:`poker51.abstraction.classes.base_class_kernel`.

>>> from poker51.cards import parse_cards
>>> from poker51.rules import RULE_WILD
>>> hand_class_key(parse_cards("Ks Kd 7h 4c 2d"))          # a pair of kings, draw 3
1103
>>> hand_class_key(parse_cards("2c 9h 9d 4s Jc"), RULE_WILD)  # Ⅰ + a pair of nines: trips, draw 2
1412
"""

from __future__ import annotations

from collections.abc import Sequence

from poker51.hands.pure import (
    FLUSH,
    FULL_HOUSE,
    STEP_FOUR_FLUSH,
    STEP_FOUR_STRAIGHT,
    STEP_MADE,
    STEP_PAIR,
    STEP_TRIPS,
    STEP_TWO_PAIR,
    STRAIGHT,
    pure_house,
)
from poker51.rules import MARKER_CARD, RULE_ORDINARY, class_key

#: the class sets: ``standard`` (base codes 0..18, the published tables' classes) and ``refined``
#: (the abstraction-size study's one refined set, issue 26): each pair of 2s to 6s its own class
#: (codes 19..23 in place of 4) and no pair below ace high split by its top card, king, queen,
#: jack or lower (codes 24..26 in place of 0); every other class as in ``standard``
CLASS_SETS = ("standard", "refined")
#: the first base code of the refined set's own classes; :data:`REFINED_PARENT` maps each to the
#: standard code it splits
REFINED_FIRST = 19
REFINED_PARENT = {19: 4, 20: 4, 21: 4, 22: 4, 23: 4, 24: 0, 25: 0, 26: 0}

#: popcount of a five-bit keep mask
_KEPT = tuple(bin(m).count("1") for m in range(32))


def base_class(step: int, s: int) -> int:
    """Standard class (0..18) from the House step and the strength of the (read) hand."""
    cat = s >> 20
    if step == STEP_MADE:
        return 15 if cat == STRAIGHT else 16 if cat == FLUSH else 17 if cat == FULL_HOUSE else 18
    if step == STEP_TRIPS:
        return 14
    if step == STEP_TWO_PAIR:
        return 13
    if step == STEP_PAIR:
        top = (s >> 16) & 15
        return 4 if top <= 4 else top
    if step == STEP_FOUR_FLUSH:
        return 3
    if step == STEP_FOUR_STRAIGHT:
        return 2
    return 1 if (s >> 16) & 15 == 12 else 0


def refine_base(base: int, s: int) -> int:
    """The refined set's base code of a hand whose standard code is ``base`` and whose (read)
    strength is ``s`` (:data:`CLASS_SETS`).

    >>> refine_base(4, 2 << 20 | 3 << 16), refine_base(0, 11 << 16), refine_base(0, 9 << 16), refine_base(13, 0)
    (22, 24, 26, 13)
    """
    top = (s >> 16) & 15
    if base == 4:
        return REFINED_FIRST + top
    if base == 0:
        return 24 if top == 11 else 25 if top == 10 else 26
    return base


def refine_key(key: int, s: int) -> int:
    """The refined set's class key of a hand whose standard key is ``key`` and strength ``s``."""
    return refine_base(key // 100, s) * 100 + key % 100


def class_set_of(bases) -> str:
    """The class set (:data:`CLASS_SETS`) whose base codes ``bases`` (a class table's ``base``
    column, or any iterable of codes) are: ``refined`` when one is a refined set's own code."""
    return "refined" if any(int(b) >= REFINED_FIRST for b in bases) else "standard"


def hand_class_key(hand: Sequence[int], rule: int = RULE_ORDINARY, marker: int = MARKER_CARD) -> int:
    """The class key of a dealt hand (five card ints); the hand is not validated."""
    return hand_class_key_strength(hand, rule, marker)[0]


def hand_class_key_strength(
    hand: Sequence[int], rule: int = RULE_ORDINARY, marker: int = MARKER_CARD
) -> tuple[int, int]:
    """(class key, strength) of a hand from one House-rule evaluation: what Riemann caches."""
    mask, step, s = pure_house(hand, rule, marker)
    has = int(rule != RULE_ORDINARY and marker in hand)
    return int(class_key(base_class(step, s), has, 5 - _KEPT[mask])), s


__all__ = [
    "CLASS_SETS", "REFINED_FIRST", "REFINED_PARENT", "base_class", "class_set_of", "hand_class_key",
    "hand_class_key_strength", "refine_base", "refine_key",
]  # fmt: skip
