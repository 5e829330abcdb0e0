"""The betting law, rule by rule (Articles I-V, VIII, X): one test per rule, exact chips."""

import pytest
from rb_helpers import deck, play, table

from poker51.rulebook.hand import RuleError
from poker51.rulebook.showdown import rake_of

HOLES3 = ["As Ks", "7d 2c", "Qh Qd"]  # b (small blind), c (big blind), a (button)
BOARD = "Ah 9s 4c 8d 3h"


def start(stacks, holes=HOLES3, board=BOARD, game="holdem", **kw):
    t = table(game, stacks, **kw)
    t.start_hand(deck=deck(game, holes, board))
    return t


def rule(exc) -> str:
    return exc.value.article


# --------------------------------------------------------------------------- Article I
def test_blinds_left_of_the_button_posted_before_any_card_and_live():
    t = start([100, 100, 100])
    h = t.hand
    assert [e["event"] for e in h.events[:3]] == ["small_blind", "big_blind", "hole"]  # 1.3: before any card
    assert (h.by_seat[1].contrib, h.by_seat[2].contrib, h.by_seat[0].contrib) == (1, 2, 0)  # 1.4: half
    assert t.waiting_for == "a" and h.legal() == {"fold": True, "call": 2, "raise": (4, 100), "allin": True}
    play(t, [("a", "call"), ("b", "call")])
    # 1.5: nobody raised, the big blind may check or raise (its blind counts as its bet)
    assert t.waiting_for == "c" and set(h.legal()) == {"fold", "check", "raise", "allin"}
    play(t, [("c", "check")])
    assert h.round_name == "flop" and sum(p.contrib for p in h.players) == 6


def test_heads_up_the_seat_left_of_the_button_posts_the_small_blind_and_acts_first():
    t = start([50, 50], holes=["As Ks", "7d 2c"])
    h = t.hand
    assert (h.by_seat[1].contrib, h.by_seat[0].contrib) == (1, 2)  # 1.3 read literally: b small, a (button) big
    assert t.waiting_for == "b"
    play(t, [("b", "call"), ("a", "check")])
    assert h.round_name == "flop" and t.waiting_for == "b"  # first to the left of the button after the flop


def test_a_short_blind_is_all_in_for_what_it_has():
    t = start([100, 100, 1])
    h = t.hand
    assert h.by_seat[2].contrib == 1 and h.by_seat[2].all_in  # 1.6
    assert h.legal()["call"] == 1 and h.legal()["raise"][0] == 3  # owed: the largest bet posted; raise by a blind


def test_sit_out_deals_the_player_out_keeping_seat_and_chips():
    t = table("holdem", [100, 100, 100])
    t.table_action("b", "sit_out")
    h = t.start_hand(deck=deck("holdem", ["As Ks", "Qh Qd"], BOARD))
    assert [p.name for p in h.players] == ["c", "a"] and t.seats[1].stack == 100  # 1.7
    play(t, [("c", "fold")])
    t.finish()
    t.table_action("b", "sit_in")
    assert t.button == 1  # the button moved to b's seat
    assert [p.name for p in t.start_hand(deck=deck("holdem", HOLES3, BOARD)).players] == ["c", "a", "b"]


def test_chips_added_during_a_hand_arrive_at_the_next_deal():
    t = start([100, 100, 100])
    t.table_action("a", "add", 50)
    assert t.hand.by_seat[0].stack == 100  # 1.9: not mid-hand
    play(t, [("a", "fold"), ("b", "fold")])
    assert t.finish()["stacks"]["a"] == 100 and t.seats[0].stack == 100 and t.seats[0].pending == 50
    h = t.start_hand(deck=deck("holdem", HOLES3, BOARD))
    assert {p.name: p.stack + p.contrib for p in h.players}["a"] == 150


