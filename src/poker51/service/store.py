"""The service's database: SQLAlchemy 2 Core tables and the :class:`Store` every change goes through.

Tables (the Alembic migrations under ``migrations/`` create them; :meth:`Store.open` applies
them):

``accounts``   id, kind (``person`` or ``house``), token_hash (SHA-256 of the token; the token
               itself is never stored), bank (a cache of the ledger's sum, checked by
               :meth:`Store.check_banks`), created, recovered (the bank's recovery clock).  A
               person's bank is never below 0 (a CHECK constraint); the house's may be.
``ledger``     one row per jbit movement: account, delta (+ to the bank), kind, ref, room, at.
``receipts``   a receipt (the ``multi.table.receipt`` shape) per buy-in or cash-out, keyed by
               (account, receipt id) UNIQUE: the id is the client's command id for its own
               movements, ``<room>:<seq>:<k>`` for movements of others' commands and clocks.
``answers``    (account, action id) UNIQUE -> the first answer to that command: a replayed id is
               answered from here and moves nothing.
``rooms``      id, kind, params (JSON), rules version, owner, created, closed, turn (the journal's
               length) and seq (the last event's seq).
``journal``    (room, seq) the room's accepted commands and ticks, append-only.
``events``     (room, seq) what was broadcast, with its resolved audience: the resync source.
``hands``      a finished hand: id, room, kind, rules, ended, its log; ``hand_players`` its
               accounts and nets (the history routes).

**One transaction per accepted command** (:meth:`Store.commit`): journal entries, ledger rows,
receipts, events, archived hands and the answer, committed together or not at all.

SQLite (the default, ``sqlite:///results/service.db``) runs with WAL, ``synchronous=FULL`` and
foreign keys on; PostgreSQL by URL (``postgresql+psycopg://...``, psycopg 3).

The bank (design choice, ``docs/design/service.md``): a new account gets :data:`START_BANK` = 8
jbits (a ``grant`` row); while a person's bank is below 8 it recovers 1 jbit per
:data:`RECOVERY_SECONDS` (an hour) of the service clock, up to 8 (``recovery`` rows, written
when the account is next touched: every transaction that moves its bank applies the recovery
due first, so the clock runs from the moment the bank fell below 8).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from poker51.errors import InputError
from poker51.service.room import Event, Movement, Outcome

HOUSE = "house"
#: every amount the store holds is integer cents (1 jbit = 100 cents), as in ``poker51.multi``
from poker51.multi.law import JBIT  # noqa: E402  (cents per jbit: the tables' law is its one home)

START_BANK = 8 * JBIT
RECOVERY_TARGET = 8 * JBIT
#: the recovery: one jbit per RECOVERY_SECONDS of the service clock while a bank is below 8 jbits
RECOVERY_STEP = JBIT
RECOVERY_SECONDS = 3600.0
DEFAULT_URL = "sqlite:///results/service.db"

metadata = sa.MetaData()

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("kind", sa.String(10), nullable=False),
    sa.Column("token_hash", sa.String(64), unique=True, nullable=True),
    sa.Column("bank", sa.Integer, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("recovered", sa.Float, nullable=False),
    sa.Column("name", sa.String(40), nullable=True),
    sa.CheckConstraint("kind = 'house' OR bank >= 0", name="ck_accounts_bank"),
)
ledger = sa.Table(
    "ledger",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.String(40), sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("delta", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("ref", sa.String(120), nullable=False),
    sa.Column("room_id", sa.String(40), nullable=True),
    sa.Column("at", sa.Float, nullable=False),
)
receipts = sa.Table(
    "receipts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.String(40), sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("receipt_id", sa.String(120), nullable=False),
    sa.Column("room_id", sa.String(40), nullable=True),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.UniqueConstraint("account_id", "receipt_id", name="uq_receipts_account_id"),
)
answers = sa.Table(
    "answers",
    metadata,
    sa.Column("account_id", sa.String(40), sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("action_id", sa.String(64), primary_key=True),
    sa.Column("room_id", sa.String(40), nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
rooms = sa.Table(
    "rooms",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("params", sa.Text, nullable=False),
    sa.Column("rules", sa.String(20), nullable=False),
    sa.Column("owner", sa.String(40), sa.ForeignKey("accounts.id"), nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("closed", sa.Float, nullable=True),
    sa.Column("turn", sa.Integer, nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
)
journal = sa.Table(
    "journal",
    metadata,
    sa.Column("room_id", sa.String(40), sa.ForeignKey("rooms.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("entry", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
events = sa.Table(
    "events",
    metadata,
    sa.Column("room_id", sa.String(40), sa.ForeignKey("rooms.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("turn", sa.Integer, nullable=False),
    sa.Column("audience", sa.String(60), nullable=False),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
hands = sa.Table(
    "hands",
    metadata,
    sa.Column("id", sa.String(80), primary_key=True),
    sa.Column("room_id", sa.String(40), sa.ForeignKey("rooms.id"), nullable=False),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("rules", sa.String(20), nullable=False),
    sa.Column("ended", sa.Float, nullable=False),
    sa.Column("log", sa.Text, nullable=False),
)
#: the card room's conduct (Article XI, ``poker51.service.conduct``): reports, strikes, disputes
conduct = sa.Table(
    "conduct",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("kind", sa.String(10), nullable=False),
    sa.Column("account", sa.String(40), nullable=False, index=True),
    sa.Column("by", sa.String(40), nullable=False),
    sa.Column("room_id", sa.String(40), nullable=True),
    sa.Column("hand", sa.String(80), nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
hand_players = sa.Table(
    "hand_players",
    metadata,
    sa.Column("hand_id", sa.String(80), sa.ForeignKey("hands.id"), primary_key=True),
    sa.Column("account_id", sa.String(40), sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("net", sa.Integer, nullable=False),
)


class Sql:
    """One statement of the hot path (a command's reads and its commit), compiled once per
    dialect and run on the transaction's own DBAPI cursor.

    Building a Core statement and looking its compiled form up cost about 100-150 us of CPU per
    statement on the development VM, against 7 us for the driver's own ``execute``; a commit
    runs a dozen of them (``docs/design/service-scaling.md``).  The statement is still the Core
    construct over the tables above, so each dialect gets its own SQL (SQLite drops ``FOR
    UPDATE``; PostgreSQL casts its parameters), its parameter style and the types' bind
    processors.  It runs inside the caller's SQLAlchemy transaction: the same DBAPI connection,
    committed or rolled back with it.  ``keys``: an INSERT's columns, named as its parameters.
    """

    def __init__(self, stmt: Any, keys: Sequence[str] | None = None) -> None:
        self.stmt, self.keys = stmt, None if keys is None else list(keys)
        self._compiled: dict[str, tuple[str, list[str] | None, dict[str, Any]]] = {}

    def _for(self, dialect: Any) -> tuple[str, list[str] | None, dict[str, Any]]:
        got = self._compiled.get(dialect.name)
        if got is None:
            c = self.stmt.compile(dialect=dialect, column_keys=self.keys)
            procs = {}
            for name, bind in c.binds.items():
                f = bind.type.dialect_impl(dialect).bind_processor(dialect)
                if f is not None:
                    procs[name] = f
            got = self._compiled[dialect.name] = (str(c), list(c.positiontup) if c.positional else None, procs)
        return got

    def _params(self, order: list[str] | None, procs: dict[str, Any], p: dict[str, Any]) -> Any:
        if procs:
            p = {k: (procs[k](v) if k in procs else v) for k, v in p.items()}
        return p if order is None else tuple(p[k] for k in order)

    def run(self, conn: Connection, **params: Any) -> Any:
        """Execute with ``params`` on ``conn``'s DBAPI connection: the DBAPI cursor (rows by index).
        A driver's error is raised as SQLAlchemy's (``sa.exc.IntegrityError``...), as ``conn.execute`` does."""
        sql, order, procs = self._for(conn.dialect)
        cur = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        args = self._params(order, procs, params)
        try:
            cur.execute(sql, args)
        except conn.dialect.loaded_dbapi.Error as exc:
            cur.close()
            raise self._wrap(conn, sql, args, exc) from exc
        return cur

    @staticmethod
    def _wrap(conn: Connection, sql: str, args: Any, exc: Exception) -> Exception:
        return sa.exc.DBAPIError.instance(sql, args, exc, conn.dialect.loaded_dbapi.Error, dialect=conn.dialect)

    def one(self, conn: Connection, **params: Any) -> Any:
        """The first row (a tuple) or None."""
        cur = self.run(conn, **params)
        try:
            return cur.fetchone()
        finally:
            cur.close()

    def many(self, conn: Connection, rows: Sequence[dict[str, Any]]) -> None:
        """``executemany`` over ``rows``."""
        sql, order, procs = self._for(conn.dialect)
        cur = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        args = [self._params(order, procs, r) for r in rows]
        try:
            cur.executemany(sql, args)
        except conn.dialect.loaded_dbapi.Error as exc:
            raise self._wrap(conn, sql, args, exc) from exc
        finally:
            cur.close()


def _insert(table: sa.Table) -> Sql:
    """``INSERT`` of every column of ``table`` but an autoincrement id."""
    return Sql(table.insert(), [c.name for c in table.columns if not (c.primary_key and c.autoincrement is True)])


_B = sa.bindparam
#: the hot path's statements (:class:`Sql`)
SQL_ROOM_LOCK = Sql(
    sa.select(rooms.c.turn, rooms.c.seq, rooms.c.closed).where(rooms.c.id == _B("room")).with_for_update()
)
SQL_ROOM_SET = Sql(rooms.update().where(rooms.c.id == _B("room")).values(turn=_B("turn_"), seq=_B("seq_")))
SQL_ROOM_CLOSE = Sql(
    rooms.update().where(rooms.c.id == _B("room")).values(turn=_B("turn_"), seq=_B("seq_"), closed=_B("closed_"))
)
SQL_ACCOUNT = Sql(
    sa.select(accounts.c.kind, accounts.c.bank, accounts.c.recovered).where(accounts.c.id == _B("account"))
)
SQL_BANK = Sql(sa.select(accounts.c.bank).where(accounts.c.id == _B("account")))
SQL_RECOVERED = Sql(accounts.update().where(accounts.c.id == _B("account")).values(recovered=_B("recovered_")))
SQL_MOVE = Sql(
    accounts.update()
    .where(accounts.c.id == _B("account"))
    .values(bank=accounts.c.bank + _B("delta", type_=sa.Integer))
    .returning(accounts.c.bank)
)
SQL_TOKEN = Sql(sa.select(accounts.c.id).where(accounts.c.token_hash == _B("hash")))
SQL_ANSWER = Sql(
    sa.select(answers.c.body).where(answers.c.account_id == _B("account"), answers.c.action_id == _B("action"))
)
SQL_LEDGER = Sql(ledger.insert().inline(), ["account_id", "delta", "kind", "ref", "room_id", "at"])
SQL_RECEIPT = Sql(receipts.insert().inline(), ["account_id", "receipt_id", "room_id", "body", "at"])
SQL_JOURNAL = _insert(journal)
SQL_EVENT = _insert(events)
SQL_ANSWER_ADD = _insert(answers)
SQL_HAND = _insert(hands)
SQL_HAND_PLAYER = _insert(hand_players)


def dumps(obj: Any) -> str:
    """Canonical JSON (sorted keys, compact): the same bytes on every backend."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def token_hash(token: str) -> str:
    return hashlib.sha256(str(token).encode("utf-8")).hexdigest()


NAME = re.compile(r"[A-Za-z0-9_.\-]([A-Za-z0-9_.\- ]{0,22}[A-Za-z0-9_.\-])?")


def default_name(account: str) -> str:
    return f"Player {account[1:5]}"


def check_name(name: Any) -> str:
    """A display name: 1 to 24 letters, digits, spaces, ``_ . -`` (no space at either end), and
    never ``Riemann...`` (the tables' Riemanns are named so); :class:`StoreError` otherwise."""
    if not isinstance(name, str) or not NAME.fullmatch(name) or name.lower().startswith("riemann"):
        raise StoreError(
            f"name {str(name)[:30]!r}: 1 to 24 letters, digits, spaces, _ . - (not Riemann), no space at either end"
        )
    return name


class StoreError(InputError):
    """A database that cannot be opened or migrated, or an outcome the store refuses."""


@dataclass(frozen=True)
class RoomRow:
    id: str
    kind: str
    params: dict[str, Any]
    rules: str
    owner: str | None
    created: float
    closed: float | None
    turn: int
    seq: int


@dataclass(frozen=True)
class StoredEvent:
    seq: int
    turn: int
    audience: str
    payload: dict[str, Any]
    #: the payload as stored (:func:`dumps`), when the commit wrote it: the host puts it in the
    #: event frame as is (the same bytes as encoding ``payload`` again, without the encoding)
    body: str | None = None


@dataclass
class Committed:
    """What one commit wrote: the room's turn and last event seq after it, the stored events,
    the receipts (per account) and the banks after it of every account it touched."""

    turn: int
    seq: int
    events: list[StoredEvent] = field(default_factory=list)
    receipts: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    banks: dict[str, int] = field(default_factory=dict)
    answer: dict[str, Any] | None = None


def _room_row(r: Any) -> RoomRow:
    return RoomRow(r.id, r.kind, json.loads(r.params), r.rules, r.owner, r.created, r.closed, r.turn, r.seq)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


def make_engine(url: str) -> Engine:
    """An engine for ``url``: SQLite with its pragmas (the file's folder created), or any other URL."""
    try:
        u = sa.engine.make_url(url)
    except sa.exc.ArgumentError:
        raise StoreError(f"--db {url!r}: not a database URL (sqlite:///FILE or postgresql+psycopg://...)") from None
    if u.get_backend_name() == "sqlite":
        if u.database in (None, "", ":memory:"):
            raise StoreError(f"--db {url!r}: the service needs a database file (sqlite:///FILE), not memory")
        Path(u.database).parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(u, connect_args={"check_same_thread": False, "timeout": 10})
        sa.event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    if u.get_backend_name() != "postgresql":
        raise StoreError(f"--db {url!r}: the service runs on sqlite or postgresql, not {u.get_backend_name()}")
    try:
        return sa.create_engine(u, pool_pre_ping=True)
    except (sa.exc.ArgumentError, ImportError) as exc:
        raise StoreError(f"--db {url!r}: {exc}") from None


def migrate(engine: Engine) -> None:
    """``alembic upgrade head`` on ``engine`` with the package's migrations."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


class Store:
    """Every read and write of the service (module docstring).  ``Store.open(url)`` migrates."""

    def __init__(self, engine: Engine, url: str) -> None:
        self.engine, self.url = engine, url
        #: on SQLite, the connections kept per thread for the hot path (:meth:`_kept`)
        self._conns: dict[threading.Thread, Connection] = {}
        self._conns_lock = threading.Lock()

    @classmethod
    def open(cls, url: str = DEFAULT_URL, now: float = 0.0) -> Store:
        engine = make_engine(url)
        try:
            migrate(engine)
        except sa.exc.OperationalError as exc:
            engine.dispose()
            raise StoreError(
                f"--db {url}: cannot open the database ({str(exc.orig).strip().splitlines()[0]})"
            ) from None
        store = cls(engine, url)
        with engine.begin() as conn:
            if conn.execute(sa.select(accounts.c.id).where(accounts.c.id == HOUSE)).first() is None:
                conn.execute(
                    accounts.insert().values(
                        id=HOUSE, kind="house", token_hash=None, bank=0, created=now, recovered=now
                    )
                )
        return store

    def close(self) -> None:
        with self._conns_lock:
            for c in self._conns.values():
                with contextlib.suppress(Exception):
                    c.close()
            self._conns.clear()
        self.engine.dispose()

    @contextlib.contextmanager
    def _kept(self) -> Iterator[Connection]:
        """A connection for the hot path (a command's reads on the event loop, the group
        commit's transactions on its writer thread).  On SQLite, the calling thread's own, kept
        open: a pool checkout and its reset on return cost more CPU than a command's two reads
        (``docs/design/service-scaling.md``).  Outside a transaction its statements see every
        commit made before them, as a fresh connection's would (the driver begins a transaction
        only before a write, and the caller's ``conn.begin()`` ends its own).  A driver error
        other than a constraint's (a bank refusal) closes it, and the next call opens another;
        the connections of threads that have ended are closed when a thread opens one.
        Elsewhere (PostgreSQL: the reads run in worker threads) a pooled connection per call."""
        if self.engine.dialect.name != "sqlite":
            with self.engine.connect() as pooled:
                yield pooled
            return
        me = threading.current_thread()
        kept = self._conns.get(me)
        if kept is None or kept.closed:
            with self._conns_lock:
                for t in [t for t in self._conns if not t.is_alive()]:
                    with contextlib.suppress(Exception):
                        self._conns.pop(t).close()
                kept = self._conns[me] = self.engine.connect()
        try:
            yield kept
        except sa.exc.DBAPIError as exc:
            if not isinstance(exc, sa.exc.IntegrityError):
                with self._conns_lock:
                    self._conns.pop(me, None)
                with contextlib.suppress(Exception):
                    kept.close()
            raise

    @property
    def backend(self) -> str:
        return self.engine.dialect.name

    # ------------------------------------------------------------------ accounts
    def create_account(self, now: float, name: str | None = None) -> tuple[str, str]:
        """A new person with :data:`START_BANK` cents (one ``grant`` ledger row): (id, token).
        ``name`` is its display name (:func:`check_name`; default ``Player <4 characters of the id>``)."""
        account, token = "a" + secrets.token_hex(8), secrets.token_urlsafe(24)
        name = default_name(account) if name is None else check_name(name)
        with self.engine.begin() as conn:
            conn.execute(
                accounts.insert().values(
                    id=account,
                    kind="person",
                    token_hash=token_hash(token),
                    bank=0,
                    created=now,
                    recovered=now,
                    name=name,
                )
            )
            self._move(conn, account, START_BANK, "grant", f"{account}:grant", None, now)
        return account, token

    def account_of(self, token: Any) -> str | None:
        """The person whose token this is, or None (an unknown or ill-typed token)."""
        if not isinstance(token, str) or not 8 <= len(token) <= 200:
            return None
        with self.engine.connect() as conn:
            row = SQL_TOKEN.one(conn, hash=token_hash(token))
        return None if row is None else str(row[0])

    def names(self, ids: Sequence[str]) -> dict[str, str]:
        """The display name of each of ``ids`` that is an account (older accounts: the default)."""
        ids = sorted(set(ids))
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(ids)))
            return {str(r.id): str(r.name) if r.name else default_name(str(r.id)) for r in rows}

    def bank(self, account: str) -> int:
        with self.engine.connect() as conn:
            row = SQL_BANK.one(conn, account=account)
        if row is None:
            raise StoreError(f"no account {account!r}")
        return int(row[0])

    def recover(self, account: str, now: float) -> int:
        """Apply the recovery due at ``now`` (its own transaction); the bank after it."""
        with self.engine.begin() as conn:
            self._recover(conn, account, now)
            return int(conn.execute(sa.select(accounts.c.bank).where(accounts.c.id == account)).scalar_one())

    def bank_due(self, account: str, now: float) -> int:
        """The bank with the recovery due at ``now``, read only (a refused command writes nothing)."""
        with self.engine.connect() as conn:
            return self._bank_due(conn, account, now)

    def _bank_due(self, conn: Connection, account: str, now: float) -> int:
        row = SQL_ACCOUNT.one(conn, account=account)
        if row is None:
            raise StoreError(f"no account {account!r}")
        kind, bank, recovered = row[0], int(row[1]), float(row[2])
        if kind != "person" or bank >= RECOVERY_TARGET or now <= recovered:
            return bank
        hours = int((now - recovered) // RECOVERY_SECONDS)
        return bank + min(RECOVERY_TARGET - bank, hours * RECOVERY_STEP)

    def command_reads(self, account: str, action_id: str, now: float) -> tuple[dict[str, Any] | None, int]:
        """What the host reads before a command, on one connection: the stored answer to
        (``account``, ``action_id``) or None (:meth:`answer`), and :meth:`bank_due`."""
        with self._kept() as conn:
            r = SQL_ANSWER.one(conn, account=account, action=action_id)
            return (None if r is None else json.loads(r[0])), self._bank_due(conn, account, now)

    def _recover(self, conn: Connection, account: str, now: float) -> None:
        row = SQL_ACCOUNT.one(conn, account=account)
        if row is None or row[0] != "person":
            return
        bank, since = int(row[1]), float(row[2])
        if bank >= RECOVERY_TARGET or now <= since:
            if bank >= RECOVERY_TARGET and now > since:
                SQL_RECOVERED.run(conn, account=account, recovered_=now).close()
            return
        hours = int((now - since) // RECOVERY_SECONDS)
        due = min(RECOVERY_TARGET - bank, hours * RECOVERY_STEP)
        if due <= 0:
            return
        mark = since + hours * RECOVERY_SECONDS
        self._move(conn, account, due, "recovery", f"{account}:recovery:{mark!r}", None, now)
        new_since = now if bank + due >= RECOVERY_TARGET else mark
        SQL_RECOVERED.run(conn, account=account, recovered_=new_since).close()

    def _move(
        self, conn: Connection, account: str, delta: int, kind: str, ref: str, room: str | None, now: float
    ) -> int:
        SQL_LEDGER.run(conn, account_id=account, delta=int(delta), kind=kind, ref=ref, room_id=room, at=now).close()
        res = SQL_MOVE.one(conn, account=account, delta=int(delta))
        if res is None:
            raise StoreError(f"a movement for an unknown account {account!r}")
        return int(res[0])

    def ledger_sum(self, account: str) -> int:
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    sa.select(sa.func.coalesce(sa.func.sum(ledger.c.delta), 0)).where(ledger.c.account_id == account)
                ).scalar_one()
            )

    def ledger_rows(self, account: str | None = None) -> list[dict[str, Any]]:
        q = sa.select(ledger).order_by(ledger.c.id)
        if account is not None:
            q = q.where(ledger.c.account_id == account)
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(q)]

    def check_banks(self) -> list[str]:
        """The accounts whose cached bank differs from their ledger's sum (empty: all agree)."""
        sums = (
            sa.select(ledger.c.account_id, sa.func.sum(ledger.c.delta).label("s"))
            .group_by(ledger.c.account_id)
            .subquery()
        )
        q = sa.select(accounts.c.id, accounts.c.bank, sums.c.s).outerjoin(sums, sums.c.account_id == accounts.c.id)
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(q) if int(r.bank) != int(r.s or 0)]

    def receipts_of(self, account: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(receipts.c.receipt_id, receipts.c.body)
                .where(receipts.c.account_id == account)
                .order_by(receipts.c.id)
            )
            return [{"id": r.receipt_id, **json.loads(r.body)} for r in rows]

    # ------------------------------------------------------------------ rooms
    def create_room(
        self, room_id: str, kind: str, params: dict[str, Any], rules: str, owner: str | None, now: float
    ) -> RoomRow:
        with self.engine.begin() as conn:
            conn.execute(
                rooms.insert().values(
                    id=room_id, kind=kind, params=dumps(params), rules=rules, owner=owner, created=now, turn=0, seq=0
                )
            )
        return RoomRow(room_id, kind, json.loads(dumps(params)), rules, owner, now, None, 0, 0)

    def room(self, room_id: str) -> RoomRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(sa.select(rooms).where(rooms.c.id == room_id)).first()
        return None if r is None else _room_row(r)

    def open_rooms(self) -> list[RoomRow]:
        with self.engine.connect() as conn:
            return [_room_row(r) for r in conn.execute(sa.select(rooms).where(rooms.c.closed.is_(None)))]

    def journal(self, room_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(journal.c.seq, journal.c.entry).where(journal.c.room_id == room_id).order_by(journal.c.seq)
            )
            return [json.loads(r.entry) for r in rows]

    def events_after(self, room_id: str, seq: int) -> list[StoredEvent]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(events).where(events.c.room_id == room_id, events.c.seq > int(seq)).order_by(events.c.seq)
            )
            return [StoredEvent(r.seq, r.turn, r.audience, json.loads(r.payload)) for r in rows]

    def answer(self, account: str, action_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            r = SQL_ANSWER.one(conn, account=account, action=action_id)
        return None if r is None else json.loads(r[0])

    def counts(self, room_id: str) -> dict[str, int]:
        """Rows of the room's journal and events, and every ledger row, receipt and answer: what a
        refused frame must leave unchanged (tests)."""
        with self.engine.connect() as conn:

            def n(table: sa.Table, *where: Any) -> int:
                return int(conn.execute(sa.select(sa.func.count()).select_from(table).where(*where)).scalar_one())

            return {
                "journal": n(journal, journal.c.room_id == room_id),
                "events": n(events, events.c.room_id == room_id),
                "ledger": n(ledger),
                "receipts": n(receipts),
                "answers": n(answers),
                "hands": n(hands),
            }

    # ------------------------------------------------------------------ the commit
    def commit(self, *args: Any, **kwargs: Any) -> Committed:
        """:meth:`commit_on` (its arguments after ``conn``) in a transaction of its own."""
        with self.engine.begin() as conn:
            return self.commit_on(conn, *args, **kwargs)

    def commit_many(self, jobs: Sequence[Callable[[Connection], Committed]]) -> list[Committed | Exception]:
        """Group commit: run ``jobs`` (each ``lambda conn: store.commit_on(conn, ...)`` of one
        room) in one transaction, one write to disk for all of them.  If any job fails the
        transaction rolls back whole and each job runs again in its own transaction, so a
        failure (a bank refusal, a replayed id) is that job's alone: each result is the job's
        :class:`Committed` or the exception it raised.  A room's commits never share a batch
        (the host holds the room's lock until its commit returns), so the order within a room
        is the order of its commands."""
        if len(jobs) > 1:
            try:
                with self._kept() as conn, conn.begin():
                    done: list[Committed | Exception] = [job(conn) for job in jobs]
                return done
            except Exception:  # each job again, alone, below
                pass
        out: list[Committed | Exception] = []
        for job in jobs:
            try:
                with self._kept() as conn, conn.begin():
                    out.append(job(conn))
            except Exception as exc:  # handed back to the job's caller
                out.append(exc)
        return out

    def commit_on(
        self,
        conn: Connection,
        room_id: str,
        outcome: Outcome,
        audiences: Sequence[str],
        now: float,
        account: str | None = None,
        action_id: str | None = None,
        answer: Callable[[Committed], dict[str, Any]] | None = None,
        close: bool = False,
    ) -> Committed:
        """Write one accepted command (or tick) on ``conn``, inside the caller's transaction
        (module docstring; :meth:`commit` gives it its own, :meth:`commit_many` shares one).

        ``audiences`` are the outcome's event audiences as resolved by the host (same length as
        ``outcome.events``).  Receipts of ``account``'s own movements are keyed by
        ``action_id``; the others by ``<room>:<seq>:<k>``.  ``answer(committed)`` builds the
        answer stored under (account, action id).  A person's bank that would fall below 0
        refuses the whole transaction (:class:`StoreError`)."""
        room = SQL_ROOM_LOCK.one(conn, room=room_id)
        if room is None:
            raise StoreError(f"no room {room_id!r}")
        turn, seq = int(room[0]), int(room[1])
        entries = []
        for entry in outcome.journal:
            turn += 1
            entries.append({"room_id": room_id, "seq": turn, "entry": dumps(entry), "at": now})
        if entries:
            SQL_JOURNAL.many(conn, entries)
        out = Committed(turn, seq)
        for acc in dict.fromkeys(m.account for m in outcome.movements):
            self._recover(conn, acc, now)
        own = 0
        for k, m in enumerate(outcome.movements):
            if not isinstance(m, Movement) or type(m.delta) is not int:
                raise StoreError(f"room {room_id}: a movement is not a Movement with an int delta: {m!r}")
            if m.account == account and action_id is not None and m.receipt is not None:
                rid = action_id if own == 0 else f"{action_id}#{own}"
                own += 1
            else:
                rid = f"{room_id}:{turn}:{k}"
            try:
                bank = self._move(conn, m.account, m.delta, m.kind, rid, room_id, now)
            except sa.exc.IntegrityError:
                raise StoreError(
                    f"room {room_id}: {m.kind} of {m.delta} would take {m.account}'s bank below 0"
                ) from None
            out.banks[m.account] = bank
            if m.receipt is not None:
                body = dumps(m.receipt)
                SQL_RECEIPT.run(conn, account_id=m.account, receipt_id=rid, room_id=room_id, body=body, at=now).close()
                out.receipts.setdefault(m.account, []).append({"id": rid, **json.loads(body)})
        rows: list[dict[str, Any]] = []  # one executemany for the command's events
        for ev, aud in zip(outcome.events, audiences, strict=True):
            if aud == "archive":
                self._archive(conn, room_id, ev, now)
                continue
            if aud == "conduct":  # the card room's reports and disputes (never sent)
                self._conduct(conn, room_id, ev.payload, now)
                continue
            seq += 1
            body = dumps(ev.payload)
            rows.append({"room_id": room_id, "seq": seq, "turn": turn, "audience": aud, "payload": body, "at": now})
            out.events.append(StoredEvent(seq, turn, aud, ev.payload, body))
        if rows:
            SQL_EVENT.many(conn, rows)
        out.seq = seq
        if account is not None and account not in out.banks:
            b = SQL_BANK.one(conn, account=account)
            if b is not None:
                out.banks[account] = int(b[0])
        if close:
            SQL_ROOM_CLOSE.run(conn, room=room_id, turn_=turn, seq_=seq, closed_=now).close()
        else:
            SQL_ROOM_SET.run(conn, room=room_id, turn_=turn, seq_=seq).close()
        if answer is not None and account is not None and action_id is not None:
            body = dumps(answer(out))
            SQL_ANSWER_ADD.run(
                conn, account_id=account, action_id=action_id, room_id=room_id, body=body, at=now
            ).close()
        return out

    def _conduct(self, conn: Connection, room_id: str, payload: dict[str, Any], now: float) -> None:
        """A card room's ``conduct`` event (inside the commit's transaction): one row per report or
        dispute, one more per strike (``poker51.service.conduct`` reads them back)."""
        kind = str(payload.get("type"))
        if kind == "report":
            who, by = payload["reported"], payload["reporter"]
        elif kind == "dispute":
            who, by = payload["account"], payload["account"]
        else:
            raise ValueError(f"room {room_id}: a conduct event of unknown type {kind!r}")
        row = {"room_id": room_id, "at": now}
        hand = str(payload.get("hand") or "")
        conn.execute(conduct.insert().values(kind=kind, account=str(who), by=str(by), hand=hand,
                                             body=dumps(payload), **row))  # fmt: skip
        strike = payload.get("strike")
        if strike:
            conn.execute(conduct.insert().values(kind="strike", account=str(strike["account"]), by="", hand="",
                                                 body=dumps(strike), **row))  # fmt: skip

    def _archive(self, conn: Connection, room_id: str, ev: Event, now: float) -> None:
        p = ev.payload
        try:
            hand_id, accs, rules, log = str(p["hand"]), dict(p["accounts"]), str(p["rules"]), p["log"]
            kind = str(p.get("kind", ""))
        except (KeyError, TypeError, ValueError) as exc:
            raise StoreError(f"room {room_id}: an archive event lacks {exc}") from None
        SQL_HAND.run(
            conn, id=hand_id, room_id=room_id, kind=kind, rules=rules, ended=now,
            log=log if isinstance(log, str) else dumps(log),
        ).close()  # fmt: skip
        players = [{"hand_id": hand_id, "account_id": str(acc), "net": int(net)} for acc, net in accs.items()]
        if players:
            SQL_HAND_PLAYER.many(conn, players)

    # ------------------------------------------------------------------ history
    def history(self, account: str, limit: int = 100) -> list[dict[str, Any]]:
        q = (
            sa.select(hands.c.id, hands.c.room_id, hands.c.kind, hands.c.rules, hands.c.ended, hand_players.c.net)
            .join(hand_players, hand_players.c.hand_id == hands.c.id)
            .where(hand_players.c.account_id == account)
            .order_by(hands.c.ended.desc(), hands.c.id.desc())
            .limit(int(limit))
        )
        with self.engine.connect() as conn:
            return [
                {"hand": r.id, "room": r.room_id, "kind": r.kind, "rules": r.rules, "net": int(r.net), "ended": r.ended}
                for r in conn.execute(q)
            ]

    def hand(self, hand_id: str) -> tuple[dict[str, Any], list[str]] | None:
        """(the hand's row with its log, its players), or None."""
        with self.engine.connect() as conn:
            r = conn.execute(sa.select(hands).where(hands.c.id == hand_id)).first()
            if r is None:
                return None
            players = [
                str(x.account_id)
                for x in conn.execute(sa.select(hand_players.c.account_id).where(hand_players.c.hand_id == hand_id))
            ]
        log = r.log
        try:
            log = json.loads(log)
        except ValueError:
            pass
        return {
            "hand": r.id,
            "room": r.room_id,
            "kind": r.kind,
            "rules": r.rules,
            "ended": r.ended,
            "log": log,
        }, players


__all__ = [
    "DEFAULT_URL", "HOUSE", "JBIT", "RECOVERY_SECONDS", "RECOVERY_STEP", "RECOVERY_TARGET", "START_BANK",
    "Committed", "RoomRow", "Store", "StoreError", "StoredEvent", "check_name", "default_name", "dumps",
    "make_engine", "metadata", "migrate", "token_hash",
]  # fmt: skip
