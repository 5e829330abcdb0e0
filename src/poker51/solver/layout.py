"""The order in which the passes visit a public tree, and how they split it over threads.

A pass over the tree (:mod:`poker51.solver.passes`) must visit a parent before its
children (forward) or after them (backward).  Pre-order does both, but it cannot be
shared between threads, and the one-pass best response that respects information sets
spanning several public nodes needs every member of a set done at once.  This module
fixes, once per game, an order that allows both:

* the **top**: the nodes above the *cut depth* ``D``, the smallest depth holding at least
  ``min_units`` nodes (Poker 51: the root deal and the human's first decision, ``D = 2``:
  its 30 children);
* the **segments**: the subtrees rooted at depth ``D`` (contiguous ranges of the pre-order),
  merged when an information set has members in more than one of them (Riemann reading
  d = 5 as 4 joins the d = 4 and d = 5 subtrees of each opening: 25 segments).

Every node belongs to the top or to exactly one segment; inside each, nodes are sorted by
depth (ties in pre-order).  A forward pass runs the top, then the segments in any order
or at the same time; a backward pass runs the segments (deepest nodes first), then the
top.  A segment reads and writes only its own nodes' state vectors, so the threads never
share a location and each value is computed by the same operations in the same order
whatever the number of threads: results are bit-identical for any ``--cores``.  The
players' state vectors lie in this order too (:func:`poker51.solver.tree.state_offsets`), so
a pass walks them in one direction.

``member_off / member_node / member_state`` list each information set's members (pre-order
node, then state), the order in which CFR sums a set's regrets (also identical for any
number of threads).  ``br_one_pass`` is 1 when every set with several members has them at
one depth and in one segment (or all in the top): the best response that plays one action
per information set is then one backward pass (``passes.MODE_INFOSET``); Kuhn, Leduc and
the Poker 51 games all qualify.
"""

from __future__ import annotations

import numpy as np

#: the fields of :data:`poker51.solver.tree.GameArrays` that :func:`layout` fills
LAYOUT_FIELDS = ("order", "seg_off", "seg_cost", "member_off", "member_node", "member_state", "br_one_pass")


def depths(child_start: np.ndarray, child_count: np.ndarray, children: np.ndarray) -> np.ndarray:
    """Depth of every node of a pre-order tree (root 0)."""
    n = len(child_start)
    parent = np.full(n, -1, np.int64)
    parent[children] = np.repeat(np.arange(n), child_count)
    depth = np.zeros(n, np.int64)
    for v in range(1, n):  # pre-order: a parent comes before its children
        depth[v] = depth[parent[v]] + 1
    return depth


def subtree_ends(child_start: np.ndarray, child_count: np.ndarray, children: np.ndarray) -> np.ndarray:
    """``end[v]``: the subtree of ``v`` is the pre-order range ``v .. end[v] - 1``."""
    n = len(child_start)
    end = np.arange(1, n + 1, dtype=np.int64)
    for v in range(n - 1, -1, -1):
        if child_count[v]:
            end[v] = end[children[child_start[v] + child_count[v] - 1]]
    return end


