"""Numba kernels over a game's flat arrays (:data:`poker51.solver.tree.GameArrays`), shared by cfr and best_response.

One pass visits every public node once, in pre-order (forward) or reverse pre-order
(backward), and does vector arithmetic over the private states at that node:

* :func:`forward_reach` (``_forward_kernel``): player q's reach at every (node, state),
  own strategy x own chance weights; public chance probabilities are left out (they
  enter the values on the way back up);
* :func:`node_values` (``_backward_kernel``, after ``_terminal_values``): player p's
  counterfactual value at every (node, state) against the opponent's reach, following
  the policy or, with ``best=True``, maximising per private state;
* ``_csr_forward`` / ``_csr_backward``: row vector x matrix and matrix x column vector
  for the private-chance matrices, stored CSR in one flat store.

Each kernel has a plain-Python reference in the tests (a recursive walk over explicit
histories) that it is compared against.  The node-kind codes live here because the
kernels branch on them; :mod:`poker51.solver.tree`, which builds the arrays, re-exports them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: node kinds, the codes of ``GameArrays.kind`` (names in :data:`poker51.solver.tree.KIND_NAMES`)
DECISION, CHANCE, PRIVATE_CHANCE, FOLD, SHOWDOWN = 0, 1, 2, 3, 4


# Kernels unpack the fields they use into locals once: reading ``g.field`` inside a
# loop would increment and decrement the array's reference count at every access.


@njit(cache=True, inline="always")
def _csr_forward(ptr_off, nnz_off, ptr, idx, val, m, x, xo, y, yo, ny):
    """y[yo:yo+ny] = x[xo:...] @ M_m  (row vector times matrix m of store M)."""
    for j in range(ny):
        y[yo + j] = 0.0
    po = ptr_off[m]
    no = nnz_off[m]
    for i in range(ptr_off[m + 1] - po - 1):
        xi = x[xo + i]
        if xi == 0.0:
            continue
        for k in range(ptr[po + i], ptr[po + i + 1]):
            y[yo + idx[no + k]] += xi * val[no + k]


@njit(cache=True, inline="always")
def _csr_backward(ptr_off, nnz_off, ptr, idx, val, m, x, xo, y, yo, scale, accumulate):
    """y[yo + i] (+)= scale * sum_j M_m[i, j] x[xo + j]  (matrix times column vector)."""
    po = ptr_off[m]
    no = nnz_off[m]
    for i in range(ptr_off[m + 1] - po - 1):
        acc = 0.0
        for k in range(ptr[po + i], ptr[po + i + 1]):
            acc += val[no + k] * x[xo + idx[no + k]]
        if accumulate:
            y[yo + i] += scale * acc
        else:
            y[yo + i] = scale * acc


@njit(cache=True)
def _forward_kernel(g, q, policy, reach):
    """Player q's reach at every (node, state): own strategy x own chance weights.

    Public chance probabilities are *not* included (they enter the values on the
    way back up, once, for both players)."""
    kind, player, child_start, child_count, children = g.kind, g.player, g.child_start, g.child_count, g.children
    state_off, n_states, iset_off, state_iset, act_off = (
        g.state_off[q],
        g.n_states[q],
        g.iset_off,
        g.state_iset,
        g.act_off,
    )
    mask_off, mask_data, pmat = g.mask_off[q], g.mask_data, g.pmat[q]
    mpo, mno, mp, mi, mv = g.mat_ptr_off, g.mat_nnz_off, g.mat_ptr, g.mat_idx, g.mat_val
    reach[state_off[0]] = 1.0
    for n in range(len(kind)):
        k = kind[n]
        if k == FOLD or k == SHOWDOWN:
            continue
        off = state_off[n]
        ns = n_states[n]
        cs = child_start[n]
        if k == PRIVATE_CHANCE:
            c = children[cs]
            m = pmat[n]
            if m < 0:
                for s in range(ns):
                    reach[state_off[c] + s] = reach[off + s]
            else:
                _csr_forward(mpo, mno, mp, mi, mv, m, reach, off, reach, state_off[c], n_states[c])
            continue
        for a in range(child_count[n]):
            e = cs + a
            co = state_off[children[e]]
            if k == DECISION and player[n] == q:
                io = iset_off[n]
                for s in range(ns):
                    reach[co + s] = reach[off + s] * policy[act_off[state_iset[io + s]] + a]
            elif k == CHANCE and mask_off[e] >= 0:
                mo = mask_off[e]
                for s in range(ns):
                    reach[co + s] = reach[off + s] * mask_data[mo + s]
            else:
                for s in range(ns):
                    reach[co + s] = reach[off + s]


@njit(cache=True)
def _terminal_values(g, p, opp, v, scratch):
    """Counterfactual values of player p at every terminal node, given the opponent reach.

    Terminal matrices (compat, win) are dense: they are only used by small games
    with card removal; large games use ranked mode and independent states.

    Player 0 receives a * W + b * compat, with (a, b) = (0, -c0 or c1) at a fold
    and ((c0 + c1)/2, (c1 - c0)/2) at a showdown; W is the win matrix or, in
    ranked mode, sign(strength_0 - strength_1) (histogram + cumulative sums,
    O(n0 + n1 + S)).  Terminal values depend on nothing else in the tree, so all
    terminals are done in one loop (one call: no per-node argument passing)."""
    kind, player, contrib, compat, win = g.kind, g.player, g.contrib, g.compat, g.win
    state_off, n_states, rank_off, rank_data, rank_size = g.state_off, g.n_states, g.rank_off, g.rank_data, g.rank_size
    dmat_off, dmat = g.dmat_off, g.dmat_data
    o = 1 - p
    sign = 1.0 if p == 0 else -1.0
    for n in range(len(kind)):
        if kind[n] != FOLD and kind[n] != SHOWDOWN:
            continue
        off = state_off[p, n]
        ns = n_states[p, n]
        ooff = state_off[o, n]
        ons = n_states[o, n]
        c0 = contrib[n, 0]
        c1 = contrib[n, 1]
        if kind[n] == FOLD:
            a = 0.0
            b = -c0 if player[n] == 0 else c1
        else:
            a = 0.5 * (c0 + c1)
            b = 0.5 * (c1 - c0)
        for s in range(ns):
            v[off + s] = 0.0
        for term in range(2):  # term 0: b * compat, term 1: a * W
            m = compat[n] if term == 0 else win[n]
            scale = sign * (b if term == 0 else a)
            if scale == 0.0 or (term == 1 and m < 0):
                continue
            if m < 0:  # compat = all pairs
                tot = 0.0
                for j in range(ons):
                    tot += opp[ooff + j]
                for s in range(ns):
                    v[off + s] += scale * tot
                continue
            base = dmat_off[m]  # dense ns0 x ns1, row-major
            if p == 0:  # v0 += scale * M @ r1
                for s in range(ns):
                    acc = 0.0
                    ro_ = base + s * ons
                    for j in range(ons):
                        acc += dmat[ro_ + j] * opp[ooff + j]
                    v[off + s] += scale * acc
            else:  # v1 += scale * M^T @ r0
                for i in range(ons):
                    xi = scale * opp[ooff + i]
                    if xi == 0.0:
                        continue
                    ro_ = base + i * ns
                    for s in range(ns):
                        v[off + s] += dmat[ro_ + s] * xi
        if kind[n] == FOLD or win[n] >= 0 or a == 0.0:
            continue
        S = rank_size[n]  # ranked mode
        for r in range(S + 1):
            scratch[r] = 0.0
        ro = rank_off[o, n]
        for j in range(ons):
            scratch[rank_data[ro + j] + 1] += opp[ooff + j]
        for r in range(S):  # scratch[r] = opponent mass strictly below r
            scratch[r + 1] += scratch[r]
        total = scratch[S]
        rp = rank_off[p, n]
        for s in range(ns):
            r = rank_data[rp + s]
            v[off + s] += a * (scratch[r] - (total - scratch[r + 1]))  # beats weaker, loses to stronger


@njit(cache=True)
def _backward_kernel(g, p, opp, policy, best, v, scratch):
    """Values of player p at every (node, state) against opponent reach ``opp``.

    ``best=False``: p follows ``policy``; ``best=True``: p maximises per private
    state (a best response that recalls everything p's private state holds).
    v[state_off[p, n] + s] is the counterfactual value: expected payoff of p from
    n on, weighted by the opponent's reach and the chance below n, not by p's own
    reach or the chance above n.  Returns v at the root."""
    kind, player, child_start, child_count, children = g.kind, g.player, g.child_start, g.child_count, g.children
    iset_off, state_iset, act_off, edge_prob = g.iset_off, g.state_iset, g.act_off, g.edge_prob
    mask_off, mask_data, pmat = g.mask_off[p], g.mask_data, g.pmat[p]
    state_off, n_states = g.state_off[p], g.n_states[p]
    mpo, mno, mp, mi, mv = g.mat_ptr_off, g.mat_nnz_off, g.mat_ptr, g.mat_idx, g.mat_val
    _terminal_values(g, p, opp, v, scratch)
    for n in range(len(kind) - 1, -1, -1):
        k = kind[n]
        if k == FOLD or k == SHOWDOWN:
            continue
        off = state_off[n]
        ns = n_states[n]
        cs = child_start[n]
        if k == PRIVATE_CHANCE:
            c = children[cs]
            m = pmat[n]
            if m < 0:
                for s in range(ns):
                    v[off + s] = v[state_off[c] + s]
            else:
                _csr_backward(mpo, mno, mp, mi, mv, m, v, state_off[c], v, off, 1.0, False)
            continue
        mine = k == DECISION and player[n] == p
        for s in range(ns):
            v[off + s] = -np.inf if (best and mine) else 0.0
        for a in range(child_count[n]):
            e = cs + a
            co = state_off[children[e]]
            if mine:
                if best:
                    for s in range(ns):
                        if v[co + s] > v[off + s]:
                            v[off + s] = v[co + s]
                else:
                    io = iset_off[n]
                    for s in range(ns):
                        v[off + s] += policy[act_off[state_iset[io + s]] + a] * v[co + s]
            elif k == DECISION:
                for s in range(ns):
                    v[off + s] += v[co + s]
            else:  # public chance
                pr = edge_prob[e]
                mo = mask_off[e]
                if mo < 0:
                    for s in range(ns):
                        v[off + s] += pr * v[co + s]
                else:
                    for s in range(ns):
                        v[off + s] += pr * mask_data[mo + s] * v[co + s]
    return v[state_off[0]]


def forward_reach(arrays, q: int, policy: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Player q's reach vector over all (node, state): own strategy x own chance."""
    if out is None:
        out = np.zeros(int(arrays.n_states[q].sum()), np.float64)
    _forward_kernel(arrays, q, np.ascontiguousarray(policy, np.float64), out)
    return out


def scratch_size(arrays) -> int:
    return int(arrays.rank_size.max(initial=0)) + 1


def node_values(arrays, p: int, opp_reach: np.ndarray, policy: np.ndarray, best: bool = False):
    """(root value, value vector) of player p; see :func:`_backward_kernel`."""
    v = np.zeros(int(arrays.n_states[p].sum()), np.float64)
    root = _backward_kernel(
        arrays, p, opp_reach, np.ascontiguousarray(policy, np.float64), best, v, np.zeros(scratch_size(arrays))
    )
    return float(root), v
