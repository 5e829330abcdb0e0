"""The heads-up engine (:mod:`poker51.play.engine`) in the engine contract (:mod:`contract`).

Hands cycle through the three variants and through stacks from the ante alone (no wagering)
to short stacks (all-in calls for less) and deep ones; every fifth hand is dealt from an
injected deck (logged with seed null).
"""

from __future__ import annotations

import random
from typing import Any

from contract import EngineAdapter

from poker51.cards import card_str
from poker51.play.actions import (
    RULE_ANSWER,
    RULE_ANSWER_H,
    RULE_CALL_AMOUNT,
    RULE_CHECK,
    RULE_FACING,
    RULE_KEEP,
    RULE_KINDS,
    RULE_LOCK,
    RULE_NO_WAGER,
    RULE_ONE_BET,
    RULE_ORDER,
    RULE_R_BET,
    RULE_RAISES,
    RULE_SIZES,
    RULE_TURN,
    H,
    R,
)
from poker51.play.engine import HandState, replay, shuffled_deck, variant_cards
from poker51.table.protocol import TableAction

VARIANTS = ("standard", "wild", "bug")
STACKS = (1, 2, 3, 5, 9, 12, 30, 100)


class HeadsUpAdapter(EngineAdapter):
    name = "headsup"
    n_hands = 300

    def new_hand(self, i: int) -> HandState:
        rng = random.Random(i)
        variant = VARIANTS[i % 3]
        stacks = {H: rng.choice(STACKS), R: rng.choice(STACKS)}
        if i % 5 == 4:
            deck = variant_cards(variant)
            rng.shuffle(deck)
            return HandState(variant, stacks, deck)
        return HandState(variant, stacks, shuffled_deck(variant, 51, i), seed=(51, i), hand_index=i)

    def chips(self, state: HandState) -> int:
        # after the settlement the contributions are paid out into the stacks
        return sum(state.stacks.values()) + (0 if state.finished else state.pot)

    def hidden_cards(self, state: HandState, seat: Any) -> set[str]:
        dealt = state.deck[0:5] if seat == H else state.deck[5:10]
        seen = {*dealt, *state.hands[seat]}
        if state.finished:
            seen |= set(state.hands[R if seat == H else H])
        return {card_str(c) for c in state.deck if c not in seen}

    def illegal_plays(self, state: HandState) -> list[tuple[TableAction, str]]:
        seat = state.whose_turn()
        if seat is None:
            return [(TableAction.of(H, "check", 0), RULE_ORDER), (TableAction.of(R, "draw", keep=0), RULE_ORDER)]
        opp = R if seat == H else H
        out = [
            (TableAction.of(opp, "fold", 0), RULE_TURN),
            (TableAction.of(seat, "shove", 5), RULE_KINDS),
            (TableAction.of(seat, "check", 0, note="x"), RULE_KINDS),
        ]
        if state.phase == "draw":
            return out + [
                (TableAction.of(R, "draw", keep=32), RULE_KEEP),
                (TableAction.of(R, "draw", keep=-1), RULE_KEEP),
                (TableAction.of(R, "draw"), RULE_KEEP),
                (TableAction.of(R, "draw", 2, keep=3), RULE_KINDS),
                (TableAction.of(R, "check", 0), RULE_ORDER),
                (TableAction.of(R, "call"), RULE_ORDER),
            ]
        if seat == R:
            out.append((TableAction.of(R, "draw", keep=0), RULE_ORDER))
        if state.keep_required:
            out += [
                (TableAction.of(H, "check", 0), RULE_LOCK),
                (TableAction.of(H, "check", 0, keep=32), RULE_KEEP),
                (TableAction.of(H, "check", 0, keep=True), RULE_KEEP),
            ]
            keep = 5
        else:
            out.append((TableAction.of(seat, "check", None, keep=5), RULE_LOCK))
            keep = None
        if state.to_call <= 0:
            out += [
                (TableAction.of(seat, "call"), RULE_FACING),
                (TableAction.of(seat, "fold"), RULE_FACING),
                (TableAction.of(seat, "raise"), RULE_FACING),
                (TableAction.of(seat, "check", 1, keep=keep), "a check or a fold puts in no jbits"),
            ]
            if not state._open:
                out.append((TableAction.of(seat, "bet", 2 if seat == R else 1, keep=keep), RULE_NO_WAGER))
            elif seat == R:
                out.append((TableAction.of(R, "bet", 4), RULE_R_BET))
                if state.stacks[H] == 0:
                    out.append((TableAction.of(R, "bet", 2), RULE_ANSWER))
            else:
                out += [(TableAction.of(H, "bet", 3 if state.stacks[H] != 3 else 5, keep=keep), RULE_SIZES)]
                out += [(TableAction.of(H, "bet", None, keep=keep), RULE_SIZES)]
                if state.stacks[R] == 0:
                    out.append((TableAction.of(H, "bet", 1, keep=keep), RULE_ANSWER_H))
        else:
            out += [
                (TableAction.of(seat, "check", 0), RULE_CHECK),
                (TableAction.of(seat, "bet", 2), RULE_ONE_BET),
                (TableAction.of(seat, "call", state.to_call + 1), RULE_CALL_AMOUNT),
            ]
            if state._line not in (("bet",), ("check", "bet"), ("bet", "raise")):
                out.append((TableAction.of(seat, "raise"), RULE_RAISES))
        return out

    def replay(self, log: str) -> str:
        return replay(log).log


ADAPTERS: list[EngineAdapter] = [HeadsUpAdapter()]
