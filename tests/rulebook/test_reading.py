"""Hand reading (Articles VI-VII): kernels against plain twins, PokerKit, and the ``hand`` command."""

import json
from itertools import combinations

import numpy as np
import pytest

from poker51.cards import all_hands, cards_str, parse_cards
from poker51.cli import main
from poker51.hands.evaluate import eval_cards_kernel, strengths
from poker51.rulebook.games import CATEGORY_NAMES, GAMES, READ_GAMES
from poker51.rulebook.reading import (
    best_strengths,
    category_of,
    combos_table,
    read_hand,
    read_hand_plain,
    set_strength,
    strength5_plain,
)

HOLE = {"holdem": 2, "omaha": 4, "omaha5": 5, "omaha3": 4, "omaha_open": 4}


def deals(game, n, seed, players=1):
    """``n`` seeded deals: ``players`` hole sets and one board, distinct cards."""
    rng = np.random.default_rng(seed)
    k = HOLE[game]
    out = []
    for _ in range(n):
        cards = rng.permutation(52)[: k * players + 5].tolist()
        out.append(([cards[i * k : (i + 1) * k] for i in range(players)], cards[-5:]))
    return out


def test_ten_categories_royal_flush_apart_and_counted_on_all_five_card_hands():
    s = strengths(all_hands(range(52))).astype(np.int64)
    cat = s >> 20
    cat[(cat == 8) & ((s >> 16) & 15 == 12)] = 9
    counts = np.bincount(cat, minlength=10)
    # every five-card hand once: the rule book's ten ranks, the royal flush its own
    assert counts.tolist() == [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 36, 4]
    assert CATEGORY_NAMES[9] == "royal_flush" and CATEGORY_NAMES[8] == "straight_flush"


def test_plain_five_card_strength_equals_the_kernel_on_every_hand_of_a_twenty_card_deck():
    deck = [4 * r + s for r in (0, 1, 2, 3, 8, 12) for s in range(4)][:20] + [44, 45]
    for five in combinations(sorted(deck), 5):
        assert strength5_plain(five) == eval_cards_kernel(*five)


@pytest.mark.parametrize(
    ("hand", "category"),
    [
        ("Ah 2c 3d 4s 5h", "straight"),  # 6.1 ace low
        ("Th Jc Qd Ks Ah", "straight"),  # ace high
        ("Qh Kc Ad 2s 3h", "high_card"),  # never in the middle
        ("Ts Js Qs Ks As", "royal_flush"),
        ("9s Ts Js Qs Ks", "straight_flush"),
    ],
)
def test_ace_high_or_low_never_in_the_middle(hand, category):
    assert CATEGORY_NAMES[category_of(strength5_plain(parse_cards(hand)))] == category


def test_suits_never_rank():
    a = read_hand("holdem", "As Kd", "2c 7h 9s Jd 4c")
    b = read_hand("holdem", "Ah Kc", "2d 7s 9h Jc 4d")
    assert a.strength == b.strength and a.category == b.category  # 6.3: equal hands are equal


@pytest.mark.parametrize("game", READ_GAMES)
def test_kernel_equals_plain_twin_on_seeded_hands(game):
    for (holes, board), _ in zip(deals(game, 600, 7), range(600)):
        assert read_hand(game, holes[0], board) == read_hand_plain(game, holes[0], board)


def test_combination_counts_follow_article_seven():
    assert [len(combos_table(g, HOLE[g], 5)) for g in ("holdem", "omaha", "omaha5", "omaha3")] == [21, 60, 100, 40]
    assert len(combos_table("three_sets", 2, 5)) == 10


def test_omaha_uses_exactly_two_and_omaha3_exactly_three_hole_cards():
    # four spades in the hand, three on the board: Omaha may use only two of the hand
    r = read_hand("omaha", "As Ks Qs Js", "2s 3s 4s 9d 8c")
    assert CATEGORY_NAMES[r.category] == "flush" and sum(c in parse_cards("As Ks Qs Js") for c in r.best) == 2
    # Omaha (3 Cards): three hole cards and exactly two board cards
    r = read_hand("omaha3", "2c 2d 2h 9s", "Ac Ad Ah As Kd")
    assert CATEGORY_NAMES[r.category] == "full_house" and cards_str(sorted(r.best)) == "2c 2d 2h Ac Ad"
    # Hold'em may play the board
    assert CATEGORY_NAMES[read_hand("holdem", "2c 3d", "Ah Kh Qh Jh Th").category] == "royal_flush"
    # Omaha may not: two hole cards are always used
    assert CATEGORY_NAMES[read_hand("omaha", "2c 3d 4s 7c", "Ah Kh Qh Jh Th").category] == "high_card"


