"""The exact best response in G_ind (poker51.realcard.gind) against a plain walk over every deal.

The brute force below shares nothing with the fast algorithm but the inputs (the deck, Riemann's
class of each dealt hand, the bucket lows, the table's arrays): strengths and House keeps by the
plain evaluator (:mod:`poker51.hands.pure`), Riemann's outcomes by enumerating every dealt hand
and every replacement, H's expectations by enumerating every replacement, and both betting rounds
by a recursive walk of the abstract game's rules (no closed-form tree, no inclusion-exclusion, no
bucket prefix sums).  H's post-draw values are computed per exact final hand (its information
set's value depends on the final hand and the public node only: R's cards are independent).
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import pytest
import scipy.sparse as sp

from poker51.hands.pure import pure_house, pure_strength
from poker51.realcard import gind as G
from poker51.realcard import gind_kernels as K
from poker51.rules import BET_SIZES, RIEMANN_BET, RULE_BUG, RULE_WILD

#: ranks 9..A in hearts and spades: straights, flushes, straight flushes, pairs, two pair
CARDS12 = [4 * r + s for r in range(7, 13) for s in (2, 3)]
PRE = {line: i for i, line in enumerate(G.PRE_LINES)}
DEC = {line: i for i, line in enumerate(G.DEC_LINES)}


@pytest.fixture(scope="module")
def deck12():
    return G.small_deck(CARDS12, n_buckets=5)


@pytest.fixture(scope="module")
def table12(deck12):
    return G.random_table(deck12.n_classes, deck12.n_buckets, seed=26)


@pytest.fixture(scope="module")
def fast12(deck12, table12):
    return G.v_ind(deck12, table12)


# --------------------------------------------------------------------------- brute force
class Brute:
    """Every deal of G_ind on a small deck, walked plainly (module docstring)."""

    def __init__(self, gd, table, strategy=None):
        self.gd, self.table, self.strategy = gd, table, strategy
        self.cards = [int(c) for c in gd.deck]
        self.hands = [tuple(int(c) for c in h) for h in gd.hands]
        self.row = {h: i for i, h in enumerate(self.hands)}
        self.N = len(self.hands)
        self.s = np.array([pure_strength(list(h), gd.rule) for h in self.hands], np.int64)
        self.hb = np.array([self.bucket(v) for v in self.s])
        # Riemann: every dealt hand, its House keep, every replacement -> (class, strength) mass
        mass: dict[tuple[int, int], float] = {}
        self.prior = np.zeros(gd.n_classes)
        for g, h in enumerate(self.hands):
            c = int(gd.r_class[g])
            self.prior[c] += 1.0 / self.N
            mask = pure_house(list(h), gd.rule)[0]
            kept = [h[i] for i in range(5) if (mask >> i) & 1]
            rest = [x for x in self.cards if x not in h]
            adds = list(combinations(rest, 5 - len(kept)))
            for add in adds:
                f = tuple(sorted(kept + list(add)))
                key = (c, int(self.s[self.row[f]]))
                mass[key] = mass.get(key, 0.0) + 1.0 / (self.N * len(adds))
        keys = sorted(mass)
        self.rc = np.array([k[0] for k in keys])
        self.rs = np.array([k[1] for k in keys])
        self.rb = np.array([self.bucket(v) for v in self.rs])
        self.rk = np.array([int(gd.class_draw[c]) for c in self.rc])
        self.rw = np.array([mass[k] for k in keys])
        self.sgn = np.sign(self.s[:, None] - self.rs[None, :]).astype(np.float64)
        self.avg = {d: self.averaging(d) for d in range(6)}

    def bucket(self, v) -> int:
        lows = [int(x) for x in self.gd.lows]
        return max([i for i, lo in enumerate(lows) if lo <= v], default=0)

    def keeps(self, d):
        """H's states that draw d: (hand, keep) pairs (best response) or the strategy's keeps."""
        out = []
        for h in range(self.N):
            for k in range(32):
                if 5 - bin(k).count("1") == d and (self.strategy is None or self.strategy.keep[h] == k):
                    out.append((h, k))
        return out

    def averaging(self, d):
        """(states, sparse matrix): row j averages over state j's replacements."""
        states = self.keeps(d)
        rows, cols = [], []
        for j, (h, k) in enumerate(states):
            hand = self.hands[h]
            kept = [hand[i] for i in range(5) if (k >> i) & 1]
            rest = [x for x in self.cards if x not in hand]
            for add in combinations(rest, d):
                rows.append(j)
                cols.append(self.row[tuple(sorted(kept + list(add)))])
        data = np.full(len(rows), 1.0 / comb(len(self.cards) - 5, d))
        return states, sp.csr_matrix((data, (rows, cols)), shape=(len(states), self.N))

    # one betting round, by the rules: H opens x or b; R answers; one raise each way at most
    def round(self, ctx, put):
        kids = [self.r_node(ctx, ["x"], put, put)]
        kids += [self.r_node(ctx, [f"b{z}"], put + z, put) for z in BET_SIZES]
        return ctx.h_choose("", kids)

    def r_node(self, ctx, line, h, r):
        probs = ctx.r_probs("-".join(line))  # (R states, 3)
        if line == ["x"]:
            r2 = r + RIEMANN_BET
            facing = self.h_node(ctx, line + ["b2"], h, r2, RIEMANN_BET, probs[:, 1])
            return ctx.close("x-x", h, probs[:, 0]) + facing
        if line[-1].startswith("b"):  # R faces H's bet: fold, call, raise by the bet
            z = int(line[-1][1:])
            out = ctx.fold_r(r, probs[:, 0]) + ctx.close("-".join(line + ["c"]), h, probs[:, 1])
            return out + self.h_node(ctx, line + ["r"], h, h + z, z, probs[:, 2])
        # R faces H's raise or re-raise: fold or call
        return ctx.fold_r(r, probs[:, 0]) + ctx.close("-".join(line + ["c"]), h, probs[:, 1])

    def h_node(self, ctx, line, h, r, unit, reach):
        ctx.push(reach)
        kids = [ctx.fold_h(h, None), ctx.close("-".join(line + ["c"]), r, None)]
        kids.append(self.r_node(ctx, line + ["r"], r + unit, r))
        ctx.pop()
        return ctx.h_choose("-".join(line), kids)

    def value(self):
        """H's value per hand; ``self.first[(h, keep)]`` holds the values of the five openings."""
        root = np.zeros(self.N)
        best = np.full(self.N, -np.inf)
        self.first = {}
        for d in range(6):
            states, _ = self.avg[d]
            if not states:
                continue
            ctx = PreContext(self, d)
            kids = np.stack(ctx.opening_children(self), axis=1)  # (states, 5 openings)
            hs = np.array([h for h, _ in states])
            self.first.update({s: kids[j] for j, s in enumerate(states)})
            if self.strategy is None:
                np.maximum.at(best, hs, kids.max(axis=1))
            else:
                np.add.at(root, hs, (self.strategy.pre_open[hs] * kids).sum(axis=1))
        self.per_hand = best if self.strategy is None else root
        return float(self.per_hand.mean())


