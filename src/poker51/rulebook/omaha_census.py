"""Exact census of the Omahas: every deal of hole cards and board, counted by category.

A deal is a board of five and ``k`` hole cards from the other 47 (OG Omaha and Omaha (3
Cards): ``C(52, 5) C(47, 4) = 463,563,500,400`` deals; Omaha (5 Cards): ``C(52, 5) C(47, 5)
= 3,986,646,103,440``).  Two reductions make every deal countable in minutes:

1. **Suit isomorphism of the board.**  Permuting the four suits maps deals to deals and
   keeps every category, so the histogram of a board (over all hole sets from the other
   cards) is that of its canonical image: the least sorted board among its 24 suit
   permutations.  The 2,598,960 boards fall into 134,459 classes; each canonical board is
   counted once with the size of its class as weight (:func:`canonical_boards`).
2. **Pair and triple tables per board.**  With exactly two hole cards (7.2, 7.3, 7.5) a
   hand's best category is the largest of ``pv[i, j]`` over its hole pairs, where ``pv``
   is the best category of pair ``(i, j)`` with any three board cards (ten triples); with
   exactly three (7.4) the largest of ``tv[i, j, k]`` over its hole triples, each the best
   with any two board cards (ten pairs).  The tables are built once per board; the hole
   sets are then walked with running maxima (:func:`board_histograms`).

A five-card category is read incrementally from the rank counts (the key
``n2 + 4 n3 + 16 n4`` of :mod:`poker51.rulebook.census`), the rank mask (straights, the
wheel included) and whether the five share a suit (flush, straight flush, royal flush).

The boards are spread over the threads (``prange``); every count is an exact integer, so the
result does not depend on the number of threads.  :func:`board_histogram_plain` and
:func:`canonical_boards_plain` are the plain twins (``itertools`` and
:func:`~poker51.rulebook.reading.read_hand_plain`).

>>> boards, weights = canonical_boards()
>>> len(boards), int(weights.sum())
(134459, 2598960)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, permutations
from math import comb

import numpy as np
from numba import njit, prange, types
from numba.extending import intrinsic

from poker51.rulebook.census import DELTA, FLUSH_CATEGORY, KEY_CATEGORY, STRAIGHT_CATEGORY
from poker51.rulebook.games import CENSUS_GAMES, GAMES, N_CATEGORIES
from poker51.rulebook.reading import read_hand_plain

__all__ = [
    "OMAHA_GAMES",
    "board_histogram_plain",
    "board_histograms",
    "canonical_boards",
    "canonical_boards_plain",
    "deck_of",
    "omaha_census",
]

#: census games read with a fixed number of hole cards: (hole cards dealt, hole cards used), from the
#: rule book's games (:data:`poker51.rulebook.games.GAMES`)
OMAHA_GAMES: dict[str, tuple[int, int]] = {
    g: (GAMES[g].hole, GAMES[g].use_hole[0]) for g in CENSUS_GAMES if len(GAMES[g].use_hole) == 1
}


def deck_of(ranks: Sequence[int] | None = None) -> np.ndarray:
    """All four suits of ``ranks`` (default: all 13), ascending card ints: a suit-symmetric deck."""
    rs = sorted({int(r) for r in (range(13) if ranks is None else ranks)})
    if not rs or rs[0] < 0 or rs[-1] > 12:
        raise ValueError("ranks are 0..12")
    return np.array([4 * r + s for r in rs for s in range(4)], dtype=np.int64)


# --------------------------------------------------------------------------- canonical boards
@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an int64 (LLVM ``ctpop``)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@njit(cache=True)
def _board_keys(deck, out):
    """``out[i]`` = suit-isomorphism key of the i-th board of ``deck`` (lexicographic order):
    its four per-suit rank masks, sorted, packed 13 bits each."""
    n = deck.shape[0]
    sm = np.zeros(4, np.int64)
    i = 0
    for a in range(n - 4):
        for b in range(a + 1, n - 3):
            for c in range(b + 1, n - 2):
                for d in range(c + 1, n - 1):
                    for e in range(d + 1, n):
                        sm[:] = 0
                        for x in (deck[a], deck[b], deck[c], deck[d], deck[e]):
                            sm[x & 3] |= 1 << (x >> 2)
                        w0, w1, w2, w3 = min(sm[0], sm[1]), max(sm[0], sm[1]), min(sm[2], sm[3]), max(sm[2], sm[3])
                        lo, x1 = min(w0, w2), max(w0, w2)  # a sorting network of four
                        x2, hi = min(w1, w3), max(w1, w3)
                        mid0, mid1 = min(x1, x2), max(x1, x2)
                        out[i] = (((hi << 13 | mid1) << 13) | mid0) << 13 | lo
                        i += 1


def _board_of_key(key: int) -> tuple[int, ...]:
    """The representative of a key: suit s (0..3) holds the s-th largest rank mask."""
    masks = [(key >> (13 * j)) & 0x1FFF for j in range(4)][::-1]  # largest first
    return tuple(sorted(4 * r + s for s, m in enumerate(masks) for r in range(13) if m >> r & 1))


def canonical_boards(ranks: Sequence[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(one board per suit-isomorphism class ``(m, 5)``, class sizes ``(m,)``) of the deck of ``ranks``.

    Two boards are suit-isomorphic exactly when their multisets of per-suit rank masks agree,
    so the sorted masks are the class key; the representative gives suit ``c`` the largest
    mask, ``d`` the next, and so on.  Classes are in ascending key order.
    """
    deck = deck_of(ranks)
    keys = np.empty(comb(len(deck), 5), np.int64)
    _board_keys(deck, keys)
    uniq, weights = np.unique(keys, return_counts=True)
    boards = np.array([_board_of_key(int(k)) for k in uniq], dtype=np.int64).reshape(-1, 5)
    return boards, weights.astype(np.int64)


