"""The kernels of the exact best response in G_ind (:mod:`poker51.realcard.gind`), each with its
plain twin (``*_plain``, NumPy / Python, slow; the tests compare them on small inputs).

Conventions shared with :mod:`poker51.realcard.gind`:

- **Completed pre-draw lines** ``L`` (15) in :func:`poker51.export.schema.completed_pre_lines`
  order: ``x-x, x-b2-c, x-b2-r-c``, then per bet ``b`` in 1, 2, 4, 8: ``b-c, b-r-c, b-r-r-c``
  (index ``3 + 3i + j``).  :data:`PUT` is each player's contribution after the line.
- **Riemann's round lines** (10) in :func:`poker51.export.schema.decision_lines` order: ``x``
  (checked: check, bet), ``x-b2-r`` (raised: fold, call), ``b1 .. b8`` (bet: fold, call,
  raise), ``b1-r-r .. b8-r-r`` (reraised: fold, call); a spot's probabilities sit in three
  slots in that action order.
- **Fold masses** ``fm`` (14) of one H draw count read as four: Riemann's mass (class prior
  times its reach) at ``x-b2`` (it bet after the check), ``x-b2-r-f``, then per bet ``b-f``
  (4), ``b-r`` (4), ``b-r-r-f`` (4).
- Hands are rows of deck *positions* (0..n-1, ascending), subsets of at most four positions
  are indexed by the combinatorial number system (:func:`subset_tables`).
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit, prange

from poker51.abstraction.transitions import subset_indices
from poker51.rules import BET_SIZES

N_LINES = 15
#: each player's contribution after each completed pre-draw line (antes included)
PUT = np.array([1, 3, 5] + [p for b in BET_SIZES for p in (1 + b, 1 + 2 * b, 1 + 3 * b)], np.float64)
BETS = np.array(BET_SIZES, np.float64)
N_OPENS = 5  # x, b1, b2, b4, b8
#: the bet sizes as the kernels read them (a global array, frozen at compile time)
BET_SIZES_K = np.array(BET_SIZES, np.float64)


def subset_tables(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(binom (n+1, 6), offset (6,)) of the combinatorial number system on ``n`` positions:
    a sorted subset ``t_1 < .. < t_k`` has index ``offset[k] + sum_i C(t_i, i)``."""
    binom = np.array([[comb(m, k) for k in range(6)] for m in range(n + 1)], np.int64)
    offset = np.array([sum(comb(n, j) for j in range(k)) for k in range(6)], np.int64)
    return binom, offset


def subset_index_plain(positions, n: int) -> int:
    """Index of a set of at most four positions (plain; :func:`subset_tables`)."""
    ps = sorted(int(p) for p in positions)
    return sum(comb(n, j) for j in range(len(ps))) + sum(comb(p, i + 1) for i, p in enumerate(ps))


@njit(cache=True, inline="always")
def _pop5(m):
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1) + ((m >> 4) & 1)


@njit(cache=True, inline="always")
def draws_in(d, draws):
    """Whether the draw count ``d`` is one of ``draws`` (the keeps a pass considers)."""
    for dd in draws:
        if dd == d:
            return True
    return False


# --------------------------------------------------------------------------- post-draw values
@njit(cache=True, inline="always")
def _answer(f, c, r):
    """(value, choice) of fold / call / raise: the largest, ties to the earlier action."""
    best, ch = (f, 0) if f >= c else (c, 1)
    if r > best:
        return r, 2
    return best, ch


