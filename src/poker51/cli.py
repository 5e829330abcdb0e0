"""The ``poker51`` command line: one subcommand per pipeline stage.

Each subcommand lives in ``poker51.commands.<name>`` and provides ``HELP`` (one
line), ``configure(parser)`` and ``run(args) -> int``.  Modules are imported only
when their subcommand runs, so ``poker51 census`` does not import the solver.
Bad input (:class:`poker51.errors.InputError`) prints one line and exits with 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys

#: subcommand name -> module under ``poker51.commands``
SUBCOMMANDS: dict[str, str] = {
    "census": "census",
    "solve": "solve",
    "evidence": "evidence",
    "verify": "verify",
    "play": "play",
    "hand": "hand",
    "rulebook": "rulebook",
}


def _load(name: str):
    return importlib.import_module(f"poker51.commands.{SUBCOMMANDS[name]}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="poker51", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in SUBCOMMANDS:
        if only is not None and name != only:
            sub.add_parser(name, help=f"(see poker51 {name} --help)", add_help=False)
            continue
        module = _load(name)
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.configure(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    from poker51.errors import InputError

    argv = list(sys.argv[1:] if argv is None else argv)
    only = argv[0] if argv and argv[0] in SUBCOMMANDS else None
    parser = build_parser(only)
    args = parser.parse_args(argv)
    try:
        return int(_load(args.command).run(args) or 0)
    except InputError as exc:
        print(f"poker51 {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
