"""Who owns what at a table: banks, stacks, jbits held by Riemann, abits (rule card v1, "Riemann and abits").

People play with jbits; each Riemann plays with abits.  Pots are paid contributor by
contributor (:func:`poker51.table.pots.pot_transfers`); :meth:`Ledger.book` books one transfer
``from -> to`` of ``v`` cents:

==============  ===============================================================
person -> same  its own chips back (returned, or its part of a pot it won)
person -> person  the winner's stack ``+= v``; the net result against people moves
person -> Riemann  Riemann's abits ``+= v``; ``v`` jbits are *held* for the person
Riemann -> person  Riemann first pays back ``y = min(v, held)`` jbits it holds for
                   that person (stack ``+= y``); the rest ``v - y`` is the person's
                   *abit score*, which cannot be bet
Riemann -> Riemann  abits only (design choice M7: two Riemanns in one pot)
==============  ===============================================================

When a Riemann leaves (:meth:`Ledger.riemann_leaves`) every held jbit returns to its
owner's stack and its abits vanish.  When a person leaves, every Riemann pays back the
jbits it holds for that person into the cash-out (design choice M8), so the person
leaves with buy-in plus net result against people.

**Conservation** (:meth:`Ledger.audit`): for every person,
``bank + stack + chips in the current pot + held for them - net against people`` is
the bank they came with; summed over people, ``bank + stack + pot + held`` is constant.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PERSON, RIEMANN = "person", "riemann"


@dataclass
class Person:
    """A person: ``bank`` cents in the Area 51 bank, ``initial`` the bank it came with."""

    name: str
    bank: int
    initial: int
    seat: int | None = None
    net_people: int = 0
    abit_score: int = 0
    session_buyin: int = 0
    session_net: int = 0


@dataclass
class RiemannSeat:
    """A Riemann: its seat, the person who added it, the jbits it holds per person."""

    name: str
    seat: int
    adder: str
    held: dict[str, int] = field(default_factory=dict)
    abits_at_add: int = 0


class Ledger:
    """The accounts of one table; ``stack`` is the table's seat -> cents dict."""

    def __init__(self, stack: dict[int, int]):
        self.stack = stack
        self.people: dict[str, Person] = {}
        self.riemanns: dict[str, RiemannSeat] = {}
        self.owner: dict[int, tuple[str, str]] = {}

    # ------------------------------------------------------------------ lookups
    def kind(self, seat: int) -> str:
        return self.owner[seat][0]

    def name(self, seat: int) -> str:
        return self.owner[seat][1]

    def held_for(self, person: str) -> int:
        return sum(r.held.get(person, 0) for r in self.riemanns.values())

    # ------------------------------------------------------------------ booking
    def book(self, a: int, b: int, v: int) -> None:
        """Book ``v`` cents of a pot contributed by seat ``a`` and won by seat ``b``."""
        if v < 0:
            raise ValueError(f"a transfer is non-negative, got {v}")
        ka, kb = self.kind(a), self.kind(b)
        if a == b or (ka == RIEMANN and kb == RIEMANN):
            self.stack[b] += v
        elif ka == PERSON and kb == PERSON:
            self.stack[b] += v
            for seat, sign in ((b, 1), (a, -1)):
                p = self.people[self.name(seat)]
                p.net_people += sign * v
                p.session_net += sign * v
        elif kb == RIEMANN:  # a person's jbits won by Riemann: held for that person
            r = self.riemanns[self.name(b)]
            person = self.name(a)
            r.held[person] = r.held.get(person, 0) + v
            self.stack[b] += v
        else:  # Riemann's abits won by a person: pay back held jbits first, the rest is abit score
            r = self.riemanns[self.name(a)]
            person = self.name(b)
            held = r.held.get(person, 0)
            y = min(v, held)
            if held - y:
                r.held[person] = held - y
            else:
                r.held.pop(person, None)
            self.stack[b] += y
            self.people[person].abit_score += v - y

    def riemann_leaves(self, name: str) -> dict[str, int]:
        """Every jbit ``name`` holds returns to its owner's stack (or bank); its abits vanish."""
        r = self.riemanns.pop(name)
        returned = {p: v for p, v in sorted(r.held.items()) if v > 0}
        for p, v in returned.items():
            person = self.people[p]
            if person.seat is not None:
                self.stack[person.seat] += v
            else:
                person.bank += v
        self.stack[r.seat] = 0
        del self.owner[r.seat]
        return returned

    def pay_back(self, person: str) -> int:
        """Every Riemann pays back what it holds for ``person`` (who is leaving); the total."""
        total = 0
        for r in self.riemanns.values():
            total += r.held.pop(person, 0)
        return total

    # ------------------------------------------------------------------ audit
    def person_total(self, p: Person, in_pot: dict[int, int]) -> int:
        """bank + stack + chips in the current pot + held for p (cents)."""
        at_table = 0 if p.seat is None else self.stack.get(p.seat, 0) + in_pot.get(p.seat, 0)
        return p.bank + at_table + self.held_for(p.name)

    def audit(self, in_pot: dict[int, int] | None = None) -> list[str]:
        """The conservation checks that fail now (empty when jbits are conserved)."""
        in_pot = in_pot or {}
        bad = []
        for p in self.people.values():
            total = self.person_total(p, in_pot)
            if total - p.net_people != p.initial:
                bad.append(f"{p.name}: bank + stack + pot + held - net = {total - p.net_people} != {p.initial}")
        for r in self.riemanns.values():
            if any(v < 0 for v in r.held.values()):
                bad.append(f"{r.name}: negative held jbits {r.held}")
        if sum(p.net_people for p in self.people.values()) != 0:
            bad.append("net results against people do not sum to zero")
        return bad

    def total_people(self, in_pot: dict[int, int] | None = None) -> int:
        return sum(self.person_total(p, in_pot or {}) for p in self.people.values())


__all__ = ["PERSON", "RIEMANN", "Ledger", "Person", "RiemannSeat"]
