"""Helpers of the card room's tests (not tests): players on WebSockets of a card room through the
service's protocol, a clock the test moves, and bots that play whatever the frame offers."""

from __future__ import annotations

import contextlib
import json
import warnings
from typing import Any

from service_helpers import Service

START = 1_000_000.0


class CardService(Service):
    """A :class:`Service` without Riemann (the card room needs none)."""

    def __init__(self, url: str, start: float = START) -> None:
        super().__init__(url, None, start)
        self.players: list[Player] = []

    def close(self) -> None:
        """Close every player's WebSocket first (an open one holds the test client's exit)."""
        for p in self.players:
            p.close()
        self.players.clear()
        super().close()

    def restart(self) -> CardService:
        self.close()
        return CardService(self.url, self.clock.t)

    def table(self, acc, **params) -> str:
        r = self.client.post("/api/rooms", json={"kind": "cardroom", **params}, headers=acc.headers)
        assert r.status_code == 201, r.text
        return r.json()["room"]

    def tick(self) -> int:
        """Serve every due clock (the host's background task, run once)."""
        return self.client.portal.call(self.host.tick_due)  # type: ignore[union-attr]

    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        self.tick()


class Player:
    """One account's WebSocket at a room: ``cmd`` sends a command and returns its answer (ack or
    error), keeping every event seen; ``view`` is the account's latest frame."""

    def __init__(self, svc: CardService, room: str, acc=None) -> None:
        self.svc, self.room = svc, room
        self.acc = acc if acc is not None else svc.account()
        self.id = self.acc.id
        self._cm = svc.client.websocket_connect(f"/ws/{room}")
        svc.players.append(self)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            self.ws = self._cm.__enter__()
        self.ws.send_text(json.dumps({"type": "hello", "v": 1, "token": self.acc.token}))
        w = self.ws.receive_json()
        assert w["type"] == "welcome", w
        self.turn, self.seq, self.last = w["turn"], w["seq"], w["view"]
        self._events: list[dict[str, Any]] = []
        self.n = 0

    @property
    def events(self) -> list[dict[str, Any]]:
        """Every event this player's socket received so far (the frames sent meanwhile drained)."""
        self.sync()
        return self._events

    def _read_until_answer(self) -> dict[str, Any]:
        while True:
            f = self.ws.receive_json()
            if f["type"] == "event":
                self._event(f)
                continue
            if "turn" in f:
                self.turn = f["turn"]
            if f["type"] == "view":
                self.last = f["view"]
            return f

    def _event(self, f: dict[str, Any]) -> None:
        self.turn, self.seq = f["turn"], f["seq"]
        self._events.append(f["event"])
        if f["event"]["type"] == "state":
            self.last = f["event"]["view"]

    def send(self, frame: dict[str, Any] | str) -> dict[str, Any]:
        self.ws.send_text(frame if isinstance(frame, str) else json.dumps(frame))
        return self._read_until_answer()

    def cmd(self, type_: str, turn: int | None = None, **fields: Any) -> dict[str, Any]:
        self.n += 1
        return self.send({"type": type_, "id": f"{self.id[:8]}-{self.n}", "turn": self.sync() if turn is None else turn,
                          **fields})  # fmt: skip

    def ok(self, type_: str, **fields: Any) -> dict[str, Any]:
        a = self.cmd(type_, **fields)
        assert a["type"] == "ack", a
        return a

    def sync(self) -> int:
        """The room's turn now (a view), draining events sent meanwhile."""
        self.ws.send_text(json.dumps({"type": "view"}))
        self._read_until_answer()
        return self.turn

    def view(self) -> dict[str, Any]:
        self.sync()
        return self.last

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == kind]  # (events syncs first)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._cm.__exit__(None, None, None)


def legal(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {x["kind"]: x for x in view["legal"]}


def bot_move(view: dict[str, Any], rng) -> dict[str, Any] | None:
    """A random legal command from the frame's ``legal`` list (bets at their least, most or
    between), None when the viewer has nothing to do."""
    options = view["legal"]
    if not options:
        return None
    pick = options[int(rng.integers(len(options)))]
    cmd = dict(pick["cmd"])
    if pick["kind"] in ("bet", "raise"):
        lo, hi = pick["min"], pick["max"]
        cmd["amount"] = int(rng.choice([lo, hi, (lo + hi) // 2]))
    if pick["kind"] == "lay" and rng.random() < 0.5:
        hole = [c for pair in cmd["sets"] for c in pair]
        order = [hole[i] for i in rng.permutation(6)]
        cmd["sets"] = [order[0:2], order[2:4], order[4:6]]
    return cmd
