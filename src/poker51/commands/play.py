"""``poker51 play``: a person plays heads-up Poker 51 against Riemann in the terminal.

Examples::

    poker51 play --variant standard --tables results/tables
    poker51 play --variant wild --tables results/tables --seed 7 --stack 30 --hands 5

Cards are shown as ``Ah`` (ace of hearts) ``Td`` (ten of diamonds) ...; legal actions are
offered by number; ``q`` quits.  Riemann's action, both draw counts and, at the end of each
hand, both hands and the whole deck are shown.  Hand ``i`` is dealt from the engine's
seeded deck ``[seed, i]``; balances carry over between hands.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from typing import TextIO

HELP = "play heads-up against Riemann v0.6 in the terminal"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default="standard", help="standard (default), wild or bug")
    parser.add_argument(
        "--tables", required=True, metavar="DIR", help="directory holding riemann-v06-{variant}.parquet"
    )
    parser.add_argument("--seed", type=int, default=None, help="deck seed (default: a random one, printed)")
    parser.add_argument("--stack", type=int, default=20, help="starting balance of each player (default 20)")
    parser.add_argument("--hands", type=int, default=0, help="stop after this many hands (default 0: until q)")
    parser.add_argument(
        "--abstraction",
        default=None,
        metavar="DIR",
        help="abstraction tables {DIR}/{variant}/classes.parquet and buckets.parquet "
        "(default: recomputed, a few seconds)",
    )
    parser.add_argument("--receipt", default=None, metavar="FILE", help="check the table's SHA-256 against it")


def label(a) -> str:
    """An action as a person reads it: ``check``, ``fold``, ``bet 4``, ``call 2``, ``raise 8``."""
    return a.kind if a.kind in ("check", "fold") else f"{a.kind} {a.amount}"


class Quit(Exception):
    """The person typed q (or the input ended)."""


def _cards(cards) -> str:
    from poker51.cards import card_str

    return " ".join(card_str(c) for c in cards)


class TerminalPlayer:
    """Seat H driven by a person through text streams."""

    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp, self.out = inp, out
        self.shown_draw = False

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str:
        self.say(prompt)
        print("> ", end="", file=self.out, flush=True)
        line = self.inp.readline()
        if not line:
            raise Quit
        text = line.strip().lower()
        if text in ("q", "quit", "exit"):
            raise Quit
        return text

    def choose_keep(self, view) -> int:
        self.say("Your cards: " + "  ".join(f"{i + 1}:{c}" for i, c in enumerate(_cards(view.cards).split())))
        while True:
            text = self.ask('Keep which cards? Numbers 1-5 (e.g. "1 4"), "all" or "none":')
            if text == "all":
                mask = 31
            elif text == "none":
                mask = 0
            else:
                try:
                    picks = {int(t) for t in text.replace(",", " ").split()}
                except ValueError:
                    picks = {0}
                if not picks <= {1, 2, 3, 4, 5} or not picks:
                    self.say("  Please give card numbers 1-5, all or none.")
                    continue
                mask = sum(1 << (i - 1) for i in picks)
            kept = [c for i, c in enumerate(view.cards) if mask >> i & 1]
            self.say(f"You keep {_cards(kept) or 'nothing'}: you will draw {5 - len(kept)}.")
            return mask

    def act(self, view, legal):
        if view.phase == "post" and not self.shown_draw:
            self.shown_draw = True
            self.say(f"Draw: you drew {view.draw_count}, Riemann drew {view.opp_draw_count}.")
            self.say(f"Your cards: {_cards(view.cards)}")
        self.say(
            f"[{'before' if view.phase == 'pre' else 'after'} the draw] pot {view.pot}, "
            f"you have {view.stack}, Riemann {view.opp_stack}, to call {view.to_call}"
        )
        menu = "  ".join(f"{i + 1}) {label(a)}" for i, a in enumerate(legal))
        while True:
            text = self.ask(f"Your choice: {menu}")
            if text.isdigit() and 1 <= int(text) <= len(legal):
                a = legal[int(text) - 1]
                self.say(f"You {label(a)}.")
                return a
            self.say(f"  Please give a number 1-{len(legal)}.")


class AnnouncedRiemann:
    """Riemann, printing each of its actions."""

    def __init__(self, riemann, say) -> None:
        self.riemann, self.say = riemann, say

    def choose_keep(self, view) -> int:
        return self.riemann.choose_keep(view)

    def act(self, view, legal):
        a = self.riemann.act(view, legal)
        self.say(f"Riemann: {label(a)}.")
        return a


def summary(log: str, shown_draw: bool) -> list[str]:
    """The end of a hand, from its log: draw counts, hands, result and the whole deck."""
    ev = [json.loads(x) for x in log.splitlines()]
    out = []
    draws = {e["seat"]: e for e in ev if e["event"] == "draw"}
    if draws and not shown_draw:
        out.append(f"Draw: you drew {draws['H']['count']}, Riemann drew {draws['R']['count']}.")
    res = ev[-1]
    show = next((e for e in ev if e["event"] == "showdown"), None)
    if show is not None:
        out.append(
            f"Showdown: you {' '.join(show['H']['hand'])} ({show['H']['category'].replace('_', ' ')}), "
            f"Riemann {' '.join(show['R']['hand'])} ({show['R']['category'].replace('_', ' ')})."
        )
    else:
        out.append(f"Riemann's cards: {' '.join(res['hands']['R'])}.")
    who = {"H": "You win", "R": "Riemann wins", None: "Split pot"}[res["winner"]]
    out.append(
        f"{who} ({res['reason']}): your net {res['net']['H']:+d}. "
        f"Balances: you {res['stacks']['H']}, Riemann {res['stacks']['R']}."
    )
    out.append("Deck: " + " ".join(ev[0]["deck"]))
    return out


def run(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    from poker51.errors import InputError
    from poker51.export.schema import table_path
    from poker51.io import TableError
    from poker51.play.actions import Player
    from poker51.play.engine import play_hand
    from poker51.policies.riemann import Riemann
    from poker51.rules import ANTE, VARIANT_RULES

    inp, out = stdin or sys.stdin, stdout or sys.stdout
    if args.variant not in VARIANT_RULES:
        raise InputError(f"unknown variant {args.variant!r}; expected one of {sorted(VARIANT_RULES)}")
    if args.stack < ANTE or args.hands < 0:
        raise InputError(f"--stack must be at least {ANTE} and --hands at least 0")
    classes = buckets = None
    if args.abstraction is not None:
        from pathlib import Path

        classes = Path(args.abstraction) / args.variant / "classes.parquet"
        buckets = Path(args.abstraction) / args.variant / "buckets.parquet"
    try:
        riemann = Riemann.load(
            table_path(args.tables, args.variant),
            receipt=args.receipt,
            classes=classes,
            buckets=buckets,
            variant=args.variant,
        )
    except TableError as exc:
        raise InputError(str(exc)) from None
    seed = secrets.randbits(31) if args.seed is None else int(args.seed)
    human = TerminalPlayer(inp, out)
    players: dict[str, Player] = {"H": human, "R": AnnouncedRiemann(riemann, human.say)}
    stacks = {"H": args.stack, "R": args.stack}
    human.say(
        f"Poker 51 ({args.variant}) against Riemann v0.6, seed {seed} (replay with --seed {seed}). Type q to quit."
    )
    i = 0
    try:
        while min(stacks.values()) >= ANTE and (args.hands == 0 or i < args.hands):
            human.say(f"\n=== Hand {i + 1}: you {stacks['H']}, Riemann {stacks['R']}; both ante {ANTE} ===")
            human.shown_draw = False
            res = play_hand(players, stacks=stacks, variant=args.variant, base_seed=seed, hand_index=i)
            for line in summary(res.log, human.shown_draw):
                human.say(line)
            stacks = dict(res.stacks_after)
            i += 1
    except Quit:
        human.say("Goodbye.")
        return 0
    if min(stacks.values()) < ANTE:
        human.say("A player cannot ante: the match is over.")
    return 0
