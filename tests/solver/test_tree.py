"""The public-tree representation: builder validation, showdown modes, chance mass."""

from __future__ import annotations

import numpy as np
import pytest

from poker51.solver.best_response import best_response_value, expected_value
from poker51.solver.cfr import CFRPlusSolver, normalize_policy
from poker51.solver.tree import CHANCE, DECISION, FOLD, PRIVATE_CHANCE, SHOWDOWN, GameBuilder, chance_mass


def _bet_game(mode, n0=7, n1=5, seed=0):
    """Deal independent states, one bet/call round, showdown by strength (ties included)."""
    rng = np.random.default_rng(seed)
    s0, s1 = rng.integers(0, 4, n0), rng.integers(0, 4, n1)
    d0, d1 = rng.random(n0), rng.random(n1)
    b = GameBuilder(mode)

    def show(c):
        if mode == "ranked":
            return b.add_showdown((c, c), strengths=(s0, s1))
        return b.add_showdown((c, c), win=np.sign(s0[:, None] - s1[None, :]).astype(float))

    call = b.add_decision(1, [b.add_fold(1, (2, 1)), show(2)])
    check = b.add_decision(1, [show(1), b.add_decision(0, [b.add_fold(0, (1, 2)), show(2)])])
    root = b.add_private_chance(b.add_decision(0, [check, call]), (d0 / d0.sum())[None], (d1 / d1.sum())[None])
    return b.build(root)


def test_ranked_showdown_equals_win_matrix():
    ranked, dense = _bet_game("ranked"), _bet_game("matrix")
    for seed in range(3):
        rng = np.random.default_rng(seed)
        pol = normalize_policy(ranked, rng.random(ranked.num_actions))
        assert expected_value(ranked, pol) == pytest.approx(expected_value(dense, pol), abs=1e-14)
        for p in (0, 1):
            assert best_response_value(ranked, pol, p) == pytest.approx(best_response_value(dense, pol, p), abs=1e-14)


def test_unequal_contributions_at_showdown_split_the_difference():
    b = GameBuilder("tie")
    root = b.add_private_chance(b.add_showdown((1, 3), strengths=([0], [0])), [[1.0]], [[1.0]])
    g = b.build(root)
    assert expected_value(g, g.uniform_policy()) == pytest.approx(1.0)  # (c1 - c0) / 2


def test_node_order_kinds_and_state_counts():
    g = _bet_game("ranked")
    a = g.arrays
    assert a.kind[0] == PRIVATE_CHANCE and a.kind[1] == DECISION
    assert a.n_states[:, 0].tolist() == [1, 1] and a.n_states[:, 1].tolist() == [7, 5]
    assert set(a.kind.tolist()) == {PRIVATE_CHANCE, DECISION, FOLD, SHOWDOWN}
    # pre-order: every child after its parent
    for n in range(g.num_nodes):
        kids = a.children[a.child_start[n] : a.child_start[n] + a.child_count[n]]
        assert np.all(kids > n)
    assert chance_mass(g) == pytest.approx(1.0)
    assert g.nbytes() == sum(x.nbytes for x in a)


def test_public_chance_masks_and_probabilities():
    """Deal 1 of 3 cards to each player without replacement, then a public card."""
    b = GameBuilder("three")
    compat = 1 - np.eye(3)
    win = np.sign(np.arange(3)[:, None] - np.arange(3)[None, :]).astype(float)
    outs = [b.add_showdown((1, 1), win=win, compat=compat) for _ in range(3)]
    masks = [tuple((np.arange(3) != c).astype(float) for _ in range(2)) for c in range(3)]
    board = b.add_chance(outs, [1.0] * 3, masks)  # one card left: prob 1
    g = b.build(b.add_private_chance(board, [[1 / 3] * 3], [[1 / 2] * 3]))
    assert g.arrays.kind[1] == CHANCE
    assert chance_mass(g) == pytest.approx(1.0, abs=1e-15)
    assert expected_value(g, g.uniform_policy()) == pytest.approx(0.0, abs=1e-15)


def test_builder_rejects_bad_shapes_and_shared_children():
    b = GameBuilder("bad")
    leaf = b.add_fold(0, (1, 1))
    d = b.add_decision(0, [leaf, leaf])
    with pytest.raises(ValueError, match="two parents"):
        b.build(d)
    b = GameBuilder("bad")
    sd = b.add_showdown((1, 1), strengths=([0, 1], [0]))
    with pytest.raises(ValueError, match="strength"):
        b.build(b.add_private_chance(sd, [[1.0, 0.0, 0.0]], [[1.0]]))
    b = GameBuilder("bad")
    d = b.add_decision(0, [b.add_fold(0, (1, 1)), b.add_fold(1, (1, 1))], infosets=["x"])
    with pytest.raises(ValueError, match="infoset keys"):
        b.build(b.add_private_chance(d, [[0.5, 0.5]], [[1.0]]))
    with pytest.raises(ValueError):
        GameBuilder("bad").add_showdown((1, 1))


def test_same_key_needs_same_action_count():
    b = GameBuilder("bad")
    d1 = b.add_decision(0, [b.add_fold(0, (1, 1))], infosets=["k"])
    d2 = b.add_decision(0, [b.add_fold(0, (1, 1)), b.add_fold(1, (1, 1))], infosets=["k"])
    with pytest.raises(ValueError, match="action counts"):
        b.build(b.add_decision(1, [d1, d2]))


def test_cfr_solves_a_ranked_game_deterministically():
    g = _bet_game("ranked")
    a, b = CFRPlusSolver(g).solve(500), CFRPlusSolver(g).solve(500)
    assert a.avg.tobytes() == b.avg.tobytes()
    pol = a.average_policy()
    assert best_response_value(g, pol, 0) + best_response_value(g, pol, 1) < 1e-3
