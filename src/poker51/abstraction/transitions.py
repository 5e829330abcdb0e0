"""Exact draw distributions by inclusion–exclusion over subsets of the dealt hand.

A holder of hand ``H`` keeps ``K ⊆ H`` and draws ``d = 5 - |K|`` cards from the
``n_rest`` deck cards outside ``H`` (46 on 51 cards, 47 on 52).  Every final hand
``F`` with ``F ⊇ K`` and ``F ∩ D = ∅`` (``D = H \\ K`` the discards) is equally likely,
probability ``1 / C(n_rest, d)``.  Inclusion–exclusion over the discards::

    #{F ⊇ K, F ∩ D = ∅, bucket(F) = b} = Σ_{S ⊆ D} (-1)^{|S|} A[K ∪ S, b],
    A[T, b] = #{five-card hands F of the deck : F ⊇ T, bucket(F) = b}.

``A`` is tabulated for every subset of at most four cards (293,479 of 52 cards, indexed
by the combinatorial number system) in one pass over the five-card hands.  Summed over the
dealt hands of a class, the terms with ``|T| ≤ 3`` become a signed integer *coefficient*
on each subset (23,479 rows), contracted with ``A`` by one matrix product; the ``|T| = 4``
terms (``T = H`` minus one card) add ``A[T]`` directly, which keeps the coefficient array
small; the ``|T| = 5`` term is ``T = H`` itself, whose only superset is ``H``.

The same sum, read per final hand ``F``, is ``Σ_{T ⊆ F} coef[T]`` over all ``|T| ≤ 4``
coefficients: one pass over all five-card hands turns them into a distribution over any
function of ``F`` (:func:`final_hand_weights`, used for the final strengths).

All counts are integers; the float64 matrix products are exact because every partial
sum stays below 2**53 (at most ``8 · C(52,5)`` terms of size ``≤ C(52,5)`` per class row).

Hands passed to the kernels are sorted ascending (``poker51.cards.all_hands`` order),
so a position mask selects a sorted subset.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
from numba import get_num_threads, njit, prange

N_DECK = 52
#: number of card subsets of size 0..4 of the 52 cards
N_SUB4 = sum(comb(N_DECK, k) for k in range(5))
#: number of card subsets of size 0..3 (they come first in the index)
N_SUB3 = sum(comb(N_DECK, k) for k in range(4))
_BINOM = np.array([[comb(n, k) for k in range(6)] for n in range(N_DECK + 1)], dtype=np.int64)
_OFFSET = np.array([sum(comb(N_DECK, j) for j in range(k)) for k in range(6)], dtype=np.int64)


@njit(cache=True)
def subset_indices(hand, binom, offset, out):
    """out[m] = index of the subset of sorted ``hand`` selected by mask m (0..31); -1 for m = 31."""
    for m in range(32):
        k = 0
        idx = 0
        for i in range(5):
            if (m >> i) & 1:
                k += 1
                idx += binom[hand[i], k]
        out[m] = offset[k] + idx if k < 5 else -1


@njit(cache=True)
def _deck_hands(deck, out):
    n = deck.shape[0]
    r = 0
    for a in range(n):
        for b in range(a + 1, n):
            for c in range(b + 1, n):
                for d in range(c + 1, n):
                    for e in range(d + 1, n):
                        out[r, 0] = deck[a]
                        out[r, 1] = deck[b]
                        out[r, 2] = deck[c]
                        out[r, 3] = deck[d]
                        out[r, 4] = deck[e]
                        r += 1


def deck_hands(deck) -> np.ndarray:
    """Every five-card hand of ``deck`` as sorted rows in lexicographic order, (C(n,5), 5) int64;
    the same rows as :func:`poker51.cards.all_hands`, enumerated by a kernel."""
    deck = np.sort(np.asarray(deck, dtype=np.int64))
    out = np.empty((comb(deck.size, 5), 5), np.int64)
    _deck_hands(deck, out)
    return out


def subset_index(cards) -> int:
    """Index of a set of at most four cards in the combinatorial number system.

    >>> subset_index([]), subset_index([0]), subset_index([51]), subset_index([0, 1])
    (0, 1, 52, 53)
    """
    cs = sorted(int(c) for c in cards)
    if len(cs) > 4:
        raise ValueError("subsets of at most four cards are indexed")
    return int(_OFFSET[len(cs)] + sum(comb(c, i + 1) for i, c in enumerate(cs)))


@njit(cache=True)
def _subset_histograms(hands, labels, n_labels, binom, offset, out):
    """out[T, b] += 1 for every proper subset T of every hand with label b."""
    idx = np.empty(32, np.int64)
    for h in range(hands.shape[0]):
        subset_indices(hands[h], binom, offset, idx)
        b = labels[h]
        for m in range(31):
            out[idx[m], b] += 1


def subset_histograms(hands: np.ndarray, labels: np.ndarray, n_labels: int) -> np.ndarray:
    """``A`` (N_SUB4, n_labels) int32: for each subset T (|T| ≤ 4), the label counts of the
    hands of ``hands`` (sorted rows, the whole deck) that contain T."""
    out = np.zeros((N_SUB4, n_labels), np.int32)
    _subset_histograms(hands, np.ascontiguousarray(labels, np.int64), n_labels, _BINOM, _OFFSET, out)
    return out


def subset_histograms_plain(hands: np.ndarray, labels: np.ndarray, n_labels: int, subsets: list) -> np.ndarray:
    """Plain twin of :func:`subset_histograms` on the given subsets only (rows in that order)."""
    out = np.zeros((len(subsets), n_labels), np.int64)
    sets = [set(int(c) for c in t) for t in subsets]
    for hand, b in zip(hands.tolist(), labels.tolist()):
        hs = set(hand)
        for j, t in enumerate(sets):
            if t <= hs:
                out[j, b] += 1
    return out


@njit(cache=True)
def _class_block(hands, hand_ids, rows, keeps, n_draws, labels, A, binom, offset, coef, hist):
    """Inclusion–exclusion sums of the hands ``hand_ids``, for every draw count d.

    Row ``rows[h] * n_draws + d``: subsets T with ``keeps[h, d] ⊆ T ⊆ H``, sign
    ``(-1)^{|T \\ K|}``.  |T| ≤ 3: a coefficient ``coef[T, row]`` (contracted with ``A``
    later); |T| = 4: ``A[T]`` added to ``hist[row]`` at once (these rows are most of ``A``
    and would make the coefficient array large); T = H: its own label."""
    idx = np.empty(32, np.int64)
    n_labels = A.shape[1]
    for i in range(hand_ids.shape[0]):
        h = hand_ids[i]
        subset_indices(hands[h], binom, offset, idx)
        base = rows[h] * n_draws
        for d in range(n_draws):
            k = keeps[h, d]
            nk = (k & 1) + ((k >> 1) & 1) + ((k >> 2) & 1) + ((k >> 3) & 1) + ((k >> 4) & 1)
            for t in range(32):
                if (t & k) != k:
                    continue
                nt = (t & 1) + ((t >> 1) & 1) + ((t >> 2) & 1) + ((t >> 3) & 1) + ((t >> 4) & 1)
                sign = 1 if ((nt - nk) & 1) == 0 else -1
                if nt == 5:
                    hist[base + d, labels[h]] += sign
                elif nt == 4:
                    r = idx[t]
                    for b in range(n_labels):
                        hist[base + d, b] += sign * A[r, b]
                else:
                    coef[idx[t], base + d] += sign


# parallel=True: each thread fills its own coefficient block (no shared writes)
@njit(cache=True, parallel=True)
def _class_blocks(hands, hand_ids, rows, keeps, n_draws, labels, A, binom, offset, coef, hist):
    """:func:`_class_block` over ``coef.shape[0]`` parts of the hands, each into its own
    ``coef[j]``, ``hist[j]`` (summed by the caller): no two threads write one array."""
    n_parts = coef.shape[0]
    n = hand_ids.shape[0]
    for j in prange(n_parts):
        lo = n * j // n_parts
        hi = n * (j + 1) // n_parts
        _class_block(hands, hand_ids[lo:hi], rows, keeps, n_draws, labels, A, binom, offset, coef[j], hist[j])


def class_histograms(
    hands: np.ndarray,
    rows: np.ndarray,
    n_rows: int,
    keeps: np.ndarray,
    labels: np.ndarray,
    A: np.ndarray,
) -> np.ndarray:
    """Exact (n_rows, n_draws, n_labels) int64 counts of final-hand labels.

    ``[r, d, b]`` = Σ over hands h with ``rows[h] == r`` of the number of draws, keeping
    ``keeps[h, d]`` (a position mask), whose final hand has label b.  Divide by
    (hands in r) · C(n_rest, 5 - |keep|) for probabilities.
    """
    n_draws = keeps.shape[1]
    n_labels = A.shape[1]
    R = n_rows * n_draws
    parts = max(1, get_num_threads())
    coef = np.zeros((parts, N_SUB3, R), np.int32)
    hist = np.zeros((parts, R, n_labels), np.int64)
    hand_ids = np.arange(hands.shape[0], dtype=np.int64)
    _class_blocks(
        hands,
        hand_ids,
        np.ascontiguousarray(rows, np.int64),
        np.ascontiguousarray(keeps, np.int64),
        n_draws,
        np.ascontiguousarray(labels, np.int64),
        A,
        _BINOM,
        _OFFSET,
        coef,
        hist,
    )
    acc = coef.sum(axis=0, dtype=np.int64).astype(np.float64).T @ A[:N_SUB3].astype(np.float64)
    if np.abs(acc).max() >= 2.0**53:
        raise OverflowError("coefficient contraction left the exact range of float64")
    out = np.rint(acc).astype(np.int64) + hist.sum(axis=0)
    return out.reshape(n_rows, n_draws, n_labels)


@njit(cache=True)
def _weighted_coefficients(hands, keeps, weights, binom, offset, coef, direct):
    """coef[T] += w_h · (-1)^{|T|-|K|} for K = keeps[h] ⊆ T ⊊ H; direct[h] for T = H."""
    idx = np.empty(32, np.int64)
    for h in range(hands.shape[0]):
        subset_indices(hands[h], binom, offset, idx)
        k = keeps[h]
        w = weights[h]
        nk = (k & 1) + ((k >> 1) & 1) + ((k >> 2) & 1) + ((k >> 3) & 1) + ((k >> 4) & 1)
        for t in range(32):
            if (t & k) != k:
                continue
            nt = (t & 1) + ((t >> 1) & 1) + ((t >> 2) & 1) + ((t >> 3) & 1) + ((t >> 4) & 1)
            sw = w if ((nt - nk) & 1) == 0 else -w
            if t == 31:
                direct[h] += sw
            else:
                coef[idx[t]] += sw


# parallel=True: final hands are independent (reads only of the coefficients)
@njit(cache=True, parallel=True)
def _final_weights(hands, coef, direct, binom, offset, out):
    """out[F] = direct[F] + Σ_{T ⊊ F} coef[T], for every hand F of the deck."""
    for h in prange(hands.shape[0]):
        idx = np.empty(32, np.int64)
        subset_indices(hands[h], binom, offset, idx)
        s = direct[h]
        for m in range(31):
            s += coef[idx[m]]
        out[h] = s


def final_hand_weights(hands: np.ndarray, keeps: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Exact int64 weight of every final hand ``F`` (rows of ``hands``, the whole deck):
    Σ over dealt hands h of ``weights[h]`` × #{draws keeping ``keeps[h]`` that end in F}.

    With ``weights[h] = L / C(n_rest, d_h)`` (L a common multiple) the result is L times the
    probability mass each dealt hand's draw puts on F, summed over dealt hands.
    """
    n = hands.shape[0]
    coef = np.zeros(N_SUB4, np.int64)
    direct = np.zeros(n, np.int64)
    _weighted_coefficients(
        hands,
        np.ascontiguousarray(keeps, np.int64),
        np.ascontiguousarray(weights, np.int64),
        _BINOM,
        _OFFSET,
        coef,
        direct,
    )
    out = np.empty(n, np.int64)
    _final_weights(hands, coef, direct, _BINOM, _OFFSET, out)
    return out


