"""How Riemann plays at a table: the rule card's five rules (v1, "How Riemann plays at a table").

Riemann sees only its own cards, the public bets and pot, and the public draw counts.
It draws by the House rule (:func:`poker51.hands.house.house_keep`).  Its betting:

1. **Read before the draw**: the average of v0.3's 128 projected completions of its own
   House draw scored against the random-hand row of the v0.2 belief table
   (:func:`poker51.policies.v05.pre_draw_read` with draw count 5, whose two terms are then
   both the random row).
2. **Read after the draw**: v0.2's read of its final five cards against the smallest
   draw count among the opponents still in (:func:`poker51.policies.v05.post_draw_read`).
3. **Several opponents**: the narrowed score ``s = adjusted(read, f) ** k`` with ``k`` the
   opponents still in and ``adjusted`` v0.3's range adjustment
   (:func:`poker51.policies.v05.adjusted_score`): ``f`` from the round's opening amount read
   at the nearest of 1/2/4/8 jbits (ties to the smaller), halved once the round has a
   raise; ``f = 1`` with no bet.  The power is taken by repeated multiplication
   (:func:`power`) so that the kernel and this module agree to the last bit.
4. **Facing a bet**: call when ``s >= toCall / (pot + toCall)`` (``toCall`` what the call
   puts in, ``pot`` everything in the middle before it).  Heads-up this is v0.3's
   ``B / (P0 + 2B)`` facing an opening bet and ``B / (P0 + 6B)`` facing a re-raise
   (``tests/multi/test_riemann.py`` shows it).
5. **Aggression**: raise at ``s >= 0.70``, or bluff at ``s < 0.10`` when its own cards are
   in the 1-in-8 FNV-1a class (:func:`poker51.policies.v05.in_bluff_class`), only while
   someone can answer; with no bet yet it opens 2 jbits (its whole stack when it holds
   less) on the same rule, otherwise checks.  "Once per round" is read as one bet *or*
   raise per round (design choice M9): after its open, or its raise, it only calls or
   folds, which heads-up is exactly v0.3's steps 5 and 7.  It never makes an all-in
   raise smaller than a full raise (then it calls).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from poker51.hands.evaluate import RULE_ORDINARY
from poker51.hands.house import house_keep
from poker51.multi.law import JBIT, OPEN_SIZES, RIEMANN_OPEN, Move
from poker51.multi.view import Spot
from poker51.policies.v05 import (
    BLUFF_BELOW,
    RAISE_AT,
    RANGE_FRACTION,
    RERAISE_FACTOR,
    adjusted_score,
    in_bluff_class,
    post_draw_read,
    pre_draw_read,
)

#: the read before the draw is against the random-hand row (rule 1)
RANDOM_DRAW_COUNT = 5


def nearest_size(amount: int) -> int:
    """The opening size (cents) nearest to ``amount``, ties to the smaller (v0.6 reading).

    >>> [nearest_size(a) for a in (50, 100, 150, 300, 350, 600, 700, 1600)]
    [100, 100, 100, 200, 400, 400, 800, 800]
    """
    return min(OPEN_SIZES, key=lambda s: (abs(s - amount), s))


def range_fraction(opening: int, raised: bool) -> float:
    """``f`` of rule 3: the opening amount's range fraction, halved after a raise."""
    f = RANGE_FRACTION[nearest_size(opening) // JBIT]
    return f * RERAISE_FACTOR if raised else f


def power(s: float, k: int) -> float:
    """``s ** k`` by repeated multiplication (rule 3; the kernel does the same)."""
    p = 1.0
    for _ in range(k):
        p *= s
    return p


def price(to_call: int, pot: int) -> float:
    """``toCall / (pot + toCall)`` (rule 4)."""
    return to_call / (pot + to_call)


class RiemannPolicy:
    """Riemann at a table (module docstring); ``belief`` is the (6, 1000) v0.2 table."""

    def __init__(self, belief: np.ndarray, variant: str = "standard"):
        self.belief = np.asarray(belief)
        self.variant = variant

    def read(self, spot: Spot) -> float:
        """Rule 1 before the draw, rule 2 after it."""
        if spot.round == "pre":
            return pre_draw_read(spot.cards, RANDOM_DRAW_COUNT, self.belief, self.variant)
        return post_draw_read(spot.cards, spot.min_draw, self.belief, self.variant)

    def keep(self, cards: Sequence[int]) -> list[int]:
        """The cards it throws away: the House rule's."""
        mask, _ = house_keep(list(cards), RULE_ORDINARY)
        return [c for i, c in enumerate(cards) if not (mask >> i) & 1]

    def decide(self, spot: Spot) -> Move:
        return decide_from_read(self.read(spot), spot)


def decide_from_read(read: float, spot: Spot) -> Move:
    """Rules 3-5 on a read (module docstring); returns one of ``spot.legal``."""
    legal = {m.kind: m for m in spot.legal}
    bluff = in_bluff_class(spot.cards)
    may_aggress = spot.can_answer and not spot.aggressed
    if spot.to_call == 0:
        s = power(adjusted_score(read, 1.0), spot.opponents)
        if may_aggress and (s >= RAISE_AT or (s < BLUFF_BELOW and bluff)):
            amount = min(RIEMANN_OPEN, spot.stack)
            for m in spot.legal:
                if m.kind == "open" and m.amount == amount:
                    return m
        return legal["check"]
    s = power(adjusted_score(read, range_fraction(spot.opening, spot.raises > 0)), spot.opponents)
    raise_move = legal.get("raise")
    if may_aggress and raise_move is not None and not raise_move.incomplete:
        if s >= RAISE_AT or (s < BLUFF_BELOW and bluff):
            return raise_move
    call = legal["call"]
    return call if s >= price(call.amount, spot.pot) else legal["fold"]


__all__ = ["RiemannPolicy", "decide_from_read", "nearest_size", "power", "price", "range_fraction"]
