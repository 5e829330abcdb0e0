"""The census stage (poker51.census.count, poker51.census.orders, census figures and CLI)."""

import itertools
import json
from math import comb

import numpy as np
import pandas as pd
import pytest
from helpers import TEXTBOOK_52

import poker51.census.count as C
import poker51.census.decks as D
import poker51.census.orders as O
import poker51.census.removal as RM
from poker51.cards import MARKER, all_hands, parse_cards
from poker51.census.orders import order_counts, order_counts_table, reach_table, search_orders
from poker51.cli import main
from poker51.errors import InputError
from poker51.figures import fig_census_frequencies, fig_removal_heatmap
from poker51.hands.evaluate import CATEGORIES, RULES, category_of, strengths
from poker51.stages import run_census, run_removal

STANDARD_51 = {  # 51 cards: five categories x 47/52, straights and straight flushes x 19/20
    "straight_flush": 38,
    "four_of_a_kind": 564,
    "full_house": 3_384,
    "flush": 4_615,
    "straight": 9_690,
    "three_of_a_kind": 49_632,
    "two_pair": 111_672,
    "one_pair": 992_640,
    "high_card": 1_176_825,
}


def by_name(counts):
    return {CATEGORIES[c]: int(counts[c]) for c in range(10) if CATEGORIES[c] != "five_of_a_kind" or counts[c]}


@pytest.fixture(scope="module")
def hands52():
    return all_hands(range(52)).astype(np.int64)


@pytest.fixture(scope="module")
def ref52(hands52):
    """Reference categories (Numba ``strengths``) of every 52-card hand, ordinary reading."""
    return category_of(strengths(hands52)).astype(np.int8)


def reference(deck, hands52, ref52):
    """Every hand of ``deck`` (lexicographic) and its category by the reference evaluator.

    A hand without the marker is evaluated the same way under every rule, so only the
    marker hands are re-evaluated under the deck's rule.
    """
    keep = ~np.isin(hands52, deck.removed).any(axis=1) if deck.removed else np.ones(len(hands52), bool)
    hands, ref = hands52[keep], ref52[keep].copy()
    if deck.rule != "ordinary":
        holds = np.any(hands == deck.marker, axis=1)
        ref[holds] = category_of(strengths(hands[holds], deck.rule_code, deck.marker))
    return hands, ref


# --------------------------------------------------------------------------- decks
def test_named_decks():
    d = {name: D.named_deck(name) for name in D.NAMED_DECKS}
    assert d["standard"].n_cards == 51 and not d["standard"].marker_in_play
    assert d["standard"].n_hands == 2_349_060 and d["full52"].n_hands == 2_598_960
    assert {name: deck.rule for name, deck in d.items()} == {
        "full52": "ordinary",
        "standard": "ordinary",
        "wild": "wild",
        "bug": "bug",
        "suit_two": "suit_two",
        "club_any": "club_any",
    }
    assert all(deck.marker == MARKER for deck in d.values())


def test_make_deck_names_and_changes():
    d = D.make_deck("full52", remove="5h,Ks")
    assert d.name == "full52-5h-Ks" and d.n_cards == 50 and d.removed == (14, 47)
    assert D.make_deck("standard", remove=[51]).removed == (0, 51)
    m = D.make_deck("full52", marker="Ah", rule="bug")
    assert (m.name, m.marker, m.rule) == ("full52+bug@Ah", 50, "bug")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(remove="1x"), "unknown card"),
        (dict(remove="5h,5h"), "twice"),
        (dict(base="standard", remove="2c"), "removed twice"),
        (dict(base="standard", rule="wild"), "not in the deck"),
        (dict(base="wild", remove="2c"), "removed twice|not in the deck"),
        (dict(rule="joker"), "unknown rule"),
        (dict(base="full53"), "unknown deck"),
        (dict(marker="Zz", rule="wild"), "unknown card"),
    ],
)
def test_deck_validation(kwargs, message):
    with pytest.raises(InputError, match=message):
        D.make_deck(**kwargs)


def test_deck_validation_direct():
    with pytest.raises(InputError, match="removed twice"):
        D.Deck("x", removed=(3, 3))
    with pytest.raises(InputError, match="not in the deck"):
        D.Deck("x", removed=(7,), marker=7, rule="club_any")
    with pytest.raises(InputError, match="outside"):
        D.Deck("x", removed=(52,))
    assert D.Deck("x", removed=(9, 3)).removed == (3, 9)


