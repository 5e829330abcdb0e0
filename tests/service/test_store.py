"""The store on SQLite and PostgreSQL: the migrations build the schema the code declares, banks
are the ledger's sum, tokens are kept only as hashes, the recovery rule, a commit is all or
nothing, receipts are unique per account."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import sqlalchemy as sa

from poker51.service import migrations
from poker51.service.room import Event, Movement, Outcome
from poker51.service.store import (
    HOUSE,
    RECOVERY_SECONDS,
    START_BANK,
    Store,
    StoreError,
    check_name,
    make_engine,
    metadata,
)


def test_migrations_build_the_declared_schema(db_url):
    store = Store.open(db_url)
    insp = sa.inspect(store.engine)
    tables = set(insp.get_table_names()) - {"alembic_version"}
    assert tables == set(metadata.tables)
    for name, table in metadata.tables.items():
        cols = {c["name"] for c in insp.get_columns(name)}
        assert cols == {c.name for c in table.columns}, name
    store.close()
    Store.open(db_url).close()  # a second open finds the schema at head


def test_accounts_banks_and_recovery(db_url):
    store = Store.open(db_url, now=0.0)
    acc, token = store.create_account(0.0)
    assert store.account_of(token) == acc and store.account_of(token + "x") is None
    with store.engine.connect() as conn:  # the token itself is nowhere in the database
        rows = [str(tuple(r)) for t in metadata.sorted_tables for r in conn.execute(sa.select(t))]
    assert not any(token in r for r in rows)
    assert store.bank(acc) == store.ledger_sum(acc) == START_BANK
    store.create_room("room1", "headsup", {}, "v0.6", acc, 0.0)
    assert START_BANK == 800  # cents: 8 jbits
    buyin = Outcome([{"x": 1}], [Movement(acc, -800, "buyin", {"kind": "buyin"})], [])
    store.commit("room1", buyin, [], 10.0, acc, "b1")
    assert store.bank(acc) == 0
    # 1 jbit (100 cents) per hour of the clock from the moment the bank fell, up to 8 jbits
    assert store.bank_due(acc, 10.0 + RECOVERY_SECONDS - 1) == 0
    assert store.bank_due(acc, 10.0 + 3 * RECOVERY_SECONDS) == 300
    assert store.recover(acc, 10.0 + 3.5 * RECOVERY_SECONDS) == 300
    assert store.recover(acc, 10.0 + 100 * RECOVERY_SECONDS) == 800
    assert store.bank(acc) == store.ledger_sum(acc) == 800 and store.check_banks() == []
    kinds = [r["kind"] for r in store.ledger_rows(acc)]
    assert kinds == ["grant", "buyin", "recovery", "recovery"]
    # a bank of 7.5 jbits recovers to 8, never above: 50 cents after an hour
    t = 10.0 + 100 * RECOVERY_SECONDS
    store.commit("room1", Outcome([{"x": 2}], [Movement(acc, -50, "buyin", {"kind": "buyin"})], []), [], t, acc, "b2")
    assert store.bank_due(acc, t + RECOVERY_SECONDS - 1) == 750
    assert store.recover(acc, t + 5 * RECOVERY_SECONDS) == 800
    assert [r["delta"] for r in store.ledger_rows(acc)][-2:] == [-50, 50]
    store.close()


def test_display_names(db_url):
    store = Store.open(db_url, now=0.0)
    a, _ = store.create_account(0.0, "Ada L.")
    b, _ = store.create_account(0.0)
    assert store.names([a, b, "nobody"]) == {a: "Ada L.", b: f"Player {b[1:5]}"}
    for bad in ("", " Ada", "Ada ", "x" * 25, "Riemann 1", "riemann", "<b>", 7, None):
        with pytest.raises(StoreError, match="name"):
            store.create_account(0.0, bad) if bad is not None else check_name(bad)
    store.close()


def test_migration_0002_turns_jbits_into_cents(tmp_path):
    """A database written at revision 0001 (banks in jbits) is upgraded: banks, ledger deltas and
    hand nets times 100, receipts and stored answers unchanged, the banks still the ledger's sums."""
    from alembic import command
    from alembic.config import Config

    url = f"sqlite:///{tmp_path}/old.db"
    engine = make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(migrations.__file__).parent))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        conn.execute(sa.text("INSERT INTO accounts VALUES ('a1', 'person', 'h', 5, 0, 0)"))
        conn.execute(sa.text("INSERT INTO accounts VALUES ('house', 'house', NULL, -3, 0, 0)"))
        row = "INSERT INTO ledger (account_id, delta, kind, ref, at) VALUES "
        conn.execute(sa.text(row + "('a1', 8, 'grant', 'g', 0)"))
        conn.execute(sa.text(row + "('a1', -3, 'buyin', 'b', 1)"))
        conn.execute(sa.text(row + "('house', -3, 'x', 'h', 1)"))
        conn.execute(sa.text("INSERT INTO rooms VALUES ('r1', 'headsup', '{}', 'v0.6', 'a1', 0, NULL, 1, 1)"))
        conn.execute(sa.text("INSERT INTO hands VALUES ('r1-0', 'r1', 'headsup', 'v0.6', 1, '{}')"))
        conn.execute(sa.text("INSERT INTO hand_players VALUES ('r1-0', 'a1', -3)"))
        conn.execute(sa.text("INSERT INTO answers VALUES ('a1', 'c1', 'r1', :b, 1)"), {"b": '{"bank":5}'})
    engine.dispose()
    store = Store.open(url)
    assert store.bank("a1") == store.ledger_sum("a1") == 500 and store.bank("house") == -300
    assert store.check_banks() == []
    assert [r["delta"] for r in store.ledger_rows("a1")] == [800, -300]
    assert store.history("a1")[0]["net"] == -300
    assert store.answer("a1", "c1") == {"bank": 5}
    assert store.names(["a1"]) == {"a1": "Player 1"}  # made before names: the default
    store.close()


