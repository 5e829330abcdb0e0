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

**Buckets** (``n_buckets``, default 40): the exact distribution of the final strength of a
House-rule draw from a uniformly dealt hand (each dealt hand weight 1/C(n,5), each of its
replacements 1/C(n_rest, d)); strength ``s`` goes to bucket ``floor(n_buckets · P(S < s))``,
so equal strengths share a bucket and bucket 0 is the weakest.  Every probability is an exact
rational with denominator C(n,5) · lcm_d C(n_rest, d), stored as an integer ``weight``.

**Transitions** (:mod:`poker51.abstraction.transitions`): for class c and human draw count d = 0..5 the
exact distribution of the final bucket, dealt hands uniform within the class, keep set from
:func:`poker51.hands.house.keep_for_draw`; Riemann's row is the row of its House draw count.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from math import comb, lcm

import numpy as np
import pandas as pd
from numba import njit
from tqdm.auto import tqdm

from poker51.abstraction.belief import build_belief
from poker51.abstraction.transitions import class_histograms, deck_hands, final_hand_weights, subset_histograms
from poker51.cards import MARKER
from poker51.hands.evaluate import (
    FLUSH,
    FULL_HOUSE,
    ONE_PAIR,
    RULE_BUG,
    RULE_ORDINARY,
    RULE_WILD,
    STRAIGHT,
    THREE_OF_A_KIND,
    TWO_PAIR,
    strength_plain,
)
from poker51.hands.evaluate import (
    strengths as eval_strengths,
)
from poker51.hands.house import check_hand, draw_counts, house_keep_plain, house_keeps, house_kernel, keep_table

#: variant -> (cards in play, marker rule)
VARIANTS: dict[str, tuple[tuple[int, ...], int]] = {
    "standard": (tuple(range(1, 52)), RULE_ORDINARY),
    "wild": (tuple(range(52)), RULE_WILD),
    "bug": (tuple(range(52)), RULE_BUG),
}
N_DRAWS = 6
N_BUCKETS = 40
BASE_NAMES = (
    "no_pair_king_high_or_lower", "no_pair_ace_high", "four_to_an_open_ended_straight", "four_to_a_flush",
    "pair_2_to_6", "pair_7", "pair_8", "pair_9", "pair_T", "pair_J", "pair_Q", "pair_K", "pair_A",
    "two_pair", "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind_or_better",
)  # fmt: skip


