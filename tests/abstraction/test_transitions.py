"""Inclusion–exclusion machinery: every kernel against a plain twin."""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np

import poker51.abstraction.buckets as abb
import poker51.abstraction.classes as ab
from poker51.abstraction.transitions import (
    class_histograms,
    deck_hands,
    final_hand_weights,
    hand_histogram,
    subset_histograms,
    subset_histograms_plain,
    subset_index,
)
from poker51.cards import all_hands
from poker51.hands.house import keep_table


def standard():
    """(hand table, final bucket of each hand, A) of the standard deck."""
    ht = ab.hand_table("standard")
    labels = abb.bucket_of_strength(ht.strengths, abb.exact_buckets("standard", 40)).astype(np.int64)
    return ht, labels, subset_histograms(ht.hands, labels, 40)


def test_deck_hands_is_all_hands():
    deck = [1, 5, 9, 13, 17, 22, 30, 41, 51]
    assert np.array_equal(deck_hands(deck), all_hands(deck))
    assert deck_hands(range(1, 52)).shape == (comb(51, 5), 5)


def test_subset_index_is_a_bijection():
    seen = set()
    for k in range(4):
        for t in combinations(range(0, 52, 5), k):
            seen.add(subset_index(t))
    assert len(seen) == sum(comb(11, k) for k in range(4))
    assert subset_index([48, 49, 50, 51]) == sum(comb(52, k) for k in range(5)) - 1


def test_subset_histograms_twin():
    ht, labels, A = standard()
    rng = np.random.default_rng(np.random.SeedSequence(5105))
    subsets = [[], [51], [4, 8], [1, 2, 3], [5, 17, 30, 44]]
    subsets += [sorted(rng.choice(np.arange(1, 52), k, replace=False).tolist()) for k in (1, 2, 3, 4) for _ in range(3)]
    pick = rng.choice(ht.hands.shape[0], 200_000, replace=False)  # the plain twin is slow: a sample of hands
    sub = subset_histograms(ht.hands[pick], labels[pick], 40)
    plain = subset_histograms_plain(ht.hands[pick], labels[pick], 40, subsets)
    assert np.array_equal(sub[[subset_index(s) for s in subsets]], plain)
    assert A[0].sum() == comb(51, 5) and A[subset_index([51])].sum() == comb(50, 4)


def test_class_histograms_is_the_sum_of_single_hands():
    """The class kernel (signed coefficients, 4-subsets added directly) = Σ of per-hand sums."""
    ht, labels, A = standard()
    rng = np.random.default_rng(np.random.SeedSequence(5108))
    pick = np.sort(rng.choice(ht.hands.shape[0], 300, replace=False))
    hands = ht.hands[pick]
    keeps = keep_table(hands, ht.masks[pick], ht.rule)
    rows = rng.integers(0, 3, pick.size)
    got = class_histograms(hands, rows, 3, keeps, labels[pick], A)
    want = np.zeros_like(got)
    for h, r, k, own in zip(hands, rows, keeps, labels[pick]):
        for d in range(6):
            want[r, d] += hand_histogram(h.tolist(), int(k[d]), A, int(own))
    assert np.array_equal(got, want)
    n = np.bincount(rows, minlength=3)
    assert np.array_equal(got.sum(axis=2), n[:, None] * np.array([comb(46, d) for d in range(6)])[None, :])


def test_final_hand_weights_twin():
    """Weighted final-hand counts of a few dealt hands against enumerating their draws."""
    ht, _, _ = standard()
    rng = np.random.default_rng(np.random.SeedSequence(5109))
    short = np.flatnonzero(ht.house_draw <= 2)  # brute force stays small
    pick = rng.choice(short, 6, replace=False)
    weights = np.zeros(ht.hands.shape[0], np.int64)
    weights[pick] = rng.integers(1, 1000, pick.size)
    got = final_hand_weights(ht.hands, ht.masks.astype(np.int64), weights)
    want: dict[tuple, int] = {}
    deck = ht.deck.tolist()
    for i in pick:
        hand = ht.hands[i].tolist()
        kept = [c for j, c in enumerate(hand) if (int(ht.masks[i]) >> j) & 1]
        rest = [c for c in deck if c not in hand]
        for add in combinations(rest, 5 - len(kept)):
            f = tuple(sorted(kept + list(add)))
            want[f] = want.get(f, 0) + int(weights[i])
    nz = np.flatnonzero(got)
    assert len(nz) == len(want)
    assert {tuple(ht.hands[j].tolist()): int(got[j]) for j in nz} == want
