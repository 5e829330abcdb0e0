"""Riemann decisions per second (target: at least 100,000).

Usage: python benchmarks/bench_riemann.py [--table T.parquet --classes C.parquet --buckets B.parquet]
                                          [--decisions 200000] [--iterations 20]

Without ``--table`` the standard abstraction is built and solved for a few CFR+ iterations
(the speed of a decision does not depend on how well the table is solved).  Decisions are
:meth:`poker51.play.riemann.Riemann.decide` calls on seeded random spots (every street, line,
draw count) and hands: "warm" draws its hands from a pool of 5,000 (classification cached,
as at a game server with repeated hands), "cold" uses a fresh hand for every decision (a
classification kernel call each time).  ``act`` adds the reconstruction of the public state
from an engine view.
"""

from __future__ import annotations

import argparse
import random
import time

from poker51.export.schema import completed_pre_lines, decision_lines
from poker51.play.actions import Action, ActionRecord, View
from poker51.play.riemann import PublicState, Riemann


def solved_riemann(iterations: int) -> Riemann:
    from poker51.abstraction.classes import arrays, build_abstraction
    from poker51.export.tables import strategy_table
    from poker51.games.abstract import AbstractionArrays, build_game
    from poker51.solver.cfr import CFRPlusSolver

    tables = build_abstraction("standard", progress=False)
    ab = AbstractionArrays("standard", **arrays(tables))
    game = build_game(ab)
    solver = CFRPlusSolver(game)
    solver.iterate(iterations)
    df = strategy_table(game, solver.average_policy(), ab, "standard")
    return Riemann(df, "standard", tables["classes"], tables["buckets"])


def spots(r: Riemann, rng: random.Random, n: int) -> list[PublicState]:
    out = []
    for _ in range(n):
        street = rng.random() < 0.5
        line = rng.choice(decision_lines())
        if street:
            out.append(
                PublicState(
                    1,
                    rng.randrange(6),
                    rng.choice(r.r_draws),
                    rng.choice(completed_pre_lines()),
                    line,
                    rng.random() < 0.9,
                )
            )
        else:
            out.append(PublicState(0, rng.randrange(6), -1, line, "", rng.random() < 0.9))
    return out


def hands(rng: random.Random, n: int) -> list[tuple[int, ...]]:
    deck = list(range(1, 52))
    return [tuple(rng.sample(deck, 5)) for _ in range(n)]


def rate(r: Riemann, cards: list, states: list) -> float:
    t = time.perf_counter()
    for c, s in zip(cards, states):
        r.decide(c, s)
    return len(cards) / (time.perf_counter() - t)


def act_rate(r: Riemann, cards: list, n: int) -> float:
    recs = (
        ActionRecord("pre", "H", "bet", 4, False),
        ActionRecord("pre", "R", "raise", 8, False),
        ActionRecord("pre", "H", "raise", 8, False),
    )
    legal = [Action("fold", 0), Action("call", 4)]
    views = [View("R", "standard", "pre", c, None, None, 3, 80, 85, 9, 13, 5, 9, 22, 4, 4, recs) for c in cards[:n]]
    t = time.perf_counter()
    for v in views:
        r.act(v, legal)
    return n / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table")
    ap.add_argument("--classes")
    ap.add_argument("--buckets")
    ap.add_argument("--decisions", type=int, default=200_000)
    ap.add_argument("--iterations", type=int, default=20)
    args = ap.parse_args()
    if args.table:
        r = Riemann.load(args.table, classes=args.classes, buckets=args.buckets)
    else:
        r = solved_riemann(args.iterations)
    rng = random.Random(51)
    n = args.decisions
    states = spots(r, rng, n)
    pool = hands(rng, 5000)
    warm = [pool[rng.randrange(len(pool))] for _ in range(n)]
    rate(r, pool, states[:5000])  # compile / load the kernels, fill the cache with the pool
    rate(r, pool, [PublicState(1, 2, 2, "x-x", "x")] * len(pool))
    print(f"decide, warm hands   {rate(r, warm, states):12,.0f} decisions/s")
    cold = hands(random.Random(7), n)
    print(f"decide, fresh hands  {rate(r, cold, states):12,.0f} decisions/s")
    print(f"act (engine view)    {act_rate(r, warm, min(n, 100_000)):12,.0f} decisions/s")


if __name__ == "__main__":
    main()
