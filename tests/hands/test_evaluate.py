"""Hand strength (poker51.hands.evaluate): textbook counts, the twins on every hand, a pinned digest.

The plain twin is slow (Counter-based, ~10 us an ordinary hand, ~0.4 ms a wild marker
hand), so "every hand" is covered through exact groupings of the plain twin's inputs:

* an ordinary hand's plain strength is ``eval_ranks_plain(ranks, flush)``: it depends
  on the rank multiset and the flush bit only, so it is evaluated once per such key;
* under wild and bug, ``strength_plain`` reads a marker hand through the ranks of its
  four naturals and whether they share a suit (rank readings use the ranks; a free
  card makes a flush exactly when the naturals are suited and it is of their suit), so
  it is evaluated once per (rank multiset, suited) key;
* under club_any it reads the naturals' ranks, which club ranks they hold (the free
  club readings) and whether they are all clubs (the flush);
* suit_two is symmetric under all 24 relabellings of suits (the free twos map to the
  free twos), so its plain strength is evaluated once per orbit.

Either way the plain value is compared with the Numba kernel on every marker hand.

A seeded sample of 20,000 hands per rule is also compared directly, with no grouping.
"""

import hashlib
from itertools import permutations

import numpy as np
import pytest
from helpers import TEXTBOOK_52 as TEXTBOOK_52_NO_WILD

from poker51.cards import MARKER, all_hands, parse_cards
from poker51.hands.evaluate import (
    CATEGORIES,
    RULE_BUG,
    RULE_CLUB_ANY,
    RULE_ORDINARY,
    RULE_SUIT_TWO,
    RULE_WILD,
    category_of,
    eval_ranks_plain,
    strength,
    strength_plain,
    strengths,
)

TEXTBOOK_52 = {**TEXTBOOK_52_NO_WILD, "five_of_a_kind": 0}
#: SHA-256 of strengths() over every hand of `standard` (lexicographic, int32 little-endian)
STANDARD_DIGEST = "14fb02c7ae8c43b0685cfdc53888016e6057083b391308163613093f220f571f"

ALL_PERMS = [np.array(p) for p in permutations(range(4))]


@pytest.fixture(scope="module")
def hands52():
    return all_hands(range(52)).astype(np.int64)


@pytest.fixture(scope="module")
def strengths52(hands52):
    return strengths(hands52)


def _bincount_by_name(cats):
    counts = np.bincount(cats, minlength=10)
    return {CATEGORIES[c]: int(counts[c]) for c in range(10)}


def test_textbook_counts_and_distinct_strengths(strengths52):
    assert len(strengths52) == 2_598_960
    assert _bincount_by_name(category_of(strengths52)) == TEXTBOOK_52
    assert len(np.unique(strengths52)) == 7_462


