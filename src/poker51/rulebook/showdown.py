"""Showdown and settlement (Articles IV, V and X): who shows, who wins each pot, the rake.

Pots come from the shared pot law (:mod:`poker51.table.pots`): uncalled chips are returned
(3.9), the main pot and side pots are built smallest first (4.3), each won only by players
who matched it (4.2).

Showdown order (5.2): if the last betting round had a bet or raise, its last bettor or
raiser shows first, then clockwise; otherwise (checked through, or no round because
everyone was all in) the first player still in to the left of the button.  Showing is
optional (5.3): a player may muck unless they are the last player not yet mucked who could
win some pot ("the player claiming a pot must show": no pot is won by an unseen hand).
A mucked hand is still recorded (5.4).

Each pot goes to the best hand among its eligible players who showed (5.5); equal hands
split it as evenly as possible (5.6): the odd chips one at a time to the winners in turn
from the seat left of the button (:func:`poker51.table.pots.split_amount` in
:func:`poker51.table.pots.payout_order`).  3 Sets (7.6): for each pot, each board's set is won by
the best set among that pot's eligible players (tied winners share the point); the most
points take the pot, equal most points split it.

Rake (X): five per cent of *each* pot, rounded down, capped at three big blinds for that
pot, taken before the winner is paid; none if the hand ended before the flop (10.3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from poker51.cards import cards_str
from poker51.rulebook.games import CATEGORY_NAMES, RAKE_CAP_BIG_BLINDS, RAKE_PERCENT
from poker51.rulebook.hand import Hand, RuleError
from poker51.rulebook.reading import read_cards, set_strength
from poker51.table.pots import build_pots, payout_order, return_uncalled, split_amount
from poker51.table.settlement import PotResult as FloorPot
from poker51.table.settlement import Settlement as FloorSettlement

__all__ = ["PotResult", "Settlement", "Showdown", "rake_of"]


def rake_of(amount: int, big_blind: int, flop_dealt: bool) -> int:
    """Article X for one pot: ``min(floor(5% of amount), 3 big blinds)``, nothing before the flop.

    >>> rake_of(1000, 10, True), rake_of(99, 10, True), rake_of(10_000, 10, True), rake_of(1000, 10, False)
    (30, 4, 30, 0)
    """
    if not flop_dealt:
        return 0
    return min(amount * RAKE_PERCENT // 100, RAKE_CAP_BIG_BLINDS * big_blind)


@dataclass(frozen=True)
class PotResult(FloorPot):
    """One settled pot, the floor's record (amount before rake, eligible and winning seats)
    with the rake taken from it and what each winner got."""

    rake: int = 0
    shares: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Settlement(FloorSettlement):
    """The end of a hand, the floor's record (what each put in, got back uncalled, won from
    the pots, the rake) with each player's final stack and the shows and mucks."""

    stacks: dict[int, int] = field(default_factory=dict)
    shows: list[dict[str, Any]] = field(default_factory=list)

    @property
    def pot_results(self) -> tuple[PotResult, ...]:
        """The pots with their rake and shares (``pots``, typed as the rule book's records)."""
        return tuple(p for p in self.pots if isinstance(p, PotResult))