def canonical_boards_plain(ranks: Sequence[int] | None = None) -> dict[tuple[int, ...], int]:
    """Plain twin: ``{least sorted board of its class: class size}`` by ``itertools.permutations``."""
    out: dict[tuple[int, ...], int] = {}
    for board in combinations(deck_of(ranks).tolist(), 5):
        canon = min(tuple(sorted((c & ~3) | p[c & 3] for c in board)) for p in permutations(range(4)))
        out[canon] = out.get(canon, 0) + 1
    return out


# --------------------------------------------------------------------------- per-board kernels
@njit(cache=True)
def _cumulate(rows):
    """Turn exact-level bitsets into at-least-level ones: ``rows[x, v] |= rows[x, v + 1]``, top down."""
    for x in range(rows.shape[0]):
        for v in range(N_CATEGORIES - 2, -1, -1):
            rows[x, v] |= rows[x, v + 1]


@njit(cache=True, inline="always")
def _cat5(key, mask, suit, cnt_x, rank_x, suit_x, cnt_y, rank_y, suit_y):
    """Category of a counted three-card part (``key``, ``mask``, common ``suit`` or -1) plus
    two cards x and y (rank, suit, and how many of its rank the part holds)."""
    k = key + DELTA[cnt_x] + DELTA[cnt_y + (1 if rank_y == rank_x else 0)]
    m = mask | (1 << rank_x) | (1 << rank_y)
    if suit >= 0 and suit_x == suit and suit_y == suit:
        return FLUSH_CATEGORY[m]
    return max(KEY_CATEGORY[k], STRAIGHT_CATEGORY[m])


@njit(cache=True, inline="always")
def _flush_over(psuit, pmask, suit, mask, v):
    """The larger of ``v`` and the flush-type category of the hole cards of rank mask ``mask``, all of
    ``suit``, with each board part ``p`` of that suit (``psuit[p]``; ranks ``pmask[p]``).

    Five cards of one suit have five ranks, so their flush-type category (flush or better) is at
    least what their ranks alone give (a straight or a high card): a hand's value is the largest
    of its ranks' value (the same for every suit) and, where its cards share a suit with a board
    part, that part's flush category.
    """
    for p in range(psuit.shape[0]):
        if psuit[p] == suit:
            f = FLUSH_CATEGORY[mask | pmask[p]]
            if f > v:
                v = f
    return v


