"""Bot clients of the service: they play legal actions over its WebSocket protocol (``docs/service.md``).

The crash test, the conservation test and the load benchmark drive the service through these
bots, as a browser would: a bot holds an account's token, says ``hello`` on ``/ws/{room}``,
keeps the room's ``turn`` and last event ``seq`` from every frame it receives, and answers the
room's views with a legal command chosen by a seeded :class:`random.Random` (never a rule of
its own: the legal moves are those the room's view lists).

:func:`choose_headsup` and :func:`choose_fiveseat` pick a command from a room's view (pure);
:class:`Tracker` keeps what a connection saw (turn, seq, view, acks, receipts, commitments);
:class:`WsBot` is the asyncio client over the ``websockets`` package (a real socket, the crash
test and the benchmark); :class:`SyncBot` is the same over any object with ``send_text`` and
``receive_text`` (Starlette's test client).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

#: a bot waits at most this long for one frame (seconds) before it says the server is gone
RECV_TIMEOUT = 30.0


class ServerGone(Exception):
    """The connection closed or timed out before the answer came."""


# --------------------------------------------------------------------------- choosing a command
#: the styles of :func:`choose_headsup`
STYLES = ("random", "steady")


def choose_headsup(
    view: dict[str, Any], rng: random.Random, bank: int | None = None, style: str = "random"
) -> dict[str, Any] | None:
    """The owner's next command in a heads-up room's ``view`` (``room.view(owner)``), or None
    when nothing is the owner's to do: ``deal`` when a hand may be dealt (and ``bank``, when
    known, in cents, holds the ante), ``draw`` at the draw,
    else one of the engine's legal actions at random (the keep mask, on the first action of the
    hand, when the view says it is needed).

    ``style="random"``: every legal action equally likely, the keep mask uniform over 0..31 (the
    widest coverage of the rules; such a player loses its 8 jbits in about five hands).
    ``style="steady"``: a cautious person's habits: the House rule's keep and :func:`steady_weights`
    (it keeps a bank for dozens of hands, so a load test's rooms are played in, not opened and
    abandoned every few hands)."""
    if style not in STYLES:
        raise ValueError(f"style is one of {STYLES}, got {style!r}")
    hand = view.get("hand")
    if view.get("can_deal"):
        return {"type": "deal"} if bank is None or bank >= 100 else None
    if hand is None:
        return None
    if hand.get("can_draw"):
        return {"type": "draw"}
    v = hand.get("view") or {}
    legal = [a for a in v.get("legal") or [] if a.get("kind") != "draw"]
    if v.get("to_act") != v.get("seat") or v.get("phase") not in ("pre", "post") or not legal:
        return None
    if style == "random":
        a = rng.choice(legal)
    else:
        a = rng.choices(legal, steady_weights(legal, v.get("cards") or [], v.get("phase") == "post"))[0]
    cmd: dict[str, Any] = {"type": "act", "kind": a["kind"], "amount": a.get("amount")}
    if v.get("needs_keep"):
        cmd["keep"] = rng.randrange(32) if style == "random" else house_keep_of(v.get("cards") or [])
    return cmd


def steady_weights(legal: Sequence[dict[str, Any]], cards: Sequence[str], post: bool) -> list[int]:
    """The steady player's weight of each legal action, from its five cards' category: a check
    when free (a bet with two pair or better, one time in three), facing a bet a call with a
    pair (two pair after the draw) or better, a raise with trips or better, else a fold."""
    from poker51.cards import parse_cards
    from poker51.hands.pure import pure_strength

    cat = pure_strength(parse_cards(" ".join(cards))) >> 20 if len(cards) == 5 else 0
    free = any(x.get("kind") == "check" for x in legal)
    out = []
    for x in legal:
        kind = x.get("kind")
        if free:
            out.append(2 if kind == "check" else 1 if kind == "raise" and cat >= 2 else 0)
        elif kind == "call":
            out.append(1 if cat >= (2 if post else 1) else 0)
        elif kind == "raise":
            out.append(1 if cat >= 3 else 0)
        else:  # fold
            out.append(1 if cat < (2 if post else 1) else 0)
    return out if any(out) else [1] * len(out)


def house_keep_of(cards: Sequence[str]) -> int:
    """The House rule's keep mask (ordinary rule) of five cards written as strings ("As")."""
    from poker51.cards import parse_cards
    from poker51.hands.pure import pure_house

    return int(pure_house(parse_cards(" ".join(cards)))[0])


