"""Numba kernels over a game's flat arrays (:data:`poker51.solver.tree.GameArrays`), shared by cfr and best_response.

One pass visits every public node once and does vector arithmetic over the private states
at that node:

* :func:`forward_reach` (``_forward_segment``): player q's reach at every (node, state),
  own strategy x own chance weights; public chance probabilities are left out (they
  enter the values on the way back up);
* :func:`node_values` (``_backward_segment``): player p's counterfactual value at every
  (node, state) against the opponent's reach, in one of three modes: follow the policy
  (``MODE_POLICY``), maximise per private state (``MODE_STATE``: a best response that
  recalls everything its private state holds), or play one action per information set
  (``MODE_INFOSET``: at the first member of a set the pass picks the action with the
  largest value summed over the set's members, each weighted by its static chance weight,
  ties to the first action; exact for a player whose set members share their own reach,
  see :mod:`poker51.solver.best_response`); the solver's pass, ``MODE_CFR``, follows the
  policy and does the CFR update of p's one-member information sets on the way;
* ``_csr_forward`` / ``_csr_backward``: row vector x matrix and matrix x column vector
  for the private-chance matrices, stored CSR in one flat store.

The nodes are visited in the order of :mod:`poker51.solver.layout`: the top of the tree,
then segments that share no node and no state; ``forward_par`` / ``backward_par`` run
the segments on Numba threads (``prange`` over workers, each with a fixed list of
segments), ``forward_seq`` / ``backward_seq`` on one.  Each value is computed by the
same operations in the same order either way, so results do not depend on the number of
threads.  Each kernel has a plain-Python reference in the tests (a recursive walk over
explicit histories) that it is compared against.  The node-kind codes live here because
the kernels branch on them; :mod:`poker51.solver.tree`, which builds the arrays,
re-exports them.
"""

from __future__ import annotations

import os

import numba
import numpy as np
from numba import njit, prange

#: node kinds, the codes of ``GameArrays.kind`` (names in :data:`poker51.solver.tree.KIND_NAMES`)
DECISION, CHANCE, PRIVATE_CHANCE, FOLD, SHOWDOWN = 0, 1, 2, 3, 4
#: backward-pass modes: follow the policy, best response per private state, per information set,
#: follow the policy and update p's one-member information sets on the way (CFR, :func:`set_update`)
MODE_POLICY, MODE_STATE, MODE_INFOSET, MODE_CFR = 0, 1, 2, 3
#: MODE_CFR: at least this many one-member sets are gathered for one :func:`set_update` call
PENDING_SETS = 256
#: games with fewer private states (both players, all nodes) run on one thread: a parallel
#: region costs about as much as a pass over Leduc
PARALLEL_MIN_STATES = 100_000


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
def _csr_backward(ptr_off, nnz_off, ptr, idx, val, m, x, xo, y, yo):
    """y[yo + i] = sum_j M_m[i, j] x[xo + j]  (matrix times column vector)."""
    po = ptr_off[m]
    no = nnz_off[m]
    for i in range(ptr_off[m + 1] - po - 1):
        acc = 0.0
        for k in range(ptr[po + i], ptr[po + i + 1]):
            acc += val[no + k] * x[xo + idx[no + k]]
        y[yo + i] = acc