# --------------------------------------------------------------------------- exact counts
def test_textbook_counts_from_the_census_kernel():
    full, std = C.census(D.named_deck("full52")), C.census(D.named_deck("standard"))
    assert by_name(full.category_counts()) == TEXTBOOK_52
    assert full.hands == 2_598_960 and int(full.counts[1].sum()) == comb(51, 4)
    assert by_name(std.category_counts()) == STANDARD_51
    assert std.hands == 2_349_060 and int(std.counts[1].sum()) == 0


@pytest.mark.parametrize("name", list(D.NAMED_DECKS))
def test_kernel_matches_strengths_on_every_hand(name, hands52, ref52):
    """The census kernel's category of every hand equals the Numba reference evaluator's."""
    deck = D.named_deck(name)
    hands, ref = reference(deck, hands52, ref52)
    assert len(hands) == deck.n_hands
    kernel = C.hand_categories(deck)
    assert np.array_equal(kernel, ref)
    res = C.census(deck)
    assert np.array_equal(res.category_counts(), np.bincount(kernel, minlength=10))
    holds = np.any(hands == deck.marker, axis=1)
    assert np.array_equal(res.counts[1], np.bincount(kernel[holds], minlength=10))


@pytest.mark.parametrize(
    "remove, marker, rule", [("", "7h", "club_any"), ("Ks", "7h", "suit_two"), ("", "Ah", "bug"), ("", "Jc", "wild")]
)
def test_kernel_with_another_marker_card(remove, marker, rule, hands52, ref52):
    deck = D.make_deck("full52", remove=remove, marker=marker, rule=rule)
    _, ref = reference(deck, hands52, ref52)
    assert np.array_equal(C.hand_categories(deck), ref)


def test_reference_helper_matches_a_direct_evaluation(hands52, ref52):
    deck = D.make_deck("full52", remove="Ks", marker="7h", rule="wild")
    hands, ref = reference(deck, hands52, ref52)
    assert np.array_equal(hands, all_hands(deck.cards))
    sample = np.random.default_rng(3).choice(len(hands), 50_000, replace=False)
    assert np.array_equal(ref[sample], category_of(strengths(hands[sample], deck.rule_code, deck.marker)))


def test_removed_card_deck_counts_match_the_removal_table():
    removal = RM.removal_table()
    for card in ("2c", "7d", "Ah", "Ts"):
        res = C.census(D.make_deck("full52", remove=card))
        rows = removal[removal["card"] == card].set_index("category")["count"]
        assert rows.to_dict() == by_name(res.category_counts())


def _marker_groups(naturals, rule):
    """Groups of marker hands on which reach_mask_plain is constant (see test_evaluate)."""
    ranks = np.sort(naturals >> 2, axis=1) @ (13 ** np.arange(4))
    if rule in ("wild", "bug"):
        key = ranks * 2 + np.all((naturals & 3) == (naturals[:, :1] & 3), axis=1)
    elif rule == "club_any":
        club_ranks = np.where((naturals & 3) == 0, 1 << (naturals >> 2), 0).sum(axis=1)
        key = (ranks * 8192 + club_ranks) * 2 + np.all((naturals & 3) == 0, axis=1)
    else:  # suit_two: orbits under all suit relabellings
        key = None
        for p in itertools.permutations(range(4)):
            m = np.sort((naturals & ~3) | np.array(p)[naturals & 3], axis=1)
            k = ((m[:, 0] * 52 + m[:, 1]) * 52 + m[:, 2]) * 52 + m[:, 3]
            key = k if key is None else np.minimum(key, k)
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    return first, inverse


@pytest.mark.parametrize("rule", ["wild", "bug", "suit_two", "club_any"])
def test_reachable_masks_match_the_plain_twin_on_every_marker_hand(rule):
    deck = D.named_deck(rule)
    naturals, masks = C.marker_hand_masks(deck)
    assert len(naturals) == 249_900
    first, inverse = _marker_groups(naturals, rule)
    plain = np.array([C.reach_mask_plain(naturals[i], rule) for i in first], np.int64)
    assert np.array_equal(plain[inverse], masks)
    # the census kernel's aggregated table holds the same masks
    assert np.array_equal(C.census(deck).reach.sum(axis=(0, 1, 2)), np.bincount(masks, minlength=1024))
    # reading I as the ordinary 2c is one of the readings, except under the bug
    own = C.census(deck).reach.sum(axis=(0, 1))  # (ordinary category, mask)
    kept = [bool(mask >> cat & 1) for cat, mask in zip(*np.nonzero(own))]
    assert all(kept) == (rule != "bug")


