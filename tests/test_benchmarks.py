"""The benchmark scripts refuse a bad option with one line and exit 2, before any work."""

from __future__ import annotations

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
