"""The exact best response with card removal (poker51.realcard.removal_exact) against a plain walk.

The brute force below shares nothing with the fast pass but the inputs (the deck, Riemann's class
of each dealt hand, the bucket lows, the table's arrays): strengths and House keeps by the plain
evaluator (:mod:`poker51.hands.pure`), and for one dealt hand of H every deal that goes with it,
enumerated with Riemann drawing *first* (the fast pass lets H draw first: the two orders must
agree), H's states by its (keep, new cards), both betting rounds by a recursive walk of the rules
(no dead-set table, no bucket prefix sums, no closed-form tree).  H's post-draw state is its
(keep, new cards) pair, whatever else it has in common with another.
"""

from __future__ import annotations

from itertools import combinations, product
from math import comb

import numpy as np
import pytest

from poker51.errors import InputError
from poker51.hands.pure import pure_house, pure_strength
from poker51.realcard import gind as G
from poker51.realcard import gind_kernels as GK
from poker51.realcard import removal_exact as R
from poker51.realcard import removal_kernels as RK
from poker51.rules import BET_SIZES, RIEMANN_BET, RULE_WILD

#: ranks T..A in three suits: every five distinct ranks are a straight, so Riemann draws at most 3
#: (a pair) and the 5-card stub serves H drawing up to 2
CARDS15 = [4 * r + s for r in range(8, 13) for s in (1, 2, 3)]
DRAWS15 = (0, 1, 2)
#: ranks 9..A in hearts and spades (G_ind's test deck; too small for removal with draws)
CARDS12 = [4 * r + s for r in range(7, 13) for s in (2, 3)]
PRE = {line: i for i, line in enumerate(G.PRE_LINES)}
DEC = {line: i for i, line in enumerate(G.DEC_LINES)}


@pytest.fixture(scope="module")
def deck15():
    return G.small_deck(CARDS15, n_buckets=5)


@pytest.fixture(scope="module")
def table15(deck15):
    return G.random_table(deck15.n_classes, deck15.n_buckets, seed=15)


@pytest.fixture(scope="module")
def real15(deck15, table15):
    return R.v_real(deck15, table15, DRAWS15)


# --------------------------------------------------------------------------- brute force
class Walk:
    """One betting round walked by the rules: H opens x or b; Riemann answers; one raise each way."""

    def round(self, ctx, put):
        kids = [self.r_node(ctx, ["x"], put, put)] + [self.r_node(ctx, [f"b{z}"], put + z, put) for z in BET_SIZES]
        return ctx.h_choose(kids)

    def r_node(self, ctx, line, h, r):
        probs = ctx.r_probs("-".join(line))  # (Riemann paths, 3)
        if line == ["x"]:
            return ctx.close("x-x", h, probs[:, 0]) + self.h_node(ctx, ["x", "b2"], h, r + RIEMANN_BET, RIEMANN_BET,
                                                                  probs[:, 1])  # fmt: skip
        if line[-1].startswith("b"):
            z = int(line[-1][1:])
            out = ctx.fold_r(r, probs[:, 0]) + ctx.close("-".join(line + ["c"]), h, probs[:, 1])
            return out + self.h_node(ctx, line + ["r"], h, h + z, z, probs[:, 2])
        return ctx.fold_r(r, probs[:, 0]) + ctx.close("-".join(line + ["c"]), h, probs[:, 1])

    def h_node(self, ctx, line, h, r, unit, p):
        ctx.stack.append(ctx.stack[-1] * p)
        kids = [ctx.fold_h(h), ctx.close("-".join(line + ["c"]), r, None), self.r_node(ctx, line + ["r"], r + unit, r)]
        ctx.stack.pop()
        return ctx.h_choose(kids)


