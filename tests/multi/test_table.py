"""The table's rules, one test per rule (rule card v1): odd cents, caps, time, leaving, receipts, views."""

from __future__ import annotations

import hashlib
import json

import pytest
from multi_helpers import deck, person, play

from poker51.cards import card_str, parse_cards
from poker51.errors import InputError
from poker51.io import canonical_json
from poker51.multi.commit import DeckSource
from poker51.multi.table import Table

STRAIGHTS = "5c 5d 5h Kc  6d 6h 6s Kd  7h 7s 7c 2d  8s 8c 8d 3h  9c 9d 9h 4s"  # three 9-high straights, K-K-2-3-4
CHECK_ALL = [["a", "check"], ["b", "check"], ["c", "check"], ["d", "check"]]
STAND_PAT = [["a", "draw", []], ["b", "draw", []], ["c", "draw", []], ["d", "draw", []]]
FOUR = [person(0, "a", 4), person(1, "b", 4), person(2, "c", 4), person(3, "d", 4)]


def test_odd_cents_go_one_at_a_time_in_turn_from_the_seat_after_the_button():
    hand = {"deck": deck(STRAIGHTS), "actions": CHECK_ALL + STAND_PAT + CHECK_ALL}
    out = play(FOUR, [hand], button=4)  # order a b c d: a, b, c tie on the 400-cent pot
    assert out["hands"][0]["pots"] == [
        {"amount_cents": 400, "eligible": ["a", "b", "c", "d"], "winners": ["a", "b", "c"]}
    ]
    assert out["hands"][0]["payouts"] == {"a": 134, "b": 133, "c": 133, "d": 0}
    # button at seat 0: the turn starts at b, so b now gets the odd cent (the deal rotates with it)
    rotated = "5d 5h Kc 5c  6h 6s Kd 6d  7s 7c 2d 7h  8c 8d 3h 8s  9d 9h 4s 9c"
    hand = {"deck": deck(rotated), "actions": [CHECK_ALL[i] for i in (1, 2, 3, 0)]}
    hand["actions"] += [STAND_PAT[i] for i in (1, 2, 3, 0)] + [CHECK_ALL[i] for i in (1, 2, 3, 0)]
    out = play(FOUR, [hand], button=0)
    assert out["hands"][0]["payouts"] == {"a": 133, "b": 134, "c": 133, "d": 0}
    assert out["final"]["a"]["jbits_cents"] == 433 and out["conserved"]


def test_two_raises_cap_names_the_rule():
    hand = {"actions": [["a", "open", 1], ["b", "raise"], ["c", "raise"], ["d", "raise"]]}
    with pytest.raises(InputError, match=r'hand 1: action \["d", "raise"\]: .*at most two raises in a round'):
        play(FOUR, [hand], button=3)


def test_incomplete_all_in_raise_closes_raising_in_a_scenario():
    seats = [person(0, "a", 16), person(1, "b", 4), person(2, "c", 16)]
    hand = {"actions": [["a", "open", 2], ["b", "allin"], ["c", "raise"]]}
    with pytest.raises(InputError, match=r"hand 1: .*\"c\", \"raise\".*lets the others call or fold"):
        play(seats, [hand], button=2)
    hand = {
        "actions": [["a", "open", 2], ["b", "allin"], ["c", "call"], ["a", "call"]]
        + [["a", "draw", []], ["b", "draw", []], ["c", "draw", []], ["a", "check"], ["c", "check"]]
    }
    out = play(seats, [hand], button=2)
    assert sum(p["amount_cents"] for p in out["hands"][0]["pots"]) == 3 * 400 and out["conserved"]