def test_button_moves_one_occupied_seat_left_after_every_hand():
    t = start([100, 100, 100])
    play(t, [("a", "fold"), ("b", "fold")])
    assert t.finish()["button"] == "a" and t.button == 1
    t.table_action("c", "leave")
    assert t.button == 1
    t.start_hand(deck=deck("holdem", HOLES3[:2], BOARD))
    play(t, [("a", "fold")])
    t.finish()
    assert t.button == 0 and "c" in t.balances  # 1.8: the leaver's chips to its balance


# --------------------------------------------------------------------------- Article II
def test_streets_burns_and_rounds_in_order():
    t = start([100, 100, 100])
    play(t, [("a", "call"), ("b", "call"), ("c", "check")] + [(n, "check") for n in "bca" for _ in range(1)] * 3)
    rec = t.finish()
    ev = [e for e in rec["events"] if e["event"] in ("round", "board")]
    assert [e.get("round", e.get("street")) for e in ev] == [
        "preflop",
        "flop",
        "flop",
        "turn",
        "turn",
        "river",
        "river",
    ]
    assert rec["boards"] == [BOARD.split()] and len(rec["burns"]) == 3 and rec["cards_dealt"] == 6 + 8  # 2.3, 2.4
    assert not set(rec["burns"]) & set(BOARD.split())


def test_the_hand_ends_at_once_with_one_player_left():
    t = start([100, 100, 100])
    play(t, [("a", "raise", 6), ("b", "fold"), ("c", "fold")])
    rec = t.finish()
    assert rec["boards"] == [[]] and rec["burns"] == [] and rec["shows"] == []  # 2.5: no cards shown or dealt
    assert rec["cards_dealt"] == 6 and rec["payouts"] == {"a": 5} and rec["returned"] == {"a": 4} and rec["rake"] == 0


def test_open_flop_antes_the_big_blind_deals_the_flop_at_once_and_skips_the_preflop_round():
    t = start([50, 50, 50], holes=["As Ks Qs Js", "7d 2c 3c 4c", "Qh Qd 9h 9d"], game="omaha_open")
    h = t.hand
    assert [e["event"] for e in h.events[:3]] == ["ante"] * 3 and all(p.contrib == 2 for p in h.players)
    assert h.round_name == "flop" and len(h.boards[0]) == 3 and len(h.burns) == 1
    assert "bet" in h.legal() and t.waiting_for == "b"  # antes are not bets: nobody has bet this round


# --------------------------------------------------------------------------- Article III
def test_check_and_call_are_never_both_offered():
    t = start([100, 100, 100])
    h = t.hand
    for script in ([], [("a", "call")], [("b", "call")], [("c", "check")], [("b", "bet", 4)]):
        play(t, script)
        legal = h.legal()
        assert ("check" in legal) != ("call" in legal)  # 3.2
    with pytest.raises(RuleError) as exc:
        t.act("c", "check")
    assert rule(exc) == "3.2"


def test_call_when_owing_nothing_breaks_3_2():
    t = start([100, 100, 100])
    play(t, [("a", "call"), ("b", "call")])
    with pytest.raises(RuleError) as exc:
        t.act("c", "call")
    assert rule(exc) == "3.2" and "owes nothing" in str(exc.value)


def test_bet_only_when_nobody_has_bet_raise_only_when_somebody_has():
    t = start([100, 100, 100])
    with pytest.raises(RuleError) as exc:
        t.act("a", "bet", 6)  # the blinds are bets (1.5)
    assert rule(exc) == "3.3"
    play(t, [("a", "call"), ("b", "call"), ("c", "check")])
    with pytest.raises(RuleError) as exc:
        t.act("b", "raise", 6)
    assert rule(exc) == "3.3"


def test_smallest_bet_one_big_blind_smallest_raise_the_last_raise():
    t = start([100, 100, 100], bb=4)
    play(t, [("a", "raise", 12)])  # a raise of 8
    with pytest.raises(RuleError) as exc:
        t.act("b", "raise", 19)  # 7 more: less than the last raise
    assert rule(exc) == "3.4" and "raise is to 20" in str(exc.value)
    play(t, [("b", "raise", 20), ("c", "call"), ("a", "call")])
    with pytest.raises(RuleError) as exc:
        t.act("b", "bet", 3)
    assert rule(exc) == "3.4" and "one big blind 4" in str(exc.value)


