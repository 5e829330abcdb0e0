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
from poker51.rules import BET_SIZES, RIEMANN_BET

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
        root = np.zeros(self.N)
        best = np.full(self.N, -np.inf)
        for d in range(6):
            states, _ = self.avg[d]
            if not states:
                continue
            ctx = PreContext(self, d)
            kids = ctx.opening_children(self)
            hs = np.array([h for h, _ in states])
            if self.strategy is None:
                np.maximum.at(best, hs, np.max(kids, axis=0))
            else:
                p = self.strategy.pre_open[hs]
                np.add.at(root, hs, (p * np.stack(kids, axis=1)).sum(axis=1))
        return float((best if self.strategy is None else root).mean())


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
def test_brute_force_equals_v_ind(deck12, table12):
    fast = G.v_ind(deck12, table12)
    brute = Brute(deck12, table12).value()
    assert abs(fast.value - brute) < 1e-9
    assert fast.value > 0.5  # a random table is far from safe: the value is not a trivial 0
