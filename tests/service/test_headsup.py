"""The heads-up room without the host: the draw-odds panel against brute force, Riemann's words
from public information only, replay (a restart) to the same view under v0.6 and v0.5."""

from __future__ import annotations

import json
from itertools import combinations
from math import comb

import pytest
from service_helpers import v05_belief

from poker51.cards import parse_cards
from poker51.hands.pure import pure_strength
from poker51.play.actions import H, R
from poker51.play.engine import HandState, stacked_deck
from poker51.rules import CATEGORIES, RULE_ORDINARY
from poker51.service.headsup import HeadsUpRoom, draw_odds, public_history, riemann_words, unseen_cards
from poker51.service.rooms import Context
from poker51.table.errors import IllegalAction
from poker51.table.protocol import TableAction


@pytest.mark.parametrize("keep", [0b00111, 0b01010, 0b11111])
def test_draw_odds_is_brute_force(keep):
    dealt = parse_cards("As Ad 7c 7h 2d")
    got = draw_odds("standard", dealt, keep)
    kept = [c for i, c in enumerate(dealt) if keep >> i & 1]
    unseen = unseen_cards("standard", dealt)
    assert len(unseen) == 46
    counts = dict.fromkeys(CATEGORIES, 0)
    for extra in combinations(unseen, 5 - len(kept)):
        counts[CATEGORIES[pure_strength(kept + list(extra), RULE_ORDINARY) >> 20]] += 1
    assert got["counts"] == counts and got["total"] == comb(46, 5 - len(kept))


def test_draw_odds_all_five_is_the_census_of_46_cards():
    """Drawing five: the census kernel's counts of the 46-card deck, checked against the strength
    kernel over every one of the C(46, 5) hands."""
    import numpy as np

    from poker51.hands.evaluate import strengths

    dealt = parse_cards("As Ad 7c 7h 2d")
    got = draw_odds("standard", dealt, 0)
    hands = np.array(list(combinations(unseen_cards("standard", dealt), 5)), np.int64)
    brute = np.bincount(strengths(hands, RULE_ORDINARY) >> 20, minlength=len(CATEGORIES))
    assert got["total"] == 1_370_754 == len(hands)
    assert list(got["counts"].values()) == brute.tolist()
    with pytest.raises(IllegalAction, match="draw-odds"):
        draw_odds("standard", dealt, 32)


def _state(deck_top, actions):
    s = HandState("standard", {H: 20, R: 20}, stacked_deck("standard", parse_cards(deck_top)))
    for a in actions:
        s.play(TableAction.from_json(a))
    return s


def test_words_read_no_hidden_card():
    plays = [{"seat": "H", "kind": "bet", "amount": 2, "keep": 3}, {"seat": "R", "kind": "raise", "amount": None}]
    a = _state("Ah Ad Kc 7s 3d  Qh Qd 9c 6s 4h", plays)
    b = _state("2h 3s 9d Jc 5h  Ac As Kd Kh 8s", plays)
    assert a.hands != b.hands
    assert public_history(a) == public_history(b)
    for moment in ("fold", "call", "raise", "win", "loss", "split"):
        assert riemann_words("room-0", moment, public_history(a)) == riemann_words("room-0", moment, public_history(b))
    # and the words do depend on the public id: not one line for every hand
    lines = {riemann_words(f"room-{k}", "raise", public_history(a)) for k in range(40)}
    assert len(lines) > 1


def _drive(room, owner, bank=800, now=10.0, steps=60):  # banks are cents
    """Play H's side with a simple rule until the hand ends: (outcomes, the owner's view after each)."""
    outs = [room.apply(owner, bank, {"type": "deal"}, now)]
    views = [json.dumps(room.view(owner))]
    for _ in range(steps):
        v = room.view(owner)["hand"]
        if v["view"]["result"] is not None:
            break
        if v["can_draw"]:
            cmd = {"type": "draw"}
        else:
            legal = v["view"]["legal"]
            pick = next((a for a in legal if a["kind"] in ("call", "check")), legal[0])
            cmd = {"type": "act", "kind": pick["kind"], "amount": pick["amount"]}
            if v["view"]["needs_keep"]:
                cmd["keep"] = 0b11000
        outs.append(room.apply(owner, bank, cmd, now))
        views.append(json.dumps(room.view(owner)))
    return outs, views


@pytest.mark.parametrize("rules", ["v0.6", "v0.5"])
def test_replay_resumes_exactly(riemann, rules):
    ctx = Context(riemann={"standard": riemann}, belief=v05_belief)
    params = {"owner": "a1", "rules": rules, "entropy": 11}
    room = HeadsUpRoom("r1", params, 0.0, context=ctx)
    outs, views = _drive(room, "a1")
    assert room.view("a1")["hand"]["view"]["result"] is not None and len(outs) >= 3
    entries = [json.loads(json.dumps(e)) for o in outs for e in o.journal]  # as the store keeps them
    assert [e["rules"] for e in entries if e["type"] == "deal"] == [rules]
    for k in range(len(entries)):  # every prefix replays to the view the live room had after it
        again = HeadsUpRoom("r1", params, 0.0, context=Context())  # no policy needed to resume
        for x in entries[: k + 1]:
            again.replay(x)
        assert json.dumps(again.view("a1")) == views[k]
    # a resumed hand goes on under its policy to the same end as the live one
    if len(entries) > 2:
        again = HeadsUpRoom("r1", params, 0.0, context=ctx)
        for x in entries[:2]:
            again.replay(x)
        for e in entries[2:]:
            p = e.get("play", {})
            cmd = {"type": e["type"], **({k: p[k] for k in ("kind", "amount", "keep") if k in p} if p else {})}
            again.apply("a1", 800, cmd, 10.0)
        assert json.dumps(again.view("a1")) == views[-1]


def test_policy_and_owner_rules(riemann):
    room = HeadsUpRoom("r2", {"owner": "a1", "rules": "v0.5", "entropy": 1}, 0.0, context=Context())
    with pytest.raises(IllegalAction, match="policy"):
        room.apply("a1", 800, {"type": "deal"}, 1.0)
    room = HeadsUpRoom("r2", {"owner": "a1", "entropy": 1}, 0.0, context=Context(riemann={"standard": riemann}))
    with pytest.raises(IllegalAction, match="owner"):
        room.apply("a2", 800, {"type": "deal"}, 1.0)
    with pytest.raises(IllegalAction, match="ante"):
        room.apply("a1", 99, {"type": "deal"}, 1.0)  # 0.99 jbit: short of the ante
    out = room.apply("a1", 10050, {"type": "deal"}, 1.0)  # 100.5 jbits: the cap of 64 whole jbits
    assert [(m.account, m.delta, m.kind) for m in out.movements] == [
        ("a1", -6400, "buyin"),
        ("house", -6400, "house_stake"),
    ]
    assert room.chips() == {"a1": 6400, "house": 6400}
