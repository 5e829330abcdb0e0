"""Helpers of the service's tests (not tests): the throwaway PostgreSQL tool, a fresh database,
a service on a URL, sending frames and reading until an answer."""

from __future__ import annotations

import importlib.util
import json
import secrets
import warnings
from pathlib import Path
from types import SimpleNamespace

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[2]
BACKENDS = ("sqlite", "postgresql")


def pg_tool():
    spec = importlib.util.spec_from_file_location("pg_throwaway", ROOT / "tools" / "pg_throwaway.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def fresh_pg_database(server_url: str) -> str:
    name = "t_" + secrets.token_hex(6)
    engine = sa.create_engine(server_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(sa.text(f"CREATE DATABASE {name}"))
    engine.dispose()
    return server_url.replace("/postgres?", f"/{name}?")


def v05_belief(variant: str):
    """A v0.2-shaped belief table (6 rows of 1,000 ascending strengths) for the v0.5 policy: the
    tests check that a v0.5 hand replays exactly, not the table's numbers."""
    import numpy as np

    rng = np.random.default_rng(5)
    return np.sort(rng.integers(0, 9 << 20, (6, 1000)), axis=1).astype(np.int64)


class Service:
    """A host, its app and a test client on ``url``, with a clock the test moves."""

    def __init__(self, url: str, riemann, start: float = 1_000_000.0) -> None:
        with warnings.catch_warnings():  # Starlette's note on httpx, not ours
            warnings.simplefilter("ignore", DeprecationWarning)
            from starlette.testclient import TestClient

        from poker51.service.app import Host, ManualClock, create_app
        from poker51.service.rooms import Context
        from poker51.service.store import Store

        self.url, self.riemann = url, riemann
        self.clock = ManualClock(start)
        self.store = Store.open(url, now=start)
        self.host = Host(self.store, Context(riemann={"standard": riemann}, belief=v05_belief), self.clock)
        self.app = create_app(self.host, clock_period=None)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            self.client = TestClient(self.app)
        self.client.__enter__()

    def restart(self) -> Service:
        """A new host and app on the same database (the old one closed), the clock kept."""
        self.close()
        new = Service(self.url, self.riemann, self.clock.t)
        return new

    def close(self) -> None:
        self.client.__exit__(None, None, None)
        self.store.close()

    def account(self) -> SimpleNamespace:
        r = self.client.post("/api/accounts")
        assert r.status_code == 201, r.text
        a = r.json()
        return SimpleNamespace(id=a["account"], token=a["token"], headers={"Authorization": f"Bearer {a['token']}"})

    def room(self, acc, **params) -> str:
        r = self.client.post("/api/rooms", json={"kind": "headsup", **params}, headers=acc.headers)
        assert r.status_code == 201, r.text
        return r.json()["room"]


def send(ws, frame) -> None:
    ws.send_text(frame if isinstance(frame, str) else json.dumps(frame))


def until_answer(ws) -> tuple[list[dict], dict]:
    """(the events, the ack/answer/error/view/welcome that ends them)."""
    events = []
    while True:
        f = ws.receive_json()
        if f["type"] == "event":
            events.append(f)
            continue
        return events, f
