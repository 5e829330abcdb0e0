"""The rooms the host can open, by kind, and what they may need from the server (:class:`Context`).

``ROOMS`` maps a kind to the module and class name that implement it; the modules are imported
on first use, so the host runs without a room whose module is absent (``fiveseat`` until its
module lands: :func:`kinds` lists only the importable ones).  :func:`make_room` builds a room
with ``cls(room_id, params, now)``, adding ``context=`` when the class's ``__init__`` takes it;
a class may offer ``check_params(params) -> params`` (a classmethod) to refuse bad params
before the room exists (a :class:`~poker51.service.protocol.FrameError`).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from poker51.service.protocol import FrameError

#: kind -> (module, class); a module that is absent makes its kind unavailable
ROOMS: dict[str, tuple[str, str]] = {
    "headsup": ("poker51.service.headsup", "HeadsUpRoom"),
    "fiveseat": ("poker51.service.fiveseat", "FiveSeatRoom"),
    "cardroom": ("poker51.service.cardroom", "CardRoom"),
}


@dataclass
class Context:
    """What rooms may use of the server: Riemann v0.6 per variant (loaded by ``poker51 serve``
    with ``Riemann.load``), the v0.2 belief table per variant (a loader: the v0.5 policy and
    the tables' Riemann read it), the tables directory."""

    riemann: dict[str, Any] = field(default_factory=dict)
    belief: Callable[[str], Any] | None = None
    tables_dir: Path | None = None
    #: the host's lookup of display names (ids -> {id: name}); :meth:`display_name` caches it
    names: Callable[[list[str]], dict[str, str]] | None = None
    #: the card room's conduct state (``poker51.service.conduct.Conduct``), set by the host
    conduct: Any = None
    _v05: dict[str, Any] = field(default_factory=dict)
    _names: dict[str, str] = field(default_factory=dict)
    _table_riemann: Any = None

    def display_name(self, account: str) -> str:
        """The display name of ``account`` (cached: a name never changes), or ``Player <id[1:5]>``."""
        name = self._names.get(account)
        if name is None:
            found = self.names([account]) if self.names is not None else {}
            name = self._names[account] = found.get(account) or f"Player {account[1:5]}"
        return name

    def remember_names(self, ids: list[str]) -> None:
        """Fetch the names of ``ids`` not cached yet (the host calls it off the event loop)."""
        missing = [a for a in ids if a not in self._names]
        if missing and self.names is not None:
            self._names.update(self.names(missing))

    def table_riemann(self) -> Any:
        """Riemann for the five-seat tables: ``poker51.multi.riemann.RiemannPolicy`` over the
        standard deck's v0.2 belief table (``belief("standard")``), built once; None without one."""
        if self._table_riemann is None and self.belief is not None:
            table = self.belief("standard")
            if table is not None:
                from poker51.multi.riemann import RiemannPolicy

                self._table_riemann = RiemannPolicy(table)
        return self._table_riemann

    def policy(self, rules: str, variant: str) -> Any:
        """Riemann for a hand of ``rules`` (``v0.6``: the table; ``v0.5``: our v0.5 on the belief
        table), or None when it is not loaded."""
        if rules == "v0.6":
            return self.riemann.get(variant)
        if rules == "v0.5":
            if variant not in self._v05:
                if self.belief is None:
                    return None
                table = self.belief(variant)
                if table is None:
                    return None
                from poker51.policies.v05 import V05Player

                self._v05[variant] = V05Player(variant, table)
            return self._v05[variant]
        return None


def room_class(kind: str) -> type:
    """The class of ``kind``; :class:`FrameError` ``bad_frame`` for an unknown or absent kind."""
    if kind not in ROOMS:
        raise FrameError("bad_frame", f"unknown room kind {kind!r}; expected one of {', '.join(kinds())}")
    module, name = ROOMS[kind]
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        raise FrameError("bad_frame", f"room kind {kind!r} is not available in this build") from None
    cls = getattr(mod, name, None)
    if cls is None:  # the module names its class otherwise: the one whose kind is ours
        cls = next((c for c in vars(mod).values() if isinstance(c, type) and getattr(c, "kind", None) == kind), None)
    if cls is None:
        raise FrameError("bad_frame", f"room kind {kind!r}: {module} defines no room class")
    return cls


def kinds() -> list[str]:
    """The kinds whose module imports."""
    out = []
    for kind in ROOMS:
        try:
            room_class(kind)
        except FrameError:
            continue
        out.append(kind)
    return out


def check_params(kind: str, params: Any) -> dict[str, Any]:
    cls = room_class(kind)
    if not isinstance(params, dict):
        raise FrameError("bad_frame", "a room's params are a JSON object")
    check = getattr(cls, "check_params", None)
    return dict(check(params)) if check is not None else dict(params)


def make_room(kind: str, room_id: str, params: dict[str, Any], now: float, context: Context | None = None) -> Any:
    cls = room_class(kind)
    if "context" in inspect.signature(cls).parameters:
        return cls(room_id, params, now, context=context)
    return cls(room_id, params, now)


__all__ = ["ROOMS", "Context", "check_params", "kinds", "make_room", "room_class"]
