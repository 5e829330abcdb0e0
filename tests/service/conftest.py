"""Fixtures of the service's tests: Riemann from the briefly solved standard table, the
databases (SQLite always; PostgreSQL from the project's throwaway server, ``tools/pg_throwaway.py``,
started once per session), and a service (host, app, test client, moving clock) on either.
Helpers are in ``service_helpers`` (importable from this folder)."""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from helpers import exported_standard
from service_helpers import BACKENDS, Service, fresh_pg_database, pg_tool


@pytest.fixture(scope="session")
def riemann():
    from poker51.policies.riemann import Riemann

    ex = exported_standard()
    return Riemann.load(ex.parquet, classes=ex.classes, buckets=ex.buckets)


@pytest.fixture(scope="session")
def pg_server():
    """The PostgreSQL server URL: ``POKER51_PG_URL`` if set, else a throwaway server for the session."""
    given = os.environ.get("POKER51_PG_URL")
    if given:
        yield given
        return
    server = pg_tool().ThrowawayPostgres()
    try:
        url = server.start()
    except RuntimeError as exc:
        warnings.warn(f"THE POSTGRESQL STORAGE TESTS ARE SKIPPED: {exc}", stacklevel=1)
        pytest.skip(
            f"PostgreSQL: the throwaway server cannot start ({exc}); install it: tools/pg_throwaway.py --install"
        )
    try:
        yield url
    finally:
        server.stop()


@pytest.fixture(params=BACKENDS)
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/service.db"
    return fresh_pg_database(request.getfixturevalue("pg_server"))


@pytest.fixture
def service(db_url, riemann):
    svc = Service(db_url, riemann)
    yield svc
    svc.close()


@pytest.fixture
def sqlite_service(tmp_path, riemann):
    svc = Service(f"sqlite:///{tmp_path}/service.db", riemann)
    yield svc
    svc.close()
