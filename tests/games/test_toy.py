"""Kuhn and Leduc as built on the public tree: sizes, chance mass, and OpenSpiel agreement."""

from __future__ import annotations

import numpy as np
import pytest

from poker51.games.toy import GAMES, kuhn, leduc, register_game
from poker51.solver.best_response import expected_value, exploitability, nash_conv
from poker51.solver.cfr import CFRPlusSolver, normalize_policy
from poker51.solver.tree import chance_mass


def test_registry_is_extensible():
    assert set(GAMES) >= {"kuhn", "leduc"}
    register_game("kuhn-again", kuhn)
    try:
        assert GAMES["kuhn-again"]().num_infosets == 12
    finally:
        del GAMES["kuhn-again"]


def test_kuhn_sizes():
    g = kuhn()
    assert (g.num_nodes, g.num_infosets, g.num_actions) == (10, 12, 24)
    assert chance_mass(g) == pytest.approx(1.0, abs=1e-15)


def test_leduc_sizes():
    g = leduc()
    a = g.arrays
    assert g.num_nodes == 466
    # 936 information sets can occur (OpenSpiel's count); 180 more hold the board card
    possible = sum(1 for p, (card, board, _) in g.iset_keys if card != board)
    assert possible == 936 and g.num_infosets == 1116
    assert chance_mass(g) == pytest.approx(1.0, abs=1e-14)
    # every information set of player 0 comes first: one contiguous action range each
    assert np.all(a.iset_player[: a.iset_range[1]] == 0) and np.all(a.iset_player[a.iset_range[1] :] == 1)


# ----------------------------------------------------------------------------------------
# optional: OpenSpiel computes the same numbers for the same policy
# ----------------------------------------------------------------------------------------


def _to_openspiel(game, pyspiel_game, policy):
    """Our policy as an OpenSpiel TabularPolicy, matched by information-set keys."""
    from open_spiel.python import policy as os_policy

    tab = os_policy.TabularPolicy(pyspiel_game)
    index = {k: game.infoset_slice(i) for i, k in enumerate(game.iset_keys)}
    leduc_like = game.name == "leduc"

    def walk(state, hist, board):
        if state.is_terminal():
            return
        if state.is_chance_node():
            for a, _ in state.chance_outcomes():
                dealt = len(state.history()) >= 2
                walk(state.child(a), hist + ("/" if dealt and leduc_like else ""), a if dealt else board)
            return
        p = state.current_player()
        card = state.history()[p]
        key = (card, board, hist) if leduc_like else (card, hist)
        probs = tab.policy_for_key(state.information_state_string())
        probs[:] = 0.0
        probs[state.legal_actions()] = policy[index[(p, key)]]
        for a in state.legal_actions():
            walk(state.child(a), hist + ("fcr"[a] if leduc_like else "pb"[a]), board)

    walk(pyspiel_game.new_initial_state(), "", -1)
    return tab


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_openspiel_agrees_on_values_and_nash_conv(name):
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import expected_game_score
    from open_spiel.python.algorithms import exploitability as os_expl

    g = GAMES[name]()
    os_game = pyspiel.load_game(f"{name}_poker")
    rng = np.random.default_rng(7)
    for pol in (
        g.uniform_policy(),
        normalize_policy(g, rng.random(g.num_actions)),
        CFRPlusSolver(g).solve(200).average_policy(),
    ):
        tab = _to_openspiel(g, os_game, pol)
        assert nash_conv(g, pol) == pytest.approx(os_expl.nash_conv(os_game, tab), abs=1e-10)
        want = expected_game_score.policy_value(os_game.new_initial_state(), [tab, tab])[0]
        assert expected_value(g, pol) == pytest.approx(want, abs=1e-10)
    assert exploitability(g, g.uniform_policy()) > 0
