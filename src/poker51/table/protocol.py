"""The action protocol every engine offers a game server (the heads-up engine, the five-seat
tables, the rule book's games): PokerKit's ``verify_x()`` / ``can_x()`` / ``x()`` over one
small action record, a per-seat view, JSON at the edges and a state that rebuilds from its log.

An action is a :class:`TableAction`: the seat, the kind (the game's own words: ``check``,
``bet``, ``open``, ``draw``, ...), the amount it puts in when the game fixes one, and the
game's own fields (the heads-up keep mask, a draw's discards as card strings, ...).  Each
game keeps its own betting law; the protocol only says how a server talks to it:

=========================  ==========================================================
``seats``                  the seats dealt in, in the engine's order
``finished``               True once the hand is settled
``whose_turn()``           the seat that must send the next action, None when over
``legal_plays()``          every legal :class:`TableAction` now (amounts and fields filled in)
``verify_play(a)``         None, or :class:`~poker51.table.errors.IllegalAction` naming the rule
``can_play(a)``            ``verify_play`` as a bool
``play(a)``                verify, then apply
``view_json(seat)``        what ``seat`` may see now, as JSON (cards as strings ``"As"``)
``state_json()``           the whole state as JSON (hidden cards included: for the server's disk)
``hand_log()``             the log so far, as the engine writes it (:mod:`poker51.table.log`)
``from_log(log)``          (classmethod) the state rebuilt from a log or any prefix of it
``from_state_json(obj)``   (classmethod) the state back from :meth:`state_json`'s output
=========================  ==========================================================

``from_log`` resumes a hand after a restart: it replays the complete steps of the prefix and
returns the state after the last one (the lines of a step cut in the middle are dropped, and
events that follow from the log alone, such as a deal, are written again), so its log is a
prefix of the hand's full log and play continues from it to the same final bytes.

>>> a = TableAction.of("H", "bet", 2, keep=3)
>>> a
TableAction(seat='H', kind='bet', amount=2, fields=(('keep', 3),))
>>> a.get("keep"), a.to_json()
(3, {'seat': 'H', 'kind': 'bet', 'amount': 2, 'keep': 3})
>>> TableAction.from_json(a.to_json()) == a
True
>>> str(a)
'H bet 2 keep=3'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from poker51.cards import card_str, parse_card
from poker51.errors import InputError
from poker51.table.errors import IllegalAction, ReplayError

_BASE_KEYS = ("seat", "kind", "amount")


@dataclass(frozen=True)
class TableAction:
    """One action: ``seat``, ``kind``, ``amount`` (None where the game fixes it or none is put
    in) and ``fields``, the game's own ``(name, value)`` pairs in name order (JSON values)."""

    seat: Any
    kind: str
    amount: int | None = None
    fields: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, seat: Any, kind: str, amount: int | None = None, **fields: Any) -> TableAction:
        """An action with its game fields as keywords (``None`` values are left out)."""
        return cls(seat, kind, amount, tuple(sorted((k, v) for k, v in fields.items() if v is not None)))

    def get(self, name: str, default: Any = None) -> Any:
        """The game field ``name``, or ``default``."""
        return dict(self.fields).get(name, default)

    def to_json(self) -> dict[str, Any]:
        """``{"seat", "kind", "amount", **fields}``."""
        return {"seat": self.seat, "kind": self.kind, "amount": self.amount, **dict(self.fields)}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> TableAction:
        """The action back from :meth:`to_json` (an :class:`InputError` names a missing key)."""
        if not isinstance(obj, Mapping) or "seat" not in obj or "kind" not in obj:
            raise InputError(f"an action is an object with seat and kind, got {obj!r}")
        amount = obj.get("amount")
        if amount is not None and (not isinstance(amount, int) or isinstance(amount, bool)):
            raise InputError(f"an action's amount is an int or null, got {amount!r}")
        return cls.of(obj["seat"], str(obj["kind"]), amount, **{k: v for k, v in obj.items() if k not in _BASE_KEYS})

    def __str__(self) -> str:
        text = f"{self.seat} {self.kind}" + ("" if self.amount is None else f" {self.amount}")
        return text + "".join(f" {k}={v}" for k, v in self.fields)


