"""The population's types on real cards play the abstract type policies at the same spots."""

from __future__ import annotations

import numpy as np
import pytest

from poker51.abstraction.buckets import bucket_of
from poker51.abstraction.classes import classify
from poker51.games.abstract import FIRST_ACTIONS, OPENS, build_game
from poker51.games.population import load_population, type_policy
from poker51.hands.house import keep_for_draw
from poker51.play.actions import Action, View
from poker51.play.engine import HandState, play_match, shuffled_deck
from poker51.play.players import RandomPlayer
from poker51.policies.types import TypePlayer, type_seed
from poker51.realcard.evidence import built_tables


@pytest.fixture(scope="module")
def setup():
    tables = built_tables("standard")
    ab = tables.arrays()
    game = build_game(ab)
    pop = load_population("config/population.yaml")
    index = {key: i for i, (_, key) in enumerate(game.iset_keys)}
    policies = {t.name: type_policy(game, ab, t) for t in pop.types}
    return tables, ab, game, pop, index, policies


def row(setup, name, key):
    _, _, game, _, index, policies = setup
    return policies[name][game.infoset_slice(index[key])]


def view(cards, phase, legal_line=(), stack=98, opp_stack=98, pot=2, to_call=0):
    return View(
        seat="H",
        variant="standard",
        phase=phase,
        cards=tuple(cards),
        keep=None,
        draw_count=None,
        opp_draw_count=None,
        stack=stack,
        opp_stack=opp_stack,
        contributed=1,
        opp_contributed=1,
        round_bet=0,
        opp_round_bet=0,
        pot=pot,
        to_call=to_call,
        opening_bet=None,
        line=tuple(legal_line),
    )


OPEN_LEGAL = [Action("check", 0)] + [Action("bet", b) for b in (1, 2, 4, 8)]


def probs_of(player, v, legal):
    return {a: p for a, p in player.probabilities(v, legal)}


def deals(n, seed=17):
    for i in range(n):
        d = shuffled_deck("standard", seed, i)
        yield d[0:5], d[10:15]


def test_type_player_matches_the_abstract_policy_at_every_spot_kind(setup):
    tables, ab, game, pop, _, _ = setup
    for t in pop.types:
        p = TypePlayer(t, "standard", tables, 1)
        size = t.open_size
        for dealt, final in deals(25):
            keep = p.choose_keep(view(dealt, "pre"))
            c = classify(dealt, "standard")
            d = t.draw_count(int(ab.r_draw[c]))
            assert (p.hand_class, p.draw) == (c, d)
            assert keep == keep_for_draw(dealt, d)
            # first action: (d, check) and (d, bet size)
            r = row(setup, t.name, ("H", 0, -1, -1, "", "", c))
            got = probs_of(p, view(dealt, "pre"), OPEN_LEGAL)
            assert got.get(Action("check", 0), 0.0) == pytest.approx(r[FIRST_ACTIONS.index((d, "x"))], abs=1e-12)
            assert got.get(Action("bet", size), 0.0) == pytest.approx(
                r[FIRST_ACTIONS.index((d, f"b{size}"))], abs=1e-12
            )
            # facing Riemann's raise of its bet, before the draw
            r = row(setup, t.name, ("H", 0, d, -1, f"b{size}-r", "", c))
            legal = [Action("call", size), Action("raise", 2 * size), Action("fold", 0)]
            got = probs_of(p, view(dealt, "pre", to_call=size), legal)
            np.testing.assert_allclose([got.get(a, 0.0) for a in (legal[2], legal[0], legal[1])], r, atol=1e-12)
            # after the draw: open, and facing Riemann's bet after a check
            b = bucket_of(final, "standard")
            post_open = view(final, "post")
            r = row(setup, t.name, ("H", 1, d, 3, "x-x", "", b))
            got = probs_of(p, post_open, OPEN_LEGAL)
            assert got.get(Action("bet", size), 0.0) == pytest.approx(r[OPENS.index(f"b{size}")], abs=1e-12)
            r = row(setup, t.name, ("H", 1, d, 3, "x-x", "x-b2", b))
            legal = [Action("call", 2), Action("raise", 4), Action("fold", 0)]
            got = probs_of(p, view(final, "post", to_call=2), legal)
            np.testing.assert_allclose([got.get(a, 0.0) for a in (legal[2], legal[0], legal[1])], r, atol=1e-12)


