"""The visiting order and the thread plan: a valid order, segments that share nothing, set members."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import small_abstraction

from poker51.games.abstract import FIRST_ACTIONS, build_game
from poker51.games.toy import kuhn, leduc
from poker51.solver.layout import depths, plan, subtree_ends


def _parent(a) -> np.ndarray:
    parent = np.full(len(a.kind), -1)
    parent[a.children] = np.repeat(np.arange(len(a.kind)), a.child_count)
    return parent


@pytest.fixture(scope="module", params=["kuhn", "leduc", "tiny"])
def game(request):
    if request.param == "tiny":
        return build_game(small_abstraction(C=3, B=4, seed=1))
    return {"kuhn": kuhn, "leduc": leduc}[request.param]()


def test_order_is_a_topological_permutation(game):
    a = game.arrays
    n = len(a.kind)
    assert sorted(a.order.tolist()) == list(range(n))
    pos = np.empty(n, np.int64)
    pos[a.order] = np.arange(n)
    parent = _parent(a)
    kids = np.flatnonzero(parent >= 0)
    assert np.all(pos[parent[kids]] < pos[kids])  # parents first: forward passes run in order
    seg = np.searchsorted(a.seg_off, pos, side="right") - 1
    # a node is in the top (segment 0) or in its parent's segment, unless its parent is in the top
    assert np.all((seg[kids] == seg[parent[kids]]) | (seg[parent[kids]] == 0))
    depth = depths(a.child_start, a.child_count, a.children)
    for k in range(len(a.seg_off) - 1):  # depth-sorted inside each segment
        d = depth[a.order[a.seg_off[k] : a.seg_off[k + 1]]]
        assert np.all(np.diff(d) >= 0)
    assert a.seg_cost.sum() == a.n_states.sum()


def test_state_vectors_lie_end_to_end_in_visiting_order(game):
    """Each node's states are one range of its player's vector; the ranges follow ``order``
    without gap or overlap, so a pass walks its vectors in one direction."""
    a = game.arrays
    for q in (0, 1):
        start = a.state_off[q, a.order]
        size = a.n_states[q, a.order]
        assert start[0] == 0
        assert np.array_equal(start[1:], start[:-1] + size[:-1])
        assert start[-1] + size[-1] == a.n_states[q].sum() == len(a.chance_reach0 if q == 0 else a.chance_reach1)
    dec = a.order[a.kind[a.order] == 0]  # the decision nodes' lists of information sets, alike
    start, size = a.iset_off[dec], a.n_states[a.player[dec], dec]
    assert start[0] == 0 and np.array_equal(start[1:], start[:-1] + size[:-1])
    assert start[-1] + size[-1] == len(a.state_iset) and np.all(a.iset_off[a.kind != 0] == -1)


def test_members_list_every_decision_state_once(game):
    a = game.arrays
    seen = []
    for i in range(game.num_infosets):
        for m in range(a.member_off[i], a.member_off[i + 1]):
            n, s = a.member_node[m], a.member_state[m]
            assert a.state_iset[a.iset_off[n] + s] == i
            seen.append((n, s))
    dec = np.flatnonzero(a.kind == 0)
    assert sorted(seen) == [(n, s) for n in dec for s in range(a.n_states[a.player[n], n])]
    assert np.array_equal(np.diff(a.member_off), a.iset_size)
    assert a.br_one_pass[0] == 1


def test_poker51_joins_the_d4_and_d5_subtrees():
    """Riemann's sets span H's d = 4 and d = 5 openings: 30 subtrees under the first
    decision become 25 segments, each set inside one, members at one depth."""
    a = build_game(small_abstraction(C=3, B=4, seed=1)).arrays
    assert len(FIRST_ACTIONS) == 30 and len(a.seg_off) - 2 == 25
    assert a.seg_off[1] == 2  # the top: the deal and H's first decision
    pos = np.empty(len(a.kind), np.int64)
    pos[a.order] = np.arange(len(a.kind))
    depth = depths(a.child_start, a.child_count, a.children)
    for i in np.flatnonzero(a.iset_size > 1):
        nodes = a.member_node[a.member_off[i] : a.member_off[i + 1]]
        segs = np.searchsorted(a.seg_off, pos[nodes], side="right") - 1
        assert len(set(segs.tolist())) == 1 and len(set(depth[nodes].tolist())) == 1


def test_subtree_ends_and_depths_on_a_chain():
    # 0 -> (1 -> (2, 3), 4)
    child_start = np.array([0, 2, 4, 4, 4])
    child_count = np.array([2, 2, 0, 0, 0])
    children = np.array([1, 4, 2, 3])
    assert depths(child_start, child_count, children).tolist() == [0, 1, 2, 2, 1]
    assert subtree_ends(child_start, child_count, children).tolist() == [5, 4, 3, 4, 5]


def test_plan_shares_segments_largest_first():
    seg_off = np.arange(7)  # top + 5 segments
    cost = np.array([1, 10, 50, 20, 20, 5])
    off, segs = plan(seg_off, cost, 2)
    work = [sorted(segs[off[w] : off[w + 1]].tolist()) for w in range(2)]
    assert work == [[2, 5], [1, 3, 4]]  # 50 + 5 | 20 + 20 + 10 (the tie at 50 goes to worker 0)
    off, segs = plan(seg_off, cost, 1)
    assert off.tolist() == [0, 5] and segs.tolist() == [2, 3, 4, 1, 5]
