"""Scenarios: a scripted table, the front door of ``poker51 rulebook run`` (``docs/rulebook.md``).

A scenario is JSON::

    {"game": "holdem",                         # holdem omaha omaha5 omaha3 omaha_open three_sets random
     "blinds": [1, 2],                         # small, big (1.4: the small is half the big)
     "seats": [{"seat": 0, "name": "ann", "stack": 200}, ...],
     "button": "ann",                          # optional, default the lowest seat
     "rake": true,                             # optional, Article X
     "seed": 7,                                # optional: SeedSequence entropy for unscripted decks
     "hands": [{"deck": ["As", "Kd", ...],     # deal order, burns included; or
                "seed": "<64 hex digits>",     # a committed seed (Article IX); or neither (from "seed")
                "actions": [["ann", "raise", 6], ["bob", "call"], ...]}]}

Actions: ``fold``, ``check``, ``call``, ``bet N``, ``raise N`` (raise to N), ``allin``,
``lay [[c, c], [c, c], [c, c]]``, ``timeout``, ``show``, ``muck``; and at any time
``sit_out``, ``sit_in``, ``add N``, ``leave``, ``advance fold|check_fold|check|call``.
Players still to show when the script ends show.  A hand's seed, when not given, is
``new_seed("seedsequence", seed, key=(0, hand))``; a Random block's is ``key=(1, block)``.

:func:`run_scenario` returns ``(output, records)``: the output per hand (pots with
``amount``, ``eligible``, ``winners``; ``rake``, ``payouts``, final ``stacks``,
``conserved``) and the full hand records (the log).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from poker51.cards import parse_card, parse_cards
from poker51.errors import InputError
from poker51.rulebook.games import RANDOM, RANDOM_BLOCK
from poker51.rulebook.table import Table
from poker51.table.deal import new_seed
from poker51.validation import load_json, load_schema, scenario_schema
from poker51.validation import validate as check_schema

__all__ = ["BET_ACTIONS", "SCHEMA", "TABLE_ACTIONS", "load_scenario", "run_scenario", "validate"]

BET_ACTIONS = ("fold", "check", "call", "bet", "raise", "allin", "lay", "timeout", "show", "muck")
TABLE_ACTIONS = ("sit_out", "sit_in", "add", "leave", "advance")
_WITH_ARG = {"bet", "raise", "lay", "add", "advance"}
#: the scenario file's JSON Schema (package data: the shape, the game and action names; the law
#: and the cards stay in the table)
SCHEMA = scenario_schema("rulebook-scenario")


def load_scenario(path: str | Path) -> dict[str, Any]:
    """The scenario at ``path`` (JSON), checked (:func:`validate`); a missing file, bad JSON or a
    bad key is one :class:`~poker51.errors.ConfigError` line naming the file
    (:func:`poker51.validation.load_json`)."""
    return validate(load_json(path, "scenario file"), str(path))


@functools.cache
def _schema() -> dict[str, Any]:
    return load_schema(SCHEMA)


def validate(sc: Any, source: str = "scenario") -> dict[str, Any]:
    """Check the shape of a scenario against :data:`SCHEMA`; returns it.

    A :class:`~poker51.errors.ConfigError` (an :class:`InputError`) names the file and the key
    in one line (:func:`poker51.validation.validate`):

    >>> validate({"game": "holdem", "blinds": [1, 2], "seats": [{"seat": 0, "name": "a"}], "hands": [{}]}, "s.json")
    Traceback (most recent call last):
    ...
    poker51.errors.ConfigError: s.json: seats[0]: missing key 'stack'
    """
    result: dict[str, Any] = check_schema(sc, _schema(), source)
    return result


def _int(value: Any, where: str, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise InputError(f"{where}: expected a whole number of at least {low}, got {value!r}")
    return value


def _table(sc: dict[str, Any]) -> Table:
    """The table of a checked scenario: the law's checks (1.1, 1.4) on top of the schema's."""
    small, big = sc["blinds"]
    if 2 * small != big:
        raise InputError(f"scenario: blinds {sc['blinds']}: the small blind is half the big blind (1.4)")
    entries = [(s["seat"], s["name"], s["stack"]) for s in sc["seats"]]
    table = Table(sc["game"], big, entries, rake=sc.get("rake", True))
    if "button" in sc:
        table.button = table.seat_of(sc["button"])
    return table


def _seed(hand: dict[str, Any], top: Any, number: int, key: str, where: str) -> bytes | None:
    if key in hand:
        text = hand[key]
        try:
            seed = bytes.fromhex(text) if isinstance(text, str) else b""
        except ValueError:
            seed = b""
        if len(seed) < 16:
            raise InputError(f"{where}.{key}: a seed is at least 32 hex digits")
        return seed
    if top is None:
        return None
    return new_seed("seedsequence", _int(top, "scenario: seed"), key=(0 if key == "seed" else 1, number))


def _action(entry: list[Any], where: str) -> tuple[str, str, Any]:
    """A checked action's name, kind and argument (the schema has its shape and kind)."""
    name, kind = entry[0], entry[1]
    if (kind in _WITH_ARG) != (len(entry) == 3):
        raise InputError(f"{where}: {kind} {'needs' if kind in _WITH_ARG else 'takes no'} argument")
    arg = entry[2] if len(entry) == 3 else None
    if kind in ("bet", "raise", "add"):
        arg = _int(arg, f"{where}: {name} {kind}", 1)
    if kind == "lay":
        if not isinstance(arg, list):
            raise InputError(f"{where}: lay takes [[card, card], [card, card], [card, card]]")
        try:
            arg = [[parse_card(c) for c in pair] for pair in arg]
        except (TypeError, AttributeError):
            raise InputError(f"{where}: lay takes [[card, card], [card, card], [card, card]]") from None
    return name, kind, arg