class Context:
    """R's reach along the walk (a stack of per-R-state multipliers) and the terminal values."""

    def __init__(self, weights):
        self.stack = [weights]

    def push(self, p):
        self.stack.append(self.stack[-1] * p)

    def pop(self):
        self.stack.pop()

    def reach(self, p):
        return self.stack[-1] if p is None else self.stack[-1] * p

    def fold_h(self, h, p):
        return -h * self.reach(p).sum() * np.ones(self.n_states)

    def fold_r(self, r, p):
        return r * self.reach(p).sum() * np.ones(self.n_states)


class PostContext(Context):
    """The post-draw round of one public node; H's states are its final hands (all hands)."""

    def __init__(self, bf, d, L, k, class_reach):
        self.bf, self.d, self.L, self.k = bf, d, L, k
        self.n_states = bf.N
        super().__init__(bf.rw * class_reach[bf.rc] * (bf.rk == k))

    def r_probs(self, line):
        p = self.bf.table.post[min(self.d, 4), self.k, PRE[self.L], DEC[line]]
        return p[self.bf.rb]

    def close(self, line, amount, p):
        return amount * (self.bf.sgn @ self.reach(p))

    def h_choose(self, line, kids):
        st = self.bf.strategy
        if st is None:
            return np.max(kids, axis=0)
        at = (self.d, self.k, PRE[self.L])
        if line == "":
            probs = st.post_open[at][self.bf.hb]
        elif line == "x-b2":
            probs = st.post_xb2[at][self.bf.hb]
        else:
            probs = st.post_br[at][self.bf.hb, BET_SIZES.index(int(line.split("-")[0][1:]))]
        return (probs * np.stack(kids, axis=1)).sum(axis=1)


