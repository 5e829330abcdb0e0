"""The frame protocol ``poker51-service/1`` (``docs/service.md``): client frames checked, server frames built.

Every frame is a JSON object in one text message of at most :data:`MAX_FRAME` bytes.  The
client's first frame is ``hello`` (its token, never in a URL); then ``view``, ``resync``,
``query`` and the room's commands, each command with an ``id`` (client-chosen, unique per
account) and the ``turn`` it answers.  :func:`parse` turns a raw message into a
:class:`Frame` or raises :class:`FrameError` with one of :data:`CODES`.

>>> f = parse('{"type":"act","id":"a1","turn":3,"kind":"bet","amount":2}')
>>> f.type, f.id, f.turn, f.cmd
('act', 'a1', 3, {'type': 'act', 'kind': 'bet', 'amount': 2})
>>> parse('{"type":"act","turn":3}')
Traceback (most recent call last):
...
poker51.service.protocol.FrameError: bad_frame: a command needs an id: a string of 1..64 characters [A-Za-z0-9_.:-]
>>> error_frame(FrameError("stale_turn", "the room is at turn 4"), "a1")["code"]
'stale_turn'
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from poker51.errors import InputError
from poker51.table.errors import IllegalAction

PROTOCOL = "poker51-service/1"
VERSION = 1
MAX_FRAME = 4096
#: frames the host answers itself; any other type is a command (or query) of the room
HOST_TYPES = ("hello", "view", "resync", "query")
CODES = (
    "bad_json", "too_large", "bad_frame", "unknown_type", "hello_first", "bad_token", "watcher", "stale_turn",
    "illegal", "closed", "unknown_room", "internal",
)  # fmt: skip
_ID = re.compile(r"[A-Za-z0-9_.:\-]{1,64}")
_TYPE = re.compile(r"[a-z][a-z_]{0,31}")


class FrameError(InputError):
    """A refused frame: ``code`` (one of :data:`CODES`) and ``detail``; ``rule`` for ``illegal``."""

    def __init__(self, code: str, detail: str, rule: str = "") -> None:
        if code not in CODES:
            raise ValueError(f"unknown error code {code!r}")
        self.code, self.detail, self.rule = code, str(detail), str(rule)
        super().__init__(f"{code}: {detail}")


@dataclass(frozen=True)
class Frame:
    """A checked client frame: ``type``, the command envelope (``id``, ``turn``) and ``cmd``,
    the frame without its envelope (what a room's ``apply`` gets)."""

    type: str
    id: str | None = None
    turn: int | None = None
    cmd: dict[str, Any] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict)


def _int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def parse(message: str | bytes | None) -> Frame:
    """One client message as a :class:`Frame` (module docstring); :class:`FrameError` otherwise."""
    if message is None:
        raise FrameError("bad_json", "a frame is a text message holding one JSON object")
    size = len(message.encode("utf-8")) if isinstance(message, str) else len(message)
    if size > MAX_FRAME:
        raise FrameError("too_large", f"a frame is at most {MAX_FRAME} bytes, this one is {size}")
    try:
        obj = json.loads(message)
    except (ValueError, UnicodeDecodeError) as exc:
        raise FrameError("bad_json", f"not JSON ({exc})") from None
    if not isinstance(obj, dict):
        raise FrameError("bad_json", f"a frame is a JSON object, not {type(obj).__name__}")
    kind = obj.get("type")
    if not isinstance(kind, str) or not _TYPE.fullmatch(kind):
        raise FrameError("bad_frame", f"a frame names its type (lower-case letters), got {kind!r}")
    if kind == "hello":
        token = obj.get("token")
        if token is not None and not isinstance(token, str):
            raise FrameError("bad_frame", "hello's token is a string or null")
        if obj.get("v", VERSION) != VERSION:
            raise FrameError("bad_frame", f"this server speaks protocol version {VERSION}, not {obj.get('v')!r}")
        _last_seq(obj)
        extra = sorted(set(obj) - {"type", "v", "token", "last_seq"})
        if extra:
            raise FrameError("bad_frame", f"hello has no field {extra[0]!r}")
        return Frame(kind, raw=obj)
    if kind == "view":
        if set(obj) - {"type"}:
            raise FrameError("bad_frame", f"view has no field {sorted(set(obj) - {'type'})[0]!r}")
        return Frame(kind, raw=obj)
    if kind == "resync":
        if "last_seq" not in obj:
            raise FrameError("bad_frame", "resync names the last event seq it saw (last_seq)")
        _last_seq(obj)
        if set(obj) - {"type", "last_seq"}:
            raise FrameError("bad_frame", f"resync has no field {sorted(set(obj) - {'type', 'last_seq'})[0]!r}")
        return Frame(kind, raw=obj)
    ident = obj.get("id")
    if not isinstance(ident, str) or not _ID.fullmatch(ident):
        what = "a query" if kind == "query" else "a command"
        raise FrameError("bad_frame", f"{what} needs an id: a string of 1..64 characters [A-Za-z0-9_.:-]")
    if kind == "query":
        return Frame(kind, ident, None, {k: v for k, v in obj.items() if k != "id"}, obj)
    turn = obj.get("turn")
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 0:
        raise FrameError("bad_frame", f"a command names the turn it answers (an int >= 0), got {turn!r}")
    return Frame(kind, ident, int(turn), {k: v for k, v in obj.items() if k not in ("id", "turn")}, obj)


def _last_seq(obj: dict[str, Any]) -> int | None:
    last = obj.get("last_seq")
    if last is not None and (not _int(last) or last < 0):
        raise FrameError("bad_frame", f"last_seq is an event seq (an int >= 0) or null, got {last!r}")
    return last


def error_frame(exc: Exception, re_id: str | None = None) -> dict[str, Any]:
    """The error frame of a :class:`FrameError` or an :class:`IllegalAction` (nothing changed)."""
    if isinstance(exc, IllegalAction):
        return {"type": "error", "code": "illegal", "rule": exc.rule, "detail": exc.detail, "re": re_id}
    if isinstance(exc, FrameError):
        return {"type": "error", "code": exc.code, "rule": exc.rule, "detail": exc.detail, "re": re_id}
    return {"type": "error", "code": "internal", "rule": "", "detail": str(exc).splitlines()[0][:200], "re": re_id}


def encode(frame: dict[str, Any]) -> str:
    """A server frame as sent (compact JSON)."""
    return json.dumps(frame, separators=(",", ":"), ensure_ascii=False)


__all__ = [
    "CODES",
    "HOST_TYPES",
    "MAX_FRAME",
    "PROTOCOL",
    "VERSION",
    "Frame",
    "FrameError",
    "encode",
    "error_frame",
    "parse",
]
