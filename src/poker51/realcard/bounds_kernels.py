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

The kernels read the human table and Riemann's per-hand data packed (:class:`PlayTable`,
:func:`pack`): one word per dealt hand and one per post-draw spot, so each step is one look-up
in memory that does not fit the cache; and :func:`play_hand` is inlined into the block loop
(a call with the model and the table as arguments costs about as much as the hand itself).

Plain twin: :func:`poker51.realcard.bounds_plain.play_hand_plain` (Python, the same streams);
the tests compare it with this kernel hand by hand and with the engine.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

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


class PlayTable(NamedTuple):
    """What the play reads per hand, packed so that one look-up (one cache line) serves each
    step (:func:`pack`): ``pre`` (2 x colex,) float64, at ``2 i`` the word of dealt hand ``i``
    (keep bits 0-4, opening bits 5-7, ``xb2`` bits 8-9, ``br[o]`` bits 10 + 2o) and at ``2 i + 1``
    its control variate ``g``; ``post`` (6, 5, 15, U) uint16, the post-draw word (opening bits
    0-2, ``xb2`` bits 3-4, ``br[o]`` bits 5 + 2o); ``riemann`` (colex,) int32, Riemann's class of
    the dealt hand (bits 0-15) and its House keep mask (bits 16-20)."""

    pre: np.ndarray
    post: np.ndarray
    riemann: np.ndarray


def pack(M, S: HumanTable) -> PlayTable:
    """The :class:`PlayTable` of the human table ``S`` against the model ``M`` (exact: every field
    fits its bits, the words below 2**18 are exact in float64)."""
    br = np.asarray(S.br, np.int64)
    word = (np.asarray(S.keep, np.int64) | np.asarray(S.open, np.int64) << 5 | np.asarray(S.xb2, np.int64) << 8
            | br[:, 0] << 10 | br[:, 1] << 12 | br[:, 2] << 14 | br[:, 3] << 16)  # fmt: skip
    pre = np.empty(2 * word.size)
    pre[0::2] = word
    pre[1::2] = S.g
    pbr = np.asarray(S.post_br, np.int64)
    post = (np.asarray(S.post_open, np.int64) | np.asarray(S.post_xb2, np.int64) << 3 | pbr[..., 0] << 5
            | pbr[..., 1] << 7 | pbr[..., 2] << 9 | pbr[..., 3] << 11)  # fmt: skip
    cls = np.asarray(M.class_id, np.int64)
    riemann = np.where(cls >= 0, cls, 0xFFFF) | np.asarray(M.house_mask, np.int64) << 16
    return PlayTable(pre, np.ascontiguousarray(post, np.uint16), riemann.astype(np.int32))


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


# inline: the play's hot path (see play_hand)
@njit(cache=True, inline="always")
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
# inline="always": called up to four times a hand with the model (see play_hand)
@njit(cache=True, inline="always")
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
# inline="always" (and _select's, and the caller's scratch ``work``): a call of a compiled
# function with the model and the table (about thirty arrays) increments and decrements every
# array's reference count, atomically, on every hand and from every thread, and np.empty
# allocates.  Measured on the smoke standard p = 0.5 table, G_ind strategy, one thread
# (2,097,152 hands, best of five, byte-identical sums): 1.05 million hands per CPU second with
# play_hand inlined only, 1.17 million with the scratch rows, 2.02 million with _select inlined
# too (2026-12-04, benchmarks/bench_bounds.py gives 3.0 million hands/s on 2 threads)
@njit(cache=True, inline="always")
def play_hand(M, T, key, mode, deck, rdeck, info, work):
    """Play one hand with key ``key`` (module docstring); ``deck`` (and ``rdeck`` in mode IND)
    hold the variant's cards ascending on entry and are shuffled in place.  Returns H's net
    jbits; ``info`` gets :data:`DETAIL_COLUMNS` [1:] (line codes: 4-bit tokens of
    :data:`poker51.realcard.lbr_kernels.TOKENS`) and at 6 H's dealt hand's colex index; ``work``
    (4, 5) int64 scratch rows for the two dealt and the two final hands (the caller's, so a hand
    allocates nothing)."""
    n = deck.shape[0]
    h = work[0]
    r = work[1]
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
    word = int(T.pre[2 * hi])
    mask = word & 31
    hd = 5 - ((mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1) + ((mask >> 3) & 1) + ((mask >> 4) & 1))
    d4 = min(hd, 4)
    a = (word >> 5) & 7
    r_prefix = hand_hash_prefix(r) if mode == REAL else np.uint64(0)
    rword = int(T.riemann[ri])
    r_class = rword & 0xFFFF
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
            choice = (word >> 8) & 3
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
            choice = (word >> (8 + 2 * a)) & 3
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
    info[0], info[1], info[2], info[3], info[4], info[6] = hd, -1, pre_done, code, 0, hi
    if done:
        info[5] = used
        return net
    # ---- the draw: H's locked keep, then Riemann's House rule
    hf = work[2]
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
    rmask = rword >> 16
    rf = work[3]
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
    pword = int(T.post[hd, rd, pre_done, s_h])
    a = pword & 7
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
            choice = (pword >> 3) & 3
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
            choice = (pword >> (3 + 2 * a)) & 3
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
def play_detail(M, T, stream_key, first, mode, out, decks):
    """Hands ``first .. first + len(out) - 1`` one by one: ``out[i]`` gets
    :data:`DETAIL_COLUMNS`, ``decks[i]`` the shuffled deck (H's own deck in mode IND)."""
    n = M.cards.shape[0]
    info = np.zeros(7, np.int64)
    work = np.empty((4, 5), np.int64)
    rdeck = np.empty(n, np.int64)
    for i in range(out.shape[0]):
        deck = decks[i]
        for j in range(n):
            deck[j] = M.cards[j]
            rdeck[j] = M.cards[j]
        out[i, 0] = play_hand(M, T, hand_key(stream_key, first + i), mode, deck, rdeck, info, work)
        for j in range(6):
            out[i, 1 + j] = info[j]


# parallel=True: blocks are independent (each writes its own row of sums)
@njit(cache=True, parallel=True)
def play_blocks(M, T, stream_key, first, n_hands, mode, sums, nets):
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
        info = np.zeros(7, np.int64)
        work = np.empty((4, 5), np.int64)
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
            x = play_hand(M, T, key, mode, deck, rdeck, info, work)
            g = T.pre[2 * info[6] + 1]
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


__all__ = [
    "BLOCK", "DETAIL_COLUMNS", "GOLDEN", "HumanTable", "IND", "N_SUMS", "PlayTable", "REAL", "R_OFFSET", "U_OFFSET",
    "hand_key", "pack", "mix64", "mix64_plain", "play_blocks", "play_detail", "play_hand",
]  # fmt: skip