def variant_spec(variant: str) -> tuple[np.ndarray, int]:
    """(sorted deck as int64 array, marker rule) of a variant name."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; expected one of {sorted(VARIANTS)}")
    deck, rule = VARIANTS[variant]
    return np.array(deck, dtype=np.int64), rule


# --------------------------------------------------------------------------- classes
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


def _class_key(base, marker, house_draw) -> np.ndarray:
    return np.asarray(base, np.int64) * 100 + np.asarray(marker, np.int64) * 10 + np.asarray(house_draw, np.int64)


@lru_cache(maxsize=3)
def class_keys(variant: str) -> np.ndarray:
    """Sorted keys ``base*100 + marker*10 + house_draw`` of the classes of a variant; the
    position of a key is its class id."""
    ht = hand_table(variant)
    return np.unique(_class_key(ht.base, ht.marker, ht.house_draw))


def class_names(variant: str, keys: np.ndarray | None = None) -> list[str]:
    keys = class_keys(variant) if keys is None else keys
    if variant == "standard":
        return [BASE_NAMES[k // 100] for k in keys]
    return [f"{BASE_NAMES[k // 100]}{'+I' if (k // 10) % 10 else ''}/d{k % 10}" for k in keys]


def classify(hand5, variant: str, classes: pd.DataFrame | None = None) -> int:
    """Class id of a dealt hand (five card ints) in a variant.

    ``classes`` is the variant's class table (e.g. read back from Parquet); without it the
    class list is enumerated once per process.
    """
    deck, rule = variant_spec(variant)
    h = check_hand(hand5)
    if not np.isin(h, deck).all():
        raise ValueError(f"hand {hand5!r} holds a card not in play in {variant}")
    mask, step, s = house_kernel(h, rule, MARKER)
    base = base_class_kernel(step, s)
    has = bool(rule != RULE_ORDINARY and (h == MARKER).any())
    key = int(_class_key(base, has, 5 - bin(int(mask)).count("1")))
    if classes is not None:
        keys = _class_key(classes["base"], classes["marker"], classes["house_draw"])
        ids = classes["class"].to_numpy()
    else:
        keys = class_keys(variant)
        ids = np.arange(keys.size)
    hit = np.flatnonzero(keys == key)
    if hit.size != 1:
        raise ValueError(f"hand {hand5!r} has class key {key}, not in the {variant} class list")
    return int(ids[hit[0]])


# --------------------------------------------------------------------------- buckets
def final_strength_distribution(ht: HandTable) -> tuple[np.ndarray, np.ndarray, int]:
    """(strengths ascending int32, exact int64 weights, total) of the House-rule final hand.

    ``weights[i] / total`` is the probability that a uniformly dealt hand ends, after its House
    draw, with strength ``strengths[i]``; total = C(n,5) · lcm_d C(n_rest, d)."""
    L = lcm(*(comb(ht.n_rest, d) for d in range(5)))
    w = L // np.array([comb(ht.n_rest, d) for d in range(5)], dtype=np.int64)[ht.house_draw]
    fw = final_hand_weights(ht.hands, ht.masks.astype(np.int64), w)
    values, inv = np.unique(ht.strengths, return_inverse=True)
    weights = np.zeros(values.size, np.int64)
    np.add.at(weights, inv, fw)
    total = ht.hands.shape[0] * L
    if weights.sum() != total or weights.min() < 0:
        raise AssertionError("final-strength weights do not sum to C(n,5) · L")
    return values.astype(np.int32), weights, int(total)


def bucket_table(values: np.ndarray, weights: np.ndarray, total: int, n_buckets: int = N_BUCKETS) -> pd.DataFrame:
    """Quantile buckets of a strength distribution: bucket, low, high, n_strengths, weight, probability."""
    pos = weights > 0
    v, w = values[pos], weights[pos]
    below = np.cumsum(w) - w
    b = (n_buckets * below) // total  # exact: floor(n_buckets · P(S < s))
    if np.unique(b).size != n_buckets:
        raise ValueError(f"only {np.unique(b).size} of {n_buckets} buckets are non-empty")
    rows = []
    for k in range(n_buckets):
        sel = b == k
        rows.append((k, v[sel].min(), v[sel].max(), sel.sum(), w[sel].sum()))
    df = pd.DataFrame(rows, columns=["bucket", "low", "high", "n_strengths", "weight"])
    df = df.astype({"bucket": "int8", "low": "int32", "high": "int32", "n_strengths": "int32", "weight": "int64"})
    df["probability"] = (df["weight"] / total).astype("float64")
    return df


def bucket_of_strength(strengths, variant_buckets) -> np.ndarray:
    """Bucket (int8) of each strength: the last bucket whose lowest strength is ≤ it.

    ``variant_buckets`` is a bucket table or its ``low`` column; a strength below every
    bucket goes to bucket 0.
    """
    lows = np.asarray(variant_buckets["low"] if isinstance(variant_buckets, pd.DataFrame) else variant_buckets)
    b = np.searchsorted(lows, np.asarray(strengths), side="right") - 1
    return np.maximum(b, 0).astype(np.int8)


@lru_cache(maxsize=3)
def _cached_buckets(variant: str, n_buckets: int) -> pd.DataFrame:
    return bucket_table(*final_strength_distribution(hand_table(variant)), n_buckets)


def bucket_of(final_hand5, variant: str, buckets: pd.DataFrame | None = None) -> int:
    """Bucket of a final hand (five card ints) of a variant; ``buckets`` defaults to the
    exact 40-bucket table, computed once per process."""
    deck, rule = variant_spec(variant)
    if not np.isin(np.asarray(final_hand5), deck).all():
        raise ValueError(f"hand {final_hand5!r} holds a card not in play in {variant}")
    s = eval_strengths(np.asarray(final_hand5, dtype=np.int64)[None, :], rule)
    return int(bucket_of_strength(s, _cached_buckets(variant, N_BUCKETS) if buckets is None else buckets)[0])


# --------------------------------------------------------------------------- build
def build_abstraction(
    variant: str,
    n_buckets: int = N_BUCKETS,
    belief_seed: int = 51,
    belief_samples: int = 20_000,
    progress: bool = True,
    timings: dict[str, float] | None = None,
) -> dict[str, pd.DataFrame]:
    """Tables ``classes``, ``buckets``, ``transitions``, ``belief`` of a variant (sorted rows,
    fixed dtypes; write them with :func:`poker51.io.write_parquet`).

    - classes: class int16, name, base int8, base_name, marker bool, house_draw int8,
      members int64, probability float64
    - buckets: bucket int8, low int32, high int32, n_strengths int32, weight int64, probability
    - transitions: drawer ("human" rows d = 0..5, "riemann" one row set at its House draw),
      class int16, draw int8, bucket int8, count int64, total int64, probability float64;
      count / total exact (total = members · C(n_rest, draw))
    - belief: draw int8 (0..5), quantile int16 (0..999), strength int32

    ``timings``, if given, receives the seconds of each stage.
    """
    bar = tqdm(total=5, desc=f"abstraction {variant}", disable=not progress, leave=False)
    clock = [time.perf_counter()]

    def stage(name: str) -> None:
        now = time.perf_counter()
        if timings is not None:
            timings[name] = timings.get(name, 0.0) + now - clock[0]
        clock[0] = now
        bar.update()

    ht = hand_table(variant)
    stage("hands")
    buckets = bucket_table(*final_strength_distribution(ht), n_buckets)
    stage("buckets")
    keys = class_keys(variant)
    cls = np.searchsorted(keys, _class_key(ht.base, ht.marker, ht.house_draw))
    n_classes = keys.size
    members = np.bincount(cls, minlength=n_classes).astype(np.int64)
    house_draw = (keys % 10).astype(np.int8)
    labels = bucket_of_strength(ht.strengths, buckets).astype(np.int64)
    A = subset_histograms(ht.hands, labels, n_buckets)
    keeps = keep_table(ht.hands, ht.masks, ht.rule)
    hist = class_histograms(ht.hands, cls, n_classes, keeps, labels, A)  # (C, 6, B)
    del A
    stage("transitions")
    totals = members[:, None] * np.array([comb(ht.n_rest, d) for d in range(N_DRAWS)], dtype=np.int64)[None, :]
    if not np.array_equal(hist.sum(axis=2), totals) or hist.min() < 0:
        raise AssertionError("transition counts do not sum to members · C(n_rest, d)")
    classes = pd.DataFrame({
        "class": np.arange(n_classes, dtype=np.int16),
        "name": class_names(variant, keys),
        "base": (keys // 100).astype(np.int8),
        "base_name": [BASE_NAMES[k // 100] for k in keys],
        "marker": ((keys // 10) % 10).astype(bool),
        "house_draw": house_draw,
        "members": members,
        "probability": members / ht.hands.shape[0],
    })  # fmt: skip
    c, d, b = np.meshgrid(np.arange(n_classes), np.arange(N_DRAWS), np.arange(n_buckets), indexing="ij")
    human = pd.DataFrame(
        {
            "drawer": "human",
            "class": c.ravel(),
            "draw": d.ravel(),
            "bucket": b.ravel(),
            "count": hist.ravel(),
            "total": np.broadcast_to(totals[:, :, None], hist.shape).ravel(),
        }
    )
    riemann = human[human["draw"].to_numpy() == house_draw[human["class"].to_numpy()]].assign(drawer="riemann")
    transitions = pd.concat([human, riemann], ignore_index=True)
    transitions = transitions.astype(
        {"class": "int16", "draw": "int8", "bucket": "int8", "count": "int64", "total": "int64"}
    )
    transitions["probability"] = transitions["count"] / transitions["total"]
    transitions = transitions.sort_values(["drawer", "class", "draw", "bucket"], kind="stable").reset_index(drop=True)
    stage("tables")
    table = build_belief(ht.hands, ht.masks, ht.house_draw, ht.deck, ht.rule, belief_seed, belief_samples)
    q = table.shape[1]
    belief = pd.DataFrame({
        "draw": np.repeat(np.arange(table.shape[0]), q).astype(np.int8),
        "quantile": np.tile(np.arange(q), table.shape[0]).astype(np.int16),
        "strength": table.ravel().astype(np.int32),
    })  # fmt: skip
    stage("belief")
    bar.close()
    return {"classes": classes, "buckets": buckets, "transitions": transitions, "belief": belief}


# --------------------------------------------------------------------------- accessors
def class_probabilities(tables: dict[str, pd.DataFrame]) -> np.ndarray:
    """(n_classes,) float64."""
    return tables["classes"].sort_values("class")["probability"].to_numpy(np.float64)


def _n(tables) -> tuple[int, int]:
    return len(tables["classes"]), len(tables["buckets"])


def human_transitions(tables: dict[str, pd.DataFrame]) -> np.ndarray:
    """(n_classes, 6, n_buckets) float64: P(final bucket | class, human draw count)."""
    C, B = _n(tables)
    t = tables["transitions"]
    t = t[t["drawer"] == "human"].sort_values(["class", "draw", "bucket"])
    return t["probability"].to_numpy(np.float64).reshape(C, N_DRAWS, B)


def riemann_transitions(tables: dict[str, pd.DataFrame]) -> np.ndarray:
    """(n_classes, n_buckets) float64: P(final bucket | class) under Riemann's House draw."""
    C, B = _n(tables)
    t = tables["transitions"]
    t = t[t["drawer"] == "riemann"].sort_values(["class", "bucket"])
    return t["probability"].to_numpy(np.float64).reshape(C, B)


