"""The abstract Poker 51 game: its tree against an independent walk of the rules."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from helpers import random_policy, small_abstraction

from poker51.abstraction.tables import AbstractionArrays
from poker51.games.abstract import FIRST_ACTIONS, H, R, build_game, describe, read_draw
from poker51.rules import ANTE
from poker51.solver.best_response import best_response_value, expected_value
from poker51.solver.cfr import CFRPlusSolver
from poker51.solver.tree import FOLD, SHOWDOWN


@pytest.fixture(scope="module")
def tiny():
    ab = small_abstraction()
    return ab, build_game(ab)


def lookup(game, policy):
    """key -> action probabilities."""
    a = game.arrays
    return {(p, k): policy[a.act_off[i] : a.act_off[i + 1]] for i, (p, k) in enumerate(game.iset_keys)}


def walk_value(ab: AbstractionArrays, probs, ante: int = 1) -> float:
    """H's expected payoff, written from the rules (rule card / SPEC 5: both ante ``ante``, 1 on the
    card) with explicit classes, draws and buckets; only the information-set keys are shared with
    the code."""
    C, B = ab.n_classes, ab.n_buckets

    def act(player, key):
        return probs[(player, key)]

    def round_value(street, d, k, pre, hstate, rstate, h, r, hb, rb, close):
        """Expected H payoff of a round from H's open, contributions (h, r) so far."""

        def key(player, line, state):
            if street == 0:
                return ("H", 0, d, -1, line, "", state) if player == H else ("R", 0, read_draw(d), -1, line, "", state)
            return ("H", 1, d, k, pre, line, state) if player == H else ("R", 1, read_draw(d), k, pre, line, state)

        total = 0.0
        opens = ["x", "b1", "b2", "b4", "b8"]
        hp = act(H, key(H, "", hstate)) if street == 1 else None
        for ai, o in enumerate(opens):
            if street == 0:
                w = 1.0  # handled by the caller (first action carries d)
                if o != pre_open[0]:
                    continue
            else:
                w = hp[ai]
            if w == 0:
                continue
            if o == "x":
                rp = act(R, key(R, "x", rstate))
                v = rp[0] * close(["x", "x"], h)
                hp2 = act(H, key(H, "x-b2", hstate))
                v2 = hp2[0] * (-h) + hp2[1] * close(["x", "b2", "c"], r + 2)
                rp2 = act(R, key(R, "x-b2-r", rstate))
                v2 += hp2[2] * (rp2[0] * (r + 2) + rp2[1] * close(["x", "b2", "r", "c"], r + 4))
                total += w * (v + rp[1] * v2)
            else:
                b = int(o[1:])
                hh = h + b
                rp = act(R, key(R, o, rstate))
                v = rp[0] * r + rp[1] * close([o, "c"], hh)
                hp2 = act(H, key(H, f"{o}-r", hstate))
                v2 = hp2[0] * (-hh) + hp2[1] * close([o, "r", "c"], hh + b)
                rp2 = act(R, key(R, f"{o}-r-r", rstate))
                v2 += hp2[2] * (rp2[0] * (hh + b) + rp2[1] * close([o, "r", "r", "c"], hh + 2 * b))
                total += w * (v + rp[2] * v2)
        return total

    value = 0.0
    pre_open = [None]
    for ch, cr in itertools.product(range(C), range(C)):
        pdeal = ab.class_prob[ch] * ab.class_prob[cr]
        first = act(H, ("H", 0, -1, -1, "", "", ch))
        k = int(ab.r_draw[cr])
        for ai, (d, o) in enumerate(FIRST_ACTIONS):
            if first[ai] == 0:
                continue
            pre_open[0] = o

            def pre_close(line, amount, d=d, ch=ch, cr=cr, k=k):
                pre = "-".join(line)
                v = 0.0
                for bh, br in itertools.product(range(B), range(B)):
                    pb = ab.h_trans[ch, d, bh] * ab.r_trans[cr, br]

                    def show(line2, amt, bh=bh, br=br):
                        return amt * np.sign(bh - br)

                    v += pb * round_value(1, d, k, pre, bh, br, amount, amount, bh, br, show)
                return v

            value += pdeal * first[ai] * round_value(0, d, -1, "", ch, cr, ante, ante, None, None, pre_close)
    return value


def test_size_and_keys(tiny):
    ab, game = tiny
    info = describe(game)
    # 30 first actions, each with 15 pre-draw lines reaching the draw (bets: call,
    # raise-call, reraise-call; check: check, bet-call, bet-raise-call); 2 R draw counts
    assert game.arrays.child_count[game.arrays.iset_off >= 0].max() == 30
    keys = [k for _, k in game.iset_keys]
    r_pre = {k for k in keys if k[0] == "R" and k[1] == 0}
    assert {k[2] for k in r_pre} == {0, 1, 2, 3, 4}  # d = 5 read as 4: no key has 5
    h_pre = {k for k in keys if k[0] == "H" and k[1] == 0 and k[2] >= 0}
    assert {k[2] for k in h_pre} == set(range(6))
    showdowns = int(np.sum(game.arrays.kind == 4))
    # per draw node: post-draw showdowns = 4 bets x 3 + 3 after a check = 15
    assert showdowns == 6 * 15 * len(set(ab.r_draw)) * 15
    assert info.infosets_H + info.infosets_R == game.num_infosets


def test_value_matches_independent_walk(tiny):
    ab, game = tiny
    for seed in (1, 2):
        pol = random_policy(game, seed)
        assert expected_value(game, pol, H) == pytest.approx(walk_value(ab, lookup(game, pol)), abs=1e-10)