class PreContext(Context):
    """The pre-draw round for H's draw count d; H's states are its (hand, keep) pairs."""

    def __init__(self, bf, d):
        self.bf, self.d = bf, d
        self.states, self.A = bf.avg[d]
        self.hs = np.array([h for h, _ in self.states])
        self.n_states = len(self.states)
        super().__init__(bf.prior.copy())

    def opening_children(self, bf):
        kids = [bf.r_node(self, ["x"], 1, 1)]
        return kids + [bf.r_node(self, [f"b{z}"], 1 + z, 1) for z in BET_SIZES]

    def r_probs(self, line):
        return self.bf.table.pre[min(self.d, 4), DEC[line]]

    def close(self, line, amount, p):
        reach = self.reach(p)
        out = np.zeros(self.n_states)
        for k in sorted(set(self.bf.rk.tolist())):
            post = PostContext(self.bf, self.d, line, k, reach / self.bf.prior)
            out += self.A @ self.bf.round(post, amount)
        return out

    def h_choose(self, line, kids):
        st = self.bf.strategy
        if st is None:
            return np.max(kids, axis=0)
        if line == "x-b2":
            probs = st.pre_xb2[self.hs]
        else:
            probs = st.pre_br[self.hs, BET_SIZES.index(int(line.split("-")[0][1:]))]
        return (probs * np.stack(kids, axis=1)).sum(axis=1)


# --------------------------------------------------------------------------- tests
def test_brute_force_equals_v_ind(deck12, table12, fast12):
    """V_ind, every dealt hand's value, and the value of the reported keep and opening."""
    bf = Brute(deck12, table12)
    assert abs(fast12.value - bf.value()) < 1e-9
    assert np.abs(fast12.hand_value - bf.per_hand).max() < 1e-9
    chosen = np.array([bf.first[(h, int(fast12.keep[h]))][fast12.opening[h]] for h in range(deck12.n_hands)])
    assert np.abs(chosen - bf.per_hand).max() < 1e-9
    assert fast12.value > 0.5  # a random table is far from safe: the value is not a trivial 0


@pytest.mark.parametrize("which", ["check_call", "random"])
def test_fixed_strategy_value_brute_force_and_bound(deck12, table12, fast12, which):
    st = G.check_call_strategy(deck12) if which == "check_call" else G.random_strategy(deck12, seed=5)
    fast = G.strategy_value(deck12, table12, st)
    brute = Brute(deck12, table12, st).value()
    assert abs(fast - brute) < 1e-9
    assert fast <= fast12.value - 1e-6  # strictly below: neither is a best response


def test_check_call_is_below_v_ind_and_near_zero_sum(deck12, table12, fast12):
    """Check/call keeps the House cards and never folds: against a random table it wins or loses
    little, far below the best response."""
    cc = G.strategy_value(deck12, table12, G.check_call_strategy(deck12))
    assert abs(cc) < 1.0 < fast12.value - cc


# --------------------------------------------------------------------------- kernels and their twins
def test_post_values_kernel_equals_plain(deck12, table12):
    joint = G.riemann_joint(deck12)
    draws, M, P = G.node_masses(deck12, table12, joint)
    cv, act, xb2, br = G.post_node_values(deck12, M, P)
    Mf, Pf = M.reshape(-1, M.shape[-1]), P.reshape(-1, *P.shape[3:])
    put = np.tile(K.PUT, M.shape[0] * M.shape[1])
    start = np.searchsorted(deck12.bj, np.arange(deck12.n_buckets + 1))
    cv2, act2, xb2_2, br2 = K.post_values_plain(Mf, deck12.bj, start, Pf, put)
    assert np.abs(cv.reshape(cv2.shape) - cv2).max() < 1e-12
    assert np.array_equal(act.reshape(act2.shape), act2)
    assert len(set(act2.ravel().tolist())) >= 3  # the best opening varies with the strength
    # the answers (fold, call, raise facing Riemann's bet and raises) are the plain twin's
    assert np.mean(xb2.reshape(xb2_2.shape) == xb2_2) > 0.999 and np.mean(br.reshape(br2.shape) == br2) > 0.999
    assert set(np.unique(xb2_2)) == {0, 1, 2} and set(np.unique(br2)) == {0, 1, 2}


