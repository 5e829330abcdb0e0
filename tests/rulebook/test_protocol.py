"""A rule book hand under the floor's protocol (``poker51.rulebook.protocol``): the same log as
the scenario, rebuilt from its log, and the plays refused naming the article."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from poker51.rulebook.log import check_log, write_log
from poker51.rulebook.protocol import FORMAT, BookHand, public_lines
from poker51.rulebook.scenario import run_scenario
from poker51.table.errors import IllegalAction, ReplayError
from poker51.table.protocol import TableAction

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples" / "rulebook"


def committed() -> tuple[dict, BookHand]:
    """docs/examples/rulebook/committed.json played through the protocol."""
    sc = json.loads((EXAMPLES / "committed.json").read_text())
    seats = [(s["seat"], s["name"], s["stack"]) for s in sc["seats"]]
    h = BookHand.deal(sc["game"], sc["blinds"][1], seats, seed=bytes.fromhex(sc["hands"][0]["seed"]))
    by_name = {name: seat for seat, name, _ in seats}
    for name, kind, *arg in sc["hands"][0]["actions"]:
        if kind == "advance":
            h.play(TableAction.of(by_name[name], "advance", choice=arg[0]))
        else:
            h.play(TableAction.of(by_name[name], kind, *arg))
    while not h.finished:  # the scenario shows the hands still to show when its script ends
        h.play(TableAction.of(h.whose_turn(), "show"))
    return sc, h


def test_the_public_lines_are_the_scenarios_log_byte_for_byte(tmp_path):
    sc, h = committed()
    _, records = run_scenario(sc)
    assert h.finished and public_lines(h.hand_log()) == write_log(records, tmp_path / "h.jsonl").read_text()
    lines = [json.loads(x) for x in h.hand_log().splitlines()]
    assert [x["type"] for x in lines] == ["setup", "commit"] + ["play"] * 9 + ["hand"]
    assert lines[0]["format"] == FORMAT
    (tmp_path / "p.jsonl").write_text(public_lines(h.hand_log()))
    assert check_log(tmp_path / "p.jsonl") == {"hands": 1, "checked": 1, "scripted": 0, "failed": []}


def test_every_prefix_rebuilds_and_a_tampered_log_does_not():
    _, h = committed()
    lines = h.hand_log().splitlines(keepends=True)
    for k in range(1, len(lines) + 1):
        again = BookHand.from_log("".join(lines[:k]) + lines[k % len(lines)][:5] * (k < len(lines)))
        assert h.hand_log().startswith(again.hand_log()) and len(again.hand_log().splitlines()) >= min(k, 2)
    bad = [x.replace('"amount": 4, "hand": 1, "kind": "bet"', '"amount": 6, "hand": 1, "kind": "bet"') for x in lines]
    assert bad != lines
    with pytest.raises(ReplayError, match=r"^(line \d+: the play does not replay|the rebuilt hand differs)"):
        BookHand.from_log("".join(bad))
    with pytest.raises(ReplayError, match="the first line is its 'setup' line"):
        BookHand.from_log("".join(lines[1:]))


def test_views_hide_the_other_hole_cards_and_mucked_hands():
    _, h = committed()
    hole = {p.name: p.hole for p in h.hand.players}
    view = h.view_json(1)  # bob mucked at the end
    assert [s["player"] for s in view["shows"]] == ["bob", "cat"] and "cards" not in view["shows"][0]
    assert view["shows"][1]["cards"] == [c for c in view["shows"][1]["cards"]] and len(view["hole"]) == 4
    text = json.dumps(h.view_json(0))
    from poker51.cards import card_str

    assert not any(f'"{card_str(c)}"' in text for c in hole["bob"] if c not in h.hand.boards[0])


def test_plays_are_refused_naming_the_article():
    h = BookHand.deal("holdem", 2, [(0, "ann", 50), (1, "bob", 50), (2, "cat", 9)], seed=bytes(32))
    assert h.whose_turn() == 0  # left of the big blind (cat)
    cases = [
        (TableAction.of(1, "fold"), "3.1"),
        (TableAction.of(0, "check"), "3.2"),
        (TableAction.of(0, "bet", 4), "3.3"),
        (TableAction.of(0, "raise", 3), "3.4"),
        (TableAction.of(0, "raise", 51), "3.6"),
        (TableAction.of(0, "show"), "5.1"),
        (TableAction.of(0, "lay", sets=[["As", "Kd"]] * 3), "7.6"),
        (TableAction.of(2, "advance", choice="raise"), "8.5"),
        (TableAction.of(7, "fold"), "1.1"),
    ]
    for action, article in cases:
        assert not h.can_play(action)
        with pytest.raises(IllegalAction) as err:
            h.play(action)
        assert err.value.rule.startswith(article + " ("), str(err.value)
        assert str(err.value).endswith(err.value.detail) and err.value.rule in str(err.value)
    assert [str(a) for a in h.legal_plays()][:3] == ["0 fold", "0 call", "0 raise 4"]
    assert len(h.legal_plays()) == 2 + (50 - 4 + 1) + 2


@pytest.mark.parametrize("game", ["holdem", "omaha", "omaha5", "omaha3", "omaha_open", "three_sets"])
def test_random_hands_public_logs_check_and_conserve(game, tmp_path):
    import random

    from poker51.table.deal import new_seed

    rng = random.Random(game)
    for k in range(4):
        seats = [(s, f"p{s}", rng.choice([3, 20, 60])) for s in range(4)]
        h = BookHand.deal(game, 2, seats, button=k, seed=new_seed("seedsequence", k, key=(0, 1)))
        start = h.chips()
        while not h.finished:
            legal = h.legal_plays()
            h.play(legal[rng.randrange(len(legal))])
            assert h.chips() == start
        path = tmp_path / f"{k}.jsonl"
        path.write_text(public_lines(h.hand_log()))
        assert check_log(path) == {"hands": 1, "checked": 1, "scripted": 0, "failed": []}
        assert h.table.record is not None and h.table.record["conserved"] is True
