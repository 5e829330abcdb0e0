"""Card encoding, parsing and hand enumeration (poker51.cards)."""

from itertools import combinations
from math import comb

import numpy as np
import pytest

from poker51.cards import (
    MARKER,
    RANK_CHARS,
    SUIT_CHARS,
    Card,
    Rank,
    Suit,
    all_hands,
    card_index,
    card_str,
    cards_str,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from poker51.errors import InputError


def test_encoding_is_four_rank_plus_suit():
    for rank in range(13):
        for suit in range(4):
            c = card_index(rank, suit)
            assert c == 4 * rank + suit
            assert (rank_of(c), suit_of(c)) == (rank, suit)
            assert parse_card(RANK_CHARS[rank] + SUIT_CHARS[suit]) == c
    assert MARKER == parse_card("2c") == 0
    assert parse_card("As") == 51 and card_str(51) == "As"


def test_suit_order_is_the_rule_cards_tiebreak():
    # spade > heart > diamond > club, used only by the House rule's tie-break
    assert Suit.SPADE > Suit.HEART > Suit.DIAMOND > Suit.CLUB
    assert [parse_card(f"K{s}") for s in "cdhs"] == sorted(parse_card(f"K{s}") for s in "cdhs")
    assert Rank.ACE == 12 and Rank.TWO == 0


@pytest.mark.parametrize("text, card", [("10h", 34), ("Th", 34), ("t♥", 34), ("q♣", 40), (" 9d ", 29)])
def test_parse_variants(text, card):
    assert parse_card(text) == card


@pytest.mark.parametrize("bad", ["1x", "", "A", "Ax", "11h", "2cc", "Z♠"])
def test_parse_rejects_unknown_cards(bad):
    with pytest.raises(InputError, match="unknown card"):
        parse_card(bad)


def test_parse_cards_and_round_trip():
    cards = parse_cards("5h,Ks  2c")
    assert cards == [14, 47, 0]
    assert cards_str(cards) == "5h Ks 2c"
    assert all(parse_card(card_str(c)) == c for c in range(52))
    with pytest.raises(InputError, match="twice"):
        parse_cards("5h,Ks,5h")


def test_card_class_bounds():
    assert str(Card.parse("Qd")) == "Qd" and Card(0) < Card(51)
    with pytest.raises(InputError):
        Card(52)
    with pytest.raises(InputError):
        card_str(-1)


def test_all_hands_is_lexicographic_and_complete():
    cards = [0, 5, 9, 14, 22, 30, 51]
    hands = all_hands(cards)
    assert hands.shape == (comb(7, 5), 5)
    assert [tuple(h) for h in hands.tolist()] == list(combinations(cards, 5))
    assert all_hands(range(52)).shape == (2_598_960, 5)
    assert np.all(np.diff(all_hands(range(10)), axis=1) > 0)