def riemann_draws(tables: dict[str, pd.DataFrame]) -> np.ndarray:
    """(n_classes,) int8: Riemann's House draw count per class."""
    return tables["classes"].sort_values("class")["house_draw"].to_numpy(np.int8)


def belief_array(tables: dict[str, pd.DataFrame]) -> np.ndarray:
    """(6, 1000) int32 belief table (rows: draw count 0..4, random hands 5)."""
    t = tables["belief"].sort_values(["draw", "quantile"])
    return t["strength"].to_numpy(np.int32).reshape(t["draw"].nunique(), -1)


def arrays(tables: dict[str, pd.DataFrame]) -> dict[str, object]:
    """The arrays the game builder takes: ``class_prob``, ``h_trans``, ``r_trans``,
    ``r_draw``, ``class_names``."""
    return {
        "class_prob": class_probabilities(tables),
        "h_trans": human_transitions(tables),
        "r_trans": riemann_transitions(tables),
        "r_draw": riemann_draws(tables),
        "class_names": tuple(tables["classes"].sort_values("class")["name"]),
    }


__all__ = [
    "BASE_NAMES", "N_BUCKETS", "N_DRAWS", "VARIANTS", "HandTable", "arrays", "base_class_plain", "belief_array",
    "bucket_of", "bucket_of_strength", "bucket_table", "build_abstraction", "class_keys", "class_names",
    "class_probabilities", "classify", "final_strength_distribution", "hand_table", "human_transitions",
    "riemann_draws", "riemann_transitions", "variant_spec",
]  # fmt: skip
