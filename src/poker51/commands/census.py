"""``poker51 census``: exact category counts of one deck.

Examples::

    poker51 census --deck wild
    poker51 census --remove 5h,Ks --json
    poker51 census --marker Ah --rule bug --out results/bug_ah.parquet
    poker51 census --game omaha --json                      # the rule book's games (poker51.rulebook)
    poker51 census --game omaha5 --samples 1000000 --seed 1 # a seeded estimate with 95% intervals

A rule book game's census shows a progress bar when stderr is a terminal (not with --json).
"""

from __future__ import annotations

import argparse
import json
import sys

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
    parser.add_argument(
        "--game",
        default=None,
        metavar="GAME",
        help="a rule book game instead of a deck: holdem (all 7-card sets), omaha, omaha5, omaha3 (every deal)",
    )
    parser.add_argument(
        "--samples", type=int, default=None, metavar="N", help="with --game: a seeded estimate from N deals"
    )
    parser.add_argument("--seed", type=int, default=None, metavar="S", help="with --samples: the seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print the counts as one JSON object")
    parser.add_argument(
        "--out", default=None, metavar="FILE.parquet", help="also write the counts table (not over a file)"
    )
    parser.add_argument("--force", action="store_true", help="let --out replace an existing file")


def _run_game(args: argparse.Namespace) -> int:
    """``--game``: a rule book game's census (:func:`poker51.rulebook.estimate.game_census`)."""
    from poker51.errors import InputError
    from poker51.rulebook.estimate import game_census

    if args.deck or args.remove or args.marker or args.rule or args.out:
        raise InputError("--game counts a rule book game: it takes no --deck, --remove, --marker, --rule or --out")
    if args.samples is not None and args.samples < 1:
        raise InputError(f"--samples {args.samples}: at least 1")
    if args.seed is not None and args.samples is None:
        raise InputError("--seed goes with --samples (an exact census has no seed)")
    if args.seed is not None and args.seed < 0:
        raise InputError(f"--seed {args.seed}: a seed is a non-negative integer")
    method = "exact" if args.samples is None else "estimate"
    seed = 0 if args.seed is None else args.seed
    res = game_census(args.game, method, args.samples, seed, progress=not args.json and sys.stderr.isatty())
    if args.json:
        print(json.dumps(res.to_json()))
        return 0
    kind = "exact, every deal" if res.exact else f"estimate from {res.hands:,} seeded deals (seed {res.seed})"
    print(f"{args.game}: {res.hands:,} hands ({kind})")
    print(f"{'category':<16}{'count':>18}{'probability':>14}" + ("" if res.exact else f"{'95% interval':>26}"))
    for name, n in res.counts.items():
        line = f"{name:<16}{n:>18,}{n / res.hands:>14.8f}"
        if res.ci95 is not None:
            lo, hi = res.ci95[name]
            line += f"   [{lo:.8f}, {hi:.8f}]"
        print(line)
    return 0


def run(args: argparse.Namespace) -> int:
    from poker51.census.count import STANDARD_ORDER, census, counts_frame
    from poker51.census.decks import make_deck
    from poker51.commands import check_new_file
    from poker51.errors import InputError
    from poker51.hands.evaluate import CATEGORIES
    from poker51.io import write_parquet

    if args.game is not None:
        return _run_game(args)
    if args.samples is not None or args.seed is not None:
        raise InputError("--samples and --seed go with --game")
    if args.marker is not None and len(cards := [c for c in args.marker.split(",") if c.strip()]) != 1:
        raise InputError(f"--marker {args.marker}: one marker card is allowed, got {len(cards)}")

    deck = make_deck(args.deck or "full52", remove=args.remove or (), marker=args.marker, rule=args.rule)
    if args.out is not None and not str(args.out).endswith(".parquet"):
        raise InputError(f"--out {args.out!r}: expected a .parquet file name")
    check_new_file("--out", args.out, args.force)
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