def test_three_sets_a_set_is_its_two_laid_cards_with_three_of_its_board():
    board = parse_cards("Ah Kh Qh 2c 3d")
    assert set_strength(parse_cards("Jh Th"), board) >> 20 == 8  # royal flush reads as straight flush 8 ...
    assert category_of(set_strength(parse_cards("Jh Th"), board)) == 9  # ... with the royal flush apart
    assert category_of(set_strength(parse_cards("4c 5c"), board)) == 4  # A-2-3-4-5 uses both laid cards


@pytest.mark.parametrize("game", ["holdem", "omaha", "omaha5", "omaha3"])
def test_vectorised_strengths_equal_one_by_one(game):
    ds = deals(game, 300, 3)
    holes = np.array([h[0] for h, _ in ds])
    boards = np.array([b for _, b in ds])
    got = best_strengths(game, holes, boards)
    assert got.tolist() == [read_hand_plain(game, h[0], b).strength for h, b in ds]


# --------------------------------------------------------------------------- PokerKit
def pokerkit_winners(game, holes, board):
    pytest.importorskip("pokerkit")
    from pk_oracle import HAND_TYPES

    hand_type = HAND_TYPES[game]
    b = "".join(cards_str(board).split())
    hands = [hand_type.from_game("".join(cards_str(h).split()), b) for h in holes]
    best = max(hands)
    return [i for i, h in enumerate(hands) if h == best]


def showdowns_agree(game, n, seed):
    rng = np.random.default_rng(seed)
    splits = 0
    for k in range(n):
        players = int(rng.integers(2, 7 if HOLE[game] == 5 else 9 if game == "holdem" else 8))
        (holes, board) = deals(game, 1, seed * 1_000_003 + k, players)[0]
        s = [read_hand(game, h, board).strength for h in holes]
        ours = [i for i, v in enumerate(s) if v == max(s)]
        assert ours == pokerkit_winners(game, holes, board), (game, holes, board)
        splits += len(ours) > 1
    return splits


@pytest.mark.parametrize("game", READ_GAMES)
def test_showdowns_agree_with_pokerkit_slice(game):
    showdowns_agree(game, 80, 11)  # asserts every winner set


def test_pokerkit_ranks_every_five_card_hand_as_the_kernel_does():
    """All 2,598,960 five-card hands: PokerKit's order (pk_rank, one PokerKit call per class of
    ranks and flush) is the kernel's order, ties included."""
    pytest.importorskip("pokerkit")
    from pk_oracle import HAND_TYPES
    from pk_rank import colex_index, pokerkit_ranks

    hands = all_hands(range(52))
    ours = strengths(hands).astype(np.int64)
    theirs = pokerkit_ranks(HAND_TYPES["holdem"])[colex_index(hands)]
    order = np.lexsort((theirs, ours))
    assert (np.diff(ours[order]) >= 0).all()
    # sorted by our strength, PokerKit's rank never falls and changes exactly where ours does
    assert (np.diff(theirs[order]) >= 0).all()
    assert ((np.diff(ours[order]) > 0) == (np.diff(theirs[order]) > 0)).all()
    assert len(np.unique(theirs)) == len(np.unique(ours)) == 7462


MOST_PLAYERS = {"holdem": 8, "omaha5": 6}


def many_showdowns(game, n, seed):
    """``n`` seeded showdowns of 2 to 8 players (6 for five hole cards, 7 for four), grouped by
    the number of players: ``(holes (m, players, k), boards (m, 5))`` per group."""
    rng = np.random.default_rng(seed)
    k = HOLE[game]
    players = rng.integers(2, MOST_PLAYERS.get(game, 7) + 1, size=n)
    order = rng.random((n, 52)).argsort(axis=1)
    for p in np.unique(players):
        rows = order[players == p]
        yield rows[:, : k * p].reshape(-1, p, k), rows[:, k * p : k * p + 5]