# --------------------------------------------------------------------------- one hand
def hand_histogram(hand, keep_mask: int, A: np.ndarray, own_label: int) -> np.ndarray:
    """Inclusion–exclusion final-label counts for one sorted hand and keep mask (int64)."""
    hand = [int(c) for c in hand]
    if hand != sorted(hand):
        raise ValueError("hand_histogram expects a sorted hand (masks are positional)")
    out = np.zeros(A.shape[1], np.int64)
    nk = bin(keep_mask).count("1")
    for t in range(32):
        if t & keep_mask != keep_mask:
            continue
        sign = -1 if (bin(t).count("1") - nk) % 2 else 1
        if t == 31:
            out[own_label] += sign
        else:
            out += sign * A[subset_index([hand[i] for i in range(5) if (t >> i) & 1])].astype(np.int64)
    return out


def hand_histogram_brute(hand, keep_mask: int, deck, label_of, n_labels: int) -> np.ndarray:
    """Brute-force twin of :func:`hand_histogram`: every replacement enumerated.

    ``label_of`` maps an (m, 5) array of final hands to labels."""
    hand = [int(c) for c in hand]
    kept = [hand[i] for i in range(5) if (keep_mask >> i) & 1]
    rest = [c for c in deck if c not in hand]
    d = 5 - len(kept)
    finals = np.array([kept + list(add) for add in combinations(rest, d)], dtype=np.int64).reshape(-1, 5)
    labels = np.asarray(label_of(finals), dtype=np.int64)
    return np.bincount(labels, minlength=n_labels).astype(np.int64)


__all__ = [
    "deck_hands",
    "N_SUB4",
    "subset_index",
    "subset_histograms",
    "subset_histograms_plain",
    "class_histograms",
    "final_hand_weights",
    "hand_histogram",
    "hand_histogram_brute",
]