@njit(cache=True)
def _post_node(M, cum, start, bj, T, P, put, cv, act, xb2, br):
    """CV, best opening and answers of one public post-draw node for every H strength index i."""
    U = M.shape[0]
    B = T.shape[0]
    for i in range(U):
        bs = bj[i]
        below = cum[i] - cum[start[bs]]
        above = T[bs] - below - M[i]
        # opening x
        sx = 0.0
        bet_t = 0.0
        bet_w = 0.0
        rai = 0.0
        for b in range(B):
            w = T[b] if b < bs else (-T[b] if b > bs else below - above)
            sx += P[0, b, 0] * w
            pb = P[0, b, 1]
            bet_t += pb * T[b]
            bet_w += pb * w
            rai += pb * (P[1, b, 0] * (put + 2.0) * T[b] + P[1, b, 1] * (put + 4.0) * w)
        best, ch = _answer(-put * bet_t, (put + 2.0) * bet_w, rai)
        bestv = put * sx + best
        besta = 0
        xb2[i] = ch
        for o in range(4):
            z = BET_SIZES_K[o]
            fo = 0.0
            ca = 0.0
            rt = 0.0
            rw = 0.0
            rr = 0.0
            for b in range(B):
                w = T[b] if b < bs else (-T[b] if b > bs else below - above)
                fo += P[2 + o, b, 0] * T[b]
                ca += P[2 + o, b, 1] * w
                pr = P[2 + o, b, 2]
                rt += pr * T[b]
                rw += pr * w
                rr += pr * (P[6 + o, b, 0] * (put + 2.0 * z) * T[b] + P[6 + o, b, 1] * (put + 3.0 * z) * w)
            v = put * fo + (put + z) * ca
            best, ch = _answer(-(put + z) * rt, (put + 2.0 * z) * rw, rr)
            br[i, o] = ch
            if v + best > bestv:
                bestv = v + best
                besta = 1 + o
        cv[i] = bestv
        act[i] = besta


@njit(cache=True)
def _mass_sums(m, bj, B):
    """(cum, T) of one node's mass ``m`` (U,): ``cum[j]`` the mass below strength index ``j``,
    ``T[b]`` the mass of bucket ``b``."""
    U = m.shape[0]
    cum = np.zeros(U + 1)
    for j in range(U):
        cum[j + 1] = cum[j] + m[j]
    T = np.zeros(B)
    for j in range(U):
        T[bj[j]] += m[j]
    return cum, T


# parallel=True: public nodes are independent (each writes its own rows)
@njit(cache=True, parallel=True)
def post_values(M, bj, start, P, put, cv, act, xb2, br):
    """H's counterfactual value ``cv[n, i]`` at every public post-draw node ``n`` with final
    strength index ``i`` (best of its post-draw actions), its best opening ``act[n, i]``
    (0 check, 1..4 bet 1, 2, 4, 8), its answer ``xb2[n, i]`` to Riemann's bet after its check and
    ``br[n, i, o]`` to Riemann's raise of its bet ``o`` (0 fold, 1 call, 2 raise; ties to the
    earlier action, openings too).

    ``M`` (N, U): Riemann's mass per strength index (class prior x pre-draw reach x
    P(final strength | class), classes with the node's draw count); ``bj`` (U,) the bucket of
    each strength index (non-decreasing), ``start`` (B + 1,) the first index of each bucket;
    ``P`` (N, 10, B, 3) Riemann's post-draw probabilities; ``put`` (N,) the contribution."""
    N = M.shape[0]
    B = start.shape[0] - 1
    for n in prange(N):
        cum, T = _mass_sums(M[n], bj, B)
        _post_node(M[n], cum, start, bj, T, P[n], put[n], cv[n], act[n], xb2[n], br[n])


def post_values_plain(M, bj, start, P, put):
    """Plain twin of :func:`post_values`: per node, a (U, B) matrix of H's signed showdown
    masses and matrix products; returns (cv, act, xb2, br)."""
    N, U = M.shape
    B = start.shape[0] - 1
    cv = np.zeros((N, U))
    act = np.zeros((N, U), np.int64)
    xb2 = np.zeros((N, U), np.int64)
    br = np.zeros((N, U, 4), np.int64)
    for n in range(N):
        m = M[n]
        T = np.bincount(bj, weights=m, minlength=B)
        idx = np.arange(U)
        onehot = np.zeros((U, B))
        onehot[idx, bj] = 1.0
        W = (np.sign(idx[:, None] - idx[None, :]) * m[None, :]) @ onehot  # H's signed showdown mass per bucket
        p, u = P[n], put[n]
        vals = []
        # check: R checks (showdown at u) or bets 2: fold, call, raise (R folds or calls)
        fold = -u * (p[0, :, 1] @ T)
        call = (u + 2) * (W @ p[0, :, 1])
        rai = (u + 2) * (p[0, :, 1] * p[1, :, 0]) @ T + (u + 4) * (W @ (p[0, :, 1] * p[1, :, 1]))
        answers = np.stack(np.broadcast_arrays(fold, call, rai), axis=1)
        xb2[n] = answers.argmax(axis=1)
        vals.append(u * (W @ p[0, :, 0]) + answers.max(axis=1))
        for o, z in enumerate(BET_SIZES):
            q, r = p[2 + o], p[6 + o]
            fold = -(u + z) * (q[:, 2] @ T)
            call = (u + 2 * z) * (W @ q[:, 2])
            rai = (u + 2 * z) * (q[:, 2] * r[:, 0]) @ T + (u + 3 * z) * (W @ (q[:, 2] * r[:, 1]))
            answers = np.stack(np.broadcast_arrays(fold, call, rai), axis=1)
            br[n, :, o] = answers.argmax(axis=1)
            vals.append(u * (q[:, 0] @ T) + (u + z) * (W @ q[:, 1]) + answers.max(axis=1))
        V = np.stack(vals, axis=1)
        cv[n] = V.max(axis=1)
        act[n] = V.argmax(axis=1)
    return cv, act, xb2, br


