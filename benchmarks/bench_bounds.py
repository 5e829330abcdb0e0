"""Lower bounds by play (:mod:`poker51.realcard.bounds`): hands per second of the real-card play
(target: at least 1,000,000 on 2 cores) and the cost of reading the strategies.

    .venv/bin/python benchmarks/bench_bounds.py [--results results/smoke] [--variant standard] [--p 0.5]
        [--hands 4194304] [--threads 2] [--repeat 3]

With the variant's abstraction (``{results}/{variant}``), a solved table
(``{results}/{variant}/solve_{p}/policy.npy``) and the strategies ``realcard_br`` wrote for it
(``{results}/{variant}/realcard_br/{p}*.parquet``) it reads them as the ``realcard_bounds`` stage
does (:func:`poker51.realcard.bounds.read_strategies`; the seconds are printed) and times the play
of each, best of ``--repeat`` runs of ``--hands`` deals after a warm-up, on ``--threads`` Numba
threads, as wall seconds, hands per second and hands per CPU second (the figure to trust on a
shared machine: wall / CPU shows how much of the threads the machine gave).  Without them (``make
bench`` on a fresh clone) it builds the standard abstraction in-process and plays a random pure
table against a random Riemann table (the play's speed, not its value).  The machine figure
(``bench_machine.machine_line``) is printed before and after.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numba
import numpy as np
from bench_machine import machine_line


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default="results/smoke")
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--p", type=float, default=0.5)
    ap.add_argument("--hands", type=int, default=1 << 22)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if args.hands < 2:
        ap.error(f"--hands must be at least 2, got {args.hands}")
    if args.repeat < 1:
        ap.error(f"--repeat must be at least 1, got {args.repeat}")
    if not 1 <= args.threads <= numba.config.NUMBA_NUM_THREADS:  # type: ignore[attr-defined]
        ap.error(f"--threads must be in 1..{numba.config.NUMBA_NUM_THREADS}, got {args.threads}")  # type: ignore[attr-defined]
    numba.set_num_threads(args.threads)

    from poker51.realcard import bounds as B
    from poker51.rules import p_label

    print(machine_line())
    res, variant = Path(args.results), args.variant
    plabel = p_label(args.p)
    policy = res / variant / f"solve_{plabel}" / "policy.npy"
    br = {k: res / variant / "realcard_br" / f"{plabel}{suffix}.parquet"
          for k, suffix in (("table", ""), ("hands", "_hands"), ("post", "_post"), ("human_hands", "_human_hands"),
                            ("human_post", "_human_post"))}  # fmt: skip
    todo: list[tuple[str, object, object]] = []
    if (res / variant / "classes.parquet").exists() and policy.exists() and all(f.exists() for f in br.values()):
        from poker51.abstraction.tables import AbstractionTables
        from poker51.export.tables import strategy_table
        from poker51.games.abstract import build_game
        from poker51.realcard.gind import variant_deck

        t, c = time.perf_counter(), time.process_time()
        tables = AbstractionTables.load(res / variant, variant)
        ab = tables.arrays()
        frame = strategy_table(build_game(ab), np.load(policy), ab, variant)
        gd = variant_deck(tables)
        M = B.deployed_model(variant, tables, frame, gd)
        built, _, _ = B.read_strategies(gd, {k: str(v) for k, v in br.items()})
        print(f"{variant} p={args.p:g} ({res}): deployed table and realcard_br's strategies read in "
              f"{time.perf_counter() - t:.1f} s ({time.process_time() - c:.1f} CPU s)")  # fmt: skip
        for name, (S, _) in built.items():
            todo.append((f"{name} strategy vs the p={args.p:g} table", M, S))
    else:
        from poker51.abstraction.tables import build_abstraction
        from poker51.export.tables import strategy_table
        from poker51.games.abstract import build_game

        print(f"no realcard_br strategies under {res / variant}: the standard abstraction in-process, random tables")
        tables = build_abstraction("standard", progress=False)
        ab = tables.arrays()
        game = build_game(ab)
        rng = np.random.default_rng(1)
        pol = game.uniform_policy() * rng.uniform(0.5, 1.5, game.uniform_policy().size)
        a = game.arrays
        for i in range(len(a.act_off) - 1):
            pol[a.act_off[i] : a.act_off[i + 1]] /= pol[a.act_off[i] : a.act_off[i + 1]].sum()
        frame = strategy_table(game, pol, ab, "standard")
        M = B.deployed_model("standard", tables, frame)
        todo.append(("random pure table vs a random table", M, B.random_human_table(M.bucket_by_srank.size, 2)))
    for name, M, S in todo:
        B.play_sums(M, S, 7, 0, 0, 4 * B.BLOCK)  # compile / warm up
        best = (float("inf"), 0.0)
        for r in range(args.repeat):
            t, c = time.perf_counter(), time.process_time()
            B.play_sums(M, S, 100 + r, 0, 0, args.hands)
            best = min(best, (time.perf_counter() - t, time.process_time() - c))
        wall, cpu = best
        print(f"play, {name}: {args.hands:,} real-card hands on {args.threads} threads in {wall:.2f} s = "
              f"{args.hands / wall:,.0f} hands/s ({args.hands / cpu:,.0f} per CPU second; target 1,000,000 "
              f"hands/s on 2 cores)")  # fmt: skip
    print(machine_line())


if __name__ == "__main__":
    main()
