"""PokerKit as an oracle (test-only): the rule book's games as PokerKit games and PHH variants.

PokerKit knows no-limit hold'em (``NT``) and Omaha hands of two hole cards with three board
cards (``OmahaHoldemHand``).  The Omahas of the rule book are registered here with the PHH
codes :mod:`poker51.rulebook.phh` writes: ``NO`` (4 hole cards), ``NO5`` (5), ``NO3`` (3 of
4 hole cards with 2 of the board: a ``HoleBoardCombinationHand`` with those counts) and
``NOF`` (Open Flop: hole cards and flop in the first street, no blinds).  Rake (Article X,
per pot, rounded down, no rake before the flop) is the same function on both sides.
"""

from __future__ import annotations

from dataclasses import dataclass
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


def memoized(hand_type):
    """``hand_type`` whose ``from_game`` remembers its answers: it is a pure function of the
    cards, and PokerKit asks it again and again for the same hands while it kills hands and
    pushes pots (most of a replay's time); the hands returned are ``hand_type``'s own."""
    memo: dict = {}

    class Memoized(hand_type):  # type: ignore[valid-type, misc]
        @classmethod
        def from_game(cls, hole_cards, board_cards=()):
            key = (tuple(hole_cards), tuple(board_cards))  # PokerKit may pass iterators
            if key not in memo:
                if len(memo) > 100_000:
                    memo.clear()
                memo[key] = hand_type.from_game(*key)
            return memo[key]

    Memoized.__name__ = Memoized.__qualname__ = hand_type.__name__
    return Memoized


class Omaha3Hand(HoleBoardCombinationHand):
    """Omaha (3 Cards), 7.4: exactly three hole cards with exactly two board cards."""

    lookup = StandardLookup()
    low = False
    card_count = 5
    board_card_count = 2
    hole_card_count = 3


class NoLimitHoldem(NoLimitTexasHoldem):
    hand_types = (memoized(StandardHighHand),)


class NoLimitOmaha(NoLimitPokerMixin, OmahaHoldemMixin, UnfixedLimitHoldem):
    hand_types = (memoized(OmahaHoldemHand),)


class NoLimitOmaha5(NoLimitOmaha):
    hole_dealing_count = 5


class NoLimitOmaha3(NoLimitOmaha):
    hand_types = (memoized(Omaha3Hand),)


class NoLimitOmahaOpenFlop(Poker):
    """7.5: every player antes, hole cards and the flop at once, rounds after flop, turn, river."""

    deck: ClassVar[Deck] = Deck.STANDARD
    hand_types = (memoized(OmahaHoldemHand),)
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
    "NT": NoLimitHoldem,
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


def replay(phh_text: str, big_blind: int, rake: bool = True, settle: bool = False):
    """Load a PHH text and play every action strictly (no repair: any refused action fails);
    returns (history, final state); ``state.pots_at_showdown`` holds PokerKit's pots
    ``(amount, raked, player indices)`` just before the first show, if there is a showdown.

    ``settle=True`` pushes and pulls the chips here instead of PokerKit's automations, to read
    its settlement: ``state.pots_settled`` (its pots ``(amount, raked, player indices)`` as it
    pays them, after hand killing) and ``state.pushed`` (the chips each player is pushed from
    the pots, after the rake).

    PokerKit shows the hands of an all-in showdown before the run-out; if every hand but one
    is mucked there it cannot deal the rest of the run-out (an assertion in
    ``get_effective_stack``), so the differential tests' players do not muck after a run-out.
    """
    from pokerkit import Automation

    hh = RulebookHandHistory.loads(phh_text)
    if rake:
        hh.rake = pk_rake(big_blind)
    if settle:
        hh.automations = tuple(
            a for a in hh.automations if a not in (Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)
        )
    state = hh.create_state()
    from pokerkit.notation import parse_action

    state.pots_at_showdown = None
    state.pots_settled = None
    state.pushed = [0] * state.player_count
    for action in hh.actions:
        while state.can_burn_card():
            state.burn_card("??")
        if " sm" in action and state.pots_at_showdown is None:
            state.pots_at_showdown = [(p.amount, p.raked_amount, tuple(p.player_indices)) for p in state.pots]
        parse_action(state, action, hh.parse_value)
    while state.status:
        if state.can_burn_card():
            state.burn_card("??")
        elif state.can_push_chips():
            if state.pots_settled is None:
                state.pots_settled = [(p.amount, p.raked_amount, tuple(p.player_indices)) for p in state.pots]
            for i, amount in enumerate(state.push_chips().amounts):
                state.pushed[i] += amount
        elif state.can_pull_chips():
            state.pull_chips()
        elif state.can_collect_bets():
            state.collect_bets()
        else:
            raise AssertionError(f"PokerKit waits for an action the history lacks: {hh.actions[-3:]}")
    return hh, state


@dataclass
class Settlement:
    """PokerKit's settlement of one of our hands, predicted (:func:`settle_pokerkit`); players
    in the order of ``rec["seats"]`` (PHH's ``p1 .. pN``)."""

    stacks: list[int]  # final stacks
    pushed: list[int]  # chips pushed to each player from the pots (after the rake)
    pots: list[tuple[int, int, tuple[int, ...]]]  # (amount, raked, eligible) as PokerKit pays them
    rake: int
    #: the documented differences whose conditions this hand meets: "fold_own_bet", "burn",
    #: "merge" (hand killing merged pots), "odd_chips" (a remainder of two or more chips)
    differences: set[str]