def test_reach_mask_plain_with_another_marker_on_a_sample():
    rng = np.random.default_rng(5)
    for rule in ("wild", "bug", "suit_two", "club_any", "ordinary"):
        for marker in (0, 29, 51):
            others = np.array([c for c in range(52) if c != marker])
            for _ in range(40):
                nat = rng.choice(others, 4, replace=False)
                assert C.reach_mask(nat, rule, marker) == C.reach_mask_plain(nat, rule, marker)


# --------------------------------------------------------------------------- order search
def test_reach_table_and_fast_recount_against_brute_force():
    naturals, masks = C.marker_hand_masks(D.named_deck("wild"))
    counts = C.census(D.named_deck("wild")).mask_counts()
    table = reach_table(counts)
    rng = np.random.default_rng(10)
    orders = [C.STANDARD_ORDER, tuple(rng.permutation(10)), tuple(rng.permutation(10)), tuple(range(10))]
    natural_cats = C.hand_categories(D.named_deck("full52"))[249_900:]  # lexicographic: 2c hands come first
    for order in orders:
        fast = order_counts_table(table, order)
        assert fast == order_counts(counts, order)
        # hand by hand: each marker hand takes the first category of the order its mask holds
        rank_in_order = np.array([order.index(c) for c in range(10)])
        best = np.full(len(masks), 99)
        for c in range(10):
            best = np.where(masks >> c & 1, np.minimum(best, rank_in_order[c]), best)
        brute = np.bincount(np.array(order)[best], minlength=10) + np.bincount(natural_cats, minlength=10)
        assert fast == {c: int(brute[c]) for c in order}
        assert sum(fast.values()) == 2_598_960


def _brute_search(counts, cats):
    strict, ties = [], []
    for order in itertools.permutations(sorted(cats)):
        n = order_counts(counts, order)
        seq = [n[c] for c in order]
        if all(a < b for a, b in zip(seq, seq[1:])):
            strict.append(order)
        if all(a <= b for a, b in zip(seq, seq[1:])):
            ties.append(order)
    return strict, ties


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_search_matches_brute_force_on_synthetic_masks(seed):
    rng = np.random.default_rng(seed)
    counts = np.zeros(64, np.int64)
    for c in range(6):  # singletons with distinct sizes make some orders consistent
        counts[1 << c] = 10 * (c + 1) ** 2
    for mask in rng.choice(np.arange(1, 64), 12, replace=False):
        counts[mask] += int(rng.integers(0, 30))
    counts[0b000011] += 5  # an exact tie somewhere
    res = search_orders(counts, range(6), keep=1000)
    strict, ties = _brute_search(counts, range(6))
    assert res.n_orders == 720
    assert (res.n_strict, res.n_ties) == (len(strict), len(ties))
    assert res.strict_orders == strict and res.ties_orders == ties


def test_search_matches_brute_force_on_a_reduced_wild_category_set():
    """Wild hands restricted to five categories (hands reaching none of them left out)."""
    keep = [0, 1, 2, 3, 4]  # high card .. straight
    sub = sum(1 << c for c in keep)
    full = C.census(D.named_deck("wild")).mask_counts()
    counts = np.zeros(1024, np.int64)
    for mask in np.flatnonzero(full):
        if mask & sub:
            counts[mask & sub] += full[mask]
    res = search_orders(counts, keep, keep=200)
    strict, ties = _brute_search(counts, keep)
    assert res.n_orders == 120 and res.strict_orders == strict and res.ties_orders == ties


def test_search_rejects_unreachable_hands():
    counts = np.zeros(8, np.int64)
    counts[0b100] = 3
    with pytest.raises(ValueError, match="reach none"):
        search_orders(counts, [0, 1])


def test_order_search_results_per_deck():
    orders = O.orders_frame([C.census(D.named_deck(n)) for n in D.NAMED_DECKS]).set_index("deck")
    assert orders.loc["wild", "orders"] == 3_628_800 == orders.loc["bug", "orders"]
    assert orders.loc["club_any", "orders"] == 362_880 == orders.loc["full52", "orders"]
    assert orders.loc["wild", "consistent_strict"] == 0 == orders.loc["wild", "consistent_ties"]
    for deck in ("full52", "standard", "bug", "suit_two"):
        assert json.loads(orders.loc[deck, "strict_orders"])[0][0] in ("five_of_a_kind", "straight_flush")
        assert orders.loc[deck, "consistent_strict"] == 1


