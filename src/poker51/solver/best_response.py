"""Exact best responses, expected values, NashConv and exploitability.

All values are one forward pass (the opponent's reach under its fixed policy) and one
backward pass over the public tree (:func:`poker51.solver.passes.backward_seq`).
:func:`best_response_value` maximises per (public node, private state): for a player with
perfect recall this is the exact best response; for a player whose information sets group
several private states or nodes (imperfect recall) it is the best response of a player
that *recalls* what the grouping forgot, an upper bound.

:func:`best_response_policy` plays one action per *information set* (``MODE_INFOSET``):
walking up the tree by depth, each set takes the action with the largest value summed
over its members, each weighted by its static chance weight.  When the members of every
set share their own strategy reach (perfect recall, or a grouping that forgets only
chance or the opponent's moves, like Riemann reading a five-card draw as four) this is
the exact best response among the strategies that respect the sets, in one pass.
Otherwise it is the value of one such strategy (a lower bound on the best of them).
:func:`best_response_policy_sweeps` is the plain-NumPy twin (repeated sweeps to a fixed
point); it also serves games whose sets span depths (``br_one_pass == 0``).

:func:`profile_gap` is the convergence check of a (restricted) solve: four passes, the
cost of one CFR iteration (:class:`Gap`).

Definitions (OpenSpiel's): ``nash_conv = BR_0(pi_1) + BR_1(pi_0)`` (each from
its own player's view; the profile's values cancel in a zero-sum game) and
``exploitability = nash_conv / 2``.  A fixed opponent may be a *mixture* of
policies (types drawn by chance with ``weights``), given as a 2-D array of
policies; its reach is the weighted sum of the types' reaches.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from poker51.solver.passes import MODE_INFOSET, Passes, forward_reach, node_values, terminal_dot
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
def best_response_policy(game: Game, policy: np.ndarray, player: int, weights=None) -> np.ndarray:
    """A pure best response of ``player`` to ``policy`` that plays one action per
    *information set*, also when a set spans several public nodes (module docstring):
    one backward pass, ties to the first action.  ``policy`` may be a stack of opponent
    policies mixed with ``weights`` (as :func:`opponent_reach`); the returned vector holds
    the response in ``player``'s slots and zeros elsewhere."""
    opp = opponent_reach(game, 1 - player, policy, weights)
    if not game.arrays.br_one_pass[0]:
        return _sweeps(game, opp, player)
    ps = Passes(game.arrays)
    ps.backward(player, opp, game.uniform_policy(), MODE_INFOSET, np.zeros(int(game.arrays.n_states[player].sum())))
    return _choice_policy(game, player, ps.choice)


def _choice_policy(game: Game, player: int, choice: np.ndarray) -> np.ndarray:
    a = game.arrays
    lo, hi = a.iset_range[player], a.iset_range[player + 1]
    response = np.zeros(game.num_actions)
    response[a.act_off[lo:hi] + choice[lo:hi]] = 1.0
    return response


def infoset_best_response_value(game: Game, policy: np.ndarray, player: int, weights=None) -> float:
    """Value for ``player`` of :func:`best_response_policy` (exact when set members share
    their own reach; module docstring)."""
    opp = opponent_reach(game, 1 - player, policy, weights)
    return _infoset_value(game, Passes(game.arrays), player, opp, np.zeros(int(game.arrays.n_states[player].sum())))


#: the policy argument of a pass that reads none (``MODE_INFOSET`` picks p's actions and sums the opponent's)
_NO_POLICY = np.zeros(0)


def _infoset_value(game: Game, ps: Passes, player: int, opp: np.ndarray, out: np.ndarray) -> float:
    if game.arrays.br_one_pass[0]:
        return ps.backward(player, opp, _NO_POLICY, MODE_INFOSET, out)
    root, v = node_values(game.arrays, player, opp, _sweeps(game, opp, player))
    out[:] = v
    return root


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


