"""Local best response on real cards: the kernels (a whole hand per call, hands in parallel).

Source: Lisý and Bowling, "Equilibrium approximation quality of current no-limit poker bots"
(2017), adapted to Poker 51 (issue 12, section 4).  The local best response (LBR) sits in
seat H, knows its own cards and Riemann's public policy (:mod:`poker51.policies.kernels`), and at
each of its decisions:

1. **Posterior.**  Riemann's possible hands given everything LBR has seen, by *seeded
   rejection sampling*: candidates are drawn uniformly from what LBR has not seen (its dealt
   cards, and after the draw its drawn cards, are removed exactly) and kept when Riemann's
   policy, applied to them, gives every action Riemann was seen to take (the policy is
   deterministic given the cards: table + FNV hash, or v0.5's thresholds) and, after the draw,
   Riemann's public draw count.  The first ``n_particles`` kept (at most ``max_tries`` drawn)
   are an i.i.d. sample of the exact posterior, each weighing ``1 / count``.  Before the draw
   a candidate is 14 unseen cards in a uniform order (Fisher–Yates): Riemann's dealt hand,
   then the draw order (LBR's replacements first, then Riemann's House draw: the engine's
   order).  After the draw a candidate's dealt hand is uniform among the variant's hands with
   Riemann's House draw count (one holding a seen card is rejected) and its replacements are
   uniform among the cards still unseen (drawn by rejection).  A later decision of the same
   round keeps the earlier candidates that agree with the new observation and continues the
   same stream: the same sample as redrawing from the start.
2. **Draw.**  With its first action LBR locks the keep mask (of 32) that maximises its
   equity against the posterior (before any Riemann action: the prior with card removal),
   with common random numbers: every mask on the first :data:`SCREEN` candidates, then the
   :data:`FINALISTS` best on all of them; ties go to the larger mask.
3. **Action.**  The expected value of each action assuming check/call afterwards: Riemann
   answers the action by its policy (per particle), a raise by Riemann is called, and every
   later round is checked through to the showdown.  With ``c`` each player's contribution at
   the start of the round and ``W`` the particle's showdown result (1 win, 1/2 split, 0 loss;
   ``2W - 1`` the sign of the pot):

   - open: check → ``c(2W-1)`` if Riemann checks, ``(c+2)(2W-1)`` if it bets 2 (called);
     bet ``b`` → ``+c`` if it folds, ``(c+b)(2W-1)`` if it calls, ``(c+2b)(2W-1)`` if it raises;
   - facing Riemann's bet or raise (LBR has ``cH``, Riemann ``cR``, raise unit ``u``):
     fold → ``-cH``; call → ``cR(2W-1)``; raise → ``+cR`` if Riemann folds,
     ``(cR+u)(2W-1)`` if it calls.

   LBR plays the highest mean (ties: check before bets, smaller bets first; fold, call, raise).
   With an empty posterior (no candidate kept in ``max_tries``) it checks or calls; the hand
   counts the fallback.

The random numbers are a counter-based stream: uniform ``t`` of candidate ``j`` of stream
``s`` (0 before the draw, 1 after it) is SplitMix64 of ``key + φ · (1 + t + 16 (j + 2^32 s))``
(``φ = 0x9E3779B97F4A7C15``) as a 53-bit double, with ``key`` the hand's (from
``SeedSequence([seed, hand])``).  A candidate is drawn by a partial Fisher–Yates shuffle of
the unseen cards in ascending order.

Stacks are deep (at least 49 jbits each: no all-in is possible), so every raise is answered.
Plain twin: :class:`poker51.realcard.lbr_plain.PlainLBR` in seat H of the engine against the
real Riemann players; the tests compare every hand.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from poker51.policies.kernels import (
    BET,
    CALL,
    CHECK,
    FOLD,
    PRE_DONE_CONTRIB,
    colex,
    post_actions,
    pre_actions,
    rank5,
    sort5,
)
from poker51.rules import ANTE, BET_SIZES, RIEMANN_BET

GOLDEN = 0x9E3779B97F4A7C15
_M64 = (1 << 64) - 1
#: H's opening sizes (:data:`poker51.rules.BET_SIZES`).  The kernels read it, the ante and Riemann's
#: bet from :mod:`poker51.rules` as module globals, which Numba freezes as constants when it compiles
SIZES = np.array(BET_SIZES, dtype=np.int64)
#: line ids of :data:`poker51.policies.kernels.R_LINES`
L_X, L_XB2R = 0, 1
#: completed pre-draw lines (:data:`poker51.policies.kernels.PRE_DONE` positions)
PD_XX, PD_XB2C, PD_XB2RC = 0, 1, 2
#: tokens of the per-hand line codes (4-bit digits, first action most significant)
TOKENS = ("", "x", "b1", "b2", "b4", "b8", "c", "r", "f")
T_X, T_C, T_R, T_F = 1, 6, 7, 8
PRE_CARDS = 14
#: the lines Riemann answers after each opening of LBR: check, bet 1, 2, 4, 8
OPEN_LINES = np.array([0, 2, 3, 4, 5], dtype=np.int64)
#: the keep choice screens every mask on this many candidates, then compares the best few on all
SCREEN, FINALISTS = 64, 4
#: columns of the per-hand output
OUT_COLUMNS = ("net", "pre_code", "post_code", "h_draw", "r_draw", "fallbacks", "min_particles")


# --------------------------------------------------------------------------- random numbers
@njit(cache=True)
def uniform(key, stream, j, t):
    """Uniform ``t`` of candidate ``j`` of ``stream`` (module docstring), in [0, 1)."""
    z = key + np.uint64(GOLDEN) * (
        np.uint64(1) + np.uint64(t) + np.uint64(16) * (np.uint64(j) + (np.uint64(stream) << np.uint64(32)))
    )
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def uniform_plain(key: int, stream: int, j: int, t: int) -> float:
    """Plain twin of :func:`uniform` in Python ints."""
    z = (int(key) + GOLDEN * (1 + t + 16 * (j + (stream << 32)))) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    z ^= z >> 31
    return (z >> 11) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def draw_cards(key, stream, j, avail, n_avail, k, out):
    """``out[:k]``: a uniform ordered sample of ``k`` of ``avail[:n_avail]`` (partial
    Fisher–Yates from :func:`uniform`; ``avail`` is restored)."""
    swaps = np.empty(k, np.int64)
    for t in range(k):
        r = t + min(int(uniform(key, stream, j, t) * (n_avail - t)), n_avail - t - 1)
        avail[t], avail[r] = avail[r], avail[t]
        swaps[t] = r
        out[t] = avail[t]
    for t in range(k - 1, -1, -1):
        r = swaps[t]
        avail[t], avail[r] = avail[r], avail[t]


# --------------------------------------------------------------------------- helpers
@njit(cache=True)
def _popcount(m):
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1) + ((m >> 4) & 1)


@njit(cache=True)
def _house(M, dealt, h, kept):
    """R's House keep of the five cards ``dealt`` (any order): ``h`` gets them sorted,
    ``kept`` the kept cards; returns how many are kept."""
    for i in range(5):
        h[i] = dealt[i]
    sort5(h)
    mask = M.house_mask[colex(h)]
    n = 0
    for i in range(5):
        if (mask >> i) & 1:
            kept[n] = h[i]
            n += 1
    return n


@njit(cache=True)
def _rank_row(M, f):
    return rank5(M, f[0], f[1], f[2], f[3], f[4])


@njit(cache=True)
def _win(sh, sr):
    return 1.0 if sh > sr else (0.5 if sh == sr else 0.0)


@njit(cache=True)
def _sorted5(x, lo, h):
    for i in range(5):
        h[i] = x[lo + i]
    sort5(h)
    return h


@njit(cache=True)
def _fill(M, f, n, x, lo):
    """Strength rank of ``f[:n]`` (the kept cards) completed by ``x[lo:lo + 5 - n]`` (written
    into ``f[n:]``).  Plain loops: a select per card (``kept[i] if n > i else ...``) mispredicts
    and cost four times as much."""
    for i in range(n, 5):
        f[i] = x[lo + i - n]
    return rank5(M, f[0], f[1], f[2], f[3], f[4])


# --------------------------------------------------------------------------- posteriors
@njit(cache=True)
def pre_extend(key, avail, n_avail, M, h_draw, obs_line, obs_act, n_obs, n_particles, max_tries, X, count, j):
    """Continue the pre-draw sample (stream 0) from candidate ``j`` with ``count`` rows of ``X``
    kept: rows are 14 cards (Riemann's dealt hand, then the draw order), kept when Riemann's
    policy gives every observed action.  Returns the new (count, j)."""
    buf = np.empty(PRE_CARDS, np.int64)
    h = np.empty(5, np.int64)
    act = np.empty(2, np.int64)
    while count < n_particles and j < max_tries:
        draw_cards(key, 0, j, avail, n_avail, PRE_CARDS, buf)
        j += 1
        if n_obs > 0:
            pre_actions(M, _sorted5(buf, 0, h), h_draw, obs_line[:n_obs], act)
            if (act[:n_obs] != obs_act[:n_obs]).any():
                continue
        X[count] = buf
        count += 1
    return count, j


@njit(cache=True)
def post_candidate(key, j, M, k, seen, h, f):
    """Candidate ``j`` of stream 1: ``h`` a dealt hand drawing ``k`` (uniform among the variant's
    hands with House draw ``k``, rejected if it holds a card LBR has seen: ``seen`` bit set) and
    ``f`` its final hand (the ``k`` replacements uniform among the cards still unseen, drawn by
    rejection; uniforms 1..15).  Both sorted; False when rejected."""
    by_draw, start, bits, cards = M.by_draw, M.draw_start, M.by_draw_mask, M.cards
    n_k = start[k + 1] - start[k]
    i = start[k] + min(int(uniform(key, 1, j, 0) * n_k), n_k - 1)
    if bits[i] & seen:
        return False
    for t in range(5):
        h[t] = by_draw[i, t]
    used = seen | bits[i]
    mask = M.house_mask[colex(h)]
    n = 0
    for t in range(5):
        if (mask >> t) & 1:
            f[n] = h[t]
            n += 1
    t = 1
    nc = cards.shape[0]
    while n < 5 and t < 16:
        c = cards[min(int(uniform(key, 1, j, t) * nc), nc - 1)]
        t += 1
        if (used >> np.uint64(c)) & np.uint64(1):
            continue
        used |= np.uint64(1) << np.uint64(c)
        f[n] = c
        n += 1
    if n < 5:
        return False
    sort5(f)
    return True


@njit(cache=True)
def post_extend(
    key, M, h_draw, r_draw, seen, pre_line, pre_act, n_pre, pre_done, obs_line, obs_act, n_obs, n_particles,
    max_tries, F, count, j,
):  # fmt: skip
    """Continue the post-draw sample (stream 1) from candidate ``j``: rows of ``F`` are
    Riemann's sorted final hands consistent with its draw count, its pre-draw actions and the
    post-draw observations.  Returns the new (count, j)."""
    h = np.empty(5, np.int64)
    f = np.empty(5, np.int64)
    act = np.empty(2, np.int64)
    while count < n_particles and j < max_tries:
        ok = post_candidate(key, j, M, r_draw, seen, h, f)
        j += 1
        if not ok:
            continue
        pre_actions(M, h, h_draw, pre_line[:n_pre], act)
        if (act[:n_pre] != pre_act[:n_pre]).any():
            continue
        if n_obs > 0:
            post_actions(M, f, h_draw, r_draw, pre_done, obs_line[:n_obs], act)
            if (act[:n_obs] != obs_act[:n_obs]).any():
                continue
        F[count] = f
        count += 1
    return count, j


@njit(cache=True)
def keep_rows(X, count, keep):
    """Move the rows ``i < count`` with ``keep[i]`` to the front of ``X``; returns how many."""
    n = 0
    for i in range(count):
        if keep[i]:
            X[n] = X[i]
            n += 1
    return n


@njit(cache=True)
def r_strengths(M, X, count):
    """``R[j, d]``: strength rank of candidate j's final hand when LBR draws d (0..5) first."""
    out = np.empty((count, 6), np.int32)
    h = np.empty(5, np.int64)
    f = np.empty(5, np.int64)
    for j in range(count):
        nk = _house(M, X[j], h, f)
        for d in range(6):
            out[j, d] = _fill(M, f, nk, X[j], 5 + d)
    return out


@njit(cache=True)
def _kept_of(hand, mask, f):
    """``f[:n]``: the cards of ``hand`` that ``mask`` keeps; returns n."""
    n = 0
    for i in range(5):
        if (mask >> i) & 1:
            f[n] = hand[i]
            n += 1
    return n


@njit(cache=True)
def pre_wins(M, hand, mask, X, count, R):
    """``W[j]``: LBR's showdown result keeping ``mask`` of ``hand`` against candidate j after
    both draws (LBR's replacements first, then Riemann's House draw; ``R`` from
    :func:`r_strengths`)."""
    W = np.empty(count)
    _pre_wins_into(M, hand, mask, X, count, R, np.empty(5, np.int64), W)
    return W


@njit(cache=True)
def _pre_wins_into(M, hand, mask, X, count, R, f, W):
    """:func:`pre_wins` into ``W[:count]`` (``f``: a five-card scratch array)."""
    n = _kept_of(hand, mask, f)
    d = 5 - n
    for j in range(count):
        W[j] = _win(_fill(M, f, n, X[j], 5), R[j, d])


@njit(cache=True)
def best_mask(M, hand, X, count, R):
    """The keep mask with the highest equity against the candidates, in two rounds: every mask
    on the first :data:`SCREEN` candidates, then the :data:`FINALISTS` best of those on all of
    them (ties: the larger mask)."""
    n1 = min(count, SCREEN)
    eq1 = np.empty(32)
    f = np.empty(5, np.int64)
    W = np.empty(count)  # the results are 0, 1/2 and 1: every sum is exact, in any order
    for mask in range(32):
        _pre_wins_into(M, hand, mask, X, n1, R, f, W)
        eq1[mask] = W[:n1].sum()
    order = np.argsort(-eq1[::-1], kind="mergesort")  # best first; ties: the larger mask
    best, best_eq = 31, -1.0
    for i in range(FINALISTS):
        mask = 31 - order[i]
        _pre_wins_into(M, hand, mask, X, count, R, f, W)
        eq = W[:count].sum()
        if eq > best_eq or (eq == best_eq and mask > best):
            best, best_eq = mask, eq
    return best


# --------------------------------------------------------------------------- choices
@njit(cache=True)
def choose_open(W, resp, c):
    """Index into (check, bet 1, 2, 4, 8) of the best opening; ``resp[j, a]`` is Riemann's
    answer to opening ``a`` with candidate j (sums compared: every mean has the same count)."""
    best, best_ev = 0, -np.inf
    for a in range(5):
        ev = 0.0
        for j in range(W.shape[0]):
            s = 2.0 * W[j] - 1.0
            r = resp[j, a]
            if a == 0:
                ev += (c + RIEMANN_BET) * s if r == BET else c * s
            else:
                b = SIZES[a - 1]
                ev += c if r == FOLD else ((c + b) * s if r == CALL else (c + 2 * b) * s)
        if ev > best_ev:
            best, best_ev = a, ev
    return best


@njit(cache=True)
def choose_facing(W, resp, c_h, c_r, unit):
    """0 fold, 1 call, 2 raise: the best answer to Riemann's bet or raise; ``resp[j]`` is
    Riemann's answer to LBR's raise with candidate j."""
    n = W.shape[0]
    ev_call, ev_raise = 0.0, 0.0
    for j in range(n):
        s = 2.0 * W[j] - 1.0
        ev_call += c_r * s
        ev_raise += c_r if resp[j] == FOLD else (c_r + unit) * s
    evs = (-c_h * float(n), ev_call, ev_raise)
    best = 0
    for a in range(1, 3):
        if evs[a] > evs[best]:
            best = a
    return best


# --------------------------------------------------------------------------- one hand
@njit(cache=True)
def _append(code, tok):
    return code * 16 + tok


@njit(cache=True)
def _facing_choice(W, resp1, c_h, c_r, unit, count):
    """LBR's answer to a bet or raise (call when the posterior is empty)."""
    if count == 0:
        return 1
    return choose_facing(W, resp1, float(c_h), float(c_r), float(unit))


@njit(cache=True)
def lbr_hand(deck, key, M, n_particles, max_tries, out):
    """Play one hand on ``deck`` (the engine's order: LBR ``deck[0:5]``, Riemann ``deck[5:10]``,
    draws from ``deck[10:]``, LBR first); write :data:`OUT_COLUMNS` into ``out``."""
    hand = deck[:5].copy()
    h = np.empty(5, np.int64)
    r_dealt = _sorted5(deck, 5, np.empty(5, np.int64))
    avail = np.empty(deck.shape[0], np.int64)
    n_av = 0
    for card in np.sort(deck):
        if card != hand[0] and card != hand[1] and card != hand[2] and card != hand[3] and card != hand[4]:
            avail[n_av] = card
            n_av += 1
    obs_line = np.zeros(2, np.int64)
    obs_act = np.zeros(2, np.int64)
    one = np.zeros(1, np.int64)
    fallbacks, min_p = 0, n_particles
    # ---- before the draw: the keep mask and the opening, against the prior
    X = np.empty((n_particles, PRE_CARDS), np.int64)
    count, j = pre_extend(key, avail, n_av, M, 0, obs_line, obs_act, 0, n_particles, max_tries, X, 0, 0)
    R = r_strengths(M, X, count)
    mask = best_mask(M, hand, X, count, R)
    hd = 5 - _popcount(mask)
    W = pre_wins(M, hand, mask, X, count, R)
    resp = np.empty((count, 5), np.int64)
    for i in range(count):
        pre_actions(M, _sorted5(X[i], 0, h), hd, OPEN_LINES, resp[i])
    a = choose_open(W, resp, float(ANTE))
    c_h, c_r, code, pre_done, net, done = ANTE, ANTE, 0, -1, 0, False
    unit, raise_line = 0, 0
    obs_line[0] = OPEN_LINES[a]
    obs_act[0] = pre_actions_one(M, r_dealt, hd, OPEN_LINES[a], one)
    if a == 0:
        code = _append(code, T_X)
        if obs_act[0] == CHECK:
            code = _append(code, T_X)
            pre_done = PD_XX
        else:
            code = _append(code, 3)
            c_r += RIEMANN_BET
            unit, raise_line = RIEMANN_BET, L_XB2R
    else:
        b = SIZES[a - 1]
        code = _append(code, 1 + a)
        c_h += b
        if obs_act[0] == FOLD:
            code = _append(code, T_F)
            net, done = c_r, True
        elif obs_act[0] == CALL:
            code = _append(code, T_C)
            c_r = c_h
            pre_done = 3 + 3 * (a - 1)
        else:
            code = _append(code, T_R)
            c_r = c_h + b
            unit, raise_line = b, 5 + a
    n_pre = 1
    if not done and pre_done < 0:  # facing Riemann's bet or raise
        count = keep_rows(X, count, resp[:count, a] == obs_act[0])
        count, j = pre_extend(key, avail, n_av, M, hd, obs_line, obs_act, 1, n_particles, max_tries, X, count, j)
        min_p = min(min_p, count)
        if count == 0:
            fallbacks += 1
        W = pre_wins(M, hand, mask, X, count, r_strengths(M, X, count))
        resp1 = np.empty(count, np.int64)
        for i in range(count):
            resp1[i] = pre_actions_one(M, _sorted5(X[i], 0, h), hd, raise_line, one)
        choice = _facing_choice(W, resp1, c_h, c_r, unit, count)
        if choice == 0:
            code = _append(code, T_F)
            net, done = -c_h, True
        elif choice == 1:
            code = _append(code, T_C)
            c_h = c_r
            pre_done = PD_XB2C if raise_line == L_XB2R else 4 + 3 * (a - 1)
        else:
            code = _append(code, T_R)
            c_h = c_r + unit
            obs_line[1] = raise_line
            obs_act[1] = pre_actions_one(M, r_dealt, hd, raise_line, one)
            n_pre = 2
            if obs_act[1] == FOLD:
                code = _append(code, T_F)
                net, done = c_r, True
            else:
                code = _append(code, T_C)
                c_r = c_h
                pre_done = PD_XB2RC if raise_line == L_XB2R else 5 + 3 * (a - 1)
    out[1], out[2], out[3], out[4] = code, 0, hd, -1
    if done:
        out[0], out[5], out[6] = net, fallbacks, min_p
        return
    # ---- the draw: LBR's locked mask, then Riemann's House rule
    hf = np.empty(5, np.int64)
    n = 0
    seen = np.uint64(0)
    for i in range(5):
        seen |= np.uint64(1) << np.uint64(hand[i])
        if (mask >> i) & 1:
            hf[n] = hand[i]
            n += 1
    for i in range(hd):
        hf[n + i] = deck[10 + i]
        seen |= np.uint64(1) << np.uint64(deck[10 + i])
    kept = np.empty(5, np.int64)
    nk = _house(M, r_dealt, h, kept)
    rd = 5 - nk
    rf = np.empty(5, np.int64)
    for i in range(nk):
        rf[i] = kept[i]
    for i in range(rd):
        rf[nk + i] = deck[10 + hd + i]
    sort5(rf)
    out[4] = rd
    s_h, s_r = rank5(M, hf[0], hf[1], hf[2], hf[3], hf[4]), rank5(M, rf[0], rf[1], rf[2], rf[3], rf[4])
    # ---- after the draw
    c = int(PRE_DONE_CONTRIB[pre_done])
    c_h, c_r = c, c
    F = np.empty((n_particles, 5), np.int64)
    post_line = np.zeros(2, np.int64)
    post_act = np.zeros(2, np.int64)
    count, j = post_extend(
        key,
        M,
        hd,
        rd,
        seen,
        obs_line,
        obs_act,
        n_pre,
        pre_done,
        post_line,
        post_act,
        0,
        n_particles,
        max_tries,
        F,
        0,
        0,
    )
    min_p = min(min_p, count)
    fallbacks += count == 0
    W = np.empty(count)
    resp = np.empty((count, 5), np.int64)
    for i in range(count):
        W[i] = _win(s_h, _rank_row(M, F[i]))
        post_actions(M, F[i], hd, rd, pre_done, OPEN_LINES, resp[i])
    a = choose_open(W, resp, float(c)) if count > 0 else 0
    post_line[0] = OPEN_LINES[a]
    post_act[0] = post_actions_one(M, rf, hd, rd, pre_done, OPEN_LINES[a], one)
    pcode, showdown = 0, False
    if a == 0:
        pcode = _append(pcode, T_X)
        if post_act[0] == CHECK:
            pcode = _append(pcode, T_X)
            showdown = True
        else:
            pcode = _append(pcode, 3)
            c_r += RIEMANN_BET
            unit, raise_line = RIEMANN_BET, L_XB2R
    else:
        b = SIZES[a - 1]
        pcode = _append(pcode, 1 + a)
        c_h += b
        if post_act[0] == FOLD:
            pcode = _append(pcode, T_F)
            net, done = c_r, True
        elif post_act[0] == CALL:
            pcode = _append(pcode, T_C)
            c_r = c_h
            showdown = True
        else:
            pcode = _append(pcode, T_R)
            c_r = c_h + b
            unit, raise_line = b, 5 + a
    if not done and not showdown:
        count = keep_rows(F, count, resp[:count, a] == post_act[0])
        count, j = post_extend(
            key, M, hd, rd, seen, obs_line, obs_act, n_pre, pre_done, post_line, post_act, 1, n_particles, max_tries,
            F, count, j,
        )  # fmt: skip
        min_p = min(min_p, count)
        if count == 0:
            fallbacks += 1
        W = np.empty(count)
        resp1 = np.empty(count, np.int64)
        for i in range(count):
            W[i] = _win(s_h, _rank_row(M, F[i]))
            resp1[i] = post_actions_one(M, F[i], hd, rd, pre_done, raise_line, one)
        choice = _facing_choice(W, resp1, c_h, c_r, unit, count)
        if choice == 0:
            pcode = _append(pcode, T_F)
            net, done = -c_h, True
        elif choice == 1:
            pcode = _append(pcode, T_C)
            c_h = c_r
            showdown = True
        else:
            pcode = _append(pcode, T_R)
            c_h = c_r + unit
            if post_actions_one(M, rf, hd, rd, pre_done, raise_line, one) == FOLD:
                pcode = _append(pcode, T_F)
                net, done = c_r, True
            else:
                pcode = _append(pcode, T_C)
                c_r = c_h
                showdown = True
    if showdown:
        net = c_r if s_h > s_r else (-c_h if s_h < s_r else 0)
    out[0], out[2], out[5], out[6] = net, pcode, fallbacks, min_p


@njit(cache=True)
def pre_actions_one(M, h, h_draw, line, one):
    """Riemann's action before the draw after one ``line`` (``one``: a length-1 scratch array)."""
    res = np.empty(1, np.int64)
    one[0] = line
    pre_actions(M, h, h_draw, one, res)
    return res[0]


@njit(cache=True)
def post_actions_one(M, f, h_draw, r_draw, pre_done, line, one):
    """Riemann's action after the draw after one ``line``."""
    res = np.empty(1, np.int64)
    one[0] = line
    post_actions(M, f, h_draw, r_draw, pre_done, one, res)
    return res[0]


@njit(cache=True)
def lbr_hands(decks, keys, M, n_particles, max_tries, out):
    """Every hand ``i`` on ``decks[i]`` with key ``keys[i]``; ``out[i]`` its :data:`OUT_COLUMNS`.
    Serial: the v0.5 policy fills a shared cache of reads (one process per run uses one core)."""
    for i in range(decks.shape[0]):
        lbr_hand(decks[i], keys[i], M, n_particles, max_tries, out[i])


def decode_line(code: int) -> str:
    """A line code as the table's tokens, e.g. ``'b8-r-c'``."""
    toks = []
    code = int(code)
    while code:
        toks.append(TOKENS[code & 15])
        code >>= 4
    return "-".join(reversed(toks))


__all__ = [
    "FINALISTS", "GOLDEN", "OPEN_LINES", "OUT_COLUMNS", "PRE_CARDS", "SCREEN", "SIZES",
    "TOKENS", "best_mask", "choose_facing", "choose_open", "decode_line", "draw_cards", "keep_rows", "lbr_hand",
    "lbr_hands", "post_candidate", "post_extend", "pre_extend", "pre_wins", "r_strengths", "uniform",
    "uniform_plain",
]  # fmt: skip
