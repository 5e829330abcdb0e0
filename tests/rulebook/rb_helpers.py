"""Helpers for the rule book table tests: scripted decks and short tables."""

from __future__ import annotations

from poker51.cards import parse_cards
from poker51.rulebook.games import GAMES
from poker51.rulebook.table import Table

FILLER = "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad".split()


def deck(game: str, holes: list[str], board: str | list[str], burns: str = "") -> list[int]:
    """Deal order of a hand: ``holes`` per player (clockwise from left of the button), one card
    at a time; then per street a burn (from ``burns`` or unused filler cards) and the board.

    ``board`` is one board ("As Kd 7c 2h 9s") or, for 3 Sets, three boards.
    """
    g = GAMES[game]
    hole_cards = [parse_cards(h) for h in holes]
    boards = [parse_cards(b) for b in ([board] if isinstance(board, str) else board)]
    used = {c for h in hole_cards for c in h} | {c for b in boards for c in b}
    spare = [c for c in parse_cards(" ".join(FILLER)) if c not in used]
    burn = parse_cards(burns) if burns else spare[:3]
    out = [h[k] for k in range(g.hole) for h in hole_cards]
    streets = [(0, 3), (3, 4), (4, 5)]
    for s, (lo, hi) in enumerate(streets):
        if g.burns:
            out.append(burn[s])
        for b in boards:
            out += b[lo:hi]
    return out


def table(game: str, stacks: list[int], bb: int = 2, button: int = 0, rake: bool = True) -> Table:
    """Seats 0.. with players a, b, c, ... and the given stacks."""
    names = "abcdefghi"
    return Table(game, bb, [(s, names[s], st) for s, st in enumerate(stacks)], button=button, rake=rake)


def play(t: Table, script: list[tuple]) -> None:
    """Play ``(name, action[, argument])`` entries; table actions go to ``table_action``."""
    for entry in script:
        name, kind, *arg = entry
        a = arg[0] if arg else None
        if kind in ("sit_out", "sit_in", "add", "leave", "advance"):
            t.table_action(name, kind, a)
        else:
            t.act(name, kind, a)