def _find(parent: list[int], x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def layout(
    child_start: np.ndarray,
    child_count: np.ndarray,
    children: np.ndarray,
    n_states: np.ndarray,
    player: np.ndarray,
    iset_off: np.ndarray,
    state_iset: np.ndarray,
    num_sets: int,
    dec_nodes: np.ndarray,
    min_units: int = 16,
) -> dict[str, np.ndarray]:
    """The arrays :data:`LAYOUT_FIELDS` of :data:`poker51.solver.tree.GameArrays` (module
    docstring); ``n_states`` is 2 x nodes, ``player`` the acting player of each decision.

    ``order[seg_off[k] : seg_off[k + 1]]`` are the nodes of segment ``k``; segment 0 is the
    top (it may be empty).  ``seg_cost[k]``: private states of both players in segment k
    (the work a pass does there), used to share the segments between threads.
    """
    n = len(child_start)
    depth = depths(child_start, child_count, children)
    end = subtree_ends(child_start, child_count, children)
    per_depth = np.bincount(depth)
    deep = np.flatnonzero(per_depth >= min_units)
    cut = int(deep[0]) if len(deep) else int(depth.max()) + 1
    roots = np.flatnonzero(depth == cut)
    seg = np.zeros(n, np.int64)  # 0 = top, 1 + i = the subtree of roots[i]
    for i, r in enumerate(roots):
        seg[r : end[r]] = i + 1

    # members of every information set: (node, state) in pre-order, states in order
    ns_dec = n_states[player[dec_nodes], dec_nodes] if len(dec_nodes) else np.zeros(0, np.int64)
    node_of = np.repeat(dec_nodes, ns_dec).astype(np.int64)
    state = np.arange(len(node_of)) - np.repeat(np.cumsum(ns_dec) - ns_dec, ns_dec)
    iset = state_iset[iset_off[node_of] + state] if len(node_of) else np.zeros(0, np.int64)
    by_set = np.argsort(iset, kind="stable")
    member_off = np.zeros(num_sets + 1, np.int64)
    member_off[1:] = np.cumsum(np.bincount(iset, minlength=num_sets))

    # merge segments joined by a set; a set across depths or across top and segment
    # forbids the one-pass best response (the passes themselves do not care)
    sizes = np.diff(member_off)
    m_node = node_of[by_set]
    m_set = np.repeat(np.arange(num_sets), sizes)
    first = m_node[member_off[:-1][m_set]]  # each member's set's first member
    multi = sizes[m_set] > 1
    one_pass = bool(np.all(depth[m_node[multi]] == depth[first[multi]]))
    a, b = seg[first[multi]], seg[m_node[multi]]
    if np.any((a == 0) != (b == 0)):
        one_pass = False
    uf = list(range(len(roots) + 1))
    for x, y in set(zip(a.tolist(), b.tolist())):
        if x and y:
            uf[_find(uf, y)] = _find(uf, x)
    group = np.array([_find(uf, s) for s in range(len(roots) + 1)], np.int64)
    labels = np.unique(group[1:]) if len(roots) else np.zeros(0, np.int64)
    new_seg = np.zeros(len(roots) + 1, np.int64)
    new_seg[labels] = np.arange(1, len(labels) + 1)
    seg = new_seg[group[seg]]
    seg[depth < cut] = 0

    order = np.lexsort((np.arange(n), depth, seg)).astype(np.int64)
    seg_off = np.zeros(len(labels) + 2, np.int64)
    seg_off[1:] = np.cumsum(np.bincount(seg, minlength=len(labels) + 1))
    cost = n_states.sum(axis=0)
    seg_cost = np.bincount(seg, weights=cost, minlength=len(labels) + 1).astype(np.int64)
    return {
        "order": order,
        "seg_off": seg_off,
        "seg_cost": seg_cost,
        "member_off": member_off,
        "member_node": m_node,
        "member_state": state[by_set].astype(np.int64),
        "br_one_pass": np.array([1 if one_pass else 0], np.int64),
    }


def plan(seg_off: np.ndarray, seg_cost: np.ndarray, workers: int) -> tuple[np.ndarray, np.ndarray]:
    """Segments 1.. shared among ``workers`` threads, largest first to the least loaded
    (ties to the lower index): ``(plan_off, plan_seg)``, worker ``w`` runs
    ``plan_seg[plan_off[w] : plan_off[w + 1]]``.  Deterministic; results never depend on it."""
    workers = max(1, int(workers))
    segs = sorted(range(1, len(seg_off) - 1), key=lambda k: (-int(seg_cost[k]), k))
    load = [0] * workers
    assigned: list[list[int]] = [[] for _ in range(workers)]
    for k in segs:
        w = min(range(workers), key=lambda j: (load[j], j))
        assigned[w].append(k)
        load[w] += int(seg_cost[k])
    plan_off = np.zeros(workers + 1, np.int64)
    plan_off[1:] = np.cumsum([len(a) for a in assigned])
    return plan_off, np.array([k for a in assigned for k in a], np.int64)