def test_superset_sums_kernel_equals_plain(deck12):
    rng = np.random.default_rng(3)
    V = rng.normal(size=(deck12.values.size, 15))
    binom, offset = K.subset_tables(deck12.n)
    for tmin in (0, 2, 4):
        Gk = np.zeros((int(offset[5]), 15))
        K.superset_sums(deck12.pos, deck12.sidx, V, tmin, binom, offset, Gk)
        plain = K.superset_sums_plain(deck12.pos, deck12.sidx, V, tmin, deck12.n)
        rows = np.array(sorted(plain))
        assert np.abs(Gk[rows] - np.array([plain[r] for r in rows])).max() < 1e-10
        others = np.setdiff1d(np.arange(int(offset[5])), rows)
        assert not Gk[others].any()
        assert rows.size == sum(comb(deck12.n, k) for k in range(tmin, 5))


def test_hand_values_kernel_equals_plain_enumeration(deck12):
    rng = np.random.default_rng(4)
    V = rng.normal(size=(deck12.values.size, 15))
    fm = rng.uniform(0, 0.2, 14)
    binom, offset = K.subset_tables(deck12.n)
    Gk = np.zeros((int(offset[5]), 15))
    K.superset_sums(deck12.pos, deck12.sidx, V, 0, binom, offset, Gk)
    inv_ways = np.array([1.0 / comb(deck12.n - 5, d) for d in range(6)])
    draws = np.arange(6)
    val = np.full(deck12.n_hands, -np.inf)
    keep = np.zeros(deck12.n_hands, np.int64)
    opening = np.zeros(deck12.n_hands, np.int64)
    xb2 = np.zeros(deck12.n_hands, np.int8)
    br = np.zeros((deck12.n_hands, 4), np.int8)
    K.hand_values(deck12.pos, deck12.sidx, Gk, V, draws, inv_ways, fm, binom, offset, val, keep, opening, xb2, br)
    val2, keep2, open2, xb2_2, br2 = K.hand_values_plain(deck12.pos, deck12.sidx, V, draws, fm, deck12.n)
    assert np.abs(val - val2).max() < 1e-10
    assert np.mean(keep == keep2) > 0.99 and np.mean(opening == open2) > 0.99  # ties may break apart in rounding
    assert np.mean(xb2 == xb2_2) > 0.99 and np.mean(br == br2) > 0.99 and len(np.unique(br2)) == 3
    assert len(set(keep.tolist())) > 10


def test_pre_tree_kernel_equals_plain():
    rng = np.random.default_rng(5)
    for _ in range(200):
        Q, fm = rng.normal(size=15), rng.uniform(0, 1, 14)
        br = np.zeros(4, np.int64)
        v, a, x = K.pre_tree(Q, fm, br)
        v2, a2, x2, br2 = K.pre_tree_plain(Q, fm)
        assert v == pytest.approx(v2, abs=1e-12) and (a, x, br.tolist()) == (a2, x2, br2)


def test_subset_index_matches_the_transitions_index():
    from poker51.abstraction.transitions import subset_index

    # on the full 52-card deck the positions are the cards: the same index as the abstraction's
    for t in ([], [0], [51], [0, 1], [3, 17, 40], [1, 2, 50, 51]):
        assert K.subset_index_plain(t, 52) == subset_index(t)


