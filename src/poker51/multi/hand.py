"""One hand at a Poker 51 table (rule card v1, "A hand" 1-6), in integer cents.

1. Every seat dealt in antes 1 jbit.  Five cards each, one at a time, from the seat
   after the button: card ``k * n + i`` of the deck goes to the ``i``-th seat in turn
   order (``n`` seats dealt in).  The deck is the 51-card order (the marker 2c is
   outside the deal); :mod:`poker51.multi.commit` fixes and commits it before the deal.
2. Betting before the draw (:class:`poker51.multi.law.BettingRound`).
3. The draw, in the same order, by every player still in (all-in players too): each
   throws away 0 to 5 of its cards and receives as many from the top of the deck; the
   new hand is the kept cards in their order, then the new cards in deal order.  Every
   draw count is public.  Five hands and five full draws use 50 cards, so the deck
   never runs out.
4. Betting after the draw, the same law.
5. Settlement (:func:`settle`, a :class:`HandResult` that the table books,
   :mod:`poker51.multi.ledger`) by the shared pot law (:mod:`poker51.table.pots`): chips no one
   matched are returned; side pots, smallest first; each pot to the best eligible hand
   (:func:`poker51.hands.evaluate.strength`), equal hands share it, odd cents one at a
   time to the winners in turn from the seat after the button; each pot is paid
   contributor by contributor (:func:`poker51.table.pots.pot_transfers`, contributors taken in
   turn from the seat after the button) so that the table can book jbits won from
   people and from Riemann separately.  If all but one player fold (or leave), the hand
   ends at once and the last player takes the pots without a showdown.

A player who leaves mid-hand is folded at once (:meth:`Hand.fold_out`); a timed-out
player checks when it can, folds otherwise, and stands pat at the draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from poker51.cards import card_str
from poker51.hands.evaluate import RULE_ORDINARY, strength
from poker51.multi.law import ANTE, HAND_SIZE, N_SEATS, RULE_PHASE, BettingRound, IllegalAction, Move, turn_order
from poker51.table.pots import build_pots, payout_order, pot_transfers, return_uncalled
from poker51.table.settlement import PotResult, Settlement

RULE_DRAW = "A hand 4: keep any of your own cards and replace the rest (0 to 5)"
PRE, DRAW, POST, DONE = "pre", "draw", "post", "done"


#: the settlement of a hand: the floor's record (:class:`poker51.table.settlement.Settlement`)
HandResult = Settlement


def settle(
    order: Sequence[int], committed: dict[int, int], live: set[int], strengths: dict[int, int], button: int
) -> Settlement:
    """The settlement of a hand by the pot law (module docstring, point 5), as the floor's record.
    ``order`` the seats dealt in, in turn; ``strengths`` empty when the hand ended without a
    showdown (then ``live`` holds the one player left).  ``transfers`` are ``(from, to, cents)``
    rows, the returned chips as ``(seat, seat, cents)`` rows first; ``payouts`` the cents each
    seat dealt in receives (returned chips included); ``contributed`` what each put in."""
    showdown = bool(strengths)
    returned, c = return_uncalled(committed, live)
    transfers = [(s, s, v) for s, v in returned.items() if v > 0]
    won = {s: 0 for s in order}
    pots = []
    for pot in build_pots(c, live):
        if showdown:
            best = max(strengths[s] for s in pot.eligible)
            win = [s for s in pot.eligible if strengths[s] == best]
        else:
            win = list(pot.eligible)
        winners = payout_order(win, after=button, n_seats=N_SEATS)
        parts = dict(pot.parts)
        t = pot_transfers(pot, winners, order=[s for s in order if s in parts])
        transfers += [(a, b, v) for (a, b), v in t.items()]
        for (_a, b), v in t.items():
            won[b] += v
        pots.append(PotResult(pot.amount, tuple(s for s in order if s in pot.eligible), tuple(winners)))
    back = {s: returned.get(s, 0) for s in order}
    return Settlement(
        dict(committed), back, won, tuple(pots), tuple(transfers), showdown, strengths=dict(strengths)
    ).check()


class Hand:
    """One hand over the seats dealt in; ``stack`` is the table's seat -> cents dict."""

    def __init__(
        self,
        number: int,
        button: int,
        seats: Sequence[int],
        stack: dict[int, int],
        deck: Sequence[int],
        rule: int = RULE_ORDINARY,
    ):
        if len(seats) < 2:
            raise IllegalAction(f"a hand needs two players, got {len(seats)} [A table 3]")
        self.number, self.button, self.rule = number, button, rule
        self.order = turn_order(seats, button)
        self.stack = stack
        self.deck = [int(c) for c in deck]
        self.live = set(self.order)
        for s in self.order:
            if stack[s] < ANTE:
                raise IllegalAction(f"seat {s} holds {stack[s]} cents, less than the ante [A table 3]")
        for s in self.order:
            stack[s] -= ANTE
        n = len(self.order)
        self.cards = {s: [self.deck[k * n + i] for k in range(HAND_SIZE)] for i, s in enumerate(self.order)}
        self.dealt = {s: tuple(c) for s, c in self.cards.items()}
        self.pos = HAND_SIZE * n
        self.draws: dict[int, int] = {}
        self.discards: list[tuple[int, list[int]]] = []
        self.events: list[dict[str, Any]] = []
        self.rounds: list[BettingRound] = []
        self.phase = PRE
        self.round: BettingRound | None = BettingRound(PRE, self.order, stack, self.live)
        self.rounds.append(self.round)
        self.result: HandResult | None = None
        self._advance()

    # ------------------------------------------------------------------ who acts
    def draw_turn(self) -> int | None:
        if self.phase != DRAW:
            return None
        for s in self.order:
            if s in self.live and s not in self.draws:
                return s
        return None

    @property
    def actor(self) -> int | None:
        """The seat to act (bet or draw), None when the hand is over."""
        if self.phase in (PRE, POST) and self.round is not None:
            return self.round.turn
        return self.draw_turn()

    def legal(self, seat: int) -> list[Move]:
        return self.round.legal(seat) if self.phase in (PRE, POST) and self.round is not None else []

    # ------------------------------------------------------------------ actions
    def act(self, seat: int, m: Move, timeout: bool = False) -> None:
        """Play the betting move ``m`` (built by ``self.round.move``) of ``seat``."""
        if self.phase not in (PRE, POST) or self.round is None:
            raise IllegalAction(f"no betting now (phase {self.phase}) [{RULE_PHASE}]")
        rnd = self.round
        rnd.apply(seat, m)
        self.events.append({
            "event": "action", "hand": self.number, "round": rnd.name, "seat": seat, "kind": m.kind,
            "amount_cents": m.amount, "round_cents": rnd.bet[seat], "all_in": m.all_in, "timeout": timeout,
        })  # fmt: skip
        self._advance()

    def move(self, seat: int, kind: str, amount: int | None = None, all_in: bool = False) -> Move:
        if self.phase not in (PRE, POST) or self.round is None:
            raise IllegalAction(f"{kind}: no betting now (phase {self.phase}) [{RULE_PHASE}]")
        return self.round.move(seat, kind, amount, all_in)

    def check_draw(self, seat: int, discards: Sequence[int]) -> list[int]:
        """The discards if legal, else :class:`IllegalAction` naming the rule."""
        if self.phase != DRAW:
            raise IllegalAction(f"draw: not the draw (phase {self.phase}) [{RULE_PHASE}]")
        if seat != self.draw_turn():
            raise IllegalAction(f"draw: seat {self.draw_turn()} draws first [A hand 4: the draw, in the same order]")
        d = [int(c) for c in discards]
        if len(set(d)) != len(d) or any(c not in self.cards[seat] for c in d):
            shown = ", ".join(card_str(c) for c in d)
            raise IllegalAction(f"draw {shown}: throw away only your own cards, each once [{RULE_DRAW}]")
        return d

    def draw(self, seat: int, discards: Sequence[int], timeout: bool = False) -> None:
        d = self.check_draw(seat, discards)
        kept = [c for c in self.cards[seat] if c not in d]
        new = self.deck[self.pos : self.pos + len(d)]
        self.pos += len(d)
        self.cards[seat] = kept + new
        self.draws[seat] = len(d)
        self.discards.append((seat, d))
        self.events.append({"event": "draw", "hand": self.number, "seat": seat, "count": len(d), "timeout": timeout})
        self._advance()

    def fold_out(self, seat: int) -> None:
        """Fold ``seat`` at once (it left the table, or its Riemann left with its adder)."""
        if self.phase == DONE or seat not in self.live:
            return
        if self.phase in (PRE, POST) and self.round is not None:
            self.round.fold_out(seat)
        else:
            self.live.discard(seat)
        self.events.append({"event": "fold_out", "hand": self.number, "seat": seat})
        self._advance()

    # ------------------------------------------------------------------ flow
    def _advance(self) -> None:
        while self.phase != DONE:
            if len(self.live) == 1:
                self._settle(showdown=False)
                return
            if self.phase in (PRE, POST):
                assert self.round is not None
                if not self.round.over:
                    return
                if self.phase == PRE:
                    self.phase, self.round = DRAW, None
                else:
                    self._settle(showdown=True)
                    return
            elif self.phase == DRAW:
                if self.draw_turn() is not None:
                    return
                self.phase = POST
                self.round = BettingRound(POST, self.order, self.stack, self.live)
                self.rounds.append(self.round)

    @property
    def committed(self) -> dict[int, int]:
        """Cents each seat dealt in has put in this hand: the ante and its bets."""
        return {s: ANTE + sum(r.bet[s] for r in self.rounds) for s in self.order}

    def _settle(self, showdown: bool) -> None:
        self.phase, self.round = DONE, None
        strengths = {s: strength(self.cards[s], self.rule) for s in self.order} if showdown else {}
        self.result = settle(self.order, self.committed, set(self.live), strengths, self.button)

    # ------------------------------------------------------------------ views
    def public(self) -> dict[str, Any]:
        """Everything public about the hand now (no cards before the end)."""
        rnd = self.round
        return {
            "hand": self.number,
            "button": self.button,
            "order": list(self.order),
            "phase": self.phase,
            "live": sorted(self.live),
            "pot_cents": self.pot(),
            "round_cents": dict(rnd.bet) if rnd else {},
            "to_act": self.actor,
            "draws": dict(self.draws),
        }

    def opponents_in(self, seat: int) -> list[int]:
        return [s for s in self.order if s in self.live and s != seat]

    def pot(self) -> int:
        """Cents in the middle now (antes and every bet of the hand)."""
        return sum(self.committed.values())


__all__ = ["DONE", "DRAW", "POST", "PRE", "Hand", "HandResult", "PotResult", "settle"]