def test_the_game_follows_the_rules_ante(tiny):
    """The game is built for :data:`poker51.rules.ANTE` (1 on the rule card, the independent walk's
    default), and for another ante every terminal's contributions move by exactly the change:
    no contribution keeps a literal ante."""
    ab, game = tiny
    assert ANTE == 1
    two = build_game(ab, ante=2)
    a1, a2 = game.arrays, two.arrays
    terminal = np.isin(a1.kind, (FOLD, SHOWDOWN))
    assert terminal.sum() > 0 and np.array_equal(a1.kind, a2.kind)
    assert np.array_equal(a2.contrib[terminal], a1.contrib[terminal] + 1.0)
    assert a2.contrib[terminal].min() == 2.0  # a fold to H's first bet leaves R its ante only
    pol = random_policy(game, 3)
    assert expected_value(two, pol, H) == pytest.approx(walk_value(ab, lookup(two, pol), ante=2), abs=1e-10)
    assert expected_value(two, pol, H) != pytest.approx(expected_value(game, pol, H), abs=1e-6)


def test_recall_game_gives_the_same_values(tiny):
    """Bucket-only post-draw states lose nothing (drawgame docstring)."""
    ab, game = tiny
    full = build_game(ab, recall=True)
    s = CFRPlusSolver(game)
    s.iterate(50)
    pol = s.average_policy()
    src = lookup(game, pol)
    mapped = full.uniform_policy()
    a = full.arrays
    for i, (p, k) in enumerate(full.iset_keys):
        if p == H and k[1] == 1:
            k = k[:-1] + (k[-1][1],)  # (class, bucket) -> bucket
        mapped[a.act_off[i] : a.act_off[i + 1]] = src[(p, k)]
    assert expected_value(full, mapped, H) == pytest.approx(expected_value(game, pol, H), abs=1e-12)
    for player in (H, R):
        assert best_response_value(full, mapped, player) == pytest.approx(
            best_response_value(game, pol, player), abs=1e-12
        )


def test_bad_arrays_are_refused():
    ab = small_abstraction()
    bad = AbstractionArrays("tiny", ab.class_prob * 2, ab.h_trans, ab.r_trans, ab.r_draw)
    with pytest.raises(ValueError, match="class_prob"):
        build_game(bad)


def walk_best_response_h(ab: AbstractionArrays, probs) -> float:
    """The human's best-response value, by plain recursion from the rules: H's own
    state is explicit, Riemann's private state is a weight per class (before the draw)
    or per bucket (after it), split by Riemann's action probabilities."""
    C, B = ab.n_classes, ab.n_buckets

    def r_split(key_of, weights, n_actions):
        """Riemann's weights after each of its actions."""
        out = [dict() for _ in range(n_actions)]
        for state, w in weights.items():
            p = probs[(R, key_of(state))]
            for a in range(n_actions):
                out[a][state] = w * p[a]
        return out

    def round_br(street, d, k, pre, hstate, weights, h, r, opening, close):
        def rkey(line):
            if street == 0:
                return lambda s: ("R", 0, read_draw(d), -1, line, "", s)
            return lambda s: ("R", 1, read_draw(d), k, pre, line, s)

        def total(ws):
            return sum(ws.values())

        o = opening
        if o == "x":
            check, bet = r_split(rkey("x"), weights, 2)
            after_bet = max(
                -h * total(bet),
                close(["x", "b2", "c"], r + 2, bet),
                sum(w * (r + 2) for w in r_split(rkey("x-b2-r"), bet, 2)[0].values())
                + close(["x", "b2", "r", "c"], r + 4, r_split(rkey("x-b2-r"), bet, 2)[1]),
            )
            return close(["x", "x"], h, check) + after_bet
        b = int(o[1:])
        hh = h + b
        fold, call, rai = r_split(rkey(o), weights, 3)
        rr_fold, rr_call = r_split(rkey(f"{o}-r-r"), rai, 2)
        facing = max(
            -hh * total(rai),
            close([o, "r", "c"], hh + b, rai),
            (hh + b) * total(rr_fold) + close([o, "r", "r", "c"], hh + 2 * b, rr_call),
        )
        return r * total(fold) + close([o, "c"], hh, call) + facing

    best = 0.0
    for ch in range(C):
        values = []
        for d, o in FIRST_ACTIONS:

            def pre_close(line, amount, ws, d=d, ch=ch):
                pre = "-".join(line)
                v = 0.0
                for k in sorted(set(int(x) for x in ab.r_draw)):
                    rw = {}
                    for cr, w in ws.items():
                        if ab.r_draw[cr] != k:
                            continue
                        for br in range(B):
                            rw[br] = rw.get(br, 0.0) + w * ab.r_trans[cr, br]
                    for bh in range(B):

                        def show(line2, amt, ws2, bh=bh):
                            return sum(w * amt * np.sign(bh - br) for br, w in ws2.items())

                        opens = [
                            round_br(1, d, k, pre, bh, rw, amount, amount, oo, show)
                            for oo in ("x", "b1", "b2", "b4", "b8")
                        ]
                        v += ab.h_trans[ch, d, bh] * max(opens)
                return v

            weights = {cr: float(ab.class_prob[cr]) for cr in range(C)}
            values.append(round_br(0, d, -1, "", ch, weights, 1, 1, o, pre_close))
        best += ab.class_prob[ch] * max(values)
    return best


def test_human_best_response_matches_plain_recursion(tiny):
    ab, game = tiny
    for seed in (3, 4):
        pol = random_policy(game, seed)
        assert best_response_value(game, pol, H) == pytest.approx(
            walk_best_response_h(ab, lookup(game, pol)), abs=1e-10
        )
