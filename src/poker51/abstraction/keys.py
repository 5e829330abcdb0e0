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


__all__ = ["base_class", "hand_class_key", "hand_class_key_strength"]