def test_table_arrays_round_trip(deck12, table12):
    from poker51.export.schema import ACTION_COLUMNS, frame

    rows = {c: [] for c in ("street", "spot", "h_bet", "h_draw", "r_draw", "pre_line", "post_line", "class", "bucket")}
    probs = []
    from poker51.export.schema import spot_of_line

    def add(street, d4, k, pre, post, c, b, slots, p):
        spot, bet = spot_of_line(pre if street == 0 else post)
        for key, v in zip(rows, (street, spot, bet, d4, k, pre, post, c, b)):
            rows[key].append(v)
        probs.append([p[slots.index(a)] if a in slots else 0.0 for a in ACTION_COLUMNS])

    for d4 in range(5):
        for i, line in enumerate(G.DEC_LINES):
            for c in range(deck12.n_classes):
                add(0, d4, -1, line, "", c, -1, G.LINE_SLOTS[i], table12.pre[d4, i, c])
            for k in sorted(set(deck12.class_draw.tolist())):
                for ell, pre in enumerate(G.PRE_LINES):
                    for b in range(deck12.n_buckets):
                        add(1, d4, k, pre, line, -1, b, G.LINE_SLOTS[i], table12.post[d4, k, ell, i, b])
    P = np.array(probs)
    df = frame({**rows, **{a: P[:, j] for j, a in enumerate(ACTION_COLUMNS)}})
    back = G.table_arrays(df, deck12.n_classes, deck12.n_buckets)
    assert np.array_equal(back.pre, table12.pre)
    ks = sorted(set(deck12.class_draw.tolist()))
    assert np.array_equal(back.post[:, ks], table12.post[:, ks])
    assert np.isnan(back.post[:, [k for k in range(5) if k not in ks]]).all()
    assert G.v_ind(deck12, back).value == G.v_ind(deck12, table12).value


def test_missing_table_row_is_refused(deck12, table12):
    from poker51.errors import InputError

    pre = table12.pre.copy()
    pre[2, 3, 1] = np.nan
    with pytest.raises(InputError, match="lacks a pre-draw row"):
        G.v_ind(deck12, G.TableArrays(pre, table12.post))


# --------------------------------------------------------------------------- Riemann's strengths
def test_riemann_counts_sum_and_match_the_transition_counts(deck12):
    """Per class the (dealt hand, replacement) pairs sum to members x C(n-5, d) and the bucket
    marginals are the abstraction's own transition counts (class_histograms, House keeps)."""
    from poker51.abstraction.transitions import class_histograms, subset_histograms

    counts = G.riemann_counts(deck12)
    ways = np.array([comb(deck12.n - 5, int(d)) for d in deck12.class_draw])
    assert np.array_equal(counts.sum(axis=1), deck12.class_members() * ways)
    assert counts.min() >= 0
    labels = deck12.bj[deck12.sidx]
    A = subset_histograms(deck12.hands, labels, deck12.n_buckets)
    ref = class_histograms(deck12.hands, deck12.r_class, deck12.n_classes, deck12.r_keep[:, None], labels, A)[:, 0]
    by_bucket = np.zeros_like(ref)
    np.add.at(by_bucket.T, deck12.bj, counts.T)
    assert np.array_equal(by_bucket, ref)
    assert G.riemann_joint(deck12, counts).sum() == pytest.approx(1.0, abs=1e-14)


@pytest.mark.slow
def test_standard_riemann_marginals_are_the_abstractions_exactly():
    from poker51.abstraction.tables import build_abstraction

    tables = build_abstraction("standard", progress=False)
    gd = G.variant_deck(tables)
    counts = G.riemann_counts(gd)
    t = tables.transitions
    t = t[t["drawer"] == "riemann"].sort_values(["class", "bucket"])
    ref = t["count"].to_numpy(np.int64).reshape(gd.n_classes, gd.n_buckets)
    by_bucket = np.zeros_like(ref)
    np.add.at(by_bucket.T, gd.bj, counts.T)
    assert np.array_equal(by_bucket, ref)
    ways = np.array([comb(gd.n - 5, int(d)) for d in gd.class_draw])
    assert np.array_equal(counts.sum(axis=1), tables.classes.sort_values("class")["members"].to_numpy() * ways)
    assert gd.n_hands == comb(51, 5) and gd.n_classes == 19 and gd.n_buckets == 40


@pytest.fixture(scope="module")
def abstract12(deck12, table12):
    """The abstract game of the 12-card deck, the table in it, and its best-response human."""
    from poker51.games.abstract import build_game
    from poker51.solver.best_response import best_response_policy, best_response_value

    game = build_game(G.small_abstraction(deck12))
    policy = G.game_policy(game, table12)
    response = best_response_policy(game, policy, 0)
    return game, best_response_value(game, policy, 0), response