@pytest.mark.parametrize("game", READ_GAMES)
def test_showdowns_agree_with_pokerkit_100000(game):
    """Every winner and split of 100,000 random showdowns per game agree with PokerKit: its
    five-card ranking and its hand type's combination rule (pk_rank), checked against PokerKit's
    own ``from_game`` on the first showdowns of every group."""
    pytest.importorskip("pokerkit")
    from pk_oracle import HAND_TYPES
    from pk_rank import pokerkit_best

    hand_type = HAND_TYPES[game]
    showdowns = splits = 0
    for holes, boards in many_showdowns(game, 100_000, 12):
        m, p, k = holes.shape
        flat_boards = np.repeat(boards, p, axis=0)
        ours = best_strengths(game, holes.reshape(-1, k), flat_boards).reshape(m, p)
        theirs = pokerkit_best(hand_type, holes.reshape(-1, k), flat_boards).reshape(m, p)
        won = ours == ours.max(axis=1, keepdims=True)
        pk_won = theirs == theirs.max(axis=1, keepdims=True)
        bad = np.flatnonzero((won != pk_won).any(axis=1))
        assert not len(bad), (game, holes[bad[0]].tolist(), boards[bad[0]].tolist())
        for i in range(12):  # the array oracle is PokerKit: its from_game on the same showdowns
            assert np.flatnonzero(pk_won[i]).tolist() == pokerkit_winners(game, holes[i].tolist(), boards[i].tolist())
        showdowns += m
        splits += int((won.sum(axis=1) > 1).sum())
    assert showdowns == 100_000
    assert splits > 0  # splits do occur and are read alike


def test_hand_command_json(capsys):
    assert main(["hand", "--game", "omaha3", "--hole", "As Ks Qs 2d", "--board", "Js,Ts,9h,3c,4d", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got == {
        "best": ["As", "Ks", "Qs", "Js", "Ts"],
        "category": "royal_flush",
        "strength": read_hand("omaha3", "As Ks Qs 2d", "Js Ts 9h 3c 4d").strength,
    }


def test_hand_command_text(capsys):
    assert main(["hand", "--game", "holdem", "--hole", "Ah Ad", "--board", "Ac As 2d 3c 9h"]) == 0
    out = capsys.readouterr().out
    assert "Texas Hold'em" in out and "four of a kind" in out


def test_hand_help(capsys):
    assert main(["hand", "--help"]) == 0
    assert "--game" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--game", "stud", "--hole", "As Kd", "--board", "2c 3c 4c 5c 6c"], "unknown game"),
        (["--game", "holdem", "--hole", "As Kd Qd", "--board", "2c 3c 4c 5c 6c"], "2 hole cards, got 3"),
        (["--game", "omaha", "--hole", "As Kd", "--board", "2c 3c 4c 5c 6c"], "4 hole cards, got 2"),
        (["--game", "holdem", "--hole", "As Kd", "--board", "2c 3c"], "board is 3, 4 or 5 cards"),
        (["--game", "holdem", "--hole", "As Kd", "--board", "As 3c 4c 5c 6c"], "As is given twice"),
        (["--game", "holdem", "--hole", "As As", "--board", "2c 3c 4c 5c 6c"], "As is given twice"),
        (["--game", "holdem", "--hole", "Zz Kd", "--board", "2c 3c 4c 5c 6c"], "unknown card"),
        (["--game", "three_sets", "--hole", "As Kd", "--board", "2c 3c 4c 5c 6c"], "unknown game"),
    ],
)
def test_hand_bad_input_exits_2_naming_it(argv, needle, capsys):
    assert main(["hand", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("poker51 hand: error:") and err.count("\n") == 1 and needle in err


def test_game_table_matches_article_seven():
    assert {g: (GAMES[g].hole, GAMES[g].use_hole) for g in GAMES} == {
        "holdem": (2, (0, 1, 2)),
        "omaha": (4, (2,)),
        "omaha5": (5, (2,)),
        "omaha3": (4, (3,)),
        "omaha_open": (4, (2,)),
        "three_sets": (6, (2,)),
    }
