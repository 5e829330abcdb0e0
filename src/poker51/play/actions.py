"""What a heads-up hand is made of: seats, phases, actions, views, results, and the rules an
illegal action names (rule card v0.6, "A hand · two betting rounds"; :mod:`poker51.play.engine`
plays them).  :class:`IllegalAction`, :class:`ReplayError`, :func:`illegal` and :func:`log_text`
are the floor's (:mod:`poker51.table.errors`, :mod:`poker51.table.log`), named here too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, overload

from poker51.errors import InputError
from poker51.table.errors import IllegalAction, ReplayError, illegal
from poker51.table.log import HEADS_UP, log_text

H, R = "H", "R"
SEATS = (H, R)
LOG_FORMAT = HEADS_UP
PRE, DRAW, POST, DONE = "pre", "draw", "post", "done"

# The rules an IllegalAction names.
RULE_ANTE = "rule card, A hand 1: each player antes 1 jbit"
RULE_ORDER = "rule card, A hand: ante, betting before the draw, draw, betting after it, showdown"
RULE_LOCK = "rule card, A hand 2: H's first action, a check or a bet, locks its keep selection"
RULE_KEEP = "a keep mask is an int 0..31, bit i keeping card i of the hand"
RULE_CHECK = "rule card, A hand 3: a check only when no bet is open; facing a bet, call, fold or raise"
RULE_FACING = "rule card, A hand 3-4: call or fold only facing a bet"
RULE_SIZES = "rule card, A hand 3: bet 1, 2, 4 or 8 jbits, or the whole balance when it is below 8"
RULE_R_BET = "How Riemann bets 4: Riemann's bet when you check stays 2 jbits"
RULE_ONE_BET = "rule card, A hand 3: a round has one opening bet; after it, raise"
RULE_RAISES = "rule card, A hand 3-4: one raise and one re-raise, each by the opening amount"
RULE_RAISE_COVER = "rule card, A hand 4: a raise is by the opening amount in full; only a call may be all in for less"
RULE_ANSWER = "How Riemann bets 5: Riemann bets or raises only while you still have jbits to answer"
RULE_ANSWER_H = "engine rule (rule card, A hand 8): no bet or raise against a player with no jbits left to answer"
RULE_NO_WAGER = "rule card, A hand 7: a player with no jbits left ends the wagering; cards are drawn and shown"
RULE_BALANCE = "a bet cannot exceed the bettor's balance"
RULE_CHECK_FOLD_AMOUNT = "rule card, A hand 3: a check or a fold puts in no jbits"
RULE_CALL_AMOUNT = "rule card, A hand 3-4: a call puts in what is owed, or the whole balance when it is short"
RULE_TURN = "rule card, A hand 2-5: H acts first in each betting round, then the players alternate; R draws at the draw"
RULE_KINDS = "an action is a check, bet, call, raise or fold in a betting round, or R's draw (its keep) at the draw"


# --------------------------------------------------------------------------- values
@dataclass(frozen=True)
class Action:
    """A betting action: ``kind`` in check/bet/call/raise/fold, ``amount`` = jbits put in.

    >>> Action.parse("bet 4"), Action.parse("call")
    (Action(kind='bet', amount=4), Action(kind='call', amount=None))
    """

    kind: str
    amount: int | None = None

    @classmethod
    def parse(cls, text: str) -> Action:
        parts = str(text).split()
        if (
            not parts
            or parts[0] not in ("check", "bet", "call", "raise", "fold")
            or len(parts) > 2
            or (len(parts) == 2 and not parts[1].lstrip("-").isdigit())
        ):
            raise InputError(f"unknown action {text!r}: expected check, bet N, call, raise or fold")
        return cls(parts[0], int(parts[1]) if len(parts) == 2 else None)

    def __str__(self) -> str:
        return self.kind if self.amount is None else f"{self.kind} {self.amount}"


@dataclass(frozen=True)
class ActionRecord:
    """One betting action as everyone saw it."""

    round: str
    seat: str
    kind: str
    amount: int
    all_in: bool


@dataclass(frozen=True)
class View:
    """What one seat may see: public information and its own cards (module docstring)."""

    seat: str
    variant: str
    phase: str
    cards: tuple[int, ...]
    keep: int | None
    draw_count: int | None
    opp_draw_count: int | None
    stack: int
    opp_stack: int
    contributed: int
    opp_contributed: int
    round_bet: int
    opp_round_bet: int
    pot: int
    to_call: int
    opening_bet: int | None
    line: tuple[ActionRecord, ...]

    @property
    def opp_can_answer(self) -> bool:
        return self.opp_stack > 0


class LazyText:
    """A dataclass field of text that may be given as a function returning it: the function is
    called on the first read and the text kept.  The engine gives a hand's log this way, so it
    is built only if read (most runs only need the nets)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self._slot = name  # the instance's __dict__ entry of the same name (a data descriptor comes first)

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> LazyText: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> str: ...

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:  # dataclasses asks the class for a default: there is none
            raise AttributeError(self._slot)
        text = obj.__dict__[self._slot]
        if not isinstance(text, str):
            text = obj.__dict__[self._slot] = text()
        return text

    def __set__(self, obj: object, value: str | Callable[[], str]) -> None:
        obj.__dict__[self._slot] = value


@dataclass(frozen=True)
class HandResult:
    hand_index: int
    seed: tuple[int, int] | None
    variant: str
    reason: str  # "fold" | "showdown"
    winner: str | None  # None for a split
    stacks_before: dict[str, int]
    stacks_after: dict[str, int]
    net: dict[str, int]
    #: the hand's JSON log (:mod:`poker51.play.engine`): a str, built on first read when given as a function
    log: LazyText = LazyText()

    @property
    def log_bytes(self) -> bytes:
        return self.log.encode("utf-8")


class Player(Protocol):
    def choose_keep(self, view: View) -> int: ...

    def act(self, view: View, legal: Sequence[Action]) -> Action: ...


__all__ = [
    "Action",
    "ActionRecord",
    "HandResult",
    "IllegalAction",
    "LazyText",
    "Player",
    "ReplayError",
    "View",
    "illegal",
    "log_text",
]
