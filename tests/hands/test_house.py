"""The House draw rule: rule-card examples, kernel = plain twin on every hand, pinned counts."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from poker51.abstraction.transitions import deck_hands
from poker51.cards import MARKER, cards_str, parse_cards
from poker51.hands.evaluate import RULE_BUG, RULE_ORDINARY, RULE_WILD
from poker51.hands.house import (
    draw_counts,
    house_keep,
    house_keep_plain,
    house_keeps,
    house_step,
    keep_for_draw,
    keep_for_draw_plain,
    keep_table,
)

DECKS = {"standard": (range(1, 52), RULE_ORDINARY), "wild": (range(52), RULE_WILD), "bug": (range(52), RULE_BUG)}

#: House draw counts 0..4 over every dealt hand (computed once by the kernel, checked by the twin)
DRAW_TABLE = {
    "standard": [18291, 238017, 49632, 992640, 1050480],
    "wild": [35730, 238017, 125664, 1149069, 1050480],
    "bug": [33794, 251833, 113784, 1042788, 1156761],
}
#: the same over the 249,900 hands holding the marker
MARKER_DRAW_TABLE = {
    "wild": [17439, 0, 76032, 156429, 0],
    "bug": [15503, 13816, 64152, 50148, 106281],
}


@lru_cache(maxsize=3)
def every_hand(variant: str):
    """(hands, masks, steps) of every dealt hand of a variant, computed once per session."""
    deck, rule = DECKS[variant]
    hands = deck_hands(deck)
    masks, steps, _ = house_keeps(hands, rule)
    return hands, masks, steps


def kept(text: str, rule: int = RULE_ORDINARY) -> tuple[str, int, int]:
    hand = parse_cards(text)
    mask, d = house_keep(hand, rule)
    return cards_str(sorted(c for i, c in enumerate(hand) if (mask >> i) & 1)), d, house_step(hand, rule)


# --------------------------------------------------------------------------- rule card
@pytest.mark.parametrize(
    "hand, keep, draw, step",
    [
        ("9s Ts Js Qs Ks", "9s Ts Js Qs Ks", 0, 1),  # straight flush
        ("Ad 2h 3s 4c 5d", "2h 3s 4c 5d Ad", 0, 1),  # the wheel is a straight
        ("3h 5h 8h Jh Kh", "3h 5h 8h Jh Kh", 0, 1),  # flush
        ("8c 8d 8h Kc Kd", "8c 8d 8h Kc Kd", 0, 1),  # full house
        ("8c 8d 8h Kc 3d", "8c 8d 8h", 2, 2),  # 2. three of a kind keeps the three
        ("4c 4d 9h 9s Ad", "4c 4d 9h 9s", 1, 3),  # 3. two pair keeps both pairs
        ("Ks Kd 7h 4c 2d", "Kd Ks", 3, 4),  # 4. one pair keeps the pair
        ("7h 7d 2h 5h 9h", "7d 7h", 3, 4),  # a pair beats four to a flush
        ("6d 7h 8s 9c 9d", "9c 9d", 3, 4),  # a pair beats four to a straight
        ("3h 5h 8h Jh Ks", "3h 5h 8h Jh", 1, 5),  # 5. four to a flush
        ("5h 6h 7h 8h 9s", "5h 6h 7h 8h 9s", 0, 1),  # ...unless it is a straight
        ("2d 3h 4s 5c 9d", "2d 3h 4s 5c", 1, 6),  # 6. lowest open-ended: 2-3-4-5
        ("Td Jh Qs Kc 3d", "Td Jh Qs Kc", 1, 6),  # highest open-ended: T-J-Q-K
        ("Jd Qh Ks Ac 3d", "Ac", 4, 7),  # J-Q-K-A is not open-ended
        ("Ad 2h 3s 4c 9d", "Ad", 4, 7),  # A-2-3-4 is not open-ended
        ("5d 6h 8s 9c Kd", "Kd", 4, 7),  # a gutshot is not a draw
        ("3d 5h 8s Jc Qs", "Qs", 4, 7),  # 7. the single highest card
    ],
)
def test_rule_card_steps(hand, keep, draw, step):
    assert kept(hand) == (keep, draw, step)


@pytest.mark.parametrize(
    "hand, rule, keep, draw, step",
    [
        # Wild: the marker is always kept; the rule reads the hand at its best
        ("2c 9h 9d 4s Jc", RULE_WILD, "2c 9d 9h", 2, 2),  # I + pair = trips: the pair and I
        ("2c 2d 6s 9h Qc", RULE_WILD, "2c Qc", 3, 4),  # I pairs the top card: Q and I
        ("2c 3h 6h 9h Qh", RULE_WILD, "2c 3h 6h 9h Qh", 0, 1),  # I + four to a flush = flush
        ("2c 5d 6h 7s 8c", RULE_WILD, "2c 5d 6h 7s 8c", 0, 1),  # I + four to a straight
        ("2c 5d 6h 8s 9c", RULE_WILD, "2c 5d 6h 8s 9c", 0, 1),  # I fills the gutshot
        ("2c 9h 9d 4s 4c", RULE_WILD, "2c 4c 4s 9d 9h", 0, 1),  # I + two pair = full house
        ("2c 2d 3h 4s 7c", RULE_WILD, "2c 7c", 3, 4),  # no straight: pair of sevens
        # the bug: I is an ace unless it completes a straight or flush
        ("2c 2d 6s 9h Qc", RULE_BUG, "2c", 4, 7),  # rule card: a pair of twos becomes ace high
        ("2c 3h 6h 9h Qc", RULE_BUG, "2c", 4, 7),  # I has no suit in an ace-high reading
        ("2c 7d 7s 9h Qc", RULE_BUG, "2c 7d 7s", 2, 4),  # pair of 7s, I the ace kicker
        ("2c Ad 6s 9h Qc", RULE_BUG, "2c Ad", 3, 4),  # pair of aces
        ("2c 7d 7s Ah Qc", RULE_BUG, "2c 7d 7s Ah", 1, 3),  # aces up
        ("2c 7d 7s 9h 9c", RULE_BUG, "2c 7d 7s 9c 9h", 0, 3),  # two pair, I the ace kicker
        ("2c 7d 7s 7h Qc", RULE_BUG, "2c 7d 7h 7s", 1, 2),  # trips, I the ace kicker
        ("2c Ad As 7h Qc", RULE_BUG, "2c Ad As", 2, 2),  # trip aces
        ("2c Ad 3s 4h 5c", RULE_BUG, "2c 3s 4h 5c Ad", 0, 1),  # I completes the wheel
        ("2c 3h 6h 9h Qh", RULE_BUG, "2c 3h 6h 9h Qh", 0, 1),  # I completes the flush
    ],
)
def test_marker_hands(hand, rule, keep, draw, step):
    assert kept(hand, rule) == (keep, draw, step)
    assert house_keep_plain(parse_cards(hand), rule) == house_keep(parse_cards(hand), rule)


def test_marker_is_an_ordinary_card_in_the_standard_reading():
    assert kept("2c 2d 6s 9h Qc") == ("2c 2d", 3, 4)


# --------------------------------------------------------------------------- every hand
def canonical_keys(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Representatives and inverse of the hands up to relabelling the suits of the
    natural cards (the marker, card 0, stays itself).

    The House keep mask is invariant under that relabelling: steps 1-6 depend on ranks and
    on which cards share a suit, step 7 is reached only with five distinct ranks (no suit
    tie), and a marker reading may be any card the rule allows, whatever the naturals'
    suits.  So the plain twin is evaluated once per class and compared on every hand.
    """
    ranks = hands >> 2
    suits = hands & 3
    is_marker = hands == MARKER
    norm = np.full(hands.shape, -1, np.int64)
    nxt = np.zeros(hands.shape[0], np.int64)
    for i in range(5):
        label = np.full(hands.shape[0], -1, np.int64)
        for j in range(i):
            same = (suits[:, j] == suits[:, i]) & ~is_marker[:, j] & (label < 0)
            label[same] = norm[same, j]
        new = label < 0
        label[new] = nxt[new]
        nxt[new] += 1
        norm[:, i] = np.where(is_marker[:, i], 9, label)
    key = np.zeros(hands.shape[0], np.int64)
    for col in np.concatenate([ranks, norm], axis=1).T:
        key = key * 16 + col
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


