"""The command line keeps its promise (issue 9): every command answers ``--help``; bad input is
one line on stderr naming the problem, exit 2, never a traceback; a failed verification is
exit 1 with its report; a bug is exit 70.  Each command has a table of bad inputs.
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from helpers import exported_standard, solved_standard

from poker51 import cli
from poker51.io import write_parquet
from poker51.rules import ABSTRACTION_TABLES

ROOT = Path(__file__).resolve().parents[1]
POPULATION = str(ROOT / "config" / "population.yaml")


# --------------------------------------------------------------------------- bad files
@pytest.fixture(scope="module")
def bad(tmp_path_factory) -> dict[str, str]:
    """Paths of bad inputs, by name: folders missing, empty, corrupt and truncated; YAML and
    receipts that are broken; the valid exported standard table and its abstraction."""
    d = tmp_path_factory.mktemp("bad")
    out = {"missing": str(d / "missing"), "empty": str(d / "empty")}
    (d / "empty").mkdir()
    good = pd.DataFrame({"a": np.arange(100, dtype=np.int64)})
    whole = write_parquet(good, d / "whole.parquet").read_bytes()
    for name, content in (("corrupt", b"not parquet"), ("truncated", whole[: len(whole) // 2])):
        for n in ABSTRACTION_TABLES:
            (d / name / "standard").mkdir(parents=True, exist_ok=True)
            (d / name / "standard" / f"{n}.parquet").write_bytes(content)
        (d / f"{name}_tables").mkdir()
        (d / f"{name}_tables" / "riemann-v06-standard.parquet").write_bytes(content)
        out[name], out[f"{name}_tables"] = str(d / name), str(d / f"{name}_tables")
    (d / "bad.yaml").write_text("weights: [\n")
    pop = yaml.safe_load(Path(POPULATION).read_text())
    pop["types"]["rock"]["softnes"] = pop["types"]["rock"].pop("softness")
    (d / "typo.yaml").write_text(yaml.safe_dump(pop))
    (d / "receipt.txt").write_text("this is not JSON {")
    (d / "nofiles.json").write_text(json.dumps({"format": "poker51-receipt/1"}))
    seats = [{"seat": 0, "name": "a", "buyin": "4"}, {"seat": 1, "name": "b", "buyin": 4}]
    (d / "buyin_text.json").write_text(json.dumps({"seats": seats, "hands": []}))
    out["buyin_text"] = str(d / "buyin_text.json")
    (d / "phh_full").mkdir()  # a PHH folder that holds a hand already
    (d / "phh_full" / "1.phh").write_text("variant = 'NT'\n")
    out["phh_full"] = str(d / "phh_full")
    (d / "fig.pdf").write_bytes(b"%PDF")  # an --figure FIG whose FIG.pdf exists
    out |= {"whole": str(d / "whole.parquet"), "fig": str(d / "fig")}
    out |= {n: str(d / f) for n, f in (("bad_yaml", "bad.yaml"), ("typo", "typo.yaml"))}
    out |= {"not_json": str(d / "receipt.txt"), "no_files": str(d / "nofiles.json"), "file": str(d / "bad.yaml")}
    ex = exported_standard()
    out |= {"tables": str(ex.tables), "receipt": str(ex.receipt), "abs_cb": str(ex.abstraction)}
    s = solved_standard()  # all four abstraction tables, for evidence
    s.tables.save({n: d / "abstraction" / "standard" / f"{n}.parquet" for n in ABSTRACTION_TABLES}, {})
    out["abstraction"] = str(d / "abstraction")
    for n in ABSTRACTION_TABLES:  # another variant's tables in the standard folder (issue 29)
        write_parquet(good, d / "wild_abs" / "standard" / f"{n}.parquet", metadata={"variant": "wild"})
    out["wild_abs"] = str(d / "wild_abs")
    return out


def run_cli(argv: list[str], capsys) -> tuple[int, str, str]:
    code = cli.main(argv)
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def assert_one_line_error(command: str, code: int, err: str, needle: str) -> None:
    assert code == 2, err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert err.startswith(f"poker51{' ' + command if command else ''}: error: "), err
    assert needle in err, (needle, err)
    assert "Traceback" not in err


def fill(argv: list[str], bad: dict[str, str]) -> list[str]:
    """``{name}`` in an argument is the path ``bad[name]``."""
    return [a.format(**bad) if "{" in a else a for a in argv]


# --------------------------------------------------------------------------- help and version
def test_top_level_help_lists_every_command_and_the_exit_codes(capsys):
    code, out, err = run_cli(["-h"], capsys)
    assert code == 0 and err == ""
    for name in cli.SUBCOMMANDS:
        assert f"    {name} " in out
    assert "95% CIs" in out  # the evidence help: its % once broke `poker51 -h`
    assert "exit codes: 0 done; 1 verify" in " ".join(out.split()) and "70 internal error" in out


@pytest.mark.parametrize("command", list(cli.SUBCOMMANDS))
def test_every_command_answers_help(command, capsys):
    code, out, err = run_cli([command, "--help"], capsys)
    assert code == 0 and err == ""
    assert out.startswith(f"usage: poker51 {command}") and "exit codes:" in out


def test_version(capsys):
    code, out, _ = run_cli(["--version"], capsys)
    assert code == 0 and out == f"poker51 {version('poker51')}\n"


def test_the_installed_command_as_a_process(bad):
    """The console script itself: -h (it used to crash), --version, and a bad input."""
    exe = Path(sys.executable).with_name("poker51")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "poker51.cli"]
    r = subprocess.run([*cmd, "-h"], capture_output=True, text=True)
    assert r.returncode == 0 and "evidence" in r.stdout and r.stderr == ""
    r = subprocess.run([*cmd, "--version"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == f"poker51 {version('poker51')}"
    r = subprocess.run([*cmd, "solve", "--game", "standard", "--population", bad["bad_yaml"]], capture_output=True)
    assert r.returncode == 2 and r.stdout == b""
    assert r.stderr.decode() == (
        f"poker51 solve: error: {bad['bad_yaml']}: line 2, column 1: not valid YAML "
        "(expected the node content, but found '<stream end>')\n"
    )


# --------------------------------------------------------------------------- bad inputs, per command
TOP = [
    ([], "the following arguments are required: COMMAND"),
    (["bogus"], "invalid choice: 'bogus'"),
    (["--bogus"], "the following arguments are required: COMMAND"),
]


@pytest.mark.parametrize("argv,needle", TOP)
def test_top_level_bad_input(argv, needle, capsys):
    code, _, err = run_cli(argv, capsys)
    assert_one_line_error("", code, err, needle)


#: what every loader says of another variant's abstraction (tests/test_loaders.py has the loaders' table)
WILD_CLASSES = (
    "{wild_abs}/standard/classes.parquet: the classes table of variant wild (poker51.variant), not of standard"
)

BAD_INPUTS: dict[str, list[tuple[list[str], str]]] = {
    "census": [
        (["--deck", "nope"], "unknown deck 'nope'"),
        (["--remove", "1x"], "unknown card '1x'"),
        (["--remove", "5h,5h"], "5h"),
        (["--deck", "standard", "--remove", "2c"], "2c"),
        (["--marker", "2c", "--rule", "joker"], "joker"),
        (["--out", "counts.csv"], "--out 'counts.csv': expected a .parquet file name"),
        (["--jsn"], "unrecognized arguments: --jsn"),
        (["--game", "omaha7"], "no census for game 'omaha7'"),
        (["--game", "holdem", "--deck", "full52"], "--game counts a rule book game: it takes no --deck"),
        (["--game", "omaha", "--samples", "0"], "--samples 0: at least 1"),
        (["--game", "omaha", "--samples", "100", "--seed", "-1"], "--seed -1: a seed is a non-negative integer"),
        (["--marker", "2c,3c"], "--marker 2c,3c: one marker card is allowed, got 2"),
        (["--out", "{whole}"], "--out {whole}: exists; give --force to replace it"),
    ],
    "solve": [
        (["--game", "chess"], "unknown game 'chess'"),
        (["--algorithm", "sgd"], "unknown algorithm 'sgd'"),
        (["--iterations", "0"], "--iterations must be at least 1"),
        (["--iterations", str(10**20)], f"--iterations {10**20}: at most 2**62 = {2**62}"),
        (["--game", "standard", "--iterations", str(2**62 + 1)], f"--iterations {2**62 + 1}: at most 2**62"),
        (["--iterations", "many"], "argument --iterations: invalid int value: 'many'"),
        (["--check-first", "0"], "--check-first must be at least 1"),
        (["--check-growth", "1"], "--check-growth must be at least 1.02"),
        (["--check-growth", "nan"], "--check-growth must be at least 1.02"),
        (["--game", "standard", "--check-first", "0"], "--check-first must be at least 1"),
        (["--target-exploitability", "-1"], "--target-exploitability must be positive"),
        (["--target-exploitability", "nan"], "--target-exploitability must be positive"),
        (["--game", "kuhn", "--p", "0.5"], "--p, --population and --abstraction apply to Poker 51 games"),
        (["--game", "standard", "--p", "1.5"], "--p must be in [0, 1]"),
        (["--game", "standard", "--abstraction", "{missing}"], "{missing}: no abstraction tables for 'standard'"),
        (["--game", "standard", "--abstraction", "{empty}"], "{empty}: no abstraction tables for 'standard'"),
        (["--game", "standard", "--abstraction", "{corrupt}"], "{corrupt}/standard/classes.parquet: not a readable"),
        (["--game", "standard", "--abstraction", "{truncated}"], "{truncated}/standard/classes.parquet: not a"),
        (["--game", "standard", "--population", "{bad_yaml}"], "{bad_yaml}: line 2, column 1: not valid YAML"),
        (["--game", "standard", "--population", "{typo}"], "{typo}: types.rock.softnes: unknown key"),
        (["--game", "standard", "--population", "{missing}"], "{missing}: no such population file"),
        (["--game", "standard", "--population", "{empty}"], "{empty}: is a directory, not a population file"),
        (["--game", "kuhn", "--out", "{file}"], "--out {file}: exists and is not a directory"),
        (["--game", "standard", "--abstraction", "{wild_abs}"], WILD_CLASSES),
    ],
    "evidence": [
        (["--variant", "nope", "--v06", "check-call"], "unknown variant 'nope'"),
        (["--hands", "0", "--v06", "check-call"], "--hands must be at least 1"),
        (["--hands", str(2**31), "--v06", "check-call"], f"--hands {2**31}: at most 2**31 - 1 = {2**31 - 1}"),
        (["--seed", "-1", "--v06", "check-call"], "--seed must be non-negative"),
        (["--stack", "0", "--v06", "check-call"], "--stack must be at least 1"),
        (["--out", "{whole}", "--v06", "check-call"], "--out {whole}: exists; give --force to replace it"),
        (["--hands-out", "{empty}", "--v06", "check-call"], "--hands-out {empty}: is a directory; give a file name"),
        (["--figure", "{fig}", "--v06", "check-call"], "--figure {fig}.pdf: exists; give --force to replace it"),
        (["--tables", "{empty}"], "--tables {empty}: no riemann-v06-standard.parquet"),
        (["--population", "{missing}", "--v06", "check-call"], "{missing}: no such population file"),
        (["--population", "{bad_yaml}", "--v06", "check-call"], "{bad_yaml}: line 2, column 1: not valid YAML"),
        (["--population", "{typo}", "--v06", "check-call"], "{typo}: types.rock.softnes: unknown key"),
        (["--abstraction", "{corrupt}", "--v06", "check-call"], "{corrupt}/standard/classes.parquet: not a"),
        (["--abstraction", "{missing}", "--v06", "check-call"], "{missing}: no abstraction tables"),
        (["--abstraction", "{wild_abs}", "--v06", "check-call"], WILD_CLASSES),
        (["--v06", "no-colon", "--population", POPULATION], "--v06 'no-colon': expected"),
        (["--v06", "no_such_module:f", "--abstraction", "{abstraction}"], "--v06 'no_such_module:f': cannot load"),
        (["--tables", "{corrupt_tables}", "--abstraction", "{abstraction}"], "riemann-v06-standard.parquet"),
        (["--tables", "{truncated_tables}", "--abstraction", "{abstraction}"], "riemann-v06-standard.parquet"),
        (
            ["--tables", "{tables}", "--abstraction", "{abstraction}", "--receipt", "{not_json}"],
            "{not_json}: not a readable receipt",
        ),
        (
            ["--tables", "{tables}", "--abstraction", "{abstraction}", "--receipt", "{no_files}"],
            "{no_files}: not a receipt (no 'files' map)",
        ),
    ],
    "verify": [
        (["--tables", "{tables}"], "the following arguments are required: --receipt"),
        (["--tables", "{missing}", "--receipt", "{receipt}"], "--tables {missing}: not a directory"),
        (["--tables", "{empty}", "--receipt", "{receipt}"], "{empty}: no"),
        (["--tables", "{tables}", "--receipt", "{missing}"], "--receipt {missing}: no such file"),
        (["--tables", "{tables}", "--receipt", "{not_json}"], "{not_json}: not a readable receipt"),
        (["--tables", "{tables}", "--receipt", "{no_files}"], "{no_files}: not a receipt (no 'files' map)"),
        (["--tables", "{tables}", "--receipt", "{receipt}", "--hands", "0"], "--hands must be at least 1"),
        (
            ["--tables", "{tables}", "--receipt", "{receipt}", "--hands", str(10**20)],
            f"--hands {10**20}: at most 2**63",
        ),
        (["--tables", "{tables}", "--receipt", "{receipt}", "--out", "{file}"], "--out {file}: exists; give --force"),
        (["--tables", "{tables}", "--receipt", "{receipt}", "--abstraction", "{missing}"], "not a directory"),
        (
            ["--tables", "{tables}", "--receipt", "{receipt}", "--abstraction", "{corrupt}"],
            "{corrupt}/standard/classes.parquet: not a readable Parquet table",
        ),
        (["--tables", "{tables}", "--receipt", "{receipt}", "--out", "{empty}"], "--out {empty}: is a directory"),
        (
            ["--tables", "{tables}", "--receipt", "{receipt}", "--abstraction", "{wild_abs}"],
            "{wild_abs}/standard/classes.parquet: the class table of variant wild (poker51.variant), not of standard",
        ),
    ],
    "play": [
        ([], "the following arguments are required: --tables"),
        (["--tables", "{empty}"], "{empty}/riemann-v06-standard.parquet: no such table"),
        (["--tables", "{tables}", "--variant", "nope"], "unknown variant 'nope'"),
        (["--tables", "{tables}", "--stack", "0"], "--stack must be at least 1"),
        (["--tables", "{corrupt_tables}"], "{corrupt_tables}/riemann-v06-standard.parquet"),
        (["--tables", "{tables}", "--receipt", "{not_json}"], "{not_json}: not a readable receipt"),
        (["--tables", "{tables}", "--abstraction", "{corrupt}"], "{corrupt}/standard/classes.parquet"),
        (["--tables", "{tables}", "--seed", "x"], "argument --seed: invalid int value: 'x'"),
        (["--tables", "{tables}", "--save", "{file}"], "--save {file}: exists; give --force to replace it"),
        (["--tables", "{tables}", "--save", "{empty}"], "--save {empty}: is a directory; give a file name"),
        (
            ["--tables", "{tables}", "--abstraction", "{wild_abs}"],
            "{wild_abs}/standard/classes.parquet: the class table of variant wild (poker51.variant), not of standard "
            "(the variant of {tables}/riemann-v06-standard.parquet)",
        ),
    ],
    "multi": [  # the full table is tests/multi/test_cli.py
        ([], "the following arguments are required"),
        (["frob"], "invalid choice: 'frob'"),
        (["run", "{missing}"], "{missing}: no such scenario file"),
        (["run", "{not_json}"], "{not_json}: line 1, column 1: not JSON (Expecting value)"),
        (["check", "{missing}"], "{missing}: no such log"),
        (["run", "{empty}"], "{empty}: is a directory, not a scenario file"),
        (["check", "{empty}"], "{empty}: is a directory, not a log file"),
        (["check", "{not_json}"], "{not_json}:1:1: not JSON (Expecting value)"),
        (["run", "{buyin_text}"], "{buyin_text}: seats[0].buyin: expected integer, got '4'"),
        (["run", "{not_json}", "--log", "{file}"], "--log {file}: exists; give --force to replace it"),
        (["run", "{not_json}", "--log", "{empty}"], "--log {empty}: is a directory; give a file name"),
    ],
    "hand": [  # more in tests/rulebook/test_reading.py
        ([], "the following arguments are required: --game, --hole, --board"),
        (["--game", "chess", "--hole", "As,Kd", "--board", "Ah,Kh,7c"], "unknown game 'chess'"),
        (["--game", "omaha", "--hole", "As,Kd", "--board", "Ah,Kh,7c"], "OG Omaha deals 4 hole cards, got 2 (As Kd)"),
        (["--game", "holdem", "--hole", "As,1x", "--board", "Ah,Kh,7c"], "unknown card '1x'"),
        (["--game", "holdem", "--hole", "As,Kd", "--board", "Ah,Kh"], "a board is 3, 4 or 5 cards, got 2 (Ah Kh)"),
        (["--game", "holdem", "--hole", "As,As", "--board", "Ah,Kh,7c"], "card As is given twice"),
    ],
    "serve": [  # the service itself: tests/service/
        (["--tables", "{tables}", "--host", "0.0.0.0"], "--host 0.0.0.0: not a loopback address"),
        (["--tables", "{tables}", "--host", "example.org"], "only with --public"),
        (["--tables", "{tables}", "--port", "0"], "--port 0: a port is 1..65535"),
        (["--tables", "{tables}", "--port", "x"], "argument --port: invalid int value: 'x'"),
        (["--tables", "{missing}"], "--tables {missing}: not a directory"),
        (["--tables", "{empty}"], "{empty}/riemann-v06-standard.parquet: no such table"),
        (["--tables", "{corrupt_tables}"], "{corrupt_tables}/riemann-v06-standard.parquet"),
        (["--tables", "{tables}", "--receipt", "{not_json}"], "{not_json}: not a readable receipt"),
        (
            ["--tables", "{tables}", "--abstraction", "{abs_cb}", "--db", "mysql://x@y/z"],
            "runs on sqlite or postgresql, not mysql",
        ),
        (["--tables", "{tables}", "--abstraction", "{abs_cb}", "--db", "sqlite://"], "needs a database file"),
    ],
    "exploit": [
        ([], "the following arguments are required: --table"),
        (["--table", "{missing}"], "--table {missing}: no such file"),
        (["--table", "{empty}"], "--table {empty}: is a directory, not a table file"),
        (["--table", "{missing}", "--hands", "1"], "--hands 1: between 2"),
        (["--table", "{missing}", "--seed", "-1"], "--seed -1: a seed is a non-negative integer"),
        (["--table", "{missing}", "--strategy", "lbr"], "unknown strategy 'lbr'"),
        (["--table", "{missing}", "--strategy", "gind,gind"], "a strategy is named twice"),
        (["--table", "{missing}", "--variant", "poker"], "unknown variant 'poker'"),
        (["--table", "{missing}", "--out", "x.csv"], "--out 'x.csv': expected a .parquet file name"),
        (["--table", "{missing}", "--out", "{whole}"], "--out {whole}: exists; give --force to replace it"),
        (["--table", "{corrupt_tables}/riemann-v06-standard.parquet"], "riemann-v06-standard.parquet"),
        (["--table", "{tables}/riemann-v06-standard.parquet", "--variant", "wild"], "a 'standard' table, not 'wild'"),
        (["--table", "{tables}/riemann-v06-standard.parquet", "--abstraction", "{missing}"], "no abstraction tables"),
        (["--table", "{tables}/riemann-v06-standard.parquet", "--receipt", "{not_json}"], "{not_json}"),
    ],
    "rulebook": [  # illegal actions: tests/rulebook/test_scenario.py
        ([], "the following arguments are required: {{run,check,phh}}"),
        (["frob"], "invalid choice: 'frob'"),
        (["run", "{missing}"], "{missing}: no such scenario file"),
        (["run", "{empty}"], "{empty}: is a directory, not a scenario file"),
        (["run", "{not_json}"], "{not_json}: line 1, column 1: not JSON (Expecting value)"),
        (["check", "{missing}"], "{missing}: no such log"),
        (["check", "{empty}"], "{empty}: is a directory, not a log file"),
        (["check", "{not_json}"], "{not_json}:1:1: not JSON (Expecting value)"),
        (["run", "{not_json}", "--log", "{file}"], "--log {file}: exists; give --force to replace it"),
        (["run", "{not_json}", "--log", "{empty}"], "--log {empty}: is a directory; give a file name"),
        (["phh", "{missing}", "{empty}"], "{missing}: no such log"),
        (["run", "{not_json}", "--phh", "{file}"], "--phh {file}: exists and is not a directory"),
        (
            ["run", "{not_json}", "--phh", "{phh_full}"],
            "--phh {phh_full}: already holds .phh files; give --force to replace them",
        ),
    ],
}


@pytest.mark.parametrize(
    "command,argv,needle",
    [(c, argv, needle) for c, cases in BAD_INPUTS.items() for argv, needle in cases],
    ids=[f"{c}:{' '.join(argv)}" for c, cases in BAD_INPUTS.items() for argv, _ in cases],
)
def test_bad_input_is_one_line_and_exit_2(command, argv, needle, bad, capsys):
    code, out, err = run_cli([command, *fill(argv, bad)], capsys)
    assert_one_line_error(command, code, err, needle.format(**bad))
    assert out == ""


def test_every_command_has_a_table_of_bad_inputs():
    assert set(BAD_INPUTS) == set(cli.SUBCOMMANDS)
    assert all(len(cases) >= 5 for cases in BAD_INPUTS.values())


# --------------------------------------------------------------------------- records: never replaced unasked
def test_a_log_or_phh_folder_is_replaced_only_with_force(tmp_path, capsys):
    """``multi run --log``, ``rulebook run --log/--phh`` and ``rulebook phh`` refuse what is
    there (exit 2, the file untouched) and replace it with ``--force``, to the same bytes."""
    multi = [str(ROOT / "docs" / "examples" / "multi" / "side_pots.json"), "--log", str(tmp_path / "t.log")]
    assert cli.main(["multi", "run", *multi]) == 0
    first = (tmp_path / "t.log").read_bytes()
    (tmp_path / "t.log").write_bytes(b"kept")
    capsys.readouterr()
    assert cli.main(["multi", "run", *multi]) == 2
    assert "--log" in capsys.readouterr().err and (tmp_path / "t.log").read_bytes() == b"kept"
    assert cli.main(["multi", "run", *multi, "--force"]) == 0
    assert (tmp_path / "t.log").read_bytes() == first and cli.main(["multi", "check", str(tmp_path / "t.log")]) == 0

    log, phh = tmp_path / "hands.jsonl", tmp_path / "phh"
    scenario = str(ROOT / "docs" / "examples" / "rulebook" / "committed.json")
    assert cli.main(["rulebook", "run", scenario, "--log", str(log), "--phh", str(phh)]) == 0
    hand = (phh / "1.phh").read_bytes()
    (phh / "1.phh").write_bytes(b"kept")
    log.unlink()
    capsys.readouterr()
    assert cli.main(["rulebook", "run", scenario, "--log", str(log), "--phh", str(phh)]) == 2
    assert "already holds .phh files" in capsys.readouterr().err and not log.exists()
    assert cli.main(["rulebook", "run", scenario, "--log", str(log), "--phh", str(phh), "--force"]) == 0
    assert (phh / "1.phh").read_bytes() == hand
    (phh / "1.phh").write_bytes(b"kept")
    assert cli.main(["rulebook", "phh", str(log), str(phh)]) == 2
    assert (phh / "1.phh").read_bytes() == b"kept"
    assert cli.main(["rulebook", "phh", str(log), str(phh), "--force"]) == 0
    assert (phh / "1.phh").read_bytes() == hand


def test_census_out_replaces_a_file_only_with_force(tmp_path, capsys):
    out = tmp_path / "counts.parquet"
    out.write_bytes(b"kept")
    assert run_cli(["census", "--deck", "standard", "--out", str(out)], capsys)[0] == 2
    assert out.read_bytes() == b"kept"
    assert run_cli(["census", "--deck", "standard", "--out", str(out), "--force"], capsys)[0] == 0
    assert int(pd.read_parquet(out)["count"].sum()) == 2598960 - 249900  # C(51, 5): no 2c in the deck


def test_census_draws_no_progress_bar_off_a_terminal(capsys):
    """Progress goes to a terminal only: captured stderr (not a terminal) stays empty."""
    code, out, err = run_cli(["census", "--game", "omaha", "--samples", "3000", "--seed", "1"], capsys)
    assert code == 0 and err == ""
    assert out.startswith("omaha: 3,000 hands (estimate from 3,000 seeded deals (seed 1))")


# --------------------------------------------------------------------------- verify: 0, 1 and no file unasked
def test_verify_passes_without_writing_a_file(bad, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    argv = ["verify", "--tables", bad["tables"], "--receipt", bad["receipt"], "--abstraction", bad["abs_cb"]]
    code, out, err = run_cli([*argv, "--hands", "5", "--no-progress"], capsys)
    assert code == 0 and out.splitlines()[-1].startswith("PASS: 5 hands, ")
    assert list(tmp_path.iterdir()) == []  # no results/verify.json: writing is opt-in


def test_a_failed_check_is_exit_1_with_its_report(bad, tmp_path, capsys):
    rec = json.loads(Path(bad["receipt"]).read_text())
    table = next(k for k in rec["files"] if k.endswith(".json"))  # the Parquet table still loads and plays
    rec["files"][table] = "0" * 64
    tampered = tmp_path / "receipt.json"
    tampered.write_text(json.dumps(rec))
    report = tmp_path / "report.json"
    argv = ["verify", "--tables", bad["tables"], "--receipt", str(tampered), "--abstraction", bad["abs_cb"]]
    code, out, _ = run_cli([*argv, "--hands", "3", "--no-progress", "--out", str(report)], capsys)
    assert code == 1
    assert "hashes    FAIL           2 checked      1 failures" in out
    assert out.splitlines()[-1].startswith("FAIL: 3 hands") and "decisions pass" in out
    assert f"does not match the receipt's {'0' * 64}" in out
    written = json.loads(report.read_text())
    assert written["pass"] is False and written["checks"]["hashes"] == {"checked": 2, "failures": 1, "pass": False}


def test_one_flipped_bit_is_one_failure_and_every_variant_is_listed(bad, tmp_path, capsys):
    """A flipped bit in a table used to count twice, and its variant vanished from the summary."""
    import shutil

    tables = Path(shutil.copytree(bad["tables"], tmp_path / "tables"))
    parquet = next(tables.glob("*.parquet"))
    raw = bytearray(parquet.read_bytes())
    raw[len(raw) // 2] ^= 1
    parquet.write_bytes(bytes(raw))
    argv = ["verify", "--tables", str(tables), "--receipt", bad["receipt"], "--abstraction", bad["abs_cb"]]
    code, out, _ = run_cli([*argv, "--hands", "2", "--no-progress", "--json"], capsys)
    res = json.loads(out)
    assert code == 1 and res["checks"]["hashes"] == {"checked": 2, "failures": 1, "pass": False}
    assert res["variants"]["standard"]["hands"] == 0 and res["failures"] == 1
    code, out, _ = run_cli([*argv, "--hands", "2", "--no-progress"], capsys)
    assert out.splitlines()[0].startswith("standard          0 hands") and "np.float64" not in out


def test_a_zeroed_hash_keeps_its_variant_in_the_summary(bad, tmp_path, capsys):
    rec = json.loads(Path(bad["receipt"]).read_text())
    table = next(k for k in rec["files"] if k.endswith(".parquet"))
    rec["files"][table] = "0" * 64
    (tmp_path / "receipt.json").write_text(json.dumps(rec))
    argv = ["verify", "--tables", bad["tables"], "--receipt", str(tmp_path / "receipt.json"), "--abstraction"]
    code, out, _ = run_cli([*argv, bad["abs_cb"], "--hands", "3", "--no-progress", "--json"], capsys)
    res = json.loads(out)
    assert code == 1 and res["checks"]["hashes"]["failures"] == 1 and res["variants"]["standard"]["hands"] == 3


def test_verify_out_replaces_a_file_only_with_force(bad, tmp_path, capsys):
    report = tmp_path / "report.json"
    report.write_text("keep me")
    argv = ["verify", "--tables", bad["tables"], "--receipt", bad["receipt"], "--abstraction", bad["abs_cb"]]
    code, _, err = run_cli([*argv, "--hands", "2", "--no-progress", "--out", str(report)], capsys)
    assert code == 2 and report.read_text() == "keep me"
    code, _, _ = run_cli([*argv, "--hands", "2", "--no-progress", "--out", str(report), "--force"], capsys)
    assert code == 0 and json.loads(report.read_text())["pass"] is True


def test_verify_shows_progress_on_a_terminal_only(bad, capsys):
    """``verify --hands 1000000`` ran minutes with no output: a tqdm bar per variant, by
    default when stderr is a terminal (captured stderr is not: nothing), or with --progress."""
    argv = ["verify", "--tables", bad["tables"], "--receipt", bad["receipt"], "--abstraction", bad["abs_cb"]]
    code, _, err = run_cli([*argv, "--hands", "3"], capsys)
    assert code == 0 and err == ""
    code, _, err = run_cli([*argv, "--hands", "3", "--progress"], capsys)
    assert code == 0 and "verify standard: 100%" in err and "3/3 [" in err


# --------------------------------------------------------------------------- play
def test_play_takes_words_shows_categories_totals_the_session_and_saves_the_hands(bad, tmp_path):
    import io

    from poker51.commands import play
    from poker51.play.engine import replay

    save = tmp_path / "results" / "hands.jsonl"
    argv = ["play", "--tables", bad["tables"], "--abstraction", bad["abs_cb"], "--seed", "3", "--hands", "2"]
    args = cli.build_parser("play").parse_args([*argv, "--save", str(save)])
    out = io.StringIO()

    class Person:  # keeps all five, then "c" (check or call) at every bet
        def readline(self) -> str:
            return "all\n" if out.getvalue().rstrip("> ").rstrip().endswith('"none":') else "c\n"

    assert play.run(args, stdin=Person(), stdout=out) == 0  # type: ignore[arg-type]
    text = out.getvalue()
    assert text.count("The draw: say now which of your five cards you keep") == 1  # explained once
    dealt = [line for line in text.splitlines() if line.startswith("Your cards: 1:")]
    assert dealt and all(line.endswith(")") for line in dealt)  # the category, as dealt
    assert "Please give" not in text  # "c" was understood every time
    net = sum(int(line.split("your net ")[1].split(".")[0]) for line in text.splitlines() if "): your net " in line)
    assert text.rstrip().endswith(f"Session: 2 hands, your net {net:+d} jbits. The hands' logs are in {save}.")
    hands, current = [], []  # the saved file: each hand's engine log, one after the other
    for line in save.read_text().splitlines():
        if line.startswith('{"event":"hand"') and current:
            hands.append(current)
            current = []
        current.append(line)
    hands.append(current)
    assert len(hands) == 2
    for h in hands:  # each replays to its own bytes, and its result is the one printed
        log = "\n".join(h) + "\n"
        assert replay(log).log_bytes == log.encode()
    quit_out = io.StringIO()
    assert play.run(cli.build_parser("play").parse_args(argv), stdin=io.StringIO("q\n"), stdout=quit_out) == 0
    assert "Session: 0 hands, your net +0 jbits.\nGoodbye." in quit_out.getvalue()


# --------------------------------------------------------------------------- solve --out
def test_solve_out_saves_the_policy_and_its_summary(tmp_path, capsys):
    code, out, _ = run_cli(["solve", "--game", "kuhn", "--iterations", "200", "--json", "--out", str(tmp_path)], capsys)
    assert code == 0
    printed = json.loads(out)
    policy = np.load(tmp_path / "policy.npy")
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary == {**printed, "num_infosets": 12, "num_actions": 24}
    assert policy.shape == (24,) and np.allclose(np.add.reduceat(policy, np.arange(0, 24, 2)), 1.0)
    (tmp_path / "summary.json").write_text("kept")  # a second solve into the folder: only with --force
    argv = ["solve", "--game", "kuhn", "--iterations", "100", "--json", "--out", str(tmp_path)]
    code, _, err = run_cli(argv, capsys)
    assert code == 2 and "holds policy.npy and summary.json already; give --force" in err
    assert (tmp_path / "summary.json").read_text() == "kept"
    assert run_cli([*argv, "--force"], capsys)[0] == 0
    assert json.loads((tmp_path / "summary.json").read_text())["iterations"] == 100


def test_solve_out_on_a_poker51_game(bad, tmp_path, capsys):
    from poker51.abstraction.tables import AbstractionTables
    from poker51.games.abstract import build_game
    from poker51.solver.best_response import expected_value

    argv = ["solve", "--game", "standard", "--abstraction", bad["abstraction"], "--p", "0.5"]
    code, out, _ = run_cli([*argv, "--iterations", "4", "--check-first", "2", "--json", "--out", str(tmp_path)], capsys)
    assert code == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["abstraction"] == bad["abstraction"] and summary["iterations"] == 4
    game = build_game(AbstractionTables.load(Path(bad["abstraction"]) / "standard", "standard").arrays())
    policy = np.load(tmp_path / "policy.npy")
    assert policy.shape == (game.num_actions,) == (summary["num_actions"],)
    # the saved policy is the one whose value was printed: Riemann's value is -(player 0's)
    assert -expected_value(game, policy, 0) == pytest.approx(json.loads(out)["value"], abs=1e-12)


# --------------------------------------------------------------------------- bugs and interrupts
def test_a_bug_is_exit_70_with_one_line(monkeypatch, capsys):
    from poker51.commands import census

    def broken(args):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(census, "run", broken)
    monkeypatch.delenv("POKER51_TRACEBACK", raising=False)
    code, _, err = run_cli(["census"], capsys)
    assert code == 70 and err.count("\n") == 1
    assert err.startswith("poker51 census: internal error (a bug in poker51") and "ZeroDivisionError" in err
    monkeypatch.setenv("POKER51_TRACEBACK", "1")
    code, _, err = run_cli(["census"], capsys)
    assert code == 70 and "Traceback (most recent call last)" in err


def test_interrupt_is_exit_130(monkeypatch, capsys):
    from poker51.commands import census

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(census, "run", interrupted)
    code, _, err = run_cli(["census"], capsys)
    assert code == 130 and err == "poker51 census: interrupted\n"


def test_ctrl_c_stops_a_long_solve_within_seconds_and_leaves_no_out_folder(tmp_path):
    """``solve --game leduc --iterations 10^8`` was one Numba call that ignored SIGINT for
    minutes and left an empty ``--out`` folder: now exit 130 within 5 s, and no folder.  The
    child's stderr is a terminal, so its progress bar says when the solve has started."""
    cli.main(["solve", "--game", "leduc", "--iterations", "2", "--json"])  # compiled: the child loads the cache
    argv = ["solve", "--game", "leduc", "--iterations", "100000000", "--out", str(tmp_path / "solve")]
    code, took, rest = interrupt_when_running(argv, b"dcfr leduc")
    assert code == 130 and took < 5
    assert b"poker51 solve: interrupted" in rest
    assert list(tmp_path.iterdir()) == []


