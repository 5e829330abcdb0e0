"""``poker51 multi run`` and ``poker51 multi check``: help, good runs, and a table of bad inputs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from poker51.cli import main

SEATS = [{"seat": 0, "name": "a", "buyin": 4}, {"seat": 1, "name": "b", "buyin": 4}]
ROUND = [["a", "check"], ["b", "check"]]
GOOD = {"seats": SEATS, "button": 1, "hands": [{"actions": ROUND + [["a", "draw", []], ["b", "draw", []]] + ROUND}]}


def write(tmp_path: Path, obj: object, name: str = "s.json") -> str:
    p = tmp_path / name
    p.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return str(p)


@pytest.mark.parametrize("args", [["multi", "--help"], ["multi", "run", "--help"], ["multi", "check", "--help"]])
def test_help(args, capsys):
    assert main(args) == 0 and "usage: poker51 multi" in capsys.readouterr().out


def test_run_prints_the_json_object_and_check_passes(tmp_path, capsys):
    log = tmp_path / "t.log"
    assert main(["multi", "run", write(tmp_path, GOOD), "--json", "--log", str(log)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"hands", "final", "conserved"} and out["conserved"] is True
    assert sum(out["hands"][0]["payouts"].values()) == 200
    assert main(["multi", "check", str(log)]) == 0
    assert capsys.readouterr().out.startswith("PASS: 1 of 1 hands checked")
    assert main(["multi", "run", write(tmp_path, GOOD)]) == 0
    assert "jbits conserved: yes" in capsys.readouterr().out


def test_a_secrets_scenario_logs_its_source_and_checks(tmp_path, capsys):
    log = tmp_path / "s.log"
    assert main(["multi", "run", write(tmp_path, {**GOOD, "seed": None}), "--log", str(log)]) == 0
    hand = [json.loads(x) for x in log.read_text().splitlines() if '"event":"hand"' in x][0]
    assert hand["source"] == "secrets"
    assert main(["multi", "check", str(log)]) == 0


def test_check_fails_on_a_tampered_deck(tmp_path, capsys):
    log = tmp_path / "t.log"
    main(["multi", "run", write(tmp_path, GOOD), "--log", str(log)])
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    for rec in lines:
        if rec["event"] == "reveal":
            rec["deck"][30], rec["deck"][31] = rec["deck"][31], rec["deck"][30]
    log.write_text("".join(json.dumps(r) + "\n" for r in lines))
    capsys.readouterr()
    assert main(["multi", "check", str(log), "--json"]) == 1
    res = json.loads(capsys.readouterr().out)
    assert res["failures"] >= 1 and any("does not match the commitment" in p for p in res["problems"])


BAD_RUNS = [
    ("missing.json", None, "no such scenario file"),
    ("bad.json", "{not json", "not JSON"),
    ("s.json", {"seats": SEATS}, r"s\.json: \(top level\): missing key 'hands'"),
    ("s.json", {"seats": SEATS, "hands": [], "colour": 1}, r"s\.json: colour: unknown key \(expected: button, hands"),
    ("s.json", [1], r"s\.json: \(top level\): expected object, got \[1\]"),
    ("s.json", {"seats": [], "hands": []}, r"s\.json: seats: \[\] should be non-empty"),
    ("s.json", {"seats": [{"seat": 0, "name": "", "buyin": 4}], "hands": []}, r"\[0\]\.name: '' should be non-empty"),
    ("s.json", {"seats": [{"seat": 0, "name": "a"}], "hands": []}, r"seats\[0\]: missing key 'buyin'"),
    ("s.json", {"seats": [{"seat": 1, "name": "r", "riemann": True}], "hands": []}, r"\[0\]: missing key 'added_by'"),
    ("s.json", {"seats": SEATS, "hands": [], "seed": -1}, r"seed: -1 is below the minimum 0"),
    ("s.json", {"seats": SEATS, "hands": [{"actions": [["a"]]}]}, r"hands\[0\]\.actions\[0\]: \['a'\] is too short"),
    ("s.json", {"seats": SEATS, "hands": [{"actions": [], "deck": "As"}]}, r"hands\[0\]\.deck: expected array"),
    ("s.json", {"seats": [{"seat": 7, "name": "a", "buyin": 4}], "hands": []}, "seats are 0..4"),
    ("s.json", {"seats": [{"seat": 0, "name": "a", "buyin": 5}], "hands": []}, "choose 2, 4, 8 or 16"),
    ("s.json", {"seats": SEATS, "hands": [{"deck": ["Zz"], "actions": []}]}, "unknown card 'Zz'"),
    ("s.json", {"seats": SEATS, "button": 1, "hands": [{"actions": [["b", "check"]]}]}, "hand 1: .*turn"),
    ("s.json", {"seats": SEATS, "button": 1, "hands": [{"actions": [["a", "open", 5]]}]}, "open 1, 2, 4 or 8"),
    ("s.json", {"seats": SEATS, "button": 1, "hands": [{"actions": [["a", "dance"]]}]}, "unknown action 'dance'"),
    ("s.json", {"seats": SEATS, "button": 1, "hands": [{"actions": [["a", "raise"]]}]}, "no bet to raise"),
    ("s.json", {"seats": SEATS, "button": 1, "hands": [{"actions": [["zed", "check"]]}]}, "'zed' is not seated"),
    ("s.json", {"seats": SEATS, "button": 1, "hands": [{"actions": [["a", "draw", ["As"]]]}]}, "not the draw"),
    ("s.json", {"seats": SEATS, "button": 1, "hands": [{"actions": []}]}, "the actions end before the hand does"),
]


@pytest.mark.parametrize("name, content, message", BAD_RUNS)
def test_bad_scenarios_exit_2_with_one_line(tmp_path, capsys, name, content, message):
    path = str(tmp_path / name) if content is None else write(tmp_path, content, name)
    assert main(["multi", "run", path]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("poker51 multi: error: ")
    assert re.search(message, err), err


def test_bad_logs_and_belief_files_exit_2(tmp_path, capsys):
    cases = [
        (["multi", "check", str(tmp_path / "none.log")], "no such log"),
        (["multi", "check", write(tmp_path, "not json\n", "x.log")], "not JSON"),
        (
            ["multi", "check", write(tmp_path, '{"event": "hand"}\n', "y.log")],
            "y.log:1:1: not a poker51-multi-log/1",
        ),
        (["multi", "run", write(tmp_path, GOOD), "--belief", str(tmp_path / "b.parquet")], "no such table"),
    ]
    for args, message in cases:
        assert main(args) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err, err


def test_check_recomputes_every_receipt_and_names_the_one_that_fails(tmp_path, capsys):
    """A log whose buy-in receipt was edited used to pass (issue 29); cash-outs are checked too."""
    from poker51.multi.table import receipt

    log = tmp_path / "t.log"
    main(["multi", "run", write(tmp_path, GOOD), "--log", str(log)])
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    sits = [r for r in lines if isinstance(r.get("receipt"), dict)]
    assert [r["receipt"]["kind"] for r in sits] == ["buyin", "buyin"]
    capsys.readouterr()
    assert main(["multi", "check", str(log), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["receipts"] == 2
    sits[1]["receipt"]["amount_cents"] += 100  # b's buy-in, its hash left as it was
    cashout = receipt("cashout", "a", 400, "table", 1, 0, held_returned_cents=0)
    lines.append({"event": "leave", "receipt": {**cashout, "sha256": "0" * 64}})
    log.write_text("".join(json.dumps(r) + "\n" for r in lines))
    assert main(["multi", "check", str(log), "--json"]) == 1
    res = json.loads(capsys.readouterr().out)
    assert res["receipts"] == 3 and res["failures"] == 2
    assert res["problems"][0].startswith("buyin receipt of b (hand 0, seat 1): SHA-256 ")
    assert res["problems"][1].startswith(f"cashout receipt of a (hand 1, seat 0): SHA-256 {'0' * 64} is not")
