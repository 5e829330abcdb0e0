"""One log format and one reader for the three engines: JSON lines, one object per line.

Writing (:func:`log_text`): each event is ``json.dumps`` with compact separators (``","``
and ``":"``), its keys in the order the engine built them, one per line, each line ending
in ``"\\n"``.  This is the heads-up log's writer, unchanged (its bytes are pinned by
:func:`poker51.play.engine.replay`); an engine that sorts its keys (the tables' canonical
JSON) hands the reader the same kind of text.

Reading (:func:`read_log`): a path, text or bytes; blank lines are skipped; every other line
must be a JSON object.  The formats that exist are recognised from the first record
(:func:`log_format`), so every log ever written still loads:

``poker51-hand/1``
    the heads-up engine: the first record is ``{"event": "hand", "format": "poker51-hand/1", ...}``;
``poker51-multi-log/1``
    the five-seat tables: ``{"event": "table", "format": "poker51-multi-log/1", ...}``;
``rulebook``
    the rule book's table logs: every record has ``"type"`` ``commit`` or ``hand``.

A bad line is a :class:`~poker51.table.errors.LogError` that names the file (``<log>`` for
text), the line and the column: ``{file}:{line}:{column}: {problem}``.

>>> text = log_text([{"event": "hand", "format": "poker51-hand/1"}, {"event": "ante", "amount": 1}])
>>> text
'{"event":"hand","format":"poker51-hand/1"}\\n{"event":"ante","amount":1}\\n'
>>> [r["event"] for r in read_log(text)], log_format(read_log(text))
(['hand', 'ante'], 'poker51-hand/1')
>>> read_log('{"event":"hand","format":"poker51-hand/1"}\\n{"event": ante}\\n')
Traceback (most recent call last):
...
poker51.table.errors.LogError: <log>:2:11: not JSON (Expecting value)
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from poker51.table.errors import LogError

HEADS_UP = "poker51-hand/1"
MULTI = "poker51-multi-log/1"
RULEBOOK = "rulebook"
#: the log formats :func:`read_log` knows, with the first record that marks each
FORMATS: tuple[str, ...] = (HEADS_UP, MULTI, RULEBOOK)
_FIRST_EVENT = {HEADS_UP: "hand", MULTI: "table"}
_ENCODER = json.JSONEncoder(separators=(",", ":"))


def log_line(event: dict) -> str:
    """One event as its log line (without the newline)."""
    return _ENCODER.encode(event)


def log_text(events: Sequence[dict]) -> str:
    """A log: one compact JSON object per event and line (``json.dumps`` with ``","`` and
    ``":"`` separators, keys in the events' order)."""
    return "".join(_ENCODER.encode(e) + "\n" for e in events)


def _source_text(source: str | bytes | os.PathLike, name: str | None) -> tuple[str, str]:
    """(text, name for errors).  A path-like or a one-line str not starting with ``{`` is a
    path; bytes and other str are the log's text."""
    if isinstance(source, (bytes, bytearray)):
        try:
            return bytes(source).decode("utf-8"), name or "<log>"
        except UnicodeDecodeError as exc:
            raise LogError(f"{name or '<log>'}: not UTF-8 text (byte {exc.start})") from None
    if isinstance(source, str) and (source == "" or source.lstrip().startswith("{") or "\n" in source):
        return source, name or "<log>"
    path = Path(source)
    try:
        return path.read_text(encoding="utf-8"), name or str(path)
    except FileNotFoundError:
        raise LogError(f"{name or path}: no such log") from None
    except IsADirectoryError:
        raise LogError(f"{name or path}: is a directory, not a log file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LogError(f"{name or path}: cannot read the log ({exc})") from None


def read_log(
    source: str | bytes | os.PathLike, expect: str | None = None, name: str | None = None
) -> list[dict[str, Any]]:
    """The records of a JSON-lines log (module docstring).

    ``expect`` (one of :data:`FORMATS`) requires that format; ``name`` names the source in
    errors (default: the path, or ``<log>`` for text).  Raises :class:`LogError`.
    """
    text, where = _source_text(source, name)
    return parse_log(text, expect, where)


def parse_log(text: str, expect: str | None = None, name: str = "<log>") -> list[dict[str, Any]]:
    """The records of a log's text (:func:`read_log` without the file; ``name`` for errors)."""
    where = name
    out: list[dict[str, Any]] = []
    for k, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LogError(f"{where}:{k}:{exc.colno}: not JSON ({exc.msg})") from None
        if not isinstance(rec, dict):
            col = len(line) - len(line.lstrip()) + 1
            raise LogError(f"{where}:{k}:{col}: a log line is a JSON object, got {type(rec).__name__}")
        out.append(rec)
    if expect is not None:
        if expect not in FORMATS:
            raise ValueError(f"unknown log format {expect!r}; expected one of {', '.join(FORMATS)}")
        found = log_format(out)
        if found != expect:
            what = f"a {found} log" if found else "no known log format"
            raise LogError(f"{where}:1:1: not a {expect} log ({what}{_first_record_hint(expect)})")
        if expect == RULEBOOK:
            for k, rec in enumerate(out, 1):
                if rec.get("type") not in ("commit", "hand"):
                    raise LogError(f"{where}: record {k}: a rule-book log line has type commit or hand")
    return out


def _first_record_hint(fmt: str) -> str:
    if fmt in _FIRST_EVENT:
        return f"; the first record is its {_FIRST_EVENT[fmt]!r} event"
    return "; every record has type commit or hand"


def log_format(records: Sequence[dict[str, Any]]) -> str | None:
    """The format of a log's records (one of :data:`FORMATS`), or None.

    >>> log_format([{"type": "commit", "hand": 1}, {"type": "hand", "hand": 1}])
    'rulebook'
    >>> log_format([{"event": "table", "format": "poker51-multi-log/1"}])
    'poker51-multi-log/1'
    """
    if not records:
        return None
    first = records[0]
    for fmt, event in _FIRST_EVENT.items():
        if first.get("event") == event and first.get("format") == fmt:
            return fmt
    if all(r.get("type") in ("commit", "hand") for r in records):
        return RULEBOOK
    return None


__all__ = ["FORMATS", "HEADS_UP", "MULTI", "RULEBOOK", "log_format", "log_line", "log_text", "parse_log", "read_log"]