class HandBrute(Walk):
    """H's exact best-response value for one dealt hand, every deal that goes with it enumerated."""

    def __init__(self, gd, table, draws):
        self.gd, self.table, self.draws = gd, table, draws
        self.cards = [int(c) for c in gd.deck]
        self.n = len(self.cards)
        self.row = {tuple(int(c) for c in h): i for i, h in enumerate(gd.hands)}
        self.lows = [int(x) for x in gd.lows]

    def bucket(self, v):
        return max([i for i, lo in enumerate(self.lows) if lo <= v], default=0)

    def value(self, h):
        gd, n = self.gd, self.n
        hand = tuple(int(c) for c in gd.hands[h])
        rest = [c for c in self.cards if c not in hand]
        # Riemann's paths given H's hand: dealt g, then (Riemann drawing first) r from the stub
        pm, pc, pk, ps, pp = [], [], [], [], []
        for g in combinations(rest, 5):
            c = int(gd.r_class[self.row[g]])
            mask = pure_house(list(g), gd.rule)[0]
            kept = [g[i] for i in range(5) if (mask >> i) & 1]
            stub = [x for x in rest if x not in g]
            for add in combinations(stub, 5 - len(kept)):
                pm.append(sum(1 << x for x in g + add))
                pc.append(c)
                pk.append(5 - len(kept))
                ps.append(pure_strength(sorted(kept + list(add)), gd.rule))
                pp.append(1.0 / (comb(n - 5, 5) * comb(n - 10, 5 - len(kept))))
        self.pm, self.pc, self.pk = np.array(pm, np.int64), np.array(pc), np.array(pk)
        self.ps, self.pp = np.array(ps), np.array(pp)
        self.pb = np.array([self.bucket(v) for v in ps])
        best, self.first = -np.inf, {}
        for d in self.draws:
            keeps = [k for k in range(32) if 5 - bin(k).count("1") == d]
            states = []  # (keep, new cards)
            for k in keeps:
                for add in combinations(rest, d):
                    states.append((k, add))
            sH = np.array([pure_strength(sorted([hand[i] for i in range(5) if (k >> i) & 1] + list(a)), gd.rule)
                           for k, a in states])  # fmt: skip
            newmask = np.array([sum(1 << x for x in a) for _, a in states], np.int64)
            valid = ((newmask[:, None] & self.pm[None, :]) == 0).astype(np.float64)
            # H's new cards given the path: from the n - 10 - k stub cards Riemann left
            V = valid / np.array([comb(n - 10 - k, d) for k in pk], np.float64)[None, :]
            S = V * np.sign(sH[:, None] - self.ps[None, :])
            A = np.array([[1.0 if s[0] == k else 0.0 for s in states] for k in keeps])
            ctx = PreCtx(self, d, V, S, A)
            opens = [self.r_node(ctx, ["x"], 1, 1)] + [self.r_node(ctx, [f"b{z}"], 1 + z, 1) for z in BET_SIZES]
            kids = np.stack(opens, axis=1)
            for i, k in enumerate(keeps):
                self.first[k] = kids[i]
            best = max(best, float(kids.max()))
        return best


class PreCtx:
    def __init__(self, bf, d, V, S, A):
        self.bf, self.d, self.V, self.S, self.A = bf, d, V, S, A
        self.stack = [bf.pp.copy()]

    def r_probs(self, line):
        return self.bf.table.pre[min(self.d, 4), DEC[line]][self.bf.pc]

    def reach(self, p):
        return self.stack[-1] if p is None else self.stack[-1] * p

    def fold_h(self, h):
        return -h * self.stack[-1].sum() * np.ones(self.A.shape[0])

    def fold_r(self, r, p):
        return r * self.reach(p).sum() * np.ones(self.A.shape[0])

    def close(self, line, amount, p):
        reach = self.reach(p)
        out = np.zeros(self.V.shape[0])
        for k in sorted(set(self.bf.pk.tolist())):
            sel = self.bf.pk == k
            post = PostCtx(self.bf, self.d, line, k, reach[sel], self.V[:, sel], self.S[:, sel], sel)
            out += self.bf.round(post, amount)
        return self.A @ out

    def h_choose(self, kids):
        return np.max(kids, axis=0)


