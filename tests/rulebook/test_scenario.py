"""The scenario front door (``poker51 rulebook run``), the log check, and the worked examples
of ``docs/rulebook.md`` run exactly as documented."""

import json
import re
import shlex
from pathlib import Path

import pytest

from poker51.cli import main
from poker51.rulebook.log import check_log, read_log, write_log
from poker51.rulebook.scenario import run_scenario

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rulebook.md"
EXAMPLES = ROOT / "docs" / "examples" / "rulebook"


def blocks(kind):
    """``(name, body)`` of every fenced block preceded by ``<!-- kind: name -->`` in the doc."""
    text = DOC.read_text()
    return re.findall(rf"<!-- {kind}: (\w+) -->\n```\w+\n(.*?)```", text, flags=re.S)


def contains(actual, expected, where="output"):
    """Every key the doc shows has exactly the documented value (lists compared whole)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), where
        for k, v in expected.items():
            assert k in actual, f"{where}.{k} missing"
            contains(actual[k], v, f"{where}.{k}")
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"


@pytest.mark.parametrize(("name", "body"), blocks("output"))
def test_documented_outputs(name, body, capsys):
    assert main(["rulebook", "run", str(EXAMPLES / f"{name}.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["conserved"] is True
    contains(out["hands"][0], json.loads(body))


@pytest.mark.parametrize(("name", "body"), blocks("error"))
def test_documented_errors(name, body, capsys):
    assert main(["rulebook", "run", str(EXAMPLES / f"{name}.json"), "--json"]) == 2
    assert capsys.readouterr().err == body


def test_documented_hand_commands(capsys):
    text = DOC.read_text()
    pairs = re.findall(r"^\$ (poker51 hand [^\n]+)\n((?:[^$`][^\n]*\n)+)", text, flags=re.M)
    assert len(pairs) == 2
    for command, expected in pairs:
        assert main(shlex.split(command)[1:]) == 0
        assert capsys.readouterr().out == expected


def test_the_schema_names_every_game_and_action():
    from poker51.rulebook.games import GAMES, RANDOM
    from poker51.rulebook.scenario import BET_ACTIONS, SCHEMA, TABLE_ACTIONS
    from poker51.validation import load_schema

    schema = load_schema(SCHEMA)
    assert schema["properties"]["game"]["enum"] == [*GAMES, RANDOM]
    kinds = schema["properties"]["hands"]["items"]["properties"]["actions"]["items"]["prefixItems"][1]["enum"]
    assert kinds == [*BET_ACTIONS, *TABLE_ACTIONS]


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.stem)
def test_every_shipped_scenario_passes_the_schema(path):
    from poker51.rulebook.scenario import load_scenario

    assert load_scenario(path) == json.loads(path.read_text())


def test_every_example_is_documented_and_conserves():
    names = {p.stem for p in EXAMPLES.glob("*.json")}
    assert names == {n for n, _ in blocks("output")} | {n for n, _ in blocks("error")}


def test_log_of_a_committed_hand_checks_and_a_tampered_log_fails(tmp_path, capsys):
    log = tmp_path / "hands.jsonl"
    assert main(["rulebook", "run", str(EXAMPLES / "committed.json"), "--log", str(log), "--phh", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["rulebook", "check", str(log)]) == 0
    assert "1 shuffles reproduced from their seeds" in capsys.readouterr().out
    assert (tmp_path / "1.phh").read_text().startswith("variant = 'NOF'")
    lines = read_log(log)
    rec = lines[1]
    rec["boards"][0][3], rec["boards"][0][4] = rec["boards"][0][4], rec["boards"][0][3]  # swap turn and river
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    assert main(["rulebook", "check", str(bad), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["failed"] == [{"hand": 1, "problems": ["board cards differ from the shuffle (9.3)"]}]


def test_check_catches_a_seed_that_does_not_match_its_commitment(tmp_path):
    sc = json.loads((EXAMPLES / "committed.json").read_text())
    _, records = run_scenario(sc)
    records[0]["seed"] = "00" * 32
    path = write_log(records, tmp_path / "x.jsonl")
    problems = check_log(path)["failed"][0]["problems"]
    assert "SHA-256 of the seed differs from the commitment (9.2)" in problems
    assert "hole cards differ from the shuffle (9.3)" in problems


def test_scripted_decks_are_reported_as_unchecked(tmp_path):
    _, records = run_scenario(json.loads((EXAMPLES / "side_pots.json").read_text()))
    report = check_log(write_log(records, tmp_path / "x.jsonl"))
    assert report == {"hands": 1, "checked": 0, "scripted": 1, "failed": []}


def test_text_output(capsys):
    assert main(["rulebook", "run", str(EXAMPLES / "side_pots.json")]) == 0
    out = capsys.readouterr().out
    assert "pot 3: 278 (rake 6) eligible ann, dan -> dan" in out and "conserved True" in out


def test_burn_cards_are_never_in_the_output_but_always_in_the_log(tmp_path, capsys):
    log = tmp_path / "h.jsonl"
    assert main(["rulebook", "run", str(EXAMPLES / "side_pots.json"), "--json", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "burns" not in out and '"3s"' not in out  # 3s, 5d, 6d are the burns
    assert read_log(log)[1]["burns"] == ["3s", "5d", "6d"]


def base():
    return {
        "game": "holdem",
        "blinds": [1, 2],
        "seats": [{"seat": 0, "name": "ann", "stack": 50}, {"seat": 1, "name": "bob", "stack": 50}],
        "hands": [{"deck": "As Kd Qh Jc 2s 7h 8h 9h 3s Th 4s 2d".split(), "actions": []}],
    }


def with_(path, value):
    sc = base()
    obj = sc
    for k in path[:-1]:
        obj = obj[k]
    if value is KeyError:
        del obj[path[-1]]
    else:
        obj[path[-1]] = value
    return sc


@pytest.mark.parametrize(
    ("scenario", "needle"),
    [
        (with_(["game"], "stud"), "s.json: game: 'stud' is not one of holdem, omaha,"),
        (with_(["blinds"], [1, 3]), "small blind is half the big blind (1.4)"),
        (with_(["blinds"], [1]), "s.json: blinds: [1] is too short"),
        (with_(["seats"], [{"seat": 0, "name": "ann"}]), "s.json: seats[0]: missing key 'stack'"),
        (with_(["seats", 1, "seat"], 9), "seat 9: this table has seats 0..8"),
        (with_(["seats", 1, "name"], "ann"), "player name 'ann' is empty or taken"),
        (with_(["seats", 1, "stack"], -5), "s.json: seats[1].stack: -5 is below the minimum 0"),
        (with_(["seats", 1, "name"], 7), "s.json: seats[1].name: expected string, got 7"),
        (with_(["rake"], "yes"), "s.json: rake: expected boolean, got 'yes'"),
        (with_(["button"], 1), "s.json: button: expected string, got 1"),
        (with_(["hands", 0, "actions"], [["bob"]]), "s.json: hands[0].actions[0]: ['bob'] is too short"),
        (with_(["hands", 0, "actions"], [["bob", "bet", 2, 3]]), "actions[0]: ['bob', 'bet', 2, 3] is too long"),
        (with_(["hands", 0, "deck"], "As Kd"), "s.json: hands[0].deck: expected array, got 'As Kd'"),
        (with_(["hands", 0, "dek"], []), "s.json: hands[0].dek: unknown key (did you mean 'deck'?"),
        (with_(["hands"], []), "s.json: hands: [] should be non-empty"),
        (with_(["color"], "red"), "s.json: color: unknown key (expected: blinds, button, game"),
        (with_(["hands", 0, "deck"], ["As", "As"]), "As is given twice"),
        (with_(["hands", 0, "deck"], ["As", "Kd"]), "the deck runs out dealing hole cards (2 cards given)"),
        (with_(["hands", 0, "deck"], KeyError), "give a deck, a seed, or a scenario seed"),
        (with_(["hands", 0, "seed"], "abc"), "give a deck or a seed, not both"),
        ({**base(), "hands": [{"seed": "abc", "actions": []}]}, "a seed is at least 32 hex digits"),
        (with_(["hands", 0, "actions"], [["bob", "raze"]]), "hands[0].actions[0][1]: 'raze' is not one of fold,"),
        (with_(["hands", 0, "actions"], [["bob", "raise"]]), "raise needs argument"),
        (with_(["hands", 0, "actions"], [["bob", "fold", 3]]), "fold takes no argument"),
        (with_(["hands", 0, "actions"], [["eve", "fold"]]), "no player 'eve'"),
        (with_(["hands", 0, "actions"], [["ann", "fold"]]), "ann fold breaks 3.1"),
        (with_(["hands", 0, "actions"], [["bob", "check"]]), "bob check breaks 3.2"),
        (with_(["hands", 0, "actions"], [["bob", "bet", 4]]), "bob bet 4 breaks 3.3"),
        (with_(["hands", 0, "actions"], [["bob", "raise", 3]]), "bob raise 3 breaks 3.4"),
        (with_(["hands", 0, "actions"], [["bob", "raise", 51]]), "bob raise 51 breaks 3.6"),
        (with_(["hands", 0, "actions"], [["bob", "call"], ["ann", "call"]]), "ann call breaks 3.2"),
        (with_(["hands", 0, "actions"], [["bob", "call"], ["bob", "check"]]), "bob check breaks 3.1"),
        (with_(["hands", 0, "actions"], [["bob", "fold"], ["ann", "show"]]), "there is no showdown now"),
        (with_(["hands", 0, "actions"], [["bob", "lay", [["As", "Kd"]]]]), "bob lay breaks 7.6"),
        (with_(["hands", 0, "actions"], [["bob", "advance", "raise"]]), "choose from fold, check_fold, check, call"),
        (with_(["hands", 0, "actions"], [["bob", "add", 0]]), "bob add: expected a whole number of at least 1"),
        (with_(["hands", 0, "actions"], [["bob", "call"]]), "the script ends while the hand waits for ann"),
    ],
)
def test_bad_scenarios_exit_2_with_one_line(scenario, needle, tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario))
    assert main(["rulebook", "run", str(path), "--json"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("poker51 rulebook: error:") and err.count("\n") == 1 and needle in err, err


@pytest.mark.parametrize(
    ("text", "needle"),
    [("{", "not JSON"), ("[1, 2]", "s.json: (top level): expected object, got [1, 2]")],
)
def test_unreadable_scenarios_exit_2(text, needle, tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text(text)
    assert main(["rulebook", "run", str(path)]) == 2
    assert needle in capsys.readouterr().err


def test_missing_files_exit_2(tmp_path, capsys):
    assert main(["rulebook", "run", str(tmp_path / "none.json")]) == 2
    assert "none.json: no such scenario file" in capsys.readouterr().err
    assert main(["rulebook", "check", str(tmp_path / "none.jsonl")]) == 2
    assert "none.jsonl: no such log" in capsys.readouterr().err


@pytest.mark.parametrize(("text", "needle"), [("{]", "not JSON"), ('{"type": "x"}', "type commit or hand")])
def test_bad_logs_exit_2(text, needle, tmp_path, capsys):
    path = tmp_path / "l.jsonl"
    path.write_text(text + "\n")
    assert main(["rulebook", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "argv", [["rulebook", "--help"], ["rulebook", "run", "--help"], ["rulebook", "check", "--help"]]
)
def test_help(argv, capsys):
    assert main(argv) == 0
    assert "usage" in capsys.readouterr().out


@pytest.mark.parametrize("game", ["holdem", "omaha5", "omaha_open", "three_sets", "random"])
def test_simulated_logs_of_every_variant_check_and_convert(game, tmp_path, capsys):
    import numpy as np

    from poker51.rulebook.simulate import play_hands
    from poker51.rulebook.table import Table

    rng = np.random.default_rng(3)
    t = Table(game, 2, [(s, f"p{s}", 80) for s in range(4)])
    records = play_hands(t, 7, lambda o: o[rng.integers(len(o))], entropy=3, leaves=False)
    log = write_log(records, tmp_path / "sim.jsonl")
    assert main(["rulebook", "check", str(log), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report == {"hands": len(records), "checked": len(records), "scripted": 0, "failed": []}
    assert main(["rulebook", "phh", str(log), str(tmp_path / "phh")]) == 0
    written = len(list((tmp_path / "phh").glob("*.phh")))
    assert written == sum(r["game"] != "three_sets" for r in records)
    assert f"{written} hands written as PHH" in capsys.readouterr().out


def test_a_random_block_drawn_from_another_seed_fails_the_check(tmp_path):
    from poker51.rulebook.table import Table
    from poker51.table.deal import new_seed

    t = Table("random", 2, [(s, f"p{s}", 500) for s in range(3)])
    records = []
    for k in range(1, 5):
        rot = new_seed("seedsequence", 4, key=(1, k)) if k in (1, 4) else None
        t.start_hand(seed=new_seed("seedsequence", 4, key=(0, k)), rotation_seed=rot)
        while t.waiting_for is not None:
            if t.hand.phase == "lay":
                for p in t.hand.live():
                    if p.laid is None:
                        t.act(p.name, "timeout")
            else:
                t.act(
                    t.waiting_for, "check" if "check" in t.hand.legal() else "show" if t.hand.phase != "bet" else "call"
                )
        records.append(t.finish())
    assert check_log(write_log(records, tmp_path / "ok.jsonl"))["failed"] == []
    records[3]["rotation"]["seed"] = "11" * 32  # the second block's seed, changed after its commitment
    problems = check_log(write_log(records, tmp_path / "r.jsonl"))["failed"][0]["problems"]
    assert "the Random block's seed does not match the commitment published before it" in problems
