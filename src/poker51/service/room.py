"""The contract between the service's host and its rooms.

A room (one heads-up session, one five-seat table) is synchronous and does no I/O: the host
passes it the time (seconds, from a clock the tests can move) and persists what it returns, in
one transaction, before anything is sent.  A room's state is a deterministic function of its
creation parameters and its journal, so a restart rebuilds it entry by entry with ``replay``:
a hand in progress resumes exactly, its deck coming from the committed seed the journal holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol


@dataclass(frozen=True)
class Movement:
    """One jbit movement between an account's bank and a room (a buy-in is negative)."""

    account: str
    delta: int
    kind: str
    receipt: dict[str, Any] | None = None


@dataclass(frozen=True)
class Event:
    """A frame for an audience: ``"all"``, ``"watchers"``, ``"seat:<n>"`` or ``"account:<id>"``."""

    audience: str
    payload: dict[str, Any]


@dataclass(frozen=True)
class Outcome:
    """What one accepted command (or a clock tick) changed: journal entries, movements, frames."""

    journal: list[dict[str, Any]] = field(default_factory=list)
    movements: list[Movement] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.journal or self.movements or self.events)


class Room(Protocol):
    """What the host needs of a room; ``apply`` raises ``IllegalAction`` (rule named) and changes nothing."""

    kind: ClassVar[str]

    def apply(self, account: str, bank: int, cmd: dict[str, Any], now: float) -> Outcome: ...

    def tick(self, now: float) -> Outcome: ...

    def next_deadline(self) -> float | None: ...

    def view(self, account: str | None) -> dict[str, Any]: ...

    def replay(self, entry: dict[str, Any]) -> None: ...

    def chips(self) -> dict[str, int]: ...