@njit(cache=True)
def _pair_bits(board, rest, bits):
    """``bits[i, v]`` = the rest positions j whose pair with i and three board cards reaches
    category v or more: the pair value ``pv[i, j]`` is the largest v with bit j of ``bits[i, v]``."""
    r = rest.shape[0]
    tkey = np.zeros(10, np.int64)
    tmask = np.zeros(10, np.int64)
    tsuit = np.zeros(10, np.int64)
    tcnt = np.zeros((10, 13), np.int64)
    t = 0
    for t0 in range(3):
        for t1 in range(t0 + 1, 4):
            for t2 in range(t1 + 1, 5):
                for c in (board[t0], board[t1], board[t2]):
                    tkey[t] += DELTA[tcnt[t, c >> 2]]
                    tcnt[t, c >> 2] += 1
                    tmask[t] |= 1 << (c >> 2)
                s = board[t0] & 3
                tsuit[t] = s if (board[t1] & 3) == s and (board[t2] & 3) == s else -1
                t += 1
    # outside a flush a pair's value depends on its two ranks only: read once per rank pair
    nf = np.full((13, 13), -1, np.int64)
    for i in range(r - 1):
        ri, si = rest[i] >> 2, rest[i] & 3
        for j in range(i + 1, r):
            rj, sj = rest[j] >> 2, rest[j] & 3
            v = nf[ri, rj]
            if v < 0:
                v = 0
                for t in range(10):
                    x = _cat5(tkey[t], tmask[t], -1, tcnt[t, ri], ri, si, tcnt[t, rj], rj, sj)
                    if x > v:
                        v = x
                nf[ri, rj] = v
            if si == sj:
                v = _flush_over(tsuit, tmask, si, (1 << ri) | (1 << rj), v)
            bits[i, v] |= 1 << j
            bits[j, v] |= 1 << i
    _cumulate(bits.reshape(-1, N_CATEGORIES))


@njit(cache=True)
def _triple_bits(board, rest, bits):
    """``bits[x, y, v]`` (x < y) = the rest positions z whose triple with x, y and two board cards
    reaches category v or more: ``tv`` of the module docstring, one bit per third card."""
    r = rest.shape[0]
    pr0 = np.zeros(10, np.int64)
    pr1 = np.zeros(10, np.int64)
    ps0 = np.zeros(10, np.int64)
    ps1 = np.zeros(10, np.int64)
    qsuit = np.zeros(10, np.int64)  # a board pair's common suit or -1, and its rank mask (for _flush_over)
    qmask = np.zeros(10, np.int64)
    p = 0
    for p0 in range(4):
        for p1 in range(p0 + 1, 5):
            pr0[p], ps0[p] = board[p0] >> 2, board[p0] & 3
            pr1[p], ps1[p] = board[p1] >> 2, board[p1] & 3
            qsuit[p] = ps0[p] if ps0[p] == ps1[p] else -1
            qmask[p] = (1 << pr0[p]) | (1 << pr1[p])
            p += 1
    # outside a flush a triple's value depends on its three ranks only: read once per rank triple
    nf = np.full((13, 13, 13), -1, np.int64)
    cnt = np.zeros(13, np.int64)
    for i in range(r - 2):
        ci = rest[i]
        k1 = DELTA[cnt[ci >> 2]]
        cnt[ci >> 2] += 1
        for j in range(i + 1, r - 1):
            cj = rest[j]
            k2 = k1 + DELTA[cnt[cj >> 2]]
            cnt[cj >> 2] += 1
            s2 = ci & 3 if (cj & 3) == (ci & 3) else -1
            m2 = (1 << (ci >> 2)) | (1 << (cj >> 2))
            nf2 = nf[ci >> 2, cj >> 2]
            for k in range(j + 1, r):
                ck = rest[k]
                rk = ck >> 2
                v = nf2[rk]
                if v < 0:
                    k3 = k2 + DELTA[cnt[rk]]
                    cnt[rk] += 1
                    m3 = m2 | (1 << rk)
                    v = 0
                    for q in range(10):
                        x = _cat5(k3, m3, -1, cnt[pr0[q]], pr0[q], ps0[q], cnt[pr1[q]], pr1[q], ps1[q])
                        if x > v:
                            v = x
                    cnt[rk] -= 1
                    nf2[rk] = v
                if s2 >= 0 and (ck & 3) == s2:
                    v = _flush_over(qsuit, qmask, s2, m2 | (1 << rk), v)
                bits[i, j, v] |= 1 << k
                bits[i, k, v] |= 1 << j
                bits[j, k, v] |= 1 << i
            cnt[cj >> 2] -= 1
        cnt[ci >> 2] -= 1
    _cumulate(bits.reshape(-1, N_CATEGORIES))


