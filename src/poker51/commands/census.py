"""``poker51 census``: exact category counts of one deck.

Examples::

    poker51 census --deck wild
    poker51 census --remove 5h,Ks --json
    poker51 census --marker Ah --rule bug --out bug_ah.parquet
"""

from __future__ import annotations

import argparse
import json

HELP = "exact category counts of every five-card hand of a deck (named, with cards removed, or a marker rule)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--deck",
        default=None,
        metavar="NAME",
        help="named deck: full52, standard, wild, bug, suit_two, club_any (default full52)",
    )
    parser.add_argument("--remove", default="", metavar="CARDS", help="cards to take out, e.g. 5h,Ks")
    parser.add_argument("--marker", default=None, metavar="CARD", help="the marker card (default 2c)")
    parser.add_argument(
        "--rule", default=None, metavar="RULE", help="how the marker reads: ordinary, wild, bug, suit_two, club_any"
    )
    parser.add_argument("--json", action="store_true", help="print the counts as one JSON object")
    parser.add_argument("--out", default=None, metavar="FILE.parquet", help="also write the counts table")


def run(args: argparse.Namespace) -> int:
    from poker51.census.count import STANDARD_ORDER, census, counts_frame
    from poker51.census.decks import make_deck
    from poker51.errors import InputError
    from poker51.hands.evaluate import CATEGORIES
    from poker51.io import write_parquet

    deck = make_deck(args.deck or "full52", remove=args.remove or (), marker=args.marker, rule=args.rule)
    if args.out is not None and not str(args.out).endswith(".parquet"):
        raise InputError(f"--out {args.out!r}: expected a .parquet file name")
    res = census(deck)
    total = res.category_counts()
    if args.json:
        print(
            json.dumps(
                {
                    "deck": deck.name,
                    "hands": res.hands,
                    "counts": {CATEGORIES[c]: int(total[c]) for c in STANDARD_ORDER},
                    "with_marker": {CATEGORIES[c]: int(res.counts[1, c]) for c in STANDARD_ORDER},
                }
            )
        )
    else:
        print(deck.describe())
        print(f"{'category':<16}{'count':>12}{'with marker':>13}{'probability':>14}")
        for c in STANDARD_ORDER:
            print(f"{CATEGORIES[c]:<16}{int(total[c]):>12,}{int(res.counts[1, c]):>13,}{total[c] / res.hands:>14.8f}")
        print(f"{'all hands':<16}{res.hands:>12,}{int(res.counts[1].sum()):>13,}{1:>14.8f}")
    if args.out is not None:
        write_parquet(counts_frame([res]), args.out, metadata={"deck": deck.describe()})
    return 0
