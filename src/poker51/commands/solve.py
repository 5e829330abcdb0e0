"""``poker51 solve``: solve a registered game and report its value and exploitability.

Examples::

    poker51 solve --game kuhn --iterations 2000 --json
    poker51 solve --game standard --p 0.5 --abstraction results --iterations 2000 --out results/my_solve

``--out DIR`` saves the average policy as ``DIR/policy.npy`` (one probability per action of
the game's flat policy vector, :mod:`poker51.solver.tree`) and, next to it, ``DIR/summary.json``:
the summary the command prints, plus what rebuilds the game (abstraction, population).  That
is the layout of a pipeline solve folder (``results/{variant}/solve_p{p}/``).  Both files are
written under temporary names and renamed when complete: an interrupted or failed solve leaves
no ``DIR`` (nor a half-written file in an existing one).  A DIR that holds a solve already is
refused unless ``--force`` is given.

The iterations run in chunks of about a quarter second (:func:`poker51.study.solve.iterate_in_chunks`,
the same result as one call): Ctrl-C stops the solve within a chunk, exit 130.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from poker51.errors import InputError
from poker51.rules import VARIANT_NAMES
from poker51.solver.cfr import DEFAULT_ALGORITHM, SOLVERS
from poker51.solver.schedule import CheckSchedule

HELP = "solve a game (kuhn, leduc, or Poker 51's standard, wild, bug) with CFR+, DCFR or PCFR+"

POKER51_GAMES = VARIANT_NAMES
DEFAULT_POPULATION = "config/population.yaml"
#: the most iterations one solve takes: the kernels count iterations (and DCFR's clock on top)
#: in signed 64-bit integers
MAX_ITERATIONS = 2**62


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game", default="kuhn", help="kuhn (default), leduc, or a Poker 51 variant: standard, wild, bug"
    )
    parser.add_argument(
        "--algorithm",
        default=DEFAULT_ALGORITHM,
        help=f"{', '.join(SOLVERS)} (default: {DEFAULT_ALGORITHM}, the fastest on Poker 51)",
    )
    parser.add_argument("--iterations", type=int, default=1000, help="maximum iterations (default: 1000)")
    parser.add_argument(
        "--target-exploitability",
        type=float,
        default=None,
        help="stop once the average strategy's exploitability is at most this",
    )
    parser.add_argument(
        "--check-first",
        type=int,
        default=10,
        help="iteration of the first exploitability check when a target is given (default: 10)",
    )
    parser.add_argument(
        "--check-growth",
        type=float,
        default=1.25,
        help="each later check at most this many times later, sooner when the target is predicted sooner "
        "(default: 1.25; see poker51.solver.schedule)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--p",
        type=float,
        default=0.0,
        help="Poker 51 games: restricted Nash response weight of the population (default 0: Nash)",
    )
    parser.add_argument(
        "--population",
        default=DEFAULT_POPULATION,
        help="Poker 51 games: the population model (default: %(default)s)",
    )
    parser.add_argument(
        "--abstraction",
        default=None,
        metavar="DIR",
        help="Poker 51 games: the variant's abstraction tables, in DIR or DIR/<variant> "
        "(default: rebuild the abstraction, about 5 to 30 s)",
    )
    parser.add_argument(
        "--out",
        default=None,
        metavar="DIR",
        help="save the average policy as DIR/policy.npy and the summary as DIR/summary.json "
        "(a DIR that holds them already needs --force)",
    )
    parser.add_argument("--force", action="store_true", help="let --out replace DIR's policy.npy and summary.json")


def run(args: argparse.Namespace) -> int:
    from poker51.games.toy import GAMES
    from poker51.solver.best_response import expected_value, exploitability
    from poker51.study.solve import solve_in_chunks

    if args.game in POKER51_GAMES:
        return _run_poker51(args)
    if args.game not in GAMES:
        known = ", ".join([*sorted(GAMES), *POKER51_GAMES])
        raise InputError(f"unknown game {args.game!r}; known: {known}")
    if args.p != 0.0 or args.abstraction is not None or args.population != DEFAULT_POPULATION:
        raise InputError(f"--p, --population and --abstraction apply to Poker 51 games, not {args.game}")
    if args.algorithm not in SOLVERS:
        raise InputError(f"unknown algorithm {args.algorithm!r}; known: {', '.join(SOLVERS)}")
    _check_iterations(args.iterations)
    schedule = _schedule(args)
    if args.target_exploitability is not None and not args.target_exploitability > 0:
        raise InputError(f"--target-exploitability must be positive, got {args.target_exploitability}")
    out_dir = _out_dir(args.out, args.force)

    game = GAMES[args.game]()
    solver = SOLVERS[args.algorithm](game)
    load = solver.load_kernels()  # before the clock, as OpenSpiel's library is loaded before its solve
    start = time.perf_counter()
    solve_in_chunks(
        solver,
        args.iterations,
        target_exploitability=args.target_exploitability,
        schedule=schedule,
        progress=not args.json and sys.stderr.isatty(),
    )
    seconds = time.perf_counter() - start
    policy = solver.average_policy()
    out = {
        "game": args.game,
        "algorithm": args.algorithm,
        "iterations": solver.iteration,
        "seconds": round(seconds, 6),
        "load_seconds": round(load, 6),
        "value": expected_value(game, policy, 0),
        "exploitability": exploitability(game, policy),
    }
    if out_dir is not None:
        _save(out_dir, policy, {**out, "num_infosets": int(game.num_infosets), "num_actions": int(game.num_actions)})
    if args.json:
        print(json.dumps(out))
    else:
        print(f"game            {out['game']}")
        print(f"algorithm       {out['algorithm']}")
        print(f"value (p0)      {out['value']:+.6f}")
        print(f"exploitability  {out['exploitability']:.3g}")
        print(f"iterations      {out['iterations']}")
        print(f"seconds         {out['seconds']:.3f}")
        print(f"kernels loaded  {out['load_seconds']:.3f} s (before the clock)")
    return 0


def _schedule(args: argparse.Namespace) -> CheckSchedule:
    if args.check_first < 1:
        raise InputError(f"--check-first must be at least 1, got {args.check_first}")
    if not args.check_growth >= 1.02:
        raise InputError(f"--check-growth must be at least 1.02, got {args.check_growth}")
    return CheckSchedule(args.check_first, args.check_growth)


def _check_iterations(n: int) -> None:
    if n < 1:
        raise InputError(f"--iterations must be at least 1, got {n}")
    if n > MAX_ITERATIONS:
        raise InputError(f"--iterations {n}: at most 2**62 = {MAX_ITERATIONS} (the solvers count in 64-bit integers)")


def _out_dir(out: str | None, force: bool = False) -> Path | None:
    """``--out`` as a directory, checked now so that a bad path fails before the solve; it is
    created only when the solve is done (:func:`_save`).  A directory that holds a solve
    already (``policy.npy`` or ``summary.json``) is refused unless ``force``."""
    if out is None:
        return None
    d = Path(out)
    if d.exists() and not d.is_dir():
        raise InputError(f"--out {out}: exists and is not a directory")
    held = [f for f in ("policy.npy", "summary.json") if (d / f).exists()]
    if held and not force:
        raise InputError(f"--out {out}: holds {' and '.join(held)} already; give --force to replace them")
    above = d.absolute().parent
    while not above.exists():
        above = above.parent
    if not above.is_dir() or not os.access(above, os.W_OK | os.X_OK):
        raise InputError(f"--out {out}: cannot create it ({above} is not a writable directory)")
    return d


def _save(out_dir: Path, policy: np.ndarray, summary: dict[str, Any]) -> None:
    """``policy.npy`` and ``summary.json`` (sorted keys, deterministic but for ``seconds``),
    written in a temporary folder beside ``out_dir`` and moved in when both are complete."""
    from poker51.io import write_json

    out_dir = out_dir.resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_dir.with_name(f".{out_dir.name}.partial-{os.getpid()}")
    try:
        tmp.mkdir()
        np.save(tmp / "policy.npy", np.asarray(policy, np.float64))
        write_json(summary, tmp / "summary.json")
        if out_dir.is_dir():
            for f in ("policy.npy", "summary.json"):
                (tmp / f).replace(out_dir / f)
        else:
            tmp.replace(out_dir)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _run_poker51(args: argparse.Namespace) -> int:
    """Solve one table of a Poker 51 variant; values are Riemann's, in jbits per hand."""
    from poker51.abstraction.tables import load_abstraction
    from poker51.games.abstract import build_game, describe
    from poker51.games.population import load_population
    from poker51.study.scores import score_table, variant_types
    from poker51.study.solve import solve_table

    if args.algorithm not in SOLVERS:
        raise InputError(f"unknown algorithm {args.algorithm!r}; known: {', '.join(SOLVERS)}")
    if not 0.0 <= args.p <= 1.0:
        raise InputError(f"--p must be in [0, 1], got {args.p}")
    _check_iterations(args.iterations)
    schedule = _schedule(args)
    if args.target_exploitability is not None and not args.target_exploitability > 0:
        raise InputError(f"--target-exploitability must be positive, got {args.target_exploitability}")
    pop = load_population(args.population)  # before the abstraction: a bad file fails fast
    out_dir = _out_dir(args.out, args.force)
    ab = load_abstraction(args.abstraction, args.game).arrays()
    game = build_game(ab)
    types = variant_types(game, ab, pop)
    res = solve_table(
        game,
        types,
        pop.weights,
        args.p,
        algorithm=args.algorithm,
        iterations=args.iterations,
        target_exploitability=args.target_exploitability,
        schedule=schedule,
        progress=not args.json and sys.stderr.isatty(),
    )
    from poker51.solver.best_response import expected_value

    score = score_table(game, res.policy, types, pop)
    size = describe(game)
    last = res.convergence.iloc[-1] if len(res.convergence) else None
    out = {
        "game": args.game,
        "algorithm": args.algorithm,
        "p": args.p,
        "iterations": res.iterations,
        "seconds": round(res.seconds, 6),
        "value": -expected_value(game, res.policy, 0),
        "exploitability": float(last["exploitability"]) if last is not None else None,
        "guarantee": score.guarantee,
        "vs_population": score.vs_population,
        "information_sets": int(game.num_infosets),
        "public_nodes": size.public_nodes,
        "infosets_H": size.infosets_H,
        "infosets_R": size.infosets_R,
    }
    if out_dir is not None:
        rebuild = {
            "abstraction": "rebuilt" if args.abstraction is None else str(Path(args.abstraction)),
            "population": str(Path(args.population)),
            "num_actions": int(game.num_actions),
        }
        _save(out_dir, res.policy, {**out, **rebuild})
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:18s}{v:+.6f}" if isinstance(v, float) else f"{k:18s}{v}")
    return 0
