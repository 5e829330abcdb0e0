"""The study: solve each variant's abstract game and score the tables (SPEC section 6).

Riemann is player 1 of :mod:`poker51.games.abstract`; every value here is **Riemann's**,
in jbits per hand (the negative of the game's player-0 payoffs).

- :func:`solve_table` runs CFR+ (or DCFR / PCFR+) as a restricted Nash response with
  probability ``p`` of the human being the population (Johanson, Zinkevich and
  Bowling 2007); ``p = 0`` is the plain Nash solve.  It logs, every ``check_every``
  iterations, the exploitability of the restricted game (the gap of the average
  profile, halved), Riemann's guarantee and its value against the population, and it
  checkpoints so an interrupted job resumes exactly.
- :func:`score_table` gives a table's guarantee (its value against a best-responding
  human, exact: the human has perfect recall), its value against the population and
  each type, and the best-responding human's gain.
- :func:`value_bracket` brackets the game's value: below, the Nash table's guarantee;
  above, Riemann's best response to the human's Nash strategy within Riemann's
  information sets (it reads a five-card draw as four).  Recalling its class would
  not raise it: after the draw the payoffs depend on buckets only and the deals are
  independent (see :mod:`poker51.games.abstract`), so the class-recalling response of the
  issue equals this one; :func:`recall_upper_bound` gives the looser bound of a
  Riemann that also tells a five-card draw from a four-card one.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from poker51.games.abstract import AbstractionArrays, H, R, build_game
from poker51.games.population import Population, population_policies
from poker51.io import read_parquet
from poker51.solver.best_response import (
    best_response_value,
    infoset_best_response_value,
    opponent_reach,
    value_against,
)
from poker51.solver.cfr import SOLVERS
from poker51.solver.tree import Game

log = logging.getLogger("poker51.study.solve")

TABLE_NAMES = ("classes", "buckets", "transitions", "belief")


def load_abstraction(directory: str | Path, variant: str) -> tuple[dict[str, pd.DataFrame], AbstractionArrays]:
    """Read ``{directory}/{classes,buckets,transitions,belief}.parquet`` of one variant."""
    from poker51.abstraction.classes import arrays

    directory = Path(directory)
    tables = {name: read_parquet(directory / f"{name}.parquet") for name in TABLE_NAMES}
    return tables, AbstractionArrays(variant, **arrays(tables))


@dataclass
class SolveResult:
    policy: np.ndarray
    convergence: pd.DataFrame
    iterations: int
    seconds: float
    timing: list[tuple[int, float]] = field(default_factory=list)


def restricted_gap(
    game: Game, policy: np.ndarray, types: np.ndarray, weights: np.ndarray, p: float
) -> dict[str, float]:
    """Convergence measures of a restricted Nash response profile, Riemann's view.

    With ``u_p(sR, sH) = (1-p) u(sR, sH) + p u(sR, population)``:
    ``gap = max_sR u_p(sR, sH_free) - min_sH u_p(sR_avg, sH)``, halved as
    ``exploitability``.  At p = 0 this is the ordinary exploitability.
    """
    guarantee = -best_response_value(game, policy, H)
    vs_pop = value_against(game, policy, R, types, weights) if p > 0 else float("nan")
    br_r = riemann_best_response(game, policy, types, weights, p)
    low = (1 - p) * guarantee + (p * vs_pop if p > 0 else 0.0)
    return {"exploitability": 0.5 * (br_r - low), "guarantee": guarantee, "vs_population": vs_pop}


def riemann_best_response(game: Game, policy: np.ndarray, types: np.ndarray, weights: np.ndarray, p: float) -> float:
    """Riemann's best value, within its information sets, when the human plays the
    population with probability ``p`` and ``policy``'s human part otherwise."""
    stack = np.vstack([policy[None, :], types])
    w = np.concatenate([[1.0 - p], p * np.asarray(weights, np.float64)])
    keep = w > 0
    return infoset_best_response_value(game, stack[keep], R, w[keep] / w[keep].sum())