# --------------------------------------------------------------------------- tables
def test_counts_frame_shape_and_order():
    results = [C.census(D.named_deck(n)) for n in ("wild", "standard")]
    df = C.counts_frame(results)
    assert list(df.columns) == ["deck", "category", "category_id", "count", "with_marker", "hands", "probability"]
    assert list(df["deck"].unique()) == ["standard", "wild"] and len(df) == 20
    assert list(df["category"][:10]) == [CATEGORIES[c] for c in C.STANDARD_ORDER]
    for _deck, sub in df.groupby("deck"):
        assert sub["count"].sum() == sub["hands"].iloc[0]
        assert abs(sub["probability"].sum() - 1) < 1e-12
    wild = df[df["deck"] == "wild"].set_index("category")
    assert wild.loc["five_of_a_kind", "count"] == 12 and wild["with_marker"].sum() == 249_900


def test_removal_table():
    df = RM.removal_table()
    assert len(df) == 52 * 9 and (df["hands"] == 2_349_060).all()
    five = df["category"].isin(["one_pair", "two_pair", "three_of_a_kind", "full_house", "four_of_a_kind"])
    assert (df.loc[five, "relative_change"] == 0).all()
    two = df[df["card"] == "2c"].set_index("category")
    assert two.loc["straight", "relative_change"] == pytest.approx(12 / 235, abs=1e-15)
    seven = df[df["card"] == "7s"].set_index("category")  # 7 is in 5 of 10 straight types: lose 1/8
    assert seven.loc["straight", "count"] == 10_200 - 10_200 // 8


def _census_files(root, decks):
    out = {name: root / f"{name}.parquet" for name in ("counts", "orders", "claims")}
    out["claims_md"] = root / "claims.md"
    run_census(decks, out)
    run_removal(root / "removal.parquet")
    return {**out, "removal": root / "removal.parquet"}


def test_parquet_outputs_are_byte_identical(tmp_path):
    a = _census_files(tmp_path / "a", ["full52", "wild"])
    b = _census_files(tmp_path / "b", ["full52", "wild"])
    for name in a:
        assert a[name].read_bytes() == b[name].read_bytes(), name
    counts = pd.read_parquet(a["counts"])
    assert list(counts["deck"].unique()) == ["full52", "wild"]
    assert counts.equals(C.counts_frame([C.census(D.named_deck("full52")), C.census(D.named_deck("wild"))]))


def test_figures_are_reproducible(tmp_path):
    files = _census_files(tmp_path / "t", list(D.NAMED_DECKS))
    counts, removal = pd.read_parquet(files["counts"]), pd.read_parquet(files["removal"])
    first = fig_census_frequencies(counts, tmp_path / "a" / "census") + fig_removal_heatmap(
        removal, tmp_path / "a" / "removal"
    )
    second = fig_census_frequencies(counts, tmp_path / "b" / "census") + fig_removal_heatmap(
        removal, tmp_path / "b" / "removal"
    )
    assert [p.suffix for p in first] == [".pdf", ".png", ".pdf", ".png"]
    assert all(p.stat().st_size > 1000 for p in first)
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]


# --------------------------------------------------------------------------- CLI
def test_cli_json(capsys):
    assert main(["census", "--deck", "bug", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["deck"] == "bug" and got["hands"] == 2_598_960
    assert list(got["counts"]) == [CATEGORIES[c] for c in C.STANDARD_ORDER]
    assert sum(got["with_marker"].values()) == 249_900 and got["counts"]["five_of_a_kind"] == 1


def test_cli_table_and_out(capsys, tmp_path):
    out = tmp_path / "c.parquet"
    assert main(["census", "--remove", "5h,Ks", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "full52-5h-Ks" in text and "2,118,760" in text
    df = pd.read_parquet(out)
    assert df["count"].sum() == comb(50, 5) and set(df["deck"]) == {"full52-5h-Ks"}


@pytest.mark.parametrize(
    "argv",
    [
        ["--remove", "1x"],
        ["--remove", "5h,5h"],
        ["--deck", "standard", "--remove", "2c"],
        ["--deck", "standard", "--marker", "2c", "--rule", "wild"],
        ["--marker", "2c", "--rule", "joker"],
        ["--deck", "nope"],
    ],
)
def test_cli_errors_exit_2_with_one_line(argv, capsys):
    assert main(["census", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("poker51 census: error:") and err.count("\n") == 1


def test_rules_table_is_complete():
    assert set(RULES) == {"ordinary", "wild", "bug", "suit_two", "club_any"}
    assert C.reach_mask(parse_cards("Kd Kh Ks Kc"), "wild") >> 9 & 1  # five of a kind reachable
