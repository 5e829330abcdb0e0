"""The heads-up hand's side of the table protocol (:mod:`poker51.table.protocol`): what a game
server calls on a :class:`poker51.play.engine.HandState`.

Actions are :class:`~poker51.table.protocol.TableAction` records: ``seat`` ``"H"`` or ``"R"``,
``kind`` ``check``/``bet``/``call``/``raise``/``fold`` (``amount`` the jbits put in, as
:meth:`~poker51.play.hand_rules.HandRules.legal_actions` fills it; None lets the rules fix
it) or R's ``draw``; the one game field is ``keep``, the keep mask (0..31, bit ``i`` keeps
card ``i``) that H's first action and R's draw carry.  ``legal_plays()`` lists H's first
action once per keep mask (32 of each), R's draw once per mask.

The seat to act (:meth:`HandProtocol.whose_turn`) is the betting round's actor, R at the draw
(H's keep is locked by then), None when the hand is over.  Each seat's view
(:meth:`HandProtocol.view_json`) holds the public state and that seat's own cards; the
opponent's cards appear only once the hand is over (the result reveals both hands, on a fold
too).  It holds no seed and no deck: a seed names the whole shuffle.  The state's JSON
(:meth:`HandProtocol.state_json`) holds everything, its log included, and comes back with
``from_state_json``; ``from_log`` (on :class:`~poker51.play.engine.HandState`) resumes a hand
from its log or any prefix of it.
"""

from __future__ import annotations

from typing import Any

from poker51.play.actions import (
    DONE,
    DRAW,
    LOG_FORMAT,
    RULE_KEEP,
    RULE_KINDS,
    RULE_ORDER,
    RULE_TURN,
    Action,
    H,
    R,
    illegal,
)
from poker51.play.hand_rules import HandRules
from poker51.table.log import log_text
from poker51.table.protocol import PlayMixin, TableAction, cards_json

STATE_FORMAT = "poker51-hand-state/1"
VIEW_FORMAT = "poker51-hand-view/1"
KINDS = ("check", "bet", "call", "raise", "fold", "draw")


