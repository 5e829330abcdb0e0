"""Riemann's solved strategy summarised for the heat maps (SPEC section 8).

:func:`strategy_summary` aggregates Riemann's rows by (street, spot, class or bucket), each
information set weighted by how often the solved profile reaches it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from poker51.export.schema import spot_of_line
from poker51.solver.passes import forward_reach
from poker51.solver.tree import Game

#: heat-map columns: Riemann's spots with H's opening size folded into ``bet``
SPOTS = ("checked", "bet1", "bet2", "bet4", "bet8", "reraised", "raised")


def spot_of(line: str) -> str:
    """Riemann's spot from the round's line, a heat-map column (:func:`poker51.export.schema.spot_of_line`
    with H's opening size folded into the name).

    >>> [spot_of(x) for x in ("x", "b4", "b4-r-r", "x-b2-r")]
    ['checked', 'bet4', 'reraised', 'raised']
    """
    spot, h_bet = spot_of_line(line)
    return f"bet{h_bet}" if spot == "bet" else spot


def strategy_summary(game: Game, policy: np.ndarray) -> pd.DataFrame:
    """Riemann's strategy aggregated by (street, spot, class or bucket), each information
    set weighted by how often play reaches it under the solved profile.

    Columns: street, spot, state, weight, aggressive (bet or raise), fold; an action the
    spot does not offer is NaN, not 0 (Riemann cannot fold when checked to, and facing a
    raise or a re-raise it may only fold or call)."""
    a = game.arrays
    reach_r = forward_reach(a, 1, policy)
    hsum = np.empty(len(a.kind))  # H's mass per node (state vectors lie in visiting order)
    hsum[a.order] = np.add.reduceat(forward_reach(a, 0, policy), a.state_off[0, a.order])
    nodes = a.dec_nodes1
    ns = a.n_states[1, nodes]
    node_of = np.repeat(nodes, ns)
    state = np.arange(ns.sum()) - np.repeat(np.cumsum(ns) - ns, ns)
    weight = reach_r[a.state_off[1, node_of] + state] * hsum[node_of] * a.node_chance[node_of]
    iset = a.state_iset[a.iset_off[node_of] + state]
    # per information set of Riemann: street, spot, state
    keys = game.iset_keys
    street = np.array([k[1] if p == 1 else -1 for p, k in keys])
    spot = np.array([SPOTS.index(spot_of(k[4] if k[1] == 0 else k[5])) if p == 1 else -1 for p, k in keys])
    st = np.array([k[-1] if p == 1 else -1 for p, k in keys])
    lo = a.act_off[:-1]
    checked = spot[iset] == SPOTS.index("checked")
    three = a.num_actions[iset] == 3
    last = lo[iset] + a.num_actions[iset] - 1  # raise (3 actions) or bet (checked to)
    aggressive = np.where(checked | three, policy[last], np.nan)  # no raise of a raise: NaN
    fold = np.where(checked, np.nan, policy[lo[iset]])  # nothing to fold when checked to: NaN
    keep = weight > 0
    df = pd.DataFrame(
        {
            "street": street[iset][keep],
            "spot": np.array(SPOTS)[spot[iset][keep]],
            "state": st[iset][keep],
            "weight": weight[keep],
            "wa": (weight * aggressive)[keep],
            "wf": (weight * fold)[keep],
        }
    )
    g = df.groupby(["street", "spot", "state"], sort=True)[["weight", "wa", "wf"]].sum(min_count=1).reset_index()
    g["aggressive"] = g["wa"] / g["weight"]
    g["fold"] = g["wf"] / g["weight"]
    return g.drop(columns=["wa", "wf"])