def solve_table(
    game: Game,
    types: np.ndarray,
    weights: np.ndarray,
    p: float,
    *,
    algorithm: str = "cfr+",
    iterations: int = 2000,
    target_exploitability: float | None = None,
    check_every: int = 50,
    checkpoint: str | Path | None = None,
    checkpoint_every: int = 500,
    progress: bool = False,
) -> SolveResult:
    """Solve the restricted game of one table; see the module docstring.

    A checkpoint at ``checkpoint`` (if it exists and matches the game and settings)
    is resumed; the convergence log is rebuilt from the checkpoint's own log.
    """
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be in [0, 1], got {p}")
    if algorithm not in SOLVERS:
        raise ValueError(f"unknown algorithm {algorithm!r}")
    rnr = None
    if p > 0:
        rnr = (R, p, opponent_reach(game, H, types, weights))
    solver = SOLVERS[algorithm](game, rnr=rnr)
    rows: list[dict] = []
    ck = Path(checkpoint) if checkpoint else None
    if ck is not None and ck.exists() and ck.with_suffix(".log.npy").exists():
        try:
            solver.load_checkpoint(ck)
        except ValueError as exc:  # another game, population or solver: start afresh
            log.warning("%s; starting afresh", exc)
            solver = SOLVERS[algorithm](game, rnr=rnr)
        if 0 < solver.iteration <= iterations:
            rows = [
                dict(iteration=int(i), exploitability=float(e), guarantee=float(g), vs_population=float(v))
                for i, e, g, v in np.load(ck.with_suffix(".log.npy"))
            ]
            log.info("resumed %s at iteration %d", ck, solver.iteration)
        elif solver.iteration > iterations:
            log.warning("%s is past %d iterations; starting afresh", ck, iterations)
            solver = SOLVERS[algorithm](game, rnr=rnr)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=iterations, initial=solver.iteration, desc=game.name, unit="it")
    timing = []
    start = time.perf_counter()
    done = bool(rows) and target_exploitability is not None and rows[-1]["exploitability"] <= target_exploitability
    while solver.iteration < iterations and not done:
        n = min(check_every - solver.iteration % check_every, iterations - solver.iteration)
        solver.iterate(n)
        if bar is not None:
            bar.update(n)
        if solver.iteration % check_every == 0 or solver.iteration == iterations:
            m = restricted_gap(game, solver.average_policy(), types, weights, p)
            rows.append({"iteration": solver.iteration, **m})
            timing.append((solver.iteration, time.perf_counter() - start))
            if bar is not None:
                bar.set_postfix(exploitability=f"{m['exploitability']:.2e}")
            log.info(
                "iteration %d exploitability %.3e guarantee %+.5f",
                solver.iteration,
                m["exploitability"],
                m["guarantee"],
            )
            done = target_exploitability is not None and m["exploitability"] <= target_exploitability
        if ck is not None and (solver.iteration % checkpoint_every == 0 or done or solver.iteration == iterations):
            ck.parent.mkdir(parents=True, exist_ok=True)
            solver.save_checkpoint(ck)
            np.save(
                ck.with_suffix(".log.npy"),
                np.array(
                    [[r["iteration"], r["exploitability"], r["guarantee"], r["vs_population"]] for r in rows],
                    np.float64,
                ),
            )
    if bar is not None:
        bar.close()
    conv = pd.DataFrame(rows, columns=["iteration", "exploitability", "guarantee", "vs_population"])
    conv = conv.astype({"iteration": "int64"})
    conv.insert(0, "p", float(p))
    return SolveResult(solver.average_policy(), conv, solver.iteration, time.perf_counter() - start, timing)


def score_table(game: Game, policy: np.ndarray, types: np.ndarray, pop: Population) -> dict[str, float]:
    """Riemann's guarantee, its value against the population and against each type."""
    out = {
        "guarantee": -best_response_value(game, policy, H),
        "vs_population": value_against(game, policy, R, types, pop.weights),
    }
    for t, pol in zip(pop.types, types):
        out[f"vs_{t.name}"] = value_against(game, policy, R, pol)
    return out


def value_bracket(game: Game, nash_policy: np.ndarray) -> tuple[float, float]:
    """(low, high) bracket of the game's value for Riemann from a Nash solve."""
    low = -best_response_value(game, nash_policy, H)
    high = infoset_best_response_value(game, nash_policy, R)
    return low, high


def recall_upper_bound(game: Game, nash_policy: np.ndarray) -> float:
    """Riemann's best response maximised per (public node, private state): it recalls
    its class and tells d = 5 from d = 4.  An upper bound, looser than the bracket's."""
    return best_response_value(game, nash_policy, R)


def variant_types(game: Game, ab: AbstractionArrays, pop: Population) -> np.ndarray:
    """The population's policies stacked (T x num_actions)."""
    return np.vstack(population_policies(game, ab, pop))


def p_label(p: float) -> str:
    """Directory label of a table: ``p0``, ``p0.1``, ``p0.5``, ``p1``.

    >>> [p_label(x) for x in (0, 0.1, 0.5, 1.0)]
    ['p0', 'p0.1', 'p0.5', 'p1']
    """
    return f"p{float(p):g}"


__all__ = [
    "SolveResult",
    "build_game",
    "load_abstraction",
    "p_label",
    "restricted_gap",
    "score_table",
    "solve_table",
    "value_bracket",
    "variant_types",
]
