"""The one home of the game's constants and of the names the stages share.

Rule card v0.6 ("A hand", "How Riemann bets", "Ⅰ back in play") and SPEC sections 1, 4, 5
and 7.  Everything here is plain Python (no Numba, no pandas), so that every layer, the
Snakemake rules and the slim game-server core can import it.

>>> VARIANTS["standard"].n_cards, VARIANTS["wild"].rule, VARIANT_RULES["bug"] == RULE_BUG
(51, 1, True)
>>> [read_bet(a) for a in (1, 3, 5, 6, 7, 12)], read_draw(5)
([1, 2, 4, 4, 8, 8], 4)
>>> class_key(13, True, 1), p_label(0.5), p_label(1.0), table_stem("wild")
(1311, 'p0.5', 'p1', 'riemann-v06-wild')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: the categories of a five-card hand, worst first (a strength's top bits, ``strength >> 20``)
CATEGORIES = (
    "high_card",
    "one_pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "five_of_a_kind",
)
(
    HIGH_CARD,
    ONE_PAIR,
    TWO_PAIR,
    THREE_OF_A_KIND,
    STRAIGHT,
    FLUSH,
    FULL_HOUSE,
    FOUR_OF_A_KIND,
    STRAIGHT_FLUSH,
    FIVE_OF_A_KIND,
) = range(10)

#: Marker rules: how the marker card I (the 2 of clubs) is read in a hand that holds it
#: (SPEC section 1; codes shared by the evaluator kernels and the census).
RULE_ORDINARY, RULE_WILD, RULE_BUG, RULE_SUIT_TWO, RULE_CLUB_ANY = range(5)
MARKER_RULES: dict[str, int] = {
    "ordinary": RULE_ORDINARY,
    "wild": RULE_WILD,
    "bug": RULE_BUG,
    "suit_two": RULE_SUIT_TWO,
    "club_any": RULE_CLUB_ANY,
}
#: the marker I = 2 of clubs, card 0 (poker51.cards)
MARKER_CARD = 0


@dataclass(frozen=True)
class Variant:
    """A playable variant: the cards in play (ascending) and the marker rule."""

    name: str
    cards: tuple[int, ...]
    rule: int

    @property
    def n_cards(self) -> int:
        return len(self.cards)


#: The three variants with an abstract game, a strategy table and a real-card engine.
VARIANTS: dict[str, Variant] = {
    "standard": Variant("standard", tuple(range(1, 52)), RULE_ORDINARY),
    "wild": Variant("wild", tuple(range(52)), RULE_WILD),
    "bug": Variant("bug", tuple(range(52)), RULE_BUG),
}
VARIANT_NAMES: tuple[str, ...] = tuple(VARIANTS)
VARIANT_RULES: dict[str, int] = {name: v.rule for name, v in VARIANTS.items()}

#: each player antes 1 jbit (rule card, A hand 1)
ANTE = 1
#: H's opening sizes in jbits (rule card, A hand 3); the abstraction's bets
BET_SIZES: tuple[int, ...] = (1, 2, 4, 8)
#: Riemann's bet when H checks (How Riemann bets, 4)
RIEMANN_BET = 2
#: draw counts 0..5 a player may choose
N_DRAWS = 6


def read_bet(amount: int) -> int:
    """H's bet read at the nearest of 1, 2, 4, 8 jbits; a tie goes to the smaller size
    (How Riemann bets, 4)."""
    a = int(amount)
    if a < 1:
        raise ValueError(f"a bet is at least 1 jbit, got {amount!r}")
    return min(BET_SIZES, key=lambda b: (abs(b - a), b))


def read_draw(d: int) -> int:
    """A five-card draw is read as a four-card draw (How Riemann bets, 4)."""
    d = int(d)
    if not 0 <= d <= 5:
        raise ValueError(f"a draw count is 0..5, got {d!r}")
    return min(d, 4)


def class_key(base: Any, marker: Any, house_draw: Any) -> Any:
    """The key of a dealt-hand class: ``base*100 + holds_marker*10 + house_draw``.

    Classes of a variant are its distinct keys in ascending order (SPEC section 4).  Works on
    ints and on NumPy arrays alike (the abstraction compiles it with Numba for its kernels).
    """
    return base * 100 + marker * 10 + house_draw


#: the most buckets an int8 column holds: the bucket columns of the abstraction's tables and of the
#: strategy table are int8 up to this count (the pipeline's 40) and int16 above it (the
#: abstraction-size study's 160)
INT8_BUCKETS = 127


def bucket_dtype(n_buckets: int) -> str:
    """The dtype of a bucket column of an abstraction with ``n_buckets`` buckets.

    >>> bucket_dtype(40), bucket_dtype(127), bucket_dtype(160)
    ('int8', 'int8', 'int16')
    """
    return "int8" if int(n_buckets) <= INT8_BUCKETS else "int16"


#: the abstraction stage's tables, written as ``{variant}/{name}.parquet``
ABSTRACTION_TABLES: tuple[str, ...] = ("classes", "buckets", "transitions", "belief")
#: the exported strategy table of a variant: ``tables/{table_stem(variant)}.parquet``
TABLE_STEM = "riemann-v06-{variant}"


def table_stem(variant: str) -> str:
    """The file stem of a variant's published strategy table."""
    return TABLE_STEM.format(variant=variant)


def p_label(p: float) -> str:
    """Directory label of a solve at restricted-Nash-response probability ``p``: ``p0``,
    ``p0.1``, ``p0.5``, ``p1``."""
    return f"p{float(p):g}"


__all__ = [
    "ABSTRACTION_TABLES", "ANTE", "BET_SIZES", "INT8_BUCKETS", "MARKER_CARD", "MARKER_RULES", "N_DRAWS", "RIEMANN_BET",
    "RULE_BUG", "RULE_CLUB_ANY", "RULE_ORDINARY", "RULE_SUIT_TWO", "RULE_WILD", "TABLE_STEM", "VARIANTS",
    "VARIANT_NAMES", "VARIANT_RULES", "Variant", "bucket_dtype", "class_key", "p_label", "read_bet", "read_draw",
    "table_stem",
]  # fmt: skip