def test_empirical_frequencies_match_the_abstract_policy(setup):
    """Many seeded decisions at one spot: frequencies within 4.5 sigma of the type policy."""
    tables, ab, game, pop, _, _ = setup
    n = 3000
    for t in pop.types:
        p = TypePlayer(t, "standard", tables, type_seed(5, 0))
        # a spot where the type mixes: scan the deals for the most mixed pre-draw reply
        best = None
        for dealt, _ in deals(60, seed=3):
            p.choose_keep(view(dealt, "pre"))
            legal = [Action("call", 2), Action("raise", 4), Action("fold", 0)]
            pr = probs_of(p, view(dealt, "pre", to_call=2), legal)
            spread = 1 - max(pr.values())
            if best is None or spread > best[0]:
                best = (spread, dealt, p.hand_class, p.draw)
        _, dealt, c, d = best
        r = row(setup, t.name, ("H", 0, d, -1, f"b{t.open_size}-r", "", c))  # (fold, call, raise)
        counts = {"fold": 0, "call": 0, "raise": 0}
        legal = [Action("call", t.open_size), Action("raise", 2 * t.open_size), Action("fold", 0)]
        for _ in range(n):
            p.choose_keep(view(dealt, "pre"))  # a new hand: a new seeded stream
            counts[p.act(view(dealt, "pre", to_call=t.open_size), legal).kind] += 1
        for k, prob in zip(("fold", "call", "raise"), r):
            sigma = np.sqrt(max(prob * (1 - prob), 1e-12) / n)
            assert abs(counts[k] / n - prob) <= 4.5 * sigma + 1e-12, (t.name, k, counts, r)


def test_short_stack_bets_all_in_and_cannot_raise_an_all_in_player(setup):
    tables, _, _, pop, _, _ = setup
    rock = next(t for t in pop.types if t.open_size == 4)
    p = TypePlayer(rock, "standard", tables, 2)
    deck = shuffled_deck("standard", 1, 0)
    state = HandState("standard", {"H": 4, "R": 100}, deck)
    p.choose_keep(state.view("H"))
    bets = [a for a, _ in p.probabilities(state.view("H"), state.legal_actions()) if a.kind == "bet"]
    assert bets in ([], [Action("bet", 3)])  # all in for 3 when it bets at all
    if not bets:
        assert p.probabilities(state.view("H"), state.legal_actions())[0][0].kind == "check"
    # Riemann raises all in: H may only call or fold; its raise probability goes to the call
    state = HandState("standard", {"H": 100, "R": 5}, deck)
    keep = p.choose_keep(state.view("H"))
    state.bet(2, keep=keep)
    state.raise_bet()
    legal = state.legal_actions()
    assert {a.kind for a in legal} == {"call", "fold"}
    got = p.probabilities(state.view("H"), legal)
    assert {a.kind for a, _ in got} <= {"call", "fold"}
    assert sum(q for _, q in got) == pytest.approx(1.0)


def test_matches_are_reproducible(setup):
    tables, _, _, pop, _, _ = setup
    t = pop.types[2]

    def logs(seed):
        res = play_match(
            {"H": TypePlayer(t, "standard", tables, seed), "R": RandomPlayer(1)}, 60, 4, stacks={"H": 6, "R": 100}
        )
        return [r.log for r in res]

    assert logs(7) == logs(7)
    assert logs(7) != logs(8)
