"""The ``poker51`` command line: one subcommand per pipeline stage.

Each subcommand lives in ``poker51.commands.<name>`` and provides ``HELP`` (one
line), ``configure(parser)`` and ``run(args) -> int``.  Modules are imported only
when their subcommand runs, so ``poker51 census`` does not import the solver.

Exit codes (also in ``poker51 --help`` and the README):

- 0: done (for ``verify``: every check passed);
- 1: ``verify`` ran and a check failed (its report is printed, and written with ``--out``);
- 2: bad input: a bad argument, a missing or unreadable file, a corrupted or foreign table,
  a config or population file that breaks its schema, bad YAML.  One line on stderr,
  ``poker51 <command>: error: <what is wrong>``, naming the argument, file or key;
- 70: an internal error, which is a bug in poker51 (``EX_SOFTWARE`` of ``sysexits.h``): one
  line naming the exception; ``POKER51_TRACEBACK=1`` prints the traceback too;
- 130: interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from types import ModuleType
from typing import NoReturn

#: subcommand name -> module under ``poker51.commands``
SUBCOMMANDS: dict[str, str] = {
    "census": "census",
    "solve": "solve",
    "evidence": "evidence",
    "verify": "verify",
    "play": "play",
    "multi": "multi",
    "hand": "hand",
    "rulebook": "rulebook",
    "serve": "serve",
}

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_BUG, EXIT_INTERRUPTED = 0, 1, 2, 70, 130

EPILOG = (
    "exit codes: 0 done; 1 verify found a failed check; 2 bad input (one line naming it); "
    "70 internal error, a bug (POKER51_TRACEBACK=1 shows the traceback); 130 interrupted"
)


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line (exit code 2)."""

    #: the parser of each configured subcommand
    commands: dict[str, argparse.ArgumentParser]

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def version() -> str:
    """The installed distribution's version."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("poker51")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree, not installed
        return "(not installed)"


def _load(name: str) -> ModuleType:
    return importlib.import_module(f"poker51.commands.{SUBCOMMANDS[name]}")


def build_parser(only: str | None = None) -> Parser:
    """The parser of every subcommand (``only``: configure just that one, import no other)."""
    parser = Parser(prog="poker51", description=(__doc__ or "").splitlines()[0], epilog=EPILOG)
    parser.commands = {}
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in SUBCOMMANDS:
        if only is not None and name != only:
            sub.add_parser(name, help=f"(see poker51 {name} --help)", add_help=False)
            continue
        module = _load(name)
        # help strings are %-formatted by argparse: a literal % (as in "95% CIs") is %%
        p = sub.add_parser(name, help=module.HELP.replace("%", "%%"), description=module.HELP, epilog=EPILOG)
        module.configure(p)
        parser.commands[name] = p
    return parser


def one_line(exc: BaseException) -> str:
    """The message of a bad-input error on one line, naming the file when there is one.

    >>> one_line(FileNotFoundError(2, "No such file or directory", "results/receipt.json"))
    'results/receipt.json: No such file or directory'
    """
    import yaml

    if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        return f"{exc.filename}: {exc.strerror}"
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem_mark is not None:
        mark = exc.problem_mark
        return f"{mark.name}: line {mark.line + 1}, column {mark.column + 1}: not valid YAML ({exc.problem})"
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def _user_errors() -> tuple[type[BaseException], ...]:
    import yaml

    from poker51.errors import USER_ERRORS

    return (*USER_ERRORS, OSError, yaml.YAMLError)


def main(argv: list[str] | None = None) -> int:
    """Run ``poker51 <command> ...``; returns the exit code (module docstring)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    only = argv[0] if argv and argv[0] in SUBCOMMANDS else None
    if only is None and not {"-h", "--help"} & set(argv):  # --version, a typo: import no command
        only = ""
    parser = build_parser(only)
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # named by the subcommand's parser: "poker51 census: error: unrecognized ..."
            parser.commands.get(args.command, parser).error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:  # --help, --version (0) and usage errors (2), already printed
        return int(exc.code or 0) if not isinstance(exc.code, str) else EXIT_BAD_INPUT
    name = f"poker51 {args.command}"
    try:
        return int(_load(args.command).run(args) or 0)
    except BrokenPipeError:  # the reader of stdout went away (poker51 census | head): not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        print(f"{name}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as exc:
        if isinstance(exc, _user_errors()):
            print(f"{name}: error: {one_line(exc)}", file=sys.stderr)
            return EXIT_BAD_INPUT
        print(
            f"{name}: internal error (a bug in poker51 {version()}; please report it with the command line): "
            f"{type(exc).__name__}: {one_line(exc)}",
            file=sys.stderr,
        )
        if os.environ.get("POKER51_TRACEBACK"):
            traceback.print_exc()
        return EXIT_BUG


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
