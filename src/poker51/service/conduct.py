"""Conduct at the card room (rule book Article XI): reports, strikes, suspension and closure, VIP.

The rule (11.5, 11.6), as this module applies it:

* a report names a reporter, a reported player and a time (the service clock, seconds);
* one report per reporter per reported player per **day** counts (the day is the UTC calendar
  day of the service clock, ``floor(at / 86400)``); a repeat the same day is recorded with
  ``counted: false`` and adds nothing;
* a **strike** comes when the counted reports against a player made within the last thirty days
  (``at > now - 30 days``) and after that player's previous strike come from **five different
  reporters**; the reports a strike used are spent (the next strike needs five new reporters);
* the first strike suspends the account for three days, the second closes it for good; after
  the close further reports are recorded and make no strike.  Every strike is kept (the store's
  ``conduct`` table), applied automatically.

:class:`StrikeBook` is that rule as a pure object (a stream of reports in, strikes out; the
Hypothesis property test in ``tests/service/test_cardroom_conduct.py`` holds it against a
brute-force reading).  :class:`Conduct` is what the card rooms of one host read: the book and
every account's count of finished card-room hands (VIP: :data:`VIP_HANDS`), loaded from the
store and changed only by the outcomes the host commits (:meth:`Conduct.stage`, undone by
:meth:`Conduct.unstage` when the commit fails).  Rooms never write it themselves.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

DAY = 86400.0
#: 11.5: five reports from five different players within thirty days is a strike
STRIKE_REPORTERS = 5
WINDOW_S = 30 * DAY
#: 11.6: the first strike suspends for three days, the second closes the account
SUSPEND_S = 3 * DAY
CLOSE_AT = 2
#: design choice (docs/design/service-cardroom.md): an account is VIP once it has finished this
#: many hands at card-room tables that are not practice tables, while it is neither suspended nor closed
VIP_HANDS = 20
#: 7.3, 7.4, 7.6: the VIP-only games (3 Sets is open to all in the practice room); a Random table
#: can deal any of them, so it is VIP-only too
VIP_GAMES = ("omaha5", "omaha3", "three_sets")
REASONS = ("abuse", "collusion", "cheating", "other")


def day_of(at: float) -> int:
    return int(at // DAY)


@dataclass(frozen=True)
class Strike:
    account: str
    number: int
    at: float
    reporters: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"account": self.account, "number": self.number, "at": self.at,
                               "reporters": list(self.reporters)}  # fmt: skip
        if self.number < CLOSE_AT:
            out["suspended_until"] = self.at + SUSPEND_S
        else:
            out["closed"] = True
        return out


@dataclass(frozen=True)
class ReportResult:
    counted: bool
    strike: Strike | None


@dataclass
class StrikeBook:
    """The strike rule over a stream of reports (module docstring); times must not run back."""

    seen: set[tuple[str, str, int]] = field(default_factory=set)
    counted: dict[str, list[tuple[float, str]]] = field(default_factory=dict)
    strikes: dict[str, list[Strike]] = field(default_factory=dict)
    reports: int = 0

    def _judge(self, reporter: str, reported: str, at: float) -> ReportResult:
        if (reporter, reported, day_of(at)) in self.seen:
            return ReportResult(False, None)
        past = self.strikes.get(reported, [])
        if len(past) >= CLOSE_AT:
            return ReportResult(True, None)
        since = past[-1].at if past else float("-inf")
        window = [(t, r) for t, r in self.counted.get(reported, []) if t > since and t > at - WINDOW_S]
        window.append((at, reporter))
        who = sorted({r for _, r in window})
        if len(who) >= STRIKE_REPORTERS:
            return ReportResult(True, Strike(reported, len(past) + 1, at, tuple(who)))
        return ReportResult(True, None)

    def peek(self, reporter: str, reported: str, at: float) -> ReportResult:
        """What :meth:`report` would answer, changing nothing."""
        return self._judge(reporter, reported, at)

    def report(self, reporter: str, reported: str, at: float) -> ReportResult:
        res = self._judge(reporter, reported, at)
        self.reports += 1
        if res.counted:
            self.seen.add((reporter, reported, day_of(at)))
            self.counted.setdefault(reported, []).append((at, reporter))
        if res.strike is not None:
            self.strikes.setdefault(reported, []).append(res.strike)
        return res

    def status(self, account: str, now: float) -> dict[str, Any]:
        """``{"state": "ok" | "suspended" | "closed", "strikes": n, "suspended_until": t | None}``."""
        past = self.strikes.get(account, [])
        if len(past) >= CLOSE_AT:
            return {"state": "closed", "strikes": len(past), "suspended_until": None}
        if past and now < past[-1].at + SUSPEND_S:
            return {"state": "suspended", "strikes": len(past), "suspended_until": past[-1].at + SUSPEND_S}
        return {"state": "ok", "strikes": len(past), "suspended_until": None}


class Conduct:
    """The conduct state a host's card rooms read (module docstring)."""

    def __init__(self) -> None:
        self.book = StrikeBook()
        self.hands: Counter[str] = Counter()
        self.disputes: list[dict[str, Any]] = []
        self._staged: dict[int, tuple[StrikeBook, Counter[str], int]] = {}
        self._n = 0

    @classmethod
    def load(cls, store: Any) -> Conduct:
        """The state from the store's ``conduct`` rows (reports replayed in order) and ``hands``."""
        import json

        import sqlalchemy as sa

        from poker51.service.store import conduct as table
        from poker51.service.store import hand_players, hands

        out = cls()
        with store.engine.connect() as conn:
            for r in conn.execute(sa.select(table).order_by(table.c.id)):
                body = json.loads(r.body)
                if r.kind == "report":
                    out.book.report(str(r.by), str(r.account), float(r.at))
                elif r.kind == "dispute":
                    out.disputes.append(body)
            q = (
                sa.select(hand_players.c.account_id, sa.func.count())
                .join(hands, hands.c.id == hand_players.c.hand_id)
                .where(hands.c.kind == "cardroom", hands.c.rules.not_like("practice%"))
                .group_by(hand_players.c.account_id)
            )
            for acc, n in conn.execute(q):
                out.hands[str(acc)] = int(n)
        return out

    # ------------------------------------------------------------------ reads
    def status(self, account: str, now: float) -> dict[str, Any]:
        st = self.book.status(account, now)
        st["hands"] = self.hands.get(account, 0)
        st["vip"] = st["state"] == "ok" and st["hands"] >= VIP_HANDS
        return st

    def vip(self, account: str, now: float) -> bool:
        return bool(self.status(account, now)["vip"])

    # ------------------------------------------------------------------ the host's hooks
    def stage(self, events: list[tuple[str, dict[str, Any]]]) -> int | None:
        """Apply a committed-to-be outcome's ``(audience, payload)`` pairs: ``conduct`` reports and
        disputes, ``archive``d card-room hands.  Returns a token for :meth:`unstage` (None: nothing)."""
        mine = [(a, p) for a, p in events if a == "conduct" or (a == "archive" and p.get("kind") == "cardroom")]
        if not mine:
            return None
        self._n += 1
        self._staged[self._n] = (copy.deepcopy(self.book), Counter(self.hands), len(self.disputes))
        for aud, p in mine:
            if aud == "archive":
                if not str(p.get("rules", "")).startswith("practice"):
                    for acc in p.get("accounts", {}):
                        self.hands[str(acc)] += 1
            elif p.get("type") == "report":
                self.book.report(p["reporter"], p["reported"], float(p["at"]))
            elif p.get("type") == "dispute":
                self.disputes.append(p)
        return self._n

    def unstage(self, token: int | None) -> None:
        if token is None or token not in self._staged:
            return
        self.book, self.hands, n = self._staged.pop(token)
        del self.disputes[n:]
        for k in [k for k in self._staged if k > token]:
            self._staged.pop(k)

    def done(self, token: int | None) -> None:
        if token is not None:
            self._staged.pop(token, None)


__all__ = [
    "CLOSE_AT", "DAY", "REASONS", "STRIKE_REPORTERS", "SUSPEND_S", "VIP_GAMES", "VIP_HANDS", "WINDOW_S", "Conduct",
    "ReportResult", "Strike", "StrikeBook", "day_of",
]  # fmt: skip
