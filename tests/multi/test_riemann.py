"""Riemann's five playing rules at a table, and their heads-up reduction to v0.3 (rule card v1)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from poker51.abstraction.belief import read_score
from poker51.multi.belief import standard_belief
from poker51.multi.commit import DeckSource
from poker51.multi.law import Move
from poker51.multi.riemann import RiemannPolicy, decide_from_read, power, price
from poker51.multi.table import Table
from poker51.multi.view import Spot
from poker51.policies import v05

READS = np.round(np.linspace(0.0, 1.0, 41), 3)


def heads_up(seed: int = 5) -> Table:
    t = Table("hu", DeckSource("seedsequence", seed), button=1)
    t.sit("h", 0, 16)
    t.add_riemann("h", 1, "r")
    t.start_hand()
    return t


def kind(m: Move) -> str:
    return {"open": "bet"}.get(m.kind, m.kind)


def v05_kind(names: list[str], p: np.ndarray) -> str:
    return names[int(np.argmax(p))]


@pytest.mark.parametrize("bet", [1, 2, 4, 8])
def test_heads_up_facing_a_bet_is_v03s_B_over_P0_plus_2B(bet):
    t = heads_up()
    t.act(0, "open", 100 * bet)
    spot = t.spot(1)
    p0 = 2  # the two antes, in jbits
    assert Fraction(spot.to_call, spot.pot + spot.to_call) == Fraction(bet, p0 + 2 * bet)
    assert price(spot.to_call, spot.pot) == pytest.approx(v05.call_threshold(bet, p0), abs=1e-15)
    bluff = 1.0 if v05.in_bluff_class(spot.cards) else 0.0
    raise_move = [m for m in spot.legal if m.kind == "raise"][0]
    can_raise = not raise_move.incomplete  # 8 jbits: a full raise needs 16 behind, more than a buy-in leaves
    assert can_raise == (bet < 8)
    for r in READS:
        expect = v05_kind(["fold", "call", "raise"], v05.respond_to_bet(float(r), bet, p0, bluff, can_raise))
        assert kind(decide_from_read(float(r), spot)) == expect, r


@pytest.mark.parametrize("bet", [1, 2, 4])  # a re-raise of 8 needs 24 jbits behind
def test_heads_up_facing_a_re_raise_is_v03s_B_over_P0_plus_6B(bet):
    t = heads_up()
    t.act(0, "open", 100 * bet)
    t.act(1, "raise")
    t.act(0, "raise")
    spot = t.spot(1)
    assert Fraction(spot.to_call, spot.pot + spot.to_call) == Fraction(bet, 2 + 6 * bet)
    for r in READS:
        expect = v05_kind(["fold", "call"], v05.respond_to_reraise(float(r), bet, 2))
        assert kind(decide_from_read(float(r), spot)) == expect, r


def test_heads_up_after_the_draw_the_price_uses_the_pot_at_the_start_of_the_round():
    t = heads_up(7)
    t.act(0, "open", 200)
    t.act(1, "call")
    t.draw(0, [])
    t.draw(1, [])
    t.act(0, "open", 400)
    spot = t.spot(1)
    p0 = 6  # antes and 2 jbits each before the draw
    assert Fraction(spot.to_call, spot.pot + spot.to_call) == Fraction(4, p0 + 8)


def test_heads_up_checked_to_and_raised_after_its_bet_match_v03_steps_6_and_7():
    t = heads_up()
    t.act(0, "check")
    spot = t.spot(1)
    bluff = 1.0 if v05.in_bluff_class(spot.cards) else 0.0
    for r in READS:
        expect = v05_kind(["check", "bet"], v05.when_checked_to(float(r), bluff))
        assert kind(decide_from_read(float(r), spot)) == expect, r
    t.act(1, "open", 200)
    t.act(0, "raise")
    spot = t.spot(1)
    assert spot.aggressed and Fraction(spot.to_call, spot.pot + spot.to_call) == Fraction(2, 8 + 2)
    for r in READS:
        expect = v05_kind(["fold", "call"], v05.respond_to_raise_of_bet(float(r), 8, 2))
        assert kind(decide_from_read(float(r), spot)) == expect, r


def spot(**kw) -> Spot:
    base = Spot(1, (4, 8, 12, 16, 20), "post", 1500, 200, 600, 200, 0, False, 1, True, 3,
                (Move("fold"), Move("call", 200), Move("raise", 400)))  # fmt: skip
    return replace(base, **kw)


def test_rule_3_the_score_is_raised_to_the_number_of_opponents():
    r = 0.9  # adjusted at f = 0.85 (a 2-jbit open): 0.88235...; squared 0.7785, cubed 0.6869
    s1 = v05.adjusted_score(r, 0.85)
    assert power(s1, 3) == s1 * s1 * s1
    assert kind(decide_from_read(r, spot(opponents=2))) == "raise"
    assert kind(decide_from_read(r, spot(opponents=3))) == "call"  # 0.6869 >= 200 / 800
    assert kind(decide_from_read(0.72, spot(opponents=3))) == "call"  # 0.6706^3 = 0.3016 >= 200 / 800
    low = v05.adjusted_score(0.65, 0.85) ** 3
    assert low < 0.25 and kind(decide_from_read(0.65, spot(opponents=3))) == "fold"  # 0.5882^3 = 0.2035
    assert kind(decide_from_read(0.65, spot(opponents=1))) == "call"


def test_rule_5_one_bet_or_raise_a_round_and_only_while_someone_can_answer():
    assert kind(decide_from_read(1.0, spot())) == "raise"
    assert kind(decide_from_read(1.0, spot(aggressed=True))) == "call"
    assert kind(decide_from_read(1.0, spot(can_answer=False))) == "call"
    incomplete = (Move("fold"), Move("call", 200), Move("raise", 300, True, True))
    assert kind(decide_from_read(1.0, spot(legal=incomplete))) == "call"  # never an incomplete raise
    opening = spot(to_call=0, opening=0, legal=(Move("check"), Move("open", 100), Move("open", 200)))
    assert decide_from_read(0.8, opening) == Move("open", 200)
    assert decide_from_read(0.8, replace(opening, opponents=2)) == Move("check")  # 0.64 < 0.70
    short = replace(opening, stack=150, legal=(Move("check"), Move("open", 100), Move("open", 150, True)))
    assert decide_from_read(0.8, short) == Move("open", 150, True)  # less than 2 jbits: all in


def test_rules_1_and_2_the_reads():
    belief = standard_belief()
    policy = RiemannPolicy(belief)
    t = Table("r", DeckSource("seedsequence", 9), button=2)
    t.sit("a", 0, 16)
    t.sit("b", 1, 16)
    t.add_riemann("a", 2, "r")
    t.start_hand()
    t.act(0, "check")
    t.act(1, "check")
    sp = t.spot(2)
    comp = v05.completion_strengths(tuple(sorted(sp.cards)), "standard")
    assert policy.read(sp) == pytest.approx(float(np.mean(read_score(comp, belief, 5))), abs=1e-12)
    assert comp.size in (1, v05.N_COMPLETIONS)
    t.act(2, "check")
    hand = t.hand
    t.draw(0, hand.cards[0][:1])
    t.draw(1, hand.cards[1][:3])
    t.draw(2, policy.keep(hand.cards[2]))
    t.act(0, "check")
    t.act(1, "check")
    sp = t.spot(2)
    assert sp.min_draw == 1 and sp.round == "post"
    assert policy.read(sp) == v05.post_draw_read(sp.cards, 1, belief, "standard")
