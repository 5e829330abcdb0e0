"""The kernels of the exact best response with card removal (:mod:`poker51.realcard.removal_exact`),
each with its plain twin where it is not already a twin of :mod:`poker51.realcard.gind_kernels`.

Conventions (shared with :mod:`poker51.realcard.gind_kernels`): cards are deck *positions*
0..n-1; a five-card hand's row in :func:`poker51.abstraction.transitions.deck_hands` order is
``hand_of[colex]`` with ``colex = sum_i C(p_i, i + 1)`` over its sorted positions; completed
pre-draw lines (15), Riemann's round lines (10) with three slots, fold masses (14) as there.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
from numba import njit

from poker51.realcard.gind_kernels import draws_in, pre_tree
from poker51.rules import BET_SIZES

#: the bet sizes as the kernels read them (a global array, frozen at compile time)
BETS_K = np.array(BET_SIZES, np.float64)
N_FORMS = 15  # the linear forms of one post-draw node (node_values)


def colex_hand_map(pos: np.ndarray, binom: np.ndarray) -> np.ndarray:
    """(C(n,5),) the hand row of each colex rank (``pos`` the hands' sorted positions)."""
    ranks = sum(binom[pos[:, i], i + 1] for i in range(5))
    out = np.full(pos.shape[0], -1, np.int64)
    out[ranks] = np.arange(pos.shape[0])
    return out


@njit(cache=True, inline="always")
def _rank5(p, binom):
    """Colex rank of five positions (any order: sorted here, insertion sort)."""
    q = p.copy()
    for i in range(1, 5):
        x = q[i]
        j = i - 1
        while j >= 0 and q[j] > x:
            q[j + 1] = q[j]
            j -= 1
        q[j + 1] = x
    return binom[q[0], 1] + binom[q[1], 2] + binom[q[2], 3] + binom[q[3], 4] + binom[q[4], 5]


@njit(cache=True, inline="always")
def _next_comb(idx, k, m):
    """Step ``idx`` (k indices into 0..m-1, increasing) to the next combination; False at the end."""
    i = k - 1
    while i >= 0 and idx[i] == m - k + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
    return True


# --------------------------------------------------------------------------- Riemann's paths
@njit(cache=True)
def dead_counts(comp, nc, hand_of, binom, r_class, r_keep, class_draw, sidx, out):
    """``out[c, u] += 1`` for every path of Riemann inside the live cards ``comp[:nc]``: a dealt
    hand ``g`` (five live cards) of class ``c`` and every House replacement of its discards
    from the live cards outside ``g``, ending at strength index ``u``.  Returns the paths counted."""
    gi = np.empty(5, np.int64)
    g = np.empty(5, np.int64)
    rest = np.empty(max(nc - 5, 1), np.int64)
    f = np.empty(5, np.int64)
    ridx = np.empty(5, np.int64)
    total = 0
    if nc < 5:
        return 0
    for j in range(5):
        gi[j] = j
    while True:
        for j in range(5):
            g[j] = comp[gi[j]]
        h = hand_of[binom[g[0], 1] + binom[g[1], 2] + binom[g[2], 3] + binom[g[3], 4] + binom[g[4], 5]]
        c = r_class[h]
        keep = r_keep[h]
        k = class_draw[c]
        nr = 0
        j = 0
        for i in range(nc):
            if j < 5 and gi[j] == i:
                j += 1
            else:
                rest[nr] = comp[i]
                nr += 1
        nk = 0
        for j in range(5):
            if (keep >> j) & 1:
                f[nk] = g[j]
                nk += 1
        if k <= nr:
            for j in range(k):
                ridx[j] = j
            while True:
                for j in range(k):
                    f[nk + j] = rest[ridx[j]]
                out[c, sidx[hand_of[_rank5(f, binom)]]] += 1.0
                total += 1
                if not _next_comb(ridx, k, nr):
                    break
        if not _next_comb(gi, 5, nc):
            break
    return total


def dead_counts_plain(hands: np.ndarray, r_class, r_keep, class_draw, sidx, dead, n_classes: int, n_values: int):
    """Plain twin of :func:`dead_counts`: the (C, U) path counts of Riemann avoiding the positions
    ``dead``, by enumerating every dealt hand and replacement with :mod:`itertools`."""
    row = {tuple(h): i for i, h in enumerate(hands.tolist())}
    n = int(hands.max()) + 1
    live = [p for p in range(n) if p not in set(int(x) for x in dead)]
    out = np.zeros((n_classes, n_values))
    for g in combinations(live, 5):
        h = row[g]
        c, keep = int(r_class[h]), int(r_keep[h])
        kept = [g[j] for j in range(5) if (keep >> j) & 1]
        rest = [p for p in live if p not in g]
        for add in combinations(rest, int(class_draw[c])):
            out[c, sidx[row[tuple(sorted(kept + list(add)))]]] += 1
    return out


@njit(cache=True)
def class_counts_avoiding(pos, n, hand_of, binom, r_class, n_classes, out):
    """``out[h, c]``: Riemann's dealt hands of class ``c`` disjoint from hand ``h`` (every h)."""
    comp = np.empty(n, np.int64)
    gi = np.empty(5, np.int64)
    g = np.empty(5, np.int64)
    for h in range(pos.shape[0]):
        nc = 0
        for p in range(n):
            if p != pos[h, 0] and p != pos[h, 1] and p != pos[h, 2] and p != pos[h, 3] and p != pos[h, 4]:
                comp[nc] = p
                nc += 1
        for j in range(5):
            gi[j] = j
        while True:
            for j in range(5):
                g[j] = comp[gi[j]]
            rank = binom[g[0], 1] + binom[g[1], 2] + binom[g[2], 3] + binom[g[3], 4] + binom[g[4], 5]
            out[h, r_class[hand_of[rank]]] += 1
            if not _next_comb(gi, 5, nc):
                break


# --------------------------------------------------------------------------- one post-draw node
@njit(cache=True)
def node_values(m, bj, start, P, put, cv, act):
    """H's counterfactual value ``cv[i]`` and best opening ``act[i]`` at one public post-draw
    node for every strength index ``i`` (the quantity of
    :func:`poker51.realcard.gind_kernels.post_values`), in O(B + U) per action form: each of
    H's action values is a constant plus a linear form ``sum_b alpha[b] W_i[b]`` in its signed
    showdown masses (``W_i[b] = T[b]`` below its bucket, ``-T[b]`` above, ``below - above`` in
    it), read from prefix sums of ``alpha * T`` over the buckets."""
    U = m.shape[0]
    B = start.shape[0] - 1
    T = np.zeros(B)
    cum = np.zeros(U + 1)
    for j in range(U):
        T[bj[j]] += m[j]
        cum[j + 1] = cum[j] + m[j]
    alpha = np.empty((N_FORMS, B))
    for b in range(B):
        alpha[0, b] = P[0, b, 0]
        alpha[1, b] = P[0, b, 1]
        alpha[2, b] = P[0, b, 1] * P[1, b, 1]
        for o in range(4):
            alpha[3 + 3 * o, b] = P[2 + o, b, 1]
            alpha[4 + 3 * o, b] = P[2 + o, b, 2]
            alpha[5 + 3 * o, b] = P[2 + o, b, 2] * P[6 + o, b, 1]
    pre = np.zeros((N_FORMS, B + 1))
    for q in range(N_FORMS):
        for b in range(B):
            pre[q, b + 1] = pre[q, b] + alpha[q, b] * T[b]
    bet_t = 0.0
    rai_t = 0.0
    fo = np.zeros(4)
    rt = np.zeros(4)
    rrt = np.zeros(4)
    for b in range(B):
        bet_t += P[0, b, 1] * T[b]
        rai_t += P[0, b, 1] * P[1, b, 0] * T[b]
        for o in range(4):
            fo[o] += P[2 + o, b, 0] * T[b]
            rt[o] += P[2 + o, b, 2] * T[b]
            rrt[o] += P[2 + o, b, 2] * P[6 + o, b, 0] * T[b]
    S = np.empty(N_FORMS)
    for i in range(U):
        bs = bj[i]
        below = cum[i] - cum[start[bs]]
        mid = below - (T[bs] - below - m[i])
        for q in range(N_FORMS):
            S[q] = pre[q, bs] - (pre[q, B] - pre[q, bs + 1]) + alpha[q, bs] * mid
        f = -put * bet_t
        c = (put + 2.0) * S[1]
        r = (put + 2.0) * rai_t + (put + 4.0) * S[2]
        best = f if f >= c else c
        if r > best:
            best = r
        bestv = put * S[0] + best
        besta = 0
        for o in range(4):
            z = BETS_K[o]
            f = -(put + z) * rt[o]
            c = (put + 2.0 * z) * S[4 + 3 * o]
            r = (put + 2.0 * z) * rrt[o] + (put + 3.0 * z) * S[5 + 3 * o]
            best = f if f >= c else c
            if r > best:
                best = r
            v = put * fo[o] + (put + z) * S[3 + 3 * o] + best
            if v > bestv:
                bestv = v
                besta = 1 + o
        cv[i] = bestv
        act[i] = besta


# --------------------------------------------------------------------------- the whole pass
@njit(cache=True)
def real_pass(
    n, draws, removal, hand_of, binom, pos, r_class, r_keep, class_draw, sidx, bj, start,
    reach, w, k_slot, P, put, n_all, Q,
):  # fmt: skip
    """Every dead set ``D`` (``|D| = 5 + d`` positions, ``d`` in ``draws``): Riemann's path counts
    avoiding ``D`` (``removal``; else the whole deck's ``n_all``), its masses per completed
    line and draw count (``reach[d4, L, c] * w[d, slot] * counts``), H's counterfactual values
    per strength (:func:`node_values`), then for every final hand ``f`` of ``D`` and every
    dealt hand ``h = (D \\ f) ∪ K`` (``K`` any ``5 - d`` cards of ``f``) ``Q[h, keep, L] +=
    sum_k cv``.  Returns (dead sets, Riemann paths counted, (h, K, f) triples)."""
    C, U = n_all.shape
    NK = w.shape[1]
    NL = reach.shape[1]
    Nd = np.zeros((C, U))
    M = np.zeros(U)
    cv = np.zeros((NL, NK, U))
    act = np.zeros(U, np.int64)
    comp = np.empty(n, np.int64)
    Dp = np.empty(10, np.int64)
    fi = np.empty(5, np.int64)
    fpos = np.empty(5, np.int64)
    disc = np.empty(5, np.int64)
    hp = np.empty(5, np.int64)
    tot = np.empty(NL)
    n_sets = 0
    n_paths = 0
    n_triples = 0
    for d in draws:
        msz = 5 + d
        d4 = min(d, 4)
        di = np.arange(msz)
        while True:
            n_sets += 1
            for j in range(msz):
                Dp[j] = di[j]
            if removal:
                nc = 0
                j = 0
                for p in range(n):
                    if j < msz and Dp[j] == p:
                        j += 1
                    else:
                        comp[nc] = p
                        nc += 1
                Nd[:, :] = 0.0
                n_paths += dead_counts(comp, nc, hand_of, binom, r_class, r_keep, class_draw, sidx, Nd)
            else:
                Nd[:, :] = n_all
            for ell in range(NL):
                for a in range(NK):
                    M[:] = 0.0
                    for c in range(C):
                        if k_slot[c] != a:
                            continue
                        coef = reach[d4, ell, c] * w[d, a]
                        if coef == 0.0:
                            continue
                        for u in range(U):
                            M[u] += coef * Nd[c, u]
                    node_values(M, bj, start, P[d4, a, ell], put[ell], cv[ell, a], act)
            # every final hand f of D, every dealt hand h = (D \ f) ∪ K
            for j in range(5):
                fi[j] = j
            while True:
                for j in range(5):
                    fpos[j] = Dp[fi[j]]
                s = sidx[hand_of[_rank5(fpos, binom)]]
                for ell in range(NL):
                    t = 0.0
                    for a in range(NK):
                        t += cv[ell, a, s]
                    tot[ell] = t
                nd = 0
                j = 0
                for i in range(msz):
                    if j < 5 and fi[j] == i:
                        j += 1
                    else:
                        disc[nd] = Dp[i]
                        nd += 1
                for km in range(32):  # K: the cards of f kept (5 - d of them)
                    pc = (km & 1) + ((km >> 1) & 1) + ((km >> 2) & 1) + ((km >> 3) & 1) + ((km >> 4) & 1)
                    if pc != 5 - d:
                        continue
                    nh = 0
                    for j in range(5):
                        if (km >> j) & 1:
                            hp[nh] = fpos[j]
                            nh += 1
                    for j in range(d):
                        hp[nh + j] = disc[j]
                    h = hand_of[_rank5(hp, binom)]
                    keep = 0
                    for j in range(5):
                        p = pos[h, j]
                        for jj in range(5):
                            if (km >> jj) & 1 and fpos[jj] == p:
                                keep |= 1 << j
                    for ell in range(NL):
                        Q[h, keep, ell] += tot[ell]
                    n_triples += 1
                if not _next_comb(fi, 5, msz):
                    break
            if not _next_comb(di, msz, n):
                break
    return n_sets, n_paths, n_triples


@njit(cache=True)
def best_keeps(Q, fm, draws, best_val, best_keep, best_open):
    """Per dealt hand the best (keep, opening) over the keeps whose draw count is in ``draws``:
    :func:`poker51.realcard.gind_kernels.pre_tree` on ``Q[h, keep]`` with the hand's own fold
    masses ``fm[h, d4]``."""
    br = np.empty(4, np.int64)  # its answers (not kept)
    for h in range(Q.shape[0]):
        for km in range(32):
            d = 5 - ((km & 1) + ((km >> 1) & 1) + ((km >> 2) & 1) + ((km >> 3) & 1) + ((km >> 4) & 1))
            if not draws_in(d, draws):
                continue
            v, a, _ = pre_tree(Q[h, km], fm[h, min(d, 4)], br)
            if v > best_val[h]:
                best_val[h] = v
                best_keep[h] = km
                best_open[h] = a


def n_dead_sets(n: int, draws) -> int:
    """The dead sets :func:`real_pass` visits: sum over d of C(n, 5 + d)."""
    return sum(comb(n, 5 + int(d)) for d in draws)


__all__ = [
    "BETS_K", "best_keeps", "class_counts_avoiding", "colex_hand_map", "dead_counts", "dead_counts_plain",
    "n_dead_sets", "node_values", "real_pass",
]  # fmt: skip