def choose_fiveseat(view: dict[str, Any], seat: int | None, rng: random.Random) -> dict[str, Any] | None:
    """The command of the person in ``seat`` in a five-seat room's ``view`` (public or own),
    or None when it is not their turn: one of the view's legal moves (each carries its command)
    at random, folds made rare so that hands reach the draw and the showdown."""
    hand = view.get("hand")
    legal = view.get("legal") or []
    if seat is None or hand is None or hand.get("to_act") != seat or not legal:
        return None
    weights = [1 if m.get("kind") == "fold" else 4 for m in legal]
    move = rng.choices(legal, weights)[0]
    return dict(move["cmd"])


# --------------------------------------------------------------------------- what a connection saw
@dataclass
class Tracker:
    """What one connection saw: the room's turn and last event seq, the latest view, the acks
    by command id, the receipts its acks carried, every hand commitment its frames showed."""

    account: str | None = None
    turn: int = 0
    seq: int = 0
    view: dict[str, Any] = field(default_factory=dict)
    bank: int | None = None
    acks: dict[str, dict[str, Any]] = field(default_factory=dict)
    errors: list[dict[str, Any]] = field(default_factory=list)
    receipts: dict[str, dict[str, Any]] = field(default_factory=dict)
    commitments: set[str] = field(default_factory=set)
    frames: int = 0
    replayed: int = 0
    event_view: dict[str, Any] | None = None

    def see(self, frame: dict[str, Any]) -> None:
        """Fold one server frame in."""
        self.frames += 1
        kind = frame.get("type")
        if isinstance(frame.get("turn"), int):  # a room's turn only grows (a replayed ack shows an old one)
            self.turn = max(self.turn, frame["turn"])
        if isinstance(frame.get("seq"), int):
            self.seq = max(self.seq, frame["seq"])
        if kind in ("welcome", "view"):
            self.view = frame.get("view") or {}
            if frame.get("bank") is not None:
                self.bank = frame["bank"]
        elif kind == "event":
            ev = frame.get("event") or {}
            self.replayed += bool(frame.get("replayed"))
            if ev.get("type") == "state":
                self.view = ev["view"] if isinstance(ev.get("view"), dict) else {**ev, "type": "view"}
                self.event_view = self.view
            if ev.get("type") == "receipt" and isinstance(ev.get("receipt"), dict):
                r = ev["receipt"]
                self.receipts.setdefault(str(r.get("sha256")), r)
        elif kind == "ack":
            # a replayed id is answered with its first ack, byte for byte: its bank is that
            # moment's, so only a first answer updates the bank
            first = str(frame.get("re")) not in self.acks
            self.acks[str(frame.get("re"))] = frame
            if first and frame.get("bank") is not None:
                self.bank = frame["bank"]
            for r in frame.get("receipts") or []:
                self.receipts[str(r.get("id"))] = r
        elif kind == "error":
            self.errors.append(frame)
        c = commitment_of(self.view)
        if c is not None:
            self.commitments.add(c)


def commitment_of(view: dict[str, Any]) -> str | None:
    """The commitment of the hand a view shows (heads-up ``hand.commitment``, five-seat
    ``hand.commitment``), or None."""
    hand = view.get("hand") if isinstance(view, dict) else None
    if isinstance(hand, dict) and isinstance(hand.get("commitment"), str):
        return str(hand["commitment"])
    return None


def hello(token: str | None, last_seq: int | None = None) -> str:
    frame: dict[str, Any] = {"type": "hello", "v": 1, "token": token}
    if last_seq is not None:
        frame["last_seq"] = last_seq
    return json.dumps(frame, separators=(",", ":"))


def command(cmd: dict[str, Any], ident: str, turn: int) -> str:
    return json.dumps({**cmd, "id": ident, "turn": turn}, separators=(",", ":"))