def _public(rec: dict[str, Any], table: Table) -> dict[str, Any]:
    """The per-hand output: no burn cards (2.3), no unshown hole cards (2.2)."""
    out = {k: rec[k] for k in ("hand", "game", "button", "pots", "rake", "returned", "payouts", "conserved")}
    if "block_hand" in rec:
        out["block_hand"] = rec["block_hand"]
    out["boards" if len(rec["boards"]) > 1 else "board"] = rec["boards"] if len(rec["boards"]) > 1 else rec["boards"][0]
    out["shows"] = [{k: v for k, v in s.items() if s["shown"] or k in ("player", "shown")} for s in rec["shows"]]
    out["pots"] = [{k: p[k] for k in ("amount", "eligible", "winners", "rake")} for p in rec["pots"]]
    out["stacks"] = {st.name: st.stack for _, st in sorted(table.seats.items())}
    return out


def run_scenario(sc: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play a scenario; returns (output, hand records).  Bad input or an illegal action raises
    :class:`~poker51.errors.InputError` naming the hand and the action (and the article)."""
    table = _table(validate(sc))
    start_total = table.total_chips()
    added = 0
    hands = sc["hands"]
    out_hands, records = [], []
    for k, hand in enumerate(hands):
        n = k + 1
        where = f"hand {n}"
        try:
            deck = None
            if "deck" in hand and "seed" in hand:
                raise InputError("give a deck or a seed, not both")
            if "deck" in hand:
                deck = parse_cards(" ".join(str(c) for c in hand["deck"]))
            seed = None if deck is not None else _seed(hand, sc.get("seed"), n, "seed", where)
            if deck is None and seed is None:
                raise InputError("give a deck, a seed, or a scenario seed")
            rot = None
            if table.game_name == RANDOM and (n - 1) % RANDOM_BLOCK == 0:
                rot = _seed(hand, sc.get("seed"), (n - 1) // RANDOM_BLOCK + 1, "rotation_seed", where)
            table.start_hand(deck=deck, seed=seed, rotation_seed=rot)
            for j, entry in enumerate(hand.get("actions", [])):
                name, kind, arg = _action(entry, f"actions[{j}]")
                if kind in TABLE_ACTIONS:
                    if kind == "add":
                        added += arg
                    table.table_action(name, kind, arg)
                else:
                    table.act(name, kind, arg)
            waiting = table.waiting_for
            if waiting is not None and table.hand is not None and table.hand.phase in ("bet", "lay"):
                raise InputError(f"the script ends while the hand waits for {waiting}")
            rec = table.finish()
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None
        records.append(rec)
        out_hands.append(_public(rec, table))
    final = {st.name: st.stack for _, st in sorted(table.seats.items())}
    output = {
        "game": sc["game"],
        "hands": out_hands,
        "final": final,
        "left": dict(table.balances),
        "rake": table.rake_total,
        "conserved": table.total_chips() == start_total + added and all(h["conserved"] for h in out_hands),
    }
    return output, records
