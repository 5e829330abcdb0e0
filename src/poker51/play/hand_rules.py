"""The state of a heads-up hand as the rules see it: what is public, what each seat may do
now, and why anything else is illegal (rule card v0.6, "A hand · two betting rounds").

:class:`HandRules` holds the read-only side of :class:`poker51.play.engine.HandState`:
the pot, the actor, a seat's :class:`~poker51.play.actions.View`, the legal actions, and
for every action ``verify_x`` (raises :class:`~poker51.play.actions.IllegalAction` naming
the rule) and ``can_x`` (a bool), PokerKit's habit.  The engine adds the actions.
"""

from __future__ import annotations

import numpy as np

from poker51.play.actions import (
    DRAW,
    POST,
    PRE,
    RULE_ANSWER,
    RULE_ANSWER_H,
    RULE_BALANCE,
    RULE_CALL_AMOUNT,
    RULE_CHECK,
    RULE_CHECK_FOLD_AMOUNT,
    RULE_FACING,
    RULE_KEEP,
    RULE_KINDS,
    RULE_LOCK,
    RULE_NO_WAGER,
    RULE_ONE_BET,
    RULE_ORDER,
    RULE_R_BET,
    RULE_RAISE_COVER,
    RULE_RAISES,
    RULE_SIZES,
    Action,
    ActionRecord,
    H,
    IllegalAction,
    R,
    View,
    illegal,
    log_text,
)
from poker51.rules import BET_SIZES, RIEMANN_BET


def popcount5(mask: int) -> int:
    """Cards kept by a keep mask over the five positions."""
    return bin(mask & 31).count("1")