def test_timeouts_check_fold_stand_pat_and_three_in_a_row_mark_away():
    seats = [person(0, "a", 16), person(1, "b", 16), person(2, "c", 16)]
    t = Table("t", DeckSource("seedsequence", 3), button=2)
    toks = {n: t.sit(n, s, 16)[1] for n, s in (("a", 0), ("b", 1), ("c", 2))}
    del seats
    t.start_hand()
    t.timeout(0)  # nothing to call: a check
    assert t.log[-1]["kind"] == "check" and t.log[-1]["timeout"]
    t.act(1, "open", 200)
    t.act(2, "call")
    t.timeout(0)  # facing a bet: a fold
    assert t.log[-1]["kind"] == "fold" and 0 not in t.hand.live
    t.timeout(1)  # the draw: stand pat
    assert t.log[-1] == {"event": "draw", "hand": 1, "seat": 1, "count": 0, "timeout": True}
    assert t.timeouts == {0: 2, 1: 1, 2: 0}
    t.draw(2, [])
    t.act(1, "check")  # an action of its own resets b's count
    t.act(2, "check")
    assert t.timeouts[1] == 0 and not t.in_hand
    t.start_hand()  # button 3 (empty seats count): a, b, c again
    t.timeout(0)  # a's third timeout in a row: away; its remaining turns are timeouts
    assert 0 in t.away and {"event": "away", "seat": 0, "name": "a"} in t.log
    t.act(1, "open", 100)
    t.act(2, "call")  # a, away, folds by itself
    assert 0 not in t.hand.live
    t.draw(1, [])
    t.draw(2, [])
    t.act(1, "check")
    t.act(2, "check")
    assert not t.in_hand
    hand = t.start_hand()
    assert hand.button == 4 and hand.order == (1, 2)  # a is dealt out while away
    t.back(0)
    for s in (1, 2):
        t.act(s, "check")
    for s in (1, 2):
        t.draw(s, [])
    for s in (1, 2):
        t.act(s, "check")
    assert t.start_hand().order == (1, 2, 0)  # back: dealt in again (button 0)
    assert not t.audit_failures and all(t.seat_of(tok) == s for s, tok in zip((0, 1, 2), toks.values()))


def test_leaving_mid_hand_folds_at_once_and_pays_out_at_the_end():
    seats = [person(0, "a", 16), person(1, "b", 16), person(2, "c", 16)]
    hand = {"actions": [["a", "open", 4], ["b", "call"], ["a", "leave"], ["c", "fold"],
                        ["b", "draw", []], ["b", "check"]]}  # fmt: skip
    with pytest.raises(InputError, match="the hand is over"):
        play(seats, [hand], button=2)  # a left, c folded: b alone wins at once
    hand["actions"] = hand["actions"][:4]
    out = play(seats, [hand], button=2)
    assert out["hands"][0]["payouts"] == {"a": 0, "b": 1100, "c": 0}
    assert out["final"]["a"]["jbits_cents"] == 1600 - 500  # its cash-out
    assert out["final"]["b"]["jbits_cents"] == 1600 + 600 and out["conserved"]


def test_leaving_returns_chips_no_one_still_in_matched():
    seats = [person(0, "a", 16), person(1, "b", 16), person(2, "c", 16)]
    t = Table("t", DeckSource("seedsequence", 1), button=2)
    for n, s in (("a", 0), ("b", 1), ("c", 2)):
        t.sit(n, s, 16)
    del seats
    t.start_hand()
    t.act(0, "open", 800)
    assert t.leave("a") is None  # pending: the hand goes on
    assert t.in_hand and 0 not in t.hand.live
    t.act(1, "fold")  # c alone: a's 8 jbits above c's ante are returned to a
    assert not t.in_hand
    cash = [r["receipt"] for r in t.log if r["event"] == "leave" and "receipt" in r][0]
    assert cash["player"] == "a" and cash["amount_cents"] == 1600 - 100
    assert t.stack == {1: 1500, 2: 1800} and not t.audit_failures


def test_buyins_banks_and_receipts():
    t = Table("t7", DeckSource("seedsequence", 1))
    with pytest.raises(InputError, match="choose 2, 4, 8 or 16"):
        t.sit("a", 0, 3)
    with pytest.raises(InputError, match="above the bank"):
        t.sit("a", 0, 16, bank=1000)
    rec, token = t.sit("a", 0, 8, bank=1000)
    body = {k: v for k, v in rec.items() if k != "sha256"}
    assert body == {"kind": "buyin", "player": "a", "amount_cents": 800, "table": "t7", "hand": 0, "seat": 0}
    assert rec["sha256"] == hashlib.sha256(canonical_json(body).encode()).hexdigest()
    with pytest.raises(InputError, match="seat 0 is taken"):
        t.sit("b", 0, 2)
    with pytest.raises(InputError, match="seats are 0..4"):
        t.sit("b", 5, 2)
    out = t.leave("a")
    assert out is not None and out["kind"] == "cashout" and out["amount_cents"] == 800
    assert t.ledger.people["a"].bank == 1000
    with pytest.raises(InputError, match="unknown seat token"):
        t.seat_of(token)  # a token dies with its seat