@njit(cache=True)
def _forward_segment(g, q, policy, reach, lo, hi, live):
    """Player q's reach at the nodes ``order[lo:hi]`` (parents first): own strategy x own
    chance weights.  Public chance probabilities are *not* included (they enter the values
    on the way back up, once, for both players).

    ``live`` (one byte per node, or empty: not kept) receives whether q's reach at each
    child is nonzero somewhere; below a node whose reach is all zero the children's reach
    is written as zeros without reading the policy (the bytes a full pass writes: every
    factor is finite and non-negative)."""
    order, kind, player, child_start, child_count, children = (
        g.order,
        g.kind,
        g.player,
        g.child_start,
        g.child_count,
        g.children,
    )
    state_off, n_states, iset_off, state_iset, act_off = (
        g.state_off[q],
        g.n_states[q],
        g.iset_off,
        g.state_iset,
        g.act_off,
    )
    mask_off, mask_data, pmat = g.mask_off[q], g.mask_data, g.pmat[q]
    mpo, mno, mp, mi, mv = g.mat_ptr_off, g.mat_nnz_off, g.mat_ptr, g.mat_idx, g.mat_val
    track = len(live) > 0
    for j in range(lo, hi):
        n = order[j]
        k = kind[n]
        if k == FOLD or k == SHOWDOWN:
            continue
        off = state_off[n]
        ns = n_states[n]
        cs = child_start[n]
        if track and live[n] == 0:  # q never gets here: nor to any child
            for a in range(child_count[n]):
                c = children[cs + a]
                co = state_off[c]
                for s in range(n_states[c]):
                    reach[co + s] = 0.0
                live[c] = 0
            continue
        if k == PRIVATE_CHANCE:
            c = children[cs]
            m = pmat[n]
            if m < 0:
                for s in range(ns):
                    reach[state_off[c] + s] = reach[off + s]
            else:
                _csr_forward(mpo, mno, mp, mi, mv, m, reach, off, reach, state_off[c], n_states[c])
            if track:
                live[c] = _nonzero(reach, state_off[c], n_states[c])
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
            if track:
                live[children[e]] = _nonzero(reach, co, ns)


@njit(cache=True, inline="always")
def _nonzero(x, lo, n):
    """1 if any of x[lo:lo+n] is nonzero, else 0."""
    for s in range(n):
        if x[lo + s] != 0.0:
            return 1
    return 0


@njit(cache=True)
def forward_seq(g, q, policy, reach, live):
    """Player q's reach at every (node, state) on one thread (:func:`_forward_segment`)."""
    reach[g.state_off[q, 0]] = 1.0
    if len(live) > 0:
        live[0] = 1
    _forward_segment(g, q, policy, reach, 0, len(g.order), live)


@njit(cache=True, parallel=True)
def forward_par(g, q, policy, reach, plan_off, plan_seg, live):
    """:func:`forward_seq` with the segments on the workers of the plan, after the top."""
    reach[g.state_off[q, 0]] = 1.0
    if len(live) > 0:
        live[0] = 1
    so = g.seg_off
    _forward_segment(g, q, policy, reach, so[0], so[1], live)
    for w in prange(len(plan_off) - 1):
        for x in range(plan_off[w], plan_off[w + 1]):
            k = plan_seg[x]
            _forward_segment(g, q, policy, reach, so[k], so[k + 1], live)


