"""3 Sets (7.6) and the Random rotation (7.7)."""

from collections import Counter

import numpy as np
import pytest
from rb_helpers import deck, play, table

from poker51.cards import parse_cards
from poker51.rulebook.games import RANDOM_GAMES
from poker51.rulebook.hand import RuleError
from poker51.rulebook.table import Table, draw_game
from poker51.table.deal import new_seed

HOLES = ["As Ad 8s 8d Kc Kd", "2h 3h 7c 7s Jc Jd", "Jh Th 9c 8h 4d 5d"]  # b, c, a
BOARDS = ["Ah Kh Qh 2c 3d", "9s 9d 5c 6c 7h", "Ks Qd 4h 8c Td"]


def sets(text):
    return [parse_cards(x) for x in text.split("|")]


def to_laying(stacks=(100, 100, 100), holes=HOLES, boards=BOARDS):
    t = table("three_sets", list(stacks))
    t.start_hand(deck=deck("three_sets", holes, boards))
    while t.hand.phase == "bet":
        t.act(t.waiting_for, "check" if "check" in t.hand.legal() else "call")
    return t


def test_three_sets_antes_three_flops_at_once_no_burns_and_a_laying_before_the_last_round():
    t = table("three_sets", [100, 100, 100])
    h = t.start_hand(deck=deck("three_sets", HOLES, BOARDS))
    assert [p.contrib for p in h.players] == [2, 2, 2] and all(len(p.hole) == 6 for p in h.players)
    assert h.round_name == "flop" and [len(b) for b in h.boards] == [3, 3, 3] and h.burns == []
    play(t, [(n, "check") for n in "bca"] * 3)
    assert h.phase == "lay" and [len(b) for b in h.boards] == [5, 5, 5] and h.dealt == 18 + 15
    play(t, [("b", "lay", sets("As Ad|8s 8d|Kc Kd")), ("a", "lay", sets("Jh Th|9c 8h|4d 5d"))])
    assert h.phase == "lay"  # layings are secret until everyone has laid
    play(t, [("c", "lay", sets("2h 3h|7c 7s|Jc Jd"))])
    assert h.phase == "bet" and h.round_name == "final"  # one more betting round


def test_a_point_per_set_and_equal_most_points_split_the_pot():
    t = to_laying()
    play(t, [("b", "lay", sets("As Ad|8s 8d|Kc Kd")), ("c", "lay", sets("2h 3h|7c 7s|Jc Jd"))])
    play(t, [("a", "lay", sets("Jh Th|9c 8h|4d 5d"))] + [(n, "check") for n in "bca"])
    rec = t.finish()
    # A: a's royal flush; B: c's sevens full; C: b's kings: one point each, the pot split three ways
    assert rec["pots"][0]["winners"] == ["b", "c", "a"] and rec["pots"][0]["shares"] == {"b": 2, "c": 2, "a": 2}


def test_the_most_points_take_the_pot():
    t = to_laying()
    play(t, [("b", "lay", sets("Kc Kd|8s 8d|As Ad")), ("c", "lay", sets("2h 3h|7c 7s|Jc Jd"))])
    play(t, [("a", "lay", sets("4d 5d|9c 8h|Jh Th"))] + [(n, "check") for n in "bca"])
    rec = t.finish()
    # A: c's heart flush beats a's wheel and b's kings; B: c's sevens full; C: b's aces: c has two
    assert rec["pots"][0]["winners"] == ["c"] and rec["pots"][0]["shares"] == {"c": 6}


def test_tied_set_winners_share_the_point():
    holes = ["7c 6c 9c 9d 5s 5d", "7d 6d 8s 8c 4s 4d", "4h 5h Jc Jh Ac Ad"]  # b, c, a
    boards = ["Ks Kh Kd 2c 3d", "9s 9h 4c Jd Qc", "As Ah 8d Th 3s"]
    t = to_laying(holes=holes, boards=boards)
    play(t, [("b", "lay", sets("7c 6c|9c 9d|5s 5d")), ("c", "lay", sets("7d 6d|8s 8c|4s 4d"))])
    play(t, [("a", "lay", sets("4h 5h|Jc Jh|Ac Ad"))] + [(n, "check") for n in "bca"])
    rec = t.finish()
    # A: b and c tie with kings over 7 6 (half a point each); B: b's four nines; C: a's four aces.
    # b has 1.5 points, a 1, c 0.5: b takes the pot alone (a whole point for a tie would tie b and a)
    assert rec["pots"][0]["winners"] == ["b"]