def best_response_policy_sweeps(
    game: Game, policy: np.ndarray, player: int, weights=None, max_sweeps: int = 100
) -> np.ndarray:
    """The plain twin of :func:`best_response_policy`, by sweeps: evaluate the current
    response (one backward pass), then let every information set pick the action with the
    largest value summed over its members, each weighted by its static chance weight;
    repeat until nothing changes.  Sweep ``k`` fixes every set with at most ``k``
    decisions below it, so this ends after at most the depth of the tree sweeps, at the
    policy the one-pass response computes (ties to the first action)."""
    return _sweeps(game, opponent_reach(game, 1 - player, policy, weights), player, max_sweeps)


def _sweeps(game: Game, opp: np.ndarray, player: int, max_sweeps: int = 100) -> np.ndarray:
    a = game.arrays
    pair, value_index, slot, weight = _decision_pairs(game, player)
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


# ---------------------------------------------------------------------------------------
# The convergence check of a (restricted) solve.
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Gap:
    """One check of an average profile in the restricted game of player ``r`` (the
    responder, ``rnr_player``) against ``o = 1 - r``, who is the fixed types with
    probability ``p`` and free otherwise (p = 0: the ordinary game).

    ``br_free``: o's best-response value (its own view) against r's average strategy;
    ``br_rnr``: r's best-response value, one action per information set, against
    ``(1 - p) * o's average + p * types``; ``vs_fixed``: r's average against the types
    (NaN at p = 0).  With ``u_p(r, o) = (1 - p) u(r, o) + p u(r, types)``::

        exploitability = (max_r u_p(r, o_avg) - min_o u_p(r_avg, o)) / 2
                       = (br_rnr - (1 - p) (-br_free) - p vs_fixed) / 2

    which at p = 0 is the ordinary exploitability, and ``-br_free`` is r's guarantee."""

    br_free: float
    br_rnr: float
    vs_fixed: float
    p: float

    @property
    def guarantee(self) -> float:
        return -self.br_free

    @property
    def exploitability(self) -> float:
        low = (1.0 - self.p) * self.guarantee + (self.p * self.vs_fixed if self.p > 0 else 0.0)
        return 0.5 * (self.br_rnr - low)


def profile_gap(
    game: Game,
    policy: np.ndarray,
    rnr_player: int = 1,
    p: float = 0.0,
    fixed_reach: np.ndarray | None = None,
    *,
    passes: Passes | None = None,
    buffers: tuple | None = None,
) -> Gap:
    """:class:`Gap` of the profile ``policy`` in four passes: both players' reach, o's
    best response against r (its terminal values also give r's value against the types,
    :func:`poker51.solver.passes.terminal_dot`), r's best response against the mixture.
    ``buffers = (reach_0, reach_1, v_0, v_1, mixed)`` lets a solver lend its arrays."""
    a = game.arrays
    r = 1 if rnr_player < 0 else int(rnr_player)
    o = 1 - r
    ps = passes if passes is not None else Passes(a)
    n = [int(a.n_states[q].sum()) for q in (0, 1)]
    if buffers is None:
        buffers = (np.zeros(n[0]), np.zeros(n[1]), np.zeros(n[0]), np.zeros(n[1]), np.zeros(n[o]))
    reach, v, mixed = buffers[0:2], buffers[2:4], buffers[4]
    ps.forward(o, policy, reach[o])
    ps.forward(r, policy, reach[r])
    br_free = _infoset_value(game, ps, o, reach[r], v[o])
    opp = reach[o]
    vs_fixed = float("nan")
    if p > 0:
        if fixed_reach is None:
            raise ValueError("a restricted game (p > 0) needs the fixed types' reach")
        vs_fixed = -float(terminal_dot(a, o, fixed_reach, v[o]))
        opp = ps.mix(reach[o], fixed_reach, p, mixed)
    br_rnr = _infoset_value(game, ps, r, opp, v[r])
    return Gap(float(br_free), float(br_rnr), vs_fixed, float(p))