def predict_pokerkit(rec: dict, rake: bool = True) -> list[int]:
    """Final stacks PokerKit pays for one of our hand records (:func:`settle_pokerkit`)."""
    return settle_pokerkit(rec, rake).stacks


def settle_pokerkit(rec: dict, rake: bool = True) -> Settlement:
    """PokerKit's settlement of one of our hand records, by PokerKit's own rules.

    Four documented differences from the rule book's settlement (``docs/design/rulebook.md``,
    "Where PokerKit settles differently"):
    when everyone else folds PokerKit hands the winner back its own bet of the last round
    before raking (the rule book: the pot is every chip bet, 4.1);
    PokerKit returns only a bet nobody called and burns chips that only players who later
    folded had matched (the shared pot law returns them to their owners, 4.2 and 4.4);
    PokerKit rebuilds the pots after the showdown without the mucked hands and the shown
    hands that win nothing ("hand killing") and merges neighbouring pots whose eligible
    players then coincide (so the per-pot rake cap and the odd chips apply to the merged
    pot), and it gives a pot's whole remainder to its first
    winner in seat order (the rule book: one odd chip at a time, in turn).  Everything else
    (contributions, uncalled chips, eligibility, winners) comes from our record.
    """
    names = [s["name"] for s in rec["seats"]]
    start = {s["name"]: s["stack"] for s in rec["seats"]}
    contrib = [rec["contributions"][n] for n in names]
    ordered = sorted(contrib, reverse=True)
    if ordered[0] > ordered[1]:  # PokerKit returns only the bet nobody called
        contrib[contrib.index(ordered[0])] = ordered[1]
    strength = {s["player"]: s.get("strength", 0) for s in rec["shows"]}
    if rec["shows"]:
        unmucked = [s["player"] for s in rec["shows"] if s["shown"]]
    else:
        unmucked = [n for n in names if rec["payouts"].get(n)] or [rec["pots"][0]["winners"][0]]
    active = [n in unmucked for n in names]

    def build(active: list[bool]) -> list[tuple[int, tuple[int, ...]]]:
        pots: list[tuple[int, tuple[int, ...]]] = []
        prev = 0
        for level in sorted(set(contrib)):
            amount = sum(level - prev for c in contrib if c >= level)
            eligible = tuple(i for i in range(len(names)) if active[i] and contrib[i] >= level)
            while pots and pots[-1][1] == eligible:
                amount += pots.pop()[0]
            if amount:
                pots.append((amount, eligible))
            prev = level
        return pots

    def best(eligible: tuple[int, ...]) -> list[int]:
        top = max(strength[names[i]] for i in eligible)
        return [i for i in eligible if strength[names[i]] == top]

    differences: set[str] = set()
    pots = build(active)
    if sum(active) > 1:  # PokerKit kills the shown hands that win no pot, then rebuilds the pots
        winning = {i for _, eligible in pots if eligible for i in best(eligible)}
        active = [a and i in winning for i, a in enumerate(active)]
        pots = build(active)
    if rec["shows"] and [a for a, e in pots if e] != [p["amount"] for p in rec["pots"]]:
        differences.add("merge")  # PokerKit's pots without the mucked and beaten hands are not ours
    won = [0] * len(names)
    flop = len(rec["boards"][0]) >= 3
    if not rec["shows"]:  # everyone else folded: PokerKit hands the winner back its own last-round bet
        w = names.index(unmucked[0])
        last = [e for e in rec["events"] if e["event"] == "action"]
        own = 0
        if last:
            rnd = last[-1]["round"]
            own = sum(e.get("chips", 0) for e in last if e["round"] == rnd and e["player"] == names[w])
            if rnd == "preflop":
                own += sum(
                    e["amount"]
                    for e in rec["events"]
                    if e["event"] in ("small_blind", "big_blind") and e["player"] == names[w]
                )
        own -= rec["contributions"][names[w]] - contrib[w]  # less the uncalled part PokerKit returned
        base = sum(contrib) - own
        r = rake_of(base, rec["big_blind"], flop) if rake else 0
        won[w] = sum(contrib) - r
        pushed = [0] * len(names)
        pushed[w] = base - r
        if own:
            differences.add("fold_own_bet")
        stacks = [start[n] - contrib[i] + won[i] for i, n in enumerate(names)]
        return Settlement(stacks, pushed, [(base, r, (w,))], r, differences)
    settled = []
    for amount, eligible in pots:
        r = rake_of(amount, rec["big_blind"], flop) if rake else 0
        settled.append((amount, r, eligible))
        if not eligible:  # chips only folded players matched: PokerKit burns them ("non-standard folds")
            differences.add("burn")
            continue
        net = amount - r
        if sum(active) == 1:
            won[eligible[0]] += net
            continue
        winners = best(eligible)
        q, rem = divmod(net, len(winners))
        if rem > 1:
            differences.add("odd_chips")
        for i in winners:
            won[i] += q + (rem if i == winners[0] else 0)
    stacks = [start[n] - contrib[i] + won[i] for i, n in enumerate(names)]
    return Settlement(stacks, won, settled, sum(r for _, r, _ in settled), differences)
