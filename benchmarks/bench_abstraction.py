"""Benchmark: the exact abstraction (buckets + transitions, and the belief table) of all
three variants, one process, after a warm-up that compiles or loads the Numba kernels.

    .venv/bin/python benchmarks/bench_abstraction.py [--variants standard wild bug] [--no-warmup]

Target (brief): transitions + buckets for all three variants in <= 30 s on 2 cores.
Prints seconds per stage and variant, and the total.
"""

from __future__ import annotations

import argparse
import os
import time

from numba import get_num_threads


def main() -> None:
    from poker51.abstraction.classes import class_keys, hand_table
    from poker51.abstraction.tables import build_abstraction

    def forget() -> None:
        """Drop the per-variant hand tables, so that each variant is built from nothing."""
        hand_table.cache_clear()
        class_keys.cache_clear()

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=["standard", "wild", "bug"])
    parser.add_argument("--no-warmup", action="store_true", help="include kernel compilation / cache loading")
    args = parser.parse_args()
    if not args.no_warmup:
        t = time.perf_counter()
        build_abstraction("standard", progress=False)
        forget()
        print(f"warm-up (standard, compile or load kernels): {time.perf_counter() - t:.1f} s")
    print(f"cores available: {os.cpu_count()}, numba threads: {get_num_threads()}")
    total: dict[str, float] = {}
    t0 = time.perf_counter()
    for v in args.variants:
        timings: dict[str, float] = {}
        t = time.perf_counter()
        tables = build_abstraction(v, progress=False, timings=timings)
        dt = time.perf_counter() - t
        stages = "  ".join(f"{k} {s:.2f}" for k, s in timings.items())
        print(f"{v:9s} {dt:6.2f} s  ({len(tables.classes)} classes)  {stages}")
        for k, s in timings.items():
            total[k] = total.get(k, 0.0) + s
        forget()
    wall = time.perf_counter() - t0
    exact = sum(s for k, s in total.items() if k != "belief")
    belief = total.get("belief", 0.0)
    print(f"total {wall:.1f} s; hands + buckets + transitions + tables {exact:.1f} s; belief {belief:.1f} s")


if __name__ == "__main__":
    main()