def test_migration_0003_adds_the_conduct_table_after_0002_and_downgrades(tmp_path):
    """0003 (the card room's conduct) follows 0002 on one line of history: a database at 0002 keeps
    its rows, gains an empty ``conduct`` table, and loses it again on a downgrade to 0002."""
    from alembic import command
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(migrations.__file__).parent))
    script = ScriptDirectory.from_config(cfg)
    assert script.get_heads() == ["0003"] and script.get_revision("0003").down_revision == "0002"
    url = f"sqlite:///{tmp_path}/at2.db"
    engine = make_engine(url)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
        conn.execute(sa.text("INSERT INTO accounts VALUES ('a1', 'person', 'h', 800, 0, 0, 'Ann')"))
        conn.execute(
            sa.text("INSERT INTO ledger (account_id, delta, kind, ref, at) VALUES ('a1', 800, 'grant', 'g', 0)")
        )
    engine.dispose()
    store = Store.open(url)
    assert store.bank("a1") == 800 and store.check_banks() == [] and store.names(["a1"]) == {"a1": "Ann"}
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM conduct")).scalar() == 0
    store.close()
    engine = make_engine(url)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0002")
    assert "conduct" not in sa.inspect(engine).get_table_names()
    engine.dispose()


def test_commit_is_all_or_nothing(db_url):
    store = Store.open(db_url, now=0.0)
    acc, _ = store.create_account(0.0)
    store.create_room("room1", "headsup", {}, "v0.6", acc, 0.0)
    before = store.counts("room1")
    bad = Outcome(
        [{"step": 1}],
        [Movement(HOUSE, -6400, "house_stake"), Movement(acc, -801, "buyin", {"kind": "buyin"})],
        [Event("all", {"type": "x"})],
    )
    with pytest.raises(StoreError, match="below 0"):
        store.commit("room1", bad, ["all"], 1.0, acc, "c1", answer=lambda c: {"ok": 1})
    assert store.counts("room1") == before and store.bank(acc) == 800 and store.bank(HOUSE) == 0
    good = Outcome([{"step": 1}], [Movement(acc, -800, "buyin", {"kind": "buyin"})], [Event("all", {"type": "x"})])
    c = store.commit("room1", good, ["all"], 1.0, acc, "c1", answer=lambda c: {"ok": c.turn})
    assert (c.turn, c.seq, c.banks[acc]) == (1, 1, 0)
    assert store.answer(acc, "c1") == {"ok": 1}
    assert [e.payload for e in store.events_after("room1", 0)] == [{"type": "x"}]
    # the same receipt id twice for one account: refused by the UNIQUE key, nothing written
    again = Outcome([{"step": 2}], [Movement(acc, 0, "buyin", {"kind": "buyin"})], [])
    with pytest.raises(sa.exc.IntegrityError):
        store.commit("room1", again, [], 2.0, acc, "c1")
    assert store.counts("room1")["journal"] == 1 and len(store.receipts_of(acc)) == 1
    store.close()


