"""The census of every rule book game: exact kernels against plain twins and brute force, the
seeded estimate, ``poker51 census --game``."""

import json
from math import comb

import numpy as np
import pytest
from numba import njit

from poker51.cli import main
from poker51.rulebook.census import holdem_census, holdem_census_plain
from poker51.rulebook.estimate import deal_categories, deals_in_game, game_census, sample_deals, wilson
from poker51.rulebook.games import BEST_FIRST, CATEGORY_NAMES
from poker51.rulebook.omaha_census import (
    board_histogram_plain,
    board_histograms,
    canonical_boards,
    canonical_boards_plain,
    deck_of,
    omaha_census,
)
from poker51.rulebook.reading import best_of_combos_kernel, best_strengths, category_of, combos_table, read_hand_plain


# --------------------------------------------------------------------------- Hold'em
def test_holdem_census_of_all_133784560_seven_card_sets():
    c = holdem_census()
    assert int(c.sum()) == comb(52, 7) == 133_784_560
    # the published seven-card frequencies (best five of seven), royal flush apart
    assert c.tolist() == [
        23_294_460,
        58_627_800,
        31_433_400,
        6_461_620,
        6_180_020,
        4_047_644,
        3_473_184,
        224_848,
        37_260,
        4_324,
    ]


def test_holdem_census_does_not_depend_on_threads():
    deck = list(range(8, 52))
    assert holdem_census(deck, threads=1).tolist() == holdem_census(deck, threads=3).tolist()


def test_holdem_kernel_equals_plain_twin_on_a_fourteen_card_deck():
    # every category occurs: straight and royal flushes in spades (9s-As), the wheel, aces full of twos
    deck = [0, 1, 4, 9, 13, 31, 35, 39, 43, 47, 48, 49, 50, 51]
    assert holdem_census(deck).tolist() == holdem_census_plain(deck).tolist()
    assert holdem_census(deck).min() > 0


def test_holdem_census_matches_best_of_twenty_one_on_a_random_slice():
    rng = np.random.default_rng(4)
    sets = np.array([np.sort(rng.permutation(52)[:7]) for _ in range(3000)])
    cats = [category_of(s) for s in best_strengths("holdem", sets[:, :2], sets[:, 2:])]
    assert cats == [read_hand_plain("holdem", s[:2].tolist(), s[2:].tolist()).category for s in sets]


@njit
def _every_seven(combos, out):
    cards = np.empty(7, np.int64)
    for a in range(46):
        cards[0] = a
        for b in range(a + 1, 47):
            cards[1] = b
            for c in range(b + 1, 48):
                cards[2] = c
                for d in range(c + 1, 49):
                    cards[3] = d
                    for e in range(d + 1, 50):
                        cards[4] = e
                        for f in range(e + 1, 51):
                            cards[5] = f
                            for g in range(f + 1, 52):
                                cards[6] = g
                                s = best_of_combos_kernel(cards, combos)[0]
                                cat = s >> 20
                                if cat == 8 and (s >> 16) & 15 == 12:
                                    cat = 9
                                out[cat] += 1


@pytest.mark.slow
def test_holdem_census_equals_the_reading_kernel_on_every_seven_card_set():
    """All 133,784,560 sets read by the reading kernel (best of 21 five-card hands each)."""
    out = np.zeros(10, np.int64)
    _every_seven(combos_table("holdem", 2, 5), out)
    assert out.tolist() == holdem_census().tolist()


# --------------------------------------------------------------------------- Omaha
def test_canonical_boards_are_the_suit_classes():
    boards, weights = canonical_boards()
    assert len(boards) == 134_459 and int(weights.sum()) == comb(52, 5)
    ranks = [8, 9, 10, 11, 12]
    b, w = canonical_boards(ranks)
    plain = canonical_boards_plain(ranks)
    assert sorted(w.tolist()) == sorted(plain.values()) and int(w.sum()) == comb(20, 5)
    # each representative lies in the plain twin's class of the same size
    from itertools import permutations

    for board, weight in zip(b.tolist(), w.tolist()):
        canon = min(tuple(sorted((c & ~3) | p[c & 3] for c in board)) for p in permutations(range(4)))
        assert plain[canon] == weight


@pytest.mark.parametrize("game", ["omaha", "omaha5", "omaha3"])
def test_board_kernel_equals_plain_twin_on_a_small_deck(game):
    ranks = [3, 9, 10, 11, 12]  # 20 cards: the plain twin reads every hole set of the other 15
    boards, _ = canonical_boards(ranks)
    rng = np.random.default_rng(5)
    picks = rng.choice(len(boards), 1, replace=False)
    got = board_histograms(game, boards[picks], ranks)
    for row, i in zip(got, picks):
        assert row.tolist() == board_histogram_plain(game, boards[i].tolist(), ranks).tolist()


@pytest.mark.parametrize("game", ["omaha", "omaha3"])
def test_board_kernel_equals_brute_force_on_full_deck_boards(game):
    """Every hole set of a board, read one by one with the reading kernel."""
    from itertools import combinations

    boards, _ = canonical_boards()
    rng = np.random.default_rng(9)
    for i in rng.choice(len(boards), 1, replace=False):
        board = boards[i]
        rest = [c for c in deck_of().tolist() if c not in set(board.tolist())]
        holes = np.array(list(combinations(rest, 4)), dtype=np.int64)
        cats = deal_categories(game, np.concatenate([holes, np.tile(board, (len(holes), 1))], axis=1))
        assert board_histograms(game, board[None, :])[0].tolist() == np.bincount(cats, minlength=10).tolist()