# --------------------------------------------------------------------------- superset sums
@njit(cache=True)
def superset_sums(hands, sidx, V, tmin, binom, offset, G):
    """``G[T] += V[sidx[f]]`` for every hand ``f`` (rows of positions) and every proper subset
    ``T`` of ``f`` with ``|T| >= tmin``: ``G[T] = sum over five-card f ⊇ T of V(f)``."""
    idx = np.empty(32, np.int64)
    L = V.shape[1]
    for h in range(hands.shape[0]):
        subset_indices(hands[h], binom, offset, idx)
        s = sidx[h]
        for m in range(31):
            if _pop5(m) >= tmin:
                r = idx[m]
                for ell in range(L):
                    G[r, ell] += V[s, ell]


def superset_sums_plain(hands, sidx, V, tmin: int, n: int) -> dict:
    """Plain twin of :func:`superset_sums`: {subset index: (L,) sum}, subsets as Python tuples."""
    from itertools import combinations

    out: dict[int, np.ndarray] = {}
    for h, s in zip(hands.tolist(), sidx.tolist()):
        for k in range(tmin, 5):
            for t in combinations(h, k):
                i = subset_index_plain(t, n)
                out[i] = out.get(i, 0.0) + V[s]
    return out


# --------------------------------------------------------------------------- pre-draw tree
@njit(cache=True)
def pre_tree(Q, fm, br):
    """(value, opening 0..4, xb2) of H's best pre-draw play given the values ``Q`` (15) of the
    completed lines and Riemann's fold masses ``fm`` (14) (module docstring): ``xb2`` its answer
    to Riemann's bet after its check, ``br[o]`` (4,) to Riemann's raise of its bet ``o``
    (0 fold, 1 call, 2 raise; ties to the earlier action, openings too)."""
    best, xb2 = _answer(-1.0 * fm[0], Q[1], 3.0 * fm[1] + Q[2])
    bestv = Q[0] + best
    besta = 0
    for o in range(4):
        z = BET_SIZES_K[o]
        best, ch = _answer(-(1.0 + z) * fm[6 + o], Q[4 + 3 * o], (1.0 + 2.0 * z) * fm[10 + o] + Q[5 + 3 * o])
        br[o] = ch
        v = fm[2 + o] + Q[3 + 3 * o] + best
        if v > bestv:
            bestv = v
            besta = 1 + o
    return bestv, besta, xb2


def pre_tree_plain(Q, fm) -> tuple[float, int, int, list[int]]:
    """Plain twin of :func:`pre_tree`: (value, opening, xb2, br)."""

    def answer(*v):
        return int(np.argmax(v)), max(v)

    xb2, best = answer(-fm[0], Q[1], 3 * fm[1] + Q[2])
    vals, br = [Q[0] + best], []
    for o, z in enumerate(BET_SIZES):
        ch, best = answer(-(1 + z) * fm[6 + o], Q[4 + 3 * o], (1 + 2 * z) * fm[10 + o] + Q[5 + 3 * o])
        br.append(ch)
        vals.append(fm[2 + o] + Q[3 + 3 * o] + best)
    a = int(np.argmax(vals))
    return float(vals[a]), a, xb2, br


# --------------------------------------------------------------------------- per dealt hand
@njit(cache=True, inline="always")
def keep_values(sidx_h, idx, K, G, Vself, inv_ways_d, Q):
    """``Q`` (15) = the completed-line values of the hand with subset indices ``idx``
    (:func:`~poker51.abstraction.transitions.subset_indices`) and strength index ``sidx_h``
    keeping mask ``K``, over its replacements: ``inv_ways_d * sum_{S ⊆ D} (-1)^|S| G[K ∪ S]``
    with ``D`` the discards (``T = h`` itself: ``Vself[sidx_h]``)."""
    L = Q.shape[0]
    D = 31 ^ K
    for ell in range(L):
        Q[ell] = 0.0
    S = D
    while True:  # every subset S of D
        T = K | S
        sign = 1.0 if (_pop5(S) & 1) == 0 else -1.0
        if T == 31:
            for ell in range(L):
                Q[ell] += sign * Vself[sidx_h, ell]
        else:
            r = idx[T]
            for ell in range(L):
                Q[ell] += sign * G[r, ell]
        if S == 0:
            break
        S = (S - 1) & D
    for ell in range(L):
        Q[ell] *= inv_ways_d