@njit(cache=True)
def _terminal_segment(g, p, opp, v, scratch, lo, hi, live):
    """Counterfactual values of player p at the terminal nodes among ``order[lo:hi]``,
    given the opponent reach.

    Player 0 receives a * W + b * compat, with (a, b) = (0, -c0 or c1) at a fold and
    ((c0 + c1)/2, (c1 - c0)/2) at a showdown; W is the win matrix or, in ranked mode,
    sign(strength_0 - strength_1) (histogram + cumulative sums, O(n0 + n1 + S)).
    Terminal matrices (compat, win) are dense: only small games with card removal use them.
    Terminal values depend on nothing else in the tree, so a segment's terminals are done
    in one loop before its other nodes.  Where ``live`` (one byte per node; empty: none)
    says the opponent's reach is all zero the values are written as the zeros they are."""
    order, kind, player, contrib, compat, win = g.order, g.kind, g.player, g.contrib, g.compat, g.win
    state_off, n_states, rank_off, rank_data, rank_size = g.state_off, g.n_states, g.rank_off, g.rank_data, g.rank_size
    dmat_off, dmat = g.dmat_off, g.dmat_data
    o = 1 - p
    sign = 1.0 if p == 0 else -1.0
    prune = len(live) > 0
    for j in range(lo, hi):
        n = order[j]
        if kind[n] != FOLD and kind[n] != SHOWDOWN:
            continue
        off = state_off[p, n]
        ns = n_states[p, n]
        if prune and live[n] == 0:
            for s in range(ns):
                v[off + s] = 0.0
            continue
        ooff = state_off[o, n]
        ons = n_states[o, n]
        c0 = contrib[n, 0]
        c1 = contrib[n, 1]
        if kind[n] == FOLD:
            a = 0.0
            b = -c0 if player[n] == 0 else c1
            if compat[n] < 0:  # the common fold: one value for every state (as below: 0 + scale * tot)
                tot = 0.0
                if b != 0.0:
                    for i in range(ons):
                        tot += opp[ooff + i]
                val = 0.0 + sign * b * tot if b != 0.0 else 0.0
                for s in range(ns):
                    v[off + s] = val
                continue
        else:
            a = 0.5 * (c0 + c1)
            b = 0.5 * (c1 - c0)
        # a ranked showdown with equal contributions and every pair compatible: only the
        # ranked term below, which then writes 0 + its value instead of adding it to a zero
        fresh = kind[n] == SHOWDOWN and b == 0.0 and compat[n] < 0 and win[n] < 0 and a != 0.0
        if not fresh:
            for s in range(ns):
                v[off + s] = 0.0
        for term in range(2 if not fresh else 0):  # term 0: b * compat, term 1: a * W
            m = compat[n] if term == 0 else win[n]
            scale = sign * (b if term == 0 else a)
            if scale == 0.0 or (term == 1 and m < 0):
                continue
            if m < 0:  # compat = all pairs
                tot = 0.0
                for i in range(ons):
                    tot += opp[ooff + i]
                for s in range(ns):
                    v[off + s] += scale * tot
                continue
            base = dmat_off[m]  # dense ns0 x ns1, row-major
            if p == 0:  # v0 += scale * M @ r1
                for s in range(ns):
                    acc = 0.0
                    ro_ = base + s * ons
                    for i in range(ons):
                        acc += dmat[ro_ + i] * opp[ooff + i]
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
        for i in range(ons):
            scratch[rank_data[ro + i] + 1] += opp[ooff + i]
        for r in range(S):  # scratch[r] = opponent mass strictly below r
            scratch[r + 1] += scratch[r]
        total = scratch[S]
        rp = rank_off[p, n]
        if fresh:
            for s in range(ns):
                r = rank_data[rp + s]
                v[off + s] = 0.0 + a * (scratch[r] - (total - scratch[r + 1]))
        else:
            for s in range(ns):
                r = rank_data[rp + s]
                v[off + s] += a * (scratch[r] - (total - scratch[r + 1]))  # beats weaker, loses to stronger


@njit(cache=True)
def set_update(regret, avg, strategy, inc, buf, lo, wq, na, k, floor, discount, pos, neg, predictive):
    """The CFR update of ``k`` information sets: set j has ``na[j]`` actions, ``lo[j] ..
    lo[j] + na[j] - 1``, its instantaneous regrets next in ``buf`` (the sets' regrets end to
    end, set 0's first; :mod:`poker51.solver.cfr`'s docstring), ``wq[j]`` its iteration weight
    x own probability.  Per set: the average ``avg += wq * strategy`` (skipped when ``wq`` is
    0), the regret update ``R = R + inc``, times DCFR's ``pos`` or ``neg`` when ``discount``
    (by the sign of the sum), floored at 0 when ``floor`` (RM+), then regret matching on
    ``[R]^+`` (``[R + inc]^+`` when ``predictive``, which also stores ``inc``; PCFR+),
    uniform when all are zero.

    Written once for both callers: the solver's backward pass (``MODE_CFR``: the sets of one
    member of a segment's nodes, gathered for one call) and :func:`poker51.solver.cfr.update_sets`
    (the others, up to ``PENDING_SETS`` a call), so both do the same operations in the same order.  A called
    kernel, not ``inline="always"``: Numba's inlining copies the array arguments into new
    variables, whose reference counts its pruning pass leaves in the caller's loop (Leduc about
    20% slower); and a call per node, not per segment, cost Leduc about 5% an iteration
    (docs/speed-log.md)."""
    b = 0
    for j in range(k):
        lo_, w, m = lo[j], wq[j], na[j]
        if w != 0.0:
            for x in range(lo_, lo_ + m):
                avg[x] += w * strategy[x]
        tot = 0.0
        for a in range(m):
            x = lo_ + a
            r = regret[x] + buf[b + a]
            if discount:
                r *= pos if r > 0.0 else neg
            if floor and r < 0.0:
                r = 0.0
            regret[x] = r
            y = r + buf[b + a] if predictive else r
            y = y if y > 0.0 else 0.0
            strategy[x] = y
            tot += y
            if predictive:
                inc[x] = buf[b + a]
        for x in range(lo_, lo_ + m):
            strategy[x] = strategy[x] / tot if tot > 0.0 else 1.0 / m
        b += m


