"""Cards: the integer encoding shared by kernels, Parquet files and the CLI.

A card is an int ``4 * rank + suit`` with ranks ``0..12`` for 2..A and suits
``0..3`` for clubs, diamonds, hearts, spades.  The suit order of the rule card
(spade > heart > diamond > club, used only for the House rule's tie-break) is the
numeric order, and the marker I (the physical two of clubs) is card 0.

>>> parse_card("2c"), parse_card("As"), parse_card("10h"), parse_card("T♥")
(0, 51, 34, 34)
>>> card_str(MARKER), card_str(51), Card.parse("Qd")
('2c', 'As', Card('Qd'))
>>> Card.parse("Qd").rank, Card.parse("Qd").suit
(<Rank.QUEEN: 10>, <Suit.DIAMOND: 1>)
>>> parse_cards("5h,Ks")
[14, 47]
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from poker51.errors import InputError

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
N_CARDS = 52
#: the marker I = 2 of clubs
MARKER = 0
#: the two-character name of every card, indexed by its int (``card_str`` without the call)
CARD_NAMES: tuple[str, ...] = tuple(r + s for r in RANK_CHARS for s in SUIT_CHARS)
_CARD_OF_NAME = {name: i for i, name in enumerate(CARD_NAMES)}


class Rank(IntEnum):
    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12


class Suit(IntEnum):
    """Suits in the rule card's order: a higher value wins the House tie-break."""

    CLUB = 0
    DIAMOND = 1
    HEART = 2
    SPADE = 3


def card_index(rank: int, suit: int) -> int:
    """The integer of the card with this rank (0..12) and suit (0..3)."""
    return 4 * int(rank) + int(suit)


def rank_of(card: int) -> int:
    return int(card) >> 2


def suit_of(card: int) -> int:
    return int(card) & 3


def card_str(card: int) -> str:
    """Two-character name: rank char then suit char, e.g. ``'Ts'``."""
    card = int(card)
    if not 0 <= card < N_CARDS:
        raise InputError(f"card index {card} is outside 0..51")
    return CARD_NAMES[card]


def parse_card(text: str) -> int:
    """Parse ``'2c'``, ``'10h'``, ``'Th'``, ``'t♥'``; raise InputError otherwise."""
    known = _CARD_OF_NAME.get(text) if isinstance(text, str) else None
    if known is not None:  # the canonical name (what logs hold): one lookup
        return known
    t = str(text).strip()
    if len(t) < 2:
        raise InputError(f"unknown card {text!r}: expected a rank 2-9/T/J/Q/K/A and a suit c/d/h/s")
    rank_part, suit_part = t[:-1].upper(), t[-1]
    if rank_part == "10":
        rank_part = "T"
    suit_part = suit_part.lower()
    if suit_part in SUIT_SYMBOLS:
        suit_part = SUIT_CHARS[SUIT_SYMBOLS.index(suit_part)]
    if len(rank_part) != 1 or rank_part not in RANK_CHARS or suit_part not in SUIT_CHARS:
        raise InputError(f"unknown card {text!r}: expected a rank 2-9/T/J/Q/K/A and a suit c/d/h/s")
    return card_index(RANK_CHARS.index(rank_part), SUIT_CHARS.index(suit_part))


def parse_cards(text: str) -> list[int]:
    """Parse a comma- or space-separated list of cards; a repeated card is an error."""
    parts = [p for p in str(text).replace(",", " ").split() if p]
    cards = [parse_card(p) for p in parts]
    seen: set[int] = set()
    for p, c in zip(parts, cards):
        if c in seen:
            raise InputError(f"card {card_str(c)} is given twice ({p!r})")
        seen.add(c)
    return cards


def cards_str(cards) -> str:
    return " ".join(card_str(c) for c in cards)


@dataclass(frozen=True, order=True)
class Card:
    """A readable card at the edges of the package; kernels use ``Card.index``."""

    index: int

    def __post_init__(self) -> None:
        if not 0 <= int(self.index) < N_CARDS:
            raise InputError(f"card index {self.index} is outside 0..51")

    @classmethod
    def parse(cls, text: str) -> Card:
        return cls(parse_card(text))

    @property
    def rank(self) -> Rank:
        return Rank(self.index >> 2)

    @property
    def suit(self) -> Suit:
        return Suit(self.index & 3)

    def __str__(self) -> str:
        return card_str(self.index)

    def __repr__(self) -> str:
        return f"Card({card_str(self.index)!r})"


def all_hands(cards: np.ndarray | list[int], k: int = 5) -> np.ndarray:
    """Every k-subset of ``cards`` (sorted ascending) in lexicographic order, as an (n, k) uint8 array.

    >>> all_hands(range(52)).shape
    (2598960, 5)
    """
    from itertools import combinations

    cards = np.sort(np.asarray(list(cards), dtype=np.uint8))
    n = len(cards)
    from math import comb

    out = np.fromiter(
        (c for combo in combinations(range(n), k) for c in combo), dtype=np.int64, count=comb(n, k) * k
    ).reshape(-1, k)
    return cards[out]
