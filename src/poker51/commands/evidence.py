"""``poker51 evidence``: Riemann v0.6 against v0.5 on fresh real-card deals, per player type.

Examples::

    poker51 evidence --variant standard --tables results/tables --hands 10000
    poker51 evidence --variant wild --tables results/tables --abstraction results --receipt results/receipt.json
    poker51 evidence --v06 check-call --hands 200 --json     # no tables needed

``--tables`` and ``--abstraction`` mean what they mean for ``poker51 play`` and ``poker51 verify``:
the folder of the exported ``riemann-v06-{variant}.parquet`` tables, and the folder of the
abstraction tables (``DIR/{variant}/*.parquet`` or ``DIR/*.parquet``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

from poker51.commands import check_new_file
from poker51.errors import InputError

#: the most deals per type: the per-hand table holds a row per hand, type and policy
MAX_HANDS = 2**31 - 1

HELP = "play Riemann v0.6 and v0.5 on the same real-card deals against each player type (95% CIs)"
TABLE_PLAYER = "riemann"
DEFAULT_TABLES_DIR = "results/tables"
STAND_IN = "check-call"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default="standard", help="standard (default), wild or bug")
    parser.add_argument("--hands", type=int, default=2000, help="deals per type (default: 2000)")
    parser.add_argument("--seed", type=int, default=51, help="base seed of the deals (default: 51)")
    parser.add_argument(
        "--stack", type=int, default=100, help="both balances at the start of every hand (default: 100)"
    )
    parser.add_argument(
        "--tables",
        default=DEFAULT_TABLES_DIR,
        metavar="DIR",
        help="directory of the exported v0.6 tables riemann-v06-{variant}.parquet (default: %(default)s)",
    )
    parser.add_argument(
        "--abstraction",
        default=None,
        metavar="DIR",
        help="the variant's abstraction tables, DIR/<variant>/*.parquet or DIR/*.parquet "
        "(default: rebuilt in-process, a few seconds)",
    )
    parser.add_argument(
        "--population", default="config/population.yaml", metavar="FILE", help="player types (default: %(default)s)"
    )
    parser.add_argument(
        "--v06",
        default=TABLE_PLAYER,
        help=f"the v0.6 player: '{TABLE_PLAYER}' (default: poker51.policies.riemann.Riemann on the --tables table), "
        f"'{STAND_IN}' (a House-rule check/call stand-in for smoke runs) or 'module:callable' "
        f"called as callable(variant)",
    )
    parser.add_argument(
        "--receipt", default=None, metavar="FILE", help="receipt whose SHA-256 the v0.6 table must match"
    )
    parser.add_argument("--out", default=None, help="write the summary table here (Parquet)")
    parser.add_argument("--hands-out", default=None, help="write the per-hand nets here (Parquet)")
    parser.add_argument("--figure", default=None, help="write the figure to FIGURE.pdf and FIGURE.png")
    parser.add_argument("--force", action="store_true", help="let --out, --hands-out and --figure replace files")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON records")


def custom_factory(spec: str):
    """The ``module:callable`` v0.6 factory named by ``--v06`` (checked before any table is read)."""
    module, _, attr = spec.partition(":")
    if not module or not attr:
        raise InputError(f"--v06 {spec!r}: expected '{TABLE_PLAYER}', '{STAND_IN}' or 'module:callable'")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise InputError(f"--v06 {spec!r}: cannot load it ({exc})") from exc


def v06_factory(spec: str, tables, variant: str, strategy: str | Path, receipt: str | None = None):
    """The v0.6 factory named on the command line (``strategy``: the table file of ``riemann``)."""
    from poker51.realcard.evidence import CheckCallPlayer, riemann_factory

    if spec == TABLE_PLAYER:
        return riemann_factory(tables, strategy, receipt, variant)  # a bad table: TableError, exit 2
    if spec == STAND_IN:
        return CheckCallPlayer
    return custom_factory(spec)


def run(args: argparse.Namespace) -> int:
    from poker51.abstraction.tables import load_abstraction
    from poker51.export.schema import table_path
    from poker51.figures import fig_evidence
    from poker51.games.population import load_population
    from poker51.io import write_parquet
    from poker51.realcard.evidence import evidence_hands, summarize, v05_factory
    from poker51.rules import VARIANT_RULES

    if args.variant not in VARIANT_RULES:
        raise InputError(f"unknown variant {args.variant!r}; known: {', '.join(sorted(VARIANT_RULES))}")
    if args.hands < 1:
        raise InputError(f"--hands must be at least 1, got {args.hands}")
    if args.hands > MAX_HANDS:
        raise InputError(f"--hands {args.hands}: at most 2**31 - 1 = {MAX_HANDS} (every hand is a row of the table)")
    if args.seed < 0:
        raise InputError(f"--seed must be non-negative, got {args.seed}")
    if args.stack < 1:
        raise InputError(f"--stack must be at least 1, got {args.stack}")
    figures = [f"{args.figure}.pdf", f"{args.figure}.png"] if args.figure else []
    for flag, path in [("--out", args.out), ("--hands-out", args.hands_out), *(("--figure", f) for f in figures)]:
        check_new_file(flag, path, args.force)
    strategy = table_path(args.tables, args.variant)
    if args.v06 == TABLE_PLAYER and not strategy.is_file():
        raise InputError(f"--tables {args.tables}: no {strategy.name} (export it, or give --v06 {STAND_IN})")
    if args.v06 not in (TABLE_PLAYER, STAND_IN):
        custom_factory(args.v06)
    population = load_population(args.population)
    tables = load_abstraction(args.abstraction, args.variant)
    factory = v06_factory(args.v06, tables, args.variant, strategy, args.receipt)
    per_hand = evidence_hands(
        factory,
        v05_factory(tables),
        population,
        args.variant,
        args.hands,
        args.seed,
        stacks=args.stack,
        tables=tables,
        progress=not args.json and sys.stderr.isatty(),
    )
    summary = summarize(per_hand, args.seed)
    meta = {"variant": args.variant, "hands": args.hands, "seed": args.seed, "stack": args.stack, "v06": args.v06}
    if args.out:
        write_parquet(summary, args.out, metadata=meta)
    if args.hands_out:
        write_parquet(per_hand, args.hands_out, metadata=meta)
    if args.figure:
        fig_evidence(summary, args.figure)
    if args.json:
        print(json.dumps(summary.to_dict(orient="records")))
    else:
        with_ci = summary.assign(ci=summary.apply(lambda r: f"[{r.ci_low:+.3f}, {r.ci_high:+.3f}]", axis=1))
        print(
            with_ci[["variant", "type", "policy", "hands", "mean", "ci"]].to_string(
                index=False, float_format="{:+.3f}".format
            )
        )
    return 0
