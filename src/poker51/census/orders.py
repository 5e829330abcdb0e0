"""Category-order search: which rankings of the hand categories are rarity-consistent.

With a marker card a hand can reach several categories (its *reachable mask*, a
bitmask over the category ids of :data:`poker51.hands.evaluate.CATEGORIES`; a hand
without the marker reaches exactly one).  Under a category order
``c_1 > c_2 > ... > c_n`` (best first) a hand takes the best category it can reach
*in that order*, so the count of the k-th category is the number of hands whose mask
contains ``c_k`` and avoids ``c_1 .. c_{k-1}``.  With the table

    T[S, c] = #hands whose mask contains c and is disjoint from the set S

that count is ``T[{c_1..c_{k-1}}, c_k]``: one lookup per category, so a depth-first
walk recounts all n! orders (10! = 3,628,800) in milliseconds.  An order is
*rarity-consistent* when every higher category is strictly rarer
(``count(c_1) < count(c_2) < ...``), or *consistent with ties* when the counts are
non-decreasing down the order (rule card, "Exact counts over every hand"; the
wild-card paradox of S. Gadbois, Mathematics Magazine 69, 1996).

>>> counts = np.zeros(8, np.int64)          # three categories 0, 1, 2
>>> counts[0b001], counts[0b010], counts[0b100], counts[0b011] = 7, 2, 1, 4
>>> order_counts(counts, (2, 1, 0))          # 2 best: the 0b011 hands read as 1
{2: 1, 1: 6, 0: 7}
>>> order_counts(counts, (2, 0, 1))          # 0 above 1: they read as 0
{2: 1, 0: 11, 1: 2}
>>> res = search_orders(counts, (0, 1, 2))
>>> res.n_orders, res.n_strict, res.strict_orders
(6, 1, [(2, 1, 0)])
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from numba import njit

from poker51.census.count import N_CATEGORIES, DeckCensus, category_names
from poker51.io import canonical_json


def reach_table(mask_counts: np.ndarray) -> np.ndarray:
    """``T[S, c]`` (shape (2**m, m), int64) from hand counts per reachable mask (length 2**m).

    For each category c, ``f_c(mask) = count[mask]`` if c is in mask; then
    ``T[S, c] = sum of f_c over masks inside the complement of S``: a subset-sum
    (zeta) transform, m passes over 2**m entries.
    """
    counts = np.asarray(mask_counts, dtype=np.int64)
    n_masks = counts.shape[0]
    m = n_masks.bit_length() - 1
    if 1 << m != n_masks:
        raise ValueError(f"mask counts must have a power-of-two length, got {n_masks}")
    idx = np.arange(n_masks)
    table = np.zeros((n_masks, m), np.int64)
    for c in range(m):
        g = np.where(idx >> c & 1, counts, 0)
        for i in range(m):
            has = (idx >> i & 1).astype(bool)
            g[has] += g[idx[has] ^ (1 << i)]
        table[:, c] = g[~idx & (n_masks - 1)]
    return table


def order_counts(mask_counts: np.ndarray, order) -> dict[int, int]:
    """Brute-force recount: each mask's hands go to the first category of ``order`` it contains.

    ``order`` lists category ids best first.  A mask containing none of them is an
    error (those hands would have no category).
    """
    counts = np.asarray(mask_counts, dtype=np.int64)
    out = {int(c): 0 for c in order}
    for mask in np.flatnonzero(counts):
        for c in order:
            if mask >> c & 1:
                out[int(c)] += int(counts[mask])
                break
        else:
            raise ValueError(f"mask {mask:#b} reaches none of the categories {tuple(order)}")
    return out


def order_counts_table(table: np.ndarray, order) -> dict[int, int]:
    """The same counts read from :func:`reach_table`: ``T[placed so far, c_k]``."""
    out, placed = {}, 0
    for c in order:
        out[int(c)] = int(table[placed, c])
        placed |= 1 << int(c)
    return out


@njit(cache=True)
def _search(table, cats, strict_out, ties_out):
    """Depth-first walk over every order of ``cats`` (best first), no pruning.

    Returns (orders visited, strict count, ties count); the first rows of
    ``strict_out`` / ``ties_out`` receive the consistent orders (as many as fit).
    The two last categories of an order are placed together (one leaf each way).
    """
    n = cats.shape[0]
    allowed = 0
    for c in cats:
        allowed |= 1 << c
    log2 = np.zeros(allowed + 1, np.int64)  # index of a single set bit
    for b in range(64):
        if (1 << b) > allowed:
            break
        log2[1 << b] = b
    remaining = np.zeros(n + 1, np.int64)
    placed = np.zeros(n + 1, np.int64)
    prev = np.zeros(n + 1, np.int64)
    strict_ok = np.zeros(n + 1, np.bool_)
    ties_ok = np.zeros(n + 1, np.bool_)
    chosen = np.zeros(n, np.int64)
    n_orders = 0
    n_strict = 0
    n_ties = 0
    if n == 1:
        if strict_out.shape[0] > 0:
            strict_out[0, 0] = cats[0]
        if ties_out.shape[0] > 0:
            ties_out[0, 0] = cats[0]
        return 1, 1, 1
    remaining[0] = allowed
    prev[0] = -1
    strict_ok[0] = True
    ties_ok[0] = True
    depth = 0
    while depth >= 0:
        rem = remaining[depth]
        if rem == 0:
            depth -= 1
            continue
        low = rem & -rem
        remaining[depth] = rem ^ low
        c = log2[low]
        chosen[depth] = c
        here = placed[depth]
        v = table[here, c]
        s = strict_ok[depth] and v > prev[depth]
        t = ties_ok[depth] and v >= prev[depth]
        if depth == n - 2:
            last_bit = allowed & ~(here | low)
            last = log2[last_bit]
            w = table[here | low, last]
            n_orders += 1
            if s and w > v:
                if n_strict < strict_out.shape[0]:
                    for k in range(n - 1):
                        strict_out[n_strict, k] = chosen[k]
                    strict_out[n_strict, n - 1] = last
                n_strict += 1
            if t and w >= v:
                if n_ties < ties_out.shape[0]:
                    for k in range(n - 1):
                        ties_out[n_ties, k] = chosen[k]
                    ties_out[n_ties, n - 1] = last
                n_ties += 1
        else:
            placed[depth + 1] = here | low
            remaining[depth + 1] = allowed & ~(here | low)
            prev[depth + 1] = v
            strict_ok[depth + 1] = s
            ties_ok[depth + 1] = t
            depth += 1
    return n_orders, n_strict, n_ties


@dataclass(frozen=True)
class OrderSearch:
    """Result of :func:`search_orders`; orders are tuples of category ids, best first."""

    categories: tuple[int, ...]
    n_orders: int
    n_strict: int
    n_ties: int
    strict_orders: list[tuple[int, ...]] = field(default_factory=list)
    ties_orders: list[tuple[int, ...]] = field(default_factory=list)


def search_orders(mask_counts: np.ndarray, categories, keep: int = 100) -> OrderSearch:
    """Recount every order of ``categories`` and list the rarity-consistent ones.

    ``mask_counts[mask]`` is the number of hands with that reachable mask; every
    hand must reach at least one of ``categories``.  Up to ``keep`` consistent
    orders of each kind are returned (all of them are counted).
    """
    counts = np.asarray(mask_counts, dtype=np.int64)
    cats = np.asarray(sorted({int(c) for c in categories}), dtype=np.int64)
    if len(cats) == 0 or cats[0] < 0 or (1 << int(cats[-1])) >= counts.shape[0]:
        raise ValueError(f"categories {tuple(categories)} must be distinct ids below log2({counts.shape[0]})")
    allowed = int(np.bitwise_or.reduce(1 << cats))
    stray = [m for m in np.flatnonzero(counts) if not m & allowed]
    if stray:
        raise ValueError(f"hands with mask {stray[0]:#b} reach none of the categories searched")
    table = reach_table(counts)
    strict_out = np.zeros((keep, len(cats)), np.int64)
    ties_out = np.zeros((keep, len(cats)), np.int64)
    n_orders, n_strict, n_ties = _search(table, cats, strict_out, ties_out)
    return OrderSearch(
        categories=tuple(int(c) for c in cats),
        n_orders=int(n_orders),
        n_strict=int(n_strict),
        n_ties=int(n_ties),
        strict_orders=[tuple(int(c) for c in row) for row in strict_out[: min(n_strict, keep)]],
        ties_orders=[tuple(int(c) for c in row) for row in ties_out[: min(n_ties, keep)]],
    )


# --------------------------------------------------------------------------- decks
def searched_categories(result: DeckCensus) -> tuple[int, ...]:
    """Categories some hand of the deck can reach: the ones an order search ranks.

    Ten for wild and bug, nine (no five of a kind) for the other decks.
    """
    counts = result.mask_counts()
    reached = 0
    for mask in np.flatnonzero(counts):
        reached |= int(mask)
    return tuple(c for c in range(N_CATEGORIES) if reached >> c & 1)


@functools.lru_cache(maxsize=32)
def deck_orders(result: DeckCensus) -> OrderSearch:
    """Every order of the deck's categories recounted (:func:`search_orders`)."""
    return search_orders(result.mask_counts(), searched_categories(result))


def orders_frame(results: list[DeckCensus]) -> pd.DataFrame:
    """One row per deck: how many orders were recounted and which are rarity-consistent."""
    rows = []
    for res in results:
        s = deck_orders(res)
        rows.append(
            (
                res.deck.name,
                len(s.categories),
                s.n_orders,
                s.n_strict,
                s.n_ties,
                canonical_json([category_names(o) for o in s.strict_orders]),
                canonical_json([category_names(o) for o in s.ties_orders]),
            )
        )
    df = pd.DataFrame(
        rows,
        columns=[
            "deck",
            "n_categories",
            "orders",
            "consistent_strict",
            "consistent_ties",
            "strict_orders",
            "ties_orders",
        ],
    )
    return df.sort_values("deck", kind="stable").reset_index(drop=True)