def test_a_pot_a_player_could_not_match_is_judged_again_among_those_who_could():
    t = to_laying(stacks=(100, 100, 2))  # c antes its last 2 chips: all in
    play(t, [("b", "lay", sets("As Ad|8s 8d|Kc Kd")), ("c", "lay", sets("2h 3h|7c 7s|Jc Jd"))])
    play(t, [("a", "lay", sets("Jh Th|9c 8h|4d 5d")), ("b", "bet", 10), ("a", "call")])
    rec = t.finish()
    main, side = rec["pots"]
    assert (main["amount"], main["winners"]) == (6, ["b", "c", "a"])  # one point each among three
    # between a and b only: A a's royal flush, B a's straight beats b's two pair, C b's kings
    assert (side["amount"], side["eligible"], side["winners"]) == (20, ["a", "b"], ["a"])


def test_a_laying_must_place_all_six_cards_once():
    t = to_laying()
    a_s, a_d, e_s, e_d, k_c = parse_cards("As Ad 8s 8d Kc")
    with pytest.raises(RuleError) as exc:
        t.act("b", "lay", [[a_s, a_d], [e_s, e_d], [k_c, k_c]])
    assert exc.value.article == "7.6" and "twice" in str(exc.value)
    with pytest.raises(RuleError) as exc:
        t.act("b", "lay", sets("As Ad|8s 8d|Kc Qs"))
    assert exc.value.article == "7.6" and "Qs" in str(exc.value)
    with pytest.raises(RuleError) as exc:
        t.act("b", "lay", sets("As Ad|8s 8d"))
    assert exc.value.article == "7.6"


def test_a_player_who_does_not_lay_in_time_lays_one_two_three_four_five_six():
    t = to_laying()
    t.act("b", "timeout")
    assert t.hand.by_seat[1].laid == ((51, 49), (27, 25), (44, 45))  # As Ad | 8s 8d | Kc Kd in deal order
    assert t.hand.events[-1]["timeout"] is True


# --------------------------------------------------------------------------- Random
def test_random_changes_game_every_three_hands_never_to_the_one_just_played():
    rng = np.random.default_rng(0)
    t = Table("random", 2, [(0, "a", 500), (1, "b", 500), (2, "c", 500)])
    games = []
    for k in range(1, 31):
        rot = new_seed("seedsequence", 5, key=(1, k)) if (k - 1) % 3 == 0 else None
        t.start_hand(seed=new_seed("seedsequence", 5, key=(0, k)), rotation_seed=rot)
        games.append(t.hand.game.name)
        while t.waiting_for is not None:
            if t.hand.phase == "lay":
                for p in t.hand.live():
                    if p.laid is None:
                        t.act(p.name, "timeout")
                continue
            if t.hand.phase != "bet":
                t.act(t.waiting_for, "show")
            elif "check" in t.hand.legal():
                t.act(t.waiting_for, "check")
            else:
                t.act(t.waiting_for, "fold" if rng.random() < 0.5 else "call")
        rec = t.finish()
        assert rec["block_hand"] == (k - 1) % 3 + 1
    blocks = [games[i : i + 3] for i in range(0, 30, 3)]
    assert all(len(set(b)) == 1 for b in blocks) and set(games) <= set(RANDOM_GAMES)
    assert all(blocks[i][0] != blocks[i + 1][0] for i in range(9))


def test_random_draw_is_uniform_over_the_other_games():
    counts = Counter(draw_game(new_seed("seedsequence", 1, key=(k,)), "omaha")[0] for k in range(4000))
    assert set(counts) == {"omaha5", "omaha3", "omaha_open", "three_sets"}
    assert all(860 <= v <= 1140 for v in counts.values())  # 1000 each, within 5 standard deviations (27.4)


def test_random_block_needs_its_committed_seed_and_seats_six():
    t = Table("random", 2, [(0, "a", 50), (1, "b", 50)])
    with pytest.raises(Exception, match="committed seed"):
        t.start_hand(seed=bytes(32))
    with pytest.raises(Exception, match="seats 0..5"):
        Table("random", 2, [(s, f"p{s}", 50) for s in range(7)])
