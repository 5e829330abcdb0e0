"""The abstraction: classes, buckets, exact transitions (vs brute force and Monte Carlo), belief."""

from __future__ import annotations

from functools import cache
from math import comb, lcm

import numpy as np
import pandas as pd
import pytest

import poker51.abstraction.buckets as abb
import poker51.abstraction.classes as ab
import poker51.abstraction.tables as abt
from poker51.abstraction.belief import build_belief
from poker51.abstraction.transitions import hand_histogram, hand_histogram_brute, subset_histograms
from poker51.cards import parse_cards
from poker51.hands.evaluate import (
    FIVE_OF_A_KIND,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    strengths,
)
from poker51.hands.house import keep_for_draw
from poker51.io import write_parquet
from poker51.rules import ABSTRACTION_TABLES

STANDARD_MEMBERS = [623280, 427200, 57120, 69225, 359040] + [79200] * 8 + [111672, 49632, 9690, 4615, 3384, 602]
STANDARD_DRAWS = [4, 4, 1, 1] + [3] * 9 + [1, 2, 0, 0, 0, 0]
#: classes holding the marker: name -> members (the rest are the 19 standard classes)
MARKER_CLASSES = {
    "wild": {
        "pair_7+I/d3": 1134, "pair_8+I/d3": 3402, "pair_9+I/d3": 6867, "pair_T+I/d3": 11781,
        "pair_J+I/d3": 18396, "pair_Q+I/d3": 26964, "pair_K+I/d3": 37737, "pair_A+I/d3": 50148,
        "three_of_a_kind+I/d2": 76032, "straight+I/d0": 9891, "flush+I/d0": 2483, "full_house+I/d0": 2592,
        "four_of_a_kind_or_better+I/d0": 2473,
    },
    "bug": {
        "no_pair_ace_high+I/d4": 106281, "pair_2_to_6+I/d2": 22800, "pair_7+I/d2": 5040, "pair_8+I/d2": 5040,
        "pair_9+I/d2": 5040, "pair_T+I/d2": 5040, "pair_J+I/d2": 5040, "pair_Q+I/d2": 5040, "pair_K+I/d2": 5040,
        "pair_A+I/d3": 50148, "two_pair+I/d0": 2178, "two_pair+I/d1": 11880, "three_of_a_kind+I/d1": 1936,
        "three_of_a_kind+I/d2": 6072, "straight+I/d0": 9891, "flush+I/d0": 2483, "full_house+I/d0": 594,
        "four_of_a_kind_or_better+I/d0": 357,
    },
}  # fmt: skip


@cache
def tables(variant: str) -> abt.AbstractionTables:
    return abt.build_abstraction(variant, progress=False)


@cache
def machinery(variant: str):
    """(hand table, class of each hand, final label of each hand, A) of a variant."""
    t = tables(variant)
    ht = ab.hand_table(variant)
    cls = np.searchsorted(ab.class_keys(variant), ab.class_key_array(ht.base, ht.marker, ht.house_draw))
    labels = abb.bucket_of_strength(ht.strengths, t.buckets).astype(np.int64)
    return ht, cls, labels, subset_histograms(ht.hands, labels, len(t.buckets))


def variant_params(slow_ones=("wild", "bug")):
    return [pytest.param(v, marks=pytest.mark.slow) if v in slow_ones else v for v in ("standard", "wild", "bug")]


# --------------------------------------------------------------------------- classes
def test_standard_classes():
    c = tables("standard").classes
    assert c["class"].tolist() == list(range(19))
    assert c["name"].tolist() == list(ab.BASE_NAMES)
    assert c["members"].tolist() == STANDARD_MEMBERS
    assert c["house_draw"].tolist() == STANDARD_DRAWS
    assert c["members"].sum() == comb(51, 5) and not c["marker"].any()
    assert c["probability"].sum() == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("variant, n", [("standard", 19), ("wild", 32), ("bug", 37)])
