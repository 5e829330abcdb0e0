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

import json
from pathlib import Path
from typing import Any

from poker51.cards import parse_card, parse_cards
from poker51.errors import InputError
from poker51.rulebook.games import GAMES, RANDOM, RANDOM_BLOCK
from poker51.rulebook.table import Table
from poker51.table.deal import new_seed

__all__ = ["BET_ACTIONS", "TABLE_ACTIONS", "load_scenario", "run_scenario"]

BET_ACTIONS = ("fold", "check", "call", "bet", "raise", "allin", "lay", "timeout", "show", "muck")
TABLE_ACTIONS = ("sit_out", "sit_in", "add", "leave", "advance")
_WITH_ARG = {"bet", "raise", "lay", "add", "advance"}
_KEYS = {"game", "blinds", "seats", "button", "rake", "seed", "hands"}


def load_scenario(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    try:
        obj = json.loads(path.read_text())
    except IsADirectoryError:
        raise InputError(f"{path}: cannot read the scenario (is a directory, not a file)") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read the scenario ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    if not isinstance(obj, dict):
        raise InputError(f"{path}: a scenario is a JSON object")
    return obj


def _int(value: Any, where: str, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise InputError(f"{where}: expected a whole number of at least {low}, got {value!r}")
    return value


def _table(sc: dict[str, Any]) -> Table:
    unknown = sorted(set(sc) - _KEYS)
    if unknown:
        raise InputError(f"scenario: unknown key {unknown[0]!r} (keys: {', '.join(sorted(_KEYS))})")
    for key in ("game", "blinds", "seats", "hands"):
        if key not in sc:
            raise InputError(f"scenario: missing key {key!r}")
    game = sc["game"]
    if game != RANDOM and game not in GAMES:
        raise InputError(f"scenario: unknown game {game!r} (choose from {', '.join([*GAMES, RANDOM])})")
    blinds = sc["blinds"]
    if not isinstance(blinds, list) or len(blinds) != 2:
        raise InputError("scenario: blinds is [small, big]")
    small, big = _int(blinds[0], "blinds[0]", 1), _int(blinds[1], "blinds[1]", 2)
    if 2 * small != big:
        raise InputError(f"scenario: blinds {blinds}: the small blind is half the big blind (1.4)")
    seats = sc["seats"]
    if not isinstance(seats, list) or not seats:
        raise InputError("scenario: seats is a non-empty list of {seat, name, stack}")
    entries = []
    for k, s in enumerate(seats):
        if not isinstance(s, dict) or set(s) != {"seat", "name", "stack"}:
            raise InputError(f"scenario: seats[{k}] needs exactly the keys seat, name, stack")
        if not isinstance(s["name"], str):
            raise InputError(f"scenario: seats[{k}].name is a string")
        entries.append((_int(s["seat"], f"seats[{k}].seat"), s["name"], _int(s["stack"], f"seats[{k}].stack")))
    rake = sc.get("rake", True)
    if not isinstance(rake, bool):
        raise InputError("scenario: rake is true or false")
    table = Table(game, big, entries, rake=rake)
    if "button" in sc:
        table.button = table.seat_of(sc["button"]) if isinstance(sc["button"], str) else -1
        if table.button < 0:
            raise InputError("scenario: button is a player's name")
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


def _action(entry: Any, where: str) -> tuple[str, str, Any]:
    if not isinstance(entry, list) or len(entry) not in (2, 3) or not all(isinstance(x, str) for x in entry[:2]):
        raise InputError(f"{where}: an action is [name, action] or [name, action, argument]")
    name, kind = entry[0], entry[1]
    if kind not in BET_ACTIONS + TABLE_ACTIONS:
        raise InputError(f"{where}: unknown action {kind!r} (choose from {', '.join(BET_ACTIONS + TABLE_ACTIONS)})")
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
    table = _table(sc)
    start_total = table.total_chips()
    added = 0
    hands = sc["hands"]
    if not isinstance(hands, list) or not hands:
        raise InputError("scenario: hands is a non-empty list")
    out_hands, records = [], []
    for k, hand in enumerate(hands):
        n = k + 1
        where = f"hand {n}"
        try:
            if not isinstance(hand, dict) or set(hand) - {"deck", "seed", "rotation_seed", "actions"}:
                raise InputError("a hand has the keys deck or seed, rotation_seed, actions")
            deck = None
            if "deck" in hand and "seed" in hand:
                raise InputError("give a deck or a seed, not both")
            if "deck" in hand:
                if not isinstance(hand["deck"], list):
                    raise InputError("deck is a list of cards")
                deck = parse_cards(" ".join(str(c) for c in hand["deck"]))
            seed = None if deck is not None else _seed(hand, sc.get("seed"), n, "seed", where)
            if deck is None and seed is None:
                raise InputError("give a deck, a seed, or a scenario seed")
            rot = None
            if table.game_name == RANDOM and (n - 1) % RANDOM_BLOCK == 0:
                rot = _seed(hand, sc.get("seed"), (n - 1) // RANDOM_BLOCK + 1, "rotation_seed", where)
            table.start_hand(deck=deck, seed=seed, rotation_seed=rot)
            actions = hand.get("actions", [])
            if not isinstance(actions, list):
                raise InputError("actions is a list")
            for j, entry in enumerate(actions):
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
