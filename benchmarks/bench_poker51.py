"""Benchmark: the standard game's Nash solve to exploitability 1 mjbit/hand.

Target (issue 4): at most 60 s on 2 cores.  Prints the game size, the iterations and
seconds to the target, the time per iteration and the solver's memory.

    .venv/bin/python benchmarks/bench_poker51.py [--variant standard] [--target 0.001]
"""

from __future__ import annotations

import argparse
import time

from poker51.abstraction.classes import arrays, build_abstraction
from poker51.games.abstract import AbstractionArrays, build_game, describe
from poker51.games.population import load_population
from poker51.solver.cfr import CFRPlusSolver
from poker51.study.solve import solve_table, variant_types


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--target", type=float, default=1e-3)
    ap.add_argument("--max-iterations", type=int, default=5000)
    args = ap.parse_args()
    t = time.perf_counter()
    ab = AbstractionArrays(args.variant, **arrays(build_abstraction(args.variant, progress=False)))
    t_abs = time.perf_counter() - t
    t = time.perf_counter()
    game = build_game(ab)
    t_game = time.perf_counter() - t
    pop = load_population("config/population.yaml")
    types = variant_types(game, ab, pop)
    s = CFRPlusSolver(game)
    s.iterate(1)  # compile / load the kernels
    t = time.perf_counter()
    s.iterate(100)
    per_it = (time.perf_counter() - t) / 100
    res = solve_table(
        game, types, pop.weights, 0.0, iterations=args.max_iterations, target_exploitability=args.target, check_every=50
    )
    last = res.convergence.iloc[-1]
    print(f"variant                 {args.variant}")
    print(f"game                    {describe(game)}")
    print(f"abstraction build       {t_abs:.1f} s   game build {t_game:.1f} s")
    print(f"CFR+ iteration          {per_it * 1e3:.1f} ms")
    print(f"solver memory           {s.nbytes() / 2**20:.0f} MiB")
    print(
        f"Nash solve to {args.target:g}      {res.iterations} iterations, {res.seconds:.1f} s "
        f"(incl. a convergence check every 50), exploitability {last['exploitability']:.2e}"
    )
    print(f"value bracket low       {last['guarantee']:+.5f} jbits/hand for Riemann")


if __name__ == "__main__":
    main()