def test_an_all_in_for_less_than_a_full_raise_does_not_reopen_the_betting():
    t = start([100, 100, 13])
    play(t, [("a", "raise", 10), ("b", "call"), ("c", "allin")])  # c: 13, three more than 10 (a raise needs 8)
    h = t.hand
    assert t.waiting_for == "a" and "raise" not in h.legal() and h.legal()["call"] == 3
    with pytest.raises(RuleError) as exc:
        t.act("a", "raise", 30)
    assert rule(exc) == "3.5"
    play(t, [("a", "call"), ("b", "call")])
    assert h.round_name == "flop"


def test_a_full_all_in_raise_reopens_the_betting():
    t = start([100, 100, 20])
    play(t, [("a", "raise", 10), ("b", "call"), ("c", "allin")])  # 20: ten more, a full raise
    assert "raise" in t.hand.legal() and t.hand.legal()["raise"][0] == 30


def test_no_bet_beyond_the_stack_and_a_short_call_is_all_in():
    t = start([100, 100, 5])
    with pytest.raises(RuleError) as exc:
        t.act("a", "raise", 101)
    assert rule(exc) == "3.6"
    play(t, [("a", "raise", 10), ("b", "fold"), ("c", "call")])
    assert t.hand.by_seat[2].all_in and t.hand.by_seat[2].contrib == 5


def test_everyone_all_in_runs_the_board_out_and_uncalled_chips_come_back():
    t = start([100, 100, 30])
    play(t, [("a", "allin"), ("b", "fold"), ("c", "allin")])
    rec = t.finish()
    assert [e["round"] for e in rec["events"] if e["event"] == "round"] == ["preflop"]  # 3.8: no more betting
    assert rec["boards"] == [BOARD.split()] and rec["returned"] == {"a": 70}  # 3.9
    # c (seat 2) holds 7d 2c, a (seat 0) holds Qh Qd: a wins 30 + 30 + b's blind 1, less the rake
    assert rec["pots"] == [
        {"amount": 61, "eligible": ["a", "c"], "winners": ["a"], "rake": 3, "shares": {"a": 58}}
    ] and rec["stacks"] == {"b": 99, "c": 0, "a": 128}


def test_acting_out_of_turn_breaks_3_1():
    t = start([100, 100, 100])
    with pytest.raises(RuleError) as exc:
        t.act("b", "call")
    assert rule(exc) == "3.1" and "a's turn" in str(exc.value)


# --------------------------------------------------------------------------- Articles IV, V
def test_three_all_ins_make_side_pots_settled_smallest_first():
    holes = ["2c 2d", "3c 3d", "4c 4d", "Ah Kd"]  # b 10, c 30, d 60, a 100 (button a)
    t = table("holdem", [100, 10, 30, 60])
    t.start_hand(deck=deck("holdem", holes, "As Ks 7h 8h 9c"))
    with pytest.raises(RuleError):  # nobody could answer a raise over d's 60: a calls
        t.act("a", "allin") if t.act("d", "allin") is None else None
    play(t, [("a", "call"), ("b", "allin"), ("c", "allin")])
    rec = t.finish()
    pots = [(p["amount"], p["eligible"], p["winners"]) for p in rec["pots"]]
    assert pots == [(40, ["a", "b", "c", "d"], ["a"]), (60, ["a", "c", "d"], ["a"]), (60, ["a", "d"], ["a"])]
    assert rec["returned"] == {} and [p["rake"] for p in rec["pots"]] == [2, 3, 3]  # 5% of each pot
    assert rec["conserved"] and sum(rec["stacks"].values()) + rec["rake"] == 200 and rec["stacks"]["a"] == 192


