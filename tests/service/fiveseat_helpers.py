"""Helpers of the five-seat room's tests: a room with a recorded history, bots, the replay check."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from poker51.multi.belief import standard_belief
from poker51.multi.riemann import RiemannPolicy
from poker51.service.fiveseat import FiveSeatRoom
from poker51.service.room import Event, Movement, Outcome

#: every card name as the room writes it (rank then suit)
CARD = re.compile(r'"([2-9TJQKA][cdhs])"')
BIG_BANK = 10**9


@cache
def policy() -> RiemannPolicy:
    """Riemann over a real v0.2 belief table of the standard deck, built by the pipeline's code
    (seed 51) with 1,000 samples a row, the least it allows (seconds, not the stage's minute)."""
    return RiemannPolicy(standard_belief(51, 1000))


def params(**kw: Any) -> dict[str, Any]:
    return {"deck": "seedsequence", "entropy": 2026, "pause_s": 0, **kw}


@dataclass
class Rec:
    """A room and everything it returned: the journal, the movements, the events in order."""

    room: FiveSeatRoom
    journal: list[dict[str, Any]] = field(default_factory=list)
    moves: list[Movement] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    now: float = 0.0
    snapshots: list[dict[str | None, Any]] | None = None  # every viewer's frame after each entry

    @classmethod
    def new(cls, now: float = 0.0, snap: bool = False, **kw: Any) -> Rec:
        room = FiveSeatRoom("t1", params(**kw), now, riemann=policy())
        return cls(room, now=now, snapshots=[] if snap else None)

    def _take(self, out: Outcome) -> Outcome:
        # the host stores entries as JSON: keep them as it would read them back
        self.journal += [json.loads(json.dumps(e)) for e in out.journal]
        self.moves += out.movements
        self.events += out.events
        if self.snapshots is not None and out.journal:
            self.snapshots.append(views(self.room))
        return out

    def do(self, account: str, cmd: dict[str, Any], bank: int = BIG_BANK, dt: float = 1.0) -> Outcome:
        self.now += dt
        return self._take(self.room.apply(account, bank, cmd, self.now))

    def tick(self, dt: float) -> Outcome:
        self.now += dt
        return self._take(self.room.tick(self.now))

    def moved(self, account: str) -> int:
        return sum(m.delta for m in self.moves if m.account == account)

    def actor(self) -> str | None:
        """The account (or Riemann) on turn, None between hands."""
        t = self.room.table
        if not t.in_hand or t.hand is None or t.hand.actor is None:
            return None
        return t.name_of(t.hand.actor)

    def timeout(self) -> Outcome:
        """Let the clock of the player on turn run out (one tick at its deadline)."""
        deadline = self.room.next_deadline()
        assert deadline is not None
        return self.tick(deadline - self.now)

    def bot(self, rng: random.Random, timeouts: float = 0.0) -> Outcome:
        """The person on turn plays a random legal move (a random draw at the draw), or times out."""
        who = self.actor()
        assert who is not None
        if rng.random() < timeouts:
            return self.timeout()
        cmd = rng.choice(self.room.legal())["cmd"]
        if cmd["type"] == "draw":
            cards = self.room.view(who)["you"]["cards"]
            cmd = {"type": "draw", "discard": rng.sample(cards, rng.randint(0, 5))}
        return self.do(who, cmd)


def card_strings(obj: Any) -> set[str]:
    """Every string in ``obj`` (nested, keys too) that is a card name: read off its JSON."""
    return set(CARD.findall(json.dumps(obj)))


def viewers(room: FiveSeatRoom) -> list[str | None]:
    return [None, *sorted(room.table.ledger.people), "nobody"]


def views(room: FiveSeatRoom) -> dict[str | None, Any]:
    return {v: room.view(v) for v in viewers(room)}


class NoPolicy:
    """A Riemann that must never be asked: a replay plays Riemann's recorded moves."""

    def keep(self, cards: Any) -> list[int]:
        raise AssertionError("a replay asked Riemann to draw")

    def decide(self, spot: Any) -> Any:
        raise AssertionError("a replay asked Riemann to decide")


def check_replay(rec: Rec, created: float = 0.0) -> FiveSeatRoom:
    """A fresh room replaying the journal entry by entry shows every viewer the same frame as the
    live room did after that entry (``rec.snapshots``), without asking Riemann anything."""
    snapshots = rec.snapshots
    assert snapshots is not None and len(snapshots) == len(rec.journal)
    twin = FiveSeatRoom(rec.room.id, dict(rec.room.params), created, riemann=NoPolicy())
    for i, (entry, want) in enumerate(zip(rec.journal, snapshots)):
        twin.replay(entry)
        got = {v: twin.view(v) for v in want}
        assert got == want, f"entry {i}: {entry}"
    assert twin.chips() == rec.room.chips()
    return twin
