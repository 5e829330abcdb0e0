"""Conservation is a theorem of the card (v1, "Riemann and abits"): a property test.

Over random sequences of sits, leaves, Riemann additions and removals, timeouts, backs and
whole hands of random legal actions (moves and draws), at every step the sum over people of
bank + stack + chips in the pot + jbits held for them is constant, and every person leaves
with buy-in plus net result against the other people.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from poker51.errors import InputError
from poker51.multi.commit import DeckSource
from poker51.multi.hand import DRAW
from poker51.multi.law import BUYINS
from poker51.multi.table import Table

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")
OPS = ("sit", "sit", "leave", "riemann", "remove", "timeout", "timeout", "back", "move", "move", "move", "hand", "hand")


def total(t: Table) -> int:
    in_pot = t.hand.committed if t.in_hand and t.hand is not None else {}
    return t.ledger.total_people(in_pot)


def random_move(t: Table, data: st.DataObject) -> None:
    hand = t.hand
    assert hand is not None
    seat = hand.actor
    assert seat is not None
    if hand.phase == DRAW:
        cards = hand.cards[seat]
        t.draw(seat, data.draw(st.lists(st.sampled_from(cards), unique=True, max_size=5)))
        return
    if data.draw(st.integers(0, 3)) == 0:
        t.timeout(seat)
        return
    m = data.draw(st.sampled_from(hand.legal(seat)))
    # an all-in raise smaller than a full raise is only ever the scripted `allin` (M3)
    assert t.act(seat, m.kind, m.amount, all_in=m.incomplete) == m


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(0, 4), st.data())
def test_jbits_are_conserved_at_every_step(seed, button, data):
    t = Table("prop", DeckSource("seedsequence", seed), button=button)
    banks: dict[str, int] = {}
    expected = 0
    seats = data.draw(st.lists(st.integers(0, 4), min_size=2, max_size=3, unique=True))
    for name, seat in zip(NAMES, seats):  # a table with players to start from
        buyin = data.draw(st.sampled_from(BUYINS))
        banks[name] = buyin * 100 + data.draw(st.sampled_from([0, 150, 1600]))
        t.sit(name, seat, buyin, banks[name])
        expected += banks[name]
    steps = data.draw(st.integers(10, 60))
    for _ in range(steps):
        op = data.draw(st.sampled_from(OPS))
        try:
            if op == "sit":
                name = data.draw(st.sampled_from(NAMES))
                bank = banks.setdefault(name, data.draw(st.sampled_from([200, 400, 1600, 3000])))
                new = name not in t.ledger.people
                try:
                    t.sit(name, data.draw(st.integers(0, 4)), data.draw(st.sampled_from(BUYINS)), bank if new else None)
                finally:
                    if new and name in t.ledger.people:
                        expected += bank
            elif op == "leave":
                t.leave(data.draw(st.sampled_from(NAMES)))
            elif op == "riemann":
                t.add_riemann(data.draw(st.sampled_from(NAMES)), data.draw(st.integers(0, 4)))
            elif op == "remove" and t.ledger.riemanns:
                t.remove_riemann(
                    data.draw(st.sampled_from(sorted(t.ledger.riemanns))), data.draw(st.sampled_from(NAMES))
                )
            elif op == "timeout" and t.in_hand:
                t.timeout(t.hand.actor)  # type: ignore[union-attr]
            elif op == "back" and t.ledger.owner:
                t.back(data.draw(st.sampled_from(sorted(t.ledger.owner))))
            elif op == "move" and t.in_hand:
                random_move(t, data)
            elif op == "hand":
                if not t.in_hand:
                    t.start_hand()
                while t.in_hand:
                    random_move(t, data)
        except InputError:
            pass  # an illegal operation changes nothing
        assert total(t) == expected
        assert not t.audit_failures, t.audit_failures
    while t.in_hand:
        random_move(t, data)
    t.close()
    assert not t.audit_failures, t.audit_failures
    assert total(t) == expected
    for p in t.ledger.people.values():  # everyone left with bank + net result against people
        assert p.bank == p.initial + p.net_people
    assert sum(p.net_people for p in t.ledger.people.values()) == 0
