"""Restricted Nash response (Johanson, Zinkevich & Bowling 2007, NIPS).

The restricted game: chance first decides whether the opponent of ``player`` is
*fixed* (probability p) or *free* (1 - p); a fixed opponent is one of several
types, type t with weight w_t, playing its fixed policy; a free opponent is
strategic and knows it is free.  ``player`` cannot tell.  ``player``'s
counterfactual values are linear in the opponent's reach, so its regrets are
computed against the combined reach

    (1 - p) * reach_free + p * sum_t w_t * reach_t

(each type weighted by its own reach, not by the average of the type policies),
while the free opponent is updated as usual against ``player``.  p = 0 gives a
Nash equilibrium; p = 1 gives a best response to the type mixture; the sweep in
between traces the exploitation / exploitability frontier.
"""

from __future__ import annotations

import numpy as np

from poker51.solver.best_response import opponent_reach, value_against
from poker51.solver.cfr import SOLVERS, CFRSolver
from poker51.solver.tree import Game


def rnr_solver(
    game: Game,
    player: int,
    types: np.ndarray,
    p: float,
    weights=None,
    algorithm: str = "cfr+",
    workers: int | None = None,
) -> CFRSolver:
    """A solver of the restricted game (not yet run): ``player`` responds to the opponent
    being ``types`` (mixed by ``weights``) with probability ``p`` and free otherwise.
    ``p = 0`` is a plain solver of the game; ``workers``: threads of its passes."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be in [0, 1], got {p}")
    if algorithm not in SOLVERS:
        raise ValueError(f"unknown algorithm {algorithm!r}; known: {', '.join(SOLVERS)}")
    if p == 0:
        return SOLVERS[algorithm](game, workers=workers)
    fixed = opponent_reach(game, 1 - player, types, weights)
    return SOLVERS[algorithm](game, rnr=(player, p, fixed), workers=workers)


def restricted_nash_response(
    game: Game,
    player: int,
    types: np.ndarray,
    p: float,
    weights=None,
    iterations: int = 1000,
    algorithm: str = "cfr+",
    **solve_kw,
) -> CFRSolver:
    """Solve the restricted game; ``solver.average_policy()`` holds ``player``'s
    response (and the free opponent's strategy).

    ``types``: one policy (1-D) or a stack of policies (T x num_actions) for the
    opponent; ``weights``: mixture weights (default uniform)."""
    solver = rnr_solver(game, player, types, p, weights, algorithm)
    solver.solve(iterations, **solve_kw)
    return solver


def evaluate_against_types(game: Game, policy: np.ndarray, player: int, types: np.ndarray) -> np.ndarray:
    """Value for ``player`` of ``policy`` against each fixed type separately."""
    return np.array([value_against(game, policy, player, t) for t in np.atleast_2d(types)])
