"""The verifier and the two command-line entry points (``poker51 verify``, ``poker51 play``)."""

from __future__ import annotations

import io
import json
import shutil

import pytest
from helpers import exported_standard, solved_standard

from poker51 import cli
from poker51.commands import play as play_cmd
from poker51.play.engine import play_match
from poker51.play.players import RandomPlayer
from poker51.realcard.verify import (
    HAND_CHECKS,
    RULES_V05,
    TableOracle,
    VerifyReport,
    audit_hand,
    audit_rules,
    engine_rules,
    verify,
    write_verify_hands,
)

HANDS = 150


@pytest.fixture(scope="module")
def files():
    return exported_standard()


@pytest.fixture(scope="module")
def report(files):
    return verify(files.tables, files.receipt, HANDS, seed=7, abstraction=files.abstraction).to_json()


def test_small_run_passes_every_check(report, files):
    assert report["pass"] and report["failures"] == 0 and report["examples"] == []
    assert set(report["checks"]) == {"hashes", "decisions", "replay", "jbits", "rules"}
    assert all(c["pass"] for c in report["checks"].values())
    s = report["variants"]["standard"]
    assert report["hands"] == s["hands"] == HANDS
    assert report["decisions"] == s["decisions"] > HANDS // 2
    assert s["converted"] > 0  # short stacks make Riemann turn raises into calls
    assert report["checks"]["replay"]["checked"] == report["checks"]["jbits"]["checked"] == HANDS
    assert report["checks"]["hashes"]["checked"] == 2  # parquet and json
    assert report["tables"] == {
        files.parquet.as_posix(): files.rec["files"][files.parquet.as_posix()],
        files.json.as_posix(): files.rec["files"][files.json.as_posix()],
    }


def test_receipt_is_deterministic(report, files):
    again = verify(files.tables, files.receipt, HANDS, seed=7, abstraction=files.abstraction).to_json()
    assert json.dumps(again, sort_keys=True) == json.dumps(report, sort_keys=True)


