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


# --------------------------------------------------------------------------- post-draw values
@njit(cache=True)
def _post_node(M, cum, start, bj, T, P, put, cv, act):
    """CV and best opening of one public post-draw node for every H strength index i."""
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
        v = put * sx
        f = -put * bet_t
        c = (put + 2.0) * bet_w
        best = f if f >= c else c
        if rai > best:
            best = rai
        bestv = v + best
        besta = 0
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
            f = -(put + z) * rt
            c = (put + 2.0 * z) * rw
            best = f if f >= c else c
            if rr > best:
                best = rr
            if v + best > bestv:
                bestv = v + best
                besta = 1 + o
        cv[i] = bestv
        act[i] = besta


# parallel=True: public nodes are independent (each writes its own rows)
@njit(cache=True, parallel=True)
def post_values(M, bj, start, P, put, cv, act):
    """H's counterfactual value ``cv[n, i]`` at every public post-draw node ``n`` with final
    strength index ``i`` (best of its post-draw actions), and the best opening ``act[n, i]``
    (0 check, 1..4 bet 1, 2, 4, 8).

    ``M`` (N, U): Riemann's mass per strength index (class prior x pre-draw reach x
    P(final strength | class), classes with the node's draw count); ``bj`` (U,) the bucket of
    each strength index (non-decreasing), ``start`` (B + 1,) the first index of each bucket;
    ``P`` (N, 10, B, 3) Riemann's post-draw probabilities; ``put`` (N,) the contribution."""
    N = M.shape[0]
    B = start.shape[0] - 1
    for n in prange(N):
        U = M.shape[1]
        cum = np.zeros(U + 1)
        for j in range(U):
            cum[j + 1] = cum[j] + M[n, j]
        T = np.zeros(B)
        for j in range(U):
            T[bj[j]] += M[n, j]
        _post_node(M[n], cum, start, bj, T, P[n], put[n], cv[n], act[n])


def post_values_plain(M, bj, start, P, put):
    """Plain twin of :func:`post_values`: per node, a (U, B) matrix of H's signed showdown
    masses and matrix products; returns (cv, act)."""
    N, U = M.shape
    B = start.shape[0] - 1
    cv = np.zeros((N, U))
    act = np.zeros((N, U), np.int64)
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
        vals.append(u * (W @ p[0, :, 0]) + np.maximum(np.maximum(fold, call), rai))
        for o, z in enumerate(BET_SIZES):
            q, r = p[2 + o], p[6 + o]
            fold = -(u + z) * (q[:, 2] @ T)
            call = (u + 2 * z) * (W @ q[:, 2])
            rai = (u + 2 * z) * (q[:, 2] * r[:, 0]) @ T + (u + 3 * z) * (W @ (q[:, 2] * r[:, 1]))
            vals.append(u * (q[:, 0] @ T) + (u + z) * (W @ q[:, 1]) + np.maximum(np.maximum(fold, call), rai))
        V = np.stack(vals, axis=1)
        cv[n] = V.max(axis=1)
        act[n] = V.argmax(axis=1)
    return cv, act


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
def pre_tree(Q, fm):
    """(value, opening 0..4) of H's best pre-draw play given the values ``Q`` (15) of the
    completed lines and Riemann's fold masses ``fm`` (14) (module docstring)."""
    f = -1.0 * fm[0]
    c = Q[1]
    r = 3.0 * fm[1] + Q[2]
    best = f if f >= c else c
    if r > best:
        best = r
    bestv = Q[0] + best
    besta = 0
    for o in range(4):
        z = BET_SIZES_K[o]
        f = -(1.0 + z) * fm[6 + o]
        c = Q[4 + 3 * o]
        r = (1.0 + 2.0 * z) * fm[10 + o] + Q[5 + 3 * o]
        best = f if f >= c else c
        if r > best:
            best = r
        v = fm[2 + o] + Q[3 + 3 * o] + best
        if v > bestv:
            bestv = v
            besta = 1 + o
    return bestv, besta


def pre_tree_plain(Q, fm) -> tuple[float, int]:
    """Plain twin of :func:`pre_tree`."""
    vals = [Q[0] + max(-fm[0], Q[1], 3 * fm[1] + Q[2])]
    for o, z in enumerate(BET_SIZES):
        vals.append(
            fm[2 + o] + Q[3 + 3 * o] + max(-(1 + z) * fm[6 + o], Q[4 + 3 * o], (1 + 2 * z) * fm[10 + o] + Q[5 + 3 * o])
        )
    a = int(np.argmax(vals))
    return float(vals[a]), a


# --------------------------------------------------------------------------- per dealt hand
# parallel=True: dealt hands are independent (each writes its own entries)
@njit(cache=True, parallel=True)
def hand_values(hands, sidx, G, Vself, draws, inv_ways, fm, binom, offset, best_val, best_keep, best_open):
    """For every dealt hand ``h`` and every keep mask whose draw count is in ``draws``: the
    expected completed-line values over H's replacements by inclusion-exclusion over the
    discards ``D``, ``Q = inv_ways[d] * sum_{S ⊆ D} (-1)^|S| G[K ∪ S]`` (``T = h`` itself:
    ``Vself[sidx[h]]``), then :func:`pre_tree`; keeps the best (value, keep, opening) per hand
    in ``best_*`` (strictly better replaces)."""
    L = G.shape[1]
    for h in prange(hands.shape[0]):
        idx = np.empty(32, np.int64)
        subset_indices(hands[h], binom, offset, idx)
        Q = np.empty(L)
        for K in range(32):
            d = 5 - _pop5(K)
            ok = False
            for dd in draws:
                if dd == d:
                    ok = True
            if not ok:
                continue
            D = 31 ^ K
            for ell in range(L):
                Q[ell] = 0.0
            S = D
            while True:  # every subset S of D
                T = K | S
                sign = 1.0 if (_pop5(S) & 1) == 0 else -1.0
                if T == 31:
                    for ell in range(L):
                        Q[ell] += sign * Vself[sidx[h], ell]
                else:
                    r = idx[T]
                    for ell in range(L):
                        Q[ell] += sign * G[r, ell]
                if S == 0:
                    break
                S = (S - 1) & D
            for ell in range(L):
                Q[ell] *= inv_ways[d]
            v, a = pre_tree(Q, fm)
            if v > best_val[h]:
                best_val[h] = v
                best_keep[h] = K
                best_open[h] = a


def hand_values_plain(hands, sidx, Vself, draws, fm, n: int):
    """Plain twin of :func:`hand_values` by direct enumeration of every replacement (no
    inclusion-exclusion): returns (best_val, best_keep, best_open), starting from -inf."""
    from itertools import combinations

    row = {tuple(h): i for i, h in enumerate(hands.tolist())}
    N = hands.shape[0]
    best_val = np.full(N, -np.inf)
    best_keep = np.zeros(N, np.int64)
    best_open = np.zeros(N, np.int64)
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
            v, a = pre_tree_plain(Q / ways, fm)
            if v > best_val[i]:
                best_val[i], best_keep[i], best_open[i] = v, K, a
    return best_val, best_keep, best_open
