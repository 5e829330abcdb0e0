"""The exact best response of the human against a published Riemann table in G_ind (issue 26, point 1).

**G_ind** is the real game with *independent hands*: each player's five cards come from its
own full copy of the variant's deck (51 cards in ``standard``, 52 in ``wild`` and ``bug``).
The human H holds exact cards, picks any of its 32 keep masks with its first pre-draw action
(the draw count is announced with it), and showdowns compare exact strengths
(:mod:`poker51.hands.evaluate`, the variant's marker rule).  Riemann R plays its table as a
*behaviour strategy*: before the draw by the class of its dealt hand
(:mod:`poker51.abstraction.classes`), then its House draw (:mod:`poker51.hands.house`, the
replacements uniform from its own deck minus its five cards), after the draw by the bucket of
its final hand (:mod:`poker51.abstraction.buckets`), with the table's *probabilities* at each
spot (``h_draw`` read with 5 as 4, ``r_draw``, ``pre_line``, ``post_line``;
:mod:`poker51.export.schema`).  The deployed player's FNV-1a selection
(:mod:`poker51.policies.riemann`, point 4) is *not* modelled: the hash of its own cards makes
its play a deterministic function of the exact hand, which H cannot see; over R's hands of a
class (bucket) the selection realises the table's probabilities only on average, and this
module uses those probabilities.  Stacks are deep (no all-in), the betting tree is the
abstract game's (:mod:`poker51.games.abstract`: H opens check or 1/2/4/8, R bets 2 after a
check, raises are by the opening amount, one re-raise; antes :data:`poker51.rules.ANTE`).
Values are jbits per hand for H; ``V_A = -guarantee`` (``scores.parquet``) is the abstract
game's counterpart.

Derivation (what makes it cheap)
--------------------------------
1. *Riemann's side is public-node data.*  With independent hands R's class posterior at a
   public pre-draw node is ``P(c) pi_R(c, line)`` whatever H holds, and its draw count
   ``k = r_draw(c)`` is a function of its class, so after the draw the node ``n = (d4, line L,
   k)`` carries the mass ``M_n[j] = sum_{c: r_draw(c) = k} P(c) pi_R(c, L) P(S_R = u_j | c)``
   over the distinct strengths ``u_j`` of the deck (ascending).  ``P(S_R = u | c)`` is exact:
   integer counts of (dealt hand of c, replacement) pairs per final hand by the
   inclusion-exclusion of :func:`poker51.abstraction.transitions.final_hand_weights`, summed
   by strength.  R's bucket is a function of its strength (buckets are strength intervals:
   ``bucket(u) = #{lows <= u} - 1``).
2. *H's post-draw value depends on its final strength and the node only.*  H's
   counterfactual value at a post-draw information set (its cards, keep, final hand ``f``,
   the node) is a sum over R's (bucket, strength) weighted by ``M_n`` and R's post-draw
   reach, which depends on the bucket only; the showdown against R's strength ``u`` is
   ``sign(s - u)``.  For H's strength ``s`` in bucket ``b*``, every R strength of a bucket
   below ``b*`` is below ``s``, every one above is above, and bucket ``b*`` splits at ``s``
   (a prefix sum over the strengths of the bucket).  So ``CV(n, s)``, the max over H's
   post-draw actions, is a small tree walk per (node, strength) (:func:`~poker51.realcard.
   gind_kernels.post_values`).
3. *H's expectation over its replacements is an inclusion-exclusion over its discards.*
   With ``V_L(f) = sum_k CV((d4, L, k), s(f))``, a dealt hand ``h`` with keep ``K`` and
   discards ``D = h \\ K`` has ``E[V_L] = C(n-5, d)^-1 sum_{f ⊇ K, f ∩ D = ∅} V_L(f) =
   C(n-5, d)^-1 sum_{S ⊆ D} (-1)^|S| G_L(K ∪ S)`` with the superset sums ``G_L(T) =
   sum_{five-card f ⊇ T} V_L(f)`` over the whole deck (``G_L(h) = V_L(h)``), tabulated for
   every subset of at most four cards (combinatorial number system).  One table per ``d4``
   (R reads five as four), and only subsets of size ``>= 5 - d`` are needed: 3^5 = 243
   lookups per dealt hand over its 32 keeps.
4. *Pre-draw*: per (h, K) the completed-line values ``Q_L`` and R's fold masses (class prior
   times reach, independent of h) give H's best pre-draw play by a max over its tree
   (:func:`~poker51.realcard.gind_kernels.pre_tree`); ``V_ind`` is the mean over dealt hands of
   the max over keeps.

Every step is exact up to float64 rounding; the tests prove the value against a plain tree
walk over every deal of a 12-card deck and of two 11-card marker decks (wild, bug)
(``tests/realcard/test_gind.py``).  Suit isomorphism is not used.

Public names
------------
:func:`variant_deck` (a variant's deck, classes and buckets from its abstraction tables),
:func:`small_deck` (a reduced deck with the same rules, for tests), :func:`table_arrays` (a
strategy table frame as arrays), :func:`v_ind` (the value, per-hand best keeps and openings,
the post-draw values; :func:`strategy_frames` writes them as two tables),
:func:`strategy_value` (the exact G_ind value of a fixed :class:`HumanStrategy`:
:func:`check_call_strategy`, :func:`abstract_human` for the abstract game's best-response
human), :func:`game_policy` and :func:`small_abstraction` (the abstract game's view of a
table and of a reduced deck); :func:`v_ind_given` (the strategy ``given`` of the bounds by play:
the pre-draw best response with Riemann's class prior given H's own five cards,
:func:`prior_given`, H's post-draw choices :func:`v_ind`'s; per-class post-draw values
:func:`class_node_values`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from math import comb

import numpy as np
import pandas as pd

from poker51.abstraction.buckets import bucket_of_strength
from poker51.abstraction.classes import base_class_kernel, class_key_array, hand_keys, hand_table
from poker51.abstraction.keys import class_set_of
from poker51.abstraction.tables import AbstractionTables
from poker51.abstraction.transitions import deck_hands, final_hand_weights
from poker51.cards import MARKER
from poker51.errors import InputError
from poker51.export.schema import ACTION_COLUMNS, SPOT_ACTIONS, completed_pre_lines, decision_lines, spot_of_line
from poker51.hands.evaluate import RULE_ORDINARY
from poker51.hands.evaluate import strengths as eval_strengths
from poker51.hands.house import draw_counts, house_keeps
from poker51.realcard.gind_kernels import (
    PUT,
    hand_values,
    keep_values,
    post_values,
    post_values_fixed,
    prior_shifts,
    subset_tables,
    superset_sums,
)
from poker51.rules import class_key

PRE_LINES = completed_pre_lines()
DEC_LINES = decision_lines()
#: the action columns of each of Riemann's round lines, in slot order
LINE_SLOTS = tuple(SPOT_ACTIONS[spot_of_line(line)[0]] for line in DEC_LINES)
N_D4 = 5  # H's draw count as Riemann reads it: 0..4
N_K = 5  # Riemann's House draw counts 0..4


# --------------------------------------------------------------------------- the deck
@dataclass(frozen=True)
class GindDeck:
    """One deck of G_ind with Riemann's class and bucket maps, as arrays.

    ``hands`` (N, 5) every five-card hand (sorted card ints, :func:`deck_hands` order),
    ``pos`` the same as deck positions; ``sidx`` (N,) the index of each hand's strength in
    ``values`` (the deck's distinct strengths, ascending); ``r_class`` (N,) Riemann's class of
    each dealt hand, ``r_keep`` (N,) its House keep mask, ``class_draw`` (C,) the draw count of
    each class; ``lows`` (B,) the buckets' lowest strengths, ``bj`` (U,) the bucket of each
    distinct strength."""

    deck: np.ndarray
    rule: int
    hands: np.ndarray
    pos: np.ndarray
    strengths: np.ndarray
    values: np.ndarray
    sidx: np.ndarray
    r_class: np.ndarray
    r_keep: np.ndarray
    class_draw: np.ndarray
    lows: np.ndarray
    bj: np.ndarray

    @property
    def n(self) -> int:
        return int(self.deck.size)

    @property
    def n_hands(self) -> int:
        return int(self.hands.shape[0])

    @property
    def n_classes(self) -> int:
        return int(self.class_draw.size)

    @property
    def n_buckets(self) -> int:
        return int(self.lows.size)

    def class_members(self) -> np.ndarray:
        return np.bincount(self.r_class, minlength=self.n_classes).astype(np.int64)


def make_deck(deck, rule: int, r_class, lows, hands=None, r_keep=None) -> GindDeck:
    """A :class:`GindDeck` from a deck (card ints), a marker rule, Riemann's class id of every
    hand (``deck_hands`` order) and the bucket lows; refuses a class whose hands do not share
    one House draw count (the table's ``r_draw`` is a function of the class).  Strengths are
    :func:`poker51.hands.evaluate.strengths` under the rule (the showdown's)."""
    deck = np.sort(np.asarray(deck, np.int64))
    if deck.size < 10 or np.unique(deck).size != deck.size or deck.min() < 0 or deck.max() > 51:
        raise InputError(f"a G_ind deck is at least 10 distinct cards 0..51, got {deck.size} cards")
    hands = deck_hands(deck) if hands is None else hands
    if r_keep is None:
        r_keep = house_keeps(hands, rule)[0]
    strengths = eval_strengths(hands, rule)
    r_class = np.asarray(r_class, np.int64)
    if r_class.shape != (hands.shape[0],) or r_class.min() < 0:
        raise InputError(f"r_class must hold a class id >= 0 for each of the {hands.shape[0]} hands")
    C = int(r_class.max()) + 1
    draws = draw_counts(np.asarray(r_keep, np.uint8)).astype(np.int64)
    class_draw = np.full(C, -1, np.int64)
    class_draw[r_class] = draws
    if np.any(class_draw[r_class] != draws) or np.any(class_draw < 0):
        raise InputError("every class must be non-empty and its hands must share one House draw count")
    values, sidx = np.unique(np.asarray(strengths, np.int64), return_inverse=True)
    lows = np.asarray(lows, np.int64)
    if lows.ndim != 1 or lows.size < 1 or np.any(np.diff(lows) <= 0):
        raise InputError("bucket lows must be strictly increasing")
    bj = bucket_of_strength(values, lows).astype(np.int64)
    pos = np.searchsorted(deck, hands).astype(np.int64)
    return GindDeck(deck, int(rule), hands, pos, np.asarray(strengths, np.int64), values, sidx.astype(np.int64),
                    r_class, np.asarray(r_keep, np.int64), class_draw, lows, bj)  # fmt: skip


def variant_deck(tables: AbstractionTables) -> GindDeck:
    """The :class:`GindDeck` of a variant's real deck, classes and buckets from its abstraction
    tables (class ids by class key, bucket lows of the bucket table)."""
    ht = hand_table(tables.variant)
    cl = tables.classes
    keys = hand_keys(ht, class_set_of(cl["base"]))
    tkeys = class_key_array(cl["base"], cl["marker"], cl["house_draw"])
    order = np.argsort(tkeys)
    at = np.searchsorted(tkeys[order], keys)
    if np.any(at >= tkeys.size) or np.any(tkeys[order][np.minimum(at, tkeys.size - 1)] != keys):
        raise InputError(f"{tables.variant}: a dealt hand's class key is not in the class table")
    r_class = cl["class"].to_numpy(np.int64)[order][at]
    lows = tables.buckets.sort_values("bucket")["low"].to_numpy(np.int64)
    return make_deck(ht.deck, ht.rule, r_class, lows, ht.hands, ht.masks)


def small_deck(cards, rule: int = RULE_ORDINARY, n_buckets: int = 6) -> GindDeck:
    """A reduced deck with the variant rules' own classes (class keys of
    :func:`poker51.abstraction.classes.hand_class_key_kernel`'s formula, ids in key order) and
    ``n_buckets`` equal-mass strength buckets of the House-draw final strength, as the real
    abstraction builds them (for the tests' brute force; Python loops: small decks only)."""
    deck = np.sort(np.asarray(cards, np.int64))
    hands = deck_hands(deck)
    masks, steps, strengths = house_keeps(hands, rule)
    draws = draw_counts(masks).astype(np.int64)
    base = np.array([base_class_kernel(int(st), int(s)) for st, s in zip(steps, strengths)], np.int64)
    marker = (hands == MARKER).any(axis=1).astype(np.int64) if rule != RULE_ORDINARY else np.zeros(len(hands), np.int64)
    keys = np.asarray(class_key(base, marker, draws))
    r_class = np.unique(keys, return_inverse=True)[1]
    # buckets: quantiles of the House-draw final strength from a uniform dealt hand
    n_rest = deck.size - 5
    L = int(np.lcm.reduce([comb(n_rest, d) for d in range(5)]))
    w = np.array([L // comb(n_rest, int(d)) for d in draws], np.int64)
    fw = final_hand_weights(hands, masks.astype(np.int64), w)
    values, inv = np.unique(strengths, return_inverse=True)
    weights = np.bincount(inv, weights=fw).astype(np.int64)  # exact: integer sums below 2**53
    total = int(weights.sum())
    pos = weights > 0
    below = np.cumsum(weights[pos]) - weights[pos]
    b = (n_buckets * below) // total
    lows = np.array([values[pos][b == k].min() for k in np.unique(b)], np.int64)
    return make_deck(deck, rule, r_class, lows, hands, masks)


def riemann_counts(gd: GindDeck) -> np.ndarray:
    """(C, U) int64: per class, the number of (dealt hand of the class, House replacement)
    pairs ending at each distinct strength; row c sums to members(c) * C(n-5, r_draw(c))."""
    out = np.zeros((gd.n_classes, gd.values.size), np.int64)
    keeps = gd.r_keep.astype(np.int64)
    for c in range(gd.n_classes):
        w = (gd.r_class == c).astype(np.int64)
        fw = final_hand_weights(gd.hands, keeps, w)
        np.add.at(out[c], gd.sidx, fw)
    return out


def riemann_joint(gd: GindDeck, counts: np.ndarray | None = None) -> np.ndarray:
    """(C, U) float64: P(class c and final strength u_j) for R's uniformly dealt hand."""
    counts = riemann_counts(gd) if counts is None else counts
    ways = np.array([comb(gd.n - 5, int(d)) for d in gd.class_draw], np.float64)
    return counts / (gd.n_hands * ways[:, None])


# --------------------------------------------------------------------------- the table
@dataclass(frozen=True)
class TableArrays:
    """Riemann's table as arrays: ``pre`` (5 d4, 10 lines, C, 3 slots), ``post`` (5 d4, 5 k,
    15 completed lines, 10 lines, B, 3 slots); slots in each spot's action order
    (:data:`LINE_SLOTS`); NaN where the table has no row."""

    pre: np.ndarray
    post: np.ndarray


def table_arrays(df: pd.DataFrame, n_classes: int, n_buckets: int) -> TableArrays:
    """:class:`TableArrays` of a strategy table frame (:mod:`poker51.export.schema` rows)."""
    pre = np.full((N_D4, len(DEC_LINES), n_classes, 3), np.nan)
    post = np.full((N_D4, N_K, len(PRE_LINES), len(DEC_LINES), n_buckets, 3), np.nan)
    probs = df[list(ACTION_COLUMNS)].to_numpy(np.float64)
    street = df["street"].to_numpy(np.int64)
    d4 = df["h_draw"].to_numpy(np.int64)
    for s, want in ((0, "pre_line"), (1, "post_line")):
        sel = street == s
        lines = df.loc[sel, want].astype(str).to_numpy()
        li = np.array([DEC_LINES.index(x) for x in lines], np.int64) if lines.size else np.zeros(0, np.int64)
        p = probs[sel]
        for slot in range(3):
            col = np.array([ACTION_COLUMNS.index(LINE_SLOTS[i][slot]) if slot < len(LINE_SLOTS[i]) else -1 for i in li])
            v = np.where(col >= 0, p[np.arange(p.shape[0]), np.maximum(col, 0)], 0.0) if li.size else np.zeros(0)
            if s == 0:
                c = df.loc[sel, "class"].to_numpy(np.int64)
                if c.size and (c.max() >= n_classes):
                    raise InputError(f"table row of class {c.max()} beyond the deck's {n_classes} classes")
                pre[d4[sel], li, c, slot] = v
            else:
                k = df.loc[sel, "r_draw"].to_numpy(np.int64)
                L = np.array([PRE_LINES.index(x) for x in df.loc[sel, "pre_line"].astype(str)], np.int64)
                b = df.loc[sel, "bucket"].to_numpy(np.int64)
                if b.size and (b.max() >= n_buckets):
                    raise InputError(f"table row of bucket {b.max()} beyond the deck's {n_buckets} buckets")
                post[d4[sel], k, L, li, b, slot] = v
    return TableArrays(pre, post)


def random_table(n_classes: int, n_buckets: int, seed: int) -> TableArrays:
    """A random but fixed behaviour table on every spot (Dirichlet(1) rows; for tests)."""
    rng = np.random.default_rng(seed)
    pre = np.zeros((N_D4, len(DEC_LINES), n_classes, 3))
    post = np.zeros((N_D4, N_K, len(PRE_LINES), len(DEC_LINES), n_buckets, 3))
    for i, slots in enumerate(LINE_SLOTS):
        a = len(slots)
        pre[:, i, :, :a] = rng.dirichlet(np.ones(a), size=(N_D4, n_classes))
        post[:, :, :, i, :, :a] = rng.dirichlet(np.ones(a), size=(N_D4, N_K, len(PRE_LINES), n_buckets))
    return TableArrays(pre, post)


def pre_reach(pre: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(reach (5, 15, C), fold-path reach (5, 14, C)) of Riemann's pre-draw play per class:
    its probability of the completed lines and of the fold-mass paths of
    :mod:`poker51.realcard.gind_kernels` (``x-b2``, ``x-b2-r-f``, ``b-f``, ``b-r``, ``b-r-r-f``)."""
    x, xr = pre[:, 0], pre[:, 1]
    reach = np.zeros((pre.shape[0], len(PRE_LINES), pre.shape[2]))
    folds = np.zeros((pre.shape[0], 14, pre.shape[2]))
    reach[:, 0], reach[:, 1] = x[..., 0], x[..., 1]
    reach[:, 2] = x[..., 1] * xr[..., 1]
    folds[:, 0], folds[:, 1] = x[..., 1], x[..., 1] * xr[..., 0]
    for o in range(4):
        b, rr = pre[:, 2 + o], pre[:, 6 + o]
        reach[:, 3 + 3 * o], reach[:, 4 + 3 * o], reach[:, 5 + 3 * o] = b[..., 1], b[..., 2], b[..., 2] * rr[..., 1]
        folds[:, 2 + o], folds[:, 6 + o], folds[:, 10 + o] = b[..., 0], b[..., 2], b[..., 2] * rr[..., 0]
    return reach, folds


# --------------------------------------------------------------------------- V_ind
@dataclass(frozen=True)
class GindResult:
    """H's best response in G_ind against one table.

    ``value`` jbits per hand (mean of ``hand_value``); per dealt hand (``GindDeck.hands``
    order): ``hand_value``, ``keep`` (position mask of the sorted hand), ``opening`` (0 check,
    1..4 bet 1, 2, 4, 8), ``xb2`` its answer to Riemann's bet after its check and ``br`` (N, 4)
    to Riemann's raise of each of its bets (0 fold, 1 call, 2 raise); per public post-draw node
    ``(d4, k, L)`` (``k`` over ``draws``) and distinct strength: ``post_cv``, ``post_opening``,
    ``post_xb2`` and ``post_br`` (..., 4); ``seconds`` per stage.  The answers are those of the
    maxima that make the values (ties to the earlier action), so they are the best response's."""

    value: float
    hand_value: np.ndarray
    keep: np.ndarray
    opening: np.ndarray
    draws: tuple[int, ...]
    post_cv: np.ndarray
    post_opening: np.ndarray
    xb2: np.ndarray
    br: np.ndarray
    post_xb2: np.ndarray
    post_br: np.ndarray
    seconds: dict[str, float] = field(default_factory=dict)


def node_masses(gd: GindDeck, table: TableArrays, joint: np.ndarray) -> tuple[tuple[int, ...], np.ndarray, np.ndarray]:
    """(draws, M (5, K, 15, U), P (5, K, 15, 10, B, 3)) of the public post-draw nodes, ``K``
    over Riemann's draw counts that occur; refuses a table without a row that carries mass."""
    _check_rows(table.pre, "pre-draw")
    reach, _ = pre_reach(table.pre)
    draws = tuple(sorted({int(k) for k in gd.class_draw}))
    M = np.zeros((N_D4, len(draws), len(PRE_LINES), gd.values.size))
    for a, k in enumerate(draws):
        sel = gd.class_draw == k
        M[:, a] = np.einsum("dlc,cu->dlu", reach[:, :, sel], joint[sel])
    P = table.post[:, list(draws)]
    _check_rows(P, "post-draw")
    return draws, M, np.ascontiguousarray(P)


def _check_rows(P: np.ndarray, what: str) -> None:
    if np.isnan(P).any():
        raise InputError(f"the table lacks a {what} row that G_ind needs (every d4, line, class or bucket)")
    if np.abs(P.sum(axis=-1) - 1.0).max() > 1e-9:
        raise InputError(f"a {what} row of the table does not sum to 1")


def subset_class_counts(gd: GindDeck) -> np.ndarray:
    """(subsets, C) float64: per subset ``T`` of at most four deck positions (the
    :func:`~poker51.realcard.gind_kernels.subset_tables` index; the empty set included) the number
    of Riemann's dealt hands of each class that contain ``T`` (exact integers below 2**53).  The
    first step of the class prior corrected for H's own cards (issue 26, point 2: ``N_c`` of
    ``docs/design/realcard-bounds.md``); :func:`~poker51.realcard.gind_kernels.superset_sums`
    with one-hot values, so no new kernel.  Memory: 272,051 x C x 8 bytes on the 51-card deck."""
    binom, offset = subset_tables(gd.n)
    G = np.zeros((int(offset[5]), gd.n_classes))
    superset_sums(gd.pos, gd.r_class.astype(np.int64), np.eye(gd.n_classes), 0, binom, offset, G)
    return G


def class_counts_given(gd: GindDeck, rows: np.ndarray, G: np.ndarray | None = None) -> np.ndarray:
    """(len(rows), C) float64: for each dealt hand ``gd.hands[rows]`` of H the number of Riemann's
    dealt hands of each class that avoid its five cards (Riemann's class prior given H's hand, up
    to the factor ``1 / C(n - 5, 5)``): ``sum_{S ⊆ h} (-1)^|S| N_c(⊇ S)`` over the 32 subsets of
    the hand (:func:`subset_class_counts` ``G``; ``S = h`` is the hand itself, of its own class),
    by :func:`~poker51.realcard.gind_kernels.keep_values` with nothing kept."""
    from poker51.abstraction.transitions import subset_indices

    G = subset_class_counts(gd) if G is None else G
    binom, offset = subset_tables(gd.n)
    eye = np.eye(gd.n_classes)
    rows = np.asarray(rows, np.int64)
    if rows.size and (rows.min() < 0 or rows.max() >= gd.n_hands):
        raise InputError(f"dealt-hand rows must be in 0..{gd.n_hands - 1}")
    out = np.zeros((rows.size, gd.n_classes))
    idx = np.empty(32, np.int64)
    for i, h in enumerate(rows.tolist()):
        subset_indices(gd.pos[h], binom, offset, idx)
        keep_values(int(gd.r_class[h]), idx, 0, G, eye, 1.0, out[i])
    return out


def fold_masses(gd: GindDeck, table: TableArrays) -> np.ndarray:
    """(5, 14) Riemann's mass (class prior times reach) on each fold-mass path per d4."""
    prior = gd.class_members() / gd.n_hands
    _, folds = pre_reach(table.pre)
    return folds @ prior


def post_node_values(
    gd: GindDeck, M: np.ndarray, P: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(cv, act, xb2 (5, K, 15, U), br (5, K, 15, U, 4)): :func:`~poker51.realcard.gind_kernels.post_values`
    on every node."""
    shape = M.shape
    Mf = np.ascontiguousarray(M.reshape(-1, shape[-1]))
    Pf = np.ascontiguousarray(P.reshape(-1, *P.shape[3:]))
    put = np.tile(PUT, shape[0] * shape[1])
    start = np.searchsorted(gd.bj, np.arange(gd.n_buckets + 1)).astype(np.int64)
    cv = np.zeros_like(Mf)
    act = np.zeros(Mf.shape, np.int64)
    xb2 = np.zeros(Mf.shape, np.int8)
    br = np.zeros(Mf.shape + (4,), np.int8)
    post_values(Mf, gd.bj, start, Pf, put, cv, act, xb2, br)
    return cv.reshape(shape), act.reshape(shape), xb2.reshape(shape), br.reshape(shape + (4,))


def _best_arrays(gd: GindDeck) -> tuple[np.ndarray, ...]:
    """The per-hand best-so-far arrays a pre-draw pass fills (value, keep, opening, answers) and
    ``1 / C(n - 5, d)`` per draw count ``d``."""
    n = gd.n_hands
    inv_ways = np.array([1.0 / comb(gd.n - 5, d) for d in range(6)])
    return (np.full(n, -np.inf), np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int8),
            np.zeros((n, 4), np.int8), inv_ways)  # fmt: skip


def v_ind(gd: GindDeck, table: TableArrays, joint: np.ndarray | None = None) -> GindResult:
    """H's exact best-response value in G_ind against ``table`` (module docstring)."""
    sec: dict[str, float] = {}
    t0 = time.perf_counter()
    joint = riemann_joint(gd) if joint is None else joint
    t1 = time.perf_counter()
    sec["riemann_strengths"] = t1 - t0
    draws, M, P = node_masses(gd, table, joint)
    cv, act, post_xb2, post_br = post_node_values(gd, M, P)
    t2 = time.perf_counter()
    sec["post_draw"] = t2 - t1
    fm = fold_masses(gd, table)
    cv_sum = cv.sum(axis=1)  # (5, 15, U): summed over R's draw counts
    binom, offset = subset_tables(gd.n)
    n_sub4 = int(offset[5])
    best_val, best_keep, best_open, best_xb2, best_br, inv_ways = _best_arrays(gd)
    for d4 in range(N_D4):
        group = np.array([d4] if d4 < 4 else [4, 5], np.int64)
        V = np.ascontiguousarray(cv_sum[d4].T)  # (U, 15)
        tmin = 5 - int(group.max())
        G = np.zeros((n_sub4 if tmin < 5 else 1, len(PRE_LINES)))
        if tmin < 5:
            superset_sums(gd.pos, gd.sidx, V, tmin, binom, offset, G)
        hand_values(gd.pos, gd.sidx, G, V, group, inv_ways, fm[d4], binom, offset, best_val, best_keep, best_open,
                    best_xb2, best_br)  # fmt: skip
    sec["pre_draw"] = time.perf_counter() - t2
    return GindResult(float(best_val.mean()), best_val, best_keep, best_open, draws, cv, act, best_xb2, best_br,
                      post_xb2, post_br, sec)  # fmt: skip


# --------------------------------------------------------------------------- the class prior given H's hand
def prior_given(gd: GindDeck, NC: np.ndarray | None = None) -> np.ndarray:
    """(N, C) float64: per dealt hand of H, Riemann's class prior given H's five cards
    (:func:`class_counts_given` over ``C(n - 5, 5)``) minus the unconditional prior
    ``members / N`` (:func:`~poker51.realcard.gind_kernels.prior_shifts`, parallel over hands);
    each row sums to 0 up to rounding.  Memory N x C x 8 bytes (357 MB on the 51-card deck)."""
    NC = subset_class_counts(gd) if NC is None else NC
    binom, offset = subset_tables(gd.n)
    out = np.zeros((gd.n_hands, gd.n_classes))
    prior_shifts(gd.pos, gd.r_class.astype(np.int64), np.ascontiguousarray(NC), binom, offset, 1.0 / comb(gd.n - 5, 5),
                 gd.class_members() / gd.n_hands, out)  # fmt: skip
    return out


def class_node_values(gd: GindDeck, table: TableArrays, joint: np.ndarray, base: GindResult) -> np.ndarray:
    """(5 d4, 15 lines, C, U): ``X[d4, L, c, i]``, H's post-draw value at strength index ``i``
    against Riemann's dealt class ``c`` alone (mass ``pi_R(c, d4, L) P(S_R = u | c)`` at its node
    ``(d4, L, r_draw(c))``) when H plays ``base``'s post-draw choices (the G_ind best response's);
    ``sum_c P(c) X[.., c, :]`` is ``base.post_cv`` summed over Riemann's draw counts, and a
    class prior ``q`` gives ``sum_c q(c) X[.., c, :]`` (the value is linear in Riemann's mass
    once H's choices are fixed)."""
    _, _, P = node_masses(gd, table, joint)
    reach, _ = pre_reach(table.pre)
    prior = gd.class_members() / gd.n_hands
    cond = joint / prior[:, None]
    Kn, L, C, U = len(base.draws), len(PRE_LINES), gd.n_classes, gd.values.size
    a_of = np.array([base.draws.index(int(k)) for k in gd.class_draw], np.int64)
    d4, ell, c = (x.ravel() for x in np.meshgrid(np.arange(N_D4), np.arange(L), np.arange(C), indexing="ij"))
    mass = np.ascontiguousarray(reach[d4, ell, c][:, None] * cond[c])
    node = ((d4 * Kn + a_of[c]) * L + ell).astype(np.int64)
    Pf = np.ascontiguousarray(P.reshape(-1, *P.shape[3:]))
    put = np.tile(PUT, N_D4 * Kn)
    start = np.searchsorted(gd.bj, np.arange(gd.n_buckets + 1)).astype(np.int64)
    flat = (-1, U)
    out = np.zeros_like(mass)
    post_values_fixed(mass, gd.bj, start, Pf, put, node, np.ascontiguousarray(base.post_opening.reshape(flat)),
                      np.ascontiguousarray(base.post_xb2.reshape(flat)),
                      np.ascontiguousarray(base.post_br.reshape(-1, U, 4)), out)  # fmt: skip
    return out.reshape(N_D4, L, C, U)


def v_ind_given(gd: GindDeck, table: TableArrays, joint: np.ndarray | None = None, prior: np.ndarray | None = None,
                base: GindResult | None = None, prune: bool = True) -> GindResult:  # fmt: skip
    """The strategy ``given`` (issue 26, point 2): H's pre-draw best response per dealt hand
    (keep, opening, answers) when Riemann's class prior is the one given H's own five cards,
    ``prior`` (N, C) (default :func:`prior_given`, exact: Riemann's dealt hands avoiding H's),
    and H plays ``base``'s post-draw choices (the G_ind best response's, default :func:`v_ind`)
    whatever its dealt hand.  Everything else is G_ind's: Riemann's draw comes from its own deck
    (``P(S_R = u | c)`` unchanged), H's replacements from its own.

    Derivation: with H's post-draw choices fixed its post-draw value is linear in Riemann's mass,
    so the completed-line values of a dealt hand ``h`` with prior ``q_h`` are V_ind's ``Q_L``
    plus ``sum_c (q_h(c) - P(c)) X_c`` (:func:`class_node_values`, the per-class values taken
    over H's replacements by the same superset sums and inclusion-exclusion, ``C x 15`` columns)
    and the fold masses are ``fm + folds @ (q_h - P)``
    (:func:`~poker51.realcard.gind_kernels.hand_values_given`).  ``prior`` equal to the
    unconditional prior in every row gives V_ind's keeps, openings, answers and values bit for
    bit.  The record's ``hand_value`` is each hand's value under its own ``q_h`` (the mean is
    *not* a G_ind value: every hand has its own Riemann prior), ``value`` its mean; the post-draw
    fields are ``base``'s; ``seconds["columns"]`` counts the per-class columns kept over the five
    d4 (``prune``: those of a class and line that Riemann never reaches are left out, which
    changes no number).  Memory on the 51-card deck: about 0.6 GB of per-class superset sums
    and 0.36 GB of priors beside :func:`v_ind`'s."""
    from poker51.realcard.gind_kernels import hand_values_given, superset_rows, superset_strengths

    sec: dict[str, float] = {}
    t0 = time.perf_counter()
    joint = riemann_joint(gd) if joint is None else joint
    base = v_ind(gd, table, joint) if base is None else base
    pbar = gd.class_members() / gd.n_hands
    if prior is None:
        delta = prior_given(gd)
    else:
        prior = np.asarray(prior, np.float64)
        if prior.shape != (gd.n_hands, gd.n_classes) or not np.isfinite(prior).all():
            raise InputError(f"prior must be a finite ({gd.n_hands}, {gd.n_classes}) array, one row per dealt hand")
        delta = np.ascontiguousarray(prior - pbar[None, :])
    t1 = time.perf_counter()
    sec["priors"] = t1 - t0
    X = class_node_values(gd, table, joint, base)
    t2 = time.perf_counter()
    sec["class_values"] = t2 - t1
    _, folds = pre_reach(table.pre)  # (5, 14, C)
    fm = fold_masses(gd, table)
    cv_sum = base.post_cv.sum(axis=1)
    binom, offset = subset_tables(gd.n)
    n_sub4 = int(offset[5])
    C, L = gd.n_classes, len(PRE_LINES)
    best_val, best_keep, best_open, best_xb2, best_br, inv_ways = _best_arrays(gd)
    t3 = time.perf_counter()
    sup_ptr, sup_u, sup_w = superset_strengths(gd.pos, gd.sidx, binom, offset)
    sec["superset_sums"] = time.perf_counter() - t3
    for d4 in range(N_D4):
        group = np.array([d4] if d4 < 4 else [4, 5], np.int64)
        V = np.ascontiguousarray(cv_sum[d4].T)  # (U, 15): exactly v_ind's
        VC = X[d4].transpose(2, 1, 0).reshape(-1, C * L)  # (U, C 15): column c 15 + ell
        # a (class, line) Riemann never reaches (zero reach in a pure table) adds nothing: left out
        cols = np.flatnonzero(np.any(VC != 0.0, axis=0)) if prune else np.arange(C * L)
        VC = np.ascontiguousarray(VC[:, cols])
        sec["columns"] = sec.get("columns", 0.0) + cols.size
        tmin = 5 - int(group.max())
        rows = n_sub4 if tmin < 5 else 1
        G = np.zeros((rows, L))
        GC = np.zeros((rows, cols.size))
        t3 = time.perf_counter()
        if tmin < 5:
            superset_sums(gd.pos, gd.sidx, V, tmin, binom, offset, G)
            superset_rows(sup_ptr, sup_u, sup_w, VC, int(offset[tmin]), GC)
        t4 = time.perf_counter()
        sec["superset_sums"] = sec.get("superset_sums", 0.0) + t4 - t3
        cstart = np.searchsorted(cols // L, np.arange(C + 1)).astype(np.int64)
        hand_values_given(gd.pos, gd.sidx, G, V, GC, VC, cstart, cols % L, delta, np.ascontiguousarray(folds[d4]),
                          group, inv_ways, fm[d4], binom, offset, best_val, best_keep, best_open, best_xb2,
                          best_br)  # fmt: skip
        del GC
        sec["hands"] = sec.get("hands", 0.0) + time.perf_counter() - t4
    sec["pre_draw"] = time.perf_counter() - t2
    return GindResult(float(best_val.mean()), best_val, best_keep, best_open, base.draws, base.post_cv,
                      base.post_opening, best_xb2, best_br, base.post_xb2, base.post_br, sec)  # fmt: skip


# --------------------------------------------------------------------------- a fixed human
@dataclass(frozen=True)
class HumanStrategy:
    """A fixed H strategy in G_ind: ``keep`` (N,) one keep mask per dealt hand; pre-draw
    probabilities per dealt hand: ``pre_open`` (N, 5: x, b1, b2, b4, b8), ``pre_xb2`` (N, 3:
    fold, call, raise facing Riemann's bet after the check), ``pre_br`` (N, 4, 3: fold, call,
    re-raise facing its raise of each bet); post-draw probabilities per (H's exact draw count
    0..5, Riemann's draw count 0..4, completed line, H's final *bucket*): ``post_open`` (6, 5,
    15, B, 5), ``post_xb2`` (6, 5, 15, B, 3), ``post_br`` (6, 5, 15, B, 4, 3)."""

    keep: np.ndarray
    pre_open: np.ndarray
    pre_xb2: np.ndarray
    pre_br: np.ndarray
    post_open: np.ndarray
    post_xb2: np.ndarray
    post_br: np.ndarray


def check_call_strategy(gd: GindDeck) -> HumanStrategy:
    """H keeps by the House rule, checks, and calls every bet and raise, in both rounds."""
    N, B = gd.n_hands, gd.n_buckets
    one = np.zeros(5)
    one[0] = 1.0
    call = np.array([0.0, 1.0, 0.0])
    return HumanStrategy(
        gd.r_keep.copy(), np.tile(one, (N, 1)), np.tile(call, (N, 1)), np.tile(call, (N, 4, 1)),
        np.broadcast_to(one, (6, N_K, len(PRE_LINES), B, 5)).copy(),
        np.broadcast_to(call, (6, N_K, len(PRE_LINES), B, 3)).copy(),
        np.broadcast_to(call, (6, N_K, len(PRE_LINES), B, 4, 3)).copy(),
    )  # fmt: skip


def random_strategy(gd: GindDeck, seed: int) -> HumanStrategy:
    """Uniform random keeps and Dirichlet(1) action probabilities (for tests)."""
    rng = np.random.default_rng(seed)
    N, B, L = gd.n_hands, gd.n_buckets, len(PRE_LINES)
    return HumanStrategy(
        rng.integers(0, 32, N), rng.dirichlet(np.ones(5), N), rng.dirichlet(np.ones(3), N),
        rng.dirichlet(np.ones(3), (N, 4)), rng.dirichlet(np.ones(5), (6, N_K, L, B)),
        rng.dirichlet(np.ones(3), (6, N_K, L, B)), rng.dirichlet(np.ones(3), (6, N_K, L, B, 4)),
    )  # fmt: skip


def _signed_masses(gd: GindDeck, m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(W (U, B), T (B,)) of one node's mass ``m`` (U,): ``W[i, b]`` = R's mass of bucket b below
    strength i minus its mass above it."""
    B = gd.n_buckets
    T = np.bincount(gd.bj, weights=m, minlength=B)
    cum = np.concatenate([[0.0], np.cumsum(m)])
    start = np.searchsorted(gd.bj, np.arange(B + 1))
    below = cum[:-1] - cum[start[gd.bj]]
    above = T[gd.bj] - below - m
    b = np.arange(B)[None, :]
    bs = gd.bj[:, None]
    W = np.where(b < bs, T[None, :], np.where(b > bs, -T[None, :], (below - above)[:, None]))
    return W, T


def _post_mix(W, T, p, u, po, px, pb) -> np.ndarray:
    """H's value (U,) of one post-draw node playing ``po`` (U, 5), ``px`` (U, 3), ``pb`` (U, 4, 3)."""
    fold = -u * (p[0, :, 1] @ T)
    call = (u + 2) * (W @ p[0, :, 1])
    rai = (u + 2) * (p[0, :, 1] * p[1, :, 0]) @ T + (u + 4) * (W @ (p[0, :, 1] * p[1, :, 1]))
    v = po[:, 0] * (u * (W @ p[0, :, 0]) + px[:, 0] * fold + px[:, 1] * call + px[:, 2] * rai)
    for o, z in enumerate((1, 2, 4, 8)):
        q, r = p[2 + o], p[6 + o]
        fold = -(u + z) * (q[:, 2] @ T)
        call = (u + 2 * z) * (W @ q[:, 2])
        rai = (u + 2 * z) * (q[:, 2] * r[:, 0]) @ T + (u + 3 * z) * (W @ (q[:, 2] * r[:, 1]))
        base = u * (q[:, 0] @ T) + (u + z) * (W @ q[:, 1])
        v = v + po[:, 1 + o] * (base + pb[:, o, 0] * fold + pb[:, o, 1] * call + pb[:, o, 2] * rai)
    return v


def _subset_rows(pos: np.ndarray, masks: np.ndarray, binom: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """Subset index of ``masks`` (n,) applied to hands ``pos`` (n, 5); -1 for the whole hand."""
    k = np.zeros(pos.shape[0], np.int64)
    idx = np.zeros(pos.shape[0], np.int64)
    for i in range(5):
        bit = (masks >> i) & 1 == 1
        k += bit
        idx += np.where(bit, binom[pos[:, i], np.minimum(k, 5)], 0)
    return np.where(k < 5, offset[np.minimum(k, 5)] + idx, -1)


def strategy_value(gd: GindDeck, table: TableArrays, st: HumanStrategy, joint: np.ndarray | None = None) -> float:
    """The exact G_ind value (jbits per hand for H) of a fixed H strategy against ``table``:
    the same decomposition as :func:`v_ind` with H's probabilities in place of its maxima
    (post-draw values per strength index in NumPy, the expectation over H's replacements by
    the same inclusion-exclusion over the superset sums); NumPy over hands, memory ~ N x 15."""
    joint = riemann_joint(gd) if joint is None else joint
    draws, M, P = node_masses(gd, table, joint)
    fm = fold_masses(gd, table)
    U, L = gd.values.size, len(PRE_LINES)
    FV = np.zeros((6, L, U))
    for d4 in range(N_D4):
        for a, k in enumerate(draws):
            for ell in range(L):
                W, T = _signed_masses(gd, M[d4, a, ell])
                for d in [d4] if d4 < 4 else [4, 5]:
                    at = (d, k, ell)
                    FV[d, ell] += _post_mix(W, T, P[d4, a, ell], PUT[ell], st.post_open[at][gd.bj],
                                            st.post_xb2[at][gd.bj], st.post_br[at][gd.bj])  # fmt: skip
    binom, offset = subset_tables(gd.n)
    keep = np.asarray(st.keep, np.int64)
    dk = 5 - np.array([bin(int(x)).count("1") for x in range(32)])[keep]
    total = 0.0
    for d in range(6):
        hs = np.flatnonzero(dk == d)
        if hs.size == 0:
            continue
        V = np.ascontiguousarray(FV[d].T)
        G = np.zeros((int(offset[5]), L))
        if d > 0:
            superset_sums(gd.pos, gd.sidx, V, 5 - d, binom, offset, G)
        K, D, pos = keep[hs], 31 ^ keep[hs], gd.pos[hs]
        Q = np.zeros((hs.size, L))
        for S in range(32):
            ok = (S & D) == S
            if not ok.any():
                continue
            T_ = K | S
            rows = _subset_rows(pos, T_, binom, offset)
            sign = -1.0 if bin(S).count("1") % 2 else 1.0
            vals = np.where((rows >= 0)[:, None], G[np.maximum(rows, 0)], V[gd.sidx[hs]])
            Q += np.where(ok[:, None], sign * vals, 0.0)
        Q /= comb(gd.n - 5, d)
        f = fm[min(d, 4)]
        px, pb, po = st.pre_xb2[hs], st.pre_br[hs], st.pre_open[hs]
        v = po[:, 0] * (Q[:, 0] + px[:, 0] * (-f[0]) + px[:, 1] * Q[:, 1] + px[:, 2] * (3 * f[1] + Q[:, 2]))
        for o, z in enumerate((1, 2, 4, 8)):
            resp = pb[:, o, 0] * (-(1 + z) * f[6 + o]) + pb[:, o, 1] * Q[:, 4 + 3 * o]
            resp = resp + pb[:, o, 2] * ((1 + 2 * z) * f[10 + o] + Q[:, 5 + 3 * o])
            v = v + po[:, 1 + o] * (f[2 + o] + Q[:, 3 + 3 * o] + resp)
        total += float(v.sum())
    return total / gd.n_hands


def abstract_human(game, response: np.ndarray, gd: GindDeck) -> HumanStrategy:
    """The abstract game's human strategy ``response`` (a pure policy vector of a
    :func:`poker51.games.abstract.build_game` game, e.g. its best response to the table)
    played in G_ind: pre-draw by the class of H's dealt hand (the same classes as Riemann's),
    its first action's draw count with the House keep padded or trimmed to it
    (:func:`poker51.hands.house.keep_table`), post-draw by the bucket of its final hand.
    Refuses a first action that is not pure (one keep per dealt hand)."""
    from poker51.games.abstract import FIRST_ACTIONS
    from poker51.hands.house import keep_table

    C, B, L = gd.n_classes, gd.n_buckets, len(PRE_LINES)
    act_off = game.arrays.act_off
    first = np.full((C, len(FIRST_ACTIONS)), np.nan)
    pre_xb2 = np.zeros((6, C, 3))
    pre_br = np.zeros((6, C, 4, 3))
    post_open = np.zeros((6, N_K, L, B, 5))
    post_xb2 = np.zeros((6, N_K, L, B, 3))
    post_br = np.zeros((6, N_K, L, B, 4, 3))
    bets = {f"b{z}-r": i for i, z in enumerate((1, 2, 4, 8))}
    for i, (player, key) in enumerate(game.iset_keys):
        if player != 0:
            continue
        _, street, d, k, pre, post, state = key
        probs = np.asarray(response[act_off[i] : act_off[i + 1]], np.float64)
        if street == 0:
            if d == -1:
                first[state] = probs
            elif pre == "x-b2":
                pre_xb2[d, state] = probs
            else:
                pre_br[d, state, bets[pre]] = probs
        else:
            at = (d, k, PRE_LINES.index(pre), state)
            if post == "":
                post_open[at] = probs
            elif post == "x-b2":
                post_xb2[at] = probs
            else:
                post_br[at[:3] + (state, bets[post])] = probs
    if np.isnan(first).any() or not np.all(np.isclose(first.max(axis=1), 1.0)):
        raise InputError("the abstract human's first action must be pure in every class")
    a = first.argmax(axis=1)
    d_c = np.array([FIRST_ACTIONS[x][0] for x in a], np.int64)
    o_c = np.array([("x", "b1", "b2", "b4", "b8").index(FIRST_ACTIONS[x][1]) for x in a], np.int64)
    keeps = keep_table(gd.hands, gd.r_keep, gd.rule)
    c = gd.r_class
    keep = keeps[np.arange(gd.n_hands), d_c[c]].astype(np.int64)
    return HumanStrategy(keep, np.eye(5)[o_c[c]], pre_xb2[d_c[c], c], pre_br[d_c[c], c], post_open, post_xb2, post_br)


def game_policy(game, table: TableArrays) -> np.ndarray:
    """A policy vector of a :func:`poker51.games.abstract.build_game` game with Riemann's
    slots read from ``table`` (H's slots uniform): the abstract game's view of the table."""
    a = game.arrays
    pol = game.uniform_policy().copy()
    for i, (player, key) in enumerate(game.iset_keys):
        if player != 1:
            continue
        _, street, d4, k, pre, post, state = key
        n = int(a.act_off[i + 1] - a.act_off[i])
        if street == 0:
            probs = table.pre[d4, DEC_LINES.index(pre), state, :n]
        else:
            probs = table.post[d4, k, PRE_LINES.index(pre), DEC_LINES.index(post), state, :n]
        pol[a.act_off[i] : a.act_off[i + 1]] = probs
    return pol


def small_abstraction(gd: GindDeck):
    """The :class:`~poker51.abstraction.tables.AbstractionArrays` of a reduced deck (its classes,
    its buckets, exact transitions with H's keeps of :func:`poker51.hands.house.keep_table`), so
    that the abstract game and its best response exist on the tests' decks too."""
    from poker51.abstraction.tables import AbstractionArrays
    from poker51.abstraction.transitions import class_histograms, subset_histograms
    from poker51.hands.house import keep_table

    labels = gd.bj[gd.sidx]
    A = subset_histograms(gd.hands, labels, gd.n_buckets)
    keeps = keep_table(gd.hands, gd.r_keep, gd.rule)
    hist = class_histograms(gd.hands, gd.r_class, gd.n_classes, keeps, labels, A).astype(np.float64)
    members = gd.class_members()
    ways = np.array([comb(gd.n - 5, d) for d in range(6)], np.float64)
    h_trans = hist / (members[:, None, None] * ways[None, :, None])
    r_trans = h_trans[np.arange(gd.n_classes), gd.class_draw]
    return AbstractionArrays("reduced", members / gd.n_hands, h_trans, r_trans, gd.class_draw.astype(np.int8))


OPENINGS = ("x", "b1", "b2", "b4", "b8")
#: the answers to a bet or raise, as the frames write them (0 fold, 1 call, 2 raise)
ANSWERS = ("f", "c", "r")
#: the columns of the answers to Riemann's raise of each bet
BR_COLUMNS = tuple(f"br_b{z}" for z in (1, 2, 4, 8))


def answer_columns(xb2: np.ndarray, br: np.ndarray) -> dict:
    """The answer columns of a frame: ``xb2`` and :data:`BR_COLUMNS` as categoricals of :data:`ANSWERS`."""
    cols = {"xb2": pd.Categorical.from_codes(np.asarray(xb2, np.int8).ravel(), ANSWERS)}
    br = np.asarray(br, np.int8).reshape(-1, 4)
    cols.update({c: pd.Categorical.from_codes(br[:, o], ANSWERS) for o, c in enumerate(BR_COLUMNS)})
    return cols


def strategy_frames(gd: GindDeck, r: GindResult) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The best response as two tables: per dealt hand (``c0..c4`` its sorted cards, ``keep``
    the position mask, ``draw``, ``opening``, ``value`` jbits in that hand's share: the mean of
    the column is V_ind; the answers ``xb2``, ``br_b1 .. br_b8``: :func:`answer_columns`), and per
    public post-draw node and final strength (``h_draw`` read, ``r_draw``, ``pre_line``,
    ``strength``, ``opening``, the answers, ``cv``: H's counterfactual value)."""
    draw = 5 - np.unpackbits(r.keep.astype(np.uint8)[:, None], axis=1).sum(axis=1)
    hands = pd.DataFrame({f"c{i}": gd.hands[:, i].astype(np.int8) for i in range(5)})
    hands = hands.assign(
        keep=r.keep.astype(np.int8), draw=draw.astype(np.int8),
        opening=pd.Categorical.from_codes(r.opening, OPENINGS), value=r.hand_value, **answer_columns(r.xb2, r.br),
    )  # fmt: skip
    d4, k, ell, u = np.meshgrid(
        np.arange(N_D4), np.array(r.draws), np.arange(len(PRE_LINES)), np.arange(gd.values.size), indexing="ij"
    )
    post = pd.DataFrame(
        {
            "h_draw": d4.ravel().astype(np.int8),
            "r_draw": k.ravel().astype(np.int8),
            "pre_line": np.asarray(PRE_LINES, dtype=object)[ell.ravel()],
            "strength": gd.values[u.ravel()].astype(np.int32),
            "opening": pd.Categorical.from_codes(r.post_opening.ravel(), OPENINGS),
            **answer_columns(r.post_xb2, r.post_br),
            "cv": r.post_cv.ravel(),
        }
    )
    return hands, post


__all__ = [
    "ANSWERS", "BR_COLUMNS", "DEC_LINES", "OPENINGS", "GindDeck", "GindResult", "HumanStrategy", "LINE_SLOTS",
    "PRE_LINES", "TableArrays", "abstract_human", "answer_columns", "check_call_strategy", "class_counts_given",
    "class_node_values", "fold_masses", "game_policy", "make_deck", "node_masses", "post_node_values", "pre_reach",
    "prior_given", "random_strategy", "random_table", "riemann_counts", "riemann_joint", "small_abstraction",
    "small_deck", "strategy_frames", "strategy_value", "subset_class_counts", "table_arrays", "v_ind", "v_ind_given",
    "variant_deck",
]  # fmt: skip