def test_tampered_table_fails_the_hash_check(files, tmp_path):
    d = tmp_path / "tables"
    shutil.copytree(files.tables, d)
    rec = json.loads(files.receipt.read_text())
    rec["files"] = {str(d / k.rsplit("/", 1)[1]): v for k, v in rec["files"].items()}
    b = bytearray((d / "riemann-v06-standard.json").read_bytes())
    b[len(b) // 2] ^= 1
    (d / "riemann-v06-standard.json").write_bytes(bytes(b))
    res = verify(d, rec, 5, abstraction=files.abstraction).to_json()
    assert not res["pass"] and not res["checks"]["hashes"]["pass"] and res["checks"]["hashes"]["failures"] == 1
    assert "riemann-v06-standard.json" in res["examples"][0] and "does not match the receipt" in res["examples"][0]
    p = d / "riemann-v06-standard.parquet"
    b = bytearray(p.read_bytes())
    b[len(b) // 3] ^= 1
    p.write_bytes(bytes(b))
    res = verify(d, rec, 5, abstraction=files.abstraction).to_json()
    # one failure per broken file (json, parquet): the parquet's refused load is not a third (issue 29)
    assert not res["pass"] and res["checks"]["hashes"] == {"checked": 2, "failures": 2, "pass": False}
    assert res["hands"] == 0 and res["variants"]["standard"]["hands"] == 0  # listed, with no hands


def test_audit_catches_a_player_that_is_not_the_table(files):
    s = solved_standard()
    oracle = TableOracle(s.df, "standard", s.tables.classes, s.tables.buckets)
    res = play_match({"H": RandomPlayer(2), "R": RandomPlayer(3)}, 40, 5)
    fails = sum(len(audit_hand(r.log, oracle, 0)["failures"]) for r in res)
    assert fails > 10  # wrong actions and wrong keeps
    assert all(audit_rules(r.log, 0) == [] for r in res)  # ... but legal play


def test_rule_audit_catches_tampered_logs():
    r = play_match({"H": RandomPlayer(2), "R": RandomPlayer(3)}, 30, 8)
    assert engine_rules() == RULES_V05
    shown = next(x for x in r if x.reason == "showdown" and x.winner is not None)
    flipped = shown.log.replace(f'"winner":"{shown.winner}"', f'"winner":"{"H" if shown.winner == "R" else "R"}"')
    assert audit_rules(flipped, 0)
    bet = next(x for x in r if '"kind":"bet","amount":4' in x.log)
    assert any(
        "bets 3" in m for m in audit_rules(bet.log.replace('"kind":"bet","amount":4', '"kind":"bet","amount":3', 1), 0)
    )


def test_cli_verify(files, tmp_path, capsys):
    out = tmp_path / "verify.json"
    code = cli.main(
        [
            "verify",
            "--tables",
            str(files.tables),
            "--receipt",
            str(files.receipt),
            "--hands",
            "20",
            "--abstraction",
            str(files.abstraction),
            "--out",
            str(out),
            "--no-progress",
        ]
    )
    assert code == 0
    assert json.loads(out.read_text())["pass"] is True
    assert "PASS" in capsys.readouterr().out
    assert cli.main(["verify", "--tables", str(tmp_path / "none"), "--receipt", str(files.receipt)]) == 2


def test_cli_play_one_scripted_hand(files):
    args = cli.build_parser("play").parse_args(
        [
            "play",
            "--variant",
            "standard",
            "--tables",
            str(files.tables),
            "--abstraction",
            str(files.abstraction),
            "--seed",
            "3",
            "--hands",
            "1",
        ]
    )
    # keep all five, then always the first offered action (check, or call when facing a bet)
    stdin, stdout = io.StringIO("all\n" + "1\n" * 6), io.StringIO()
    assert play_cmd.run(args, stdin=stdin, stdout=stdout) == 0
    text = stdout.getvalue()
    assert "Your cards: 1:" in text and "you will draw 0" in text
    assert "Riemann: " in text and "Riemann drew" in text and "Deck: " in text
    assert text.count("=== Hand") == 1
    quit_out = io.StringIO()
    assert play_cmd.run(args, stdin=io.StringIO("q\n"), stdout=quit_out) == 0
    assert "Goodbye." in quit_out.getvalue()


def _hands_file(files, tmp_path, seed=7, hands=HANDS):
    out = tmp_path / f"hands-{seed}-{hands}.json"
    write_verify_hands(files.parquet, "standard", hands, seed, abstraction=files.abstraction, out=out)
    return out


def test_hands_played_apart_give_the_same_report(report, files, tmp_path):
    """The workflow plays each variant's hands in their own job (verify_hands) and merges them:
    the report is the one-process report, byte for byte."""
    split = verify(
        files.tables,
        files.receipt,
        HANDS,
        seed=7,
        abstraction=files.abstraction,
        hands_from={"standard": _hands_file(files, tmp_path)},
    ).to_json()
    assert json.dumps(split) == json.dumps(report)


def test_merged_examples_stop_at_the_cap():
    report = VerifyReport(1, 2, max_examples=3)
    report.fail("hashes", "first")
    part = {
        "variant": "wild",
        "stats": {"hands": 2, "decisions": 5, "converted": 0, "keeps": 1, "failures": 4},
        "checks": {c: {"pass": c != "replay", "checked": 2, "failures": 4 * (c == "replay")} for c in HAND_CHECKS},
        "examples": ["a", "b", "c", "d"],
    }
    report.merge(part)
    assert report.examples == ["hashes: first", "a", "b"] and report.failures == 5
    assert not report.checks["replay"]["pass"]
    assert report.checks["decisions"] == {"pass": True, "checked": 2, "failures": 0}
    assert report.variants == {"wild": part["stats"]}


@pytest.mark.parametrize(
    "damage,message",
    [
        ("missing", "No such file"),
        ("truncated", "Expecting"),
        ("other_seed", "seed 8 and 150 hands, not 7 and 150"),
        ("other_table", "with SHA-256 0000, not the receipt's"),
        ("other_variant", "not the hand checks of standard"),
        ("no_stats", "'stats'"),
        ("a_check_short", "the hand checks lack ['jbits']"),
        ("none", "no hand checks were given for"),
    ],
)
def test_hand_files_that_do_not_belong_fail_the_hash_check(files, tmp_path, damage, message):
    path = _hands_file(files, tmp_path, seed=8 if damage == "other_seed" else 7)
    part = json.loads(path.read_text())
    if damage == "missing":
        path.unlink()
    elif damage == "truncated":
        path.write_text(path.read_text()[:40])
    elif damage == "other_table":
        path.write_text(json.dumps({**part, "table_sha256": "0000"}))
    elif damage == "no_stats":
        path.write_text(json.dumps({k: v for k, v in part.items() if k != "stats"}))
    elif damage == "a_check_short":
        path.write_text(json.dumps({**part, "checks": {k: v for k, v in part["checks"].items() if k != "jbits"}}))
    elif damage == "other_variant":
        path.write_text(json.dumps({**part, "variant": "wild"}))
    given = {} if damage == "none" else {"standard": path}
    res = verify(files.tables, files.receipt, HANDS, seed=7, abstraction=files.abstraction, hands_from=given).to_json()
    assert not res["pass"] and res["checks"]["hashes"]["failures"] == 1 and res["hands"] == 0
    assert message in res["examples"][0] and "Traceback" not in res["examples"][0]
