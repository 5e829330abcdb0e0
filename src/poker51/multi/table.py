"""A Poker 51 table: seats 0-4, buy-ins and cash-outs with receipts, time, Riemann (rule card v1).

- **Sit** (:meth:`Table.sit`) with a buy-in of 2, 4, 8 or 16 jbits, refused above the
  person's bank; **leave** (:meth:`Table.leave`) pays the stack back to the bank.  Each
  gives a receipt (player, amount, table, hand number, seat) with the SHA-256 of its
  canonical JSON (:func:`receipt`).  Sitting returns a seat token; the table stores only
  its SHA-256 (:meth:`Table.seat_of`).
- **A hand** (:meth:`Table.start_hand`) starts when at least two seated players not
  marked away hold 1 jbit or more; the first hand's button is the table's ``button``
  and it moves one seat clockwise (seat number + 1 mod 5, design choice M1) each hand.
- **Time**: :meth:`Table.timeout` checks when it can, folds otherwise, stands pat at the
  draw; three timeouts in a row mark the player away (dealt out) until
  :meth:`Table.back`.  An away player's remaining turns in the current hand are timeouts.
  Leaving during a hand folds at once; the stack is paid out when the hand ends.
- **Riemann** (:meth:`Table.add_riemann`): any seated person adds Riemann to an open seat
  with abits equal to that person's stack; it leaves when removed, when its adder leaves,
  when it holds less than one ante of abits, or when the table closes
  (:class:`poker51.multi.ledger.Ledger`).  Its moves come from
  :mod:`poker51.multi.policy` through :meth:`Table.spot`; the table never decides for it.
- **The log** (:attr:`Table.log`): JSON records; cards appear only in the end-of-hand
  ``result`` and ``reveal`` records, with the deck and salt of the commitment published
  in the ``hand`` record (:mod:`poker51.multi.commit`).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from poker51.errors import InputError
from poker51.io import canonical_json
from poker51.multi.commit import LOG_FORMAT, CommittedDeck, DeckSource
from poker51.multi.hand import DONE, DRAW, Hand
from poker51.multi.law import ANTE, AWAY_AFTER, BUYINS, JBIT, N_SEATS, RULES_ID, IllegalAction, Move
from poker51.multi.ledger import PERSON, RIEMANN, Ledger, Person, RiemannSeat
from poker51.multi.view import Spot, result_record, reveal_record, seat_view, spot_of


def receipt(kind: str, player: str, amount: int, table: str, hand: int, seat: int, **extra: Any) -> dict[str, Any]:
    """A buy-in or cash-out receipt with ``sha256`` = SHA-256 of its canonical JSON (without ``sha256``)."""
    body = {"kind": kind, "player": player, "amount_cents": amount, "table": table, "hand": hand, "seat": seat, **extra}
    return {**body, "sha256": hashlib.sha256(canonical_json(body).encode()).hexdigest()}


class Table:
    """One table (module docstring).  ``deck_source`` says where decks come from."""

    def __init__(self, table_id: str = "table", deck_source: DeckSource | None = None, button: int = 0):
        if not 0 <= int(button) < N_SEATS:
            raise InputError(f"button: seat {button} is not one of 0..{N_SEATS - 1}")
        self.id = str(table_id)
        self.source = deck_source or DeckSource()
        self.stack: dict[int, int] = {}
        self.ledger = Ledger(self.stack)
        self.tokens: dict[str, int] = {}
        self.away: set[int] = set()
        self.timeouts: dict[int, int] = {}
        self.button = int(button)
        self.hands_started = 0
        self.hand: Hand | None = None
        self.deck: CommittedDeck | None = None
        self._booked = False
        self.pending_leave: list[str] = []
        self.pending_remove: list[str] = []
        self.closed = False
        self.audit_failures: list[str] = []
        self.steps = 0
        self.log: list[dict[str, Any]] = []
        self._log(
            {"event": "table", "format": LOG_FORMAT, "rules": RULES_ID, "table": self.id, "source": self.source.source}
        )

    # ------------------------------------------------------------------ helpers
    def _log(self, rec: dict[str, Any]) -> None:
        self.log.append(rec)

    def save_log(self, path: str | Path) -> Path:
        """Write the log as JSON lines (canonical JSON, one record a line)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(canonical_json(r) + "\n" for r in self.log))
        return path

    @property
    def in_hand(self) -> bool:
        return self.hand is not None and self.hand.phase != DONE

    def _dealt_in(self, seat: int) -> bool:
        return self.in_hand and self.hand is not None and seat in self.hand.order

    def seat_of_name(self, name: str) -> int:
        for seat, (_k, n) in self.ledger.owner.items():
            if n == name:
                return seat
        raise InputError(f"{name!r} is not seated at table {self.id}")

    def name_of(self, seat: int) -> str:
        return self.ledger.name(seat)

    def is_riemann(self, seat: int) -> bool:
        return seat in self.ledger.owner and self.ledger.kind(seat) == RIEMANN

    def _open_seat(self, seat: Any) -> int:
        if self.closed:
            raise InputError(f"table {self.id} is closed")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < N_SEATS:
            raise InputError(f"seat {seat!r}: seats are 0..{N_SEATS - 1} [A table 1: there are five seats]")
        if seat in self.ledger.owner:
            raise InputError(f"seat {seat} is taken by {self.ledger.name(seat)} [A table 1: take an open seat]")
        return seat

    def _audit(self) -> None:
        self.steps += 1
        in_pot = self.hand.committed if self.in_hand and self.hand is not None else {}
        for problem in self.ledger.audit(in_pot):
            self.audit_failures.append(f"step {self.steps}: {problem}")

    # ------------------------------------------------------------------ seats
    def sit(self, name: str, seat: int, buyin: int, bank: int | None = None) -> tuple[dict[str, Any], str]:
        """Seat ``name`` with ``buyin`` jbits from its bank (cents; a new person's bank defaults
        to the buy-in).  Returns the receipt and the seat token (stored only as a hash)."""
        seat = self._open_seat(seat)
        if buyin not in BUYINS:
            raise InputError(f"buy-in {buyin!r}: choose 2, 4, 8 or 16 jbits [A table 2]")
        if any(n == name for _k, n in self.ledger.owner.values()):
            raise InputError(f"{name!r} is already seated [A table 2]")
        if name in self.ledger.riemanns:
            raise InputError(f"{name!r} is a Riemann's name")
        p = self.ledger.people.get(name)
        if p is None:
            b = buyin * JBIT if bank is None else int(bank)
            if b < 0:
                raise InputError(f"{name}: a bank is not negative")
            p = self.ledger.people[name] = Person(name, b, b)
        elif bank is not None and int(bank) != p.bank:
            raise InputError(f"{name}: the bank is {p.bank} cents already; it cannot be reset")
        amount = buyin * JBIT
        if amount > p.bank:
            raise InputError(f"{name}: buy-in {buyin} jbits is above the bank of {p.bank} cents [A table 2]")
        p.bank -= amount
        p.seat, p.session_buyin, p.session_net = seat, amount, 0
        self.ledger.owner[seat] = (PERSON, name)
        self.stack[seat] = amount
        self.timeouts[seat] = 0
        token = secrets.token_hex(16)
        self.tokens[hashlib.sha256(token.encode()).hexdigest()] = seat
        rec = receipt("buyin", name, amount, self.id, self.hands_started, seat)
        self._log({"event": "sit", "receipt": rec})
        self._audit()
        return rec, token

    def seat_of(self, token: str) -> int:
        """The seat a token belongs to (compared by SHA-256; tokens are never stored)."""
        seat = self.tokens.get(hashlib.sha256(str(token).encode()).hexdigest())
        if seat is None:
            raise InputError("unknown seat token")
        return seat

    def add_riemann(self, by: str, seat: int, name: str | None = None) -> str:
        """``by`` adds Riemann to open seat ``seat``: abits = ``by``'s stack now."""
        seat = self._open_seat(seat)
        adder = self.seat_of_name(by)
        if self.ledger.kind(adder) != PERSON or by in self.pending_leave:
            raise InputError(f"{by!r}: only a seated person adds Riemann [Riemann and abits]")
        abits = self.stack[adder]
        if abits < ANTE:
            raise InputError(f"{by!r} holds {abits} cents: Riemann would have less than one ante of abits")
        name = name or f"riemann{len(self.ledger.riemanns) + 1}"
        if name in self.ledger.riemanns or name in self.ledger.people:
            raise InputError(f"{name!r} is already a name at this table")
        self.ledger.riemanns[name] = RiemannSeat(name, seat, by, {}, abits)
        self.ledger.owner[seat] = (RIEMANN, name)
        self.stack[seat] = abits
        self._log({"event": "riemann_add", "name": name, "seat": seat, "added_by": by, "abits_cents": abits})
        self._audit()
        return name

    def remove_riemann(self, name: str, by: str) -> None:
        """Any seated person removes a Riemann; during a hand it folds now and leaves at its end."""
        if name not in self.ledger.riemanns:
            raise InputError(f"{name!r} is not a Riemann at this table")
        self.seat_of_name(by)
        self._riemann_goes(name, "removed")

    def _riemann_goes(self, name: str, why: str) -> None:
        seat = self.ledger.riemanns[name].seat
        if self._dealt_in(seat) and self.hand is not None:
            self.hand.fold_out(seat)
            if name not in self.pending_remove:
                self.pending_remove.append(name)
            self._after_action()
            return
        abits = self.stack.get(seat, 0)
        returned = self.ledger.riemann_leaves(name)
        self._log({"event": "riemann_leave", "name": name, "why": why, "returned": returned, "abits_cents": abits})
        self._audit()

    def leave(self, name: str) -> dict[str, Any] | None:
        """``name`` leaves: its Riemanns leave; the cash-out receipt, or None until the hand ends."""
        seat = self.seat_of_name(name)
        if self.ledger.kind(seat) != PERSON:
            raise InputError(f"{name!r} is a Riemann: a person removes it")
        for r in [r.name for r in self.ledger.riemanns.values() if r.adder == name]:
            self._riemann_goes(r, "its adder left")
        if self._dealt_in(seat) and self.hand is not None:
            if name not in self.pending_leave:
                self.pending_leave.append(name)
                self.hand.fold_out(seat)
                self._log({"event": "leave", "name": name, "seat": seat, "during_hand": self.hand.number})
                self._after_action()
            return None
        return self._cash_out(name)

    def _cash_out(self, name: str) -> dict[str, Any]:
        p = self.ledger.people[name]
        seat = p.seat
        assert seat is not None
        held = self.ledger.pay_back(name)
        amount = self.stack.pop(seat) + held
        del self.ledger.owner[seat]
        p.bank += amount
        p.seat = None
        if amount != p.session_buyin + p.session_net:
            self.audit_failures.append(f"{name} left with {amount} != buy-in {p.session_buyin} + net {p.session_net}")
        self.tokens = {h: s for h, s in self.tokens.items() if s != seat}
        self.away.discard(seat)
        self.timeouts.pop(seat, None)
        rec = receipt("cashout", name, amount, self.id, self.hands_started, seat, held_returned_cents=held)
        self._log({"event": "leave", "receipt": rec})
        self._audit()
        return rec

    def close(self) -> None:
        """Close the table between hands: every Riemann leaves, every person is paid out."""
        if self.in_hand:
            raise InputError("the table closes between hands")
        for name in list(self.ledger.riemanns):
            self._riemann_goes(name, "the table closed")
        for seat in sorted(self.ledger.owner):
            self._cash_out(self.ledger.name(seat))
        self.closed = True
        self._log({"event": "close", "table": self.id})

    # ------------------------------------------------------------------ time
    def timeout(self, seat: int) -> None:
        """The player on turn ran out of time: check if free, else fold; stand pat at the draw."""
        hand = self.hand_for(seat, "timeout")
        if hand.phase == DRAW:
            hand.draw(seat, [], timeout=True)
        else:
            assert hand.round is not None
            hand.act(seat, hand.round.timeout_move(seat), timeout=True)
        self.timeouts[seat] = self.timeouts.get(seat, 0) + 1
        if self.timeouts[seat] >= AWAY_AFTER and seat not in self.away:
            self.away.add(seat)
            self._log({"event": "away", "seat": seat, "name": self.name_of(seat)})
        self._after_action()

    def back(self, seat: int) -> None:
        """The player presses "I'm back": dealt in again from the next hand."""
        if seat not in self.ledger.owner:
            raise InputError(f"seat {seat} is empty")
        self.away.discard(seat)
        self.timeouts[seat] = 0
        self._log({"event": "back", "seat": seat, "name": self.name_of(seat)})

    # ------------------------------------------------------------------ hands
    def can_start(self) -> list[int]:
        """Seats that would be dealt in now."""
        return sorted(s for s in self.ledger.owner if s not in self.away and self.stack[s] >= ANTE)

    def start_hand(self, deck: Sequence[int] | None = None) -> Hand:
        """Commit a deck, ante, deal (a scripted ``deck`` in deal order, else the deck source's)."""
        if self.closed:
            raise InputError(f"table {self.id} is closed")
        if self.in_hand:
            raise InputError("a hand is in progress")
        seats = self.can_start()
        if len(seats) < 2:
            raise InputError(
                f"cannot start a hand: {len(seats)} seated players not away hold 1 jbit or more [A table 3]"
            )
        if self.hands_started > 0:
            self.button = (self.button + 1) % N_SEATS
        number = self.hands_started + 1
        cd = self.source.deck(number, deck)
        self.hands_started = number
        hand = Hand(number, self.button, seats, self.stack, cd.deck)
        self.hand, self.deck, self._booked = hand, cd, False
        self._log({
            "event": "hand", "hand": number, "button": self.button, "order": list(hand.order),
            "names": {str(s): self.name_of(s) for s in hand.order}, "commitment": cd.commitment,
            "source": cd.source, "stacks_cents": {str(s): self.stack[s] + ANTE for s in hand.order},
        })  # fmt: skip
        self._after_action()
        return hand

    def hand_for(self, seat: int, what: str) -> Hand:
        """The hand in progress if ``seat`` is on turn (to bet or draw), else :class:`IllegalAction`."""
        if not self.in_hand or self.hand is None:
            raise IllegalAction(f"{what}: no hand in progress")
        actor = self.hand.actor
        if seat != actor:
            who = "nobody" if actor is None else f"{self.name_of(actor)} (seat {actor})"
            raise IllegalAction(f"{what}: it is {who}'s turn, not seat {seat}'s [A hand 2: in turn]")
        return self.hand

    def act(self, seat: int, kind: str, amount: int | None = None, all_in: bool = False) -> Move:
        """A betting move of the seat on turn: check, open (``amount`` cents), call, raise, fold,
        or ``all_in=True`` for the scripted ``allin``."""
        hand = self.hand_for(seat, kind if not all_in else "allin")
        m = hand.move(seat, kind, amount, all_in)
        hand.act(seat, m)
        self.timeouts[seat] = 0
        self._after_action()
        return m

    def draw(self, seat: int, discards: Sequence[int]) -> None:
        hand = self.hand_for(seat, "draw")
        hand.draw(seat, discards)
        self.timeouts[seat] = 0
        self._after_action()

    def _after_action(self) -> None:
        hand = self.hand
        if hand is None:
            return
        for ev in hand.events:
            self._log(ev)
        hand.events.clear()
        if hand.phase == DONE:
            if not self._booked:
                self._end_hand(hand)
            return
        self._audit()
        actor = hand.actor
        if actor is not None and actor in self.away:
            self.timeout(actor)

    def _end_hand(self, hand: Hand) -> None:
        self._booked = True
        res = hand.result
        assert res is not None
        for a, b, v in res.transfers:
            self.ledger.book(a, b, v)
        assert self.deck is not None
        self._log(result_record(hand, res, {s: self.name_of(s) for s in hand.order}))
        self._log(reveal_record(hand, self.deck))
        self._audit()
        for name in self.pending_remove:
            if name in self.ledger.riemanns:
                self._riemann_goes(name, "removed")
        self.pending_remove = []
        for r in [r for r in self.ledger.riemanns.values() if self.stack[r.seat] < ANTE]:
            self._riemann_goes(r.name, "out of abits")
        leaving, self.pending_leave = self.pending_leave, []
        for name in leaving:
            self._cash_out(name)

    # ------------------------------------------------------------------ views
    def spot(self, seat: int) -> Spot:
        """The decision of the seat on turn in a betting round, as its policy may see it."""
        return spot_of(self.hand_for(seat, "spot"), self.stack, seat)

    def view(self, token: str) -> dict[str, Any]:
        """What the seat holding ``token`` sees (:func:`poker51.multi.view.seat_view`)."""
        seat = self.seat_of(token)
        seats = {s: (n, k, self.stack[s], s in self.away) for s, (k, n) in sorted(self.ledger.owner.items())}
        return seat_view(self.id, seat, self.name_of(seat), seats, self.hand)


__all__ = ["Spot", "Table", "receipt"]
