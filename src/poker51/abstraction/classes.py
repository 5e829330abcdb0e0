"""The abstraction of one variant: dealt-hand classes, strength buckets, exact draw
transitions and the v0.2 belief table (SPEC section 4; rule card "How Riemann bets v0.6").

**Standard classes (19)** follow the House rule's step for the hand, refined where the rule
card asks ("made hands by type, three of a kind, two pair, four-card draws, pairs by rank,
and no pair by top card"), weakest first (``BASE_NAMES``)::

     0 no pair, king high or lower     7 pair of 9s      14 three of a kind
     1 no pair, ace high               8 pair of tens    15 straight
     2 four to an open-ended straight  9 pair of jacks   16 flush
     3 four to a flush                10 pair of queens  17 full house
     4 pair of 2s to 6s               11 pair of kings   18 four of a kind or better
     5 pair of 7s                     12 pair of aces       (straight flush, five of a kind)
     6 pair of 8s                     13 two pair

Why this partition gives 19: the words list 2 + 2 + 13 + (top cards) + (made types) groups, so
some grouping is forced.  Pairs keep one class per rank from 7 up: exactly the pair ranks the
Wild Ⅰ can make (it pairs the top natural card, at least a 7, since four naturals within 2..6
always make a straight with Ⅰ), so crossing with "holds Ⅰ" never merges different pair ranks.
Pairs 2..6 (36% of pairs, 15% of hands, the ranks below every Wild marker pair) share one class; no pair splits at
the ace, the top card the bug marker reads as; a straight flush (38 of 2,349,060 standard hands)
joins four of a kind.  The class follows the hand's House-rule step (a hand that is a pair and a
four-flush is a pair, as Riemann keeps the pair); for a marker hand, the step and ranks of the
reading at its best (``poker51.hands.house``).

**Wild and bug classes**: every (standard class of the best reading, holds Ⅰ, House draw
count) that occurs, in sorted order of that key.  See ``docs/abstraction.md`` for the counts.

Buckets, transitions and the tables of a variant: :mod:`poker51.abstraction.buckets`,
:mod:`poker51.abstraction.transitions`, :mod:`poker51.abstraction.tables`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd
from numba import njit

from poker51.abstraction.keys import (
    CLASS_SETS,
    REFINED_FIRST,
    class_set_of,
    hand_class_key_strength,
    refine_base,
    refine_key,
)
from poker51.abstraction.transitions import deck_hands
from poker51.cards import MARKER
from poker51.hands.evaluate import FLUSH, FULL_HOUSE, ONE_PAIR, STRAIGHT, THREE_OF_A_KIND, TWO_PAIR, strength_plain
from poker51.hands.house import check_hand, draw_counts, house_keep_plain, house_keeps, house_kernel
from poker51.rules import RULE_ORDINARY, VARIANTS, class_key

BASE_NAMES = (
    "no_pair_king_high_or_lower", "no_pair_ace_high", "four_to_an_open_ended_straight", "four_to_a_flush",
    "pair_2_to_6", "pair_7", "pair_8", "pair_9", "pair_T", "pair_J", "pair_Q", "pair_K", "pair_A",
    "two_pair", "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind_or_better",
)  # fmt: skip
#: the names of every base code: :data:`BASE_NAMES`, then the refined set's own codes 19..26
#: (:data:`poker51.abstraction.keys.REFINED_PARENT`)
ALL_BASE_NAMES = BASE_NAMES + (
    "pair_2", "pair_3", "pair_4", "pair_5", "pair_6",
    "no_pair_king_high", "no_pair_queen_high", "no_pair_jack_high_or_lower",
)  # fmt: skip


def variant_spec(variant: str) -> tuple[np.ndarray, int]:
    """(sorted deck as int64 array, marker rule) of a variant name."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; expected one of {sorted(VARIANTS)}")
    v = VARIANTS[variant]
    return np.array(v.cards, dtype=np.int64), v.rule


@njit(cache=True)
def base_class_kernel(step, s):
    """Standard class (0..18) from the House step and the strength of the (read) hand."""
    cat = s >> 20
    top = (s >> 16) & 15
    if step == 1:
        if cat == STRAIGHT:
            return 15
        if cat == FLUSH:
            return 16
        if cat == FULL_HOUSE:
            return 17
        return 18
    if step == 2:
        return 14
    if step == 3:
        return 13
    if step == 4:
        return 4 if top <= 4 else top
    if step == 5:
        return 3
    if step == 6:
        return 2
    return 1 if top == 12 else 0