def test_suit_permuted_boards_have_equal_histograms():
    board = np.array([[0, 5, 10, 20, 30]])
    perm = [2, 0, 3, 1]
    image = np.array([[(c & ~3) | perm[c & 3] for c in board[0]]])
    assert board_histograms("omaha5", board).tolist() == board_histograms("omaha5", image).tolist()


def test_omaha_census_of_a_small_deck_equals_direct_enumeration():
    """Every deal of a 20-card deck (five ranks): the weighted canonical boards equal all boards."""
    from itertools import combinations

    ranks = [0, 1, 2, 3, 12]
    deck = deck_of(ranks).tolist()
    all_boards = np.array(list(combinations(deck, 5)), dtype=np.int64)
    direct = board_histograms("omaha3", all_boards, ranks).sum(axis=0)
    assert omaha_census("omaha3", ranks).tolist() == direct.tolist()
    assert int(direct.sum()) == comb(20, 5) * comb(15, 4)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["omaha", "omaha5", "omaha3"])
def test_exact_omaha_census_within_the_estimate(game):
    """The exact census of every deal lies in the 99.9% band of a seeded 10^7-deal estimate."""
    exact = omaha_census(game)
    assert int(exact.sum()) == deals_in_game(game)
    est = game_census(game, "estimate", 10_000_000, 3)
    for c in BEST_FIRST:
        name = CATEGORY_NAMES[c]
        lo, hi = wilson(est.counts[name], est.hands, z=3.29)
        assert lo <= exact[c] / exact.sum() <= hi, (game, name)


# --------------------------------------------------------------------------- estimate
def test_shuffle_kernel_equals_plain_twin():
    from poker51.rulebook.estimate import partial_shuffle_kernel, partial_shuffle_plain

    u = np.random.default_rng(6).random((500, 10))
    u[0] = np.nextafter(1.0, 0.0)  # the largest float below 1 picks the last card
    out = np.empty((500, 10), np.int64)
    partial_shuffle_kernel(u, out)
    assert out.tolist() == partial_shuffle_plain(u)


def test_sampled_deals_are_distinct_cards_and_reproducible():
    a = sample_deals("omaha5", 2000, 3, 0)
    assert a.shape == (2000, 10) and all(len(set(r)) == 10 for r in a.tolist())
    assert np.array_equal(a, sample_deals("omaha5", 2000, 3, 0)) and not np.array_equal(
        a, sample_deals("omaha5", 2000, 3, 1)
    )


@pytest.mark.parametrize("game", ["holdem", "omaha", "omaha5", "omaha3"])
def test_deal_category_kernel_equals_plain_twin(game):
    d = sample_deals(game, 600, 8, 0)
    h = d.shape[1] - 5
    assert deal_categories(game, d).tolist() == [read_hand_plain(game, r[:h], r[h:]).category for r in d.tolist()]


def test_estimate_is_seeded_and_its_interval_covers_holdem():
    a = game_census("holdem", "estimate", 300_000, 5)
    assert a == game_census("holdem", "estimate", 300_000, 5)
    exact = holdem_census()
    for c in BEST_FIRST:
        lo, hi = a.ci95[CATEGORY_NAMES[c]]
        assert lo <= exact[c] / exact.sum() <= hi or c == 9  # royal: a handful of hits


# --------------------------------------------------------------------------- CLI
def test_census_game_json_exact(capsys):
    assert main(["census", "--game", "holdem", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["game"] == "holdem" and got["hands"] == 133_784_560 and got["exact"] is True
    assert list(got["counts"]) == [CATEGORY_NAMES[c] for c in BEST_FIRST]
    assert got["counts"]["royal_flush"] == 4324 and got["counts"]["straight_flush"] == 37260 and "ci95" not in got


def test_census_game_json_estimate(capsys):
    assert main(["census", "--game", "omaha3", "--samples", "5000", "--seed", "2", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["exact"] is False and got["hands"] == 5000 and sum(got["counts"].values()) == 5000
    assert set(got["ci95"]) == set(got["counts"]) and all(lo <= hi for lo, hi in got["ci95"].values())


def test_census_game_text(capsys):
    assert main(["census", "--game", "omaha", "--samples", "3000"]) == 0
    out = capsys.readouterr().out
    assert "estimate from 3,000 seeded deals" in out and "royal_flush" in out


def test_census_keeps_its_deck_behaviour(capsys):
    assert main(["census", "--deck", "standard", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["hands"] == comb(51, 5)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--game", "stud"], "no census for game 'stud'"),
        (["--game", "omaha_open"], "no census for game"),
        (["--game", "holdem", "--deck", "wild"], "--game counts a rule book game"),
        (["--game", "omaha", "--samples", "0"], "--samples 0"),
        (["--game", "omaha", "--seed", "3"], "--seed goes with --samples"),
        (["--game", "omaha", "--samples", "10", "--seed", "-1"], "--seed -1"),
        (["--deck", "wild", "--samples", "10"], "--samples and --seed go with --game"),
    ],
)
def test_census_game_bad_input_exits_2(argv, needle, capsys):
    assert main(["census", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("poker51 census: error:") and err.count("\n") == 1 and needle in err


def test_census_help_mentions_game(capsys):
    assert main(["census", "--help"]) == 0
    assert "--game" in capsys.readouterr().out
