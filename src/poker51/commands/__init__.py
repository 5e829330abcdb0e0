"""The subcommands of ``poker51`` (one module each, registered in :mod:`poker51.cli`)."""

from __future__ import annotations

from pathlib import Path

from poker51.errors import InputError


def check_new_file(flag: str, path: str | Path | None, force: bool) -> None:
    """Refuse (bad input, exit 2) an output file option that names a directory, or an existing
    file without ``--force``: a command never replaces a file unasked (issue 29).  Checked
    before any work, so that a refused run costs nothing.

    >>> check_new_file("--out", None, False)
    >>> check_new_file("--out", ".", False)
    Traceback (most recent call last):
    poker51.errors.InputError: --out .: is a directory; give a file name
    """
    if path is None or str(path) == "":
        return
    p = Path(path)
    if p.is_dir():
        raise InputError(f"{flag} {path}: is a directory; give a file name")
    if p.exists() and not force:
        raise InputError(f"{flag} {path}: exists; give --force to replace it")
