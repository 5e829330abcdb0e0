"""``poker51 multi``: the five-seat tables (``docs/multi.md``).

Examples::

    poker51 multi run scenario.json             # a readable account of each hand
    poker51 multi run scenario.json --json      # the issue's JSON object
    poker51 multi run scenario.json --log results/t.log  # also write the table's log
    poker51 multi check results/t.log                    # recompute every deck commitment of a log

``run`` exits 2 (one line naming the hand, the action and the rule) on an illegal scripted
action; ``check`` exits 1 when a commitment does not match, 2 on a file that is not a log.
``run --log`` refuses an existing file unless ``--force`` is given (a log is a record: it is
never replaced unasked), and a directory.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

HELP = "five-seat tables: play a scripted scenario (run) or check a table log's deck commitments (check)"


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="multi_command", metavar="{run,check}", required=True)
    run = sub.add_parser("run", help="play a scenario file", description="play a scripted table (docs/multi.md)")
    run.add_argument("scenario", metavar="SCENARIO.json", help="the scenario (docs/multi.md)")
    run.add_argument("--json", action="store_true", help="print one JSON object: hands, final, conserved")
    run.add_argument(
        "--log", metavar="FILE", default=None, help="write the table's log here (an existing FILE needs --force)"
    )
    run.add_argument("--force", action="store_true", help="let --log replace an existing file")
    run.add_argument(
        "--belief",
        metavar="FILE",
        default=None,
        help="Riemann's v0.2 belief table (results/standard/belief.parquet); default: rebuilt from seed 51",
    )
    check = sub.add_parser("check", help="recompute every commitment of a log", description="check a table log")
    check.add_argument("log", metavar="LOG", help="a table log written by poker51 multi run --log")
    check.add_argument("--json", action="store_true", help="print the result as JSON")


def _text(out: dict[str, Any]) -> str:
    lines = []
    for i, h in enumerate(out["hands"], 1):
        lines.append(f"hand {i}")
        for k, p in enumerate(h["pots"]):
            name = "main pot" if k == 0 else f"side pot {k}"
            lines.append(
                f"  {name:<10} {p['amount_cents'] / 100:>8.2f} jbits  eligible {' '.join(p['eligible'])}"
                f"  won by {' '.join(p['winners'])}"
            )
        paid = "  ".join(f"{n} {v / 100:.2f}" for n, v in h["payouts"].items())
        lines.append(f"  payouts    {paid}")
    lines.append("final")
    for name, f in out["final"].items():
        extra = f"  abits {f['abits_cents'] / 100:.2f}" if "abits_cents" in f else ""
        lines.append(
            f"  {name:<10} jbits {f['jbits_cents'] / 100:>7.2f}  held {f['held_cents'] / 100:>6.2f}"
            f"  abit score {f['abit_score_cents'] / 100:>6.2f}{extra}"
        )
    lines.append(f"jbits conserved: {'yes' if out['conserved'] else 'NO'}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from poker51.multi.commit import check_log

    if args.multi_command == "check":
        res = check_log(args.log)
        if args.json:
            print(json.dumps(res, sort_keys=True))
        else:
            for problem in res["problems"]:
                print(problem)
            verdict = "PASS" if res["failures"] == 0 else "FAIL"
            print(f"{verdict}: {res['checked']} of {res['hands']} hands checked, {res['failures']} failures")
        return 0 if res["failures"] == 0 else 1
    from pathlib import Path

    from poker51.errors import InputError
    from poker51.multi.belief import read_belief
    from poker51.multi.scenario import load_scenario, run_scenario

    if args.log and Path(args.log).is_dir():
        raise InputError(f"--log {args.log}: is a directory; give a file name")
    if args.log and Path(args.log).exists() and not args.force:
        raise InputError(f"--log {args.log}: exists; give --force to replace it")
    scn = load_scenario(args.scenario)
    belief = read_belief(args.belief) if args.belief else None
    out = run_scenario(scn, belief, log=args.log)
    print(json.dumps(out, sort_keys=True) if args.json else _text(out))
    return 0