def test_abstract_best_response_human_in_g_ind(deck12, table12, fast12, abstract12):
    """V_A of the abstract game, the abstract best-response human's exact G_ind value (fast and
    brute force alike) and V_ind: the human is never above V_ind."""
    game, v_a, response = abstract12
    st = G.abstract_human(game, response, deck12)
    value = G.strategy_value(deck12, table12, st)
    assert abs(value - Brute(deck12, table12, st).value()) < 1e-9
    assert value <= fast12.value
    assert v_a > 0.5 and value > 0.5  # both exploit the random table by a wide margin


@pytest.mark.parametrize("rule", [RULE_WILD, RULE_BUG])
def test_brute_force_on_marker_decks(rule):
    """The marker I (2 of clubs) with ranks T..A in hearts and spades (11 cards): marker readings
    in the showdown, Riemann's House keeps and classes with I; V_ind and a fixed strategy's value
    against the brute force."""
    gd = G.small_deck([0] + [4 * r + s for r in range(8, 13) for s in (2, 3)], rule, n_buckets=4)
    assert gd.n_classes >= 8 and gd.n_buckets == 4
    table = G.random_table(gd.n_classes, gd.n_buckets, seed=rule)
    fast = G.v_ind(gd, table).value
    assert abs(fast - Brute(gd, table).value()) < 1e-9
    st = G.random_strategy(gd, seed=rule)
    fixed = G.strategy_value(gd, table, st)
    assert abs(fixed - Brute(gd, table, st).value()) < 1e-9
    assert fixed < fast


def test_strategy_frames(deck12, fast12):
    hands, post = G.strategy_frames(deck12, fast12)
    assert len(hands) == deck12.n_hands and hands["value"].mean() == pytest.approx(fast12.value, abs=1e-12)
    assert np.array_equal(hands[[f"c{i}" for i in range(5)]].to_numpy(), deck12.hands)
    assert set(hands["draw"]) <= set(range(6)) and hands["draw"].nunique() >= 3
    assert len(post) == 5 * len(fast12.draws) * 15 * deck12.values.size
    assert set(post["opening"].astype(str)) <= set(G.OPENINGS)
    for frame in (hands, post):  # the answers of the best response, as categoricals of f, c, r
        assert all(set(frame[c].astype(str)) <= set(G.ANSWERS) for c in ("xb2", *G.BR_COLUMNS))
    assert post["xb2"].nunique() == 3


@pytest.mark.slow
def test_brute_force_on_a_14_card_deck():
    """Ranks 8..A in hearts and spades (2,002 hands, 4 million (hand, keep, replacement) triples)."""
    gd = G.small_deck([4 * r + s for r in range(6, 13) for s in (2, 3)], n_buckets=8)
    table = G.random_table(gd.n_classes, gd.n_buckets, seed=14)
    fast = G.v_ind(gd, table)
    bf = Brute(gd, table)
    assert abs(fast.value - bf.value()) < 1e-9
    assert np.abs(fast.hand_value - bf.per_hand).max() < 1e-9


def test_class_counts_given_the_humans_hand_are_brute_force(deck12):
    """Riemann's class counts avoiding H's five cards (the class prior corrected for H's own hand)
    by inclusion-exclusion over the hand's 32 subsets equal a plain count over every deal of
    the 12-card deck: exact integers, each row C(7, 5) = 21 hands, and not the uncorrected mix."""
    from poker51.errors import InputError

    gd = deck12
    N = G.subset_class_counts(gd)
    assert N.shape == (1 + 12 + 66 + 220 + 495, gd.n_classes)
    assert np.array_equal(N[0], gd.class_members()) and N.sum() == sum(comb(5, k) * 792 for k in range(5))
    got = G.class_counts_given(gd, np.arange(gd.n_hands), N)
    sets = [set(h) for h in gd.hands.tolist()]
    want = np.zeros_like(got)
    for i, h in enumerate(sets):
        for j, f in enumerate(sets):
            if not h & f:
                want[i, gd.r_class[j]] += 1
    assert np.array_equal(got, want) and np.all(got.sum(axis=1) == comb(7, 5))
    prior = gd.class_members() / gd.n_hands
    assert np.abs(got / comb(7, 5) - prior).max() > 0.05  # the human's cards move Riemann's class mix
    assert np.array_equal(G.class_counts_given(gd, np.array([5, 700])), want[[5, 700]])
    with pytest.raises(InputError, match="rows"):
        G.class_counts_given(gd, np.array([gd.n_hands]), N)