def _twin_every_hand(variant: str) -> None:
    rule = DECKS[variant][1]
    hands, masks, _ = every_hand(variant)
    first, inverse = canonical_keys(hands)
    plain = np.array([house_keep_plain(hands[i], rule)[0] for i in first], dtype=np.uint8)
    assert np.array_equal(masks, plain[inverse])
    assert np.bincount(draw_counts(masks), minlength=5).tolist() == DRAW_TABLE[variant]


def test_twins_agree_on_every_standard_hand():
    _twin_every_hand("standard")


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["wild", "bug"])
def test_twins_agree_on_every_variant_hand(variant):
    _twin_every_hand(variant)


@pytest.mark.parametrize("variant", ["wild", "bug"])
def test_twins_agree_on_a_seeded_sample_of_marker_hands(variant):
    rule = DECKS[variant][1]
    hands = every_hand(variant)[0]
    hands = hands[(hands == MARKER).any(axis=1)]
    rng = np.random.default_rng(np.random.SeedSequence(5101))
    sample = hands[rng.choice(hands.shape[0], 1500, replace=False)]
    masks, _, _ = house_keeps(sample, rule)
    assert [int(m) for m in masks] == [house_keep_plain(h, rule)[0] for h in sample]


@pytest.mark.parametrize("variant", ["standard", "wild", "bug"])
def test_draw_count_table_and_one_keep_set_per_hand(variant):
    hands, masks, steps = every_hand(variant)
    d = draw_counts(masks)
    assert np.bincount(d, minlength=5).tolist() == DRAW_TABLE[variant]
    assert d.max() <= 4 and masks.min() >= 1 and masks.max() <= 31
    # every step keeps its own number of cards
    sizes = {1: {5}, 2: {3, 4}, 3: {4, 5}, 4: {2, 3}, 5: {4}, 6: {4}, 7: {1}}
    for step, allowed in sizes.items():
        assert set(np.unique(5 - d[steps == step]).tolist()) <= allowed
    has = (hands == MARKER).any(axis=1)
    if variant == "standard":
        assert not has.any()
        assert set(np.unique(5 - d[steps == 2]).tolist()) == {3}
        return
    pos = np.argmax(hands == MARKER, axis=1)
    assert np.all((masks[has] >> pos[has]) & 1), "the marker is always kept"
    assert np.bincount(d[has], minlength=5).tolist() == MARKER_DRAW_TABLE[variant]
    assert has.sum() == 249_900


