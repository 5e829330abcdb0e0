"""The refined class set of the abstraction-size study (``abstraction.keys.CLASS_SETS``): a strict
refinement of the standard classes, classified the same by every path that reads a class table."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from helpers import hand_sample

from poker51.abstraction.classes import (
    ALL_BASE_NAMES,
    BASE_NAMES,
    class_index,
    class_keys,
    classify,
    hand_bases,
    hand_keys,
    hand_table,
)
from poker51.abstraction.keys import (
    REFINED_FIRST,
    REFINED_PARENT,
    class_set_of,
    hand_class_key_strength,
    refine_base,
    refine_key,
)
from poker51.abstraction.tables import build_abstraction
from poker51.cards import parse_cards
from poker51.hands.evaluate import HIGH_CARD, ONE_PAIR
from poker51.rules import VARIANT_RULES


@cache
def tables(class_set: str, buckets: int = 12):
    return build_abstraction("standard", n_buckets=buckets, belief_samples=1000, progress=False, class_set=class_set)


def _parent_key(key: int) -> int:
    base = key // 100
    return REFINED_PARENT.get(base, base) * 100 + key % 100


@pytest.mark.parametrize("variant", ["standard", "wild", "bug"])
def test_the_refined_set_splits_only_low_pairs_and_low_no_pair(variant):
    """Every hand's refined code maps back to its standard code; only pairs of 2s-6s and no pair
    below ace high change, and each lands on the code of its pair rank or top card, read from the
    hand's strength by category (not by the code being refined)."""
    ht = hand_table(variant)
    std, ref = hand_bases(ht, "standard"), hand_bases(ht, "refined")
    parent = np.array([REFINED_PARENT.get(int(b), int(b)) for b in range(len(ALL_BASE_NAMES))])
    assert np.array_equal(parent[ref], std)
    changed = ref != std
    assert set(np.unique(std[changed]).tolist()) <= {0, 4} and not np.isin(ref[~changed], list(REFINED_PARENT)).any()
    cat, top = ht.strengths >> 20, (ht.strengths >> 16) & 15
    pairs = changed & (std == 4)
    assert (cat[pairs] == ONE_PAIR).all() and np.array_equal(ref[pairs], REFINED_FIRST + top[pairs])
    lows = changed & (std == 0)
    assert (cat[lows] == HIGH_CARD).all() and (top[lows] < 12).all()
    assert np.array_equal(ref[lows], np.select([top[lows] == 11, top[lows] == 10], [24, 25], 26))
    assert class_set_of(ref) == "refined" and class_set_of(std) == "standard"
    # the plain path (the game server's) on a seeded sample
    rows = hand_sample(26_000, 4_000, 7, variant)
    keys = hand_keys(ht, "refined")[rows]
    for hand, key in zip(ht.hands[rows].tolist(), keys.tolist()):
        k, s = hand_class_key_strength(hand, VARIANT_RULES[variant])
        assert refine_key(k, s) == key, hand


def test_refined_names_and_codes():
    keys = class_keys("standard", "refined")
    assert keys.size == 25 and class_keys("standard").size == len(BASE_NAMES) == 19
    names = tables("refined").classes.set_index("base")["name"]
    assert names[22] == "pair_5" and names[25] == "no_pair_queen_high" and 4 not in names.index
    assert refine_base(4, 0) == REFINED_FIRST and refine_base(17, 0) == 17
    with pytest.raises(ValueError, match="unknown class set 'fine'"):
        hand_bases(hand_table("standard"), "fine")


def test_refined_transitions_sum_to_the_standard_ones():
    """Exact: the refined classes' members and transition counts, summed over the classes each
    standard class splits into, are the standard classes' own (every class, draw and bucket)."""
    std, ref = tables("standard"), tables("refined")
    assert np.array_equal(std.buckets["low"], ref.buckets["low"])
    ckey = {c: int(b) * 100 + int(m) * 10 + int(d) for c, b, m, d in
            ref.classes[["class", "base", "marker", "house_draw"]].itertuples(index=False)}  # fmt: skip
    skey = {int(b) * 100 + int(m) * 10 + int(d): c for c, b, m, d in
            std.classes[["class", "base", "marker", "house_draw"]].itertuples(index=False)}  # fmt: skip
    t = ref.transitions.assign(**{"class": ref.transitions["class"].map(lambda c: skey[_parent_key(ckey[c])])})
    cols = ["drawer", "class", "draw", "bucket"]
    got = t.groupby(cols, sort=True)["count"].sum().reset_index()
    want = std.transitions.sort_values(cols)[[*cols, "count"]].reset_index(drop=True)
    assert got.astype({"class": "int64", "bucket": "int64"}).equals(
        want.astype({"class": "int64", "bucket": "int64", "draw": got["draw"].dtype})
    )
    members = ref.classes.assign(parent=[skey[_parent_key(ckey[c])] for c in ref.classes["class"]])
    assert members.groupby("parent")["members"].sum().to_dict() == std.classes.set_index("class")["members"].to_dict()
    assert ref.classes["probability"].sum() == pytest.approx(1.0, abs=1e-12)


def test_every_path_classifies_a_refined_table_alike():
    """The kernels' hand index, ``classify`` (by frame and by index) and Riemann's plain cache give
    every sampled hand the same refined class, and a standard table still reads standard keys."""
    from poker51.export.tables import strategy_table
    from poker51.games.abstract import build_game
    from poker51.policies import kernels
    from poker51.policies.riemann import Riemann
    from tests.helpers import solved_standard

    ref = tables("refined")
    arrays = kernels.hand_arrays("standard", ref.classes, ref.buckets)
    idx = class_index(ref.classes)
    assert idx.refined and not class_index(tables("standard").classes).refined
    ht = hand_table("standard")
    rows = hand_sample(26_001, 3_000, 9, "standard")
    colex = kernels.BINOM[ht.hands[rows], np.arange(1, 6)].sum(axis=1)
    kernel_cls = arrays.class_id[colex]
    # Riemann playing a (uniform) table of the refined abstraction
    game = build_game(ref.arrays())
    r = Riemann(strategy_table(game, game.uniform_policy(), ref.arrays(), "standard"), "standard", ref.classes,
                ref.buckets)  # fmt: skip
    for hand, c in zip(ht.hands[rows].tolist(), kernel_cls.tolist()):
        assert classify(hand, "standard", idx) == c == classify(hand, "standard", ref.classes)
        assert r.classify(hand) == c
    assert classify(parse_cards("3s 3h 9d 7c 2d"), "standard", idx) == int(
        ref.classes.set_index("name").loc["pair_3", "class"]
    )
    s = solved_standard()
    assert Riemann(s.df, "standard", s.tables.classes, s.tables.buckets).classify(parse_cards("3s 3h 9d 7c 2d")) == 4
