"""The v0.6 real-card engine: each rule on a hand-built deal, with exact stacks after the hand."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker51.cards import parse_cards
from poker51.errors import InputError
from poker51.fnv import fnv1a_64
from poker51.play.actions import (
    RULE_ANSWER,
    RULE_BALANCE,
    RULE_CALL_AMOUNT,
    RULE_CHECK,
    RULE_CHECK_FOLD_AMOUNT,
    RULE_FACING,
    RULE_LOCK,
    RULE_NO_WAGER,
    RULE_ONE_BET,
    RULE_ORDER,
    RULE_R_BET,
    RULE_RAISE_COVER,
    RULE_RAISES,
    RULE_SIZES,
    Action,
    IllegalAction,
    ReplayError,
)
from poker51.play.engine import HandState, play_hand, play_match, replay, shuffled_deck, stacked_deck
from poker51.play.players import RandomPlayer, ScriptedPlayer

STAND = 0b11111
#: H holds a full house, R a pair of queens: H wins any showdown when both stand pat.
H_WINS = ("Ah Ad Ac Kd Ks", "Qh Qd 9c 6s 4h")
R_WINS = ("Qh Qd 9c 6s 4h", "Ah Ad Ac Kd Ks")


def deal(h: str, r: str, draws: str = "", variant: str = "standard") -> list[int]:
    return stacked_deck(variant, parse_cards(f"{h} {r} {draws}"))


def play(h_actions, r_actions, cards=H_WINS, stacks=(20, 20), h_keep=STAND, r_keep=STAND, variant="standard", draws=""):
    deck = deal(*cards, draws=draws, variant=variant)
    res = play_hand(
        {"H": ScriptedPlayer(h_actions, keeps=[h_keep]), "R": ScriptedPlayer(r_actions, keeps=[r_keep])},
        stacks={"H": stacks[0], "R": stacks[1]},
        deck=deck,
        variant=variant,
    )
    assert sum(res.stacks_after.values()) == sum(stacks)
    assert replay(res.log).log == res.log
    return res


def state(cards=H_WINS, stacks=(20, 20), variant="standard", draws="") -> HandState:
    return HandState(variant, {"H": stacks[0], "R": stacks[1]}, deal(*cards, draws=draws, variant=variant))


def events(res, kind):
    return [e for e in map(json.loads, res.log.splitlines()) if e["event"] == kind]


# --------------------------------------------------------------------------- folds and lines
@pytest.mark.parametrize(
    "h_actions, r_actions, net_h",
    [
        (["bet 8"], ["fold"], +1),  # R loses its ante only
        (["check", "fold"], ["bet 2"], -1),  # H folds to R's bet: loses its ante only
        (["bet 4", "raise"], ["raise", "fold"], +9),  # R folds to the re-raise: ante + its raise (8)
        (["bet 2", "fold"], ["raise"], -3),  # H folds to the raise: ante + its bet
        (["check", "bet 8"], ["check", "fold"], +1),  # post-draw fold after check-check
    ],
)
def test_fold_loses_only_the_folders_contribution(h_actions, r_actions, net_h):
    res = play(h_actions, r_actions, cards=R_WINS)  # R holds the better hand: the fold decides
    assert res.reason == "fold"
    assert res.net == {"H": net_h, "R": -net_h}
    assert res.stacks_after == {"H": 20 + net_h, "R": 20 - net_h}
    assert events(res, "result")[0]["hands"]["R"] == "Ah Ad Ac Kd Ks".split()  # revealed on a fold


def test_check_check_showdown_wins_the_antes():
    res = play(["check", "check"], ["check", "check"])
    assert (res.reason, res.winner, res.stacks_after) == ("showdown", "H", {"H": 21, "R": 19})
    assert [e["round"] for e in events(res, "action")] == ["pre", "pre", "post", "post"]


@pytest.mark.parametrize(
    "h_actions, r_actions, each_in",
    [
        (["bet 1", "check"], ["call", "check"], 2),
        (["bet 4", "call", "check"], ["raise", "check"], 9),  # raise by 4: R puts in 8
        (["bet 4", "raise", "check"], ["raise", "call", "check"], 13),  # re-raise by 4: H puts in 12
        (["bet 8", "raise", "bet 8"], ["raise", "call", "call"], 1 + 24 + 8),  # full line, then a post bet
        (["check", "bet 2", "raise"], ["check", "raise", "call"], 1 + 6),  # post-draw: bet, raise, re-raise
    ],
)
def test_betting_lines_pay_the_matched_pot(h_actions, r_actions, each_in):
    res = play(h_actions, r_actions, stacks=(40, 40))
    assert res.winner == "H" and res.net == {"H": each_in, "R": -each_in}
    assert events(res, "result")[0]["contributed"] == {"H": each_in, "R": each_in}


def test_riemann_bets_two_after_a_check_and_h_raises_it():
    res = play(["check", "raise", "check"], ["bet 2", "call", "check"], cards=R_WINS)
    acts = [(e["seat"], e["kind"], e["amount"]) for e in events(res, "action")]
    assert acts[:4] == [("H", "check", 0), ("R", "bet", 2), ("H", "raise", 4), ("R", "call", 2)]
    assert res.stacks_after == {"H": 15, "R": 25}


# --------------------------------------------------------------------------- all-ins
def test_short_all_in_bet_below_eight():
    s = state(stacks=(6, 20))  # 5 left after the ante
    assert [a for a in s.legal_actions() if a.kind == "bet"] == [Action("bet", b) for b in (1, 2, 4, 5)]
    with pytest.raises(IllegalAction, match="balance"):
        s.verify_bet(8, keep=STAND)
    with pytest.raises(IllegalAction, match="1, 2, 4 or 8"):
        s.verify_bet(3, keep=STAND)
    s.bet(5, keep=STAND)
    assert s.stacks["H"] == 0 and s.records[-1].all_in
    s.call()
    s.draw(STAND)
    assert s.phase == "done"  # no post-draw wager: H has no jbits left
    assert s.result().stacks_after == {"H": 12, "R": 14}


def test_whole_balance_is_a_bet_only_below_eight():
    s = state(stacks=(11, 20))  # 10 left: 10 is not an allowed size
    with pytest.raises(IllegalAction) as err:
        s.verify_bet(10, keep=STAND)
    assert RULE_SIZES in str(err.value)


@pytest.mark.parametrize("cards, net_h", [(H_WINS, +4), (R_WINS, -4)])
def test_call_for_less_returns_the_unmatched_excess(cards, net_h):
    res = play(["bet 8"], ["call"], cards=cards, stacks=(20, 4))  # R has 3 after the ante
    call = events(res, "action")[1]
    assert (call["kind"], call["amount"], call["all_in"]) == ("call", 3, True)
    result = events(res, "result")[0]
    assert result["returned"] == {"H": 5, "R": 0}
    assert res.net == {"H": net_h, "R": -net_h}


def test_h_calls_a_raise_for_less():
    res = play(["bet 4", "call"], ["raise"], cards=R_WINS, stacks=(7, 30))  # H: 6 left, 2 after its bet
    assert events(res, "action")[-1]["amount"] == 2 and events(res, "action")[-1]["all_in"]
    assert events(res, "result")[0]["returned"] == {"H": 0, "R": 2}
    assert res.stacks_after == {"H": 0, "R": 37}


def test_riemann_may_not_bet_or_raise_an_all_in_h():
    s = state(stacks=(5, 20))
    s.bet(4, keep=STAND)  # H all in
    assert not s.can_raise_bet()
    with pytest.raises(IllegalAction) as err:
        s.verify_raise_bet()
    assert RULE_ANSWER in str(err.value) and "How Riemann bets 5" in str(err.value)
    assert [a.kind for a in s.legal_actions()] == ["call", "fold"]


def test_a_raise_must_be_covered_in_full():
    s = state(stacks=(20, 12))  # R: 11 left, a raise of 8 needs 16
    s.bet(8, keep=STAND)
    with pytest.raises(IllegalAction) as err:
        s.verify_raise_bet()
    assert RULE_RAISE_COVER in str(err.value)
    assert s.legal_actions() == [Action("call", 8), Action("fold", 0)]


def verified_candidates(s: HandState) -> list[Action]:
    """What legal_actions lists, by definition: each candidate action that ``can_x`` accepts."""
    if s.actor is None:
        return []
    keep = 0 if s.keep_required else None
    sizes = sorted({1, 2, 4, 8, s.stacks["H"]}) if s.actor == "H" else [2]
    out = [Action("check", 0)] if s.can_check(keep) else []
    out += [Action("bet", b) for b in sizes if s.can_bet(b, keep)]
    out += [Action("call", s._call_amount())] if s.can_call() else []
    out += [Action("raise", s._raise_amount())] if s.can_raise_bet() else []
    return out + ([Action("fold", 0)] if s.can_fold() else [])


@pytest.mark.parametrize("h", [1, 2, 3, 5, 7, 9, 13, 17, 40])
def test_legal_actions_are_the_verified_candidates_on_every_line(h):
    """Every betting line of both rounds, from short and deep stacks on both sides."""
    for r in (1, 2, 3, 5, 7, 9, 13, 17, 40):
        todo = [[]]
        while todo:
            line = todo.pop()
            s = state(stacks=(h, r), draws="2d 3d 4d 5h 6h 7h 8s 9s Ts")
            for a in line:
                if s.phase == "draw":
                    s.draw(0b00011)
                s.apply(a, keep=0b00111 if s.keep_required else None)
            if s.phase == "draw":
                s.draw(0b00011)
            legal = s.legal_actions()
            assert legal == verified_candidates(s), (h, r, line)
            todo += [[*line, a] for a in legal]


@pytest.mark.parametrize("stacks, net_h", [((1, 20), +1), ((20, 1), +1), ((1, 1), +1)])
def test_ante_with_the_last_jbit_gives_an_ante_only_showdown(stacks, net_h):
    s = state(stacks=stacks, draws="2d 3d 4d")
    assert s.legal_actions() == [Action("check", 0)]
    with pytest.raises(IllegalAction) as err:
        s.verify_bet(1, keep=STAND)
    assert RULE_NO_WAGER in str(err.value)
    with pytest.raises(IllegalAction, match="keeps"):
        s.verify_check()  # the keep must still be chosen and locked
    s.check(keep=0b00111)  # lock: keep the three aces, draw two
    assert s.phase == "draw" and s.view("R").opp_draw_count == 2
    s.draw(STAND)
    assert s.phase == "done" and s.hands["H"] == parse_cards("Ah Ad Ac 2d 3d")
    assert s.result().net == {"H": net_h, "R": -net_h}
    assert [r.kind for r in s.records] == ["check"]


# --------------------------------------------------------------------------- illegal actions
def test_amounts_that_the_rules_fix_are_refused_naming_the_rule():
    """A check or a fold puts in nothing; a wrong amount is refused for that reason, not for
    the facing rule (whether or not a bet is open)."""
    s = state()
    for action in (Action("check", 3), Action("fold", 1)):
        with pytest.raises(IllegalAction) as err:
            s.apply(action, keep=STAND)
        assert RULE_CHECK_FOLD_AMOUNT in str(err.value) and RULE_FACING not in str(err.value)
    s.apply(Action("bet", 4), keep=STAND)
    with pytest.raises(IllegalAction) as err:
        s.apply(Action("check", 3))
    assert RULE_CHECK_FOLD_AMOUNT in str(err.value)
    with pytest.raises(IllegalAction) as err:
        s.apply(Action("raise", 3))  # R's raise is by H's 4
    assert RULE_RAISES in str(err.value)


def test_illegal_actions_name_their_rule():
    s = state()
    with pytest.raises(IllegalAction) as err:
        s.verify_bet(3, keep=STAND)
    assert RULE_SIZES in str(err.value)
    assert isinstance(err.value, InputError)
    for bad in (0, 16, -2):
        assert not s.can_bet(bad, keep=STAND)
    checks = [
        (lambda: s.verify_call(), RULE_FACING),
        (lambda: s.verify_fold(), RULE_FACING),
        (lambda: s.verify_raise_bet(), RULE_FACING),
        (lambda: s.verify_draw(STAND), RULE_ORDER),
    ]
    for fn, rule in checks:
        with pytest.raises(IllegalAction) as err:
            fn()
        assert rule in str(err.value)
    s.check(keep=STAND)
    with pytest.raises(IllegalAction) as err:
        s.verify_bet(4)  # R's bet stays 2
    assert RULE_R_BET in str(err.value)
    s.bet(2)
    for fn, rule in [(lambda: s.verify_check(), RULE_CHECK), (lambda: s.verify_bet(2), RULE_ONE_BET)]:
        with pytest.raises(IllegalAction) as err:
            fn()
        assert rule in str(err.value)
    s.raise_bet()
    with pytest.raises(IllegalAction) as err:
        s.verify_raise_bet()  # R may only call or fold now
    assert RULE_RAISES in str(err.value)
    with pytest.raises(IllegalAction) as err:
        s.apply(Action("call", 5))  # a call puts in 2 here
    assert RULE_CALL_AMOUNT in str(err.value)
    s.apply(Action("call"))
    assert s.phase == "draw" and s.contrib == {"H": 5, "R": 5}


def test_balance_rule_and_bad_inputs():
    with pytest.raises(IllegalAction, match="ante"):
        state(stacks=(0, 5))
    with pytest.raises(InputError, match="permutation"):
        HandState("standard", {"H": 5, "R": 5}, stacked_deck("wild", parse_cards("2c")))
    s = state(stacks=(20, 3))
    s.check(keep=STAND)
    s.bet(2)  # R's whole balance
    with pytest.raises(IllegalAction, match="no jbits left to answer"):
        s.verify_raise_bet()  # R all in: H may not raise
    assert [a.kind for a in s.legal_actions()] == ["call", "fold"]
    s3 = state(stacks=(3, 2))  # H 2 left, R 1 left: R cannot bet 2
    s3.check(keep=STAND)
    with pytest.raises(IllegalAction) as err:
        s3.verify_bet(2)
    assert RULE_BALANCE in str(err.value)


# --------------------------------------------------------------------------- the draw
def test_first_action_locks_and_announces_the_draw():
    s = state(draws="2d 3d 4d 5d 6d 7d 8d")
    with pytest.raises(IllegalAction) as err:
        s.verify_bet(2)
    assert RULE_LOCK in str(err.value)
    assert s.view("R").opp_draw_count is None
    s.bet(2, keep=0b00011)  # keep Ah Ad, draw three
    assert s.view("R").opp_draw_count == 3 and s.view("H").draw_count == 3
    with pytest.raises(IllegalAction) as err:
        s.apply(Action("call"), keep=STAND)
    assert RULE_LOCK in str(err.value)
    s.call()
    with pytest.raises(IllegalAction, match="keep mask"):
        s.verify_draw(32)
    s.draw(0b00001)  # R keeps Qh, draws four
    assert s.hands["H"] == parse_cards("Ah Ad 2d 3d 4d")
    assert s.hands["R"] == parse_cards("Qh 5d 6d 7d 8d")
    assert s.view("H").opp_draw_count == 4 and s.phase == "post"
    with pytest.raises(IllegalAction) as err:
        s.verify_check(keep=STAND)  # no keep after the draw
    assert RULE_LOCK in str(err.value)
    view = s.view("R")
    assert view.cards == tuple(parse_cards("Qh 5d 6d 7d 8d")) and view.pot == 6 and view.line[0].amount == 2


def test_players_see_only_their_own_cards():
    seen = []

    class Spy(ScriptedPlayer):
        def act(self, view, legal):
            seen.append(view)
            return super().act(view, legal)

    deck = deal(*H_WINS)
    play_hand({"H": Spy(["check", "check"]), "R": Spy(["check", "check"])}, stacks={"H": 9, "R": 9}, deck=deck)
    for v in seen:
        own = set(deck[0:5]) if v.seat == "H" else set(deck[5:10])
        assert set(v.cards) == own and v.seat in ("H", "R")
    assert {v.seat for v in seen} == {"H", "R"} and seen[1].opp_draw_count == 0


# --------------------------------------------------------------------------- split, variants
def test_split_pot_and_split_with_excess():
    cards = ("9c Td Jh Qs Kd", "9d Th Js Qc Ks")
    res = play(["bet 4", "check"], ["call", "check"], cards=cards)
    assert res.winner is None and res.net == {"H": 0, "R": 0}
    assert events(res, "showdown")[0]["winner"] == "split"
    res = play(["bet 8"], ["call"], cards=cards, stacks=(20, 4))
    assert res.net == {"H": 0, "R": 0} and events(res, "result")[0]["returned"] == {"H": 5, "R": 0}


@pytest.mark.parametrize(
    "variant, winner, category_h", [("wild", "H", "four_of_a_kind"), ("bug", "R", "three_of_a_kind")]
)
def test_marker_read_by_the_variant_rule(variant, winner, category_h):
    res = play(["check", "check"], ["check", "check"], cards=("2c Kh Kd Ks 5c", "9c Td Jh Qs 8d"), variant=variant)
    show = events(res, "showdown")[0]
    assert (res.winner, show["H"]["category"], show["R"]["category"]) == (winner, category_h, "straight")


def test_standard_deck_has_51_cards_without_the_marker():
    deck = shuffled_deck("standard", 51, 0)
    assert len(deck) == 51 and 0 not in deck and len(set(deck)) == 51
    assert sorted(shuffled_deck("wild", 51, 0)) == list(range(52))
    assert shuffled_deck("bug", 51, 3) == shuffled_deck("bug", 51, 3) != shuffled_deck("bug", 51, 4)


# --------------------------------------------------------------------------- invariants, replay
@settings(max_examples=60, deadline=None)
@given(
    h=st.integers(1, 40),
    r=st.integers(1, 40),
    seed=st.integers(0, 2**32),
    variant=st.sampled_from(["standard", "wild", "bug"]),
)
def test_jbits_conserved_random_legal_players(h, r, seed, variant):
    results = play_match(
        {"H": RandomPlayer(seed), "R": RandomPlayer(seed + 1)},
        12,
        seed,
        variant,
        stacks={"H": h, "R": r},
        carry_stacks=True,
    )
    for res in results:
        assert sum(res.stacks_after.values()) == h + r and min(res.stacks_after.values()) >= 0
        assert res.net["H"] == -res.net["R"]
        assert replay(res.log_bytes).log_bytes == res.log_bytes


def test_many_seeded_hands_conserve_and_cover_every_action():
    kinds = set()
    for variant in ("standard", "wild", "bug"):
        for stacks in ({"H": 12, "R": 9}, {"H": 9, "R": 12}):
            results = play_match({"H": RandomPlayer(5), "R": RandomPlayer(6)}, 200, 2024, variant, stacks=stacks)
            assert len(results) == 200
            for res in results:
                assert sum(res.stacks_after.values()) == 21 and res.stacks_before == stacks
                kinds |= {(e["seat"], e["kind"], e["all_in"]) for e in events(res, "action")}
    assert {("H", k, False) for k in ("check", "bet", "call", "raise", "fold")} <= kinds
    assert {("R", k, False) for k in ("check", "bet", "call", "raise", "fold")} <= kinds
    assert {("H", "bet", True), ("R", "call", True), ("H", "call", True)} <= kinds


def test_replay_byte_for_byte():
    a = play_match({"H": RandomPlayer(1), "R": RandomPlayer(2)}, 30, 99, "wild")
    b = play_match({"H": RandomPlayer(1), "R": RandomPlayer(2)}, 30, 99, "wild")
    assert [x.log_bytes for x in a] == [y.log_bytes for y in b]  # same players and seed
    for res in a:
        again = replay(res.log)  # from the logged actions alone
        assert again.log_bytes == res.log_bytes and again.net == res.net
    log = a[0].log
    head = json.loads(log.splitlines()[0])
    head["deck"][0], head["deck"][1] = head["deck"][1], head["deck"][0]
    with pytest.raises(ReplayError, match="seed"):
        replay("\n".join([json.dumps(head, separators=(",", ":"))] + log.splitlines()[1:]) + "\n")
    tampered = log.replace('"rules":"v0.6"', '"rules":"v0.5"', 1)
    with pytest.raises(ReplayError, match="differs"):
        replay(tampered)


def test_play_match_nets_and_fnv_vectors():
    res = play_match({"H": RandomPlayer(3), "R": RandomPlayer(4)}, 50, 7, "bug")
    assert all(r.stacks_before == {"H": 100, "R": 100} for r in res)
    assert sum(r.net["H"] for r in res) == -sum(r.net["R"] for r in res)
    assert [r.seed for r in res[:2]] == [(7, 0), (7, 1)]
    assert fnv1a_64(b"") == 0xCBF29CE484222325
    assert fnv1a_64(b"a") == 0xAF63DC4C8601EC8C
    assert fnv1a_64(b"foobar") == 0x85944171F73967E8