@njit(cache=True)
def _row_tops(flat):
    """``tops[x]`` = the highest level v with a bit in row ``flat[x, v]`` (0 if none).

    Rows are at-least sets (:func:`_cumulate`): above its top a row is empty, so a hole set's
    levels above the largest top of its rows hold none of its pairs or triples and are skipped.
    """
    tops = np.zeros(flat.shape[0], np.int64)
    for x in range(flat.shape[0]):
        for v in range(N_CATEGORIES - 1, 0, -1):
            if flat[x, v]:
                tops[x] = v
                break
    return tops


@njit(cache=True, inline="always")
def _count_above(q, extra, d, above, n_above, m, top, hist):
    """Add the ``n_above`` hole sets ``(..., d, e)``, ``e`` in ``above``, to ``hist``.

    A set's value is the largest of ``m`` (its cards before ``d``), the highest level v with
    bit ``d`` in ``q[v]`` (pairs with ``d``) and the highest v with bit ``e`` in
    ``q[v] | extra[v]``.  Levels are walked down from ``top``; ``ge`` counts the cards e at
    level v or more.
    """
    ge_next = 0
    for v in range(top, m, -1):
        if (q[v] >> d) & 1:
            hist[v] += n_above - ge_next
            return
        ge = popcount((q[v] | extra[v]) & above)
        hist[v] += ge - ge_next
        ge_next = ge
    hist[m] += n_above - ge_next


@njit(cache=True)
def _holes_pairs(bits, r, hole, hist):
    """Every hole set of 4 or 5 rest cards, best over its pairs (``bits`` of :func:`_pair_bits`)."""
    full = (1 << r) - 1
    tops = _row_tops(bits)
    qab = np.zeros(N_CATEGORIES, np.int64)
    q = np.zeros(N_CATEGORIES, np.int64)
    for a in range(r - hole + 1):
        for b in range(a + 1, r - hole + 2):
            tab = max(tops[a], tops[b])
            mab = 0
            for v in range(tops[a], 0, -1):
                if (bits[a, v] >> b) & 1:
                    mab = v
                    break
            for v in range(N_CATEGORIES):
                qab[v] = bits[a, v] | bits[b, v]
            for c in range(b + 1, r - hole + 3):
                tabc = max(tab, tops[c])
                mabc = mab
                for v in range(tab, mab, -1):
                    if (qab[v] >> c) & 1:
                        mabc = v
                        break
                if hole == 4:
                    # sets (a, b, c, d): q holds a's and b's pairs, extra c's
                    above = full & ~((1 << (c + 1)) - 1)
                    _count_above(qab, bits[c], r, above, r - 1 - c, mabc, tabc, hist)
                else:
                    for v in range(N_CATEGORIES):
                        q[v] = qab[v] | bits[c, v]
                    for d in range(c + 1, r - 1):
                        above = full & ~((1 << (d + 1)) - 1)
                        _count_above(q, bits[d], d, above, r - 1 - d, mabc, max(tabc, tops[d]), hist)