@njit(cache=True, inline="always")
def _set_choice(cr, state_off, children, child_start, member_off, member_node, member_state, act_off, v, i):
    """The action of information set i with the largest sum over its members (n, s) of
    chance_reach[n, s] * v[child_a(n), s]; ties to the first."""
    m0, m1 = member_off[i], member_off[i + 1]
    best = -np.inf
    choice = 0
    for a in range(act_off[i + 1] - act_off[i]):
        q = 0.0
        for m in range(m0, m1):
            n = member_node[m]
            s = member_state[m]
            q += cr[state_off[n] + s] * v[state_off[children[child_start[n] + a]] + s]
        if q > best:
            best = q
            choice = a
    return choice


@njit(cache=True)
def _backward_segment(g, p, opp, policy, mode, v, scratch, choice, lo, hi, cfr, live):
    """Values of player p at the nodes ``order[lo:hi]``, visited last to first (children
    before parents), against opponent reach ``opp``; see the module docstring for ``mode``.

    v[state_off[p, n] + s] is the counterfactual value: expected payoff of p from n on,
    weighted by the opponent's reach and the chance below n, not by p's own reach or the
    chance above n.  In ``MODE_INFOSET`` ``choice[i]`` (-1 on entry) receives the action of
    each of p's information sets met.

    In ``MODE_CFR`` the pass also does the CFR update of every set of p with one member
    (:func:`set_update`, which :func:`poker51.solver.cfr.update_sets` does to the others),
    as soon as that member's value is known: its children's values are then in cache.
    ``policy`` is the strategy being updated (a one-member set's strategy is read nowhere
    else in the pass).  ``cfr = (own, regret, avg, inc, weight, pos, neg, floor, discount,
    predictive)``: p's reach and the solver's arrays and flags; other modes ignore it.  The
    sets with several members are left to ``update_sets``.

    ``live`` (one byte per node, or empty) says where the opponent's reach is nonzero
    somewhere (:func:`_forward_segment` keeps it): elsewhere p's values are zero, and are
    written as zeros without the work, except in ``MODE_INFOSET`` (whose choices need the
    pass).  Every sum in the pass starts at +0.0, so the values it would have computed there
    are +0.0 too: the bytes are the same; ``MODE_CFR`` still updates p's sets there (their
    regrets are discounted even when the instantaneous regret is zero)."""
    order, kind, player, child_start, child_count, children = (
        g.order,
        g.kind,
        g.player,
        g.child_start,
        g.child_count,
        g.children,
    )
    iset_off, state_iset, act_off, edge_prob = g.iset_off, g.state_iset, g.act_off, g.edge_prob
    mask_off, mask_data, pmat = g.mask_off[p], g.mask_data, g.pmat[p]
    state_off, n_states = g.state_off[p], g.n_states[p]
    mpo, mno, mp, mi, mv = g.mat_ptr_off, g.mat_nnz_off, g.mat_ptr, g.mat_idx, g.mat_val
    cr = g.chance_reach0 if p == 0 else g.chance_reach1
    member_off, member_node, member_state, iset_size = g.member_off, g.member_node, g.member_state, g.iset_size
    node_chance = g.node_chance
    own, regret, avg, inc, weight, pos, neg, floor, discount, predictive = cfr
    prune = len(live) > 0 and mode != MODE_INFOSET
    _terminal_segment(g, p, opp, v, scratch, lo, hi, live if prune else live[:0])
    width = 1
    states = 1
    for j in range(lo, hi):
        width = max(width, child_count[order[j]])
        states = max(states, n_states[order[j]])
    coff = np.empty(width, np.int64)
    # MODE_CFR: the one-member sets met, gathered for one set_update call per PENDING_SETS (a
    # node's sets always fit), and at the end of the segment
    cfr_sets = max(states, PENDING_SETS) if mode == MODE_CFR else 0
    buf = np.empty(width * cfr_sets)
    set_lo = np.empty(cfr_sets, np.int64)
    set_wq = np.empty(cfr_sets)
    set_na = np.empty(cfr_sets, np.int64)
    pend = 0  # sets gathered
    fill = 0  # their regrets' length in buf
    for j in range(hi - 1, lo - 1, -1):
        n = order[j]
        k = kind[n]
        if k == FOLD or k == SHOWDOWN:
            continue
        off = state_off[n]
        ns = n_states[n]
        cs = child_start[n]
        mine = k == DECISION and player[n] == p
        dead = prune and live[n] == 0
        if dead and not (mine and mode == MODE_CFR):
            for s in range(ns):
                v[off + s] = 0.0
            continue
        if k == PRIVATE_CHANCE:
            c = children[cs]
            m = pmat[n]
            if m < 0:
                for s in range(ns):
                    v[off + s] = v[state_off[c] + s]
            else:
                _csr_backward(mpo, mno, mp, mi, mv, m, v, state_off[c], v, off)
            continue
        if mine and mode == MODE_INFOSET:
            io = iset_off[n]
            na = child_count[n]
            for a in range(na):
                coff[a] = state_off[children[cs + a]]
            for s in range(ns):
                i = state_iset[io + s]
                if choice[i] < 0 and iset_size[i] == 1:  # a set of one: the state's own choice
                    w = cr[off + s]
                    top = -np.inf
                    for a in range(na):
                        q = w * v[coff[a] + s]
                        if q > top:
                            top = q
                            choice[i] = a
                    if choice[i] < 0:
                        choice[i] = 0
                elif choice[i] < 0:
                    choice[i] = _set_choice(
                        cr, state_off, children, child_start, member_off, member_node, member_state, act_off, v, i
                    )
                v[off + s] = v[coff[choice[i]] + s]
            continue
        best = mine and mode == MODE_STATE
        if k == DECISION and not best:  # one sum per state, children's offsets looked up once
            na = child_count[n]
            for a in range(na):
                coff[a] = state_off[children[cs + a]]
            if mine:
                io = iset_off[n]
                if dead:  # only in MODE_CFR: zero values, zero regrets, the update below
                    for s in range(ns):
                        v[off + s] = 0.0
                else:
                    for s in range(ns):
                        base = act_off[state_iset[io + s]]
                        acc = 0.0
                        for a in range(na):
                            acc += policy[base + a] * v[coff[a] + s]
                        v[off + s] = acc
                if mode == MODE_CFR:
                    if pend + ns > cfr_sets:
                        set_update(regret, avg, policy, inc, buf, set_lo, set_wq, set_na, pend, floor, discount, pos,
                                   neg, predictive)  # fmt: skip
                        pend = 0
                        fill = 0
                    nc = node_chance[n]
                    for s in range(ns):
                        i = state_iset[io + s]
                        if iset_size[i] != 1:
                            continue
                        vs = v[off + s]  # the operations of cfr.update_sets on a set of one
                        cw = cr[off + s]
                        for a in range(na):
                            buf[fill + a] = 0.0 if dead else cw * (v[coff[a] + s] - vs)
                        set_lo[pend] = act_off[i]
                        set_wq[pend] = weight * (nc * own[off + s])
                        set_na[pend] = na
                        pend += 1
                        fill += na
            else:
                for s in range(ns):
                    acc = 0.0
                    for a in range(na):
                        acc += v[coff[a] + s]
                    v[off + s] = acc
            continue
        for s in range(ns):
            v[off + s] = -np.inf if best else 0.0
        for a in range(child_count[n]):
            e = cs + a
            co = state_off[children[e]]
            if best:
                for s in range(ns):
                    if v[co + s] > v[off + s]:
                        v[off + s] = v[co + s]
            else:  # public chance
                pr = edge_prob[e]
                mo = mask_off[e]
                if mo < 0:
                    for s in range(ns):
                        v[off + s] += pr * v[co + s]
                else:
                    for s in range(ns):
                        v[off + s] += pr * mask_data[mo + s] * v[co + s]
    if pend > 0:  # distinct sets; a one-member set's strategy is read at its own node only
        set_update(regret, avg, policy, inc, buf, set_lo, set_wq, set_na, pend, floor, discount, pos, neg, predictive)