class Showdown:
    """The showdown of ``hand`` (``hand.phase == "showdown"``), or the settlement of a hand
    that ended with one player left (no cards shown, 2.5)."""

    def __init__(self, hand: Hand, rake: bool = True) -> None:
        self.hand = hand
        self.rake_on = rake
        contrib = {p.seat: p.contrib for p in hand.players}
        live = [p.seat for p in hand.live()]
        self.returned, c = return_uncalled(contrib, live)
        self.returned = {s: v for s, v in self.returned.items() if v}
        self.pots = build_pots(c, live)
        self.decided: dict[int, bool] = {}  # seat -> shown (True) or mucked (False)
        self.shows: list[dict[str, Any]] = []
        if hand.phase == "showdown":
            first = hand.last_round_aggressor
            seats = [p.seat for p in hand.players]
            start = seats.index(first) if first is not None and first in live else 0
            self.order = [
                seats[(start + k) % len(seats)] for k in range(len(seats)) if seats[(start + k) % len(seats)] in live
            ]
        else:
            self.order = []

    @property
    def to_show(self) -> int | None:
        for s in self.order:
            if s not in self.decided:
                return s
        return None

    def may_muck(self, seat: int) -> bool:
        """5.3: ``seat`` may muck unless some pot it could win would be left with no hand to show."""
        for pot in self.pots:
            if seat in pot.eligible and not any(o != seat and self.decided.get(o, True) for o in pot.eligible):
                return False
        return True

    def verify_decide(self, seat: int, show: bool) -> None:
        """None if ``seat`` may show (``show``) or muck now, else :class:`RuleError` (5.2, 5.3)."""
        p = self.hand.by_seat.get(seat)
        name = p.name if p else str(seat)
        what = f"{name} {'show' if show else 'muck'}"
        if self.to_show is None:
            raise RuleError(what, "5.2", "nobody is to show")
        if seat != self.to_show:
            raise RuleError(what, "5.2", f"{self.hand.by_seat[self.to_show].name} shows first")
        if not show and not self.may_muck(seat):
            raise RuleError(what, "5.3", f"{name} is the last hand that can claim a pot: it must be shown")

    def decide(self, seat: int, show: bool, timeout: bool = False) -> None:
        """The player to show shows (``show``) or mucks; a timeout shows (the table never mucks for a player)."""
        self.verify_decide(seat, show)
        p = self.hand.by_seat.get(seat)
        name = p.name if p else str(seat)
        self.decided[seat] = show
        assert p is not None
        entry: dict[str, Any] = {"player": name, "shown": show, "cards": cards_str(p.hole).split()}
        if timeout:
            entry["timeout"] = True
        if self.hand.game.boards == 1:
            r = read_cards(self.hand.game.name, p.hole, self.hand.boards[0])
            entry.update(best=cards_str(r.best).split(), category=CATEGORY_NAMES[r.category], strength=r.strength)
        else:
            entry["sets"] = []
            for laid, board in zip(p.laid or (), self.hand.boards):
                r = read_cards("three_sets", list(laid), board)
                entry["sets"].append(
                    {"cards": cards_str(laid).split(), "category": CATEGORY_NAMES[r.category], "strength": r.strength}
                )
        self.shows.append(entry)

    @property
    def complete(self) -> bool:
        return self.to_show is None

    # ------------------------------------------------------------------ settlement
    def _winners(self, eligible: tuple[int, ...]) -> tuple[int, ...]:
        hand = self.hand
        contenders = [s for s in eligible if self.decided.get(s, hand.phase == "over")]
        if len(contenders) <= 1:
            return tuple(contenders)
        if hand.game.boards == 1:
            value: dict[int, Any] = {
                s: read_cards(hand.game.name, hand.by_seat[s].hole, hand.boards[0]).strength for s in contenders
            }
        else:
            value = {s: Fraction(0) for s in contenders}
            for b, board in enumerate(hand.boards):
                sets = {s: set_strength(list(hand.by_seat[s].laid[b]), board) for s in contenders}  # type: ignore[index]
                best = max(sets.values())
                won = [s for s in contenders if sets[s] == best]
                for s in won:
                    value[s] += Fraction(1, len(won))
        top = max(value.values())
        return tuple(s for s in contenders if value[s] == top)

    def settle(self) -> Settlement:
        """Pay every pot (smallest first) and return the settlement; the hand's stacks are not changed."""
        hand = self.hand
        if hand.phase == "showdown" and not self.complete:
            raise RuleError("settle", "5.2", "players are still to show")
        results, payouts = [], {p.seat: 0 for p in hand.players}
        total_rake = 0
        for pot in self.pots:
            winners = self._winners(pot.eligible)
            if not winners:
                raise RuleError("settle", "5.3", f"no hand was shown for the pot of {pot.amount}")
            rake = rake_of(pot.amount, hand.bb, hand.flop_dealt) if self.rake_on else 0
            ordered = payout_order(winners, after=hand.button, n_seats=hand.n_seats)
            shares = split_amount(pot.amount - rake, ordered)
            for s, v in shares.items():
                payouts[s] += v
            total_rake += rake
            results.append(PotResult(pot.amount, pot.eligible, tuple(ordered), rake, shares))
        stacks = {p.seat: p.stack + self.returned.get(p.seat, 0) + payouts[p.seat] for p in hand.players}
        settled = Settlement(
            contributed={p.seat: p.contrib for p in hand.players},
            returned={**self.returned, **{p.seat: 0 for p in hand.players if p.seat not in self.returned}},
            won=payouts,
            pots=tuple(results),
            showdown=hand.phase == "showdown",
            rake=total_rake,
            stacks=stacks,
            shows=list(self.shows),
        )
        settled.check()
        return settled
