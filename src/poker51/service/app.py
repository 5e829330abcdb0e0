"""The service's host and its Starlette app (``docs/service.md``).

:class:`Host` keeps every open room in memory (rebuilt from its journal on start), one
:class:`asyncio.Lock` per room so that commands, queries, hellos and clock ticks of a room run one
at a time, and the connections of each room with their accounts.  A command is checked
(envelope, token, replayed id, turn), applied by the room, **committed** by the store (in a
transaction it may share with other rooms' commits: :mod:`poker51.service.groupcommit`), and only
then broadcast, each event to the connections that may see it.  Each
connection has its own send queue, so a slow client never holds a room's lock.

:func:`create_app` builds the Starlette app: the page and its static files, the HTTP API and the
WebSocket ``/ws/{room_id}``.  The clock is an object with ``now()`` (:class:`Clock`, or
:class:`ManualClock` that tests move); rooms' deadlines are served by :meth:`Host.tick_due`,
which the app's background task calls about every second of real time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from poker51.service import rooms as registry
from poker51.service.groupcommit import GroupCommitter
from poker51.service.protocol import (
    MAX_FRAME,
    PROTOCOL,
    VERSION,
    Frame,
    FrameError,
    encode,
    error_frame,
    parse,
)
from poker51.service.room import Outcome
from poker51.service.store import Committed, Store, StoredEvent, StoreError, check_name
from poker51.table.errors import IllegalAction

log = logging.getLogger("poker51.service")
STATIC = Path(__file__).parent / "static"
ROOM_ID = re.compile(r"[A-Za-z0-9_-]{4,40}")
QUEUE_LIMIT = 2000
HELLO_TIMEOUT = 60.0
#: seconds a room stays in memory with no socket, no deadline and no command in flight
#: (:meth:`Host.unload_idle`); loaded again from its journal when a socket asks for it
UNLOAD_AFTER = 10.0


class Clock:
    """The service's time: seconds since the epoch."""

    def now(self) -> float:
        return time.time()


class ManualClock(Clock):
    """A clock that moves only when told (tests)."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.t = float(start)

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> float:
        self.t += float(seconds)
        return self.t


@dataclass(eq=False)
class Connection:
    """One WebSocket of a room: its account (None: a watcher) and its send queue."""

    account: str | None
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))
    dropped: bool = False

    def send(self, frame: dict[str, Any]) -> None:
        if not self.dropped:
            self.send_text(encode(frame))

    def send_text(self, text: str) -> None:
        """An encoded frame (:meth:`send`; a broadcast encodes each event once for all its viewers)."""
        if self.dropped:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:  # a client that does not read: dropped; it resyncs when it returns
            self.dropped = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.get_nowait()
                self.queue.put_nowait(None)


@dataclass(eq=False)
class Slot:
    """An open room in memory: the room, its store row's kind and params, turn, seq, lock, connections."""

    id: str
    kind: str
    params: dict[str, Any]
    created: float
    room: Any
    turn: int
    seq: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    #: sockets holding this slot (from the room's lookup to the socket's end, hello or not): a slot
    #: with none, no deadline and no command in flight may be unloaded (:meth:`Host.unload_idle`)
    attached: int = 0
    #: when the last socket let go (the host's clock), None while one holds it
    idle_since: float | None = None


def event_text(ev: StoredEvent) -> str:
    """The event frame of ``ev`` as sent: ``encode`` of ``{type, seq, turn, event}``, built around
    the stored body when there is one (its keys sorted, as ``json.loads`` of it would give them)."""
    if ev.body is None:
        return encode({"type": "event", "seq": ev.seq, "turn": ev.turn, "event": ev.payload})
    return f'{{"type":"event","seq":{int(ev.seq)},"turn":{int(ev.turn)},"event":{ev.body}}}'


def seated(room: Any, account: str | None) -> bool:
    """Whether ``account`` plays in ``room`` (``room.seated`` if it has one, else ``account in room.chips()``)."""
    if account is None:
        return False
    f = getattr(room, "seated", None)
    if f is not None:
        return bool(f(account))
    return account in room.chips()


def visible(audience: str, account: str | None, room: Any) -> bool:
    """Whether a connection of ``account`` may see an event stored with ``audience``."""
    if audience == "all":
        return True
    if audience == "watchers":
        return not seated(room, account)
    if audience.startswith("account:"):
        return account is not None and audience == f"account:{account}"
    return False


