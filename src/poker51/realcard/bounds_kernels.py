"""Lower bounds on V_real by play: the kernels (issue 26, point 2).

A *human table* (:class:`HumanTable`) is a pure strategy of seat H as look-ups: per dealt hand
(by the colex index of its sorted cards, :func:`poker51.policies.kernels.colex`) its keep mask
(over the sorted positions), its opening (0 check, 1..4 bet 1, 2, 4, 8), its answer to Riemann's
bet after its check (``xb2``: 0 fold, 1 call, 2 raise) and to Riemann's raise of each of its bets
(``br``); after the draw, per (H's exact draw count 0..5, Riemann's draw count 0..4, completed
pre-draw line 0..14, H's final strength index) the same three choices.  Riemann is the deployed
v0.6 (:mod:`poker51.policies.kernels`: its table, its FNV-1a selection, its House draw).

One hand (:func:`play_hand`), the engine's rules (:mod:`poker51.play.engine`) at deep stacks:
H gets ``deck[0:5]``, Riemann ``deck[5:10]``, the draws come off ``deck[10:]`` in order, H's
first; both ante 1; the betting tree of :mod:`poker51.play.engine` (H opens check or 1/2/4/8;
Riemann bets 2 after a check; raises by the opening amount; one re-raise); a fold loses what the
folder put in, a showdown moves the matched contribution.  Both stacks are
:data:`poker51.realcard.lbr.STACK` = 100 jbits: the largest contribution of a hand is 49, so no
all-in can arise and every raise is answered (the kernel plays no other stack).

The deck (module :mod:`poker51.realcard.bounds` documents the streams) is a lazily evaluated
Fisher–Yates shuffle of the variant's cards (ascending): position ``t`` swaps with position
``t + floor(x s / 2^32)``, ``s = n - t``, ``x`` the high 32 bits of ``mix64(key + φ (1 + t + 64 a))``
(Lemire's multiply-shift; attempt ``a`` = 0, 1, ... rejects the ``x`` whose low product word is
below ``2^32 mod s``: exactly uniform, and a division only in the rare rejection test), ``key`` the
hand's key, :func:`mix64` SplitMix64's finaliser, ``φ`` the golden-ratio word.  Only the
positions the hand uses are drawn.

``mode`` :data:`REAL` is the deployed game (one deck, Riemann's FNV-1a selection).  Mode
:data:`IND` is G_ind (:mod:`poker51.realcard.gind`): H's cards from positions 0..9 of one shuffle
(its hand, then its draws), Riemann's from a second shuffle of its own copy of the deck (positions
``32 + t``), and Riemann's action picked by a uniform (``mix64(key + φ (1 + 48 + decision))`` as
a 53-bit fraction) against the table's probabilities instead of the hash: its expectation is
:func:`poker51.realcard.gind.strategy_value` exactly, which the tests use to prove the play
unbiased.

Plain twin: :func:`poker51.realcard.bounds_plain.play_hand_plain` (Python, the same streams);
the tests compare it with this kernel hand by hand and with the engine.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from poker51.abstraction.transitions import subset_indices
from poker51.policies.kernels import PRE_DONE_CONTRIB, colex, hand_hash_prefix, rank5, sort5
from poker51.rules import ANTE, BET_SIZES, RIEMANN_BET

GOLDEN = 0x9E3779B97F4A7C15
REAL, IND = 0, 1
#: first deck position of Riemann's own shuffle in mode IND, and of its selection uniforms
R_OFFSET, U_OFFSET = 32, 48
#: hands per block: the unit of the sums (and of parallel work); results never depend on chunking
BLOCK = 4096
SIZES = np.array(BET_SIZES, dtype=np.int64)
#: Riemann's round lines (:data:`poker51.policies.kernels.R_LINES`): x, x-b2-r, b1..b8, b1-r-r..b8-r-r
L_X, L_XB2R = 0, 1
#: columns of :func:`play_detail`'s output
DETAIL_COLUMNS = ("net", "h_draw", "r_draw", "pre_done", "pre_code", "post_code", "cards_used")
#: sums per block (:func:`play_blocks`): n, sum x, sum x^2 (ints), then sum g, g^2, x g (floats)
N_SUMS = 6
FOLD, CALL, RAISE, CHECK, BET = range(5)
_M64 = (1 << 64) - 1


class HumanTable(NamedTuple):
    """A pure H strategy as look-ups (module docstring); ``g`` (colex,) float64 is the control
    variate of each dealt hand (0 where none)."""

    keep: np.ndarray
    open: np.ndarray
    xb2: np.ndarray
    br: np.ndarray
    post_open: np.ndarray
    post_xb2: np.ndarray
    post_br: np.ndarray
    g: np.ndarray


# --------------------------------------------------------------------------- random numbers
@njit(cache=True, inline="always")
def mix64(z):
    """SplitMix64's finaliser of a uint64."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def mix64_plain(z: int) -> int:
    """Plain twin of :func:`mix64` in Python ints."""
    z &= _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