class HandRules:
    """Read-only state and the checks of every action (module docstring)."""

    variant: str
    phase: str
    stacks: dict[str, int]
    contrib: dict[str, int]
    hands: dict[str, list[int]]
    keeps: dict[str, int | None]
    draw_counts: dict[str, int | None]
    records: list[ActionRecord]
    events: list[dict]
    _line: tuple[str, ...]
    _rc: dict[str, int]
    _unit: int | None
    _open: bool

    # ------------------------------------------------------------------ read-only
    @property
    def pot(self) -> int:
        return self.contrib[H] + self.contrib[R]

    @property
    def actor(self) -> str | None:
        """The seat to act in a betting round, else None."""
        if self.phase not in (PRE, POST):
            return None
        return H if len(self._line) % 2 == 0 else R

    def seat_to_act(self) -> str:
        """The seat to act in a betting round; outside one, an illegal action."""
        seat = self.actor
        if seat is None:
            raise illegal(RULE_ORDER, f"no betting action in phase {self.phase!r}")
        return seat

    @property
    def keep_required(self) -> bool:
        """True when the next action is H's first, which must carry the keep mask."""
        return self.phase == PRE and self.keeps[H] is None

    @property
    def to_call(self) -> int:
        s = self.actor
        return 0 if s is None else self._rc[self._opp(s)] - self._rc[s]

    @property
    def log(self) -> str:
        return log_text(self.events)

    def view(self, seat: str) -> View:
        o = self._opp(seat)
        in_round = self.phase in (PRE, POST)
        drawn_or_locked = (
            self.draw_counts[o]
            if self.draw_counts[o] is not None
            else (5 - popcount5(self.keeps[H] or 0) if o == H and self.keeps[H] is not None else None)
        )
        own_count = self.draw_counts[seat]
        own_keep = self.keeps[seat]
        if own_count is None and own_keep is not None:
            own_count = 5 - popcount5(own_keep)
        return View(
            seat=seat,
            variant=self.variant,
            phase=self.phase,
            cards=tuple(self.hands[seat]),
            keep=self.keeps[seat],
            draw_count=own_count,
            opp_draw_count=drawn_or_locked,
            stack=self.stacks[seat],
            opp_stack=self.stacks[o],
            contributed=self.contrib[seat],
            opp_contributed=self.contrib[o],
            round_bet=self._rc[seat] if in_round else 0,
            opp_round_bet=self._rc[o] if in_round else 0,
            pot=self.pot,
            to_call=max(0, self._rc[o] - self._rc[seat]) if in_round else 0,
            opening_bet=self._unit if in_round else None,
            line=tuple(self.records),
        )

    def legal_actions(self) -> list[Action]:
        """Every action the actor may take now, amounts filled in (empty outside betting), in
        this order: the check, the bets (ascending), the call, the raise and the fold that
        ``can_x`` accepts (H's first check or bet with a valid keep).

        The list is read off the state instead of verifying every candidate (the tests check
        that both agree on every betting line); only the raise is verified.  An actor passes
        ``_verify_betting`` with such a keep.  Facing no bet (``to_call <= 0``: the round's
        line is ``()`` or ``("check",)``) the check is legal and the call, raise and fold are
        not; by ``verify_bet`` a bet is legal while the wagering is open and the opponent has
        jbits, in a size of :meth:`_bet_sizes` the bettor can cover.  Facing a bet the check
        and every bet are illegal (the round has its bet), the call and the fold legal.
        """
        seat = self.actor
        if seat is None:
            return []
        if self.to_call <= 0:
            out = [Action("check", 0)]
            if self._open and self.stacks[self._opp(seat)] > 0:
                out += [Action("bet", b) for b in self._bet_sizes(seat) if b <= self.stacks[seat]]
            return out
        out = [Action("call", self._call_amount())]
        if self.can_raise_bet():
            out.append(Action("raise", self._raise_amount()))
        out.append(Action("fold", 0))
        return out

    # ------------------------------------------------------------------ verify
    def _verify_betting(self, keep, carries_keep: bool = False) -> str:
        if self.phase not in (PRE, POST):
            raise illegal(RULE_ORDER, f"no betting action in phase {self.phase!r}")
        if self.keep_required and carries_keep:
            if keep is None:
                raise illegal(RULE_LOCK, "H's first action must give the cards it keeps")
            self._verify_mask(keep)
        elif keep is not None:
            raise illegal(RULE_LOCK, "only H's first pre-draw action carries a keep selection; it is locked")
        return self.seat_to_act()

    @staticmethod
    def _verify_mask(keep) -> None:
        if not isinstance(keep, (int, np.integer)) or isinstance(keep, bool) or not 0 <= keep <= 31:
            raise illegal(RULE_KEEP, f"bad keep mask {keep!r}")

    def verify_check(self, keep: int | None = None) -> None:
        seat = self._verify_betting(keep, carries_keep=True)
        if self._rc[self._opp(seat)] > self._rc[seat]:
            raise illegal(RULE_CHECK, f"{seat} faces a bet of {self.to_call} and cannot check")

    def verify_bet(self, amount: int, keep: int | None = None) -> None:
        seat = self._verify_betting(keep, carries_keep=True)
        if not isinstance(amount, (int, np.integer)) or isinstance(amount, bool):
            raise illegal(RULE_SIZES, f"a bet is an int number of jbits, got {amount!r}")
        if self._line not in ((), ("check",)):
            raise illegal(RULE_ONE_BET, "there is already a bet in this round")
        if not self._open:
            raise illegal(RULE_NO_WAGER, "no wagering: a player has no jbits left")
        o = self._opp(seat)
        if seat == R:
            if amount != RIEMANN_BET:
                raise illegal(RULE_R_BET, f"R bets {RIEMANN_BET}, not {amount}")
            if self.stacks[H] == 0:
                raise illegal(RULE_ANSWER, "H is all in")
        else:
            if amount not in self._bet_sizes(H):
                raise illegal(RULE_SIZES, f"bet {amount} is not an allowed size")
            if self.stacks[o] == 0:
                raise illegal(RULE_ANSWER_H, "R is all in")
        if amount > self.stacks[seat]:
            raise illegal(RULE_BALANCE, f"{seat} bets {amount} with a balance of {self.stacks[seat]}")

    def verify_call(self) -> None:
        self._verify_betting(None)
        if self.to_call <= 0:
            raise illegal(RULE_FACING, "no bet to call; check or bet")

    def verify_fold(self) -> None:
        self._verify_betting(None)
        if self.to_call <= 0:
            raise illegal(RULE_FACING, "no bet to fold to; check or bet")

    def verify_raise_bet(self) -> None:
        seat = self._verify_betting(None)
        if self.to_call <= 0:
            raise illegal(RULE_FACING, "no bet to raise; check or bet")
        if self._line not in (("bet",), ("check", "bet"), ("bet", "raise")):
            raise illegal(RULE_RAISES, "the raises of this round are used up; call or fold")
        if self.stacks[self._opp(seat)] == 0:
            raise illegal(
                RULE_ANSWER if seat == R else RULE_ANSWER_H, f"{self._opp(seat)} is all in and cannot answer a raise"
            )
        need = self._raise_amount()
        if self.stacks[seat] < need:
            raise illegal(RULE_RAISE_COVER, f"{seat} needs {need} to raise and has {self.stacks[seat]}")

    def verify_apply(self, action: Action, keep: int | None = None) -> None:
        """The checks of :meth:`poker51.play.engine.HandState.apply` without acting: a given
        amount must equal the one the rules fix, then ``verify_x`` of the action's kind."""
        kind, amount = action.kind, action.amount
        if kind == "bet":
            if amount is None:
                raise illegal(RULE_SIZES, "a bet names its amount")
            self.verify_bet(amount, keep)
            return
        if kind not in ("check", "fold", "call", "raise"):
            raise illegal(RULE_KINDS, f"unknown action kind {kind!r}")
        if amount is not None and self.actor is not None:
            fixed = self._call_amount() if kind == "call" else self._raise_amount() if kind == "raise" else 0
            if amount != fixed:
                rule = {"raise": RULE_RAISES, "call": RULE_CALL_AMOUNT}.get(kind, RULE_CHECK_FOLD_AMOUNT)
                raise illegal(rule, f"{kind} puts in {fixed} jbits, not {amount}")
        if kind == "check":
            self.verify_check(keep)
            return
        if keep is not None:
            self._verify_betting(keep)  # raises: the keep belongs to a check or bet
        {"fold": self.verify_fold, "call": self.verify_call, "raise": self.verify_raise_bet}[kind]()

    def verify_draw(self, keep_r: int) -> None:
        if self.phase != DRAW:
            raise illegal(RULE_ORDER, f"no draw in phase {self.phase!r}")
        self._verify_mask(keep_r)

    def _can(self, verify, *args, **kwargs) -> bool:
        try:
            verify(*args, **kwargs)
        except IllegalAction:
            return False
        return True

    def can_check(self, keep: int | None = None) -> bool:
        return self._can(self.verify_check, keep)

    def can_bet(self, amount: int, keep: int | None = None) -> bool:
        return self._can(self.verify_bet, amount, keep)

    def can_call(self) -> bool:
        return self._can(self.verify_call)

    def can_fold(self) -> bool:
        return self._can(self.verify_fold)

    def can_raise_bet(self) -> bool:
        return self._can(self.verify_raise_bet)

    def can_draw(self, keep_r: int) -> bool:
        return self._can(self.verify_draw, keep_r)

    # ------------------------------------------------------------------ amounts
    @staticmethod
    def _opp(seat: str) -> str:
        return R if seat == H else H

    def _bet_sizes(self, seat: str) -> list[int]:
        """The sizes ``seat`` may bet, ascending: R's 2, or H's 1, 2, 4, 8 and its whole balance below 8."""
        if seat == R:
            return [RIEMANN_BET]
        balance = self.stacks[H]
        return sorted({*BET_SIZES, balance}) if balance < max(BET_SIZES) else list(BET_SIZES)

    def _call_amount(self) -> int:
        return min(self.to_call, self.stacks[self.seat_to_act()])

    def _raise_amount(self) -> int:
        seat = self.seat_to_act()
        return self._rc[self._opp(seat)] + (self._unit or 0) - self._rc[seat]
