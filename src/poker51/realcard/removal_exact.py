"""The exact best response of the human against a published Riemann table *with card removal*
between the two hands: V_real (issue 26, point 3), on decks small enough to enumerate.

**The game** is G_ind's (:mod:`poker51.realcard.gind`: Riemann plays its table's probabilities,
class before the draw, bucket after, its House draw; H picks any keep whose draw count is in
``draws``; showdowns by exact strength; deep stacks) with one deck: H's five cards, then
Riemann's five from the other ``n - 5``, then H's replacements and Riemann's from the stub
(``n - 10`` cards), disjoint.  The replacements are exchangeable: ``C(n-10, d) C(n-10-d, k) =
C(n-10, k) C(n-10-k, d)``, so who draws first does not matter (the tests' brute force lets
Riemann draw first).  A deck must hold ``10 + d + k`` cards for every H draw count ``d`` and
Riemann draw count ``k``; :func:`v_real` refuses one that does not.

Derivation
----------
Given H's dealt hand ``h``, Riemann's paths ``(g, r)`` (dealt hand, replacement) and H's new
cards have the probability ``1 / (C(n-5, 5) C(n-10, d) C(n-10-d, k(g)))`` when all are
disjoint.  At H's post-draw information set ``(h, K, f, L, k)`` the cards Riemann cannot hold
are the *dead set* ``D = h ∪ f`` (``5 + d`` cards), so Riemann's mass per strength is
``M[u] = sum_c pi(c, L) N_D[c, u] w(d, k)`` with ``N_D[c, u]`` the paths of class ``c``
avoiding ``D`` that end at strength ``u`` (:func:`~poker51.realcard.removal_kernels.
dead_counts`), and H's counterfactual value depends on ``(D, s(f), L, k)`` only.  So the
pass (:func:`~poker51.realcard.removal_kernels.real_pass`) visits every dead set once:
counts, masses, the value of every strength at each of its ``15 x |k|`` public nodes
(:func:`~poker51.realcard.removal_kernels.node_values`, prefix sums over the buckets), and
adds ``sum_k CV`` into ``Q[h, K, L]`` for each of the ``C(5 + d, 5) C(5, d)`` triples
``(h, K, f)`` with ``h ∪ f = D``.  Before the draw H's hand also changes Riemann's class
prior: the fold masses use the classes' dealt hands disjoint from ``h``
(:func:`~poker51.realcard.removal_kernels.class_counts_avoiding`).  ``V_real`` is the mean
over ``h`` of the best keep's :func:`~poker51.realcard.gind_kernels.pre_tree`.

With ``removal=False`` the same pass reads the whole deck's counts (``riemann_counts``) and
G_ind's weights ``1 / (C(n, 5) C(n-5, d) C(n-5, k))``: it is then V_ind, and the tests check it
equals :func:`poker51.realcard.gind.v_ind` (an independent algorithm).

Cost: the pass visits ``sum_d C(n, 5+d)`` dead sets; each costs its Riemann paths (dealt hands
and replacements in the ``n - 5 - d`` live cards), ``15 |k| (C U + 15 (B + U))`` for the
nodes and ``C(5+d, 5) C(5, d)`` additions of 15 values.  That is exact enumeration: right for
the tests' decks, hopeless at 51 cards (:mod:`poker51.realcard.removal_exact` ``full_deck_cost``
states by how much; ``docs/design/realcard-removal.md``).

Public names
------------
:func:`v_real` (:class:`RealResult`), :func:`check_deck`, :func:`dead_set_counts` (one dead
set's ``N_D``), :func:`suit_classes` (suit-isomorphic classes of hands on a deck with a set of
interchangeable suits), :func:`rank_profiles` (rank-count profiles of dead sets),
:func:`full_deck_cost` (the route's counts on the 51-card deck).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import permutations
from math import comb

import numpy as np

from poker51.errors import InputError
from poker51.realcard.gind import (
    N_D4,
    PRE_LINES,
    GindDeck,
    TableArrays,
    node_masses,
    pre_reach,
    riemann_counts,
    riemann_joint,
)
from poker51.realcard.gind_kernels import PUT, subset_tables
from poker51.realcard.removal_kernels import (
    best_keeps,
    class_counts_avoiding,
    colex_hand_map,
    dead_counts,
    n_dead_sets,
    real_pass,
)

ALL_DRAWS = (0, 1, 2, 3, 4, 5)


@dataclass(frozen=True)
class RealResult:
    """H's best response with card removal (or without, ``removal=False``) against one table.

    ``value`` jbits per hand (mean of ``hand_value``); per dealt hand (``GindDeck.hands``
    order) ``hand_value``, ``keep`` (position mask), ``opening`` (0 check, 1..4 bet 1, 2, 4,
    8); ``dead_sets``, ``paths`` (Riemann's paths counted over all dead sets) and ``triples``
    (H's (h, K, f) states) the work done; ``seconds`` per stage."""

    value: float
    hand_value: np.ndarray
    keep: np.ndarray
    opening: np.ndarray
    draws: tuple[int, ...]
    removal: bool
    dead_sets: int
    paths: int
    triples: int
    seconds: dict[str, float] = field(default_factory=dict)


def check_deck(gd: GindDeck, draws) -> tuple[int, ...]:
    """The sorted H draw counts, refused (one-line InputError) where the stub cannot serve them."""
    ds = tuple(sorted({int(d) for d in draws}))
    if not ds or ds[0] < 0 or ds[-1] > 5:
        raise InputError(f"H's draw counts must be a non-empty subset of 0..5, got {list(draws)}")
    k_max = int(gd.class_draw.max())
    if gd.n < 10 + ds[-1] + k_max:
        raise InputError(
            f"a {gd.n}-card deck cannot serve H drawing {ds[-1]} and Riemann drawing {k_max} "
            f"(the stub holds {gd.n - 10} cards); allow fewer H draws"
        )
    return ds


def _weights(gd: GindDeck, ks: tuple[int, ...], removal: bool) -> np.ndarray:
    """(6, |ks|) the probability of one (Riemann path, H replacement) pair per (d, k)."""
    n = gd.n
    w = np.zeros((6, len(ks)))
    for d in range(6):
        for a, k in enumerate(ks):
            if removal:
                if n - 10 - d >= k and n - 10 >= d:
                    w[d, a] = 1.0 / (comb(n - 5, 5) * comb(n - 10, d) * comb(n - 10 - d, k))
            else:
                w[d, a] = 1.0 / (comb(n, 5) * comb(n - 5, d) * comb(n - 5, k))
    return w


def dead_set_counts(gd: GindDeck, dead) -> np.ndarray:
    """(C, U) Riemann's (dealt hand, House replacement) paths avoiding the deck positions
    ``dead``, per class and final strength index (the kernel :func:`dead_counts`)."""
    dead = {int(p) for p in dead}
    comp = np.array([p for p in range(gd.n) if p not in dead], np.int64)
    binom, _ = subset_tables(gd.n)
    out = np.zeros((gd.n_classes, gd.values.size))
    dead_counts(comp, comp.size, colex_hand_map(gd.pos, binom), binom, gd.r_class, gd.r_keep, gd.class_draw,
                gd.sidx, out)  # fmt: skip
    return out


def v_real(gd: GindDeck, table: TableArrays, draws=ALL_DRAWS, removal: bool = True) -> RealResult:
    """H's exact best-response value against ``table`` with card removal (module docstring);
    ``removal=False`` gives G_ind's value by the same pass."""
    ds = check_deck(gd, draws) if removal else tuple(sorted({int(d) for d in draws}))
    sec: dict[str, float] = {}
    t0 = time.perf_counter()
    counts = riemann_counts(gd)
    ks, _, P = node_masses(gd, table, riemann_joint(gd, counts))
    reach, folds = pre_reach(table.pre)
    k_slot = np.array([ks.index(int(k)) for k in gd.class_draw], np.int64)
    binom, _ = subset_tables(gd.n)
    hand_of = colex_hand_map(gd.pos, binom)
    start = np.searchsorted(gd.bj, np.arange(gd.n_buckets + 1)).astype(np.int64)
    # pre-draw: Riemann's class prior given H's hand
    if removal:
        cc = np.zeros((gd.n_hands, gd.n_classes))
        class_counts_avoiding(gd.pos, gd.n, hand_of, binom, gd.r_class, gd.n_classes, cc)
        prior = cc / comb(gd.n - 5, 5)
    else:
        prior = np.broadcast_to(gd.class_members() / gd.n_hands, (gd.n_hands, gd.n_classes))
    fm = np.einsum("dpc,hc->hdp", folds, prior)  # (N, 5, 14)
    t1 = time.perf_counter()
    sec["setup"] = t1 - t0
    Q = np.zeros((gd.n_hands, 32, len(PRE_LINES)))
    w = _weights(gd, ks, removal)
    n_sets, n_paths, n_triples = real_pass(
        gd.n, np.array(ds, np.int64), removal, hand_of, binom, gd.pos, gd.r_class, gd.r_keep, gd.class_draw,
        gd.sidx, gd.bj, start, reach, w, k_slot, np.ascontiguousarray(P), PUT, counts.astype(np.float64), Q,
    )  # fmt: skip
    t2 = time.perf_counter()
    sec["dead_sets"] = t2 - t1
    best_val = np.full(gd.n_hands, -np.inf)
    best_keep = np.zeros(gd.n_hands, np.int64)
    best_open = np.zeros(gd.n_hands, np.int64)
    best_keeps(Q, np.ascontiguousarray(fm), np.array(ds, np.int64), best_val, best_keep, best_open)
    sec["pre_draw"] = time.perf_counter() - t2
    return RealResult(float(best_val.mean()), best_val, best_keep, best_open, ds, removal, int(n_sets),
                      int(n_paths), int(n_triples), sec)  # fmt: skip


# --------------------------------------------------------------------------- the route to 51 cards
def suit_classes(deck, free_suits=(1, 2, 3)) -> int:
    """The number of classes of five-card hands of ``deck`` (card ints ``4 * rank + suit``) under
    every permutation of the suits ``free_suits`` (the others stay put), counted by mapping each
    hand to its least image (a canonical form) and counting the distinct ones.  A permutation
    must map the deck onto itself (refused otherwise)."""
    from poker51.abstraction.transitions import deck_hands

    deck = np.sort(np.asarray(deck, np.int64))
    hands = deck_hands(deck)
    free = [int(s) for s in free_suits]
    in_deck = np.zeros(52, bool)
    in_deck[deck] = True
    best = None
    for perm in permutations(free):
        smap = np.arange(4)
        smap[free] = perm
        img = 4 * (hands // 4) + smap[hands % 4]
        if not in_deck[img].all():
            raise InputError("a suit permutation maps the deck outside itself: those suits are not interchangeable")
        img.sort(axis=1)
        key = (((img[:, 0] * 52 + img[:, 1]) * 52 + img[:, 2]) * 52 + img[:, 3]) * 52 + img[:, 4]
        best = key if best is None else np.minimum(best, key)
    assert best is not None
    return int(np.unique(best).size)


def rank_profiles(caps, sizes) -> int:
    """The number of rank-count profiles (``a_r`` dead cards of rank ``r``, ``0 <= a_r <=
    caps[r]``) of dead sets whose size is in ``sizes``: coefficients of prod_r (1 + x + .. +
    x^caps[r])."""
    poly = np.array([1], dtype=object)
    for cap in caps:
        poly = np.convolve(poly, np.ones(int(cap) + 1, dtype=object))
    return int(sum(poly[s] for s in sizes if s < poly.size))


def full_deck_cost(n: int = 51, draws=ALL_DRAWS) -> dict[str, int]:
    """What an exact pass over the dead sets must visit on an ``n``-card deck: the dead sets
    (``sum_d C(n, 5+d)``), H's post-draw states ``(h, K, f)`` (``C(n,5) sum_d C(5,d) C(n-5,d)``),
    the distinct (dead set, final hand) pairs (``sum_d C(n, 5+d) C(5+d, 5)``)."""
    ds = tuple(int(d) for d in draws)
    return {
        "dead_sets": n_dead_sets(n, ds),
        "h_states": comb(n, 5) * sum(comb(5, d) * comb(n - 5, d) for d in ds),
        "dead_final_pairs": sum(comb(n, 5 + d) * comb(5 + d, 5) for d in ds),
    }


__all__ = [
    "ALL_DRAWS", "N_D4", "RealResult", "check_deck", "dead_set_counts", "full_deck_cost", "rank_profiles",
    "suit_classes", "v_real",
]  # fmt: skip