def test_a_player_wins_only_what_they_could_have_lost():
    holes = ["Ah Ad", "3c 3d", "4c 4d"]  # b has aces and 10 chips
    t = table("holdem", [100, 10, 100])
    t.start_hand(deck=deck("holdem", holes, "As 9s 7h 2d 5c"))
    play(t, [("a", "raise", 40), ("b", "allin"), ("c", "call")])
    play(t, [("c", "check"), ("a", "check")] * 3)
    rec = t.finish()
    assert rec["pots"][0]["winners"] == ["b"] and rec["pots"][0]["amount"] == 30  # 4.2: 10 from each
    assert rec["stacks"]["b"] == 30 - rec["pots"][0]["rake"]


def test_equal_hands_split_and_the_odd_chip_goes_left_of_the_button():
    holes = ["2c 3d", "2d 3c", "Ks 4h"]  # b and c play the board's straight; a folds on the flop
    t = table("holdem", [100, 100, 100], rake=False)
    t.start_hand(deck=deck("holdem", holes, "Th Jh Qs Kc Ad"))
    play(t, [("a", "raise", 5), ("b", "call"), ("c", "call"), ("b", "bet", 2), ("c", "call"), ("a", "fold")])
    play(t, [("b", "check"), ("c", "check")] * 2)
    rec = t.finish()
    # 5.6: 19 chips as evenly as possible, the odd chip to b, the first winner left of the button
    assert rec["pots"] == [
        {"amount": 19, "eligible": ["b", "c"], "winners": ["b", "c"], "rake": 0, "shares": {"b": 10, "c": 9}}
    ]


def test_showdown_order_last_river_aggressor_then_clockwise():
    t = start([100, 100, 100])
    play(t, [("a", "call"), ("b", "call"), ("c", "check")] + [("b", "check"), ("c", "check"), ("a", "check")] * 2)
    play(t, [("b", "check"), ("c", "bet", 4), ("a", "call"), ("b", "call")])
    assert [s for s in t.showdown.order] == [2, 0, 1]  # 5.2: c bet the river, then clockwise
    with pytest.raises(RuleError) as exc:
        t.act("a", "show")
    assert rule(exc) == "5.2"
    t2 = start([100, 100, 100])
    play(t2, [("a", "call"), ("b", "call"), ("c", "check")] + [("b", "check"), ("c", "check"), ("a", "check")] * 3)
    assert t2.showdown.order == [1, 2, 0]  # checked through: first left of the button


def test_muck_is_optional_recorded_and_never_leaves_a_pot_unclaimed():
    t = start([100, 100, 100])
    play(t, [("a", "call"), ("b", "call"), ("c", "check")] + [("b", "check"), ("c", "check"), ("a", "check")] * 3)
    play(t, [("b", "muck"), ("c", "muck")])
    with pytest.raises(RuleError) as exc:
        t.act("a", "muck")  # the last hand that can claim the pot
    assert rule(exc) == "5.3"
    play(t, [("a", "show")])
    rec = t.finish()
    assert [(s["player"], s["shown"], s["cards"]) for s in rec["shows"]] == [
        ("b", False, ["As", "Ks"]),  # 5.4: a mucked hand is still recorded
        ("c", False, ["7d", "2c"]),
        ("a", True, ["Qh", "Qd"]),
    ]
    assert rec["pots"][0]["winners"] == ["a"]  # b's aces were mucked: they cannot win


# --------------------------------------------------------------------------- Article X
def test_rake_five_per_cent_of_each_pot_capped_at_three_big_blinds_none_before_the_flop():
    assert [rake_of(a, 2, True) for a in (19, 20, 100, 120, 121, 10_000)] == [0, 1, 5, 6, 6, 6]
    assert rake_of(10_000, 2, False) == 0
    t = start([100, 100, 100])
    play(t, [("a", "raise", 10), ("b", "fold"), ("c", "fold")])
    assert t.finish()["rake"] == 0  # 10.3


# --------------------------------------------------------------------------- Article VIII
def test_timeout_checks_when_free_folds_when_owing_and_never_calls():
    t = start([100, 100, 100])
    play(t, [("a", "timeout")])  # owes 2: folds
    assert t.hand.by_seat[0].folded
    play(t, [("b", "call"), ("c", "timeout")])  # owes nothing: checks
    assert not t.hand.by_seat[2].folded and t.hand.round_name == "flop"
    assert [e["action"] for e in t.hand.events if e.get("timeout")] == ["fold", "check"]


