"""``poker51 serve``: the table service, the heads-up table and the five-seat tables in a browser.

Examples::

    poker51 serve --tables results/tables
    poker51 serve --tables results/smoke/tables --db sqlite:///results/service.db --port 8051
    poker51 serve --db 'postgresql+psycopg://poker51@/poker51?host=/tmp/pg' --tables results/tables

It listens on a loopback address only (``127.0.0.1`` by default) unless ``--public`` is given:
the service is a research table, not a secure casino (``docs/service.md``).  Riemann v0.6 is
loaded with ``Riemann.load`` from ``{tables}/riemann-v06-{variant}.parquet`` for every variant
whose table is there (the standard one must be); a missing, corrupted or foreign table is
refused with its path.  The abstraction tables (``--abstraction``) default to
``{tables}/../{variant}/classes.parquet`` and ``buckets.parquet`` when present (a pipeline run's
layout), else they are recomputed (a few seconds).  The v0.2 belief table that the v0.5 policy
and the tables' Riemann read is ``{tables}/../standard/belief.parquet`` when present, else it is
rebuilt from seed 51 on first use.
"""

from __future__ import annotations

import argparse
import ipaddress
from pathlib import Path

HELP = "serve the heads-up and five-seat tables in a browser (loopback only unless --public)"
LOOPBACK_NAMES = ("localhost",)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", default="results/tables", metavar="DIR", help="Riemann's exported tables")
    parser.add_argument("--db", default=None, metavar="URL", help="database URL (default sqlite:///results/service.db)")
    parser.add_argument("--host", default="127.0.0.1", help="listen address (default 127.0.0.1; loopback only)")
    parser.add_argument("--port", type=int, default=8051, help="listen port (default 8051)")
    parser.add_argument("--public", action="store_true", help="allow a host that is not a loopback address")
    parser.add_argument(
        "--abstraction", default=None, metavar="DIR", help="{DIR}/{variant}/classes.parquet and buckets.parquet"
    )
    parser.add_argument("--receipt", default=None, metavar="FILE", help="check each table's SHA-256 against it")


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address or ``localhost``.

    >>> [is_loopback(h) for h in ("127.0.0.1", "::1", "localhost", "0.0.0.0", "example.org")]
    [True, True, True, False, False]
    """
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_args(args: argparse.Namespace) -> None:
    from poker51.errors import InputError

    if not is_loopback(args.host) and not args.public:
        raise InputError(
            f"--host {args.host}: not a loopback address; the service listens beyond it only with --public"
        )
    if not 1 <= args.port <= 65535:
        raise InputError(f"--port {args.port}: a port is 1..65535")
    if not Path(args.tables).is_dir():
        raise InputError(f"--tables {args.tables}: not a directory (build the tables: make smoke, or make run)")


def load_riemann(tables: str, abstraction: str | None, receipt: str | None) -> dict:
    """Riemann v0.6 per variant whose table is in ``tables`` (standard required)."""
    import hashlib

    from poker51.errors import InputError
    from poker51.export.schema import table_path
    from poker51.io import TableError
    from poker51.policies.riemann import Riemann
    from poker51.rules import VARIANT_RULES

    out = {}
    for variant in VARIANT_RULES:
        path = table_path(tables, variant)
        if variant != "standard" and not Path(path).exists():
            continue
        base = Path(abstraction) if abstraction is not None else Path(tables).parent
        classes, buckets = base / variant / "classes.parquet", base / variant / "buckets.parquet"
        try:
            out[variant] = Riemann.load(
                path,
                receipt=receipt,
                classes=classes if classes.is_file() else None,
                buckets=buckets if buckets.is_file() else None,
                variant=variant,
            )
        except TableError as exc:
            raise InputError(str(exc)) from None
        if out[variant].sha256 is None:  # the hands record the table they were dealt with
            out[variant].sha256 = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    return out


def belief_loader(tables: str):
    """The v0.2 belief table per variant: the pipeline's file when present, else (standard) rebuilt."""
    import functools

    @functools.cache
    def belief(variant: str):
        from poker51.multi.belief import read_belief, standard_belief

        path = Path(tables).parent / variant / "belief.parquet"
        if path.is_file():
            return read_belief(path)
        return standard_belief() if variant == "standard" else None

    return belief


def build(args: argparse.Namespace):
    """(host, app) of the arguments: the store opened (migrated), Riemann loaded, rooms rebuilt."""
    from poker51.service.app import Host, create_app
    from poker51.service.rooms import Context
    from poker51.service.store import DEFAULT_URL, Store

    check_args(args)
    riemann = load_riemann(args.tables, args.abstraction, args.receipt)
    store = Store.open(args.db or DEFAULT_URL)
    host = Host(store, Context(riemann=riemann, belief=belief_loader(args.tables), tables_dir=Path(args.tables)))
    return host, create_app(host)


#: the collector's thresholds while serving (``gc.set_threshold``): the young generations as
#: CPython's defaults, a full collection ten times rarer
FULL_GC_THRESHOLDS = (700, 10, 100)


def run(args: argparse.Namespace) -> int:
    import gc

    import uvicorn

    from poker51.service.protocol import MAX_FRAME

    host, app = build(args)
    # what is loaded by now (Riemann's tables, the engines, the app) lives as long as the process:
    # out of the collector's generations, so that a full collection under load walks only the
    # rooms' objects (docs/design/service-scaling.md, "Garbage collection and idle rooms")
    gc.collect()
    gc.freeze()
    # a full collection walks every live room and socket (50-120 ms on a slow hour): at most one
    # per 100 middle-generation collections, not the default 10 (the same document, "Steady
    # players, rarer full collections, kept connections")
    gc.set_threshold(*FULL_GC_THRESHOLDS)
    print(f"poker51 serve: http://{args.host}:{args.port}/ (database {host.store.url}; Ctrl-C stops)", flush=True)
    # no per-message deflate: frames are small, and zlib on every frame to every watcher was a
    # measured share of the host's one core under load (docs/design/service-scaling.md)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        ws_max_size=4 * MAX_FRAME,
        ws_per_message_deflate=False,
        log_level="warning",
    )
    host.store.close()
    return 0
