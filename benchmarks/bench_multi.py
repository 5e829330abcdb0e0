"""Five-seat tables: simulated hands per second on one core, and the default ``multi`` stage's wall time.

Usage: python benchmarks/bench_multi.py [--hands 20000] [--skip-stage] [--config config/config.yaml]

1. **Hands per second** (target: at least 20,000 complete five-seat hands per second on one
   core, policy decisions included): :func:`poker51.multi.simulate.simulate_kernel` on one
   thread plays seeded tables of five seats, one Riemann and the four population types
   (``mixed``); every hand commits its deck (HMAC-SHA256 shuffle), deals, runs both betting
   rounds with every decision by its policy (Riemann's 128-completion read, the types'
   strengths and seeded uniforms), the draw, the showdown by the pot law, the ledger booking
   and the conservation audit.  Kernels are compiled (or loaded from Numba's cache) by a
   warm-up call first; wall-clock and CPU seconds are both printed (they differ when the
   machine is shared).  Two Riemanns, and a two-seat table, are printed for comparison.
2. **The default stage** (target: under 2 minutes on 2 cores): :func:`poker51.stages.run_multi`
   with the ``multi`` block of the config on 2 threads into a temporary directory, timed from
   the call to the written outputs (the belief table, the types' strength tables, every table,
   the summary, the audit and the reference-engine replay included; Numba's cache warm).
   The CPU seconds of all threads are printed too: on a shared machine the wall clock
   measures the other jobs as much as this one.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numba
import yaml

from poker51.games.population import load_population
from poker51.multi.belief import standard_belief
from poker51.multi.population import StrengthTables
from poker51.multi.simulate import Tables, TableSpec, simulate_kernel


def rate(spec: TableSpec, tables: Tables, hands: int, label: str, target: float | None) -> None:
    simulate_kernel(spec, tables, 1, 0, 20)  # compile or load the kernels
    wall0, cpu0 = time.perf_counter(), time.process_time()
    done, k = 0, 0
    while done < hands:
        n = min(5000, hands - done)
        run = simulate_kernel(spec, tables, 51010, k, n)
        assert run.audit[1] == 0
        done, k = done + n, k + 1
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    goal = f"  (target {target:,.0f})" if target else ""
    print(f"{label:<46} {hands / wall:>9,.0f} hands/s wall, {hands / cpu:>9,.0f} per CPU second{goal}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--skip-stage", action="store_true")
    ap.add_argument("--config", default="config/config.yaml")
    args = ap.parse_args()
    numba.set_num_threads(1)
    cfg = yaml.safe_load(Path(args.config).read_text())
    pop = load_population(cfg["population"])
    t0 = time.perf_counter()
    tables = Tables.build(standard_belief(), StrengthTables.build(cfg["multi"]["seed"]))
    print(f"{'set-up (belief, strength and rank tables)':<46} {time.perf_counter() - t0:>9.1f} s")
    types = tuple(pop.types)
    rate(TableSpec(types, 1), tables, args.hands, "5 seats: 1 Riemann, 4 types, one core", 20_000)
    rate(TableSpec(types[:3], 2), tables, args.hands // 2, "5 seats: 2 Riemanns, 3 types, one core", None)
    rate(TableSpec(types[3:], 1), tables, args.hands // 2, "2 seats: 1 Riemann, 1 type, one core", None)
    if args.skip_stage:
        return
    from poker51.multi.stage import configurations, run_multi

    m = cfg["multi"]
    with tempfile.TemporaryDirectory() as d:
        t0, c0 = time.perf_counter(), time.process_time()
        run_multi(
            cfg["population"], Path(d) / "sim.parquet", Path(d) / "audit.json",
            belief_seed=cfg["abstraction"]["belief_seed"], belief_samples=cfg["abstraction"]["belief_samples"],
            threads=2, progress=False, **m,
        )  # fmt: skip
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    n = len(configurations(m["seats"], m["riemanns"], m["opponents"])) * m["tables"] * m["hands"]
    print(f"{'default multi stage, 2 cores':<46} {wall:>9.1f} s wall, {cpu:.1f} CPU s  (target 120 s; {n:,} hands)")


if __name__ == "__main__":
    main()
