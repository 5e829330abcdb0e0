"""The store on SQLite and PostgreSQL: the migrations build the schema the code declares, banks
are the ledger's sum, tokens are kept only as hashes, the recovery rule, a commit is all or
nothing, receipts are unique per account."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from poker51.service.room import Event, Movement, Outcome
from poker51.service.store import (
    HOUSE,
    RECOVERY_SECONDS,
    START_BANK,
    Store,
    StoreError,
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
    store.commit("room1", Outcome([{"x": 1}], [Movement(acc, -8, "buyin", {"kind": "buyin"})], []), [], 10.0, acc, "b1")
    assert store.bank(acc) == 0
    # 1 jbit per hour of the clock from the moment the bank fell, up to 8
    assert store.bank_due(acc, 10.0 + RECOVERY_SECONDS - 1) == 0
    assert store.bank_due(acc, 10.0 + 3 * RECOVERY_SECONDS) == 3
    assert store.recover(acc, 10.0 + 3.5 * RECOVERY_SECONDS) == 3
    assert store.recover(acc, 10.0 + 100 * RECOVERY_SECONDS) == 8
    assert store.bank(acc) == store.ledger_sum(acc) == 8 and store.check_banks() == []
    kinds = [r["kind"] for r in store.ledger_rows(acc)]
    assert kinds == ["grant", "buyin", "recovery", "recovery"]
    store.close()


def test_commit_is_all_or_nothing(db_url):
    store = Store.open(db_url, now=0.0)
    acc, _ = store.create_account(0.0)
    store.create_room("room1", "headsup", {}, "v0.6", acc, 0.0)
    before = store.counts("room1")
    bad = Outcome(
        [{"step": 1}],
        [Movement(HOUSE, -64, "house_stake"), Movement(acc, -9, "buyin", {"kind": "buyin"})],
        [Event("all", {"type": "x"})],
    )
    with pytest.raises(StoreError, match="below 0"):
        store.commit("room1", bad, ["all"], 1.0, acc, "c1", answer=lambda c: {"ok": 1})
    assert store.counts("room1") == before and store.bank(acc) == 8 and store.bank(HOUSE) == 0
    good = Outcome([{"step": 1}], [Movement(acc, -8, "buyin", {"kind": "buyin"})], [Event("all", {"type": "x"})])
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


@pytest.mark.parametrize("url", ["sqlite://", "mysql://x@y/z", "not a url", "sqlite:///:memory:"])
def test_bad_urls(url):
    with pytest.raises(StoreError, match="--db"):
        Store.open(url)