@njit(cache=True)
def take_better(h, v, K, a, x, br, best_val, best_keep, best_open, best_xb2, best_br):
    """Keep (value ``v``, keep ``K``, opening ``a``, answers ``x``, ``br``) as hand ``h``'s best
    when it beats the best so far (ties keep the first: keeps are tried in order)."""
    if v > best_val[h]:
        best_val[h] = v
        best_keep[h] = K
        best_open[h] = a
        best_xb2[h] = x
        for o in range(4):
            best_br[h, o] = br[o]


# parallel=True: dealt hands are independent (each writes its own entries)
@njit(cache=True, parallel=True)
def hand_values(hands, sidx, G, Vself, draws, inv_ways, fm, binom, offset, best_val, best_keep, best_open, best_xb2,
                best_br):  # fmt: skip
    """For every dealt hand ``h`` and every keep mask whose draw count is in ``draws``: the
    expected completed-line values over H's replacements (:func:`keep_values`), then
    :func:`pre_tree`; keeps the best (value, keep, opening, answers ``xb2``, ``br`` (4,)) per
    hand in ``best_*`` (strictly better replaces)."""
    L = G.shape[1]
    for h in prange(hands.shape[0]):
        idx = np.empty(32, np.int64)
        subset_indices(hands[h], binom, offset, idx)
        Q = np.empty(L)
        br = np.empty(4, best_br.dtype)
        for K in range(32):
            d = 5 - _pop5(K)
            if not draws_in(d, draws):
                continue
            keep_values(sidx[h], idx, K, G, Vself, inv_ways[d], Q)
            v, a, x = pre_tree(Q, fm, br)
            take_better(h, v, K, a, x, br, best_val, best_keep, best_open, best_xb2, best_br)


def hand_values_plain(hands, sidx, Vself, draws, fm, n: int):
    """Plain twin of :func:`hand_values` by direct enumeration of every replacement (no
    inclusion-exclusion): returns (best_val, best_keep, best_open, best_xb2, best_br), starting
    from -inf."""
    from itertools import combinations

    row = {tuple(h): i for i, h in enumerate(hands.tolist())}
    N = hands.shape[0]
    best_val = np.full(N, -np.inf)
    best_keep = np.zeros(N, np.int64)
    best_open = np.zeros(N, np.int64)
    best_xb2 = np.zeros(N, np.int64)
    best_br = np.zeros((N, 4), np.int64)
    for i, h in enumerate(hands.tolist()):
        rest = [p for p in range(n) if p not in h]
        for K in range(32):
            d = 5 - bin(K).count("1")
            if d not in draws:
                continue
            kept = [h[j] for j in range(5) if (K >> j) & 1]
            Q = np.zeros(Vself.shape[1])
            ways = 0
            for add in combinations(rest, d):
                Q += Vself[sidx[row[tuple(sorted(kept + list(add)))]]]
                ways += 1
            v, a, x, br = pre_tree_plain(Q / ways, fm)
            if v > best_val[i]:
                best_val[i], best_keep[i], best_open[i], best_xb2[i], best_br[i] = v, K, a, x, br
    return best_val, best_keep, best_open, best_xb2, best_br