def test_group_commit_fails_a_job_alone(db_url):
    """commit_many: three rooms' commits in one transaction; the one that would take a bank
    below 0 fails alone (the batch rolled back and each run again), the others are written."""
    store = Store.open(db_url, now=0.0)
    accs = [store.create_account(0.0)[0] for _ in range(3)]
    for k, acc in enumerate(accs):
        store.create_room(f"room{k}", "headsup", {}, "v0.6", acc, 0.0)

    def job(k: int, cents: int):
        out = Outcome([{"k": k}], [Movement(accs[k], -cents, "buyin", {"kind": "buyin"})], [Event("all", {"k": k})])
        return lambda conn: store.commit_on(conn, f"room{k}", out, ["all"], 1.0, accs[k], f"c{k}")

    done = store.commit_many([job(0, 300), job(1, 801), job(2, 500)])
    assert [type(d).__name__ for d in done] == ["Committed", "StoreError", "Committed"]
    assert [store.bank(a) for a in accs] == [500, 800, 300] and store.check_banks() == []
    assert [store.counts(f"room{k}")["journal"] for k in range(3)] == [1, 0, 1]
    done = store.commit_many([job(1, 800)])  # the refused one, once its bank allows it
    assert done[0].turn == 1 and store.bank(accs[1]) == 0
    store.close()


def test_group_committer_writes_many_rooms_per_transaction(db_url):
    """Forty rooms commit at once through the host's writer thread: every commit written and
    answered, in fewer transactions than commits, each room's turn in order."""
    import asyncio

    from poker51.service.groupcommit import GroupCommitter

    store = Store.open(db_url, now=0.0)
    acc = store.create_account(0.0)[0]
    for k in range(40):
        store.create_room(f"room{k}", "headsup", {}, "v0.6", acc, 0.0)
    gc = GroupCommitter(store)

    async def room(k: int) -> list[int]:
        turns = []
        for step in range(5):
            out = Outcome([{"k": k, "step": step}], [], [Event("all", {"step": step})])
            c = await gc.commit(lambda conn, out=out: store.commit_on(conn, f"room{k}", out, ["all"], 1.0))
            turns.append(c.turn)
        return turns

    async def main():
        return await asyncio.gather(*(room(k) for k in range(40)))

    assert asyncio.run(main()) == [[1, 2, 3, 4, 5]] * 40
    transactions, commits = gc.written
    assert commits == 200 and transactions < commits
    assert all(store.counts(f"room{k}")["events"] == 5 for k in range(40))
    store.close()


def test_command_reads_see_every_commit_made_before_them(db_url):
    """The host's reads before a command (on SQLite one connection kept open per thread) see the
    bank and the stored answer of a commit made on another connection, every time."""
    store = Store.open(db_url, now=0.0)
    acc = store.create_account(0.0)[0]
    store.create_room("r", "headsup", {}, "v0.6", acc, 0.0)
    assert store.command_reads(acc, "a1", 1.0) == (None, START_BANK)
    for k in range(1, 4):
        out = Outcome([{"k": k}], [Movement(acc, -100, "ante", None)], [])
        store.commit("r", out, [], 1.0, acc, f"a{k}", answer=lambda c, k=k: {"k": k, "bank": c.banks[acc]})
        assert store.command_reads(acc, f"a{k}", 1.0) == ({"k": k, "bank": START_BANK - 100 * k}, START_BANK - 100 * k)
    sqlite = store.backend == "sqlite"
    assert len(store._conns) == (1 if sqlite else 0)  # one kept, reused
    with pytest.raises(StoreError, match="no account"):
        store.command_reads("nobody", "a1", 1.0)
    # a thread's own: another thread's reads open a second, and once that thread has ended,
    # the next thread to open one closes it
    for _ in range(3):
        t = threading.Thread(target=store.command_reads, args=(acc, "a3", 1.0))
        t.start()
        t.join()
    assert len(store._conns) == (2 if sqlite else 0)
    store.close()
    assert store._conns == {}


@pytest.mark.parametrize("url", ["sqlite://", "mysql://x@y/z", "not a url", "sqlite:///:memory:"])
def test_bad_urls(url):
    with pytest.raises(StoreError, match="--db"):
        Store.open(url)
