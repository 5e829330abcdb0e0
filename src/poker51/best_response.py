"""Exact best responses, expected values, NashConv and exploitability.

All values are one forward pass (the opponent's reach under its fixed policy)
and one backward pass over the public tree (:func:`poker51.game._backward_kernel`
with ``best=True``: the best responder maximises per (public node, private
state)).  For a player with perfect recall this is the exact best response.
For a player whose information sets group several private states (imperfect
recall) it is the best response of a player that *recalls* what the grouping
forgot, an upper bound on the exact one.

Definitions (OpenSpiel's): ``nash_conv = BR_0(pi_1) + BR_1(pi_0)`` (each from
its own player's view; the profile's values cancel in a zero-sum game) and
``exploitability = nash_conv / 2``.  A fixed opponent may be a *mixture* of
policies (types drawn by chance with ``weights``), given as a 2-D array of
policies; its reach is the weighted sum of the types' reaches.
"""

from __future__ import annotations

import numpy as np

from poker51.game import Game, forward_reach, node_values


def opponent_reach(game: Game, player: int, policies: np.ndarray, weights=None) -> np.ndarray:
    """Reach vector of ``player`` playing ``policies`` (1-D, or 2-D: a mixture of types)."""
    pol = np.atleast_2d(np.asarray(policies, np.float64))
    w = np.full(len(pol), 1.0 / len(pol)) if weights is None else np.asarray(weights, np.float64)
    if len(w) != len(pol) or np.any(w < 0) or not np.isclose(w.sum(), 1.0):
        raise ValueError("mixture weights must be non-negative, one per policy, and sum to 1")
    out = np.zeros(int(game.arrays.n_states[player].sum()))
    for wt, p in zip(w, pol):
        out += wt * forward_reach(game.arrays, player, p)
    return out


def best_response_value(game: Game, policy: np.ndarray, player: int, weights=None) -> float:
    """Value (for ``player``) of a best response to the opponent playing ``policy``."""
    opp = opponent_reach(game, 1 - player, policy, weights)
    return node_values(game.arrays, player, opp, game.uniform_policy(), best=True)[0]


def expected_value(game: Game, policy: np.ndarray, player: int = 0) -> float:
    """Value for ``player`` when both players follow the profile ``policy``."""
    pol = np.asarray(policy, np.float64)
    opp = forward_reach(game.arrays, 1 - player, pol)
    return node_values(game.arrays, player, opp, pol)[0]


def value_against(game: Game, policy: np.ndarray, player: int, opponent: np.ndarray, weights=None) -> float:
    """Value for ``player`` playing ``policy`` against ``opponent`` (a policy or a mixture)."""
    opp = opponent_reach(game, 1 - player, opponent, weights)
    return node_values(game.arrays, player, opp, np.asarray(policy, np.float64))[0]


def nash_conv(game: Game, policy: np.ndarray) -> float:
    """Sum over both players of the best-response value against ``policy``."""
    return best_response_value(game, policy, 0) + best_response_value(game, policy, 1)


def exploitability(game: Game, policy: np.ndarray) -> float:
    """NashConv / 2: the mean of both players' best-response gains."""
    return 0.5 * nash_conv(game, policy)
