"""Poker Hand History (PHH, the TOML format PokerKit reads and writes) of a hand record.

PHH (``github.com/uoftcprg/phh-std``) names eleven variants; no-limit Texas hold'em is
``NT``.  It has no code for no-limit Omaha: the specification says new variants are added
by new codes, and this module writes ``NO`` (OG Omaha, 2 of 4 with 3), ``NO5`` (2 of 5),
``NO3`` (3 of 4 with 2) and ``NOF`` (Open Flop: antes, hole cards and flop at once, no
round before the flop), each with the field ``_poker51_game``.  A reader registers the
codes (``docs/rulebook.md`` shows PokerKit's three lines).  3 Sets has no PHH form.

Players ``p1 .. pN`` are the players dealt in, clockwise from the seat left of the button
(the small blind first, the button last).  Heads-up, PHH reverses the forced bets, so
``blinds_or_straddles = [big, small]`` makes ``p1`` (the seat left of the button) post the
small blind, as rule 1.3 says.  ``ante_trimming_status = true``: a short ante wins only what
it matched (4.2).  Burn cards are never shown (2.3) and are not written.  The showdown
(``sm``) comes at the end, or, when at most one player still in has chips behind, right after
the last betting action ("after all players go all-in": PokerKit deals that run-out after
the hands are shown).  Rake is not a PHH field: ``_rake_percent`` and ``_rake_cap`` record
Article X (per pot), and ``winnings`` are after the rake.

>>> from poker51.rulebook.games import GAMES
>>> sorted(g.phh for g in GAMES.values() if g.phh)
['NO', 'NO3', 'NO5', 'NOF', 'NT']
"""

from __future__ import annotations

from typing import Any

from poker51.rulebook.games import GAMES, RAKE_CAP_BIG_BLINDS, RAKE_PERCENT

__all__ = ["phh_actions", "phh_of_record"]


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return "'" + value.replace("'", "") + "'"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")


def phh_actions(rec: dict[str, Any]) -> list[str] | None:
    """The PHH ``actions`` of a hand record, or None if PHH cannot express the hand (a player
    leaving out of turn)."""
    names = [s["name"] for s in rec["seats"]]
    label = {n: f"p{k + 1}" for k, n in enumerate(names)}
    actions: list[str] = []
    last_action = -1
    first_street_end = -1
    ante = GAMES[rec["game"]].ante
    for ev in rec["events"]:
        kind = ev["event"]
        if kind == "hole":
            actions.append(f"d dh {label[ev['player']]} {''.join(ev['cards'])}")
            first_street_end = len(actions)
        elif kind == "board":
            actions.append(f"d db {''.join(ev['cards'])}")
            if ante and ev["street"] == "flop":
                first_street_end = len(actions)
        elif kind == "action":
            a = ev["action"]
            code = {"fold": "f", "check": "cc", "call": "cc"}.get(a, f"cbr {ev.get('to')}")
            note = " # timeout" if ev.get("timeout") else (f" # advance {ev['advance']}" if "advance" in ev else "")
            actions.append(f"{label[ev['player']]} {code}{note}")
            last_action = len(actions)
        elif kind == "leave":
            return None
    if rec["shows"]:
        start = {s["name"]: s["stack"] for s in rec["seats"]}
        with_chips = sum(start[s["player"]] > rec["contributions"][s["player"]] for s in rec["shows"])
        at = len(actions) if with_chips > 1 else (last_action if last_action >= 0 else first_street_end)
        actions[at:at] = [
            f"{label[s['player']]} sm {''.join(s['cards'])}" if s["shown"] else f"{label[s['player']]} sm"
            for s in rec["shows"]
        ]
    return actions


def phh_of_record(rec: dict[str, Any]) -> str | None:
    """The PHH text of a hand record (``Table.finish``), or None where PHH has no form for it."""
    g = GAMES[rec["game"]]
    if g.phh is None:
        return None
    actions = phh_actions(rec)
    if actions is None:
        return None
    n = len(rec["seats"])
    bb = int(rec["big_blind"])
    if g.ante:
        blinds = [0] * n
    elif n == 2:
        blinds = [bb, bb // 2]
    else:
        blinds = [bb // 2, bb] + [0] * (n - 2)
    names = [s["name"] for s in rec["seats"]]
    winnings = [sum(p["shares"].get(name, 0) for p in rec["pots"]) for name in names]
    fields: list[tuple[str, Any]] = [
        ("variant", g.phh),
        ("ante_trimming_status", True),
        ("antes", [bb if g.ante else 0] * n),
        ("blinds_or_straddles", blinds),
        ("min_bet", bb),
        ("starting_stacks", [int(s["stack"]) for s in rec["seats"]]),
        ("actions", actions),
        ("hand", int(rec["hand"])),
        ("players", names),
        ("finishing_stacks", [int(rec["stacks"][name]) for name in names]),
        ("winnings", winnings),
        ("_poker51_game", g.name),
    ]
    if rec.get("rake_rule"):
        fields += [("_rake_percent", RAKE_PERCENT), ("_rake_cap", RAKE_CAP_BIG_BLINDS * bb)]
    return "".join(f"{k} = {_toml(v)}\n" for k, v in fields)
