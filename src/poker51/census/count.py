"""Census: exact category counts over every five-card hand of a deck (SPEC section 2).

A :class:`~poker51.census.decks.Deck` is the 52 cards minus a set of removed cards, with a
marker card read under a rule (:data:`poker51.hands.evaluate.RULES`).  :func:`census` enumerates all C(n, 5)
hands in one Numba kernel and counts them per category, split by whether the hand
holds the marker.  The kernel never builds a hand array: five nested loops over card
positions keep the rank counts incrementally, and a hand's category follows from

* ``S = sum over ranks of count**2`` (5 high card or straight, 7 one pair, 9 two pair,
  11 three of a kind, 13 full house, 17 four of a kind, 25 five of a kind),
* a 13-bit rank mask looked up in a straight table when the five ranks are distinct,
* whether the five suits agree.

For a hand that holds the marker under a rule, the kernel computes the *reachable
mask*: the set (bitmask over category ids) of categories the marker's readings can
make with the four natural cards.  Its highest bit is the hand's category under the
standard order; the mask itself feeds the order search (:mod:`poker51.census.orders`).
Readings (rule card "Ⅰ back in play", SPEC section 1; category only):

* wild: any rank, duplicates allowed (no flush), and any card not held;
* bug: an ace (duplicates allowed), any card not held that makes a straight,
  a flush or a straight flush;
* suit_two: a card of the marker's rank (a two) in a suit not held;
* club_any: a card of the marker's suit (a club) of a rank not held;
* ordinary: the marker card itself.

>>> from poker51.census.decks import named_deck
>>> c = census(named_deck("full52"))
>>> int(c.counts.sum()), int(c.counts[1].sum()), int(c.category_counts()[STRAIGHT_FLUSH])
(2598960, 249900, 40)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numba import njit

from poker51.cards import MARKER, N_CARDS, cards_str
from poker51.census.decks import Deck
from poker51.errors import InputError
from poker51.hands.evaluate import (
    CATEGORIES,
    FIVE_OF_A_KIND,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    RULE_BUG,
    RULE_CLUB_ANY,
    RULE_ORDINARY,
    RULE_SUIT_TWO,
    RULE_WILD,
    RULES,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
)

N_CATEGORIES = len(CATEGORIES)
N_MASKS = 1 << N_CATEGORIES
#: the five categories defined only by how often ranks repeat (rule card)
RANK_MULTIPLICITY = (ONE_PAIR, TWO_PAIR, THREE_OF_A_KIND, FULL_HOUSE, FOUR_OF_A_KIND)
#: patterns of the four natural cards of a marker hand, indexed as in ``DeckCensus.reach``
NATURAL_PATTERNS = ("no_pair", "one_pair", "two_pair", "three_of_a_kind", "four_of_a_kind")
#: the standard category order, best first (category ids)
STANDARD_ORDER = tuple(range(N_CATEGORIES - 1, -1, -1))


# --------------------------------------------------------------------------- kernels
def _tables():
    s_cat = np.full(26, -1, np.int64)
    for s, cat in (
        (5, HIGH_CARD),
        (7, ONE_PAIR),
        (9, TWO_PAIR),
        (11, THREE_OF_A_KIND),
        (13, FULL_HOUSE),
        (17, FOUR_OF_A_KIND),
        (25, FIVE_OF_A_KIND),
    ):
        s_cat[s] = cat
    straight = np.zeros(1 << 13, np.bool_)
    for high in range(4, 13):
        straight[0b11111 << (high - 4)] = True
    straight[(1 << 12) | 0b1111] = True  # the wheel A-2-3-4-5
    pattern = np.full(17, -1, np.int64)
    for s, p in ((4, 0), (6, 1), (8, 2), (10, 3), (16, 4)):
        pattern[s] = p
    top = np.zeros(N_MASKS, np.int64)
    for m in range(1, N_MASKS):
        top[m] = m.bit_length() - 1
    return s_cat, straight, pattern, top


#: category by sum of squared rank counts; straight rank masks; natural pattern by S of
#: four cards; ``TOP[mask]``: the highest category of a reachable mask (the category under
#: the standard order)
_S_CATEGORY, _STRAIGHT, _PATTERN, TOP = _tables()


@njit(cache=True)
def _rank_read(cnt, s4, m4, r):
    """Category of the four counted cards plus rank r, not a flush."""
    s5 = s4 + 2 * cnt[r] + 1
    if s5 == 5:
        return STRAIGHT if _STRAIGHT[m4 | (1 << r)] else HIGH_CARD
    return _S_CATEGORY[s5]


@njit(cache=True)
def _card_read(cnt, s4, m4, fsuit, c):
    """Category of the four counted cards plus card c (not held); ``fsuit`` their common suit or -1."""
    if (c & 3) == fsuit:  # four suited naturals hold distinct ranks, c's rank is new
        return STRAIGHT_FLUSH if _STRAIGHT[m4 | (1 << (c >> 2))] else FLUSH
    return _rank_read(cnt, s4, m4, c >> 2)


@njit(cache=True)
def _reach(n0, n1, n2, n3, rule, marker, cnt):
    """Reachable mask of naturals n0..n3 with the marker under ``rule``.

    Returns (mask, S of the naturals, category of the ordinary reading, naturals of
    the marker's rank).  ``cnt`` is a zeroed scratch array of 13, left zeroed.
    """
    s4 = 0
    m4 = 0
    held = 0
    for c in (n0, n1, n2, n3):
        r = c >> 2
        s4 += 2 * cnt[r] + 1
        cnt[r] += 1
        m4 |= 1 << r
        held |= 1 << c
    fsuit = n0 & 3
    if (n1 & 3) != fsuit or (n2 & 3) != fsuit or (n3 & 3) != fsuit:
        fsuit = -1
    mask = 0
    if rule == RULE_WILD:
        for r in range(13):
            mask |= 1 << _rank_read(cnt, s4, m4, r)
        if fsuit >= 0:
            for r in range(13):
                if not (m4 >> r) & 1:
                    mask |= 1 << _card_read(cnt, s4, m4, fsuit, 4 * r + fsuit)
    elif rule == RULE_BUG:
        mask |= 1 << _rank_read(cnt, s4, m4, 12)
        for r in range(13):
            if _rank_read(cnt, s4, m4, r) == STRAIGHT:
                mask |= 1 << STRAIGHT
        if fsuit >= 0:
            for r in range(13):
                if not (m4 >> r) & 1:
                    mask |= 1 << _card_read(cnt, s4, m4, fsuit, 4 * r + fsuit)
    elif rule == RULE_SUIT_TWO:
        for s in range(4):
            c = (marker & ~3) | s
            if not (held >> c) & 1:
                mask |= 1 << _card_read(cnt, s4, m4, fsuit, c)
    elif rule == RULE_CLUB_ANY:
        for r in range(13):
            c = 4 * r + (marker & 3)
            if not (held >> c) & 1:
                mask |= 1 << _card_read(cnt, s4, m4, fsuit, c)
    else:
        mask = 1 << _card_read(cnt, s4, m4, fsuit, marker)
    ordinary = _card_read(cnt, s4, m4, fsuit, marker)
    same_rank = cnt[marker >> 2]
    for c in (n0, n1, n2, n3):
        cnt[c >> 2] = 0
    return mask, s4, ordinary, same_rank


@njit(cache=True)
def _census_kernel(cards, pm, rule, marker, counts, reach, by_card, cat_out):
    """Count every 5-subset of ``cards`` (ascending card ints) by category.

    ``pm``: position of the marker in ``cards`` or -1.  Outputs (added to):
    ``counts[holds marker, category]``; for marker hands under a rule,
    ``reach[naturals of the marker's rank, natural pattern, ordinary category, mask]``;
    if ``by_card`` has 52 rows, ``by_card[card, category]`` (hands holding the card);
    if ``cat_out`` is not empty, each hand's category in lexicographic order.
    """
    n = cards.shape[0]
    ranks = cards >> 2
    suits = cards & 3
    cnt = np.zeros(13, np.int64)
    scratch = np.zeros(13, np.int64)
    nat = np.empty(4, np.int64)
    loc = np.zeros((5, N_CATEGORIES), np.int64)
    do_card = by_card.shape[0] > 0
    do_out = cat_out.shape[0] > 0
    ruled = rule != RULE_ORDINARY and pm >= 0
    h = 0
    for a in range(n - 4):
        ra = ranks[a]
        sa = suits[a]
        cnt[ra] += 1
        m1 = 1 << ra
        for b in range(a + 1, n - 3):
            rb = ranks[b]
            s2 = 1 + 2 * cnt[rb] + 1
            cnt[rb] += 1
            m2 = m1 | (1 << rb)
            f2 = suits[b] == sa
            for c in range(b + 1, n - 2):
                rc = ranks[c]
                s3 = s2 + 2 * cnt[rc] + 1
                cnt[rc] += 1
                m3 = m2 | (1 << rc)
                f3 = f2 and suits[c] == sa
                for d in range(c + 1, n - 1):
                    rd = ranks[d]
                    s4 = s3 + 2 * cnt[rd] + 1
                    cnt[rd] += 1
                    m4 = m3 | (1 << rd)
                    f4 = f3 and suits[d] == sa
                    mk4 = a == pm or b == pm or c == pm or d == pm
                    for e in range(d + 1, n):
                        hm = mk4 or e == pm
                        if ruled and hm:
                            k = 0
                            for p in (a, b, c, d, e):
                                if p != pm:
                                    nat[k] = cards[p]
                                    k += 1
                            mask, sn, ordinary, same = _reach(nat[0], nat[1], nat[2], nat[3], rule, marker, scratch)
                            cat = TOP[mask]
                            reach[same, _PATTERN[sn], ordinary, mask] += 1
                        else:
                            re = ranks[e]
                            s5 = s4 + 2 * cnt[re] + 1
                            if s5 == 5:
                                st = _STRAIGHT[m4 | (1 << re)]
                                if f4 and suits[e] == sa:
                                    cat = STRAIGHT_FLUSH if st else FLUSH
                                else:
                                    cat = STRAIGHT if st else HIGH_CARD
                            else:
                                cat = _S_CATEGORY[s5]
                        counts[1 if hm else 0, cat] += 1
                        if do_out:
                            cat_out[h] = cat
                            h += 1
                        if do_card:
                            by_card[cards[e], cat] += 1
                            loc[4, cat] += 1
                    if do_card:
                        for t in range(N_CATEGORIES):
                            by_card[cards[d], t] += loc[4, t]
                            loc[3, t] += loc[4, t]
                            loc[4, t] = 0
                    cnt[rd] -= 1
                if do_card:
                    for t in range(N_CATEGORIES):
                        by_card[cards[c], t] += loc[3, t]
                        loc[2, t] += loc[3, t]
                        loc[3, t] = 0
                cnt[rc] -= 1
            if do_card:
                for t in range(N_CATEGORIES):
                    by_card[cards[b], t] += loc[2, t]
                    loc[1, t] += loc[2, t]
                    loc[2, t] = 0
            cnt[rb] -= 1
        if do_card:
            for t in range(N_CATEGORIES):
                by_card[cards[a], t] += loc[1, t]
                loc[1, t] = 0
        cnt[ra] -= 1


def _kernel_args(deck: Deck):
    cards = np.asarray(deck.cards, dtype=np.int64)
    pm = int(np.searchsorted(cards, deck.marker)) if deck.marker_in_play else -1
    return cards, pm, deck.rule_code, deck.marker


# --------------------------------------------------------------------------- census
@dataclass(frozen=True, eq=False)
class DeckCensus:
    """Exact counts of one deck (arrays are read-only).

    ``counts[0 / 1, category]``: hands without / with the marker.  ``reach``
    (shape (4, 5, 10, 1024)): marker hands under a rule by (natural cards of the
    marker's rank, :data:`NATURAL_PATTERNS` index, category of reading the marker
    as its own card, reachable mask); all zero for an ordinary deck.  ``by_card``
    (52, 10): hands holding each card, per category (only if asked for).
    """

    deck: Deck
    counts: np.ndarray
    reach: np.ndarray
    by_card: np.ndarray | None = None

    @property
    def hands(self) -> int:
        return int(self.counts.sum())

    def category_counts(self) -> np.ndarray:
        """Counts per category id (both marker columns)."""
        return self.counts.sum(axis=0)

    def mask_counts(self) -> np.ndarray:
        """Hands per reachable mask (length 1024); a hand without a rule reading reaches its category only."""
        out = self.reach.sum(axis=(0, 1, 2)).astype(np.int64)
        plain = self.counts.copy()
        if self.deck.rule != "ordinary":
            plain[1] = 0  # marker hands are in ``reach``
        for cat in range(N_CATEGORIES):
            out[1 << cat] += plain[:, cat].sum()
        return out

    def transitions(self) -> np.ndarray:
        """Marker hands by (category reading the marker as its own card, category under the rule)."""
        out = np.zeros((N_CATEGORIES, N_CATEGORIES), np.int64)
        per = self.reach.sum(axis=(0, 1))  # (ordinary, mask)
        for mask in np.flatnonzero(per.sum(axis=0)):
            out[:, TOP[mask]] += per[:, mask]
        return out


@functools.lru_cache(maxsize=32)
def census(deck: Deck, by_card: bool = False) -> DeckCensus:
    """Enumerate every hand of ``deck`` once (cached per deck)."""
    cards, pm, rule, marker = _kernel_args(deck)
    counts = np.zeros((2, N_CATEGORIES), np.int64)
    reach = np.zeros((4, len(NATURAL_PATTERNS), N_CATEGORIES, N_MASKS), np.int64)
    per_card = np.zeros((N_CARDS if by_card else 0, N_CATEGORIES), np.int64)
    _census_kernel(cards, pm, rule, marker, counts, reach, per_card, np.zeros(0, np.int8))
    for a in (counts, reach, per_card):
        a.setflags(write=False)
    return DeckCensus(deck, counts, reach, per_card if by_card else None)


def hand_categories(deck: Deck) -> np.ndarray:
    """Category of every hand of ``deck`` in lexicographic order (int8), from the census kernel."""
    cards, pm, rule, marker = _kernel_args(deck)
    out = np.empty(deck.n_hands, np.int8)
    _census_kernel(
        cards,
        pm,
        rule,
        marker,
        np.zeros((2, N_CATEGORIES), np.int64),
        np.zeros((4, len(NATURAL_PATTERNS), N_CATEGORIES, N_MASKS), np.int64),
        np.zeros((0, N_CATEGORIES), np.int64),
        out,
    )
    return out


@njit(cache=True)
def _masks_many(naturals, rule, marker, out):
    scratch = np.zeros(13, np.int64)
    for i in range(naturals.shape[0]):
        n = naturals[i]
        out[i] = _reach(n[0], n[1], n[2], n[3], rule, marker, scratch)[0]


def marker_hand_masks(deck: Deck) -> tuple[np.ndarray, np.ndarray]:
    """Every marker hand of ``deck``: its four naturals (lexicographic, (n, 4)) and reachable mask.

    Hand by hand, unlike the census kernel's aggregated ``reach`` table; for tests
    and brute-force order recounts.
    """
    from poker51.cards import all_hands

    if not deck.marker_in_play:
        return np.zeros((0, 4), np.int64), np.zeros(0, np.int64)
    naturals = all_hands([c for c in deck.cards if c != deck.marker], 4).astype(np.int64)
    masks = np.empty(naturals.shape[0], np.int64)
    _masks_many(naturals, deck.rule_code, deck.marker, masks)
    return naturals, masks


def reach_mask(naturals, rule: str, marker: int = MARKER) -> int:
    """Kernel reachable mask of four natural cards plus the marker under ``rule``.

    >>> from poker51.cards import parse_cards
    >>> from poker51.hands.evaluate import CATEGORIES
    >>> m = reach_mask(parse_cards("2d 6s 9h Qc"), "bug")   # I 2d 6s 9h Qc
    >>> [CATEGORIES[c] for c in range(10) if m >> c & 1]
    ['high_card']
    """
    nat = [int(c) for c in naturals]
    if len(set(nat)) != 4 or marker in nat:
        raise InputError(f"need four distinct natural cards other than the marker, got {cards_str(nat)}")
    mask, _, _, _ = _reach(nat[0], nat[1], nat[2], nat[3], RULES[rule], int(marker), np.zeros(13, np.int64))
    return int(mask)


def reach_mask_plain(naturals, rule: str, marker: int = MARKER) -> int:
    """Plain twin of :func:`reach_mask`: every reading listed, each hand classified with ``Counter``."""
    from collections import Counter

    nat = [int(c) for c in naturals]
    code = RULES[rule]

    def category(ranks, flush):
        shape = sorted(Counter(ranks).values(), reverse=True)
        distinct = sorted(set(ranks))
        straight = len(distinct) == 5 and (distinct[4] - distinct[0] == 4 or distinct == [0, 1, 2, 3, 12])
        if shape[0] == 5:
            return FIVE_OF_A_KIND
        if straight and flush:
            return STRAIGHT_FLUSH
        if shape[0] == 4:
            return FOUR_OF_A_KIND
        if shape[:2] == [3, 2]:
            return FULL_HOUSE
        if flush:
            return FLUSH
        if straight:
            return STRAIGHT
        return {3: THREE_OF_A_KIND, 2: TWO_PAIR if shape[1] == 2 else ONE_PAIR, 1: HIGH_CARD}[shape[0]]

    ranks = [c >> 2 for c in nat]
    free = [c for c in range(N_CARDS) if c not in nat]
    card_cat = {c: category(ranks + [c >> 2], len({x & 3 for x in nat + [c]}) == 1) for c in free}
    if code == RULE_WILD:
        cats = {category(ranks + [r], False) for r in range(13)} | set(card_cat.values())
    elif code == RULE_BUG:
        cats = {category(ranks + [12], False)}
        cats |= {v for c, v in card_cat.items() if v in (STRAIGHT, FLUSH, STRAIGHT_FLUSH) or c >> 2 == 12}
    elif code == RULE_SUIT_TWO:
        cats = {v for c, v in card_cat.items() if c >> 2 == marker >> 2}
    elif code == RULE_CLUB_ANY:
        cats = {v for c, v in card_cat.items() if c & 3 == marker & 3}
    else:
        cats = {card_cat[marker]}
    return sum(1 << c for c in cats)


# --------------------------------------------------------------------------- tables
def counts_frame(results: list[DeckCensus]) -> pd.DataFrame:
    """Long table: one row per (deck, category), best category first within a deck.

    Columns: deck, category, category_id, count, with_marker, hands, probability.
    """
    rows = []
    for res in results:
        total = res.hands
        for cat in STANDARD_ORDER:
            n = int(res.counts[:, cat].sum())
            rows.append((res.deck.name, CATEGORIES[cat], cat, n, int(res.counts[1, cat]), total, n / total))
    df = pd.DataFrame(rows, columns=["deck", "category", "category_id", "count", "with_marker", "hands", "probability"])
    df["category_id"] = df["category_id"].astype(np.int8)
    df = df.sort_values(["deck", "category_id"], ascending=[True, False], kind="stable")
    return df.reset_index(drop=True)


def category_names(order) -> list[str]:
    """The names of category ids, in the given order."""
    return [CATEGORIES[c] for c in order]
