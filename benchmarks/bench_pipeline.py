"""Benchmark: the default pipeline from a clean results folder, census to export with the whole
frontier, on 2 cores, and whether every table reached its target.

    .venv/bin/python benchmarks/bench_pipeline.py [--cores 2] [--keep] [--with-comparison] [--warm-clock N]

Target (issue 12): at most 4 minutes, every solve at ``solve.target_exploitability``.  Runs
``snakemake --cores N --configfile config/config.yaml results/bench-pipeline.yaml`` (the
overlay sets ``results``, ``solver_comparison.enabled: false`` (the comparison is a stage of
its own, timed separately after the rest when ``--with-comparison`` is given) and
``enabled: false`` for the stages of :data:`STUDY_STAGES`: the census, abstraction, every
solve, scores, export, evidence, verify, receipt and figures remain) from an
empty folder, as a process, and prints its wall time, the iterations of every solve and
whether each reached the target (``summary.json``), and the jobs' own seconds by rule (their
sum over the cores is the least the run can take).
Deletes the folder afterwards unless ``--keep``.  ``--warm-clock N`` sets ``solve.warm_clock``
(0: the warm starts before the clock, for a same-day comparison).
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from poker51.rules import VARIANTS

TARGET_SECONDS = 240.0
#: the stages issue 12 added (they report their own time) and the two other systems (the
#: five-seat tables, the rule book's games): switched off, so the run is census to export
STUDY_STAGES = ("lbr", "belief_claims", "abstraction_study", "multi", "rulebook")
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))


def run(results: str, cores: int, comparison: bool, targets: list[str], warm_clock: int | None = None) -> float:
    overlay = Path(results).with_suffix(".yaml")  # --config would pass "false" as a string
    overlay.parent.mkdir(parents=True, exist_ok=True)
    studies = "".join(f"{stage}:\n  enabled: false\n" for stage in STUDY_STAGES)
    clock = "" if warm_clock is None else f"solve:\n  warm_clock: {warm_clock}\n"
    head = f"results: {results}\nsolver_comparison:\n  enabled: {str(comparison).lower()}\n"
    overlay.write_text(head + studies + clock)
    cmd = [SNAKEMAKE, "--cores", str(cores), "--quiet", "--configfile", "config/config.yaml", str(overlay)]
    t = time.perf_counter()
    subprocess.run(cmd + targets, check=True)
    return time.perf_counter() - t


def job_seconds(results: str, cores: int) -> str:
    """The jobs' own wall seconds (Snakemake's ``benchmark:`` files) by rule, largest first: a run
    on ``cores`` cores takes at least their sum over ``cores``, so the line says how far the
    run is from being bound by its work, and which rules the work is."""
    by_rule: dict[str, float] = {}
    for path in Path(results, "benchmarks").glob("*.tsv"):
        rule = re.sub(rf"_({'|'.join(VARIANTS)})(_.*)?$", "", path.stem)  # solve_wild_p0.3 -> solve
        with path.open() as fh:
            rows = list(csv.DictReader(fh, delimiter="\t"))
        by_rule[rule] = by_rule.get(rule, 0.0) + sum(float(r["s"]) for r in rows)
    total = sum(by_rule.values())
    parts = ", ".join(f"{rule} {s:.0f}" for rule, s in sorted(by_rule.items(), key=lambda x: -x[1]))
    return f"jobs' own seconds   {total:.0f} ({parts}): at least {total / cores / 60:.1f} min on {cores} cores"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--results", default="results/bench-pipeline")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--with-comparison", action="store_true")
    ap.add_argument("--warm-clock", type=int, default=None, help="solve.warm_clock (default: the config's)")
    args = ap.parse_args()
    if args.warm_clock is not None and args.warm_clock < 0:
        ap.error(f"--warm-clock must be 0 or more, got {args.warm_clock}")
    shutil.rmtree(args.results, ignore_errors=True)
    seconds = run(args.results, args.cores, False, [], args.warm_clock)
    summaries = sorted(Path(args.results).glob("*/solve_p*/summary.json"))
    rows = [json.loads(p.read_text()) for p in summaries]
    missed = [r for r in rows if not r["reached_target"]]
    clock = "" if args.warm_clock is None else f", solve.warm_clock {args.warm_clock}"
    print(f"snakemake --cores {args.cores} (default config{clock}, solver comparison off) from a clean {args.results}")
    for r in rows:
        mark = "" if r["reached_target"] else "  (target missed)"
        print(f"  {r['variant']:9s} p={r['p']:<4g} {r['iterations']:5d} it.  {r['exploitability']:.2e}{mark}")
    verdict = "met" if seconds <= TARGET_SECONDS and not missed else "NOT met"
    print(
        f"pipeline             {seconds / 60:.1f} min, {len(rows) - len(missed)}/{len(rows)} tables at target   "
        f"target {TARGET_SECONDS / 60:.0f} min, all tables: {verdict}"
    )
    print(job_seconds(args.results, args.cores))
    if args.with_comparison:  # the stage alone, on the abstraction just built
        extra = run(args.results, args.cores, True, [f"{args.results}/figures/solver_comparison.pdf"], args.warm_clock)
        print(f"solver comparison    {extra / 60:.1f} min more (its own stage)")
    if not args.keep:
        shutil.rmtree(args.results, ignore_errors=True)


if __name__ == "__main__":
    main()