# --------------------------------------------------------------------------- the asyncio client
class WsBot:
    """One connection of ``token`` to ``/ws/{room}`` of ``base`` (``ws://127.0.0.1:PORT``) over
    the ``websockets`` package; :attr:`latencies` holds each command's send-to-answer seconds."""

    def __init__(self, base: str, room: str, token: str | None, name: str = "bot", quiet: bool = False) -> None:
        self.base, self.room, self.token, self.name = base, room, token, name
        #: a quiet bot (a load test's watcher) only counts the frames after its welcome
        #: (``track.frames``): it sends no command, so it needs none of them read
        self.quiet = quiet
        self.track = Tracker()
        self.ws: Any = None
        self.latencies: list[float] = []
        self._n = 0
        self._waiters: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None
        self.changed = asyncio.Event()
        self.closed = False

    async def open(self, last_seq: int | None = None) -> dict[str, Any]:
        """Connect and say hello; the welcome frame (missed events follow it when ``last_seq``).
        A bot opened again (after :meth:`close`, or the server's death) keeps what it saw and
        its command ids' counter: ids stay unique per account."""
        from websockets.asyncio.client import connect

        self.track.replayed, self.track.event_view = 0, None
        self._waiters.clear()

        self.ws = await connect(f"{self.base}/ws/{self.room}", max_size=1 << 20, open_timeout=RECV_TIMEOUT)
        self.closed = False
        await self.ws.send(hello(self.token, last_seq))
        first = json.loads(await asyncio.wait_for(self.ws.recv(), RECV_TIMEOUT))
        if first.get("type") != "welcome":
            raise ServerGone(f"{self.name}: hello answered by {first}")
        self.track.see(first)
        self.track.account = first.get("account")
        self._reader = asyncio.create_task(self._read())
        return first

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                if self.quiet:
                    self.track.frames += 1
                    continue
                frame = json.loads(text)
                self.track.see(frame)
                re_id = frame.get("re")
                if frame.get("type") in ("ack", "error", "answer", "view") and re_id in self._waiters:
                    fut = self._waiters.pop(re_id)
                    if not fut.done():
                        fut.set_result(frame)
                elif frame.get("type") == "view" and "view" in self._waiters:
                    fut = self._waiters.pop("view")
                    if not fut.done():
                        fut.set_result(frame)
                self.changed.set()
        except Exception:  # a closed or broken socket: every waiter learns it
            pass
        finally:
            self.closed = True
            for fut in self._waiters.values():
                if not fut.done():
                    fut.set_exception(ServerGone(f"{self.name}: the connection closed"))
            self._waiters.clear()
            self.changed.set()

    def next_id(self) -> str:
        self._n += 1
        return f"{self.name}.{self._n}"

    async def send(self, cmd: dict[str, Any], ident: str | None = None, turn: int | None = None) -> dict[str, Any]:
        """Send one command and wait for its answer (ack or error); events come before it."""
        ident = ident or self.next_id()
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiters[ident] = fut
        t = time.perf_counter()
        if self.closed:
            raise ServerGone(f"{self.name}: the connection is closed")
        await self.ws.send(command(cmd, ident, self.track.turn if turn is None else turn))
        try:
            answer = await asyncio.wait_for(fut, RECV_TIMEOUT)
        except TimeoutError:
            raise ServerGone(f"{self.name}: no answer to {ident} in {RECV_TIMEOUT} s") from None
        self.latencies.append(time.perf_counter() - t)
        return answer

    async def send_nowait(self, cmd: dict[str, Any], ident: str) -> None:
        """Send a command without waiting for its answer (the crash test kills the server then)."""
        await self.ws.send(command(cmd, ident, self.track.turn))

    async def refresh(self) -> dict[str, Any]:
        """Ask for the view; the view frame."""
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiters["view"] = fut
        await self.ws.send('{"type":"view"}')
        return await asyncio.wait_for(fut, RECV_TIMEOUT)

    async def wait_change(self, timeout: float) -> bool:
        """Wait until a frame arrives (True) or ``timeout`` seconds pass (False)."""
        self.changed.clear()
        try:
            await asyncio.wait_for(self.changed.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def close(self) -> None:
        if self.ws is not None:
            try:
                await self.ws.close()
            except Exception:
                pass
        if self._reader is not None:
            try:
                await asyncio.wait_for(self._reader, 5.0)
            except (TimeoutError, Exception):
                self._reader.cancel()


# --------------------------------------------------------------------------- the synchronous client
class TextSocket(Protocol):
    def send_text(self, data: str) -> None: ...

    def receive_text(self) -> str: ...


class SyncBot:
    """The bot over a synchronous socket (Starlette's ``TestClient.websocket_connect``): one
    frame at a time, every frame read until the answer of the command sent."""

    def __init__(self, ws: TextSocket, token: str | None, name: str = "bot") -> None:
        self.ws, self.token, self.name = ws, token, name
        self.track = Tracker()
        self._n = 0

    def open(self, last_seq: int | None = None) -> dict[str, Any]:
        self.ws.send_text(hello(self.token, last_seq))
        first = json.loads(self.ws.receive_text())
        self.track.see(first)
        self.track.account = first.get("account")
        return first

    def send(self, cmd: dict[str, Any], ident: str | None = None, turn: int | None = None) -> dict[str, Any]:
        self._n += 1
        ident = ident or f"{self.name}.{self._n}"
        self.ws.send_text(command(cmd, ident, self.track.turn if turn is None else turn))
        return self.until(lambda f: f.get("re") == ident and f.get("type") in ("ack", "error"))

    def refresh(self) -> dict[str, Any]:
        """Ask for the view and read every frame before it (the events others' commands sent)."""
        self.ws.send_text('{"type":"view"}')
        return self.until(lambda f: f.get("type") == "view")

    def until(self, stop: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            frame = json.loads(self.ws.receive_text())
            self.track.see(frame)
            if stop(frame):
                return frame


# --------------------------------------------------------------------------- a server process
def free_port() -> int:
    """A TCP port of 127.0.0.1 free now (the OS's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``poker51 serve`` (or any command line given) as a child process on 127.0.0.1: started,
    waited for (``GET /api/version`` answers), killed with SIGKILL, started again on the same
    database.  ``argv`` gets ``--port PORT`` appended; the port stays the same across restarts."""

    def __init__(self, argv: Sequence[str], port: int | None = None, env: dict[str, str] | None = None,
                 log: str | None = None) -> None:  # fmt: skip
        self.argv, self.port = list(argv), port or free_port()
        self.env = {**os.environ, **(env or {})}
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> float:
        """Start it and wait until it answers; the seconds that took."""
        t = time.perf_counter()
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL
        try:
            self.proc = subprocess.Popen([*self.argv, "--port", str(self.port)], env=self.env, stdout=out, stderr=out)
        finally:  # the child has its own copy of the descriptor
            if not isinstance(out, int):
                out.close()
        self.starts += 1
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode} before it answered ({self.log})")
            try:
                with urllib.request.urlopen(f"{self.http}/api/version", timeout=2.0) as r:
                    if r.status == 200:
                        return time.perf_counter() - t
            except (urllib.error.URLError, OSError):
                pass
            if time.perf_counter() - t > timeout:
                self.kill()
                raise RuntimeError(f"the server did not answer in {timeout} s ({self.log})")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL, and wait for it to be gone."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)
        self.proc = None

    def stop(self) -> None:
        """SIGTERM (uvicorn's clean shutdown), SIGKILL after 10 s."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None


def serve_argv(tables: str, db: str, extra: Sequence[str] = ()) -> list[str]:
    """The command line of ``poker51 serve`` in this interpreter (``--port`` is added by
    :class:`ServerProcess`)."""
    return [
        sys.executable,
        "-m",
        "poker51.cli",
        "serve",
        "--tables",
        str(tables),
        "--db",
        db,
        "--host",
        "127.0.0.1",
        *extra,
    ]


def post_json(url: str, body: dict[str, Any] | None = None, token: str | None = None) -> dict[str, Any]:
    """POST ``body`` as JSON (stdlib only, loopback): the JSON answer; an HTTP error raises."""
    data = json.dumps(body or {}).encode()
    req = urllib.request.Request(url, data=data, method="POST", headers={"Content-Type": "application/json"})
    if token is not None:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=30) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


# --------------------------------------------------------------------------- the audit
def audit(url: str) -> dict[str, Any]:
    """Conservation of the database at ``url`` with no server on it: every open room rebuilt
    from its journal (as a restart does), then ``bad`` lists what fails: a cached bank that is
    not its ledger's sum, or banks + chips in play != the jbits minted (``grant``, ``recovery``).
    Returns ``{"banks", "chips", "minted", "rooms", "bad"}`` (sums; rooms: the open rooms)."""
    import sqlalchemy as sa

    from poker51.service import store as st
    from poker51.service.app import Host, ManualClock
    from poker51.service.rooms import Context

    store = st.Store.open(url)
    try:
        host = Host(store, Context(), ManualClock())
        bad = [f"bank of {a} != its ledger's sum" for a in store.check_banks()]
        with store.engine.connect() as conn:
            banks = int(conn.execute(sa.select(sa.func.coalesce(sa.func.sum(st.accounts.c.bank), 0))).scalar_one())
            minted = int(
                conn.execute(
                    sa.select(sa.func.coalesce(sa.func.sum(st.ledger.c.delta), 0)).where(
                        st.ledger.c.kind.in_(("grant", "recovery"))
                    )
                ).scalar_one()
            )
        chips = sum(sum(slot.room.chips().values()) for slot in host.slots.values())
        if banks + chips != minted:
            bad.append(f"banks {banks} + chips in play {chips} != {minted} minted")
        return {"banks": banks, "chips": chips, "minted": minted, "rooms": len(host.slots), "bad": bad}
    finally:
        store.close()


__all__ = [
    "RECV_TIMEOUT",
    "STYLES",
    "house_keep_of",
    "steady_weights",
    "audit",
    "ServerProcess",
    "free_port",
    "post_json",
    "serve_argv",
    "ServerGone",
    "SyncBot",
    "Tracker",
    "WsBot",
    "choose_fiveseat",
    "choose_headsup",
    "command",
    "commitment_of",
    "hello",
]