#: :func:`poker51.abstraction.keys.refine_base` tabulated by (standard code, top rank): the one
#: definition, read by :func:`refine_bases`
_REFINED = np.array([[refine_base(b, t << 16) for t in range(16)] for b in range(REFINED_FIRST)], np.int64)


def refine_bases(base, strengths) -> np.ndarray:
    """:func:`poker51.abstraction.keys.refine_base` over arrays (int64)."""
    return _REFINED[np.asarray(base, np.int64), (np.asarray(strengths, np.int64) >> 16) & 15]


def hand_bases(ht: HandTable, class_set: str = "standard") -> np.ndarray:
    """Every dealt hand's base code (``ht`` order) in the class set ``class_set``."""
    if class_set not in CLASS_SETS:
        raise ValueError(f"unknown class set {class_set!r}; expected one of {list(CLASS_SETS)}")
    return ht.base.astype(np.int64) if class_set == "standard" else refine_bases(ht.base, ht.strengths)


def hand_keys(ht: HandTable, class_set: str = "standard") -> np.ndarray:
    """Every dealt hand's class key (``ht`` order) in the class set ``class_set``."""
    return class_key_array(hand_bases(ht, class_set), ht.marker, ht.house_draw)


@njit(cache=True)
def _base_classes(steps, strengths, out):
    for i in range(steps.shape[0]):
        out[i] = base_class_kernel(steps[i], strengths[i])


def base_class_plain(hand, rule: int = RULE_ORDINARY) -> int:
    """Plain twin of the standard class, from the category and the House keep set."""
    s = strength_plain(hand, rule)
    cat, top = s >> 20, (s >> 16) & 15
    if cat >= STRAIGHT:
        return {STRAIGHT: 15, FLUSH: 16, FULL_HOUSE: 17}.get(cat, 18)
    if cat == THREE_OF_A_KIND:
        return 14
    if cat == TWO_PAIR:
        return 13
    if cat == ONE_PAIR:
        return 4 if top <= 4 else top
    mask, draw = house_keep_plain(hand, rule)
    if draw == 1:  # four kept of a high-card hand: a four-card draw
        kept = [int(c) for i, c in enumerate(hand) if (mask >> i) & 1]
        return 3 if len({c & 3 for c in kept}) == 1 else 2
    return 1 if top == 12 else 0


@dataclass(frozen=True)
class HandTable:
    """Every dealt hand of a variant (rows of ``hands``, ``all_hands`` order) and its House data."""

    variant: str
    deck: np.ndarray
    rule: int
    hands: np.ndarray  # (n, 5) int64, sorted rows
    masks: np.ndarray  # (n,) uint8 House keep masks
    strengths: np.ndarray  # (n,) int32
    base: np.ndarray  # (n,) int8 standard class
    marker: np.ndarray  # (n,) bool
    house_draw: np.ndarray  # (n,) int8

    @property
    def n_rest(self) -> int:
        return self.deck.size - 5


@lru_cache(maxsize=3)
def hand_table(variant: str) -> HandTable:
    """Enumerate every dealt hand of the variant with its House keep set and class data."""
    deck, rule = variant_spec(variant)
    hands = deck_hands(deck)
    masks, steps, strengths = house_keeps(hands, rule)
    base = np.empty(hands.shape[0], np.int8)
    _base_classes(steps, strengths, base)
    marker = (hands == MARKER).any(axis=1) if rule != RULE_ORDINARY else np.zeros(hands.shape[0], bool)
    return HandTable(variant, deck, rule, hands, masks, strengths, base, marker, draw_counts(masks))


#: the class-key formula of :func:`poker51.rules.class_key`, compiled for the kernels
class_key_kernel = njit(cache=True)(class_key)


def class_key_array(base, marker, house_draw) -> np.ndarray:
    """:func:`poker51.rules.class_key` over int64 arrays."""
    return np.asarray(
        class_key(np.asarray(base, np.int64), np.asarray(marker, np.int64), np.asarray(house_draw, np.int64))
    )