def test_class_counts(variant, n):
    keys = ab.class_keys(variant)
    assert keys.size == n
    names = ab.class_names(variant)
    ht = ab.hand_table(variant)
    members = np.bincount(np.searchsorted(keys, ab.class_key_array(ht.base, ht.marker, ht.house_draw)), minlength=n)
    assert members.sum() == ht.hands.shape[0]
    if variant != "standard":
        got = dict(zip(names, members.tolist()))
        assert {k: v for k, v in got.items() if "+I" in k} == MARKER_CLASSES[variant]
        assert [v for k, v in got.items() if "+I" not in k] == STANDARD_MEMBERS
        assert sum(MARKER_CLASSES[variant].values()) == 249_900


@pytest.mark.parametrize("variant", ["standard", "wild", "bug"])
def test_made_classes_match_category_counts(variant):
    """Made-hand classes hold exactly the hands of their categories (census counts)."""
    ht = ab.hand_table(variant)
    cat = strengths(ht.hands, ht.rule) >> 20
    assert np.array_equal(cat, ht.strengths >> 20)
    made = {15: [STRAIGHT], 16: [FLUSH], 17: [FULL_HOUSE], 18: [FOUR_OF_A_KIND, STRAIGHT_FLUSH, FIVE_OF_A_KIND]}
    for base, cats in made.items():
        assert (ht.base == base).sum() == np.isin(cat, cats).sum()
    if variant == "standard":
        assert np.bincount(cat, minlength=9)[4:9].tolist() == [9690, 4615, 3384, 564, 38]


@pytest.mark.parametrize("variant", ["standard", "wild", "bug"])
def test_base_class_twin_on_a_seeded_sample(variant):
    ht = ab.hand_table(variant)
    rng = np.random.default_rng(np.random.SeedSequence(5103))
    pick = rng.choice(ht.hands.shape[0], 1500, replace=False)
    if variant != "standard":
        pick = np.concatenate([pick, rng.choice(np.flatnonzero(ht.marker), 600, replace=False)])
    assert [ab.base_class_plain(h, ht.rule) for h in ht.hands[pick]] == ht.base[pick].tolist()


@pytest.mark.parametrize("variant", ["standard", "wild", "bug"])
def test_classify_real_cards(variant):
    ht = ab.hand_table(variant)
    keys = ab.class_keys(variant)
    cls = np.searchsorted(keys, ab.class_key_array(ht.base, ht.marker, ht.house_draw))
    rng = np.random.default_rng(np.random.SeedSequence(5104))
    for i in rng.choice(ht.hands.shape[0], 200, replace=False):
        hand = rng.permutation(ht.hands[i])  # any order of the five cards
        assert ab.classify(hand, variant) == cls[i]
    assert ab.classify(parse_cards("Ks Kd 7h 4c 3d"), "standard") == 11
    with pytest.raises(ValueError):
        ab.classify(parse_cards("2c Kd 7h 4c 3d"), "standard")


@pytest.mark.parametrize("variant", ["standard", "wild", "bug"])
def test_a_class_index_gives_the_tables_ids(variant):
    """The index classifies as the table does, also when the table lists the classes in
    another order and numbering; a key listed twice, or missing, is refused by both."""
    ht = ab.hand_table(variant)
    frame = ab.class_frame(variant)
    renumbered = frame.iloc[::-1].assign(**{"class": lambda df: (7 * df["class"] + 3) % 1000}).reset_index(drop=True)
    rng = np.random.default_rng(np.random.SeedSequence(5105))
    hands = ht.hands[rng.choice(ht.hands.shape[0], 300, replace=False)]
    for table in (frame, renumbered):
        index = ab.class_index(table)
        assert len(index.ids) == len(table)
        assert [ab.classify(h, variant, index) for h in hands] == [ab.classify(h, variant, table) for h in hands]
    hand = hands[0]
    key_row = frame.index[frame["class"] == ab.classify(hand, variant)][0]
    twice = pd.concat([frame, frame.iloc[[key_row]].assign(**{"class": len(frame)})], ignore_index=True)
    missing = frame.drop(index=key_row)
    for table in (twice, missing):
        with pytest.raises(ValueError, match="not in the .* class list"):
            ab.classify(hand, variant, table)
        with pytest.raises(ValueError, match="not in the .* class list"):
            ab.classify(hand, variant, ab.class_index(table))