@njit(cache=True)
def _holes_triples(bits, r, hist):
    """Every hole set of 4 rest cards, best over its triples (``bits`` of :func:`_triple_bits`)."""
    full = (1 << r) - 1
    tops = _row_tops(bits.reshape(-1, N_CATEGORIES)).reshape(r, r)
    q = np.zeros(N_CATEGORIES, np.int64)
    for a in range(r - 3):
        for b in range(a + 1, r - 2):
            for c in range(b + 1, r - 1):
                top = max(tops[a, b], tops[a, c], tops[b, c])
                m = 0
                for v in range(tops[a, b], 0, -1):
                    if (bits[a, b, v] >> c) & 1:
                        m = v
                        break
                for v in range(m + 1, top + 1):
                    q[v] = bits[a, b, v] | bits[a, c, v]
                above = full & ~((1 << (c + 1)) - 1)
                _count_above(q, bits[b, c], r, above, r - 1 - c, m, top, hist)


@njit(cache=True)
def _one_board(board, deck, hole, use, hist):
    r = deck.shape[0] - 5
    rest = np.empty(r, np.int64)
    k = 0
    for c in deck:
        if c != board[0] and c != board[1] and c != board[2] and c != board[3] and c != board[4]:
            rest[k] = c
            k += 1
    if use == 2:
        bits = np.zeros((r, N_CATEGORIES), np.int64)
        _pair_bits(board, rest, bits)
        _holes_pairs(bits, r, hole, hist)
    else:
        tbits = np.zeros((r, r, N_CATEGORIES), np.int64)
        _triple_bits(board, rest, tbits)
        _holes_triples(tbits, r, hist)


@njit(cache=True, parallel=True)
def _boards_kernel(boards, deck, hole, use, out):
    """``out[i]`` = category histogram over every hole set of the i-th board."""
    for i in prange(boards.shape[0]):
        _one_board(boards[i], deck, hole, use, out[i])


def board_histograms(game: str, boards: np.ndarray, ranks: Sequence[int] | None = None) -> np.ndarray:
    """Category histograms ``(len(boards), 10)`` of ``game`` over every hole set of each board,
    the hole cards drawn from the deck of ``ranks`` minus the board."""
    hole, use = OMAHA_GAMES[game]
    boards = np.ascontiguousarray(boards, dtype=np.int64)
    out = np.zeros((boards.shape[0], N_CATEGORIES), np.int64)
    _boards_kernel(boards, deck_of(ranks), hole, use, out)
    return out


def board_histogram_plain(game: str, board: Sequence[int], ranks: Sequence[int] | None = None) -> np.ndarray:
    """Plain twin of one row of :func:`board_histograms`: every hole set read by the rule."""
    hole, _ = OMAHA_GAMES[game]
    rest = [c for c in deck_of(ranks).tolist() if c not in set(board)]
    out = np.zeros(N_CATEGORIES, np.int64)
    for h in combinations(rest, hole):
        out[read_hand_plain(game, list(h), list(board)).category] += 1
    return out


def omaha_census(
    game: str, ranks: Sequence[int] | None = None, chunk: int = 4096, progress: bool = False
) -> np.ndarray:
    """Exact category counts (``int64[10]``) of ``game`` over every deal of the deck of ``ranks``."""
    if game not in OMAHA_GAMES:
        raise ValueError(f"no exact Omaha census for {game!r} (choose from {', '.join(OMAHA_GAMES)})")
    from tqdm import tqdm

    boards, weights = canonical_boards(ranks)
    total = np.zeros(N_CATEGORIES, np.int64)
    bar = tqdm(total=len(boards), desc=f"census {GAMES[game].title}", unit="board", disable=not progress)
    for start in range(0, len(boards), chunk):
        h = board_histograms(game, boards[start : start + chunk], ranks)
        total += (h * weights[start : start + chunk, None]).sum(axis=0)
        bar.update(len(h))
    bar.close()
    return total
