"""Benchmark: the standard game's Nash table to exploitability 1 mjbit/hand, as a command.

    .venv/bin/python benchmarks/bench_poker51.py [--variant standard] [--target 0.001] [--threads 2]

Target (issue 12): at most 10 s on 2 cores.  Runs ``poker51 solve --game standard --p 0
--abstraction DIR --target-exploitability 0.001 --json`` as a process (after one warm-up
run that loads the compiled kernels) and prints the ``seconds`` it reports (the whole
solve, exploitability checks included), the process's wall time (start-up, kernel
cache, game build and the scores after the solve included) and its CPU time (what the
command costs when other jobs share the cores).  The abstraction is built
once into a temporary folder (``--abstraction DIR`` reuses one).  Also prints the game's
size, and the time of an iteration and of a check on 1 and on ``--threads`` threads.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_SECONDS = 10.0
POKER51 = str(Path(sys.executable).with_name("poker51"))


def _children_cpu() -> float:
    """User + system CPU seconds of the finished child processes: on a shared machine the
    wall clock counts the time other jobs held the cores, the CPU time does not."""
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def per_iteration(abstraction: str, variant: str, threads: int) -> dict[int, tuple[float, float]]:
    import numba

    from poker51.abstraction.tables import AbstractionTables
    from poker51.games.abstract import build_game
    from poker51.solver.cfr import SOLVERS

    game = build_game(AbstractionTables.load(abstraction, variant).arrays())
    out = {}
    for workers in sorted({1, min(threads, numba.config.NUMBA_NUM_THREADS)}):  # type: ignore[attr-defined]
        s = SOLVERS["dcfr"](game, workers=workers)
        s.iterate(2)
        s.check()
        t = time.perf_counter()
        s.iterate(50)
        it = (time.perf_counter() - t) / 50
        t = time.perf_counter()
        for _ in range(10):
            s.check()
        out[workers] = (it, (time.perf_counter() - t) / 10)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--target", type=float, default=1e-3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--abstraction", default=None, help="a folder with the variant's abstraction tables")
    args = ap.parse_args()
    folder = args.abstraction
    if folder is None:
        from poker51.abstraction.tables import build_abstraction
        from poker51.rules import ABSTRACTION_TABLES

        folder = tempfile.mkdtemp(prefix="poker51-bench-")
        t = time.perf_counter()
        tables = build_abstraction(args.variant, progress=False)
        tables.save({n: f"{folder}/{n}.parquet" for n in ABSTRACTION_TABLES}, {"variant": args.variant})
        print(f"abstraction built in {time.perf_counter() - t:.1f} s ({folder})")
    cmd = [POKER51, "solve", "--game", args.variant, "--p", "0", "--abstraction", folder]
    cmd += ["--target-exploitability", f"{args.target:g}", "--iterations", "20000", "--json"]
    env = {**os.environ, "NUMBA_NUM_THREADS": str(args.threads)}
    subprocess.run(cmd, check=True, capture_output=True, env=env)  # warm-up: kernels
    t, cpu = time.perf_counter(), _children_cpu()
    r = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout)
    wall, cpu = time.perf_counter() - t, _children_cpu() - cpu
    print(f"poker51 {' '.join(cmd[1:])}  (NUMBA_NUM_THREADS={args.threads})")
    print(f"game                 {r['public_nodes']} public nodes, {r['information_sets']} information sets")
    print(f"algorithm            {r['algorithm']}")
    print(f"iterations           {r['iterations']}, exploitability {r['exploitability']:.3e} jbits/hand")
    verdict = "met" if r["seconds"] <= TARGET_SECONDS else "NOT met"
    print(
        f"Nash to {args.target:g}         {r['seconds']:.1f} s (solve, checks included; whole command "
        f"{wall:.1f} s)   target {TARGET_SECONDS:.0f} s: {verdict}"
    )
    load = os.getloadavg()[0]
    print(f"CPU time             {cpu:.1f} s of the whole command (user + system; load average {load:.1f})")
    for workers, (it, check) in per_iteration(folder, args.variant, args.threads).items():
        print(
            f"{workers} thread{'s' if workers > 1 else ' '}            iteration {it * 1e3:.1f} ms, "
            f"check {check * 1e3:.1f} ms ({check / it:.2f} iterations)"
        )


if __name__ == "__main__":
    main()
