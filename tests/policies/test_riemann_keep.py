"""Riemann's keep is a pure function (``riemann_keep``) and Riemann's public state refuses what
no spot can hold, naming the field and its range."""

from __future__ import annotations

import random

import numpy as np
import pytest

from poker51.cards import MARKER, parse_cards
from poker51.errors import InputError
from poker51.hands.house import house_kernel
from poker51.play.actions import View
from poker51.policies.riemann import PublicState, Riemann, riemann_keep
from poker51.rules import VARIANT_RULES


@pytest.mark.parametrize(
    ("variant", "hand", "mask"),
    [
        ("standard", "As Kd 7h 7c 3d", 0b01100),  # a pair: keep the sevens
        ("standard", "9s Ts Js Qs 2d", 0b01111),  # four to a flush (and a straight): flush first
        ("standard", "4d 5c 6h 7s Kd", 0b01111),  # four to a straight
        ("standard", "2d 5c 9h Js Kd", 0b10000),  # high card: the king
        ("standard", "8h 8d 8c Ks Kd", 0b11111),  # a full house stands pat
        ("wild", "2c 9h 9d 4s Jc", 0b00111),  # the marker and two nines read as trips
        ("bug", "2c 9h 3d 4s Jc", 0b00001),  # the bug as an ace: keep it alone
    ],
)
def test_the_house_rule_on_known_hands(variant, hand, mask):
    assert riemann_keep(variant, parse_cards(hand)) == mask


@pytest.mark.parametrize("variant", ["standard", "wild", "bug"])
def test_riemann_keep_equals_the_house_kernel_on_a_seeded_sample(variant):
    rng = random.Random(25)
    deck = [c for c in range(52) if variant != "standard" or c != MARKER]
    with_marker = 0
    for n in range(3000):
        hand = rng.sample(deck, 5)
        if variant != "standard" and n % 3 == 0 and MARKER not in hand:
            hand[rng.randrange(5)] = MARKER
        with_marker += MARKER in hand
        want = int(house_kernel(np.array(hand, np.int64), VARIANT_RULES[variant], MARKER)[0])
        assert riemann_keep(variant, hand) == want, hand
    assert (with_marker > 900) == (variant != "standard")


def test_riemann_keep_refuses_what_is_not_a_hand():
    with pytest.raises(InputError, match=r"five distinct cards of the standard deck, got \['As', 'As'"):
        riemann_keep("standard", [51, 51, 0, 1, 2])
    with pytest.raises(InputError, match="of the standard deck"):
        riemann_keep("standard", [MARKER, 5, 9, 13, 17])  # the marker is not dealt in standard
    with pytest.raises(InputError, match=r"got \[.*60\]"):
        riemann_keep("wild", [1, 2, 3, 4, 60])
    with pytest.raises(InputError, match="unknown variant 'joker'"):
        riemann_keep("joker", [1, 2, 3, 4, 5])


def test_choose_keep_is_riemann_keep_of_the_view():
    view = View("R", "wild", "draw", tuple(parse_cards("2c 9h 9d 4s Jc")), None, None, 3, 5, 5, 1, 1, 0, 0, 2, 0,
                None, ())  # fmt: skip
    player = Riemann.__new__(Riemann)  # choose_keep reads only the variant: no table needed
    player.variant = "wild"
    assert player.choose_keep(view) == riemann_keep("wild", view.cards) == 0b00111


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"street": 0, "h_draw": 9}, "h_draw is H's draw count 0..5, got 9"),
        ({"street": 0, "h_draw": -1}, "h_draw is H's draw count 0..5, got -1"),
        ({"street": 2, "h_draw": 1}, "street is 0 .* or 1 .*, got 2"),
        ({"street": 0, "h_draw": 1, "r_draw": 3}, "r_draw is -1 before the draw, got 3"),
        ({"street": 1, "h_draw": 1, "r_draw": -1}, "r_draw is Riemann's draw count 0..5 after the draw, got -1"),
        ({"street": 1, "h_draw": 1, "r_draw": 6}, "got 6"),
        ({"street": 0, "h_draw": 1, "post_line": "x"}, "post_line is empty before the draw"),
        ({"street": 0, "h_draw": True}, "h_draw .* got True"),
        ({"street": 0, "h_draw": 1, "can_raise": 1}, "can_raise is a bool"),
        ({"street": 0, "h_draw": 1, "pre_line": None}, "lines of table tokens"),
    ],
)
def test_public_state_refuses_values_outside_their_ranges(fields, message):
    with pytest.raises(InputError, match=message):
        PublicState(**fields)


def test_public_state_accepts_every_spot_range():
    assert PublicState(0, 5).lookup() == (0, 4, -1, "", "")
    assert PublicState(1, 0, 5, "x-x", "b2").lookup() == (1, 0, 5, "x-x", "b2")
    assert PublicState(np.int64(1), np.int64(3), np.int64(2), "b1-c", "").h_draw == 3
