"""Hand logs and their check (Article IX): every shuffle reproduced from its published seed.

A log is JSON lines.  Before a hand's first card the table publishes
``{"type": "commit", "hand": n, "commitment": sha256(seed)}`` (9.2), and for a Random block
``{"type": "commit", "hand": n, "rotation_commitment": ...}``; when the hand is over it
writes the hand's record ``{"type": "hand", ...}`` (:meth:`poker51.rulebook.table.Table.finish`)
with the seed (9.3), every card dealt (hole cards, burns, boards), the actions, shows and
mucks (5.4), pots, rake and stacks: the log is the record (9.5).

:func:`check_log` re-deals every committed hand: ``SHA-256(seed)`` must equal the
commitment published before the hand, and :func:`poker51.table.deal.shuffle` of the 52 cards by
the seed, dealt by the rule (:func:`deal_order`), must give exactly the recorded hole cards,
burns and boards.  A Random block's game must be :func:`~poker51.rulebook.table.draw_game`
of its seed.  Hands dealt from a scripted deck carry no seed and are reported as such.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from poker51.cards import card_str
from poker51.errors import InputError
from poker51.rulebook.games import GAMES
from poker51.rulebook.table import draw_game
from poker51.table.deal import seed_commitment, shuffle
from poker51.table.log import RULEBOOK
from poker51.table.log import read_log as read_records

__all__ = ["check_log", "deal_order", "read_log", "write_log"]


def deal_order(game_name: str, names: list[str], streets: int) -> list[tuple[str, str]]:
    """What each card of the deck becomes, in order: ``("hole", name)``, ``("burn", "")`` or
    ``("board", "0")`` (board index), for ``streets`` streets dealt (0 to 3).

    Hole cards one at a time from the seat left of the button (``names`` in that order);
    then per street a burn (none in 3 Sets) and the street's cards for each board.

    >>> deal_order("holdem", ["a", "b"], 1)[:6]
    [('hole', 'a'), ('hole', 'b'), ('hole', 'a'), ('hole', 'b'), ('burn', ''), ('board', '0')]
    """
    g = GAMES[game_name]
    out = [("hole", n) for _ in range(g.hole) for n in names]
    for street in range(streets):
        if g.burns:
            out.append(("burn", ""))
        for b in range(g.boards):
            out += [("board", str(b))] * (3 if street == 0 else 1)
    return out


def write_log(records: list[dict[str, Any]], path: str | Path) -> Path:
    """Write hand records as a log: each hand's commitment line, then its record."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    for rec in records:
        commit: dict[str, Any] = {"type": "commit", "hand": rec["hand"]}
        if "commitment" in rec:
            commit["commitment"] = rec["commitment"]
        if "rotation" in rec:
            commit["rotation_commitment"] = rec["rotation"]["commitment"]
        lines.append(json.dumps(commit, sort_keys=True))
        lines.append(json.dumps({"type": "hand", **rec}, sort_keys=True))
    path.write_text("\n".join(lines) + "\n")
    return path


def read_log(path: str | Path) -> list[dict[str, Any]]:
    """A log's lines, by the floor's reader (:func:`poker51.table.log.read_log`, format
    ``rulebook``); an unreadable file or line is a :class:`~poker51.table.errors.LogError`
    (an :class:`~poker51.errors.InputError`) naming the file and the line."""
    return read_records(path, expect=RULEBOOK)


def _check_hand(rec: dict[str, Any], commit: dict[str, Any] | None, previous_game: str | None) -> list[str]:
    problems = []
    if "rotation" in rec:
        rot = rec["rotation"]
        seed = bytes.fromhex(rot["seed"])
        if commit is None or commit.get("rotation_commitment") != seed_commitment(seed):
            problems.append("the Random block's seed does not match the commitment published before it")
        drawn, candidates = draw_game(seed, previous_game)
        if drawn != rot["game"] or candidates != rot["candidates"] or rec["game"] != drawn:
            problems.append(f"the Random draw gives {drawn}, the log says {rot['game']}")
    if rec.get("deck_source") != "seed":
        return problems
    seed = bytes.fromhex(rec["seed"])
    if commit is None or commit.get("commitment") != rec.get("commitment"):
        problems.append("no commitment was published before the hand")
    if seed_commitment(seed) != rec.get("commitment"):
        problems.append("SHA-256 of the seed differs from the commitment (9.2)")
    deck = shuffle(seed, range(52))
    names = [s["name"] for s in rec["seats"]]
    streets = {0: 0, 3: 1, 4: 2, 5: 3}.get(len(rec["boards"][0]), -1)
    if streets < 0:
        return problems + [f"a board of {len(rec['boards'][0])} cards"]
    hole: dict[str, list[str]] = {n: [] for n in names}
    burns: list[str] = []
    boards: list[list[str]] = [[] for _ in rec["boards"]]
    order = deal_order(rec["game"], names, streets)
    for card, (kind, who) in zip(deck, order):
        if kind == "hole":
            hole[who].append(card_str(card))
        elif kind == "burn":
            burns.append(card_str(card))
        else:
            boards[int(who)].append(card_str(card))
    if hole != rec["hole"]:
        problems.append("hole cards differ from the shuffle (9.3)")
    if burns != rec["burns"]:
        problems.append("burn cards differ from the shuffle (9.3)")
    if boards != rec["boards"]:
        problems.append("board cards differ from the shuffle (9.3)")
    if len(order) != rec.get("cards_dealt"):
        problems.append(f"{rec.get('cards_dealt')} cards dealt, the rule deals {len(order)}")
    return problems


def check_log(path: str | Path) -> dict[str, Any]:
    """Check every hand of a log; ``{"hands", "checked", "scripted", "failed": [{"hand", "problems"}]}``."""
    lines = read_log(path)
    commits: dict[int, dict[str, Any]] = {}
    report: dict[str, Any] = {"hands": 0, "checked": 0, "scripted": 0, "failed": []}
    previous_game: str | None = None
    for k, obj in enumerate(lines, 1):
        if obj["type"] == "commit":
            commits[int(obj["hand"])] = obj
            continue
        report["hands"] += 1
        try:
            problems = _check_hand(obj, commits.get(int(obj["hand"])), previous_game)
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{path}: line {k}: a hand record lacks or garbles {exc}") from None
        if "rotation" in obj:
            previous_game = obj["rotation"]["game"]
        if obj.get("deck_source") == "seed":
            report["checked"] += 1
        else:
            report["scripted"] += 1
        if problems:
            report["failed"].append({"hand": obj["hand"], "problems": problems})
    return report