class Host:
    """The rooms of one process (module docstring)."""

    def __init__(self, store: Store, context: registry.Context | None = None, clock: Clock | None = None) -> None:
        self.store = store
        self.committer = GroupCommitter(store)  # every room's commits, many per transaction
        self.context = context or registry.Context()
        if self.context.names is None:
            self.context.names = store.names
        self.clock = clock or Clock()
        #: point reads (a command's answer and bank, a hello's token and bank) run on the event loop
        #: itself on SQLite, whose WAL readers wait on no writer (a few tens of microseconds, against
        #: about 120 us of CPU for a hop to a worker thread and back); elsewhere in a worker thread
        self.inline_reads = store.backend == "sqlite"
        self.slots: dict[str, Slot] = {}
        #: rooms unloaded (:meth:`unload_idle`) and loaded again (:meth:`slot_of`) so far
        self.unloads = self.reloads = 0
        if self.context.conduct is None:  # the card room's Article XI state (read by its rooms)
            from poker51.service.conduct import Conduct

            self.context.conduct = Conduct.load(store)
        for row in store.open_rooms():
            try:
                self.slots[row.id] = self._rebuild(row.id, row.kind, row.params, row.created, row.turn, row.seq)
                self.slots[row.id].idle_since = self.clock.now()
            except Exception as exc:  # a room that cannot be rebuilt stays closed to play, logged
                log.error("room %s (%s) could not be rebuilt: %s", row.id, row.kind, exc)

    # ------------------------------------------------------------------ rooms
    def slot_of(self, room_id: str) -> tuple[Slot | None, bool]:
        """(the open room ``room_id`` in memory, whether a room of that id exists): loaded again
        from its journal (as after a restart) when :meth:`unload_idle` unloaded it; no slot when
        the room is closed or unknown, with one read of its row.  Synchronous: no other coroutine
        runs between the lookup and the slot's entry in :attr:`slots`, so a room is never in
        memory twice."""
        slot = self.slots.get(room_id)
        if slot is not None:
            return slot, True
        row = self.store.room(room_id)
        if row is None or row.closed is not None:
            return None, row is not None
        slot = self.slots[room_id] = self._rebuild(row.id, row.kind, row.params, row.created, row.turn, row.seq)
        slot.idle_since = self.clock.now()
        self.reloads += 1
        return slot, True

    def attach(self, slot: Slot) -> None:
        slot.attached += 1
        slot.idle_since = None

    def detach(self, slot: Slot) -> None:
        slot.attached -= 1
        if slot.attached == 0:
            slot.idle_since = self.clock.now()

    def unload_idle(self, after: float | None = None) -> int:
        """Unload from memory every room that no socket has held for ``after`` seconds (default
        :data:`UNLOAD_AFTER`), has no deadline and no command in flight; the number unloaded.  Its
        state is its journal, committed: :meth:`slot_of` loads it again when a socket asks for it,
        exactly as a restart does.  What it bounds: the live objects of a long-running host, whose
        every full garbage collection walks them all (docs/design/service-scaling.md)."""
        after = UNLOAD_AFTER if after is None else float(after)
        now = self.clock.now()
        gone = [
            s.id
            for s in self.slots.values()
            if s.attached == 0
            and not s.connections
            and not s.lock.locked()
            and s.idle_since is not None
            and now - s.idle_since >= after
            and s.room.next_deadline() is None
        ]
        for room_id in gone:
            del self.slots[room_id]
        self.unloads += len(gone)
        return len(gone)

    def _rebuild(self, room_id: str, kind: str, params: dict[str, Any], created: float, turn: int, seq: int) -> Slot:
        room = registry.make_room(kind, room_id, params, created, self.context)
        for entry in self.store.journal(room_id):
            room.replay(entry)
        return Slot(room_id, kind, params, created, room, turn, seq)

    def _reload(self, slot: Slot) -> None:
        """After a failure: the room again from its journal (its state as committed)."""
        row = self.store.room(slot.id)
        assert row is not None
        fresh = self._rebuild(slot.id, slot.kind, slot.params, slot.created, row.turn, row.seq)
        slot.room, slot.turn, slot.seq = fresh.room, fresh.turn, fresh.seq

    def create_room(self, kind: str, params: dict[str, Any], owner: str | None) -> Slot:
        params = registry.check_params(kind, {**params, "owner": owner})
        now = self.clock.now()
        room_id = secrets.token_urlsafe(9)
        room = registry.make_room(kind, room_id, params, now, self.context)
        self.store.create_room(room_id, kind, params, str(getattr(room, "rules", "")), owner, now)
        slot = self.slots[room_id] = Slot(room_id, kind, params, now, room, 0, 0, idle_since=now)
        return slot

    def resolve(self, slot: Slot, outcome: Outcome) -> list[str]:
        """The outcome's audiences as stored: ``seat:<n>`` becomes ``account:<id>`` (or ``nobody``)."""
        out = []
        for ev in outcome.events:
            aud = ev.audience
            if aud.startswith("seat:"):
                f = getattr(slot.room, "account_at", None)
                acc = f(aud[5:]) if f is not None else None
                aud = f"account:{acc}" if acc is not None else "nobody"
            elif aud not in ("all", "watchers", "archive", "conduct") and not aud.startswith("account:"):
                raise FrameError("internal", f"room {slot.id}: an event for an unknown audience {aud!r}")
            out.append(aud)
        return out

    def broadcast(self, slot: Slot, stored: list[StoredEvent]) -> None:
        for ev in stored:
            text = None  # the same frame for every connection that may see it: encoded once
            for conn in slot.connections:
                if visible(ev.audience, conn.account, slot.room):
                    if text is None:
                        text = event_text(ev)
                    conn.send_text(text)

    async def _commit(
        self, slot: Slot, outcome: Outcome, now: float, account: str | None = None, frame: Frame | None = None
    ) -> Committed:
        audiences = self.resolve(slot, outcome)
        close = bool(getattr(slot.room, "closed", False))
        # the conduct state follows the outcome at once (no await since the room decided), undone
        # if the commit fails: two rooms never judge a report on the same stale book
        conduct = self.context.conduct
        staged = conduct.stage([(a, e.payload) for a, e in zip(audiences, outcome.events)]) if conduct else None

        def answer(c: Committed) -> dict[str, Any]:
            assert frame is not None and account is not None
            c.answer = {
                "type": "ack",
                "re": frame.id,
                "turn": c.turn,
                "seq": c.seq,
                "bank": c.banks.get(account),
                "receipts": c.receipts.get(account, []),
            }
            return c.answer

        try:
            committed = await self.committer.commit(
                lambda conn: self.store.commit_on(
                    conn,
                    slot.id,
                    outcome,
                    audiences,
                    now,
                    account=account,
                    action_id=None if frame is None else frame.id,
                    answer=answer if frame is not None else None,
                    close=close,
                )
            )
        except BaseException:
            if conduct:
                conduct.unstage(staged)
            raise
        if conduct:
            conduct.done(staged)
        slot.turn, slot.seq = committed.turn, committed.seq
        self.broadcast(slot, committed.events)
        if close:
            self.slots.pop(slot.id, None)
        return committed

    async def read(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)``, a read of the store: on the loop on SQLite, else in a worker thread (``inline_reads``)."""
        if self.inline_reads:
            return fn(*args)
        return await anyio.to_thread.run_sync(fn, *args)

    # ------------------------------------------------------------------ frames
    async def command(self, slot: Slot, conn: Connection, frame: Frame) -> dict[str, Any]:
        """The answer to one command (module docstring); events go out before it."""
        account = conn.account
        if account is None:
            raise FrameError("watcher", "a watcher sends no commands; say hello with a token")
        async with slot.lock:
            action_id = str(frame.id)
            now = self.clock.now()

            first, bank = await self.read(self.store.command_reads, account, action_id, now)  # one connection
            if first is not None:
                return first
            if slot.id not in self.slots:
                raise FrameError("closed", "the room is closed")
            assert frame.turn is not None
            if frame.type not in getattr(slot.room, "turnless", frozenset()) and frame.turn != slot.turn:
                raise FrameError("stale_turn", f"the room is at turn {slot.turn}, not {frame.turn}; ask for the view")
            try:
                outcome = slot.room.apply(account, bank, dict(frame.cmd), now)
            except (IllegalAction, FrameError):
                raise
            except Exception as exc:
                log.exception("room %s: apply failed", slot.id)
                self._reload(slot)
                raise FrameError(
                    "internal", f"the room could not apply it ({type(exc).__name__}); nothing changed"
                ) from None
            try:
                committed = await self._commit(slot, outcome, now, account, frame)
            except Exception as exc:
                log.exception("room %s: commit failed", slot.id)
                self._reload(slot)
                raise FrameError("internal", f"the commit failed ({type(exc).__name__}); nothing changed") from None
            assert committed.answer is not None
            return committed.answer

    async def hello(self, slot: Slot, conn: Connection, frame: Frame) -> None:
        async with slot.lock:
            last = frame.raw.get("last_seq")
            bank = None
            if conn.account is not None:
                account, now = conn.account, self.clock.now()

                def read() -> int:
                    self.context.remember_names([account])
                    return self.store.bank_due(account, now)

                bank = await self.read(read)
            conn.send(
                {
                    "type": "welcome",
                    "v": VERSION,
                    "protocol": PROTOCOL,
                    "room": slot.id,
                    "kind": slot.kind,
                    "account": conn.account,
                    "bank": bank,
                    "seq": slot.seq,
                    "turn": slot.turn,
                    "view": slot.room.view(conn.account),
                }
            )
            if last is not None:
                await self._missed(slot, conn, int(last))
            slot.connections.add(conn)

    async def _missed(self, slot: Slot, conn: Connection, last: int) -> None:
        for ev in await anyio.to_thread.run_sync(self.store.events_after, slot.id, last):
            if visible(ev.audience, conn.account, slot.room):
                conn.send({"type": "event", "seq": ev.seq, "turn": ev.turn, "event": ev.payload, "replayed": True})

    async def view(self, slot: Slot, conn: Connection) -> dict[str, Any]:
        async with slot.lock:
            return self._view_frame(slot, conn)

    def _view_frame(self, slot: Slot, conn: Connection) -> dict[str, Any]:
        bank = None if conn.account is None else self.store.bank_due(conn.account, self.clock.now())
        return {"type": "view", "turn": slot.turn, "seq": slot.seq, "bank": bank, "view": slot.room.view(conn.account)}

    async def resync(self, slot: Slot, conn: Connection, frame: Frame) -> dict[str, Any]:
        async with slot.lock:
            await self._missed(slot, conn, int(frame.raw["last_seq"]))
            return self._view_frame(slot, conn)

    async def query(self, slot: Slot, conn: Connection, frame: Frame) -> dict[str, Any]:
        f = getattr(slot.room, "query", None)
        if f is None:
            raise FrameError("unknown_type", f"a {slot.kind} room answers no query")
        async with slot.lock:
            result = await anyio.to_thread.run_sync(f, conn.account, dict(frame.cmd))
        return {"type": "answer", "re": frame.id, **result}

    # ------------------------------------------------------------------ clocks
    async def tick_due(self) -> int:
        """Tick every room whose deadline has come (the clock's ``now``); the number ticked."""
        n = 0
        for slot in list(self.slots.values()):
            deadline = slot.room.next_deadline()
            if deadline is None or deadline > self.clock.now():
                continue
            async with slot.lock:
                now = self.clock.now()
                try:
                    outcome = slot.room.tick(now)
                    if not outcome.empty:
                        await self._commit(slot, outcome, now)
                except Exception:
                    log.exception("room %s: tick failed", slot.id)
                    self._reload(slot)
                    continue
            n += 1
        return n

    async def run_clock(self, period: float = 1.0) -> None:
        while True:
            await asyncio.sleep(period)
            try:
                await self.tick_due()
                self.unload_idle()
            except Exception:  # pragma: no cover - logged, the loop goes on
                log.exception("the clock loop failed")


# --------------------------------------------------------------------------- HTTP
def _error(status: int, code: str, detail: str) -> JSONResponse:
    return JSONResponse({"error": code, "detail": detail}, status_code=status)


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if not auth.lower().startswith("bearer "):
        return None
    return auth[7:].strip() or None


async def _account(host: Host, request: Request) -> str | None:
    token = _bearer(request)
    if token is None:
        return None
    return await anyio.to_thread.run_sync(host.store.account_of, token)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_FRAME:
        raise FrameError("too_large", f"a request body is at most {MAX_FRAME} bytes")
    if not raw.strip():
        return {}
    try:
        obj = json.loads(raw)
    except ValueError as exc:
        raise FrameError("bad_json", f"not JSON ({exc})") from None
    if not isinstance(obj, dict):
        raise FrameError("bad_json", "the body is a JSON object")
    return obj


def create_app(host: Host, clock_period: float | None = 1.0) -> Starlette:
    """The Starlette app of ``host`` (module docstring); ``clock_period`` None: no clock task."""

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def version(request: Request) -> Response:
        return JSONResponse({"protocol": PROTOCOL, "v": VERSION, "rooms": registry.kinds(), "max_frame": MAX_FRAME})

    async def new_account(request: Request) -> Response:
        try:
            name = (await _body(request)).get("name")
            if name is not None:
                name = check_name(name)
        except (FrameError, StoreError) as exc:
            return _error(400, getattr(exc, "code", "bad_frame"), getattr(exc, "detail", str(exc)))
        account, token = await anyio.to_thread.run_sync(host.store.create_account, host.clock.now(), name)
        bank = await anyio.to_thread.run_sync(host.store.bank, account)
        return JSONResponse(
            {"account": account, "token": token, "bank": bank, "name": host.context.display_name(account)},
            status_code=201,
        )

    async def get_account(request: Request) -> Response:
        account = await _account(host, request)
        if account is None:
            return _error(401, "bad_token", "send the account's token: Authorization: Bearer <token>")
        now = host.clock.now()
        bank = await anyio.to_thread.run_sync(host.store.bank_due, account, now)
        booked = await anyio.to_thread.run_sync(host.store.bank, account)
        total = await anyio.to_thread.run_sync(host.store.ledger_sum, account)
        rec = await anyio.to_thread.run_sync(host.store.receipts_of, account)
        name = await anyio.to_thread.run_sync(host.context.display_name, account)
        # bank: what the account may spend now; recovery_due: the part of it not yet booked (the
        # hourly recovery is booked by the next command that moves jbits); bank = ledger_sum + recovery_due
        return JSONResponse(
            {
                "account": account,
                "name": name,
                "bank": bank,
                "recovery_due": bank - booked,
                "ledger_sum": total,
                "receipts": rec,
            }
        )

    async def new_room(request: Request) -> Response:
        account = await _account(host, request)
        if account is None:
            return _error(401, "bad_token", "send the account's token: Authorization: Bearer <token>")
        try:
            body = await _body(request)
            kind = body.pop("kind", None)
            if not isinstance(kind, str):
                raise FrameError("bad_frame", f"a room names its kind: one of {', '.join(registry.kinds())}")
            slot = await anyio.to_thread.run_sync(host.create_room, kind, body, account)
        except FrameError as exc:
            return _error(400, exc.code, exc.detail)
        except IllegalAction as exc:
            return _error(400, "bad_frame", exc.detail)
        return JSONResponse({"room": slot.id, "kind": slot.kind, "link": f"/?room={slot.id}"}, status_code=201)

    async def get_room(request: Request) -> Response:
        room_id = request.path_params["room_id"]
        row = await anyio.to_thread.run_sync(host.store.room, room_id) if ROOM_ID.fullmatch(room_id) else None
        if row is None:
            return _error(404, "unknown_room", f"no room {room_id!r}")
        return JSONResponse(
            {"room": row.id, "kind": row.kind, "rules": row.rules, "created": row.created, "closed": row.closed}
        )

    async def history(request: Request) -> Response:
        account = await _account(host, request)
        if account is None:
            return _error(401, "bad_token", "send the account's token: Authorization: Bearer <token>")
        return JSONResponse(await anyio.to_thread.run_sync(host.store.history, account))

    async def hand(request: Request) -> Response:
        account = await _account(host, request)
        if account is None:
            return _error(401, "bad_token", "send the account's token: Authorization: Bearer <token>")
        hand_id = request.path_params["hand_id"]
        found = await anyio.to_thread.run_sync(host.store.hand, hand_id) if len(hand_id) <= 80 else None
        if found is None or account not in found[1]:
            return _error(404, "unknown_hand", f"no finished hand {hand_id!r} of this account")
        return JSONResponse(found[0])

    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        room_id = websocket.path_params["room_id"]
        slot, known = host.slot_of(room_id) if ROOM_ID.fullmatch(room_id) else (None, False)
        if slot is None:
            code = "closed" if known else "unknown_room"
            await websocket.send_text(encode(error_frame(FrameError(code, f"no open room {room_id!r}"))))
            await websocket.close(code=4404)
            return
        host.attach(slot)  # no await since the lookup: the slot cannot be unloaded in between
        try:
            await serve_socket(host, slot, websocket)
        finally:
            host.detach(slot)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(host.run_clock(clock_period)) if clock_period else None
        try:
            yield
        finally:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    routes = [
        Route("/", index),
        Route("/api/version", version),
        Route("/api/accounts", new_account, methods=["POST"]),
        Route("/api/account", get_account),
        Route("/api/rooms", new_room, methods=["POST"]),
        Route("/api/rooms/{room_id}", get_room),
        Route("/api/history", history),
        Route("/api/hands/{hand_id}", hand),
        WebSocketRoute("/ws/{room_id}", ws),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.host = host
    return app


async def serve_socket(host: Host, slot: Slot, websocket: WebSocket) -> None:
    """One connection: its sender task, then its frames one by one until it closes."""
    conn = Connection(None)
    hello_done = False

    async def sender() -> None:
        queue = conn.queue
        while True:
            text = await queue.get()
            while True:  # every frame queued by now, before waiting again (one wake-up for a command's frames)
                if text is None:
                    await websocket.close(code=4408)
                    return
                await websocket.send_text(text)
                if queue.empty():
                    break
                text = queue.get_nowait()

    send_task = asyncio.create_task(sender())
    try:
        while True:
            try:
                msg = await asyncio.wait_for(websocket.receive(), None if hello_done else HELLO_TIMEOUT)
            except TimeoutError:
                conn.send(error_frame(FrameError("hello_first", "no hello in time; the connection closes")))
                break
            if msg["type"] == "websocket.disconnect":
                break
            text = msg.get("text")
            re_id = None
            try:
                if text is None:
                    data = msg.get("bytes") or b""
                    if len(data) > MAX_FRAME:
                        raise FrameError("too_large", f"a frame is at most {MAX_FRAME} bytes, this one is {len(data)}")
                    raise FrameError("bad_json", "frames are text messages")
                frame = parse(text)
                re_id = frame.id
                if frame.type == "hello":
                    if hello_done:
                        raise FrameError("hello_first", "hello once per connection")
                    token = frame.raw.get("token")
                    if token is not None:
                        account = await host.read(host.store.account_of, token)
                        if account is None:
                            raise FrameError("bad_token", "the token names no account (stale or unknown)")
                        conn.account = account
                    await host.hello(slot, conn, frame)
                    hello_done = True
                    continue
                if not hello_done:
                    raise FrameError("hello_first", "the first frame is hello")
                if frame.type == "view":
                    conn.send(await host.view(slot, conn))
                elif frame.type == "resync":
                    conn.send(await host.resync(slot, conn, frame))
                elif frame.type == "query":
                    conn.send(await host.query(slot, conn, frame))
                else:
                    conn.send(await host.command(slot, conn, frame))
            except (FrameError, IllegalAction) as exc:
                conn.send(error_frame(exc, re_id))
            except Exception as exc:  # a bug: one error frame, nothing changed, the connection goes on
                log.exception("room %s: a frame failed", slot.id)
                conn.send(error_frame(exc, re_id))
            if conn.dropped:
                break
    except WebSocketDisconnect as exc:
        _cut_tracebacks(exc)
    finally:
        slot.connections.discard(conn)
        with contextlib.suppress(asyncio.QueueFull):
            conn.queue.put_nowait(None) if not conn.dropped else None
        with contextlib.suppress(Exception):
            await asyncio.wait_for(send_task, 2.0)
        send_task.cancel()
        if send_task.done() and not send_task.cancelled() and send_task.exception() is not None:
            _cut_tracebacks(send_task.exception())


def _cut_tracebacks(exc: BaseException | None) -> None:
    """Drop the tracebacks of ``exc`` and of the exceptions it chains: a disconnect's traceback holds
    the frames that hold it, a reference cycle per closed socket that only a full garbage
    collection frees (docs/design/service-scaling.md, "Garbage collection and idle rooms")."""
    seen = 0
    while exc is not None and seen < 8:
        exc.__traceback__ = None
        exc = exc.__cause__ or exc.__context__
        seen += 1


__all__ = ["Clock", "Connection", "Host", "ManualClock", "Slot", "create_app", "serve_socket", "visible"]