@njit(cache=True)
def backward_seq(g, p, opp, policy, mode, v, scratch, choice, cfr, live):
    """All nodes on one thread; returns p's value at the root."""
    if mode == MODE_INFOSET:
        choice[:] = -1
    _backward_segment(g, p, opp, policy, mode, v, scratch[0], choice, 0, len(g.order), cfr, live)
    return v[g.state_off[p, 0]]


@njit(cache=True, parallel=True)
def backward_par(g, p, opp, policy, mode, v, scratch, choice, plan_off, plan_seg, cfr, live):
    """The segments on the workers of the plan (``scratch[w]`` is worker w's), then the
    top; returns p's value at the root."""
    if mode == MODE_INFOSET:
        choice[:] = -1
    so = g.seg_off
    for w in prange(len(plan_off) - 1):
        for x in range(plan_off[w], plan_off[w + 1]):
            k = plan_seg[x]
            _backward_segment(g, p, opp, policy, mode, v, scratch[w], choice, so[k], so[k + 1], cfr, live)
    _backward_segment(g, p, opp, policy, mode, v, scratch[0], choice, so[0], so[1], cfr, live)
    return v[g.state_off[p, 0]]


@njit(cache=True)
def live_nodes(state_off, n_states, reach, out):
    """out[n] = 1 where ``reach`` (one player's, :func:`_forward_segment`'s layout) is
    nonzero at some state of node n, else 0; returns ``out``."""
    for n in range(len(out)):
        out[n] = _nonzero(reach, state_off[n], n_states[n])
    return out


