"""``poker51 solve``: solve a registered game and report its value and exploitability."""

from __future__ import annotations

import argparse
import json
import sys
import time

from poker51.errors import InputError

HELP = "solve a two-player zero-sum game (kuhn, leduc, ...) with CFR+, DCFR or PCFR+"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="kuhn", help="game name from poker51.games.GAMES (default: kuhn)")
    parser.add_argument("--algorithm", default="cfr+", help="cfr+ (default), dcfr or pcfr+")
    parser.add_argument("--iterations", type=int, default=1000, help="maximum iterations (default: 1000)")
    parser.add_argument("--target-exploitability", type=float, default=None,
                        help="stop once the average strategy's exploitability is at most this")
    parser.add_argument("--check-every", type=int, default=10,
                        help="iterations between exploitability checks when a target is given (default: 10)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from poker51.best_response import expected_value, exploitability
    from poker51.cfr import SOLVERS
    from poker51.games import GAMES

    if args.game not in GAMES:
        raise InputError(f"unknown game {args.game!r}; known: {', '.join(sorted(GAMES))}")
    if args.algorithm not in SOLVERS:
        raise InputError(f"unknown algorithm {args.algorithm!r}; known: {', '.join(SOLVERS)}")
    if args.iterations < 1:
        raise InputError(f"--iterations must be at least 1, got {args.iterations}")
    if args.check_every < 1:
        raise InputError(f"--check-every must be at least 1, got {args.check_every}")
    if args.target_exploitability is not None and args.target_exploitability <= 0:
        raise InputError(f"--target-exploitability must be positive, got {args.target_exploitability}")

    game = GAMES[args.game]()
    solver = SOLVERS[args.algorithm](game)
    start = time.perf_counter()
    solver.solve(args.iterations, target_exploitability=args.target_exploitability,
                 every=args.check_every, progress=not args.json and sys.stderr.isatty())
    seconds = time.perf_counter() - start
    policy = solver.average_policy()
    out = {
        "game": args.game,
        "algorithm": args.algorithm,
        "iterations": solver.iteration,
        "seconds": round(seconds, 6),
        "value": expected_value(game, policy, 0),
        "exploitability": exploitability(game, policy),
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(f"game            {out['game']}")
        print(f"algorithm       {out['algorithm']}")
        print(f"value (p0)      {out['value']:+.6f}")
        print(f"exploitability  {out['exploitability']:.3g}")
        print(f"iterations      {out['iterations']}")
        print(f"seconds         {out['seconds']:.3f}")
    return 0
