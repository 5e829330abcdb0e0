"""The action protocol of a five-seat table's hand (:mod:`poker51.table.protocol`): what a game
server drives, with the table's own law (:mod:`poker51.multi.law`) unchanged.

:class:`TableHand` is one hand at a :class:`~poker51.multi.table.Table`: the seats taken
(people and Riemanns, as a scenario lists them), the deal, every action to the settlement,
the receipts and the ledger.  Its plays (:class:`~poker51.table.protocol.TableAction`, seats
are ints) are the betting moves of :class:`~poker51.multi.law.Move` (``check``, ``open``
with its amount in cents, ``call``, ``raise``, ``fold``; ``all_in=True`` on a move that
empties the stack, and ``allin`` for the all-in move whatever it is), ``draw`` with the
discards as card strings, ``timeout`` (check if free, else fold; stand pat at the draw) and
``leave`` (a person folds at once and is paid out when the hand ends).  A Riemann's seat is
played like any other: the server asks its policy.

**The hand's log** (:meth:`TableHand.hand_log`, format :data:`FORMAT`) is the table's log
(:attr:`~poker51.multi.table.Table.log`, canonical JSON lines) with two kinds of private
records a server keeps on its disk and never sends: a first ``{"event": "setup", ...}``
record (the table's id and first button, the seats as taken, and the committed deck with its
salt and seed, as the ``reveal`` record shows them when the hand ends) and a
``{"event": "play", ...}`` record before each step's records (the action as the server
received it, a draw's discards included).  Without those two kinds the lines are the table
log's, byte for byte (:func:`public_lines`).  :meth:`TableHand.from_log` rebuilds the hand
from any prefix of it: the seats and deck from the first record, then every ``play`` record;
the records that follow from them are written again, so the rebuilt hand's log is the
prefix (a line cut in the middle dropped) continued.

>>> seats = [{"seat": 0, "name": "ann", "buyin": 4}, {"seat": 2, "name": "bob", "buyin": 2}]
>>> h = TableHand.deal(seats, button=2, entropy=7)
>>> h.whose_turn(), [str(a) for a in h.legal_plays()][:3]
(0, ['0 check', '0 open 100', '0 open 200'])
>>> h.play(TableAction.of(0, "open", 200)); h.whose_turn()
2
>>> try:
...     h.verify_play(TableAction.of(2, "raise"))
... except IllegalAction as err:
...     print(err.detail); print(err.rule)
a raise of 200 cents over 200 to call, holding 100
A hand 2-3: a raise is by the opening amount; holding less, go all in
>>> TableHand.from_log(h.hand_log()).hand_log() == h.hand_log()
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from poker51.cards import parse_card
from poker51.errors import InputError
from poker51.io import canonical_json
from poker51.multi.commit import CommittedDeck, DeckSource
from poker51.multi.hand import DONE, DRAW, Hand
from poker51.multi.law import RULE_TURN, Move
from poker51.multi.table import Table
from poker51.multi.view import seat_view
from poker51.table.deal import deck_commitment
from poker51.table.errors import IllegalAction, ReplayError
from poker51.table.log import parse_log
from poker51.table.protocol import PlayMixin, TableAction, cards_json, check_rebuilt, replay_plays, state_from_json

#: the format of a hand's log (its first record's ``format``)
FORMAT = "poker51-multi-hand/1"
#: the log records a server keeps private (never in the table's public log)
PRIVATE = ("setup", "play")
BET_KINDS = ("check", "open", "call", "raise", "fold")
KINDS = (*BET_KINDS, "allin", "draw", "timeout", "leave")
RULE_AMOUNT = "A hand 2-3: a call matches the bet (or all you hold), a raise is by the opening amount"
RULE_OVER = "A hand: a hand ends at the showdown or the last fold"
RULE_KIND = "A hand 2-4: check, open, call, raise, fold, all in, draw; a timeout; leave"


class _Recorded:
    """A deck source that deals the deck a log recorded (rebuilding a hand)."""

    def __init__(self, source: str, committed: CommittedDeck) -> None:
        self.source, self.committed = source, committed

    def deck(self, hand: int, scripted: Sequence[int] | None = None) -> CommittedDeck:
        return self.committed


def public_lines(log: str) -> str:
    """The table's public log inside a hand's log: every line but the private ones."""
    return "".join(line + "\n" for line in log.splitlines() if line and json.loads(line).get("event") not in PRIVATE)


class TableHand(PlayMixin):
    """One hand at a five-seat table under the protocol (module docstring)."""

    def __init__(self, table: Table, setup: Sequence[Mapping[str, Any]]) -> None:
        self.table = table
        hand = table.hand
        if hand is None:
            raise InputError("a TableHand needs a dealt hand")
        self.hand: Hand = hand
        self.setup = [dict(s) for s in setup]
        self.seats: tuple[int, ...] = tuple(hand.order)
        cd = table.deck
        assert cd is not None
        self._lines: list[str] = [
            canonical_json(
                {
                    "event": "setup",
                    "format": FORMAT,
                    "table": table.id,
                    "source": table.source.source,
                    "button": hand.button,
                    "seats": self.setup,
                    "deck": cards_json(cd.deck),
                    "salt": cd.salt.hex(),
                    "seed": None if cd.seed is None else cd.seed.hex(),
                    "deck_source": cd.source,
                }
            )  # fmt: skip
        ]
        self._seen = 0
        self._flush()

    # ------------------------------------------------------------------ building
    @classmethod
    def deal(
        cls,
        seats: Sequence[Mapping[str, Any]],
        button: int = 0,
        deck: Sequence[int] | None = None,
        entropy: int | None = 0,
        table: str = "table",
    ) -> TableHand:
        """Seat ``seats`` (scenario entries: ``{"seat", "name", "buyin"}`` in jbits, or
        ``{"seat", "name", "riemann": true, "added_by"}``) and deal: a scripted ``deck`` (deal
        order), else one from ``DeckSource("seedsequence", entropy)`` (``secrets`` for None)."""
        source = DeckSource("secrets") if entropy is None else DeckSource("seedsequence", int(entropy))
        t = Table(table, source, button)
        _seat_all(t, seats)
        t.start_hand(None if deck is None else [int(c) for c in deck])
        return cls(t, seats)

    @classmethod
    def from_log(cls, log: Any) -> TableHand:
        """The hand rebuilt from its log or any prefix of it (module docstring); :class:`ReplayError`
        if the log ends before the deal or the rebuilt lines differ from it."""
        text = log.decode("utf-8") if isinstance(log, (bytes, bytearray)) else str(log)
        if text and not text.endswith("\n"):
            text = text[: text.rfind("\n") + 1]  # a line cut in the middle
        records = parse_log(text) if text else []
        if not records or records[0].get("event") != "setup" or records[0].get("format") != FORMAT:
            raise ReplayError(f"not a {FORMAT} log: the first record is its 'setup' record")
        head = records[0]
        try:
            committed = CommittedDeck(
                tuple(parse_card(c) for c in head["deck"]),
                bytes.fromhex(head["salt"]),
                deck_commitment([parse_card(c) for c in head["deck"]], bytes.fromhex(head["salt"])),
                head["deck_source"],
                None if head["seed"] is None else bytes.fromhex(head["seed"]),
            )
            t = Table(head["table"], _Recorded(head["source"], committed), head["button"])  # type: ignore[arg-type]
            _seat_all(t, head["seats"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ReplayError(f"the setup record is malformed ({exc!r})") from None
        t.start_hand()
        out = cls(t, head["seats"])
        replay_plays(out, records, "event")
        check_rebuilt(text, out)
        return out

    @classmethod
    def from_state_json(cls, obj: Mapping[str, Any]) -> TableHand:
        """The hand back from :meth:`state_json` (rebuilt from its log, then checked against the state)."""
        return state_from_json(cls, obj, "a table hand")  # type: ignore[return-value]

    # ------------------------------------------------------------------ the log
    def _flush(self, play: TableAction | None = None) -> None:
        if play is not None:
            self._lines.append(canonical_json({"event": "play", "hand": self.hand.number, **play.to_json()}))
        self._lines += [canonical_json(rec) for rec in self.table.log[self._seen :]]
        self._seen = len(self.table.log)

    def hand_log(self) -> str:
        """The hand's log so far (module docstring), canonical JSON lines."""
        return "".join(line + "\n" for line in self._lines)

    # ------------------------------------------------------------------ state
    @property
    def finished(self) -> bool:
        return self.hand.phase == DONE

    def whose_turn(self) -> int | None:
        return None if self.finished else self.hand.actor

    def _moves(self, seat: int) -> list[Move]:
        return self.hand.legal(seat)

    def legal_plays(self) -> list[TableAction]:
        """Every legal play of the seat on turn: its moves (or its 32 draws), a timeout; a person's leave."""
        seat = self.whose_turn()
        if seat is None:
            return []
        if self.hand.phase == DRAW:
            cards = self.hand.cards[seat]
            out = [
                TableAction.of(seat, "draw", discards=cards_json(d)) for n in range(6) for d in combinations(cards, n)
            ]
        else:
            out = [_action(seat, m) for m in self._moves(seat)]
        out.append(TableAction.of(seat, "timeout"))
        if not self.table.is_riemann(seat):
            out.append(TableAction.of(seat, "leave"))
        return out

    def _resolve(self, a: TableAction) -> Move | list[int] | None:
        """The move (a betting play), the discards (a draw) or None (timeout, leave) of a legal play."""
        if a.kind not in KINDS:
            raise IllegalAction(f"unknown action {a.kind!r}: expected one of {', '.join(KINDS)}", RULE_KIND)
        if not isinstance(a.seat, int) or a.seat not in self.table.ledger.owner:
            raise IllegalAction(f"{a.kind}: seat {a.seat!r} is not taken", "A table 1: take an open seat")
        if a.kind == "leave":
            if self.table.is_riemann(a.seat):
                raise IllegalAction(f"seat {a.seat} is a Riemann: a person removes it", "Riemann and abits")
            return None
        hand = self.table.hand_for(a.seat, a.kind)
        if a.kind == "timeout":
            return None
        if a.kind == "draw":
            discards = a.get("discards", [])
            if not isinstance(discards, list):
                raise IllegalAction("draw: the discards are a list of cards", "A hand 4: keep any of your own cards")
            return hand.check_draw(a.seat, [parse_card(c) for c in discards])
        all_in = a.kind == "allin" or a.get("all_in") is True
        kind = "raise" if a.kind == "allin" else a.kind
        m = hand.move(a.seat, kind, a.amount if a.kind == "open" else None, all_in)
        if a.kind != "allin" and m.kind != a.kind:
            raise IllegalAction(f"all in is a {m.kind} of {m.amount} cents here, not a {a.kind}", RULE_AMOUNT)
        if a.amount is not None and a.amount != m.amount:
            raise IllegalAction(f"{m.kind} puts in {m.amount} cents, not {a.amount}", RULE_AMOUNT)
        return m

    def verify_play(self, action: TableAction) -> None:
        """None if ``action`` is legal now, else :class:`IllegalAction` naming the rule."""
        if self.finished:
            raise IllegalAction(
                f"{action.kind}: the hand is over", "A hand: a hand ends at the showdown or the last fold"
            )
        if action.kind != "leave" and action.seat != self.whose_turn():
            raise IllegalAction(
                f"{action.kind}: it is seat {self.whose_turn()}'s turn, not {action.seat!r}'s", RULE_TURN
            )
        self._resolve(action)

    def apply_play(self, action: TableAction) -> None:
        t, seat = self.table, action.seat
        got = self._resolve(action)
        if action.kind == "leave":
            t.leave(t.name_of(seat))
        elif action.kind == "timeout":
            t.timeout(seat)
        elif action.kind == "draw":
            assert isinstance(got, list)
            t.draw(seat, got)
        else:
            assert isinstance(got, Move)
            t.act(seat, got.kind, got.amount if got.kind == "open" else None, all_in=got.all_in and got.incomplete)
        self._flush(action)

    def chips(self) -> int:
        """Every person's jbits now, in cents: banks, stacks, chips in the pot and jbits Riemann
        holds for them (:meth:`poker51.multi.ledger.Ledger.total_people`; constant: jbits move
        only between people, and a Riemann's abits are not jbits)."""
        return self.table.ledger.total_people(self.hand.committed if not self.finished else {})

    # ------------------------------------------------------------------ views
    def view_json(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees now (:func:`poker51.multi.view.seat_view`) as JSON: its own cards, the
        public table (stacks, the pot, whose turn, draw counts), every hand once the hand is over."""
        t = self.table
        seats = {s: (n, k, t.stack[s], s in t.away) for s, (k, n) in sorted(t.ledger.owner.items())}
        name = t.name_of(seat) if seat in t.ledger.owner else ""
        out = seat_view(t.id, seat, name, seats, self.hand)
        out["legal"] = [a.to_json() for a in self.legal_plays()] if self.whose_turn() == seat else []
        result: dict[str, Any] = json.loads(json.dumps(out))
        return result

    def state_json(self) -> dict[str, Any]:
        """The whole state as JSON (hidden cards included: for the server's disk): the log and a
        snapshot of the hand."""
        h = self.hand
        return {
            "engine": "multi",
            "log": self.hand_log().splitlines(),
            "phase": h.phase,
            "to_act": self.whose_turn(),
            "stacks": {str(s): v for s, v in sorted(self.table.stack.items())},
            "committed": {str(s): v for s, v in h.committed.items()},
            "live": sorted(h.live),
            "cards": {str(s): cards_json(c) for s, c in h.cards.items()},
            "draws": {str(s): v for s, v in h.draws.items()},
            "deck_position": h.pos,
        }


def _action(seat: int, m: Move) -> TableAction:
    return TableAction.of(seat, m.kind, m.amount if m.kind not in ("check", "fold") else None, all_in=m.all_in or None)


def _seat_all(t: Table, seats: Sequence[Mapping[str, Any]]) -> None:
    for s in seats:
        if s.get("riemann"):
            t.add_riemann(s["added_by"], s["seat"], s["name"])
        else:
            t.sit(s["name"], s["seat"], s["buyin"])


__all__ = ["FORMAT", "KINDS", "PRIVATE", "TableHand", "public_lines"]