def cards_json(cards: Iterable[int]) -> list[str]:
    """Cards as the strings the JSON edges use.

    >>> cards_json([51, 0, 38])
    ['As', '2c', 'Jh']
    """
    return [card_str(int(c)) for c in cards]


def cards_from_json(names: Iterable[str]) -> list[int]:
    """Card strings back to ints (an :class:`InputError` names a bad card)."""
    return [parse_card(n) for n in names]


@runtime_checkable
class Engine(Protocol):
    """The protocol of one hand of any engine (module docstring)."""

    seats: tuple[Any, ...]

    @property
    def finished(self) -> bool: ...

    def whose_turn(self) -> Any | None: ...

    def legal_plays(self) -> list[TableAction]: ...

    def verify_play(self, action: TableAction) -> None: ...

    def can_play(self, action: TableAction) -> bool: ...

    def play(self, action: TableAction) -> None: ...

    def view_json(self, seat: Any) -> dict[str, Any]: ...

    def state_json(self) -> dict[str, Any]: ...

    def hand_log(self) -> str: ...

    @classmethod
    def from_log(cls, log: Any) -> Engine: ...

    @classmethod
    def from_state_json(cls, obj: Mapping[str, Any]) -> Engine: ...


class PlayMixin:
    """``can_play`` and ``play`` from an engine's ``verify_play`` and ``apply_play`` (the
    application of an action already verified)."""

    def verify_play(self, action: TableAction) -> None:
        raise NotImplementedError

    def apply_play(self, action: TableAction) -> None:
        raise NotImplementedError

    def can_play(self, action: TableAction) -> bool:
        try:
            self.verify_play(action)
        except IllegalAction:
            return False
        return True

    def play(self, action: TableAction) -> None:
        self.verify_play(action)
        self.apply_play(action)


def replay_plays(hand: Engine, records: Iterable[Mapping[str, Any]], tag: str) -> None:
    """Play again, on ``hand``, every record of a hand log whose ``tag`` field is ``"play"`` (the
    actions as received); a play the engine refuses is a :class:`ReplayError` naming its line."""
    for k, r in enumerate(records):
        if r.get(tag) == "play":
            try:
                hand.play(TableAction.from_json({x: v for x, v in r.items() if x not in (tag, "hand")}))
            except InputError as exc:
                raise ReplayError(f"line {k + 1}: the play does not replay ({exc})") from None


def check_rebuilt(text: str, hand: Engine) -> None:
    """A log prefix ``text`` must be the start of the rebuilt ``hand``'s log, line for line;
    :class:`ReplayError` names the first line that differs."""
    given, rebuilt = text.splitlines(), hand.hand_log().splitlines()
    if rebuilt[: len(given)] != given:
        k = next(i for i, (a, b) in enumerate(zip(given, rebuilt + [""] * len(given))) if a != b)
        raise ReplayError(f"the rebuilt hand differs from its log at line {k + 1}")


def state_from_json(engine: type[Engine], obj: Mapping[str, Any], what: str) -> Engine:
    """A hand back from its :meth:`Engine.state_json`: rebuilt from the state's ``log``, then
    checked against the whole state (``what`` names the engine's hand in the error)."""
    if not isinstance(obj, Mapping) or "log" not in obj:
        raise InputError(f"{what}'s state is an object with its 'log'")
    out = engine.from_log("".join(line + "\n" for line in obj["log"]))
    if out.state_json() != dict(obj):
        raise ReplayError("the state differs from the one its log rebuilds")
    return out


__all__ = [
    "Engine", "PlayMixin", "TableAction", "cards_from_json", "cards_json", "check_rebuilt", "replay_plays",
    "state_from_json",
]  # fmt: skip