# --------------------------------------------------------------------------- the class prior given H's hand
@njit(cache=True, inline="always")
def _fixed_node(M, cum, start, bj, T, P, put, act, xb2, br, out):
    """H's value of one public post-draw node for every strength index ``i`` when it plays the
    fixed opening ``act[i]`` and answers ``xb2[i]``, ``br[i, o]`` (codes of :func:`post_values`)
    against Riemann's mass ``M`` (U,): linear in ``M``, only the chosen branch is summed."""
    U = M.shape[0]
    B = T.shape[0]
    for i in range(U):
        bs = bj[i]
        below = cum[i] - cum[start[bs]]
        above = T[bs] - below - M[i]
        a = act[i]
        v = 0.0
        if a == 0:
            x = xb2[i]
            for b in range(B):
                w = T[b] if b < bs else (-T[b] if b > bs else below - above)
                pb = P[0, b, 1]
                v += put * P[0, b, 0] * w
                if x == 0:
                    v -= put * pb * T[b]
                elif x == 1:
                    v += (put + 2.0) * pb * w
                else:
                    v += pb * (P[1, b, 0] * (put + 2.0) * T[b] + P[1, b, 1] * (put + 4.0) * w)
        else:
            o = a - 1
            z = BET_SIZES_K[o]
            x = br[i, o]
            for b in range(B):
                w = T[b] if b < bs else (-T[b] if b > bs else below - above)
                pr = P[2 + o, b, 2]
                v += put * P[2 + o, b, 0] * T[b] + (put + z) * P[2 + o, b, 1] * w
                if x == 0:
                    v -= (put + z) * pr * T[b]
                elif x == 1:
                    v += (put + 2.0 * z) * pr * w
                else:
                    v += pr * (P[6 + o, b, 0] * (put + 2.0 * z) * T[b] + P[6 + o, b, 1] * (put + 3.0 * z) * w)
        out[i] = v


# parallel=True: nodes are independent (each writes its own row)
@njit(cache=True, parallel=True)
def post_values_fixed(M, bj, start, P, put, node, act, xb2, br, out):
    """``out[n, i]``: H's value at strength index ``i`` of the mass ``M[n]`` (U,) played at the
    public node ``node[n]`` (``P[node[n]]``, ``put[node[n]]``) with the fixed post-draw choices
    ``act``, ``xb2``, ``br`` of that node (rows of :func:`post_values`' outputs).  With the
    node's own mass and its best-response choices it is :func:`post_values`' ``cv``."""
    B = start.shape[0] - 1
    for n in prange(M.shape[0]):
        cum, T = _mass_sums(M[n], bj, B)
        q = node[n]
        _fixed_node(M[n], cum, start, bj, T, P[q], put[q], act[q], xb2[q], br[q], out[n])


# parallel=True: the per-subset sorts and merges are independent (the counting and filling are serial)
@njit(cache=True, parallel=True)
def superset_strengths(hands, sidx, binom, offset):
    """(ptr (S + 1,), u (nnz,) int64, w (nnz,) float64): per subset ``T`` of at most four
    positions (:func:`subset_tables` index, ``S`` of them) the distinct strength indices ``u`` of
    the five-card hands that contain it, with their counts ``w``: ``G[T] = sum_j w_j V[u_j]`` is
    :func:`superset_sums`' ``G[T]`` for any ``V`` (:func:`superset_rows`).  Independent of the
    values, so one table serves every column and every d4."""
    S = offset[5]
    ptr = np.zeros(S + 1, np.int64)
    idx = np.empty(32, np.int64)
    for h in range(hands.shape[0]):
        subset_indices(hands[h], binom, offset, idx)
        for m in range(31):
            ptr[idx[m] + 1] += 1
    for r in range(S):
        ptr[r + 1] += ptr[r]
    fill = ptr[:-1].copy()
    vals = np.empty(ptr[S], np.int32)
    for h in range(hands.shape[0]):
        subset_indices(hands[h], binom, offset, idx)
        for m in range(31):
            r = idx[m]
            vals[fill[r]] = sidx[h]
            fill[r] += 1
    nd = np.zeros(S + 1, np.int64)
    for r in prange(S):
        seg = np.sort(vals[ptr[r] : ptr[r + 1]])
        vals[ptr[r] : ptr[r + 1]] = seg
        k = 0
        for j in range(seg.shape[0]):
            if j == 0 or seg[j] != seg[j - 1]:
                k += 1
        nd[r + 1] = k
    for r in range(S):
        nd[r + 1] += nd[r]
    u = np.empty(nd[S], np.int64)
    w = np.zeros(nd[S])
    for r in prange(S):
        k = nd[r] - 1
        for j in range(ptr[r], ptr[r + 1]):
            if j == ptr[r] or vals[j] != vals[j - 1]:
                k += 1
                u[k] = vals[j]
            w[k] += 1.0
    return nd, u, w


