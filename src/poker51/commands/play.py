"""``poker51 play``: a person plays heads-up Poker 51 against Riemann in the terminal.

Examples::

    poker51 play --variant standard --tables results/tables
    poker51 play --variant wild --tables results/tables --seed 7 --stack 30 --hands 5

Cards are shown as ``Ah`` (ace of hearts) ``Td`` (ten of diamonds) ..., with the hand's
category when dealt and after the draw; legal actions are offered by number, or typed as words
(``c`` checks or calls, ``f`` folds, ``bet 8``, ``r`` or ``raise 4``: a raise is always said
as "raise by N", what it adds on top of the call); ``q`` quits and prints the session's total.
Riemann's action, both draw counts and, at the end of each hand, both hands and the whole deck
are shown.  Hand ``i`` is dealt from the engine's seeded deck ``[seed, i]``; balances carry
over between hands.  ``--save FILE`` appends each finished hand's engine log (JSON lines,
:mod:`poker51.play.engine`; ``poker51.play.engine.replay`` rebuilds it) to ``FILE``; Poker
Hand History cannot say a 51-card deck or the marker's rule, so no PHH is written.
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
    parser.add_argument(
        "--save", default=None, metavar="FILE", help="append each hand's engine log (JSON lines) to FILE, e.g. "
        "results/hands.jsonl; an existing FILE needs --force"
    )  # fmt: skip
    parser.add_argument("--force", action="store_true", help="let --save replace an existing file")


def label(a, to_call: int | None = None) -> str:
    """An action as a person reads it: ``check``, ``fold``, ``bet 4``, ``call 2``, and a raise
    by what it adds on top of the call (``to_call``), with what it puts in.

    >>> from poker51.play.actions import Action
    >>> label(Action("raise", 6), to_call=2), label(Action("bet", 4))
    ('raise by 4 (puts in 6)', 'bet 4')
    """
    if a.kind in ("check", "fold"):
        return a.kind
    if a.kind == "raise" and to_call is not None:
        return f"raise by {a.amount - to_call} (puts in {a.amount})"
    return f"{a.kind} {a.amount}"


def hand_category(cards, variant: str) -> str:
    """The category of a five-card hand under the variant's marker rule, in words.

    >>> from poker51.cards import parse_card
    >>> hand_category([parse_card(c) for c in "As Ad 7c 7h 2d".split()], "standard")
    'two pair'
    """
    from poker51.hands.pure import CATEGORIES, pure_strength
    from poker51.rules import VARIANT_RULES

    return CATEGORIES[pure_strength([int(c) for c in cards], VARIANT_RULES[variant]) >> 20].replace("_", " ")


def read_action(text: str, legal, to_call: int):
    """The legal action a person typed: its number in the menu, or words: ``c`` (check, or call
    when facing a bet), ``k``/``x``/``check``, ``call``, ``f``/``fold``, ``b``/``bet N``, ``r``/``raise N``
    (N: by how much, on top of the call); None when it names no legal action.

    >>> from poker51.play.actions import Action
    >>> legal = [Action("fold"), Action("call", 2), Action("raise", 4), Action("raise", 6)]
    >>> [str(read_action(t, legal, 2)) for t in ("2", "c", "f", "raise 4", "r", "bet 8", "9")]
    ['call 2', 'call 2', 'fold', 'raise 6', 'None', 'None', 'None']
    """
    if text.isdigit():
        return legal[int(text) - 1] if 1 <= int(text) <= len(legal) else None
    words = text.replace(",", " ").split()
    if not words:
        return None
    kinds = {a.kind for a in legal}
    word = {"c": "check" if "check" in kinds else "call", "k": "check", "x": "check", "f": "fold", "b": "bet",
            "r": "raise"}.get(words[0], words[0])  # fmt: skip
    same = [a for a in legal if a.kind == word]
    if len(words) == 1:
        return same[0] if len(same) == 1 else None
    if len(words) != 2 or not words[1].isdigit():
        return None
    n = int(words[1])
    for a in same:
        if (a.amount - to_call if a.kind == "raise" else a.amount) == n:
            return a
    return None


class Quit(Exception):
    """The person typed q (or the input ended)."""


def _cards(cards) -> str:
    from poker51.cards import card_str

    return " ".join(card_str(c) for c in cards)


class TerminalPlayer:
    """Seat H driven by a person through text streams."""

    def __init__(self, inp: TextIO, out: TextIO, variant: str = "standard") -> None:
        self.inp, self.out, self.variant = inp, out, variant
        self.shown_draw = False
        self.explained_keep = False

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
        if not self.explained_keep:
            self.explained_keep = True
            self.say(
                "The draw: say now which of your five cards you keep; the others are replaced from the deck "
                "after this betting round (Riemann keeps by the House rule). Both draw counts are then shown."
            )
        dealt = "  ".join(f"{i + 1}:{c}" for i, c in enumerate(_cards(view.cards).split()))
        self.say(f"Your cards: {dealt}  ({hand_category(view.cards, self.variant)})")
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
            self.say(f"Your cards: {_cards(view.cards)}  ({hand_category(view.cards, self.variant)})")
        self.say(
            f"[{'before' if view.phase == 'pre' else 'after'} the draw] pot {view.pot}, "
            f"you have {view.stack}, Riemann {view.opp_stack}, to call {view.to_call}"
        )
        menu = "  ".join(f"{i + 1}) {label(a, view.to_call)}" for i, a in enumerate(legal))
        while True:
            text = self.ask(f"Your choice: {menu}")
            a = read_action(text, legal, view.to_call)
            if a is not None:
                self.say(f"You {label(a, view.to_call)}.")
                return a
            self.say(f'  Please give a number 1-{len(legal)}, or words: "c" check/call, "f" fold, "bet 4", "raise 4".')


class AnnouncedRiemann:
    """Riemann, printing each of its actions."""

    def __init__(self, riemann, say) -> None:
        self.riemann, self.say = riemann, say

    def choose_keep(self, view) -> int:
        return self.riemann.choose_keep(view)

    def act(self, view, legal):
        a = self.riemann.act(view, legal)
        self.say(f"Riemann: {label(a, view.to_call)}.")
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
    save = _save_path(args.save, args.force)
    seed = secrets.randbits(31) if args.seed is None else int(args.seed)
    human = TerminalPlayer(inp, out, args.variant)
    players: dict[str, Player] = {"H": human, "R": AnnouncedRiemann(riemann, human.say)}
    stacks = {"H": args.stack, "R": args.stack}
    human.say(
        f"Poker 51 ({args.variant}) against Riemann v0.6, seed {seed} (replay with --seed {seed}). Type q to quit."
    )
    i = 0
    if save is not None:
        save.write_text("")  # the hands are appended as they finish: a quit keeps every one played
    try:
        while min(stacks.values()) >= ANTE and (args.hands == 0 or i < args.hands):
            human.say(f"\n=== Hand {i + 1}: you {stacks['H']}, Riemann {stacks['R']}; both ante {ANTE} ===")
            human.shown_draw = False
            res = play_hand(players, stacks=stacks, variant=args.variant, base_seed=seed, hand_index=i)
            for line in summary(res.log, human.shown_draw):
                human.say(line)
            stacks = dict(res.stacks_after)
            i += 1
            if save is not None:
                with save.open("a", encoding="utf-8") as f:
                    f.write(res.log if res.log.endswith("\n") else res.log + "\n")
    except Quit:
        human.say(session_total(i, stacks["H"] - args.stack, save))
        human.say("Goodbye.")
        return 0
    if min(stacks.values()) < ANTE:
        human.say("A player cannot ante: the match is over.")
    human.say(session_total(i, stacks["H"] - args.stack, save))
    return 0


def session_total(hands: int, net: int, save=None) -> str:
    """The line a session ends with.

    >>> session_total(3, -2)
    'Session: 3 hands, your net -2 jbits.'
    """
    line = f"Session: {hands} hand{'' if hands == 1 else 's'}, your net {net:+d} jbits."
    return line + (f" The hands' logs are in {save}." if save is not None and hands else "")


def _save_path(save: str | None, force: bool):
    """``--save`` as a path, refused (bad input) when it is a directory, or an existing file
    without ``--force``."""
    from pathlib import Path

    from poker51.errors import InputError

    if save is None:
        return None
    p = Path(save)
    if p.is_dir():
        raise InputError(f"--save {save}: is a directory; give a file name")
    if p.exists() and not force:
        raise InputError(f"--save {save}: exists; give --force to replace it")
    p.parent.mkdir(parents=True, exist_ok=True)
    return p
