"""Riemann and abits: held jbits, pay-back then abit score, Riemann leaving, the open cases."""

from __future__ import annotations

import pytest

from poker51.cards import parse_cards
from poker51.errors import InputError
from poker51.multi.commit import DeckSource
from poker51.multi.ledger import PERSON, RIEMANN, Ledger, Person, RiemannSeat
from poker51.multi.table import Table
from poker51.table.pots import Pot, pot_transfers


def ledger() -> Ledger:
    stack = {0: 1000, 1: 1000, 2: 1600}
    led = Ledger(stack)
    for seat, name in ((0, "a"), (1, "b")):
        led.people[name] = Person(name, 0, 1000, seat, session_buyin=1000)
        led.owner[seat] = (PERSON, name)
    led.riemanns["r"] = RiemannSeat("r", 2, "a", {}, 1600)
    led.owner[2] = (RIEMANN, "r")
    return led


def test_riemann_pays_back_held_jbits_then_abit_score():
    led = ledger()
    led.stack[0] -= 500  # a put 500 in a pot that Riemann won
    led.book(0, 2, 500)
    assert led.riemanns["r"].held == {"a": 500} and led.stack[2] == 2100
    led.stack[2] -= 800  # Riemann put 800 in a pot that a won
    led.book(2, 0, 800)
    assert led.riemanns["r"].held == {}
    assert led.stack[0] == 500 + 500  # the 500 held jbits paid back
    assert led.people["a"].abit_score == 300  # the rest is a's abit score, never bet
    assert led.audit() == []


def test_pay_back_is_per_person():
    led = ledger()
    led.stack[0] -= 300
    led.book(0, 2, 300)  # held for a
    led.stack[2] -= 200
    led.book(2, 1, 200)  # b wins from Riemann: nothing is held for b
    assert led.stack[1] == 1000 and led.people["b"].abit_score == 200
    assert led.riemanns["r"].held == {"a": 300} and led.audit() == []


def test_jbits_between_people_are_the_winners():
    led = ledger()
    led.stack[1] -= 400
    led.book(1, 0, 400)
    assert led.stack[0] == 1400 and led.people["a"].net_people == 400 and led.people["b"].net_people == -400
    assert led.audit() == []


def test_a_split_between_a_person_and_riemann_is_booked_contributor_by_contributor():
    led = ledger()
    led.riemanns["r"].held["a"] = 100  # from an earlier hand
    led.people["a"].initial += 100
    for seat in (0, 1, 2):
        led.stack[seat] -= 301
    pot = Pot(903, (0, 2), ((0, 301), (1, 301), (2, 301)))
    t = pot_transfers(pot, [2, 0], order=[0, 1, 2])  # Riemann first in turn
    assert t == {(0, 2): 151, (0, 0): 150, (1, 2): 150, (1, 0): 151, (2, 2): 151, (2, 0): 150}
    for (a, b), v in t.items():  # contributor by contributor, in turn: a's part, b's, then Riemann's
        led.book(a, b, v)
    assert led.riemanns["r"].held == {"a": 100 + 151 - 150, "b": 150}  # Riemann's 150 to a is paid back
    assert led.stack[0] == 1000 - 301 + 150 + 151 + 150
    assert led.people["a"].abit_score == 0 and led.audit() == []


def test_two_riemanns_in_one_pot_move_abits_only():
    led = ledger()
    led.riemanns["s"] = RiemannSeat("s", 3, "a", {}, 500)
    led.owner[3] = (RIEMANN, "s")
    led.stack[3] = 500
    led.stack[3] -= 200
    led.book(3, 2, 200)
    assert led.stack[2] == 1800 and led.riemanns["s"].held == {} and led.riemanns["r"].held == {}
    assert led.audit() == []


def seated() -> Table:
    t = Table("t", DeckSource("seedsequence", 4), button=3)
    t.sit("a", 0, 4)
    t.sit("b", 1, 16)
    t.add_riemann("a", 2, "r")
    return t


def riemann_wins_antes(t: Table) -> None:
    """a and b fold to Riemann's open: Riemann wins their antes, held for each of them."""
    t.start_hand()
    t.act(0, "check")
    t.act(1, "check")
    t.act(2, "open", 200)
    t.act(0, "fold")
    t.act(1, "fold")
    assert t.ledger.riemanns["r"].held == {"a": 100, "b": 100}


def test_riemann_removed_returns_held_jbits_and_its_abits_vanish():
    t = seated()
    riemann_wins_antes(t)
    t.remove_riemann("r", by="b")
    assert "r" not in t.ledger.riemanns and 2 not in t.ledger.owner
    assert t.stack == {0: 400, 1: 1600, 2: 0}
    assert t.log[-1]["returned"] == {"a": 100, "b": 100} and t.log[-1]["abits_cents"] == 600
    assert not t.audit_failures


def test_riemann_leaves_with_its_adder_and_held_jbits_return_to_each_owner():
    t = seated()
    riemann_wins_antes(t)
    rec = t.leave("a")
    assert rec is not None and rec["amount_cents"] == 400 and rec["held_returned_cents"] == 0
    assert "r" not in t.ledger.riemanns and t.stack == {1: 1600, 2: 0}
    assert t.ledger.people["a"].bank == 400 and not t.audit_failures


def test_a_person_leaving_takes_the_jbits_riemann_holds_for_it():
    t = seated()
    riemann_wins_antes(t)
    rec = t.leave("b")
    assert rec is not None and rec["amount_cents"] == 1600 and rec["held_returned_cents"] == 100
    assert t.ledger.riemanns["r"].held == {"a": 100} and not t.audit_failures


def test_riemann_out_of_abits_leaves_and_returns_held_jbits():
    t = seated()
    riemann_wins_antes(t)  # abits 400 + 200, holds 100 for a and for b
    assert t.stack[2] == 600
    # hand 2, button 4: a, b, r.  b: aces full; Riemann: junk, it puts in every abit and loses
    t.start_hand(parse_cards("2d Ah 3s  4h Ad 5s  6h Ac 8s  9h Ks Ts  Jh Kd Qs"))
    t.act(0, "check")
    t.act(1, "open", 400)
    t.act(2, "call")
    t.act(0, "fold")
    t.draw(1, [])
    t.draw(2, [])
    t.act(1, "open", 100)
    t.act(2, "call")
    assert not t.in_hand and "r" not in t.ledger.riemanns  # 0 abits: it left at the end of the hand
    leave = [r for r in t.log if r["event"] == "riemann_leave"][0]
    assert leave["why"] == "out of abits" and leave["returned"] == {"a": 100}
    assert t.ledger.people["b"].abit_score == 600 - 100  # b's 100 held jbits came back first
    assert t.stack == {0: 400 - 100 + 100 - 100, 1: 1600 - 100 + 100 + 100, 2: 0}
    assert not t.audit_failures


def test_the_table_closing_returns_everything():
    t = seated()
    riemann_wins_antes(t)
    t.close()
    assert t.ledger.people["a"].bank == 400 and t.ledger.people["b"].bank == 1600
    assert not t.ledger.riemanns and not t.audit_failures
    with pytest.raises(InputError, match="closed"):
        t.sit("c", 3, 2)


def test_a_person_may_add_two_riemanns_each_with_its_stack_then():
    t = seated()
    t.add_riemann("a", 3, "s")
    assert t.stack[3] == 400 and t.ledger.riemanns["s"].adder == "a"
    with pytest.raises(InputError, match="only a seated person"):
        t.add_riemann("r", 4)
    t.leave("a")
    assert not t.ledger.riemanns  # both leave with their adder
