"""The bots' choices (``poker51.service.bots``): the load benchmark's steady player keeps what the
House rule keeps, never folds a free check, and folds, calls or raises by its cards' category."""

from __future__ import annotations

import random

import pytest

from poker51.service.bots import choose_headsup, house_keep_of, steady_weights

CHECK = [{"kind": "check", "amount": None}, {"kind": "raise", "amount": 1}]
FACING = [{"kind": "fold", "amount": None}, {"kind": "call", "amount": 1}, {"kind": "raise", "amount": 2}]


def view(cards: str, legal: list[dict], phase: str = "pre", needs_keep: bool = True) -> dict:
    v = {"seat": "H", "to_act": "H", "phase": phase, "cards": cards.split(), "legal": legal, "needs_keep": needs_keep}
    return {"can_deal": False, "hand": {"can_draw": False, "view": v}}


@pytest.mark.parametrize(
    "cards,mask",
    [
        ("As Ad Kc 7s 3d", 0b00011),  # the pair
        ("9h 9d 4s 4c Jc", 0b01111),  # two pair, the kicker drawn
        ("2h 7h 9h Kh 5s", 0b01111),  # four to a flush
        ("Ts 9s 8d 7h 6c", 0b11111),  # a made straight
    ],
)
def test_the_steady_keep_is_the_house_rule(cards, mask):
    assert house_keep_of(cards.split()) == mask
    cmd = choose_headsup(view(cards, CHECK), random.Random(1), style="steady")
    assert cmd is not None and cmd["keep"] == mask


@pytest.mark.parametrize(
    "cards,phase,legal,allowed",
    [
        ("As Kd 9c 7s 3d", "pre", CHECK, {"check"}),  # high card: checks, never bets, never folds free
        ("As Ad 9c 7s 3d", "pre", CHECK, {"check"}),  # one pair: checks
        ("As Ad 9c 9s 3d", "pre", CHECK, {"check", "raise"}),  # two pair: may bet
        ("As Kd 9c 7s 3d", "pre", FACING, {"fold"}),  # high card facing a bet
        ("As Ad 9c 7s 3d", "pre", FACING, {"call"}),  # a pair calls before the draw
        ("As Ad 9c 7s 3d", "post", FACING, {"fold"}),  # but not after it
        ("As Ad Ac 7s 3d", "post", FACING, {"call", "raise"}),  # trips call or raise
    ],
)
def test_the_steady_player_acts_by_its_category(cards, phase, legal, allowed):
    w = steady_weights(legal, cards.split(), phase == "post")
    assert {a["kind"] for a, x in zip(legal, w, strict=True) if x > 0} == allowed
    rng = random.Random(7)
    seen = {choose_headsup(view(cards, legal, phase), rng, style="steady")["kind"] for _ in range(60)}
    assert seen == allowed


def test_a_bad_style_is_refused():
    with pytest.raises(ValueError, match="style is one of"):
        choose_headsup(view("As Ad Kc 7s 3d", CHECK), random.Random(1), style="wild")


def test_the_random_player_folds_a_free_check_sometimes():
    rng = random.Random(3)
    legal = [{"kind": "fold", "amount": None}, *CHECK]
    kinds = {choose_headsup(view("As Ad Kc 7s 3d", legal), rng)["kind"] for _ in range(60)}
    assert kinds == {"fold", "check", "raise"}