@njit(cache=True)
def live_either(a, b, out):
    """out[n] = 1 where ``a[n]`` or ``b[n]`` is nonzero, else 0 (the liveness of a mixed reach)."""
    for n in range(len(out)):
        out[n] = 1 if a[n] != 0 or b[n] != 0 else 0


def no_update() -> tuple:
    """The ``cfr`` argument of a backward pass that updates nothing (any mode but ``MODE_CFR``)."""
    z = np.zeros(0)
    return (z, z, z, z, 0.0, 1.0, 1.0, False, False, False)


@njit(cache=True, parallel=True)
def mix_par(opp, fixed, p, out, chunks):
    """out = (1 - p) * opp + p * fixed, elementwise, on Numba threads."""
    n = len(out)
    for c in prange(chunks):
        for x in range(n * c // chunks, n * (c + 1) // chunks):
            out[x] = (1.0 - p) * opp[x] + p * fixed[x]


@njit(cache=True)
def mix(opp, fixed, p, out):
    """out = (1 - p) * opp + p * fixed, elementwise, on one thread."""
    for x in range(len(out)):
        out[x] = (1.0 - p) * opp[x] + p * fixed[x]


# ------------------------------------------------------------------------------ Python side
def set_threads(n: int) -> int:
    """Let the passes use ``n`` Numba threads (clamped to 1 .. ``NUMBA_NUM_THREADS``); returns
    the number set.  Results never depend on it."""
    top = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    n = max(1, min(int(n), top))
    numba.set_num_threads(n)
    return n


def scratch_size(arrays) -> int:
    return int(arrays.rank_size.max(initial=0)) + 1


_NO_UPDATE = no_update()


def wait_passively() -> None:
    """Let the threads of OpenMP (Numba's threading layer here) sleep at the end of a
    parallel region instead of spinning, unless ``OMP_WAIT_POLICY`` is set already.  It
    takes effect only if no parallel kernel has run in the process yet (OpenMP reads it
    once, when its library loads at the first parallel kernel; this module calls it when
    imported).  A threaded solve crosses six regions per iteration; on a machine where another
    job holds a core, spinning threads take the core from the one doing the work: the
    standard game's Nash solve on 2 threads took 42-44 s spinning, 12-14 s sleeping (quiet
    machine: 5.9 and 6.2 s; docs/design-choices.md, "Threads inside one solve")."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


wait_passively()  # on import: building a game already runs threaded kernels


class Passes:
    """How passes over one game run: on one thread, or on ``workers`` threads with the
    segments shared by :func:`poker51.solver.layout.plan`; owns the per-worker scratch.

    ``workers=None`` takes Numba's thread count (``NUMBA_NUM_THREADS``, or what
    ``numba.set_num_threads`` set), and one thread for games below
    :data:`PARALLEL_MIN_STATES` private states."""

    def __init__(self, arrays, workers: int | None = None) -> None:
        from poker51.solver.layout import plan

        if workers is None:
            small = int(arrays.n_states.sum()) < PARALLEL_MIN_STATES or len(arrays.seg_off) <= 2
            workers = 1 if small else numba.get_num_threads()
        self.arrays = arrays
        self.workers = max(1, int(workers))
        self.parallel = self.workers > 1
        self.plan_off, self.plan_seg = plan(arrays.seg_off, arrays.seg_cost, self.workers)
        self.scratch = np.zeros((self.workers, scratch_size(arrays)))
        self.choice = np.zeros(len(arrays.iset_player), np.int64)
        self.untracked = np.zeros(0, np.uint8)  # the ``live`` argument of passes that neither keep nor prune

    def forward(self, q: int, policy: np.ndarray, out: np.ndarray) -> np.ndarray:
        pol = np.ascontiguousarray(policy, np.float64)
        if self.parallel:
            forward_par(self.arrays, q, pol, out, self.plan_off, self.plan_seg, self.untracked)
        else:
            forward_seq(self.arrays, q, pol, out, self.untracked)
        return out

    def mix(self, opp: np.ndarray, fixed: np.ndarray, p: float, out: np.ndarray) -> np.ndarray:
        """out = (1 - p) * opp + p * fixed."""
        if self.parallel:
            mix_par(opp, fixed, p, out, 8 * self.workers)
        else:
            mix(opp, fixed, p, out)
        return out

    def backward(self, p: int, opp: np.ndarray, policy: np.ndarray, mode: int, out: np.ndarray) -> float:
        if mode == MODE_CFR:
            raise ValueError("MODE_CFR passes belong to the solver (poker51.solver.cfr)")
        pol = np.ascontiguousarray(policy, np.float64)
        opp = np.ascontiguousarray(opp, np.float64)
        if self.parallel:
            plan = (self.plan_off, self.plan_seg)
            root = backward_par(self.arrays, p, opp, pol, mode, out, self.scratch, self.choice, *plan, _NO_UPDATE,
                                self.untracked)  # fmt: skip
        else:
            root = backward_seq(self.arrays, p, opp, pol, mode, out, self.scratch, self.choice, _NO_UPDATE,
                                self.untracked)  # fmt: skip
        return float(root)


def forward_reach(arrays, q: int, policy: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Player q's reach vector over all (node, state): own strategy x own chance."""
    if out is None:
        out = np.zeros(int(arrays.n_states[q].sum()), np.float64)
    return Passes(arrays).forward(q, policy, out)


