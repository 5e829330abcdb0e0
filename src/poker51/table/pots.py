"""The pot law shared by the five-seat tables and the rule book's games.

Amounts are integer units: cents of a jbit at the Poker 51 tables (``poker51.multi``),
chips in the rule book (``poker51.rulebook``).  Seats are ints.  Sources: the tables'
rule card ("Showdown": side pots so that no one wins more from a player than they put
in; odd cents one at a time to the winners in turn from the seat after the button) and
the rule book (3.9 uncalled chips returned, 4.2 "a player can only win the chips they
could have lost", 4.3 side pots settled smallest first, 4.4 conservation, 5.6 splits).

Three steps, each a pure function:

1. :func:`return_uncalled`: the largest contribution above the second largest (over
   every contributor, folded or not) is returned to its owner (rule book 3.9).  Chips
   above the largest contribution of a player still in the hand are returned as well:
   no one who is still in could have lost as much, so no one may win it (tables and
   rule book 4.2; this arises only when every player who matched it left or timed out).
2. :func:`build_pots`: one pot per distinct contribution level of the players still in,
   smallest first.  Pot ``k`` holds, from every contributor, what it put in between
   level ``k-1`` and level ``k``; the players still in who reached level ``k`` are
   eligible.
3. :func:`pot_transfers`: a pot split among its winners, contributor by contributor, so
   that the tables can tell jbits won from a person from jbits won from Riemann.  Each
   contributor's part is split equally; the odd units go one at a time to the winners
   in turn, the turn carrying over from one contributor to the next.  Summed over the
   contributors, each winner receives exactly :func:`split_amount` of the pot: the
   per-contributor split and the pot-level rule agree.

>>> c = {0: 300, 1: 700, 2: 1000, 3: 1000}          # seat 0 and 1 all in, seat 3 folds
>>> returned, c2 = return_uncalled(c, live={0, 1, 2})
>>> returned
{}
>>> [(p.amount, p.eligible) for p in build_pots(c2, live={0, 1, 2})]
[(1200, (0, 1, 2)), (1200, (1, 2)), (600, (2,))]
>>> split_amount(1001, [2, 0, 1])                    # odd unit to the first winner in turn
{2: 334, 0: 334, 1: 333}
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Pot:
    """One pot: its amount, the seats eligible to win it (ascending) and every
    contributor's part ``(seat, units)`` (ascending seat; folded players included)."""

    amount: int
    eligible: tuple[int, ...]
    parts: tuple[tuple[int, int], ...]


def _check(contributions: Mapping[int, int]) -> None:
    for seat, c in contributions.items():
        if not isinstance(c, int) or isinstance(c, bool) or c < 0:
            raise ValueError(f"seat {seat}: a contribution is a non-negative int, got {c!r}")


def return_uncalled(contributions: Mapping[int, int], live: Collection[int]) -> tuple[dict[int, int], dict[int, int]]:
    """(returned per seat, contributions after the return); see the module docstring, step 1.

    >>> return_uncalled({0: 50, 1: 200}, live={0, 1})
    ({1: 150}, {0: 50, 1: 50})
    >>> return_uncalled({0: 10, 1: 50, 2: 50}, live={0})   # both callers left the table
    ({1: 40, 2: 40}, {0: 10, 1: 10, 2: 10})
    """
    _check(contributions)
    c = {int(s): int(v) for s, v in contributions.items()}
    returned: dict[int, int] = {}
    if len(c) >= 2:
        ordered = sorted(c.values(), reverse=True)
        top, second = ordered[0], ordered[1]
        if top > second:
            seat = next(s for s, v in c.items() if v == top)
            returned[seat] = top - second
            c[seat] = second
    still_in = [c[s] for s in live if s in c]
    cap = max(still_in, default=0)
    for s, v in c.items():
        if v > cap:
            returned[s] = returned.get(s, 0) + v - cap
            c[s] = cap
    return dict(sorted(returned.items())), c


def build_pots(contributions: Mapping[int, int], live: Collection[int]) -> list[Pot]:
    """The main pot and side pots, smallest level first (step 2).  ``contributions`` must
    already have had :func:`return_uncalled` applied (no chips above the top live level)."""
    _check(contributions)
    live = {int(s) for s in live}
    levels = sorted({v for s, v in contributions.items() if s in live and v > 0})
    if any(v > (levels[-1] if levels else 0) for v in contributions.values()):
        raise ValueError("contributions above every live player's level: apply return_uncalled first")
    pots, below = [], 0
    for level in levels:
        parts = tuple((s, min(v, level) - below) for s, v in sorted(contributions.items()) if v > below)
        eligible = tuple(sorted(s for s in live if contributions.get(s, 0) >= level))
        pots.append(Pot(sum(x for _, x in parts), eligible, parts))
        below = level
    return pots


def payout_order(seats: Collection[int], after: int, n_seats: int) -> list[int]:
    """``seats`` in turn starting from the seat after ``after`` (the button), clockwise.

    >>> payout_order([0, 2, 4], after=2, n_seats=5)
    [4, 0, 2]
    """
    return sorted(seats, key=lambda s: (s - after - 1) % n_seats)


def split_amount(amount: int, winners: Sequence[int]) -> dict[int, int]:
    """``amount`` split as evenly as possible; odd units one at a time to ``winners`` in the
    given order (rule book 5.6; tables: "in turn from the seat after the button")."""
    if not winners:
        raise ValueError("a pot needs at least one winner")
    q, r = divmod(int(amount), len(winners))
    return {w: q + (1 if i < r else 0) for i, w in enumerate(winners)}


def pot_transfers(pot: Pot, winners: Sequence[int], order: Sequence[int] | None = None) -> dict[tuple[int, int], int]:
    """``{(from contributor, to winner): units}`` of one pot (step 3).

    ``winners`` are in payout order; contributors are taken in ``order`` (default: their
    seat order), and each one's part is split among the winners with the odd units going
    on in turn where the previous contributor's stopped.
    """
    if not winners or any(w not in pot.eligible for w in winners):
        raise ValueError(f"winners {list(winners)} must be eligible for the pot {pot.eligible}")
    parts = dict(pot.parts)
    seq = [s for s in (order if order is not None else sorted(parts)) if s in parts]
    if sorted(seq) != sorted(parts):
        raise ValueError("the contributor order must list every contributor once")
    k, turn, out = len(winners), 0, {}
    for s in seq:
        q, r = divmod(parts[s], k)
        for i, w in enumerate(winners):
            extra = 1 if (i - turn) % k < r else 0
            if q + extra:
                out[(s, w)] = q + extra
        turn = (turn + r) % k
    return out


__all__ = ["Pot", "build_pots", "payout_order", "pot_transfers", "return_uncalled", "split_amount"]
