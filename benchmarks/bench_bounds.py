"""Lower bounds by play (:mod:`poker51.realcard.bounds`): hands per second of the real-card play
(target: at least 1,000,000 on 2 cores) and the cost of building the strategies.

    .venv/bin/python benchmarks/bench_bounds.py [--results results/smoke] [--variant standard] [--hands 4194304]

With the variant's abstraction (``{results}/{variant}``) and a solved table (the Nash solve,
``{results}/{variant}/solve_p0/policy.npy``, else the published table) it times each step of
:func:`poker51.realcard.bounds.table_bounds` (setup, the G_ind best response with its answers,
the abstract human) and then the play of each strategy, best of three runs of ``--hands``
deals after a warm-up, as wall seconds, hands per second and hands per CPU second (the figure to
trust on a shared machine).  Without them (``make bench`` on a fresh clone) it builds the standard
abstraction in-process and plays a random pure table against a random Riemann table (the play's
speed, not its value).  The machine figure (8 MB dependent loads, as ``bench_machine.py``) and the
load average are printed beside.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numba
import numpy as np
from bench_machine import CHASE_LOADS, _chase, cycle


def machine() -> str:
    nxt = cycle(1 << 20)
    _chase(nxt, 10)
    t = time.perf_counter()
    _chase(nxt, CHASE_LOADS)
    ns = (time.perf_counter() - t) / CHASE_LOADS * 1e9
    load = os.getloadavg()[0]
    threads = numba.get_num_threads()
    return f"machine: {os.cpu_count()} CPUs, numba threads {threads}, 8 MB loads {ns:.1f} ns, load {load:.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default="results/smoke")
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--hands", type=int, default=1 << 22)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    from poker51.realcard import bounds as B

    print(machine())
    res, variant = Path(args.results), args.variant
    nash = res / variant / "solve_p0" / "policy.npy"
    todo: list[tuple[str, object, object]] = []
    if (res / variant / "classes.parquet").exists() and nash.exists():
        from poker51.abstraction.tables import AbstractionTables
        from poker51.export.tables import strategy_table
        from poker51.games.abstract import build_game

        tables = AbstractionTables.load(res / variant, variant)
        ab = tables.arrays()
        frame = strategy_table(build_game(ab), np.load(nash), ab, variant)
        t, c = time.perf_counter(), time.process_time()
        tb = B.table_bounds(variant, tables, frame, 2 * B.BLOCK, 1)
        print(f"{variant} Nash table ({res}): strategies built in {time.perf_counter() - t:.1f} s "
              f"({time.process_time() - c:.1f} CPU s): "
              + ", ".join(f"{k} {v:.1f} s" for k, v in tb.seconds.items()))  # fmt: skip
        assert tb.built is not None
        for name, S in tb.built.items():
            todo.append((f"{name} strategy vs the Nash table", tb.model, S))
    else:
        from poker51.abstraction.tables import build_abstraction
        from poker51.export.tables import strategy_table
        from poker51.games.abstract import build_game
        from poker51.policies.kernels import V06, hand_arrays, policy_tuple
        from poker51.policies.kernels import table_arrays as kernel_arrays
        from poker51.policies.riemann import Riemann

        print(f"no {nash}: the standard abstraction in-process, random tables")
        tables = build_abstraction("standard", progress=False)
        ab = tables.arrays()
        game = build_game(ab)
        rng = np.random.default_rng(1)
        pol = game.uniform_policy() * rng.uniform(0.5, 1.5, game.uniform_policy().size)
        a = game.arrays
        for i in range(len(a.act_off) - 1):
            pol[a.act_off[i] : a.act_off[i + 1]] /= pol[a.act_off[i] : a.act_off[i + 1]].sum()
        frame = strategy_table(game, pol, ab, "standard")
        hands = hand_arrays("standard", tables.classes, tables.buckets)
        riemann = Riemann(frame, "standard", tables.classes, tables.buckets)
        M = policy_tuple(V06, hands, kernel_arrays(*riemann.kernel_arrays()))
        todo.append(("random pure table vs a random table", M, B.random_human_table(hands.strengths.size, 2)))
    for name, M, S in todo:
        B.play_sums(M, S, 7, 0, 0, 4 * B.BLOCK)  # compile / warm up
        best = (float("inf"), 0.0)
        for r in range(args.repeat):
            t, c = time.perf_counter(), time.process_time()
            B.play_sums(M, S, 100 + r, 0, 0, args.hands)
            best = min(best, (time.perf_counter() - t, time.process_time() - c))
        wall, cpu = best
        print(f"play, {name}: {args.hands:,} real-card hands in {wall:.2f} s = {args.hands / wall:,.0f} hands/s "
              f"({args.hands / cpu:,.0f} per CPU second; target 1,000,000 hands/s on 2 cores)")  # fmt: skip
    print(machine())


if __name__ == "__main__":
    main()
