"""Decks of the census (SPEC section 1): the 52 cards minus any set of cards, and a marker
card read under one of the marker rules.

>>> d = named_deck("standard")
>>> d.n_cards, d.n_hands, d.marker_in_play
(51, 2349060, False)
>>> make_deck("full52", remove="5h,Ks").name
'full52-5h-Ks'
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from poker51.cards import MARKER, N_CARDS, card_str, cards_str, parse_card, parse_cards
from poker51.errors import InputError
from poker51.hands.evaluate import RULES


@dataclass(frozen=True)
class Deck:
    """The cards in play (52 minus ``removed``) and the marker card read under ``rule``.

    ``removed`` is normalised to a sorted tuple of card ints.  An ordinary deck may
    leave its marker out (``standard``: I is not dealt, no hand holds it); a marker
    rule needs the marker in play.
    """

    name: str
    removed: tuple[int, ...] = ()
    marker: int = MARKER
    rule: str = "ordinary"

    def __post_init__(self) -> None:
        removed = [int(c) for c in self.removed]
        seen: set[int] = set()
        for c in removed:
            if not 0 <= c < N_CARDS:
                raise InputError(f"deck {self.name}: card index {c} is outside 0..51")
            if c in seen:
                raise InputError(f"deck {self.name}: card {card_str(c)} is removed twice")
            seen.add(c)
        if len(removed) > N_CARDS - 5:
            raise InputError(f"deck {self.name}: {N_CARDS - len(removed)} cards left, a hand needs 5")
        if self.rule not in RULES:
            raise InputError(f"deck {self.name}: unknown rule {self.rule!r} (choose from {', '.join(RULES)})")
        if not 0 <= int(self.marker) < N_CARDS:
            raise InputError(f"deck {self.name}: marker index {self.marker} is outside 0..51")
        if self.rule != "ordinary" and int(self.marker) in seen:
            raise InputError(f"deck {self.name}: marker {card_str(self.marker)} is not in the deck (it is removed)")
        object.__setattr__(self, "removed", tuple(sorted(removed)))
        object.__setattr__(self, "marker", int(self.marker))

    @property
    def cards(self) -> tuple[int, ...]:
        """Cards in play, ascending."""
        gone = set(self.removed)
        return tuple(c for c in range(N_CARDS) if c not in gone)

    @property
    def n_cards(self) -> int:
        return N_CARDS - len(self.removed)

    @property
    def n_hands(self) -> int:
        return comb(self.n_cards, 5)

    @property
    def rule_code(self) -> int:
        return RULES[self.rule]

    @property
    def marker_in_play(self) -> bool:
        return self.marker not in self.removed

    def describe(self) -> str:
        gone = f" (52 minus {cards_str(self.removed)})" if self.removed else ""
        if not self.marker_in_play:
            how = f"marker {card_str(self.marker)} not dealt"
        else:
            how = f"marker {card_str(self.marker)} read {self.rule}"
        return f"{self.name}: {self.n_cards} cards{gone}, {how}"


NAMED_DECKS: dict[str, Deck] = {
    "full52": Deck("full52"),
    "standard": Deck("standard", removed=(MARKER,)),
    "wild": Deck("wild", rule="wild"),
    "bug": Deck("bug", rule="bug"),
    "suit_two": Deck("suit_two", rule="suit_two"),
    "club_any": Deck("club_any", rule="club_any"),
}


def named_deck(name: str) -> Deck:
    try:
        return NAMED_DECKS[name]
    except KeyError:
        raise InputError(f"unknown deck {name!r} (choose from {', '.join(NAMED_DECKS)})") from None


def make_deck(base: str = "full52", remove=(), marker=None, rule: str | None = None) -> Deck:
    """A named deck with more cards removed and/or another marker card or rule.

    ``remove`` is a card list ("5h,Ks") or card ints; ``marker`` a card name or int.
    The name records the changes: ``full52-5h-Ks``, ``full52+bug@Ah``.
    """
    deck = named_deck(base)
    extra = parse_cards(remove) if isinstance(remove, str) else [int(c) for c in remove]
    for c in extra:
        if c in deck.removed:
            raise InputError(f"card {card_str(c)} is removed twice (deck {base} already leaves it out)")
    new_marker = deck.marker if marker is None else (parse_card(marker) if isinstance(marker, str) else int(marker))
    new_rule = deck.rule if rule is None else str(rule)
    name = base + "".join(f"-{card_str(c)}" for c in extra)
    if (new_marker, new_rule) != (deck.marker, deck.rule):
        name += f"+{new_rule}@{card_str(new_marker)}" if 0 <= new_marker < N_CARDS else f"+{new_rule}@{new_marker}"
    return Deck(name, removed=deck.removed + tuple(extra), marker=new_marker, rule=new_rule)
