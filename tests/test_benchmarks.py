"""The benchmark scripts refuse a bad option with one line and exit 2, before any work."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "script,args,message",
    [
        ("bench_machine.py", ["--repeat", "0"], "--repeat must be at least 1, got 0"),
        ("bench_machine.py", ["--repeat", "many"], "argument --repeat: invalid int value: 'many'"),
        ("bench_pipeline.py", ["--warm-clock", "-1"], "--warm-clock must be 0 or more, got -1"),
        ("bench_pipeline.py", ["--warm-clock", "soon"], "argument --warm-clock: invalid int value: 'soon'"),
        ("bench_service_load.py", ["--tables", "0"], "--tables must be at least 1, got 0"),
        ("bench_service_load.py", ["--seconds", "0"], "--seconds must be in (0, 600], got 0"),
        ("bench_service_load.py", ["--think-ms", "-1"], "--think-ms must be 0..10000, got -1"),
        ("bench_service_load.py", ["--think-ms", "20000"], "--think-ms must be 0..10000, got 20000"),
        ("bench_service_load.py", ["--style", "wild"], "argument --style: invalid choice: 'wild'"),
        ("bench_service_load.py", ["--tables-dir", "nowhere"], "--tables-dir nowhere: no riemann-v06-standard.parquet"),
        ("compare_commits.py", ["--rounds", "0"], "--rounds must be at least 1, got 0"),
        ("compare_commits.py", ["--base", "no-such-rev"], "--base no-such-rev: not a commit of"),
        ("compare_commits.py", ["--script", "../Makefile"], "--script ../Makefile: not a script of"),
        ("compare_commits.py", ["--script", "bench_nothing.py"], "--script bench_nothing.py: not a script of"),
        ("compare_commits.py", ["--abstraction", "x"], "unrecognized arguments: --abstraction x"),
    ],
)
def test_bad_options_are_refused_in_one_line(script, args, message, tmp_path):
    r = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args], capture_output=True, text=True, cwd=tmp_path
    )
    assert r.returncode == 2 and r.stdout == ""
    last = r.stderr.strip().splitlines()[-1]
    assert message in last and "Traceback" not in r.stderr


def test_job_seconds_add_up_by_rule(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import bench_pipeline

    folder = tmp_path / "benchmarks"
    folder.mkdir()
    head = "s\th:m:s\tmax_rss\n"
    for stem, s in [
        ("solve_standard_p0", 30.5),
        ("solve_wild_p0.1", 9.5),
        ("census_removal", 2.0),
        ("evidence_bug", 18.0),
    ]:
        (folder / f"{stem}.tsv").write_text(f"{head}{s}\t0:00:00\t100\n")
    line = bench_pipeline.job_seconds(str(tmp_path), 2)
    assert line.split()[3] == "60" and "(solve 40, evidence 18, census_removal 2)" in line
    assert line.endswith("at least 0.5 min on 2 cores")


def test_compare_commits_alternates_the_sides_and_removes_the_worktree(monkeypatch, capsys):
    """Base first in every round, only the lines of the keys, the failing run's last lines,
    exit status 1 when a run failed, and no worktree left behind."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import compare_commits

    calls = []

    def fake(root, script, args):
        calls.append((root, script, tuple(args)))
        if len(calls) == 4:
            return 1, "Traceback (most recent call last):\nValueError: broken"
        return 0, f"header\nNash to 0.001   {len(calls)}.0 s\nnoise\n1 thread   iteration {len(calls)} ms\n"

    monkeypatch.setattr(compare_commits, "run_side", fake)
    before = subprocess.run(["git", "-C", str(ROOT), "worktree", "list"], capture_output=True, text=True).stdout
    code = compare_commits.main(["--rounds", "2", "--", "--threads", "1"])
    out = capsys.readouterr().out
    assert code == 1
    roots = [c[0] for c in calls]
    assert len(calls) == 4 and roots[1] == roots[3] == ROOT and roots[0] == roots[2] != ROOT
    assert all(c[1:] == ("bench_poker51.py", ("--threads", "1")) for c in calls)
    blocks = out.split("-- round ")[1:]
    assert [b.splitlines()[0].split(",")[1].split()[0] for b in blocks] == ["base", "this", "base", "this"]
    assert "Nash to 0.001   1.0 s" in blocks[0] and "1 thread   iteration 3 ms" in blocks[2]
    assert "noise" not in out and "header" not in out
    assert blocks[3].splitlines()[0].endswith("exit status 1") and "ValueError: broken" in blocks[3]
    after = subprocess.run(["git", "-C", str(ROOT), "worktree", "list"], capture_output=True, text=True).stdout
    assert after == before and not Path(roots[0]).exists()


def _poker51_names(source: str) -> list[str]:
    """Every ``poker51.module.name`` a script uses by name: ``from poker51... import name``, in
    its code and in the code it hands to a fresh interpreter as a string, and ``module.name``
    where ``module`` is a poker51 module it imported."""
    tree = ast.parse(source)
    found: list[str] = []
    modules: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "poker51":
            for alias in node.names:
                found.append(f"{node.module}.{alias.name}")
                if _is_module(f"{node.module}.{alias.name}"):
                    modules[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "from poker51" in node.value:
            for part in node.value.split(";"):
                if part.strip().startswith("from poker51"):
                    found += _poker51_names(part.strip())
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
            found.append(f"{modules[node.value.id]}.{node.attr}")
    return found


def _is_module(dotted: str) -> bool:
    parent = importlib.import_module(dotted.rsplit(".", 1)[0])
    return hasattr(parent, "__path__") and importlib.util.find_spec(dotted) is not None


def _exists(dotted: str) -> bool:
    module, name = dotted.rsplit(".", 1)
    return _is_module(dotted) or hasattr(importlib.import_module(module), name)


@pytest.mark.parametrize("script", sorted(p.name for p in (ROOT / "benchmarks").glob("*.py")))
def test_every_name_a_benchmark_uses_from_poker51_exists(script):
    """A benchmark imports most of the package inside ``main``; a moved name would only show
    when ``make bench`` reached it (bench_census and bench_abstraction did, after the layout change)."""
    names = _poker51_names((ROOT / "benchmarks" / script).read_text())
    assert [n for n in names if not _exists(n)] == []
    if script not in {"_timing.py", "bench_machine.py", "compare_commits.py", "bench_solver.py"}:
        assert names, f"{script} uses nothing from poker51 by name"