def test_three_timeouts_in_a_row_sit_the_player_out():
    t = table("holdem", [100, 100, 100])
    count = 0
    for _ in range(2):
        t.start_hand(deck=deck("holdem", HOLES3, BOARD))
        while t.hand.phase == "bet":
            name = t.waiting_for
            if name == "a":
                t.act("a", "timeout")
                count += 1
                assert t.seats[0].sitting_out == (count >= 3)  # 8.3
            else:
                t.act(name, "call" if "call" in t.hand.legal() else "check")
        t.finish()
    assert count >= 3 and t.seats[0].sitting_out
    assert "a" not in [p.name for p in t.start_hand(deck=deck("holdem", HOLES3[:2], BOARD)).players]


def test_an_action_resets_the_timeout_count():
    t = start([100, 100, 100])
    play(t, [("a", "call"), ("b", "call"), ("c", "check"), ("b", "timeout"), ("c", "timeout"), ("a", "check")])
    play(t, [("b", "timeout"), ("c", "timeout"), ("a", "check"), ("b", "check")])
    assert (t.seats[1].timeouts, t.seats[2].timeouts, t.seats[0].timeouts) == (0, 2, 0)
    assert not t.seats[2].sitting_out


def test_a_choice_made_in_advance_is_played_only_if_legal():
    t = start([100, 100, 100])
    t.table_action("c", "advance", "check")
    play(t, [("a", "call"), ("b", "call")])  # c's check is legal now: played
    assert t.hand.round_name == "flop" and t.hand.events[-3]["advance"] == "check"
    t2 = start([100, 100, 100])
    t2.table_action("c", "advance", "check")
    play(t2, [("a", "raise", 6), ("b", "call")])  # c owes 4: the check is discarded, c acts itself
    assert t2.waiting_for == "c" and t2.hand.events[-1]["event"] == "advance_discarded"
    t2.table_action("a", "advance", "check_fold")
    play(t2, [("c", "raise", 20)])
    assert t2.hand.by_seat[0].folded  # check/fold folds when a bet is owed


def test_leaving_folds_at_once_and_the_chips_behind_go_to_the_balance():
    t = start([100, 100, 100])
    play(t, [("a", "call"), ("b", "leave")])  # b leaves: folded at once, its small blind stays in the pot
    assert t.hand.by_seat[1].folded and t.waiting_for == "c"
    play(t, [("c", "check")] + [("c", "check"), ("a", "check")] * 3)
    rec = t.finish()
    assert t.balances == {"b": 99} and 1 not in t.seats and rec["pots"][0]["amount"] == 5


def test_leaving_at_the_showdown_gives_up_the_pots():
    t = start([100, 100, 100])
    play(t, [("a", "call"), ("b", "call"), ("c", "check")] + [("b", "check"), ("c", "check"), ("a", "check")] * 3)
    play(t, [("b", "leave")])  # b (As Ks: a pair of aces) leaves before showing
    rec = t.finish()
    assert rec["pots"][0]["eligible"] == ["a", "c"] and rec["pots"][0]["winners"] == ["a"]
    assert t.balances == {"b": 98} and rec["conserved"]


def test_a_timeout_at_the_showdown_shows_the_hand():
    t = start([100, 100, 100])
    play(t, [("a", "call"), ("b", "call"), ("c", "check")] + [("b", "check"), ("c", "check"), ("a", "check")] * 3)
    play(t, [("b", "timeout"), ("c", "muck"), ("a", "timeout")])
    rec = t.finish()
    assert [(s["player"], s["shown"], s.get("timeout", False)) for s in rec["shows"]] == [
        ("b", True, True),
        ("c", False, False),
        ("a", True, True),
    ]
    assert rec["pots"][0]["winners"] == ["b"]  # b's aces, shown by the table