@njit(cache=True, inline="always")
def _word(key, t):
    return mix64(key + np.uint64(GOLDEN) * np.uint64(1 + t))


@njit(cache=True)
def _deal(deck, n, key, t, base):
    """Fix position ``t`` of the lazily shuffled ``deck`` (length ``n``): swap it with a uniform
    position of ``t .. n - 1`` (module docstring); ``base`` offsets the counter (Riemann's own
    shuffle in mode IND)."""
    s = np.uint64(n - t)
    a = 0
    while True:
        x = _word(key, base + t + 64 * a) >> np.uint64(32)
        m = x * s
        low = m & np.uint64(0xFFFFFFFF)
        if low >= s or low >= (np.uint64(1 << 32) - s) % s:
            break
        a += 1
    j = t + np.int64(m >> np.uint64(32))
    c = deck[t]
    deck[t] = deck[j]
    deck[j] = c
    return deck[t]


@njit(cache=True, inline="always")
def _unit(key, i):
    """The ``i``-th selection uniform of a hand in mode IND, in [0, 1)."""
    return float(_word(key, U_OFFSET + i) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


# --------------------------------------------------------------------------- Riemann
@njit(cache=True)
def _select(M, prefix, sid, state, mode, key, i):
    """Riemann's action at spot ``sid`` with class or bucket ``state``: the FNV-1a selection of
    its cards (mode REAL, ``prefix`` the hashed cards) or the ``i``-th uniform (mode IND)."""
    if mode == REAL:
        x = prefix
        for k in range(M.spot_len[sid]):
            x = (x ^ np.uint64(M.spot_bytes[sid, k])) * np.uint64(0x100000001B3)
        u = float(x) / 18446744073709551616.0
    else:
        u = _unit(key, i)
    acc = 0.0
    out = -1
    for a in range(5):
        p = M.P[sid, state, a]
        if p > 0.0:
            acc += p
            out = a
            if acc > u:
                break
    return out


@njit(cache=True, inline="always")
def _append(code, tok):
    return code * 16 + tok


# --------------------------------------------------------------------------- one hand
@njit(cache=True)
def play_hand(M, S, key, mode, deck, rdeck, info):
    """Play one hand with key ``key`` (module docstring); ``deck`` (and ``rdeck`` in mode IND)
    hold the variant's cards ascending on entry and are shuffled in place.  Returns H's net
    jbits; ``info`` gets :data:`DETAIL_COLUMNS` [1:] (line codes: 4-bit tokens of
    :data:`poker51.realcard.lbr_kernels.TOKENS`)."""
    n = deck.shape[0]
    h = np.empty(5, np.int64)
    r = np.empty(5, np.int64)
    for t in range(5):
        h[t] = _deal(deck, n, key, t, 0)
    if mode == REAL:
        for t in range(5):
            r[t] = _deal(deck, n, key, 5 + t, 0)
        used = 10
    else:
        for t in range(5):
            r[t] = _deal(rdeck, n, key, t, R_OFFSET)
        used = 5
    sort5(h)
    sort5(r)
    hi = colex(h)
    ri = colex(r)
    mask = int(S.keep[hi])
    hd = 5 - ((mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1) + ((mask >> 3) & 1) + ((mask >> 4) & 1))
    d4 = min(hd, 4)
    a = int(S.open[hi])
    r_prefix = hand_hash_prefix(r) if mode == REAL else np.uint64(0)
    r_class = M.class_id[ri]
    dec = 0  # Riemann's decisions so far (the uniforms of mode IND)
    c_h, c_r, code, pre_done, net, done = ANTE, ANTE, 0, -1, 0, False
    unit, raise_line = 0, 0
    if a == 0:
        code = _append(code, 1)
        act = _select(M, r_prefix, M.pre_sid[d4, L_X], r_class, mode, key, dec)
        dec += 1
        if act == CHECK:
            code = _append(code, 1)
            pre_done = 0
        else:
            code = _append(code, 3)
            c_r += RIEMANN_BET
            unit, raise_line = RIEMANN_BET, L_XB2R
            choice = int(S.xb2[hi])
    else:
        b = int(SIZES[a - 1])
        code = _append(code, 1 + a)
        c_h += b
        act = _select(M, r_prefix, M.pre_sid[d4, 1 + a], r_class, mode, key, dec)
        dec += 1
        if act == FOLD:
            code = _append(code, 8)
            net, done = c_r, True
        elif act == CALL:
            code = _append(code, 6)
            c_r = c_h
            pre_done = 3 + 3 * (a - 1)
        else:
            code = _append(code, 7)
            c_r = c_h + b
            unit, raise_line = b, 5 + a
            choice = int(S.br[hi, a - 1])
    if not done and pre_done < 0:  # H faces Riemann's bet or raise
        if choice == 0:
            code = _append(code, 8)
            net, done = -c_h, True
        elif choice == 1:
            code = _append(code, 6)
            c_h = c_r
            pre_done = 1 if raise_line == L_XB2R else 4 + 3 * (a - 1)
        else:
            code = _append(code, 7)
            c_h = c_r + unit
            act = _select(M, r_prefix, M.pre_sid[d4, raise_line], r_class, mode, key, dec)
            dec += 1
            if act == FOLD:
                code = _append(code, 8)
                net, done = c_r, True
            else:
                code = _append(code, 6)
                c_r = c_h
                pre_done = 2 if raise_line == L_XB2R else 5 + 3 * (a - 1)
    info[0], info[1], info[2], info[3], info[4] = hd, -1, pre_done, code, 0
    if done:
        info[5] = used
        return net
    # ---- the draw: H's locked keep, then Riemann's House rule
    hf = np.empty(5, np.int64)
    k = 0
    for i in range(5):
        if (mask >> i) & 1:
            hf[k] = h[i]
            k += 1
    if mode == REAL:
        for i in range(hd):
            hf[k + i] = _deal(deck, n, key, 10 + i, 0)
    else:
        for i in range(hd):
            hf[k + i] = _deal(deck, n, key, 5 + i, 0)
    rmask = M.house_mask[ri]
    rf = np.empty(5, np.int64)
    k = 0
    for i in range(5):
        if (rmask >> i) & 1:
            rf[k] = r[i]
            k += 1
    rd = 5 - k
    if mode == REAL:
        for i in range(rd):
            rf[k + i] = _deal(deck, n, key, 10 + hd + i, 0)
        used = 10 + hd + rd
    else:
        for i in range(rd):
            rf[k + i] = _deal(rdeck, n, key, 5 + i, R_OFFSET)
        used = 5 + hd
    sort5(rf)
    s_h = rank5(M, hf[0], hf[1], hf[2], hf[3], hf[4])
    s_r = rank5(M, rf[0], rf[1], rf[2], rf[3], rf[4])
    info[1], info[5] = rd, used
    # ---- after the draw
    c = PRE_DONE_CONTRIB[pre_done]
    c_h, c_r = c, c
    rf_prefix = hand_hash_prefix(rf) if mode == REAL else np.uint64(0)
    r_bucket = M.bucket_by_srank[s_r]
    a = int(S.post_open[hd, rd, pre_done, s_h])
    pcode, showdown = 0, False
    if a == 0:
        pcode = _append(pcode, 1)
        act = _select(M, rf_prefix, M.post_sid[d4, rd, pre_done, L_X], r_bucket, mode, key, dec)
        dec += 1
        if act == CHECK:
            pcode = _append(pcode, 1)
            showdown = True
        else:
            pcode = _append(pcode, 3)
            c_r += RIEMANN_BET
            unit, raise_line = RIEMANN_BET, L_XB2R
            choice = int(S.post_xb2[hd, rd, pre_done, s_h])
    else:
        b = int(SIZES[a - 1])
        pcode = _append(pcode, 1 + a)
        c_h += b
        act = _select(M, rf_prefix, M.post_sid[d4, rd, pre_done, 1 + a], r_bucket, mode, key, dec)
        dec += 1
        if act == FOLD:
            pcode = _append(pcode, 8)
            net, done = c_r, True
        elif act == CALL:
            pcode = _append(pcode, 6)
            c_r = c_h
            showdown = True
        else:
            pcode = _append(pcode, 7)
            c_r = c_h + b
            unit, raise_line = b, 5 + a
            choice = int(S.post_br[hd, rd, pre_done, s_h, a - 1])
    if not done and not showdown:
        if choice == 0:
            pcode = _append(pcode, 8)
            net, done = -c_h, True
        elif choice == 1:
            pcode = _append(pcode, 6)
            c_h = c_r
            showdown = True
        else:
            pcode = _append(pcode, 7)
            c_h = c_r + unit
            act = _select(M, rf_prefix, M.post_sid[d4, rd, pre_done, raise_line], r_bucket, mode, key, dec)
            dec += 1
            if act == FOLD:
                pcode = _append(pcode, 8)
                net, done = c_r, True
            else:
                pcode = _append(pcode, 6)
                c_r = c_h
                showdown = True
    info[4] = pcode
    if showdown:
        net = c_r if s_h > s_r else (-c_h if s_h < s_r else 0)
    return net


@njit(cache=True)
def hand_key(stream_key, i):
    """The key of hand ``i`` of a stream: ``mix64(stream_key + φ (i + 1))``."""
    return mix64(stream_key + np.uint64(GOLDEN) * np.uint64(i + 1))


@njit(cache=True)
def play_detail(M, S, stream_key, first, mode, out, decks):
    """Hands ``first .. first + len(out) - 1`` one by one: ``out[i]`` gets
    :data:`DETAIL_COLUMNS`, ``decks[i]`` the shuffled deck (H's own deck in mode IND)."""
    n = M.cards.shape[0]
    info = np.zeros(6, np.int64)
    rdeck = np.empty(n, np.int64)
    for i in range(out.shape[0]):
        deck = decks[i]
        for j in range(n):
            deck[j] = M.cards[j]
            rdeck[j] = M.cards[j]
        out[i, 0] = play_hand(M, S, hand_key(stream_key, first + i), mode, deck, rdeck, info)
        for j in range(6):
            out[i, 1 + j] = info[j]


# parallel=True: blocks are independent (each writes its own row of sums)
@njit(cache=True, parallel=True)
def play_blocks(M, S, stream_key, first, n_hands, mode, sums, nets):
    """Hands ``first .. first + n_hands - 1`` (``first`` a multiple of :data:`BLOCK`), block by
    block in parallel: ``sums[b]`` (float64; the first three are integers, exact below 2**53)
    gets n, sum x, sum x^2, sum g, sum g^2, sum x g of block ``b`` (x the net, g the control
    variate of H's dealt hand, each block summed in hand order); with ``nets`` of length
    ``n_hands`` the nets too (else pass a length-0 array)."""
    n = M.cards.shape[0]
    n_blocks = (n_hands + BLOCK - 1) // BLOCK
    keep_nets = nets.shape[0] == n_hands
    for b in prange(n_blocks):
        deck = np.empty(n, np.int64)
        rdeck = np.empty(n, np.int64)
        info = np.zeros(6, np.int64)
        h = np.empty(5, np.int64)
        lo = b * BLOCK
        hi = min(lo + BLOCK, n_hands)
        sx = 0
        sxx = 0
        sg = 0.0
        sgg = 0.0
        sxg = 0.0
        for i in range(lo, hi):
            for j in range(n):
                deck[j] = M.cards[j]
            if mode == IND:
                for j in range(n):
                    rdeck[j] = M.cards[j]
            key = hand_key(stream_key, first + i)
            x = play_hand(M, S, key, mode, deck, rdeck, info)
            for j in range(5):
                h[j] = deck[j]
            sort5(h)
            g = S.g[colex(h)]
            sx += x
            sxx += x * x
            sg += g
            sgg += g * g
            sxg += x * g
            if keep_nets:
                nets[i] = x
        sums[b, 0] = hi - lo
        sums[b, 1] = sx
        sums[b, 2] = sxx
        sums[b, 3] = sg
        sums[b, 4] = sgg
        sums[b, 5] = sxg


# --------------------------------------------------------------------------- the G_ind best response as a table
@njit(cache=True, inline="always")
def _answer(f, c, r):
    """(value, choice) of fold / call / raise, ties to the earlier (as gind's maxima)."""
    best, ch = (f, 0) if f >= c else (c, 1)
    if r > best:
        return r, 2
    return best, ch


# parallel=True: public nodes are independent (each writes its own rows)
@njit(cache=True, parallel=True)
def post_policy(M, bj, start, P, put, cv, act, xb2, br):
    """The full post-draw best response of :func:`poker51.realcard.gind_kernels.post_values`
    (the same arithmetic in the same order): besides ``cv`` and the opening ``act``, H's answer
    ``xb2[n, i]`` to Riemann's bet after its check and ``br[n, i, o]`` to its raise of bet ``o``."""
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
        p = P[n]
        u_ = put[n]
        for i in range(U):
            bs = bj[i]
            below = cum[i] - cum[start[bs]]
            above = T[bs] - below - M[n, i]
            sx = 0.0
            bet_t = 0.0
            bet_w = 0.0
            rai = 0.0
            for b in range(B):
                w = T[b] if b < bs else (-T[b] if b > bs else below - above)
                sx += p[0, b, 0] * w
                pb = p[0, b, 1]
                bet_t += pb * T[b]
                bet_w += pb * w
                rai += pb * (p[1, b, 0] * (u_ + 2.0) * T[b] + p[1, b, 1] * (u_ + 4.0) * w)
            best, ch = _answer(-u_ * bet_t, (u_ + 2.0) * bet_w, rai)
            bestv = u_ * sx + best
            besta = 0
            xb2[n, i] = ch
            for o in range(4):
                z = SIZES[o] * 1.0
                fo = 0.0
                ca = 0.0
                rt = 0.0
                rw = 0.0
                rr = 0.0
                for b in range(B):
                    w = T[b] if b < bs else (-T[b] if b > bs else below - above)
                    fo += p[2 + o, b, 0] * T[b]
                    ca += p[2 + o, b, 1] * w
                    pr = p[2 + o, b, 2]
                    rt += pr * T[b]
                    rw += pr * w
                    rr += pr * (p[6 + o, b, 0] * (u_ + 2.0 * z) * T[b] + p[6 + o, b, 1] * (u_ + 3.0 * z) * w)
                v = u_ * fo + (u_ + z) * ca
                best, ch = _answer(-(u_ + z) * rt, (u_ + 2.0 * z) * rw, rr)
                br[n, i, o] = ch
                if v + best > bestv:
                    bestv = v + best
                    besta = 1 + o
            cv[n, i] = bestv
            act[n, i] = besta


@njit(cache=True)
def pre_answers(Q, fm):
    """(value, opening, xb2, br (4,)) of :func:`poker51.realcard.gind_kernels.pre_tree` with
    the answers to Riemann's bet and raises (the same arithmetic)."""
    br = np.zeros(4, np.int64)
    best, xb2 = _answer(-1.0 * fm[0], Q[1], 3.0 * fm[1] + Q[2])
    bestv = Q[0] + best
    besta = 0
    for o in range(4):
        z = SIZES[o] * 1.0
        best, ch = _answer(-(1.0 + z) * fm[6 + o], Q[4 + 3 * o], (1.0 + 2.0 * z) * fm[10 + o] + Q[5 + 3 * o])
        br[o] = ch
        v = fm[2 + o] + Q[3 + 3 * o] + best
        if v > bestv:
            bestv = v
            besta = 1 + o
    return bestv, besta, xb2, br


# parallel=True: dealt hands are independent (each writes its own entries)
@njit(cache=True, parallel=True)
def hand_answers(hands, sidx, G, Vself, keep, draws, inv_ways, fm, binom, offset, val, opening, xb2, br):
    """For every dealt hand whose ``keep`` draws a count in ``draws``: its completed-line values
    for that keep by the inclusion-exclusion of :func:`poker51.realcard.gind_kernels.hand_values`
    (the same order of operations), then :func:`pre_answers` into ``val``, ``opening``, ``xb2``
    and ``br``."""
    L = G.shape[1]
    for h in prange(hands.shape[0]):
        K = keep[h]
        d = 5 - ((K & 1) + ((K >> 1) & 1) + ((K >> 2) & 1) + ((K >> 3) & 1) + ((K >> 4) & 1))
        ok = False
        for dd in draws:
            if dd == d:
                ok = True
        if not ok:
            continue
        idx = np.empty(32, np.int64)
        subset_indices(hands[h], binom, offset, idx)
        Q = np.zeros(L)
        D = 31 ^ K
        S = D
        while True:
            T = K | S
            sign = (
                1.0
                if (((S & 1) + ((S >> 1) & 1) + ((S >> 2) & 1) + ((S >> 3) & 1) + ((S >> 4) & 1)) & 1) == 0
                else -1.0
            )
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
        v, a, x, b4 = pre_answers(Q, fm)
        val[h] = v
        opening[h] = a
        xb2[h] = x
        for o in range(4):
            br[h, o] = b4[o]


__all__ = [
    "BLOCK", "DETAIL_COLUMNS", "GOLDEN", "HumanTable", "IND", "N_SUMS", "REAL", "R_OFFSET", "U_OFFSET",
    "hand_answers", "hand_key", "mix64", "mix64_plain", "play_blocks", "play_detail", "play_hand", "post_policy",
    "pre_answers",
]  # fmt: skip