class HandProtocol(HandRules, PlayMixin):
    """``whose_turn``, ``legal_plays``, ``verify_play``/``can_play``/``play``, the views and
    the state as JSON (module docstring); :class:`~poker51.play.engine.HandState` adds the
    actions and ``from_log``."""

    seats: tuple[str, ...] = (H, R)
    seed: tuple[int, int] | None
    hand_index: int
    stacks_before: dict[str, int]
    reason: str | None
    winner: str | None

    # the actions, defined by the engine
    def apply(self, action: Action, keep: int | None = None) -> None:
        raise NotImplementedError

    def draw(self, keep_r: int) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ the protocol
    @property
    def finished(self) -> bool:
        return self.phase == DONE

    def whose_turn(self) -> str | None:
        """The seat that must act next: the betting round's actor, R at the draw, else None."""
        return R if self.phase == DRAW else self.actor

    def legal_plays(self) -> list[TableAction]:
        """Every legal action now, amounts and keep masks filled in (module docstring)."""
        if self.phase == DRAW:
            return [TableAction.of(R, "draw", None, keep=m) for m in range(32)]
        seat = self.actor
        if seat is None:
            return []
        legal = self.legal_actions()
        if self.keep_required:
            return [TableAction.of(seat, a.kind, a.amount, keep=m) for a in legal for m in range(32)]
        return [TableAction.of(seat, a.kind, a.amount) for a in legal]

    def verify_play(self, action: TableAction) -> None:
        """None, or :class:`~poker51.table.errors.IllegalAction` naming the rule."""
        seat = self.whose_turn()
        if seat is None:
            raise illegal(RULE_ORDER, f"no action in phase {self.phase!r}: the hand is over")
        if action.kind not in KINDS:
            raise illegal(RULE_KINDS, f"unknown action kind {action.kind!r}")
        extra = sorted(k for k, _ in action.fields if k != "keep")
        if extra:
            raise illegal(RULE_KINDS, f"{action.kind} has no field {extra[0]!r}")
        if action.seat != seat:
            raise illegal(RULE_TURN, f"{action.seat!r} cannot {action.kind} now: it is {seat}'s turn")
        keep = action.get("keep")
        if action.kind == "draw":
            if action.amount not in (None, 0):
                raise illegal(RULE_KINDS, f"a draw puts in no jbits, not {action.amount}")
            if keep is None:
                raise illegal(RULE_KEEP, "R's draw names its keep mask")
            self.verify_draw(keep)
            return
        self.verify_apply(Action(action.kind, action.amount), keep)

    def apply_play(self, action: TableAction) -> None:
        if action.kind == "draw":
            self.draw(action.get("keep"))
        else:
            self.apply(Action(action.kind, action.amount), keep=action.get("keep"))

    def hand_log(self) -> str:
        """The log so far (the engine's format, :func:`poker51.table.log.log_text`)."""
        return log_text(self.events)

    # ------------------------------------------------------------------ JSON
    def _result_json(self) -> dict[str, Any] | None:
        if self.phase != DONE:
            return None
        return {
            "reason": self.reason,
            "winner": self.winner,
            "net": {s: self.stacks[s] - self.stacks_before[s] for s in self.seats},
            "hands": {s: cards_json(self.hands[s]) for s in self.seats},
        }

    def view_json(self, seat: str) -> dict[str, Any]:
        """What ``seat`` may see now, as JSON (module docstring)."""
        if seat not in self.seats:
            raise illegal(RULE_TURN, f"no seat {seat!r}; the seats are H and R")
        v = self.view(seat)
        turn = self.whose_turn()
        if turn != seat:
            legal: list[dict[str, Any]] = []
        elif self.phase == DRAW:
            legal = [{"kind": "draw", "amount": None}]
        else:
            legal = [{"kind": a.kind, "amount": a.amount} for a in self.legal_actions()]
        return {
            "format": VIEW_FORMAT,
            "seat": v.seat,
            "variant": v.variant,
            "phase": v.phase,
            "to_act": turn,
            "legal": legal,
            "needs_keep": turn == seat and (self.keep_required or self.phase == DRAW),
            "cards": cards_json(v.cards),
            "keep": v.keep,
            "draw_count": v.draw_count,
            "opp_draw_count": v.opp_draw_count,
            "stack": v.stack,
            "opp_stack": v.opp_stack,
            "contributed": v.contributed,
            "opp_contributed": v.opp_contributed,
            "round_bet": v.round_bet,
            "opp_round_bet": v.opp_round_bet,
            "pot": v.pot,
            "to_call": v.to_call,
            "opening_bet": v.opening_bet,
            "line": [
                {"round": r.round, "seat": r.seat, "kind": r.kind, "amount": r.amount, "all_in": r.all_in}
                for r in v.line
            ],
            "result": self._result_json(),
        }

    def state_json(self) -> dict[str, Any]:
        """The whole state as JSON, hidden cards and the log included (for the server's disk)."""
        return {
            "format": STATE_FORMAT,
            "log_format": LOG_FORMAT,
            "variant": self.variant,
            "seed": None if self.seed is None else [int(self.seed[0]), int(self.seed[1])],
            "hand_index": self.hand_index,
            "phase": self.phase,
            "to_act": self.whose_turn(),
            "stacks": dict(self.stacks),
            "contributed": dict(self.contrib),
            "pot": self.pot,
            "hands": {s: cards_json(self.hands[s]) for s in self.seats},
            "keeps": dict(self.keeps),
            "draw_counts": dict(self.draw_counts),
            "result": self._result_json(),
            "log": [dict(e) for e in self.events],
        }


__all__ = ["KINDS", "STATE_FORMAT", "VIEW_FORMAT", "HandProtocol"]