# --------------------------------------------------------------------------- buckets
def test_standard_buckets():
    b = tables("standard").buckets
    values, weights, total = abb.final_strength_distribution(ab.hand_table("standard"))
    assert total == comb(51, 5) * lcm(*(comb(46, d) for d in range(5)))
    assert b["bucket"].tolist() == list(range(40)) and b["weight"].sum() == total
    assert np.all(b["low"].to_numpy() <= b["high"].to_numpy())
    assert np.all(b["high"].to_numpy()[:-1] < b["low"].to_numpy()[1:])
    atom = weights.max() / total
    assert np.all(np.abs(b["probability"] - 1 / 40) <= atom + 1e-12)
    assert np.array_equal(abb.bucket_of_strength(b["low"], b), np.arange(40))
    assert np.array_equal(abb.bucket_of_strength(b["high"], b), np.arange(40))
    # equal strengths share a bucket: each strength of positive weight lies in exactly one bucket
    v = values[weights > 0]
    bb = abb.bucket_of_strength(v, b)
    assert np.all((v >= b["low"].to_numpy()[bb]) & (v <= b["high"].to_numpy()[bb]))
    assert abb.bucket_of(parse_cards("Ah Kh Qh Jh Th"), "standard", b) == 39
    assert abb.bucket_of(parse_cards("7d 5h 4s 3c 2d"), "standard") == 0


# --------------------------------------------------------------------------- transitions
@pytest.mark.parametrize("variant", variant_params())
def test_transition_rows_exact(variant):
    t = tables(variant)
    c, tr, b = t.classes, t.transitions, t.buckets
    ht = ab.hand_table(variant)
    n_rest = ht.deck.size - 5
    human = tr[tr["drawer"] == "human"]
    sums = human.groupby(["class", "draw"])["count"].sum().to_numpy().reshape(len(c), 6)
    expect = c["members"].to_numpy()[:, None] * np.array([comb(n_rest, d) for d in range(6)])[None, :]
    assert np.array_equal(sums, expect) and (tr["count"] >= 0).all()
    arrays = t.arrays()
    C = len(c)
    assert arrays.h_trans.shape == (C, 6, 40) and arrays.r_trans.shape == (C, 40)
    assert np.allclose(arrays.h_trans.sum(axis=-1), 1, atol=1e-12)
    assert np.allclose(arrays.r_trans.sum(axis=-1), 1, atol=1e-12)
    assert np.array_equal(arrays.r_trans, arrays.h_trans[np.arange(C), arrays.r_draw])
    # Riemann's rows, weighted by class, are exactly the bucket distribution (second machinery)
    L = lcm(*(comb(n_rest, d) for d in range(5)))
    riem = tr[tr["drawer"] == "riemann"]
    scale = L // np.array([comb(n_rest, d) for d in range(6)])[riem["draw"].to_numpy()]
    per_bucket = [0] * 40
    for bk, cnt, s in zip(riem["bucket"].to_numpy(), riem["count"].to_numpy(), scale):
        per_bucket[bk] += int(cnt) * int(s)
    assert per_bucket == b["weight"].tolist()


CASES = [
    ("standard", "2d 3h 4s 5c 9d", [1, 3]),
    ("standard", "4c 4d 9h 9s Ad", [0, 1, 2]),
    ("standard", "Ks Kd 7h 4c 3d", [3, 4]),
    ("standard", "3d 5h 8s Jc Qs", [4, 5]),
    ("standard", "3h 5h 8h Jh Ks", [1]),
    pytest.param("wild", "2c 7d 7s 9h Qc", [2, 3, 4], marks=pytest.mark.slow),
    pytest.param("bug", "2c 3h 6h 9h Qc", [1, 4], marks=pytest.mark.slow),
    pytest.param("bug", "Ac Ad 6h 9h Qc", [3], marks=pytest.mark.slow),
]


