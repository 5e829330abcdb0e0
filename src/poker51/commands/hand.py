"""``poker51 hand``: read one hand of a rule book game (Articles VI and VII).

Examples::

    poker51 hand --game holdem --hole "As Kd" --board "Ah Kh 7c 2d 9s"
    poker51 hand --game omaha3 --hole As,Ks,Qs,2d --board Js,Ts,9h,3c,4d --json

The best five cards, the category (royal flush apart) and a strength that compares across
hands of the game (higher wins, equal splits).  A wrong number of cards or a repeated card
exits 2 naming it.
"""

from __future__ import annotations

import argparse
import json

HELP = "read one hand of Hold'em or an Omaha: the best five cards, the category and the strength"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True, metavar="GAME", help="holdem, omaha, omaha5, omaha3 or omaha_open")
    parser.add_argument("--hole", required=True, metavar="CARDS", help="the hole cards, e.g. 'As Kd' or As,Kd")
    parser.add_argument("--board", required=True, metavar="CARDS", help="the board: 3, 4 or 5 cards")
    parser.add_argument("--json", action="store_true", help="print one JSON object (best, category, strength)")


def run(args: argparse.Namespace) -> int:
    from poker51.cards import cards_str
    from poker51.errors import InputError
    from poker51.rulebook.games import CATEGORY_NAMES, GAMES, READ_GAMES
    from poker51.rulebook.reading import read_hand

    if args.game not in READ_GAMES:
        raise InputError(f"unknown game {args.game!r} (choose from {', '.join(READ_GAMES)})")
    r = read_hand(args.game, args.hole, args.board)
    if args.json:
        print(json.dumps(r.to_json()))
    else:
        print(f"{GAMES[args.game].title}: {cards_str(r.best)}  {CATEGORY_NAMES[r.category].replace('_', ' ')}")
        print(f"strength {r.strength} (higher wins; equal strengths split)")
    return 0
