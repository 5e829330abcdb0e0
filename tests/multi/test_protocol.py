"""The five-seat hand under the floor's protocol (``poker51.multi.protocol``): the same table
log as a scenario, rebuilt from its log, and the plays refused naming the rule card."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from poker51.cards import parse_card
from poker51.multi.protocol import FORMAT, TableHand, public_lines
from poker51.multi.scenario import run_scenario
from poker51.table.errors import IllegalAction, ReplayError
from poker51.table.protocol import TableAction

DOC = Path(__file__).resolve().parents[2] / "docs" / "multi.md"


def side_pots() -> dict:
    body = re.search(r"```json scenario=side-pots\n(.*?)```", DOC.read_text(), re.S)
    assert body is not None
    return json.loads(body.group(1))


def play_side_pots() -> TableHand:
    scn = side_pots()
    h = TableHand.deal(scn["seats"], button=scn["button"], deck=[parse_card(c) for c in scn["hands"][0]["deck"]],
                       entropy=0, table=scn["table"])  # fmt: skip
    names = {s["name"]: s["seat"] for s in scn["seats"]}
    for name, kind, *args in scn["hands"][0]["actions"]:
        seat = names[name]
        if kind == "open":
            h.play(TableAction.of(seat, "open", 100 * args[0]))
        elif kind == "draw":
            h.play(TableAction.of(seat, "draw", discards=args[0]))
        else:
            h.play(TableAction.of(seat, kind))
    return h


def test_the_public_lines_are_the_scenarios_table_log_byte_for_byte(tmp_path):
    log = tmp_path / "t.log"
    run_scenario(side_pots(), log=log)
    h = play_side_pots()
    assert h.finished and public_lines(h.hand_log()) == log.read_text()
    records = [json.loads(x) for x in h.hand_log().splitlines()]
    assert records[0]["event"] == "setup" and records[0]["format"] == FORMAT
    assert [r["event"] for r in records].count("play") == 12
    assert h.hand.result is not None and dict(h.hand.result.payouts) == {0: 0, 1: 334, 2: 0, 3: 1333, 4: 1533}


def test_a_hand_resumes_from_a_log_cut_in_the_middle_of_a_line():
    h = play_side_pots()
    text = h.hand_log()
    lines = text.splitlines(keepends=True)
    cut = "".join(lines[:9]) + lines[9][:17]
    again = TableHand.from_log(cut)
    assert text.startswith(again.hand_log()) and not again.finished
    assert again.whose_turn() is not None


def test_a_tampered_log_does_not_rebuild():
    lines = play_side_pots().hand_log().splitlines(keepends=True)
    k = next(i for i, x in enumerate(lines) if '"event":"action"' in x)
    lines[k] = lines[k].replace('"amount_cents":800', '"amount_cents":700')
    with pytest.raises(ReplayError, match=f"at line {k + 1}"):
        TableHand.from_log("".join(lines))
    with pytest.raises(ReplayError, match="the first record is its 'setup' record"):
        TableHand.from_log("".join(lines[1:]))


def test_views_show_only_the_seats_own_cards_until_the_end():
    scn = side_pots()
    deck = [parse_card(c) for c in scn["hands"][0]["deck"]]
    h = TableHand.deal(scn["seats"], button=4, deck=deck, entropy=0)
    view = h.view_json(0)
    assert view["cards"] == ["Ks", "Kd", "2d", "3h", "4s"] and view["shown"] == {}
    assert view["hand"]["to_act"] == 0 and len(view["legal"]) == 7 and h.view_json(1)["legal"] == []
    assert json.loads(json.dumps(h.state_json())) == h.state_json()
    assert set(play_side_pots().view_json(0)["shown"]) == {"0", "1", "2", "3", "4"}


def test_plays_are_refused_naming_the_rule():
    h = play_side_pots()
    with pytest.raises(IllegalAction) as err:
        h.play(TableAction.of(0, "check"))
    assert err.value.rule == "A hand: a hand ends at the showdown or the last fold"
    scn = side_pots()
    h = TableHand.deal(scn["seats"], button=4, entropy=0)
    cases = [
        (TableAction.of(1, "check"), "A hand 2: players act in turn from the seat after the button"),
        (TableAction.of(0, "open", 300), "A hand 2: with no bet yet check or open 1, 2, 4 or 8 jbits"),
        (TableAction.of(0, "call"), "A hand 2: call or fold only facing a bet"),
        (TableAction.of(0, "draw", discards=[]), "A hand: antes, betting, the draw, betting, showdown, in that order"),
        (TableAction.of(0, "bet", 100), "A hand 2-4: check, open, call, raise, fold, all in, draw; a timeout; leave"),
    ]
    for action, rule in cases:
        assert not h.can_play(action)
        with pytest.raises(IllegalAction) as err:
            h.verify_play(action)
        assert err.value.rule == rule, str(err.value)
    h.play(TableAction.of(0, "open", 800))
    with pytest.raises(IllegalAction, match=r"^call puts in 100 cents, not 150 \[A hand 2-3"):
        h.play(TableAction.of(1, "call", 150))  # bob holds 100 behind the ante: all in for less
    assert h.can_play(TableAction.of(1, "allin")) and h.can_play(TableAction.of(1, "call", 100, all_in=True))
    assert [str(a) for a in h.legal_plays()] == ["1 fold", "1 call 100 all_in=True", "1 timeout", "1 leave"]


def test_the_law_raises_the_floors_illegal_action_with_its_rule():
    from poker51.multi import law
    from poker51.rulebook.hand import RuleError

    assert law.IllegalAction is IllegalAction and issubclass(RuleError, IllegalAction)
    r = law.BettingRound("pre", (1, 2, 0), {0: 1600, 1: 350, 2: 1600}, live={0, 1, 2})
    with pytest.raises(IllegalAction) as err:
        r.move(1, "open", 300)
    assert (err.value.detail, err.value.rule) == ("open 300 cents", law.RULE_OPEN)
    e = RuleError("bob check", "3.2", "bob owes 1")
    assert str(e) == f"bob check breaks 3.2 ({e.rule.split(' (', 1)[1]}: bob owes 1" and e.article == "3.2"


@pytest.mark.parametrize("seed", range(12))
def test_random_hands_public_logs_check_and_conserve(seed, tmp_path):
    import random

    from poker51.multi.commit import check_log

    rng = random.Random(seed)
    seats = [{"seat": s, "name": f"p{s}", "buyin": rng.choice([2, 4, 8, 16])} for s in (0, 1, 3, 4)]
    seats.append({"seat": 2, "name": "r1", "riemann": True, "added_by": "p0"})
    h = TableHand.deal(seats, button=seed % 5, entropy=seed)
    start = h.chips()
    while not h.finished:
        legal = [a for a in h.legal_plays() if a.kind != "leave"]
        h.play(legal[rng.randrange(len(legal))])
        assert h.chips() == start
    (tmp_path / "t.log").write_text(public_lines(h.hand_log()))
    people = sum(1 for s in seats if not s.get("riemann"))  # one buy-in receipt each, checked by its SHA-256
    assert check_log(tmp_path / "t.log") == {
        "hands": 1,
        "checked": 1,
        "receipts": people,
        "failures": 0,
        "problems": [],
    }
    assert sum(h.hand.result.payouts.values()) == sum(h.hand.result.contributed.values())