def node_values(arrays, p: int, opp_reach: np.ndarray, policy: np.ndarray, best: bool = False, mode: int | None = None):
    """(root value, value vector) of player p; ``best=True`` is ``mode=MODE_STATE``.
    See :func:`_backward_segment`."""
    if mode is None:
        mode = MODE_STATE if best else MODE_POLICY
    v = np.zeros(int(arrays.n_states[p].sum()), np.float64)
    root = Passes(arrays).backward(p, opp_reach, policy, mode, v)
    return root, v


@njit(cache=True)
def terminal_dot(g, p, reach, v):
    """sum over terminal nodes n and p's states s of node_chance[n] * reach[n, s] * v[n, s]:
    p's expected payoff when it plays the strategy whose reach is ``reach`` against the
    opponent reach that ``v``'s terminal values were computed from (any strategy of p
    reaching the same terminals gives its value from one backward pass)."""
    kind, state_off, n_states, node_chance = g.kind, g.state_off[p], g.n_states[p], g.node_chance
    total = 0.0
    for n in range(len(kind)):
        if kind[n] != FOLD and kind[n] != SHOWDOWN:
            continue
        off = state_off[n]
        acc = 0.0
        for s in range(n_states[n]):
            acc += reach[off + s] * v[off + s]
        total += node_chance[n] * acc
    return total
