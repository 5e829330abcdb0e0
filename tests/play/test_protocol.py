"""The heads-up engine as a game server drives it: actions as records, a hand resumed from
any prefix of its log, the state and each seat's view as JSON with cards as strings."""

from __future__ import annotations

import json

import pytest

from poker51.cards import parse_cards
from poker51.play.actions import RULE_LOCK, RULE_TURN, H, R
from poker51.play.engine import HandState, play_hand, replay, stacked_deck
from poker51.play.players import RandomPlayer, ScriptedPlayer
from poker51.table.errors import IllegalAction, LogError, ReplayError
from poker51.table.protocol import TableAction

DECK = stacked_deck("standard", parse_cards("Ah Ad Kc 7s 3d  Qh Qd 9c 6s 4h  As Jd 8c 5s 4c"))


def scripted():
    """The engine docstring's hand: H bets 2, R raises, H calls; both draw 3; H checks, R checks."""
    return play_hand(
        {"H": ScriptedPlayer(["bet 2", "call", "check"], keeps=[0b00011]),
         "R": ScriptedPlayer(["raise", "check"], keeps=[0b00011])},
        stacks={"H": 20, "R": 20}, deck=DECK,
    )  # fmt: skip


def test_the_docstring_hand_through_the_protocol_gives_the_same_log():
    state = HandState("standard", {"H": 20, "R": 20}, DECK)
    assert state.whose_turn() == H and len(state.legal_plays()) == 32 * 5  # check, bet 1 2 4 8, each keep
    for a in [
        TableAction.of(H, "bet", 2, keep=3),
        TableAction.of(R, "raise", 4),
        TableAction.of(H, "call", 2),
        TableAction.of(R, "draw", keep=3),
        TableAction.of(H, "check", 0),
        TableAction.of(R, "check", 0),
    ]:
        assert state.can_play(a), str(a)
        state.play(a)
    assert state.finished and state.whose_turn() is None and state.legal_plays() == []
    assert state.hand_log() == scripted().log


def test_illegal_plays_name_the_rule_and_change_nothing():
    state = HandState("standard", {"H": 20, "R": 20}, DECK)
    before = state.state_json()
    with pytest.raises(IllegalAction) as err:
        state.play(TableAction.of(R, "check", 0))
    assert err.value.rule == RULE_TURN and str(err.value) == f"'R' cannot check now: it is H's turn [{RULE_TURN}]"
    with pytest.raises(IllegalAction) as err:
        state.play(TableAction.of(H, "check", 0))
    assert err.value.rule == RULE_LOCK
    assert state.state_json() == before and not state.can_play(TableAction.of(H, "bet", 3, keep=0))


def test_a_hand_resumes_from_every_prefix_of_its_log():
    res = scripted()
    lines = res.log.splitlines(keepends=True)
    assert [json.loads(x)["event"] for x in lines] == [
        "hand", "ante", "deal", "action", "action", "action", "draw", "draw", "action", "action", "showdown", "result",
    ]  # fmt: skip
    # lines each prefix rebuilds: the deal is written again; H's draw alone is dropped; the
    # showdown brings its result
    want = [3, 3, 3, 4, 5, 6, 6, 8, 9, 12, 12, 12]
    for k, n in enumerate(want, 1):
        state = HandState.from_log("".join(lines[:k]))
        assert len(state.events) == n and state.hand_log() == "".join(lines[:n]), k
    with pytest.raises(ReplayError, match="the log ends before the hand does"):
        replay("".join(lines[:9]))
    state = HandState.from_log("".join(lines[:9]))
    assert state.whose_turn() == R and [str(a) for a in state.legal_plays()] == ["R check 0", "R bet 2"]


