"""``poker51 evidence``: Riemann v0.6 against v0.5 on fresh real-card deals, per player type."""

from __future__ import annotations

import argparse
import importlib
import json
import sys

from poker51.errors import InputError

HELP = "play Riemann v0.6 and v0.5 on the same real-card deals against each player type (95% CIs)"
TABLE_PLAYER = "riemann"
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
        default=None,
        help="directory of the variant's abstraction tables (<dir>/<variant>/*.parquet or "
        "<dir>/*.parquet); default: build them in-process",
    )
    parser.add_argument("--population", default="config/population.yaml", help="player types (default: %(default)s)")
    parser.add_argument(
        "--v06",
        default=TABLE_PLAYER,
        help=f"the v0.6 player: '{TABLE_PLAYER}' (default: poker51.play.riemann.Riemann on --strategy), "
        f"'{STAND_IN}' (a House-rule check/call stand-in for smoke runs) or 'module:callable' "
        f"called as callable(variant)",
    )
    parser.add_argument(
        "--strategy", default=None, help="the v0.6 strategy table (Parquet; default: results/tables/<variant>.parquet)"
    )
    parser.add_argument("--receipt", default=None, help="receipt whose SHA-256 the strategy table must match")
    parser.add_argument("--out", default=None, help="write the summary table here (Parquet)")
    parser.add_argument("--hands-out", default=None, help="write the per-hand nets here (Parquet)")
    parser.add_argument("--figure", default=None, help="write the figure to FIGURE.pdf and FIGURE.png")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON records")


def v06_factory(spec: str, tables, variant: str, strategy: str | None = None, receipt: str | None = None):
    """The v0.6 factory named on the command line."""
    from poker51.io import TableError
    from poker51.play.evidence import CheckCallPlayer, riemann_factory

    if spec == TABLE_PLAYER:
        try:
            return riemann_factory(tables, strategy, receipt, variant)
        except (TableError, ValueError, OSError) as exc:  # StrategyTableError is a TableError
            raise InputError(f"v0.6 table: {exc}") from exc
    if spec == STAND_IN:
        return CheckCallPlayer
    module, _, attr = spec.partition(":")
    if not module or not attr:
        raise InputError(f"--v06 {spec!r}: expected 'module:callable' or '{STAND_IN}'")
    try:
        factory = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise InputError(f"--v06 {spec!r}: cannot load it ({exc})") from exc
    return factory


def run(args: argparse.Namespace) -> int:
    from poker51.abstraction.tables import load_abstraction
    from poker51.figures import fig_evidence
    from poker51.games.population import load_population
    from poker51.io import write_parquet
    from poker51.play.evidence import evidence_hands, summarize, v05_factory
    from poker51.rules import VARIANT_RULES

    if args.variant not in VARIANT_RULES:
        raise InputError(f"unknown variant {args.variant!r}; known: {', '.join(sorted(VARIANT_RULES))}")
    if args.hands < 1:
        raise InputError(f"--hands must be at least 1, got {args.hands}")
    if args.seed < 0:
        raise InputError(f"--seed must be non-negative, got {args.seed}")
    if args.stack < 1:
        raise InputError(f"--stack must be at least 1, got {args.stack}")
    population = load_population(args.population)
    tables = load_abstraction(args.tables, args.variant)
    factory = v06_factory(args.v06, tables, args.variant, args.strategy, args.receipt)
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