def test_wild_trips_count_matches_the_rule_card():
    """Rule card: Wild I has 125,664 three of a kind, 76,032 of them from one natural pair."""
    hands, masks, steps = every_hand("wild")
    has = (hands == MARKER).any(axis=1)
    assert (steps == 2).sum() == 125_664 and ((steps == 2) & has).sum() == 76_032


# --------------------------------------------------------------------------- human keep sets
@pytest.mark.parametrize(
    "hand, rule, d, keep",
    [
        ("Ks Kd 7h 4c 2d", RULE_ORDINARY, 2, "7h Kd Ks"),  # pad with the highest other card
        ("Ks Kd 7h 4c 2d", RULE_ORDINARY, 4, "Ks"),  # trim: the spade outranks the diamond
        ("7s 7d 9h 9c Ad", RULE_ORDINARY, 3, "9c 9h"),
        ("7s 7d 9h 9c Ad", RULE_ORDINARY, 2, "7s 9c 9h"),
        ("3d 5h 8s Jc Qs", RULE_ORDINARY, 2, "8s Jc Qs"),
        ("3d 5h 8s Jc Qs", RULE_ORDINARY, 5, ""),
        ("2c 7d 7s 9h Qc", RULE_BUG, 4, "2c"),  # the marker is the last card given up
        ("2c 7d 7s 9h Qc", RULE_BUG, 1, "2c 7d 7s Qc"),
        ("2c Ad As 7h Qc", RULE_BUG, 4, "2c"),
    ],
)
def test_keep_for_draw(hand, rule, d, keep):
    cards = parse_cards(hand)
    m = keep_for_draw(cards, d, rule)
    assert cards_str(sorted(c for i, c in enumerate(cards) if (m >> i) & 1)) == keep
    assert keep_for_draw_plain(cards, d, rule) == m


@pytest.mark.parametrize("variant", ["standard", "wild", "bug"])
def test_keep_table_twin_nested_and_house(variant):
    rule = DECKS[variant][1]
    hands = every_hand(variant)[0]
    rng = np.random.default_rng(np.random.SeedSequence(5102))
    pick = rng.choice(hands.shape[0], 2000, replace=False)
    if variant != "standard":
        marker_rows = np.flatnonzero((hands == MARKER).any(axis=1))
        pick = np.concatenate([pick, rng.choice(marker_rows, 500, replace=False)])
    sample = hands[pick]
    masks, _, _ = house_keeps(sample, rule)
    table = keep_table(sample, masks, rule)
    plain = np.array([[keep_for_draw_plain(h, d, rule) for d in range(6)] for h in sample])
    assert np.array_equal(table, plain)
    # d = House count reproduces the House keep set; keep sets shrink as d grows
    d_house = draw_counts(masks)
    assert np.array_equal(table[np.arange(len(sample)), d_house], masks)
    for d in range(5):
        assert np.all((table[:, d + 1] & ~table[:, d]) == 0)
        assert np.all(draw_counts(table[:, d]) == d)