def test_resume_refuses_a_tampered_or_impossible_log(tmp_path):
    lines = scripted().log.splitlines(keepends=True)
    with pytest.raises(ReplayError, match="replay differs from the log at line 2"):
        HandState.from_log(lines[0] + lines[1].replace('"amount":1', '"amount":2'))
    bad = lines[3].replace('"kind":"bet","amount":2', '"kind":"bet","amount":3')
    with pytest.raises(ReplayError, match=r"log line 4: the logged action does not replay \(bet 3 is not an allowed"):
        HandState.from_log("".join(lines[:3]) + bad)
    with pytest.raises(ReplayError, match="not a poker51-hand/1 log"):
        HandState.from_log("")
    with pytest.raises(LogError, match=r"^<log>:2:1: not JSON"):
        HandState.from_log(lines[0] + "ante\n")
    path = tmp_path / "hand.jsonl"
    path.write_text("".join(lines[:6]))
    assert HandState.from_log(path).hand_log() == "".join(lines[:6])
    assert HandState.from_log([json.loads(x) for x in lines[:6]]).hand_log() == "".join(lines[:6])


def test_views_hold_only_what_the_seat_may_see():
    state = HandState("standard", {"H": 20, "R": 20}, DECK)
    h, r = state.view_json(H), state.view_json(R)
    assert h["cards"] == ["Ah", "Ad", "Kc", "7s", "3d"] and r["cards"] == ["Qh", "Qd", "9c", "6s", "4h"]
    assert h["to_act"] == "H" and h["needs_keep"] and [x["kind"] for x in h["legal"]] == ["check"] + ["bet"] * 4
    assert r["legal"] == [] and r["result"] is None
    assert "seed" not in h and "deck" not in h and not {"Qh", "Qd", "9c", "6s", "4h"} & set(json.dumps(h).split('"'))
    state = HandState.from_log(scripted().log)
    done = state.view_json(R)
    assert done["phase"] == "done" and done["result"]["hands"] == {
        "H": ["Ah", "Ad", "As", "Jd", "8c"],
        "R": ["Qh", "Qd", "5s", "4c", "2d"],
    }
    assert done["result"]["net"] == {"H": 5, "R": -5} and done["line"][1] == {
        "round": "pre", "seat": "R", "kind": "raise", "amount": 4, "all_in": False,
    }  # fmt: skip


def test_the_state_json_round_trips_and_refuses_a_forged_field():
    res = play_hand({"H": RandomPlayer(8), "R": RandomPlayer(9)}, stacks={"H": 6, "R": 4}, base_seed=5, hand_index=2)
    state = HandState.from_log(res.log)
    obj = json.loads(json.dumps(state.state_json()))
    assert obj["seed"] == [5, 2] and obj["hands"]["H"] == json.loads(res.log.splitlines()[-1])["hands"]["H"]
    back = HandState.from_state_json(obj)
    assert back.state_json() == obj and back.hand_log() == res.log
    obj["stacks"]["H"] += 1
    with pytest.raises(ReplayError, match="the state's stacks differ from its log's replay"):
        HandState.from_state_json(obj)
    with pytest.raises(ReplayError, match="not a poker51-hand-state/1 state"):
        HandState.from_state_json({"log": []})


def test_pot_law_equals_the_heads_up_settlement_rule_on_every_small_pot():
    """The floor's pot law gives the heads-up rule card's settlement (engine docstring, point 6)
    for every pair of contributions up to 40 jbits, every winner and both endings (a fold
    only where the folder put in at most what the winner did, as facing a bet it has)."""
    from poker51.play.engine import pot_law

    n = 0
    for c_h in range(1, 41):
        for c_r in range(1, 41):
            m = min(c_h, c_r)
            for winner in (H, R, None):
                returned, won = pot_law(c_h, c_r, "showdown", winner)
                assert returned == {H: c_h - m, R: c_r - m}
                assert won == {s: (2 * m if s == winner else m if winner is None else 0) for s in (H, R)}
                n += 1
            for winner in (H, R):  # a folder faces a bet: it never put in more than the winner
                if (c_r if winner == H else c_h) > (c_h if winner == H else c_r):
                    continue
                n += 1
                assert pot_law(c_h, c_r, "fold", winner) == (
                    {H: 0, R: 0},
                    {s: (c_h + c_r if s == winner else 0) for s in (H, R)},
                )
    assert n == 4800 + 2 * (40 * 41 // 2)
