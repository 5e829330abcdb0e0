"""The local best response: seeded real-card hands per variant, v0.6 and v0.5 (target: 100,000
hands each in at most 5 minutes on 2 cores).

Usage: python benchmarks/bench_lbr.py [--results results] [--variant standard [wild bug]] [--hands 100000]

What the pipeline's ``lbr`` jobs do, as two processes side by side (one per policy, as
``snakemake --cores 2`` runs them): each calls :func:`poker51.stages.run_lbr` on the
variant's abstraction and exported table under ``--results`` (from ``make run``) and writes
its per-hand table to a temporary folder.  The time is the wall clock of the slower process,
start to exit (loading, the v0.5 reads, every hand, writing); each process's CPU seconds are
printed too, since on a machine shared with other work the wall clock measures the others.
Numba's cache is warmed first by a 20-hand run of each policy.  With several variants, each
is timed on its own, one after the other, and judged against the target.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_SECONDS = 300.0
CODE = """
import sys
from poker51.stages import run_lbr
variant, policy, results, hands, out = sys.argv[1:6]
run_lbr(variant, policy, f"{results}/{variant}", f"{results}/tables/riemann-v06-{variant}.parquet",
        int(hands), 51012, 128, 4096, out)
"""


def run(variant: str, results: str, hands: int, tmp: Path) -> dict[str, tuple[float, float]]:
    """Both policies' runs as two processes started together: per policy, the wall-clock seconds
    from the start to its exit and the CPU seconds it used (user + system, from ``wait4``)."""
    procs, start = {}, time.perf_counter()
    for policy in ("v0.6", "v0.5"):
        args = [sys.executable, "-c", CODE, variant, policy, results, str(hands), str(tmp / f"lbr_{policy}.parquet")]
        p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs[p.pid] = (policy, p)
    seconds = {}
    while procs:
        pid, status, usage = os.wait4(-1, 0)
        if pid not in procs:
            continue
        policy, p = procs.pop(pid)
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            sys.exit(f"bench_lbr: the {policy} run failed (exit {p.returncode})")
        seconds[policy] = (time.perf_counter() - start, usage.ru_utime + usage.ru_stime)
    return seconds


def bench(variant: str, results: str, hands: int) -> bool:
    """Time one variant's two LBR runs side by side and print what LBR wins; True if on target."""
    table = Path(results) / "tables" / f"riemann-v06-{variant}.parquet"
    if not table.exists():
        print(f"bench_lbr: {table} is missing; run `make run` first (skipped)")
        return True
    with tempfile.TemporaryDirectory() as d:
        run(variant, results, 20, Path(d))
        seconds = run(variant, results, hands, Path(d))
        from poker51.io import read_parquet
        from poker51.realcard.lbr import summarize_lbr

        wins = {p: summarize_lbr(read_parquet(Path(d) / f"lbr_{p}.parquet"), 51012, 128, 4096)[0] for p in seconds}
    slow = max(wall for wall, _ in seconds.values())
    for p in ("v0.6", "v0.5"):
        s = wins[p]
        print(
            f"LBR vs {p} ({variant}): {hands:,} hands in {seconds[p][0]:.0f} s ({seconds[p][1]:.0f} CPU s); "
            f"wins {s.mean:+.3f} [{s.ci_low:+.3f}, {s.ci_high:+.3f}] jbits/hand, {s.fallbacks} hands with a fallback"
        )
    verdict = "meets" if slow <= TARGET_SECONDS else "misses"
    print(
        f"LBR {variant}, {hands:,} hands per policy, both in parallel: {slow:.0f} s "
        f"(target {TARGET_SECONDS:.0f} s: {verdict}; load average {os.getloadavg()[0]:.1f})",
        flush=True,
    )
    return slow <= TARGET_SECONDS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default="results")
    ap.add_argument("--variant", nargs="+", default=["standard"], choices=["standard", "wild", "bug"])
    ap.add_argument("--hands", type=int, default=100_000)
    a = ap.parse_args()
    for variant in a.variant:
        bench(variant, a.results, a.hands)


if __name__ == "__main__":
    main()