def interrupt_when_running(argv: list[str], started: bytes) -> tuple[int, float, bytes]:
    """Run ``poker51 ARGV`` with its stderr on a terminal, wait until its progress bar shows a
    rate (chunks have run) and names ``started``, send SIGINT: (exit code, seconds from the
    signal to the exit, what it printed after)."""
    import fcntl
    import os
    import pty
    import re
    import select
    import signal
    import struct
    import termios
    import time

    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    rate = re.compile(rb"\d ?(it|hand|board)/s")
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    # SIGINT as at a terminal even when this run was started in the background (which ignores it)
    child = subprocess.Popen([sys.executable, "-m", "poker51.cli", *argv], env=env, stdout=subprocess.DEVNULL,
                             stderr=slave, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # fmt: skip
    os.close(slave)

    def read(seconds: float) -> bytes:
        got = b""
        while select.select([master], [], [], seconds)[0]:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            got += chunk
            if rate.search(got):
                break
        return got

    try:
        seen, deadline = b"", time.monotonic() + 120
        while not (rate.search(seen) and started in seen) and time.monotonic() < deadline:
            seen += read(1.0)
        assert started in seen and child.poll() is None, seen
        sent = time.perf_counter()
        child.send_signal(signal.SIGINT)
        code = child.wait(timeout=10)
        took = time.perf_counter() - sent
        rest = read(0.5)
    finally:
        child.kill()
        os.close(master)
    return code, took, rest


def test_ctrl_c_stops_a_long_verify_and_census_within_seconds(bad, tmp_path):
    """The other long commands as processes: ``verify --hands 10^6`` (a loop of hands) and the
    exact Omaha census (chunks of boards) stop within 5 s of a SIGINT, exit 130, and a
    ``verify --out`` file is not written."""
    report = tmp_path / "report.json"
    verify = ["verify", "--tables", bad["tables"], "--receipt", bad["receipt"], "--abstraction", bad["abs_cb"]]
    code, took, rest = interrupt_when_running([*verify, "--hands", "1000000", "--out", str(report)], b"verify standard")
    assert code == 130 and took < 5 and b"poker51 verify: interrupted" in rest
    assert not report.exists() and list(tmp_path.iterdir()) == []
    code, took, rest = interrupt_when_running(["census", "--game", "omaha"], b"census")
    assert code == 130 and took < 5 and b"poker51 census: interrupted" in rest


def test_exit_codes_are_documented():
    readme = (ROOT / "README.md").read_text()
    for code in ("`0`", "`1`", "`2`", "`70`", "`130`"):
        assert code in readme.split("## The command line", 1)[1].split("\n## ", 1)[0], code