@njit(cache=True)
def hand_class_key_kernel(hand, rule, marker):
    """The class key of a dealt hand (five card ints), from its House keep, step and strength."""
    mask, step, s = house_kernel(hand, rule, marker)
    has = 0
    if rule != RULE_ORDINARY:
        for i in range(5):
            if hand[i] == marker:
                has = 1
    kept = 0
    for i in range(5):
        kept += (mask >> i) & 1
    return class_key_kernel(base_class_kernel(step, s), has, 5 - kept)


@lru_cache(maxsize=6)
def class_keys(variant: str, class_set: str = "standard") -> np.ndarray:
    """Sorted keys ``base*100 + marker*10 + house_draw`` of the classes of a variant (in the
    class set ``class_set``); the position of a key is its class id."""
    return np.unique(hand_keys(hand_table(variant), class_set))


def class_frame(variant: str) -> pd.DataFrame:
    """The columns of the class table that identify each class (class, base, marker,
    house_draw), enumerated from the variant (the full table is built by
    :func:`poker51.abstraction.tables.build_abstraction`)."""
    keys = class_keys(variant)
    return pd.DataFrame(
        {"class": np.arange(keys.size), "base": keys // 100, "marker": (keys // 10) % 10 == 1, "house_draw": keys % 10}
    )


def class_names(variant: str, keys: np.ndarray | None = None) -> list[str]:
    keys = class_keys(variant) if keys is None else keys
    if variant == "standard":
        return [ALL_BASE_NAMES[k // 100] for k in keys]
    return [f"{ALL_BASE_NAMES[k // 100]}{'+I' if (k // 10) % 10 else ''}/d{k % 10}" for k in keys]


@dataclass(frozen=True)
class ClassIndex:
    """A class table's class ids by class key (:func:`class_index`): what :func:`classify`
    reads from a table, worked out once instead of at every call.  A key the table lists
    twice has no id (:func:`classify` refuses it, as it does on the table itself)."""

    ids: dict[int, int]
    #: the table's classes are the refined set's (:data:`poker51.abstraction.keys.CLASS_SETS`)
    refined: bool = False


def class_index(classes: pd.DataFrame) -> ClassIndex:
    """The :class:`ClassIndex` of a variant's class table (columns class, base, marker, house_draw)."""
    keys = class_key_array(classes["base"], classes["marker"], classes["house_draw"]).tolist()
    ids = classes["class"].to_numpy().tolist()
    listed = Counter(keys)
    refined = class_set_of(classes["base"]) == "refined"
    return ClassIndex({int(k): int(i) for k, i in zip(keys, ids, strict=True) if listed[k] == 1}, refined)


def _hand_key(h: np.ndarray, rule: int, refined: bool) -> int:
    if not refined:
        return int(hand_class_key_kernel(h, rule, MARKER))
    key, s = hand_class_key_strength([int(c) for c in h], rule, MARKER)
    return refine_key(key, s)


def classify(hand5, variant: str, classes: pd.DataFrame | ClassIndex | None = None) -> int:
    """Class id of a dealt hand (five card ints) in a variant.

    ``classes`` is the variant's class table (e.g. read back from Parquet), or its
    :func:`class_index` (the same ids, for callers that classify many hands); without it the
    class list is enumerated once per process.
    """
    deck, rule = variant_spec(variant)
    h = check_hand(hand5)
    if not set(h.tolist()) <= set(deck.tolist()):  # a set test: np.isin costs more on five cards
        raise ValueError(f"hand {hand5!r} holds a card not in play in {variant}")
    if isinstance(classes, ClassIndex):
        key = _hand_key(h, rule, classes.refined)
        cid = classes.ids.get(key)
        if cid is None:
            raise ValueError(f"hand {hand5!r} has class key {key}, not in the {variant} class list")
        return cid
    key = _hand_key(h, rule, classes is not None and class_set_of(classes["base"]) == "refined")
    if classes is not None:
        keys = class_key_array(classes["base"], classes["marker"], classes["house_draw"])
        ids = classes["class"].to_numpy()
    else:
        keys = class_keys(variant)
        ids = np.arange(keys.size)
    hit = np.flatnonzero(keys == key)
    if hit.size != 1:
        raise ValueError(f"hand {hand5!r} has class key {key}, not in the {variant} class list")
    return int(ids[hit[0]])