# parallel=True: subsets are independent (each writes its own row of G)
@njit(cache=True, parallel=True)
def superset_rows(ptr, u, w, V, lo, G):
    """``G[T] = sum_j w_j V[u_j]`` over the entries of :func:`superset_strengths` for every
    subset ``T >= lo`` (the subsets of at least ``k`` positions start at ``offset[k]``): the
    superset sums of :func:`superset_sums` by rows, each row summed in registers and written once
    (the wide per-class table is far larger than the caches; ``V`` is small)."""
    L = V.shape[1]
    for r in prange(lo, G.shape[0]):
        for j in range(ptr[r], ptr[r + 1]):
            wj = w[j]
            s = u[j]
            for ell in range(L):
                G[r, ell] += wj * V[s, ell]


# parallel=True: dealt hands are independent (each writes its own row)
@njit(cache=True, parallel=True)
def prior_shifts(hands, r_class, NC, binom, offset, scale, prior, out):
    """``out[h, c]`` = Riemann's class prior given H's dealt hand ``h`` minus ``prior[c]``: the
    counts of its dealt hands of class ``c`` that avoid ``h`` (``sum_{S ⊆ h} (-1)^|S| NC[S, c]``,
    ``NC`` the per-subset class counts, ``S = h`` the hand itself, of class ``r_class[h]``)
    times ``scale`` = ``1 / C(n - 5, 5)``."""
    C = NC.shape[1]
    for h in prange(hands.shape[0]):
        idx = np.empty(32, np.int64)
        subset_indices(hands[h], binom, offset, idx)
        cnt = np.zeros(C)
        for m in range(31):
            sign = 1.0 if (_pop5(m) & 1) == 0 else -1.0
            r = idx[m]
            for c in range(C):
                cnt[c] += sign * NC[r, c]
        cnt[r_class[h]] -= 1.0  # S = h: (-1)^5 times the one hand that contains all five cards
        for c in range(C):
            out[h, c] = cnt[c] * scale - prior[c]


# parallel=True: dealt hands are independent (each writes its own entries)
@njit(cache=True, parallel=True)
def hand_values_given(hands, sidx, G, Vself, GC, VCself, cstart, col_ell, delta, folds, draws, inv_ways, fm, binom,
                      offset, best_val, best_keep, best_open, best_xb2, best_br):  # fmt: skip
    """:func:`hand_values` with Riemann's class prior of each dealt hand ``h`` shifted by
    ``delta[h]`` (C,): the completed-line values gain ``sum_c delta[h, c] X_c`` with ``X_c`` the
    per-class values of ``GC`` / ``VCself`` (superset sums; columns ``cstart[c] .. cstart[c + 1] - 1``
    are class ``c``'s, column ``j`` of line ``col_ell[j]``, the columns that are zero left out) by the same
    inclusion-exclusion, and the fold masses gain ``folds @ delta[h]`` (``folds`` (14, C)).  With
    ``delta`` zero every value and choice is :func:`hand_values`' bit for bit (the shift adds 0.0)."""
    L = G.shape[1]
    C = delta.shape[1]
    dmax = 0
    for d in draws:
        dmax = max(dmax, d)
    tmin = 5 - dmax
    for h in prange(hands.shape[0]):
        idx = np.empty(32, np.int64)
        subset_indices(hands[h], binom, offset, idx)
        corr = np.zeros((32, L))  # sum_c delta[h, c] X_c[T] per subset mask T of the hand
        for m in range(32):
            if _pop5(m) < tmin:
                continue
            row = VCself[sidx[h]] if m == 31 else GC[idx[m]]
            for c in range(C):
                dc = delta[h, c]
                for j in range(cstart[c], cstart[c + 1]):
                    corr[m, col_ell[j]] += dc * row[j]
        fmh = np.empty(fm.shape[0])
        for j in range(fm.shape[0]):
            acc = 0.0
            for c in range(C):
                acc += folds[j, c] * delta[h, c]
            fmh[j] = fm[j] + acc
        Q = np.empty(L)
        br = np.empty(4, best_br.dtype)
        for K in range(32):
            d = 5 - _pop5(K)
            if not draws_in(d, draws):
                continue
            keep_values(sidx[h], idx, K, G, Vself, inv_ways[d], Q)
            D = 31 ^ K
            S = D
            while True:
                sign = 1.0 if (_pop5(S) & 1) == 0 else -1.0
                T = K | S
                for ell in range(L):
                    Q[ell] += sign * inv_ways[d] * corr[T, ell]
                if S == 0:
                    break
                S = (S - 1) & D
            v, a, x = pre_tree(Q, fmh, br)
            take_better(h, v, K, a, x, br, best_val, best_keep, best_open, best_xb2, best_br)