@pytest.mark.parametrize("variant, hand, draws", CASES)
def test_inclusion_exclusion_matches_brute_force(variant, hand, draws):
    ht, _, labels, A = machinery(variant)
    b = tables(variant).buckets
    h = sorted(parse_cards(hand))
    own = int(abb.bucket_of_strength(strengths(np.array([h]), ht.rule), b)[0])
    label_of = lambda finals: abb.bucket_of_strength(strengths(finals, ht.rule), b)  # noqa: E731
    for d in draws:
        keep = keep_for_draw(h, d, ht.rule)
        ie = hand_histogram(h, keep, A, own)
        brute = hand_histogram_brute(h, keep, ht.deck.tolist(), label_of, 40)
        assert ie.tolist() == brute.tolist()
        assert brute.sum() == comb(ht.deck.size - 5, d)


@pytest.mark.parametrize("cls_id, d", [(12, 3), (3, 1), (0, 4), (13, 2)])
def test_monte_carlo_agrees(cls_id, d):
    """Seeded Monte Carlo (dealt hand uniform in the class, then d replacement cards)."""
    ht, cls, _, _ = machinery("standard")
    b = tables("standard").buckets
    p = tables("standard").human_transitions()[cls_id, d]
    rng = np.random.default_rng(np.random.SeedSequence([5106, cls_id, d]))
    n = 20_000
    members = np.flatnonzero(cls == cls_id)
    dealt = ht.hands[rng.choice(members, n)]
    keeps = np.array([keep_for_draw(h, d) for h in dealt])
    finals = np.empty((n, 5), np.int64)
    for i, (h, k) in enumerate(zip(dealt, keeps)):
        rest = np.setdiff1d(ht.deck, h)
        finals[i] = np.concatenate([h[[(k >> j) & 1 == 1 for j in range(5)]], rng.choice(rest, d, replace=False)])
    obs = np.bincount(abb.bucket_of_strength(strengths(finals), b), minlength=40)
    se = np.sqrt(n * p * (1 - p))
    z = np.where(se > 0, (obs - n * p) / np.where(se > 0, se, 1), 0)
    assert np.abs(z).max() < 4.5
    assert np.all(obs[p == 0] == 0)


# --------------------------------------------------------------------------- tables
@pytest.mark.parametrize("variant", variant_params())
def test_tables_dtypes_sorted_and_reproducible(variant, tmp_path):
    t = tables(variant)
    text = pd.api.types.is_string_dtype
    assert text(t.classes["name"]) and text(t.classes["base_name"]) and text(t.transitions["drawer"])
    assert t.classes.drop(columns=["name", "base_name"]).dtypes.astype(str).to_dict() == {
        "class": "int16", "base": "int8", "marker": "bool", "house_draw": "int8", "members": "int64",
        "probability": "float64",
    }  # fmt: skip
    assert t.transitions.drop(columns=["drawer"]).dtypes.astype(str).to_dict() == {
        "class": "int16", "draw": "int8", "bucket": "int8", "count": "int64", "total": "int64",
        "probability": "float64",
    }  # fmt: skip
    assert t.buckets.dtypes.astype(str).tolist() == ["int8", "int32", "int32", "int32", "int64", "float64"]
    assert t.belief.dtypes.astype(str).tolist() == ["int8", "int16", "int32"]
    tr = t.transitions
    assert tr.equals(tr.sort_values(["drawer", "class", "draw", "bucket"]).reset_index(drop=True))
    for name in ABSTRACTION_TABLES:
        df = t.frame(name)
        a = write_parquet(df, tmp_path / f"a_{name}.parquet").read_bytes()
        assert a == write_parquet(df, tmp_path / f"b_{name}.parquet").read_bytes()


# --------------------------------------------------------------------------- belief
def test_tables_carry_the_seed_51_belief_table():
    """The abstraction's belief table is the one built from seed 51 (whose digest
    tests/abstraction/test_belief.py pins), read back through the table's columns."""
    table = tables("standard").belief_array()
    ht = ab.hand_table("standard")
    assert table.shape == (6, 1000)
    assert np.array_equal(table, build_belief(ht.hands, ht.masks, ht.house_draw, ht.deck, ht.rule, 51, 20_000))
