"""Helpers shared by the tests of poker51.multi (imported by the sibling test modules)."""

from __future__ import annotations

from typing import Any

from poker51.cards import parse_cards
from poker51.multi.scenario import run_scenario


def deck(text: str) -> list[str]:
    """A scripted deck from a space-separated string of cards (checked by parsing)."""
    parse_cards(text)
    return text.split()


def play(seats: list[dict[str, Any]], hands: list[dict[str, Any]], button: int = 0, **kw: Any) -> dict[str, Any]:
    return run_scenario({"seats": seats, "hands": hands, "button": button, **kw})


def person(seat: int, name: str, buyin: int, bank: float | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": seat, "name": name, "buyin": buyin}
    if bank is not None:
        out["bank"] = bank
    return out