class PostCtx:
    def __init__(self, bf, d, line, k, reach, V, S, sel):
        self.bf, self.d, self.L, self.k, self.V, self.S, self.sel = bf, d, line, k, V, S, sel
        self.stack = [reach]

    def r_probs(self, line):
        return self.bf.table.post[min(self.d, 4), self.k, PRE[self.L], DEC[line]][self.bf.pb[self.sel]]

    def reach(self, p):
        return self.stack[-1] if p is None else self.stack[-1] * p

    def fold_h(self, h):
        return -h * (self.V @ self.stack[-1])

    def fold_r(self, r, p):
        return r * (self.V @ self.reach(p))

    def close(self, line, amount, p):
        return amount * (self.S @ self.reach(p))

    def h_choose(self, kids):
        return np.max(kids, axis=0)


def spread_hands(gd, n: int) -> list[int]:
    """``n`` dealt hands spread over Riemann's classes (the first of each, then evenly)."""
    firsts = [int(np.flatnonzero(gd.r_class == c)[0]) for c in range(gd.n_classes)]
    even = np.linspace(0, gd.n_hands - 1, n).astype(int).tolist()
    return sorted(set(firsts[: n // 2] + even[: n - n // 2]))


# --------------------------------------------------------------------------- V_real against brute force
def test_brute_force_equals_v_real_per_hand(deck15, table15, real15):
    """Per dealt hand (spread over the classes): the value, and the value of the reported keep and opening."""
    bf = HandBrute(deck15, table15, DRAWS15)
    hands = spread_hands(deck15, 4)
    for h in hands:
        v = bf.value(h)
        assert abs(real15.hand_value[h] - v) < 1e-9, h
        assert abs(bf.first[int(real15.keep[h])][real15.opening[h]] - v) < 1e-9
    assert len({int(real15.keep[h]) for h in hands}) >= 3
    assert real15.value > 0.5  # a random table is far from safe


def suit_orbits(gd, free=(1, 2, 3)) -> list[list[int]]:
    """The dealt hands grouped by their class under every permutation of the suits ``free``."""
    from itertools import permutations

    row = {tuple(int(c) for c in h): i for i, h in enumerate(gd.hands)}
    groups: dict[tuple, list[int]] = {}
    for i, h in enumerate(gd.hands.tolist()):
        images = []
        for perm in permutations(free):
            smap = dict(zip(free, perm))
            images.append(tuple(sorted(4 * (c // 4) + smap.get(c % 4, c % 4) for c in h)))
        groups.setdefault(min(images), []).append(i)
    assert all(row[k] in g for k, g in groups.items())
    return list(groups.values())


@pytest.mark.slow
def test_brute_force_equals_v_real_over_every_hand(deck15, table15, real15):
    """V_real itself: the three suits of the 15-card deck are interchangeable (no high-card hand, so
    the House rule's suit tie-break never acts), so H's value is constant on a hand's suit orbit;
    the brute force walks one hand per orbit (minutes) and the orbit-weighted mean is V_real."""
    orbits = suit_orbits(deck15)
    assert sum(len(o) for o in orbits) == deck15.n_hands == 3003
    assert len(orbits) == R.suit_classes(CARDS15, (1, 2, 3))
    for o in orbits:
        assert np.ptp(real15.hand_value[o]) < 1e-12
    bf = HandBrute(deck15, table15, DRAWS15)
    per = np.array([bf.value(o[0]) for o in orbits])
    assert np.abs(per - real15.hand_value[[o[0] for o in orbits]]).max() < 1e-9
    total = sum(len(o) * v for o, v in zip(orbits, per)) / deck15.n_hands
    assert abs(total - real15.value) < 1e-9


@pytest.mark.parametrize("draws", [(0, 1), pytest.param((0, 1, 3), marks=pytest.mark.slow)])
def test_brute_force_on_a_marker_deck(draws):
    """The wild marker I (2 of clubs) with ranks T..A in three suits (16 cards): Riemann's House
    keeps hold I, showdowns read it; H drawing up to 3 (slow) or 1."""
    gd = G.small_deck([0] + CARDS15, RULE_WILD, n_buckets=4)
    table = G.random_table(gd.n_classes, gd.n_buckets, seed=16)
    fast = R.v_real(gd, table, draws)
    bf = HandBrute(gd, table, draws)
    marker_hands = np.flatnonzero((gd.hands == 0).any(axis=1))
    for h in [int(marker_hands[0]), int(marker_hands[-1]), gd.n_hands - 1]:
        assert abs(fast.hand_value[h] - bf.value(h)) < 1e-9, h
    assert len({int(k) for k in fast.keep}) > 5


# --------------------------------------------------------------------------- removal on and off
def test_removal_off_is_v_ind():
    """The same pass with removal switched off is G_ind's value (an independent algorithm), every
    H draw count 0..5, on the 12-card deck where removal could not even be dealt."""
    gd = G.small_deck(CARDS12, n_buckets=5)
    table = G.random_table(gd.n_classes, gd.n_buckets, seed=26)
    off = R.v_real(gd, table, removal=False)
    ind = G.v_ind(gd, table)
    assert abs(off.value - ind.value) < 1e-9
    assert np.abs(off.hand_value - ind.hand_value).max() < 1e-9
    with pytest.raises(InputError, match="cannot serve H drawing 5"):
        R.v_real(gd, table)


def test_removal_matters_on_a_small_deck(deck15, table15, real15):
    """On 15 cards the other hand's removal moves the best response's value by a wide margin, and
    the removal-free pass with the same draws is G_ind's value with those draws only (at most V_ind)."""
    off = R.v_real(deck15, table15, DRAWS15, removal=False)
    ind = G.v_ind(deck15, table15).value
    assert off.value <= ind + 1e-12
    assert abs(real15.value - off.value) > 0.1
    assert np.mean(np.abs(real15.hand_value - off.hand_value) > 1e-6) > 0.9


def test_work_counts(deck15, real15):
    n, N = deck15.n, deck15.n_hands
    assert real15.dead_sets == sum(comb(n, 5 + d) for d in DRAWS15) == RK.n_dead_sets(n, DRAWS15)
    assert real15.triples == N * sum(comb(5, d) * comb(n - 5, d) for d in DRAWS15)
    assert real15.triples == R.full_deck_cost(n, DRAWS15)["h_states"]
    # every dead set's paths: sum over D of sum_c (dealt hands of c inside the live cards) C(live - 5, k_c)
    assert real15.paths == sum(int(R.dead_set_counts(deck15, D).sum()) for d in DRAWS15
                               for D in combinations(range(n), 5 + d))  # fmt: skip


# --------------------------------------------------------------------------- kernels and their twins
def test_dead_counts_kernel_equals_plain(deck15):
    rng = np.random.default_rng(7)
    for size in (5, 6, 7):
        dead = sorted(rng.choice(deck15.n, size, replace=False).tolist())
        fast = R.dead_set_counts(deck15, dead)
        plain = RK.dead_counts_plain(deck15.pos, deck15.r_class, deck15.r_keep, deck15.class_draw, deck15.sidx, dead,
                                     deck15.n_classes, deck15.values.size)  # fmt: skip
        assert np.array_equal(fast, plain)
        live = deck15.n - size
        members = np.zeros(deck15.n_classes)
        for g in combinations([p for p in range(deck15.n) if p not in dead], 5):
            members[deck15.r_class[np.flatnonzero((deck15.pos == g).all(axis=1))[0]]] += 1
        ways = np.array([comb(live - 5, int(k)) for k in deck15.class_draw])
        assert np.array_equal(fast.sum(axis=1), members * ways)
    # no dead card: the whole deck's counts
    assert np.array_equal(R.dead_set_counts(deck15, []), G.riemann_counts(deck15))


def test_node_values_kernel_equals_plain(deck15, table15):
    joint = G.riemann_joint(deck15)
    _, M, P = G.node_masses(deck15, table15, joint)
    Mf, Pf = M.reshape(-1, M.shape[-1]), P.reshape(-1, *P.shape[3:])
    put = np.tile(GK.PUT, M.shape[0] * M.shape[1])
    start = np.searchsorted(deck15.bj, np.arange(deck15.n_buckets + 1))
    cv2, act2, _, _ = GK.post_values_plain(Mf, deck15.bj, start, Pf, put)
    cv = np.zeros_like(cv2)
    act = np.zeros_like(act2)
    for i in range(Mf.shape[0]):
        RK.node_values(Mf[i], deck15.bj, start, Pf[i], put[i], cv[i], act[i])
    assert np.abs(cv - cv2).max() < 1e-12
    assert np.mean(act == act2) > 0.99 and len(set(act.ravel().tolist())) >= 3


def test_bad_draws_are_refused(deck15, table15):
    for draws, msg in (((), "non-empty"), ((6,), "subset of 0..5"), ((-1, 0), "subset of 0..5"),
                       ((0, 3), "cannot serve H drawing 3")):  # fmt: skip
        with pytest.raises(InputError, match=msg):
            R.v_real(deck15, table15, draws)


# --------------------------------------------------------------------------- the route to 51 cards
def _orbits_plain(deck, free):
    seen, count = set(), 0
    for h in combinations(sorted(deck), 5):
        if h in seen:
            continue
        count += 1
        for perm in product(free, repeat=len(free)):
            if len(set(perm)) < len(free):
                continue
            smap = dict(zip(free, perm))
            seen.add(tuple(sorted(4 * (c // 4) + smap.get(c % 4, c % 4) for c in h)))
    return count


def test_suit_classes_small_decks_against_orbit_walk():
    deck = [4 * r + s for r in range(8, 13) for s in range(4) if (r, s) != (8, 0)]  # 19 cards, clubs short
    assert R.suit_classes(deck, (1, 2, 3)) == _orbits_plain(deck, (1, 2, 3))
    deck16 = [4 * r + s for r in range(9, 13) for s in range(4)]
    assert R.suit_classes(deck16, (0, 1, 2, 3)) == _orbits_plain(deck16, (0, 1, 2, 3))
    with pytest.raises(InputError, match="not interchangeable"):
        R.suit_classes(deck, (0, 1))


def test_suit_classes_of_the_standard_deck():
    """The 51-card deck (2 of clubs out): its three full suits interchangeable; Burnside's count
    (identity, three transpositions, two 3-cycles) of the fixed hands agrees."""
    got = R.suit_classes(range(1, 52), (1, 2, 3))
    assert got == 434_550
    # Burnside: a transposition of two full suits fixes a hand when the hand's cards of the two
    # suits have the same ranks; a 3-cycle when the three suits' rank sets are equal (3 | count)
    fix_t = sum(comb(13, j) * comb(12 + 13, 5 - 2 * j) for j in range(3))  # j ranks in both swapped suits
    fix_c = comb(12, 5) + 13 * comb(12, 2)  # five clubs, or one rank in all three suits and two clubs
    assert (comb(51, 5) + 3 * fix_t + 2 * fix_c) % 6 == 0
    assert (comb(51, 5) + 3 * fix_t + 2 * fix_c) // 6 == got


@pytest.mark.slow
def test_suit_classes_of_the_52_card_deck():
    assert R.suit_classes(range(52), (0, 1, 2, 3)) == 134_459


def test_rank_profiles_against_enumeration():
    caps = (3, 4, 4, 2, 4)
    brute = sum(1 for a in product(*[range(c + 1) for c in caps]) if 5 <= sum(a) <= 10)
    assert R.rank_profiles(caps, range(5, 11)) == brute
    assert R.rank_profiles((4,) * 6, [5, 7]) == sum(1 for a in product(range(5), repeat=6) if sum(a) in (5, 7))


def test_full_deck_cost_counts():
    c = R.full_deck_cost(51)
    assert c["dead_sets"] == sum(comb(51, m) for m in range(5, 11))
    assert c["h_states"] == comb(51, 5) ** 2  # Vandermonde: sum_d C(5, d) C(46, d) = C(51, 5)
    assert c["dead_final_pairs"] == comb(51, 5) * sum(comb(46, j) for j in range(6))
