"""The betting law of one round (rule card v1, A hand 2-3): opens, raises, the cap, all-ins."""

from __future__ import annotations

import pytest

from poker51.multi.law import BettingRound, IllegalAction, Move, turn_order


def rnd(stacks: dict[int, int], order: tuple[int, ...] | None = None) -> BettingRound:
    order = order or tuple(sorted(stacks))
    return BettingRound("pre", order, dict(stacks), set(order))


def legal(r: BettingRound, seat: int) -> list[str]:
    return [str(m) for m in r.legal(seat)]


def test_turn_order_starts_after_the_button_and_wraps():
    assert turn_order([0, 1, 2, 3, 4], button=2) == (3, 4, 0, 1, 2)
    assert turn_order([0, 4], button=4) == (0, 4)
    assert turn_order([1, 3], button=0) == (1, 3)


def test_opens_are_1_2_4_8_and_all_in_below_8_when_not_a_size():
    r = rnd({0: 1500, 1: 1500})
    assert legal(r, 0) == ["check", "open 100", "open 200", "open 400", "open 800"]
    r = rnd({0: 350, 1: 1500})
    assert legal(r, 0) == ["check", "open 100", "open 200", "open 350 all in"]
    r = rnd({0: 400, 1: 1500})  # holding exactly 4: open 4 is the all-in, no other
    assert legal(r, 0) == ["check", "open 100", "open 200", "open 400 all in"]
    r = rnd({0: 1200, 1: 1500})
    with pytest.raises(IllegalAction, match="less than 8 jbits"):
        r.move(0, "allin", all_in=True)
    with pytest.raises(IllegalAction, match="open 1, 2, 4 or 8"):
        r.move(0, "open", 300)
    r = rnd({0: 50, 1: 1500})  # half a jbit behind: all in is the only open
    assert legal(r, 0) == ["check", "open 50 all in"]


def test_raise_is_by_the_opening_amount_and_at_most_two_a_round():
    r = rnd({0: 5000, 1: 5000, 2: 5000, 3: 5000})
    r.apply(0, r.move(0, "open", 400))
    assert legal(r, 1) == ["fold", "call 400", "raise 800"]
    r.apply(1, r.move(1, "raise"))
    assert r.level == 800 and r.raises == 1
    r.apply(2, r.move(2, "raise"))
    assert r.level == 1200 and r.raises == 2
    assert legal(r, 3) == ["fold", "call 1200"]
    with pytest.raises(IllegalAction, match="at most two raises in a round"):
        r.move(3, "raise")
    r.apply(3, r.move(3, "call"))
    with pytest.raises(IllegalAction, match="at most two raises"):
        r.move(0, "raise")
    for s in (0, 1):
        r.apply(s, r.move(s, "call"))
    assert r.over and r.bet == {0: 1200, 1: 1200, 2: 1200, 3: 1200}


def test_a_call_that_cannot_be_covered_is_all_in_for_less():
    r = rnd({0: 1500, 1: 150, 2: 1500})
    r.apply(0, r.move(0, "open", 400))
    m = r.move(1, "call")
    assert m == Move("call", 150, True)
    r.apply(1, m)
    assert r.stack[1] == 0 and r.bet[1] == 150 and r.level == 400
    r.apply(2, r.move(2, "call"))
    assert r.over  # the all-in player no longer acts


def test_an_incomplete_all_in_raise_lets_the_others_call_or_fold_only():
    r = rnd({0: 1500, 1: 550, 2: 1500, 3: 1500})
    r.apply(0, r.move(0, "open", 400))
    with pytest.raises(IllegalAction, match="by the opening amount"):
        r.move(1, "raise")  # 550 < 400 to call + 400
    m = r.move(1, "allin", all_in=True)
    assert m.kind == "raise" and m.amount == 550 and m.incomplete
    r.apply(1, m)
    assert r.closed and r.raises == 1 and r.level == 550
    assert legal(r, 2) == ["fold", "call 550"]  # not even a player who has not acted yet may raise
    with pytest.raises(IllegalAction, match="lets the others call or fold"):
        r.move(2, "raise")
    r.apply(2, r.move(2, "call"))
    assert legal(r, 3) == ["fold", "call 550"]
    r.apply(3, r.move(3, "fold"))
    assert legal(r, 0) == ["fold", "call 150"]  # the opener too
    r.apply(0, r.move(0, "call"))
    assert r.over


def test_a_complete_all_in_raise_keeps_raising_open():
    r = rnd({0: 1500, 1: 800, 2: 1500})
    r.apply(0, r.move(0, "open", 400))
    m = r.move(1, "allin", all_in=True)
    assert m == Move("raise", 800, True, False)
    r.apply(1, m)
    assert not r.closed and legal(r, 2) == ["fold", "call 800", "raise 1200"]


def test_all_in_above_a_full_raise_is_illegal():
    r = rnd({0: 1500, 1: 1500})
    r.apply(0, r.move(0, "open", 100))
    with pytest.raises(IllegalAction, match="more than a raise"):
        r.move(1, "allin", all_in=True)


def test_check_and_call_need_the_right_spot_and_turn():
    r = rnd({0: 1500, 1: 1500, 2: 1500})
    with pytest.raises(IllegalAction, match="call or fold only facing a bet"):
        r.move(0, "call")
    with pytest.raises(IllegalAction, match="in turn"):
        r.move(1, "check")
    r.apply(0, r.move(0, "open", 200))
    with pytest.raises(IllegalAction, match="200 cents to call"):
        r.move(1, "check")
    with pytest.raises(IllegalAction, match="one opening bet"):
        r.move(1, "open", 400)


def test_no_bet_without_someone_to_answer_and_skipped_rounds():
    r = rnd({0: 0, 1: 1500, 2: 0})  # only one player with chips: no decision at all
    assert r.over
    r = rnd({0: 300, 1: 1500})
    r.apply(0, r.move(0, "allin", all_in=True))
    assert legal(r, 1) == ["fold", "call 300"]  # the all-in opener cannot answer a raise


def test_fold_out_passes_the_turn_and_timeouts_check_or_fold():
    r = rnd({0: 1500, 1: 1500, 2: 1500})
    assert r.timeout_move(0) == Move("check")
    r.apply(0, r.move(0, "open", 200))
    assert r.timeout_move(1) == Move("fold")
    r.fold_out(1)
    assert r.turn == 2
    r.fold_out(0)  # the opener leaves: seat 2 is the last one in (the hand ends there)
    assert r.live == {2}
