"""Alembic's environment: the connection comes from :func:`poker51.service.store.migrate`
(``config.attributes["connection"]``), so migrations run inside the store's own transaction.

Importing this module outside Alembic (pytest's doctest collection does) does nothing.
"""

from __future__ import annotations

from alembic import context


def run() -> None:
    config = context.config
    conn = config.attributes.get("connection")
    if conn is None:
        raise RuntimeError("the service's migrations run through poker51.service.store.migrate (a connection)")
    context.configure(connection=conn, render_as_batch=conn.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):
    run()
