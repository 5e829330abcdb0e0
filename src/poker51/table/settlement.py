"""The settlement of a hand, shared by the three engines: what each seat put in, got back
unmatched, won, and the pots it was paid from, with the conservation check.

:func:`settle` runs the pot law of :mod:`poker51.table.pots` (uncalled chips returned, pots
smallest level first, each pot to its best eligible hands, odd units in turn order, paid
contributor by contributor) for seats of any hashable kind (``"H"``/``"R"`` heads-up, ints at
the tables and in the rule book).  A :class:`Settlement` is the record an engine books and
logs; each engine keeps its own log fields (the heads-up log reports a fold's uncalled chips
as won, as it always has: :mod:`poker51.play.engine`).

Conservation (:meth:`Settlement.check`): every unit put in comes back as returned, won or
rake (``sum(contributed) == sum(returned) + sum(won) + rake``), no seat gets a negative
amount, and each seat's ``net = returned + won - contributed`` sums to ``-rake``.

>>> s = settle({"H": 5, "R": 3}, live={"H", "R"}, strengths={"H": 9, "R": 4}, order=["H", "R"])
>>> s.returned, s.won, s.net, [(p.amount, p.winners) for p in s.pots]
({'H': 2, 'R': 0}, {'H': 6, 'R': 0}, {'H': 3, 'R': -3}, [(6, ('H',))])
>>> s = settle({0: 301, 1: 301, 2: 301}, live={0, 1, 2}, strengths={0: 7, 1: 7, 2: 1}, order=[1, 2, 0])
>>> s.won, s.pots[0].winners                   # the odd unit to the first winner in turn
({1: 452, 2: 0, 0: 451}, (1, 0))
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from poker51.table.pots import build_pots, pot_transfers, return_uncalled, split_amount

Seat = Hashable


class ConservationError(RuntimeError):
    """Chips created or lost by a settlement: a bug in an engine, never bad input."""


@dataclass(frozen=True)
class PotResult:
    """One pot: amount, the seats eligible for it and its winners (both in turn order)."""

    amount: int
    eligible: tuple[Any, ...]
    winners: tuple[Any, ...]


@dataclass(frozen=True)
class Settlement:
    """A hand's settlement (module docstring).  ``transfers`` are ``(from, to, units)`` rows,
    the returned chips as ``(seat, seat, units)`` rows first; every mapping lists the seats
    dealt in, in turn order."""

    contributed: dict[Any, int]
    returned: dict[Any, int]
    won: dict[Any, int]
    pots: tuple[PotResult, ...] = ()
    transfers: tuple[tuple[Any, Any, int], ...] = ()
    showdown: bool = False
    rake: int = 0
    strengths: dict[Any, int] = field(default_factory=dict)

    @property
    def payouts(self) -> dict[Any, int]:
        """What each seat receives: returned plus won."""
        return {s: self.returned.get(s, 0) + self.won.get(s, 0) for s in self.contributed}

    @property
    def net(self) -> dict[Any, int]:
        """Each seat's gain: returned + won - contributed."""
        return {s: self.returned.get(s, 0) + self.won.get(s, 0) - c for s, c in self.contributed.items()}

    @property
    def conserved(self) -> bool:
        paid = sum(self.returned.values()) + sum(self.won.values()) + self.rake
        return (
            sum(self.contributed.values()) == paid
            and min([*self.returned.values(), *self.won.values(), self.rake, 0]) >= 0
            and set(self.returned) | set(self.won) <= set(self.contributed)
        )

    def check(self) -> Settlement:
        """``self``, or :class:`ConservationError` naming the amounts."""
        if not self.conserved:
            raise ConservationError(
                f"chips not conserved: contributed {self.contributed}, returned {self.returned}, "
                f"won {self.won}, rake {self.rake}"
            )
        return self


def check_stacks(before: Mapping[Any, int], after: Mapping[Any, int], rake: int = 0) -> None:
    """:class:`ConservationError` unless the stacks' total fell by exactly ``rake`` and none is negative."""
    if sum(after.values()) + rake != sum(before.values()) or min(after.values(), default=0) < 0:
        raise ConservationError(f"chips not conserved: {dict(before)} -> {dict(after)} (rake {rake})")


def settle(
    contributions: Mapping[Any, int],
    live: Collection[Any],
    strengths: Mapping[Any, int] | None = None,
    order: Sequence[Any] | None = None,
    transfers: bool = True,
) -> Settlement:
    """The settlement by the pot law (module docstring).

    ``order`` lists the seats dealt in, in turn order (default: ``contributions``' order); it
    orders the winners of a pot (odd units go first to the first of them) and the
    contributors a pot is paid from.  ``strengths`` (higher wins) decides each pot among its
    eligible seats; None or empty means no showdown, and ``live`` then holds the one seat left.
    ``transfers=False`` leaves :attr:`Settlement.transfers` empty (a game that books no
    transfer per contributor saves their computation).
    """
    seats = tuple(order) if order is not None else tuple(contributions)
    index = {s: i for i, s in enumerate(seats)}
    if len(index) != len(contributions) or not all(s in index for s in contributions):
        raise ValueError(f"order {list(seats)} must list every contributing seat once")
    c = {index[s]: v for s, v in contributions.items()}
    returned_i, rest = return_uncalled(c, [index[s] for s in live])
    rows = [(seats[i], seats[i], v) for i, v in returned_i.items() if v > 0] if transfers else []
    won = dict.fromkeys(seats, 0)
    pots = []
    for pot in build_pots(rest, [index[s] for s in live]):
        if strengths:
            best = max(strengths[seats[i]] for i in pot.eligible)
            win = [i for i in pot.eligible if strengths[seats[i]] == best]
        else:
            win = list(pot.eligible)
        if transfers:
            rows += [(seats[a], seats[b], v) for (a, b), v in pot_transfers(pot, win).items()]
        for i, v in split_amount(pot.amount, win).items():
            won[seats[i]] += v
        pots.append(PotResult(pot.amount, tuple(seats[i] for i in pot.eligible), tuple(seats[i] for i in win)))
    return Settlement(
        contributed={s: int(contributions[s]) for s in seats},
        returned={s: returned_i.get(index[s], 0) for s in seats},
        won=won,
        pots=tuple(pots),
        transfers=tuple(rows),
        showdown=bool(strengths),
        strengths=dict(strengths) if strengths else {},
    ).check()


__all__ = ["ConservationError", "PotResult", "Settlement", "check_stacks", "settle"]