def test_seat_tokens_are_stored_only_as_hashes():
    t = Table("t", DeckSource("seedsequence", 1))
    _, token = t.sit("a", 0, 4)
    assert t.seat_of(token) == 0
    stored = json.dumps([t.tokens, t.log, vars(t.ledger.people["a"])], default=str)
    assert token not in stored and hashlib.sha256(token.encode()).hexdigest() in t.tokens


def test_a_seat_sees_only_its_own_cards_until_the_hand_ends():
    t = Table("t", DeckSource("seedsequence", 11), button=2)
    toks = [t.sit(n, s, 16)[1] for n, s in (("a", 0), ("b", 1), ("c", 2))]
    hand = t.start_hand()
    for seat, tok in enumerate(toks):
        v = t.view(tok)
        text = json.dumps(v)
        assert parse_cards(" ".join(v["cards"])) == hand.cards[seat] and v["shown"] == {}
        others = [card_str(c) for s in (0, 1, 2) if s != seat for c in hand.cards[s]]
        assert not any(f'"{c}"' in text for c in others)
    dealt = {card_str(c) for s in (0, 1, 2) for c in hand.cards[s]}
    public = json.dumps([rec for rec in t.log if rec["event"] not in ("result", "reveal")])
    assert not any(f'"{c}"' in public for c in dealt)  # the log shows cards only after the hand
    for s in (0, 1, 2):
        t.act(s, "check")
    for s in (0, 1, 2):
        t.draw(s, [])
    for s in (0, 1, 2):
        t.act(s, "check")
    v = t.view(toks[0])
    assert set(v["shown"]) == {"0", "1", "2"}  # after the hand, every hand is shown


def test_a_hand_needs_two_players_not_away_with_a_jbit_and_the_button_moves_one_seat():
    t = Table("t", DeckSource("seedsequence", 2), button=3)
    t.sit("a", 0, 2)
    with pytest.raises(InputError, match="cannot start a hand: 1 seated"):
        t.start_hand()
    t.sit("b", 2, 2)
    buttons = []
    for _ in range(4):
        hand = t.start_hand()
        buttons.append(hand.button)
        while t.in_hand:
            s = t.hand.actor
            t.draw(s, []) if t.hand.phase == "draw" else t.act(s, "check")
    assert buttons == [3, 4, 0, 1]  # one seat clockwise each hand, empty seats included


def test_deal_one_card_at_a_time_from_the_seat_after_the_button():
    seats = [person(0, "a", 4), person(1, "b", 4), person(3, "d", 4)]
    cards = "As Ks Qs  Ad Kd Qd  Ah Kh Qh  Ac Kc Qc  9s 9d 9h  3c 4c"
    hand = {"deck": deck(cards), "actions": [["a", "check"], ["b", "check"], ["d", "check"],
                                            ["a", "draw", ["9s"]], ["b", "draw", ["9d"]], ["d", "draw", []],
                                            ["a", "check"], ["b", "check"], ["d", "check"]]}  # fmt: skip
    out = play(seats, [hand], button=4)
    assert out["hands"][0]["pots"][0]["winners"] == ["a"]  # four aces (+ 3c) beat four kings (+ 4c), queens
    assert out["hands"][0]["payouts"] == {"a": 300, "b": 0, "d": 0}


def test_bad_scenarios_name_the_problem():
    with pytest.raises(
        InputError, match=r"^scenario: seats\[0\]\.colour: unknown key \(expected: bank, buyin, name, seat\)$"
    ):
        play([{"seat": 0, "name": "a", "buyin": 4, "colour": 1}], [])
    with pytest.raises(InputError, match="marker"):
        play(FOUR, [{"deck": ["2c"], "actions": []}])
    with pytest.raises(InputError, match="listed twice"):
        play(FOUR, [{"deck": ["As", "As"], "actions": []}])
    with pytest.raises(InputError, match="never scripted"):
        play([person(0, "a", 4), {"seat": 1, "name": "r", "riemann": True, "added_by": "a"}],
             [{"actions": [["r", "check"]]}])  # fmt: skip
    with pytest.raises(InputError, match="the actions end before the hand does"):
        play(FOUR, [{"actions": [["a", "check"]]}], button=3)
