"""The game server's plain-Python evaluator and House rule (``hands.pure``) equal the Numba kernels:
a seeded sample of 60,000 dealt hands plus 20,000 marker hands per variant in ``make test``,
every dealt hand of ``standard``, ``wild`` and ``bug`` in ``make slow``."""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np
import pytest
from helpers import hand_sample

from poker51.abstraction.classes import hand_table
from poker51.cards import parse_cards
from poker51.hands import evaluate
from poker51.hands.evaluate import CATEGORIES as KERNEL_CATEGORIES
from poker51.hands.evaluate import strength_kernel, strengths
from poker51.hands.house import house_keeps
from poker51.hands.pure import CATEGORIES, card_strength, pure_house, pure_strength, rank_strength
from poker51.rules import RULE_CLUB_ANY, RULE_SUIT_TWO, VARIANT_RULES


def test_every_rank_multiset_equals_the_rank_kernel():
    """All 6,188 multisets of five ranks, with and without a flush, against the kernel."""
    n = 0
    for ranks in combinations_with_replacement(range(13), 5):
        for order in (list(ranks), list(reversed(ranks))):
            for flush in (False, True):
                assert rank_strength(order, flush) == evaluate._eval_ranks(np.array(order, np.int64), flush)
                n += 1
    assert n == 4 * 6188 and CATEGORIES == KERNEL_CATEGORIES


def _compare(variant: str, rows: np.ndarray) -> int:
    ht = hand_table(variant)
    rule = VARIANT_RULES[variant]
    hands = ht.hands[rows]
    masks, steps, kernel = house_keeps(hands, rule)
    assert np.array_equal(kernel, strengths(hands, rule))
    bad = []
    for hand, m, st, s in zip(hands.tolist(), masks.tolist(), steps.tolist(), kernel.tolist()):
        if pure_house(hand, rule) != (m, st, s) or pure_strength(hand, rule) != s:
            bad.append(hand)
    assert not bad, f"{len(bad)} {variant} hands differ, e.g. {bad[:3]}"
    return len(rows)


@pytest.mark.parametrize("variant", ["standard", "wild", "bug"])
def test_pure_equals_the_kernels_on_a_seeded_sample(variant):
    rows = hand_sample(60_000, 20_000, 51, variant)
    n = _compare(variant, rows)
    assert n >= 60_000 + (19_000 if variant != "standard" else 0)  # the two samples overlap a little
    assert hand_table(variant).marker[rows].sum() >= (20_000 if variant != "standard" else 0)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["standard", "wild", "bug"])
def test_pure_equals_the_kernels_on_every_dealt_hand(variant):
    assert _compare(variant, hand_sample(None, 0, 0, variant)) == {"standard": 2_349_060}.get(variant, 2_598_960)


@pytest.mark.parametrize("rule", [RULE_SUIT_TWO, RULE_CLUB_ANY])
def test_census_rules_equal_the_kernel_with_any_marker(rule):
    """The census-only rules, with the marker anywhere in the deck (seeded hands holding it)."""
    rng = np.random.default_rng(rule)
    for _ in range(3000):
        hand = rng.choice(52, 5, replace=False)
        marker = int(hand[rng.integers(5)])
        assert pure_strength(hand.tolist(), rule, marker) == strength_kernel(hand.astype(np.int64), rule, marker)


def test_pinned_examples():
    assert hex(card_strength(parse_cards("Ah Kh Qh Jh Th"))) == "0x8c0000"
    assert CATEGORIES[pure_strength(parse_cards("2c Kd Kh Ks Kc"), VARIANT_RULES["wild"]) >> 20] == "five_of_a_kind"
    # the bug: I + 3-4-5-6 is a straight to the 7 (not a pair of aces); I + 7-7 reads as an ace kicker
    assert hex(pure_strength(parse_cards("2c 3d 4h 5s 6c"), VARIANT_RULES["bug"])) == "0x450000"
    assert pure_house(parse_cards("2c 7d 7s 9h Qc"), VARIANT_RULES["bug"])[:2] == (0b00111, 4)  # step 4: a pair
