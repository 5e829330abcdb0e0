"""Exact best responses, expected values, NashConv and exploitability.

All values are one forward pass (the opponent's reach under its fixed policy)
and one backward pass over the public tree (:func:`poker51.solver.passes._backward_kernel`
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

from poker51.solver.passes import forward_reach, node_values
from poker51.solver.tree import Game


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


# ---------------------------------------------------------------------------------------
# Best response that respects information sets spanning several public nodes.
# ---------------------------------------------------------------------------------------
def _decision_pairs(game: Game, player: int):
    """Index arrays over ``player``'s (decision node, private state) pairs, cached on the game."""
    cache = game.__dict__.setdefault("_br_pairs", {})
    if player in cache:
        return cache[player]
    a = game.arrays
    nodes = a.dec_nodes0 if player == 0 else a.dec_nodes1
    ns = a.n_states[player, nodes]
    node_of = np.repeat(nodes, ns)
    state = np.arange(ns.sum()) - np.repeat(np.cumsum(ns) - ns, ns)
    iset = a.state_iset[a.iset_off[node_of] + state]
    weight = (a.chance_reach0 if player == 0 else a.chance_reach1)[a.state_off[player, node_of] + state]
    nact = a.num_actions[iset]
    pair = np.repeat(np.arange(len(node_of)), nact)
    act = np.arange(nact.sum()) - np.repeat(np.cumsum(nact) - nact, nact)
    child = a.children[a.child_start[node_of[pair]] + act]
    value_index = a.state_off[player, child] + state[pair]
    slot = a.act_off[iset[pair]] + act
    cache[player] = (pair, value_index, slot, weight)
    return cache[player]


def best_response_policy(
    game: Game, policy: np.ndarray, player: int, weights=None, max_sweeps: int = 100
) -> np.ndarray:
    """A pure best response of ``player`` to ``policy`` that plays one action per
    *information set*, also when a set spans several public nodes (Riemann reading a
    five-card draw as four).

    Sweeps: evaluate the current response (one backward pass), then let every
    information set pick the action with the largest value summed over its members,
    each weighted by its static chance weight; repeat until nothing changes.  For a
    player with perfect recall, sweep ``k`` fixes every set with at most ``k``
    decisions below it, so this ends with the exact best response after at most the
    depth of the tree sweeps.  Ties go to the first action.  ``policy`` may be a
    stack of opponent policies mixed with ``weights`` (as :func:`opponent_reach`);
    the returned vector holds the response in ``player``'s slots and zeros elsewhere.
    """
    a = game.arrays
    pair, value_index, slot, weight = _decision_pairs(game, player)
    opp = opponent_reach(game, 1 - player, policy, weights)
    response = np.zeros(game.num_actions)
    lo = a.act_off[:-1][a.iset_player == player]
    response[lo] = 1.0  # start from the first action everywhere
    for _ in range(max_sweeps):
        _, v = node_values(a, player, opp, response)
        q = np.zeros(game.num_actions)
        np.add.at(q, slot, weight[pair] * v[value_index])
        best = np.maximum.reduceat(q, a.act_off[:-1])
        idx = np.arange(game.num_actions)
        first = np.minimum.reduceat(
            np.where(q == np.repeat(best, a.num_actions), idx, game.num_actions), a.act_off[:-1]
        )
        new = np.zeros(game.num_actions)
        new[first[a.iset_player == player]] = 1.0
        if np.array_equal(new, response):
            return response
        response = new
    raise RuntimeError(f"best response did not settle in {max_sweeps} sweeps")


def infoset_best_response_value(game: Game, policy: np.ndarray, player: int, weights=None) -> float:
    """Value for ``player`` of :func:`best_response_policy` (exact for perfect recall)."""
    br = best_response_policy(game, policy, player, weights)
    return value_against(game, br, player, policy, weights)
