"""``poker51 rulebook``: play a scripted table of the rule book, or check a hand log.

Examples::

    poker51 rulebook run docs/examples/side_pots.json --json
    poker51 rulebook run SCENARIO.json --log results/hands.jsonl --phh results/phh/
    poker51 rulebook check results/hands.jsonl
    poker51 rulebook phh results/hands.jsonl results/phh/

``run`` plays a scenario (format: ``docs/rulebook.md``) and prints per hand the pots
(amount, eligible, winners), the rake, the payouts, the final stacks and whether chips were
conserved; an illegal action exits 2 naming the hand, the action and the article it breaks.
``check`` reproduces every shuffle of a log from its published seed: exit 0 when every hand
checks, 1 when one does not, 2 on a bad log.  ``phh`` writes every hand of a log that Poker
Hand History can express (Hold'em and the Omahas) as ``DIR/N.phh``.  ``run --log`` refuses an
existing log unless ``--force`` is given (a log is a record: it is never replaced unasked), and
``run --phh DIR`` and ``phh LOG DIR`` a DIR that already holds ``.phh`` files, likewise.
"""

from __future__ import annotations

import argparse
import json

HELP = "the rule book's games: run a scenario (pots, rake, payouts), check a hand log's shuffles, write PHH"


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="rulebook_command", metavar="{run,check,phh}", required=True)
    run_p = sub.add_parser("run", help="play a scenario file", description="play a scenario file (docs/rulebook.md)")
    run_p.add_argument("scenario", metavar="SCENARIO.json")
    run_p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    run_p.add_argument(
        "--log", default=None, metavar="LOG.jsonl", help="write the hand log (commitments, records); not over a file"
    )
    run_p.add_argument("--force", action="store_true", help="let --log and --phh replace existing files")
    run_p.add_argument("--phh", default=None, metavar="DIR", help="write each hand as Poker Hand History (DIR/N.phh)")
    check_p = sub.add_parser("check", help="check a hand log", description="reproduce every shuffle of a hand log")
    check_p.add_argument("log", metavar="LOG.jsonl")
    check_p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    phh_p = sub.add_parser("phh", help="write a log's hands as PHH", description="write a log's hands as PHH files")
    phh_p.add_argument("log", metavar="LOG.jsonl")
    phh_p.add_argument("out", metavar="DIR")
    phh_p.add_argument("--force", action="store_true", help="let DIR's .phh files be replaced")


def _check_phh_dir(out: str, flag: str, force: bool) -> None:
    """Refuse (bad input) a PHH folder that is a file, or that holds ``.phh`` files already
    (they would be replaced) unless ``force``."""
    from pathlib import Path

    from poker51.errors import InputError

    path = Path(out)
    if path.exists() and not path.is_dir():
        raise InputError(f"{flag}{out}: exists and is not a directory")
    if not force and path.is_dir() and any(path.glob("*.phh")):
        raise InputError(f"{flag}{out}: already holds .phh files; give --force to replace them")


def _write_phh(records: list, out: str) -> tuple[int, int]:
    """Write ``DIR/N.phh`` for every record PHH can express; (written, skipped)."""
    from pathlib import Path

    from poker51.rulebook.phh import phh_of_record

    path = Path(out)
    path.mkdir(parents=True, exist_ok=True)
    written = 0
    for rec in records:
        text = phh_of_record(rec)
        if text is not None:
            (path / f"{rec['hand']}.phh").write_text(text)
            written += 1
    return written, len(records) - written


def _run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from poker51.errors import InputError
    from poker51.rulebook.log import write_log
    from poker51.rulebook.scenario import load_scenario, run_scenario

    if args.log and Path(args.log).is_dir():
        raise InputError(f"--log {args.log}: is a directory; give a file name")
    if args.log and Path(args.log).exists() and not args.force:
        raise InputError(f"--log {args.log}: exists; give --force to replace it")
    if args.phh:
        _check_phh_dir(args.phh, "--phh ", args.force)
    output, records = run_scenario(load_scenario(args.scenario))
    if args.log:
        write_log(records, args.log)
    if args.phh:
        _write_phh(records, args.phh)
    if args.json:
        print(json.dumps(output))
        return 0
    for h in output["hands"]:
        print(f"hand {h['hand']} ({h['game']}), button {h['button']}")
        for k, pot in enumerate(h["pots"]):
            print(
                f"  pot {k + 1}: {pot['amount']} (rake {pot['rake']}) eligible {', '.join(pot['eligible'])}"
                f" -> {', '.join(pot['winners'])}"
            )
        print(f"  payouts {h['payouts']}  stacks {h['stacks']}  conserved {h['conserved']}")
    print(f"final {output['final']}  rake {output['rake']}  conserved {output['conserved']}")
    return 0


def _check(args: argparse.Namespace) -> int:
    from poker51.rulebook.log import check_log

    report = check_log(args.log)
    if args.json:
        print(json.dumps(report))
    else:
        print(
            f"{args.log}: {report['hands']} hands, {report['checked']} shuffles reproduced from their seeds,"
            f" {report['scripted']} scripted decks (no seed), {len(report['failed'])} failed"
        )
        for f in report["failed"]:
            print(f"  hand {f['hand']}: {'; '.join(f['problems'])}")
    return 1 if report["failed"] else 0


def _phh(args: argparse.Namespace) -> int:
    from poker51.errors import InputError
    from poker51.rulebook.log import read_log

    records = [line for line in read_log(args.log) if line["type"] == "hand"]
    _check_phh_dir(args.out, "", args.force)
    try:
        written, skipped = _write_phh(records, args.out)
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"{args.log}: a hand record lacks or garbles {exc}") from None
    print(f"{args.out}: {written} hands written as PHH, {skipped} with no PHH form (3 Sets, a player leaving)")
    return 0


def run(args: argparse.Namespace) -> int:
    return {"run": _run, "check": _check, "phh": _phh}[args.rulebook_command](args)
