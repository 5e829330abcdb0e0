"""``poker51 verify``: the v0.6 verifier over the exported tables (:mod:`poker51.realcard.verify`).

Examples::

    poker51 verify --tables results/tables --receipt results/receipt.json
    poker51 verify --tables results/tables --receipt results/receipt.json --hands 1000000 --out my_verify.json

The receipt is the one the pipeline writes, ``results/receipt.json``.  The report is printed;
it is written to a file only when ``--out`` names one (the pipeline's ``results/verify.json`` is
the ``verify`` rule's, and this command never overwrites it unasked).

Exit status 0 when every check passes, 1 when one fails (the report says which), 2 on bad
input (a missing directory, a receipt that is not JSON or has no ``files`` map), 70 on a bug.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

#: the most hands per variant: the verifier counts them in 64-bit integers
MAX_HANDS = 2**63 - 1

HELP = "verify the strategy tables: hashes, Riemann's decisions over seeded hands, replays, jbits, rules"


def configure(parser: argparse.ArgumentParser) -> None:
    from poker51.realcard.verify import DEFAULT_SEED

    parser.add_argument(
        "--tables", required=True, metavar="DIR", help="directory of riemann-v06-{variant}.parquet/.json tables"
    )
    parser.add_argument("--receipt", required=True, metavar="FILE", help="the export receipt (JSON) with the SHA-256s")
    parser.add_argument(
        "--hands",
        type=int,
        default=3000,
        metavar="N",
        help="seeded hands per variant (default 3000: 9,000 for three variants)",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"base seed (default {DEFAULT_SEED})")
    parser.add_argument(
        "--abstraction",
        default=None,
        metavar="DIR",
        help="abstraction tables {DIR}/{variant}/classes.parquet and buckets.parquet "
        "(default: recomputed from the variant)",
    )
    parser.add_argument(
        "--out",
        default=None,
        metavar="FILE",
        help="also write the report (JSON) to FILE (default: print it only; an existing FILE needs --force)",
    )
    parser.add_argument("--force", action="store_true", help="let --out replace an existing file")
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="tqdm progress bar (default: when stderr is a terminal)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    from poker51.errors import InputError
    from poker51.export.schema import table_path
    from poker51.io import check_metadata, read_parquet
    from poker51.realcard.verify import verify
    from poker51.rules import VARIANT_NAMES

    if args.hands < 1:
        raise InputError(f"--hands must be at least 1, got {args.hands}")
    if args.hands > MAX_HANDS:
        raise InputError(f"--hands {args.hands}: at most 2**63 - 1 = {MAX_HANDS} per variant")
    if not Path(args.tables).is_dir():
        raise InputError(f"--tables {args.tables}: not a directory")
    if not Path(args.receipt).is_file():
        raise InputError(f"--receipt {args.receipt}: no such file")
    if args.abstraction is not None and not Path(args.abstraction).is_dir():
        raise InputError(f"--abstraction {args.abstraction}: not a directory")
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    if args.out is not None and Path(args.out).is_dir():
        raise InputError(f"--out {args.out}: is a directory; give a file name")
    if args.out is not None and Path(args.out).exists() and not args.force:
        raise InputError(f"--out {args.out}: exists; give --force to replace it")

    def of_variant(path: Path, variant: str):  # another variant's classes or buckets: bad input
        frame = read_parquet(path)
        check_metadata(path, {"variant": variant}, {"classes": "class table", "buckets": "bucket table"}[path.stem])
        return frame

    abstraction = None
    if args.abstraction is not None:  # read now: a missing or corrupt table is bad input, not a failed check
        variants = [v for v in VARIANT_NAMES if table_path(args.tables, v).is_file()]
        base = Path(args.abstraction)
        abstraction = {v: (of_variant(base / v / "classes.parquet", v), of_variant(base / v / "buckets.parquet", v))
                       for v in variants}  # fmt: skip
    # a receipt that is not JSON or has no files map: StrategyTableError (a TableError), exit 2
    report = verify(
        args.tables,
        args.receipt,
        args.hands,
        args.seed,
        abstraction=abstraction,
        out=args.out,
        progress=progress,
    )
    res = report.to_json()
    if args.json:
        print(json.dumps(res, sort_keys=True))
    else:
        for v, s in res["variants"].items():
            print(
                f"{v:<9} {s['hands']:>9,} hands {s['decisions']:>10,} decisions "
                f"({s['converted']:,} all-in conversions) {s['failures']:>4} failures"
            )
        for name, c in res["checks"].items():
            print(
                f"{name:<9} {'pass' if c['pass'] else 'FAIL'}  {c['checked']:>10,} checked {c['failures']:>6} failures"
            )
        for line in res["examples"]:
            print(f"  {line}")
        print(
            f"{'PASS' if res['pass'] else 'FAIL'}: {res['hands']:,} hands, {res['decisions']:,} decisions, "
            f"{res['failures']} failures" + (f"; report in {args.out}" if args.out else "")
        )
    return 0 if res["pass"] else 1