def _plain_by_rank_pattern(hands):
    """strength_plain on every ordinary hand, evaluated once per (rank multiset, flush)."""
    ranks = np.sort(hands >> 2, axis=1)
    flush = np.all((hands & 3) == (hands[:, :1] & 3), axis=1)
    key = (ranks @ (13 ** np.arange(5))) * 2 + flush
    uniq, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    plain = np.array([eval_ranks_plain(list(ranks[i]), bool(flush[i])) for i in first], np.int64)
    # the grouping is exact: strength_plain of an ordinary hand *is* eval_ranks_plain(ranks, flush)
    for i in first[:: max(1, len(first) // 50)]:
        assert strength_plain(hands[i]) == plain[np.searchsorted(uniq, key[i])]
    return plain[inverse]


def test_plain_twin_on_every_hand_of_full52_and_standard(hands52, strengths52):
    plain = _plain_by_rank_pattern(hands52)
    assert np.array_equal(plain, strengths52)
    standard = ~np.any(hands52 == MARKER, axis=1)
    assert standard.sum() == 2_349_060
    assert np.array_equal(strengths(hands52[standard]), plain[standard])


def _groups(naturals, perms):
    """One representative per group of marker hands, and each hand's group.

    ``perms="suited"``: key (rank multiset, suited); ``"clubs"``: (rank multiset, club
    ranks held, all clubs); else the orbit under the suit relabellings ``perms``.
    """
    ranks = np.sort(naturals >> 2, axis=1) @ (13 ** np.arange(4))
    if isinstance(perms, str) and perms == "suited":
        key = ranks * 2 + np.all((naturals & 3) == (naturals[:, :1] & 3), axis=1)
    elif isinstance(perms, str) and perms == "clubs":
        club_ranks = np.where((naturals & 3) == 0, 1 << (naturals >> 2), 0).sum(axis=1)
        key = (ranks * 8192 + club_ranks) * 2 + np.all((naturals & 3) == 0, axis=1)
    else:
        key = None
        for p in perms:
            m = np.sort((naturals & ~3) | p[naturals & 3], axis=1)
            k = ((m[:, 0] * 52 + m[:, 1]) * 52 + m[:, 2]) * 52 + m[:, 3]
            key = k if key is None else np.minimum(key, k)
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    return first, inverse


RULE_CASES = [
    ("wild", RULE_WILD, "suited"),
    ("bug", RULE_BUG, "suited"),
    ("suit_two", RULE_SUIT_TWO, ALL_PERMS),
    ("club_any", RULE_CLUB_ANY, "clubs"),
]


@pytest.mark.parametrize("name, rule, perms", RULE_CASES, ids=[c[0] for c in RULE_CASES])
def test_plain_twin_on_every_marker_hand(name, rule, perms):
    naturals = all_hands(range(1, 52), 4).astype(np.int64)
    hands = np.concatenate([np.zeros((len(naturals), 1), np.int64), naturals], axis=1)
    kernel = strengths(hands, rule)
    first, inverse = _groups(naturals, perms)
    plain = np.array([strength_plain(hands[i], rule) for i in first], np.int64)
    assert len(naturals) == 249_900
    bad = np.flatnonzero(plain[inverse] != kernel)
    assert bad.size == 0, f"{name}: first mismatch {hands[bad[0]]}"


def test_plain_twin_on_every_natural_hand_of_wild(hands52):
    natural = hands52[hands52[:, 0] != MARKER]
    assert np.array_equal(strengths(natural, RULE_WILD), _plain_by_rank_pattern(natural))


@pytest.mark.parametrize("rule", [RULE_ORDINARY, RULE_WILD, RULE_BUG, RULE_SUIT_TWO, RULE_CLUB_ANY])
def test_plain_twin_on_a_seeded_sample(hands52, rule):
    rng = np.random.default_rng(51 + rule)
    sample = hands52[rng.choice(len(hands52), 20_000, replace=False)]
    # marker hands are about a tenth of a uniform sample; add 500 more of them
    marker = hands52[rng.choice(249_900, 500, replace=False)]
    sample = np.concatenate([sample, marker])
    kernel = strengths(sample, rule)
    assert all(strength_plain(h, rule) == k for h, k in zip(sample.tolist(), kernel.tolist()))


@pytest.mark.parametrize("marker", ["7h", "As"])
@pytest.mark.parametrize("rule", [RULE_SUIT_TWO, RULE_CLUB_ANY, RULE_WILD, RULE_BUG])
def test_plain_twin_with_another_marker_card(hands52, marker, rule):
    m = parse_cards(marker)[0]
    rng = np.random.default_rng(7 + rule)
    with_m = hands52[np.any(hands52 == m, axis=1)]
    sample = with_m[rng.choice(len(with_m), 300, replace=False)]
    kernel = strengths(sample, rule, m)
    assert all(strength_plain(h, rule, m) == k for h, k in zip(sample.tolist(), kernel.tolist()))


@pytest.mark.parametrize(
    "hand, rule, category",
    [
        ("2c Kd Kh Ks Kc", RULE_WILD, "five_of_a_kind"),
        ("2c 2d 2h 2s Ad", RULE_WILD, "four_of_a_kind"),  # I + three natural twos
        ("2c Ad Ah As Ac", RULE_BUG, "five_of_a_kind"),
        ("2c Kd Kh Ks Kc", RULE_BUG, "four_of_a_kind"),  # the bug is an ace, not a fifth king
        ("2c 3h 4h 5h 6h", RULE_BUG, "straight_flush"),
        ("2c 2d 6s 9h Qc", RULE_BUG, "high_card"),  # rule card: from a pair of twos to ace-high
        ("2c 2d 6s 9h Qc", RULE_WILD, "one_pair"),
        ("2c 2d 2h 9h Qc", RULE_WILD, "three_of_a_kind"),
        ("2c 3d 4h 5s 7c", RULE_SUIT_TWO, "high_card"),
        ("2c 3h 8h Jh Kh", RULE_SUIT_TWO, "flush"),
        ("2c 3d 3h 5s 5c", RULE_CLUB_ANY, "full_house"),
        ("2c 3d 3h 5s 5c", RULE_ORDINARY, "two_pair"),
    ],
)
def test_marker_readings(hand, rule, category):
    cards = parse_cards(hand)
    assert CATEGORIES[category_of(strength(cards, rule))] == category
    assert strength_plain(cards, rule) == strength(cards, rule)


def test_bug_example_kickers():
    s = strength(parse_cards("2c 2d 6s 9h Qc"), RULE_BUG)
    assert s == 12 << 16 | 10 << 12 | 7 << 8 | 4 << 4 | 0  # A Q 9 6 2
    assert strength(parse_cards("2c 2d 6s 9h Qc")) == (1 << 20) | 0 << 16 | 10 << 12 | 7 << 8 | 4 << 4


def test_wheel_and_broadway():
    wheel = strength(parse_cards("Ah 2d 3s 4c 5h"))
    six_high = strength(parse_cards("2d 3s 4c 5h 6h"))
    broadway = strength(parse_cards("Ah Kd Qs Jc Th"))
    assert CATEGORIES[category_of(wheel)] == "straight" and wheel < six_high < broadway
    with pytest.raises(ValueError):
        strength([1, 2, 3, 4, 4])


def test_standard_strength_digest(hands52, strengths52):
    standard = hands52[hands52[:, 0] != MARKER]
    data = strengths52[hands52[:, 0] != MARKER].astype("<i4").tobytes()
    assert len(standard) == 2_349_060
    assert hashlib.sha256(data).hexdigest() == STANDARD_DIGEST
