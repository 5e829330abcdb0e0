"""Vectorised best responses and values against plain recursive walks over histories.

The reference games below know their rules directly (cards, betting, payoffs) and
share nothing with :mod:`poker51.solver.tree` except the information-set keys, which
map their policies onto the flat policy vector.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from helpers import CLASS_P, DRAW, draw_game

from poker51.games.toy import kuhn, leduc
from poker51.solver.best_response import best_response_value, expected_value, exploitability, nash_conv, value_against
from poker51.solver.cfr import normalize_policy

# ----------------------------------------------------------------------------------------
# reference: explicit histories
# ----------------------------------------------------------------------------------------


class KuhnRef:
    """History = (c0, c1, actions...), actions 0 = pass, 1 = bet."""

    def deals(self):
        return [((c0, c1), 1 / 6) for c0, c1 in itertools.permutations(range(3), 2)]

    def player(self, deal, acts):
        return len(acts) % 2

    def actions(self, deal, acts):
        return [0, 1]

    def payoff(self, deal, acts):
        s = "".join("pb"[a] for a in acts)
        hi = 1 if deal[0] > deal[1] else -1
        return {"pp": hi, "pbp": -1, "pbb": 2 * hi, "bp": 1, "bb": 2 * hi}.get(s)

    def key(self, deal, acts, p):
        return (deal[p], "".join("pb"[a] for a in acts))


class LeducRef:
    """History = deal (c0, c1, board) and per-round action strings over f/c/r."""

    def deals(self):
        return [(d, 1 / 120) for d in itertools.permutations(range(6), 3)]

    @staticmethod
    def _split(acts):
        s = "".join(acts)
        r1, _, r2 = s.partition("/")
        return r1, r2, "/" in s

    @staticmethod
    def _round_over(r):
        return r in ("cc",) or (len(r) >= 2 and r[-1] == "c" and "r" in r) or r.endswith("f")

    def _state(self, acts):
        """(contributions, current round string, round index, finished?, folded?)."""
        contrib = [1, 1]
        for rnd, r in enumerate(self._split(acts)[:2]):
            size = 2 if rnd == 0 else 4
            for i, a in enumerate(r):
                p = i % 2
                if a == "c":
                    contrib[p] = contrib[1 - p]
                elif a == "r":
                    contrib[p] = contrib[1 - p] + size
        return contrib

    def player(self, deal, acts):
        r1, r2, second = self._split(acts)
        return len(r2 if second else r1) % 2

    def actions(self, deal, acts):
        r1, r2, second = self._split(acts)
        r = r2 if second else r1
        facing = r.endswith("r")
        out = (["f"] if facing else []) + ["c"]
        if r.count("r") < 2:
            out.append("r")
        return out

    def payoff(self, deal, acts):
        r1, r2, second = self._split(acts)
        c = self._state(acts)
        r = r2 if second else r1
        if r.endswith("f"):
            folder = (len(r) - 1) % 2
            return -c[0] if folder == 0 else c[1]
        if second and self._round_over(r2):
            rank = [deal[0] // 2, deal[1] // 2]
            b = deal[2] // 2
            st = [10 + x if x == b else x for x in rank]
            return c[1] * (st[0] > st[1]) - c[0] * (st[0] < st[1])
        return None

    def needs_board(self, acts):
        r1, r2, second = self._split(acts)
        return not second and self._round_over(r1)

    def key(self, deal, acts, p):
        r1, r2, second = self._split(acts)
        return (deal[p], deal[2] if second else -1, "".join(acts))


def reference_values(ref, game, policy, br_player=None, br_key=None):
    """EV for player 0 of ``policy`` (br_player None) or the best-response value of
    ``br_player`` (its information sets given by br_key(deal, acts)), by recursion
    over explicit histories."""
    keys = {k: game.infoset_slice(i) for i, k in enumerate(game.iset_keys)}

    def sigma(deal, acts, p):
        return policy[keys[(p, ref.key(deal, acts, p))]]

    # collect, for every BR information set, its histories with opponent*chance reach
    members: dict = {}

    def collect(deal, acts, reach):
        if ref.payoff(deal, acts) is not None:
            return
        if isinstance(ref, LeducRef) and ref.needs_board(acts):
            collect(deal, acts + ["/"], reach)
            return
        p = ref.player(deal, acts)
        if p == br_player:
            members.setdefault(br_key(deal, acts), []).append((deal, acts, reach))
        s = sigma(deal, acts, p) if p != br_player else None
        for i, a in enumerate(ref.actions(deal, acts)):
            collect(deal, acts + [a], reach * (s[i] if p != br_player else 1.0))

    choice: dict = {}

    def value(deal, acts):
        u = ref.payoff(deal, acts)
        if u is not None:
            return u if br_player in (None, 0) else -u
        if isinstance(ref, LeducRef) and ref.needs_board(acts):
            return value(deal, acts + ["/"])
        p = ref.player(deal, acts)
        acts_here = ref.actions(deal, acts)
        if p == br_player:
            k = br_key(deal, acts)
            if k not in choice:
                tot = [sum(r * value(d, h + [a]) for d, h, r in members[k]) for a in acts_here]
                choice[k] = int(np.argmax(tot))
            return value(deal, acts + [acts_here[choice[k]]])
        s = sigma(deal, acts, p)
        return sum(s[i] * value(deal, acts + [a]) for i, a in enumerate(acts_here))

    if br_player is not None:
        for deal, pr in ref.deals():
            collect(deal, [], pr)
    return sum(pr * value(deal, []) for deal, pr in ref.deals())


def _kuhn_ref_game():
    return KuhnRef(), kuhn()


def _leduc_ref_game():
    return LeducRef(), leduc()


def random_policy(game, seed):
    rng = np.random.default_rng(seed)
    return normalize_policy(game, rng.random(game.num_actions) ** 3)


# ----------------------------------------------------------------------------------------
# closed forms
# ----------------------------------------------------------------------------------------


def test_kuhn_uniform_nash_conv_is_11_12():
    g = kuhn()
    assert nash_conv(g, g.uniform_policy()) == pytest.approx(11 / 12, abs=1e-12)
    assert exploitability(g, g.uniform_policy()) == pytest.approx(11 / 24, abs=1e-12)
    assert expected_value(g, g.uniform_policy()) == pytest.approx(1 / 8, abs=1e-12)


def test_kuhn_best_response_to_hand_written_strategy():
    """Player 1 bets/calls with the king only.  Player 0's best response, by hand:
    J: pass (then fold to a bet), or bet (always folded to unless p1 has K):
       bet -> (Q: +1, K: -2) = -1/2 ; pass -> (Q: showdown -1, K: p1 bets, fold -1) = -1
       so bet: -1/2.  Q: bet -> (J: +1, K: -2) = -1/2; pass -> (J: +1, K: -1) = 0 -> 0.
    K: bet -> (J: +1, Q: +1) = 1; pass -> +1 as well -> 1.  Total (-1/2 + 0 + 1)/3 = 1/6."""
    g = kuhn()
    pol = g.uniform_policy()
    for i, (p, (card, _hist)) in enumerate(g.iset_keys):
        if p == 1:
            pol[g.infoset_slice(i)] = [0.0, 1.0] if card == 2 else [1.0, 0.0]
    assert best_response_value(g, pol, 0) == pytest.approx(float(Fraction(1, 6)), abs=1e-12)


def test_leduc_uniform_nash_conv_matches_openspiel_value():
    # OpenSpiel: exploitability(leduc, uniform) = 2.37361111...
    assert nash_conv(leduc(), leduc().uniform_policy()) == pytest.approx(4.747222222222222, abs=1e-9)


# ----------------------------------------------------------------------------------------
# against the recursive reference
# ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("make", [_kuhn_ref_game, _leduc_ref_game], ids=["kuhn", "leduc"])
@pytest.mark.parametrize("seed", [1, 2])
def test_vectorised_matches_recursive_reference(make, seed):
    ref, g = make()
    pol = random_policy(g, seed)
    assert expected_value(g, pol, 0) == pytest.approx(reference_values(ref, g, pol), abs=1e-12)
    assert expected_value(g, pol, 1) == pytest.approx(-reference_values(ref, g, pol), abs=1e-12)
    for p in (0, 1):
        want = reference_values(ref, g, pol, p, lambda d, h, p=p: ref.key(d, h, p))
        assert best_response_value(g, pol, p) == pytest.approx(want, abs=1e-12)


def test_mixture_best_response_is_linear_in_reach():
    g = kuhn()
    a, b = random_policy(g, 3), random_policy(g, 4)
    mix = best_response_value(g, np.stack([a, b]), 0, weights=[0.25, 0.75])
    # against the mixture the responder sees the weighted sum of the types' reaches;
    # its value with any fixed policy is the weighted sum of the values
    for own in (random_policy(g, 5), g.uniform_policy()):
        v = value_against(g, own, 0, np.stack([a, b]), weights=[0.25, 0.75])
        assert v == pytest.approx(0.25 * value_against(g, own, 0, a) + 0.75 * value_against(g, own, 0, b))
        assert v <= mix + 1e-12


# ----------------------------------------------------------------------------------------
# a grouped-information-set game (imperfect recall for player 1)
# ----------------------------------------------------------------------------------------


class DrawRef:
    """History: deal (c0, c1, b0, b1) drawn up front (buckets are hidden until the
    draw by the keys), then actions: player 1 pre (0 check, 1 bet), player 0 (0 fold,
    1 call) if bet, player 1 post (0 check, 1 bet 2), player 0 (0 fold, 1 call)."""

    def __init__(self, recall_key=False):
        self.recall_key = recall_key

    def deals(self):
        out = []
        for c0, c1, b0, b1 in itertools.product(range(2), range(2), range(3), range(3)):
            pr = CLASS_P[0][c0] * CLASS_P[1][c1] * DRAW[0][c0, 3 * c0 + b0] * DRAW[1][c1, 3 * c1 + b1]
            if pr > 0:
                out.append(((c0, c1, b0, b1), pr))
        return out

    @staticmethod
    def _parse(acts):
        """(line, contributions, post-draw actions) or (None, ...) before the draw."""
        if not acts:
            return None, (1, 1), None
        if acts[0] == 0:
            return "k", (1, 1), acts[1:]
        if len(acts) == 1:
            return None, (1, 2), None
        if acts[1] == 0:
            return "fold", (1, 2), None
        return "bc", (2, 2), acts[2:]

    def player(self, deal, acts):
        line, _, post = self._parse(acts)
        if line is None:
            return 1 if not acts else 0
        return 1 if not post else 0

    def actions(self, deal, acts):
        return [0, 1]

    def payoff(self, deal, acts):
        line, (x0, x1), post = self._parse(acts)
        if line == "fold":
            return -1
        if line is None or not post or post == [1]:
            return None
        b0, b1 = deal[2], deal[3]
        sd = lambda y0, y1: y1 if b0 > b1 else -y0 if b0 < b1 else (y1 - y0) / 2  # noqa: E731
        if post == [0]:
            return sd(x0, x1)
        return -x0 if post == [1, 0] else sd(x0 + 2, x1 + 2)

    def key(self, deal, acts, p):
        line, _, post = self._parse(acts)
        c0, c1, b0, b1 = deal
        if line is None:
            return ("pre", c1) if p == 1 else ("pre0", c0)
        if p == 1:
            return ("post", line, b1) + ((c1,) if self.recall_key else ())
        return ("post0", line, 3 * c0 + b0)


def test_grouped_information_sets_share_one_strategy():
    g = draw_game()
    keys = [k for k in g.iset_keys if k[1][0] == "post"]
    assert len(keys) == 2 * 3  # (line, bucket), not (line, class, bucket)
    assert int(g.arrays.iset_size.max()) == 2  # each groups the two classes


def _grouped_best_response_brute_force(g, pol):
    """Player 1's exact best response that respects its grouping: all pure strategies."""
    ref = DrawRef()
    own = [i for i, (p, k) in enumerate(g.iset_keys) if p == 1]
    best = -np.inf
    for bits in itertools.product((0, 1), repeat=len(own)):
        q = pol.copy()
        for i, a in zip(own, bits):
            q[g.infoset_slice(i)] = np.eye(2)[a]
        best = max(best, -reference_values(ref, g, q))
    return best


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_grouped_game_values_match_brute_force(seed):
    g = draw_game()
    ref = DrawRef()
    pol = random_policy(g, seed)
    assert expected_value(g, pol, 0) == pytest.approx(reference_values(ref, g, pol), abs=1e-12)
    # player 0 has perfect recall: exact best response
    br0 = reference_values(ref, g, pol, 0, lambda d, h: ref.key(d, h, 0))
    assert best_response_value(g, pol, 0) == pytest.approx(br0, abs=1e-12)
    # player 1's vectorised best response recalls its class: equal to the reference
    # that lets it recall, and at least the exact one that respects the grouping
    recall = DrawRef(recall_key=True)
    br1 = reference_values(ref, g, pol, 1, lambda d, h: recall.key(d, h, 1))
    assert best_response_value(g, pol, 1) == pytest.approx(br1, abs=1e-12)
    assert br1 >= _grouped_best_response_brute_force(g, pol) - 1e-12
