"""Leduc CFR+ to exploitability 1e-4: iterations, seconds, us/iteration, memory.

Usage: python benchmarks/bench_solver.py [--target 1e-4] [--algorithm cfr+] [--no-openspiel]

Iterations to the target are found with exploitability checks every 10
iterations; the time is then measured on an uninterrupted run of that many
iterations (compilation excluded: a warm-up run comes first).  If ``pyspiel``
imports, OpenSpiel's C++ ``CFRPlusSolver`` runs to the same target (its time
counts only its iterations) and the speed ratio is printed.
"""

from __future__ import annotations

import argparse
import time

from poker51.games.toy import GAMES
from poker51.solver.best_response import expected_value, exploitability
from poker51.solver.cfr import SOLVERS


def ours(game_name: str, algorithm: str, target: float) -> dict:
    game = GAMES[game_name]()
    SOLVERS[algorithm](game).iterate(2)  # compile / load the cache
    probe = SOLVERS[algorithm](game).solve(100_000, target_exploitability=target, every=10)
    n = probe.iteration
    solver = SOLVERS[algorithm](game)
    t = time.perf_counter()
    solver.iterate(n)
    seconds = time.perf_counter() - t
    pol = solver.average_policy()
    return dict(
        iterations=n,
        seconds=seconds,
        us_per_iteration=1e6 * seconds / n,
        memory_bytes=solver.nbytes(),
        exploitability=exploitability(game, pol),
        value=expected_value(game, pol),
    )


def openspiel(game_name: str, target: float, max_seconds: float = 120.0) -> dict | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(f"{game_name}_poker")
    solver = pyspiel.CFRPlusSolver(game)
    spent, n, e = 0.0, 0, float("inf")
    while e > target and spent < max_seconds:
        t = time.perf_counter()
        for _ in range(10):
            solver.evaluate_and_update_policy()
        spent += time.perf_counter() - t
        n += 10
        e = pyspiel.exploitability(game, solver.average_policy())
    return dict(iterations=n, seconds=spent, us_per_iteration=1e6 * spent / n, exploitability=e)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="leduc")
    ap.add_argument("--algorithm", default="cfr+", choices=list(SOLVERS))
    ap.add_argument("--target", type=float, default=1e-4)
    ap.add_argument("--no-openspiel", action="store_true")
    args = ap.parse_args()
    r = ours(args.game, args.algorithm, args.target)
    print(f"poker51 {args.algorithm} {args.game} to exploitability {args.target:g}")
    print(f"  iterations      {r['iterations']}")
    print(f"  seconds         {r['seconds']:.4f}")
    print(f"  us/iteration    {r['us_per_iteration']:.1f}")
    print(f"  memory bytes    {r['memory_bytes']}")
    print(f"  exploitability  {r['exploitability']:.3g}   value {r['value']:+.6f}")
    o = None if args.no_openspiel else openspiel(args.game, args.target)
    if o is not None:
        print(f"OpenSpiel C++ CFRPlusSolver {args.game} to {args.target:g}")
        print(f"  iterations      {o['iterations']}")
        print(f"  seconds         {o['seconds']:.3f}")
        print(f"  us/iteration    {o['us_per_iteration']:.1f}")
        print(
            f"  speed-up        {o['seconds'] / r['seconds']:.0f}x (time to target), "
            f"{o['us_per_iteration'] / r['us_per_iteration']:.0f}x (per iteration)"
        )


if __name__ == "__main__":
    main()
