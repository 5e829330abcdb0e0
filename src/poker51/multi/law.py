"""The tables' constants and the betting law of one round (rule card v1, "A hand" 2-3, "Time").

Amounts are integer cents (1 jbit = 100 cents).  A round is played by the seats of a hand
in turn order from the seat after the button (:class:`BettingRound`):

- With no bet yet a player checks or **opens** 1, 2, 4 or 8 jbits; holding less than
  8 jbits and not one of those sizes, it may also open **all in** (its whole stack; the
  opening amount is then that stack).
- After an opening bet: **call**, **fold** or **raise** by the opening amount (the new
  level is the old level plus the opening amount).  At most two raises a round.
- A call that cannot be covered is **all in for less**.  A player holding more than the
  call but less than a full raise may go **all in** as a raise; such an all-in raise
  smaller than the opening amount is *incomplete*: afterwards every other player may
  call or fold but no one may raise again in that round (the card's words, read
  literally for every other player; design choice M3).  It counts as one of the two raises.
- A bet or raise needs another player still in the hand with chips behind to answer it
  (design choice M4); a player with nothing behind (all in) no longer acts.
- The round ends when every player still in with chips behind has acted since the last
  bet or raise and matched it.  A player who owes nothing and has no one to answer has
  no decision (so a round with fewer than two players holding chips is skipped).

A timed-out player checks when it can and folds otherwise (:meth:`BettingRound.timeout_move`).

>>> stack = {0: 1600, 1: 350, 2: 1600}
>>> r = BettingRound("pre", (1, 2, 0), stack, live={0, 1, 2})
>>> r.turn, [str(m) for m in r.legal(1)]
(1, ['check', 'open 100', 'open 200', 'open 350 all in'])
>>> r.apply(1, r.move(1, "open", 200)); r.turn, [str(m) for m in r.legal(2)]
(2, ['fold', 'call 200', 'raise 400'])
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from poker51.table.errors import IllegalAction

#: cents in one jbit
JBIT = 100
#: each player dealt in antes 1 jbit (A hand 1)
ANTE = 100
#: the opening sizes 1, 2, 4, 8 jbits (A hand 2)
OPEN_SIZES: tuple[int, ...] = (100, 200, 400, 800)
#: Riemann's opening bet at a table: 2 jbits (How Riemann plays at a table, rule 5)
RIEMANN_OPEN = 200
#: an all-in open is allowed holding less than 8 jbits (A hand 2)
ALL_IN_OPEN_BELOW = 800
#: at most two raises in a round (A hand 2)
MAX_RAISES = 2
#: buy-ins in jbits (A table 2)
BUYINS: tuple[int, ...] = (2, 4, 8, 16)
#: five seats, 0..4 (A table 1)
N_SEATS = 5
#: three timeouts in a row mark a player away (Time)
AWAY_AFTER = 3
#: cards each player is dealt
HAND_SIZE = 5
#: the rules file the card names
RULES_ID = "poker51-multi-v1"

# The rules an IllegalAction names (rule card v1 sections).
RULE_TURN = "A hand 2: players act in turn from the seat after the button"
RULE_CHECK = "A hand 2: check only with no bet to answer; facing a bet call, fold or raise"
RULE_OPEN = "A hand 2: with no bet yet check or open 1, 2, 4 or 8 jbits"
RULE_OPEN_ONCE = "A hand 2: a round has one opening bet; after it call, fold or raise"
RULE_ALL_IN_OPEN = "A hand 2: open all in only holding less than 8 jbits that is not 1, 2, 4 or 8"
RULE_STACK = "A hand 2: no one bets more than they hold"
RULE_CALL = "A hand 2: call or fold only facing a bet"
RULE_RAISE_CAP = "A hand 2: at most two raises in a round"
RULE_RAISE_SIZE = "A hand 2-3: a raise is by the opening amount; holding less, go all in"
RULE_RAISE_CLOSED = "A hand 3: an all-in raise smaller than the opening amount lets the others call or fold, not raise"
RULE_ANSWER = "design choice M4: a bet or raise needs another player still in with chips to answer it"
RULE_PHASE = "A hand: antes, betting, the draw, betting, showdown, in that order"

KINDS = ("check", "open", "call", "raise", "fold")


@dataclass(frozen=True)
class Move:
    """A concrete betting action: ``amount`` cents put in by it, ``all_in`` if it empties the stack."""

    kind: str
    amount: int = 0
    all_in: bool = False
    incomplete: bool = False

    def __str__(self) -> str:
        text = self.kind if self.kind in ("check", "fold") else f"{self.kind} {self.amount}"
        return text + (" all in" if self.all_in else "")


class BettingRound:
    """One betting round over ``order`` (turn order), sharing the hand's ``stack`` and ``live``.

    ``stack`` maps seat -> cents behind (mutated as players put chips in); ``live`` is the
    set of seats still in the hand (folds remove from it).  ``bet`` holds each seat's
    chips in this round, ``level`` the largest, ``opening`` the opening amount (0 before
    the first bet), ``raises`` the raises so far, ``closed`` whether an incomplete all-in
    raise closed raising, ``aggressors`` the seats that opened or raised in this round.
    """

    def __init__(self, name: str, order: tuple[int, ...], stack: dict[int, int], live: set[int]):
        self.name, self.order, self.stack, self.live = name, tuple(order), stack, live
        self.bet = {s: 0 for s in self.order}
        self.level = self.opening = self.raises = 0
        self.closed = False
        self.aggressors: set[int] = set()
        self.to_act = {s for s in self.order if s in live and stack[s] > 0}
        self.last: int | None = None
        self.turn: int | None = None
        self._next_turn()

    # ------------------------------------------------------------------ state
    def owing(self, seat: int) -> int:
        return self.level - self.bet[seat]

    def can_answer(self, seat: int) -> bool:
        """Whether another player still in has chips behind (design choice M4)."""
        return any(t != seat and t in self.live and self.stack[t] > 0 for t in self.order)

    def _needs_action(self, s: int) -> bool:
        if s not in self.to_act or s not in self.live or self.stack[s] <= 0:
            return False
        return self.owing(s) > 0 or self.can_answer(s)

    def _next_turn(self) -> None:
        n = len(self.order)
        start = 0 if self.last is None else (self.order.index(self.last) + 1) % n
        self.turn = None
        for k in range(n):
            s = self.order[(start + k) % n]
            if self._needs_action(s):
                self.turn = s
                return

    @property
    def over(self) -> bool:
        return self.turn is None

    # ------------------------------------------------------------------ law
    def legal(self, seat: int) -> list[Move]:
        """Every legal move of ``seat`` on its turn (empty when it is not its turn)."""
        if seat != self.turn:
            return []
        st, owe = self.stack[seat], self.owing(seat)
        if owe <= 0:
            moves = [Move("check")]
            if self.level == 0 and self.can_answer(seat):
                moves += [Move("open", x, x == st) for x in OPEN_SIZES if x <= st]
                if st < ALL_IN_OPEN_BELOW and st not in OPEN_SIZES:
                    moves.append(Move("open", st, True))
            return moves
        moves = [Move("fold"), Move("call", min(owe, st), st <= owe)]
        if self.raises < MAX_RAISES and not self.closed and st > owe and self.can_answer(seat):
            full = owe + self.opening
            moves.append(Move("raise", full, st == full) if st >= full else Move("raise", st, True, True))
        return moves

    def move(self, seat: int, kind: str, amount: int | None = None, all_in: bool = False) -> Move:
        """The legal move ``kind`` (``amount`` cents for an open; ``all_in`` for the scripted
        ``allin``) of ``seat``, or :class:`IllegalAction` naming the rule it breaks."""
        if seat != self.turn:
            raise IllegalAction(f"not seat {seat}'s turn (seat {self.turn} acts) [{RULE_TURN}]")
        legal = self.legal(seat)
        st, owe = self.stack[seat], self.owing(seat)
        if all_in:
            for m in legal:
                if m.all_in:
                    return m
            if owe <= 0 and self.level == 0:
                raise IllegalAction(f"all in for {st} cents is not an opening size [{RULE_ALL_IN_OPEN}]")
            if owe <= 0:
                raise IllegalAction(f"no bet to answer [{RULE_CALL}]")
            raise IllegalAction(self._why_not_raise(seat, st, owe, all_in=True))
        if kind not in KINDS:
            raise IllegalAction(f"unknown action {kind!r}: expected one of {', '.join(KINDS)} or allin")
        for m in legal:
            if m.kind == kind and (kind != "open" or m.amount == amount) and not m.incomplete:
                return m
        if kind == "check":
            raise IllegalAction(f"{owe} cents to call [{RULE_CHECK}]")
        if kind in ("call", "fold"):
            raise IllegalAction(f"no bet to answer [{RULE_CALL}]")
        if kind == "open":
            if self.level > 0:
                raise IllegalAction(f"a bet of {self.opening} cents is open [{RULE_OPEN_ONCE}]")
            if amount not in OPEN_SIZES:
                raise IllegalAction(f"open {amount} cents [{RULE_OPEN}]")
            if amount is not None and amount > st:
                raise IllegalAction(f"open {amount} cents holding {st} [{RULE_STACK}]")
            raise IllegalAction(f"open {amount} cents with no one to answer [{RULE_ANSWER}]")
        if self.level == 0:
            raise IllegalAction(f"no bet to raise [{RULE_CALL}]")
        raise IllegalAction(self._why_not_raise(seat, st, owe))

    def _why_not_raise(self, seat: int, st: int, owe: int, all_in: bool = False) -> str:
        if self.raises >= MAX_RAISES:
            return f"{self.raises} raises made [{RULE_RAISE_CAP}]"
        if self.closed:
            return f"raising is closed [{RULE_RAISE_CLOSED}]"
        if not self.can_answer(seat):
            return f"no one can answer a raise [{RULE_ANSWER}]"
        if all_in and st > owe + self.opening:
            return f"all in for {st} cents is more than a raise of {self.opening} [{RULE_RAISE_SIZE}]"
        return f"a raise of {self.opening} cents over {owe} to call, holding {st} [{RULE_RAISE_SIZE}]"

    def timeout_move(self, seat: int) -> Move:
        """Check when it can, fold otherwise (Time)."""
        return Move("check") if self.owing(seat) <= 0 else Move("fold")

    # ------------------------------------------------------------------ play
    def apply(self, seat: int, m: Move) -> None:
        """Play a legal move (from :meth:`legal` / :meth:`move`) and pass the turn."""
        if m.kind == "fold":
            self.live.discard(seat)
            self.to_act.discard(seat)
        elif m.kind in ("check", "call"):
            self._put(seat, m.amount)
            self.to_act.discard(seat)
        else:
            before = self.level
            self._put(seat, m.amount)
            self.level = self.bet[seat]
            self.aggressors.add(seat)
            if m.kind == "open":
                self.opening = m.amount
            else:
                self.raises += 1
                if self.level - before < self.opening:
                    self.closed = True
            self.to_act = {t for t in self.order if t != seat and t in self.live and self.stack[t] > 0}
        self.last = seat
        self._next_turn()

    def fold_out(self, seat: int) -> None:
        """A player leaves (or is dealt out) mid-round: folded at once, whoever's turn it is."""
        self.live.discard(seat)
        self.to_act.discard(seat)
        if self.turn == seat:
            self.last = seat
        self._next_turn()

    def _put(self, seat: int, amount: int) -> None:
        if amount > self.stack[seat]:
            raise IllegalAction(f"{amount} cents holding {self.stack[seat]} [{RULE_STACK}]")
        self.stack[seat] -= amount
        self.bet[seat] += amount


def turn_order(seats: Collection[int], button: int, n_seats: int = N_SEATS) -> tuple[int, ...]:
    """``seats`` in turn from the seat after the button, clockwise.

    >>> turn_order([0, 1, 3, 4], button=1)
    (3, 4, 0, 1)
    """
    return tuple(sorted(seats, key=lambda s: (s - button - 1) % n_seats))


__all__ = [
    "ALL_IN_OPEN_BELOW", "ANTE", "AWAY_AFTER", "BUYINS", "HAND_SIZE", "JBIT", "KINDS", "MAX_RAISES", "N_SEATS",
    "OPEN_SIZES", "RIEMANN_OPEN", "RULES_ID", "BettingRound", "IllegalAction", "Move", "turn_order",
]  # fmt: skip
