"""PokerKit as an oracle (test-only): the rule book's games as PokerKit games and PHH variants.

PokerKit knows no-limit hold'em (``NT``) and Omaha hands of two hole cards with three board
cards (``OmahaHoldemHand``).  The Omahas of the rule book are registered here with the PHH
codes :mod:`poker51.rulebook.phh` writes: ``NO`` (4 hole cards), ``NO5`` (5), ``NO3`` (3 of
4 hole cards with 2 of the board: a ``HoleBoardCombinationHand`` with those counts) and
``NOF`` (Open Flop: hole cards and flop in the first street, no blinds).  Rake (Article X,
per pot, rounded down, no rake before the flop) is the same function on both sides.
"""

from __future__ import annotations

from typing import ClassVar

from pokerkit import (
    BettingStructure,
    Deck,
    HandHistory,
    HoleBoardCombinationHand,
    NoLimitTexasHoldem,
    OmahaHoldemHand,
    Opening,
    Poker,
    StandardHighHand,
    StandardLookup,
    Street,
)
from pokerkit.games import NoLimitPokerMixin, OmahaHoldemMixin, UnfixedLimitHoldem

from poker51.rulebook.showdown import rake_of


class Omaha3Hand(HoleBoardCombinationHand):
    """Omaha (3 Cards), 7.4: exactly three hole cards with exactly two board cards."""

    lookup = StandardLookup()
    low = False
    card_count = 5
    board_card_count = 2
    hole_card_count = 3


class NoLimitOmaha(NoLimitPokerMixin, OmahaHoldemMixin, UnfixedLimitHoldem):
    hand_types = (OmahaHoldemHand,)


class NoLimitOmaha5(NoLimitOmaha):
    hole_dealing_count = 5


class NoLimitOmaha3(NoLimitOmaha):
    hand_types = (Omaha3Hand,)


class NoLimitOmahaOpenFlop(Poker):
    """7.5: every player antes, hole cards and the flop at once, rounds after flop, turn, river."""

    deck: ClassVar[Deck] = Deck.STANDARD
    hand_types = (OmahaHoldemHand,)
    betting_structure = BettingStructure.NO_LIMIT

    def __init__(
        self, automations, ante_trimming_status, raw_antes, raw_blinds_or_straddles, min_bet, *, mode, divmod, rake
    ):
        streets = (
            Street(False, (False,) * 4, 3, False, Opening.POSITION, min_bet, None),
            Street(True, (), 1, False, Opening.POSITION, min_bet, None),
            Street(True, (), 1, False, Opening.POSITION, min_bet, None),
        )
        super().__init__(
            automations,
            streets,
            ante_trimming_status,
            raw_antes,
            raw_blinds_or_straddles,
            0,
            mode=mode,
            divmod=divmod,
            rake=rake,
        )


GAME_TYPES = {
    "NT": NoLimitTexasHoldem,
    "NO": NoLimitOmaha,
    "NO5": NoLimitOmaha5,
    "NO3": NoLimitOmaha3,
    "NOF": NoLimitOmahaOpenFlop,
}
HAND_TYPES = {
    "holdem": StandardHighHand,
    "omaha": OmahaHoldemHand,
    "omaha5": OmahaHoldemHand,
    "omaha3": Omaha3Hand,
    "omaha_open": OmahaHoldemHand,
}
_FIELDS = ("variant", "antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions")


class RulebookHandHistory(HandHistory):
    """PokerKit's HandHistory with the rule book's Omaha codes registered."""

    game_types = {**HandHistory.game_types, **GAME_TYPES}
    variants = {v: k for k, v in {**HandHistory.game_types, **GAME_TYPES}.items()}
    required_field_names = {**HandHistory.required_field_names, **{c: _FIELDS for c in GAME_TYPES}}


def pk_rake(big_blind: int):
    """Article X as a PokerKit rake function (per pot; none before the flop)."""

    def rake(amount, state):
        r = rake_of(int(amount), big_blind, any(state.board_cards))
        return r, amount - r

    return rake


def replay(phh_text: str, big_blind: int, rake: bool = True):
    """Load a PHH text and play every action strictly (no repair); returns the final state."""
    hh = RulebookHandHistory.loads(phh_text)
    if rake:
        hh.rake = pk_rake(big_blind)
    state = hh.create_state()
    from pokerkit.notation import parse_action

    for action in hh.actions:
        while state.can_burn_card():
            state.burn_card("??")
        parse_action(state, action, hh.parse_value)
    while state.status:
        if state.can_burn_card():
            state.burn_card("??")
        elif state.can_push_chips():
            state.push_chips()
        elif state.can_pull_chips():
            state.pull_chips()
        elif state.can_collect_bets():
            state.collect_bets()
        else:
            raise AssertionError(f"PokerKit waits for an action the history lacks: {hh.actions[-3:]}")
    return hh, state
