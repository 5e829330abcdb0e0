"""The strategy ``given`` (poker51.realcard.gind.v_ind_given): the G_ind pre-draw best response with
Riemann's class prior corrected for H's own five cards, H's post-draw choices the G_ind best
response's.

The brute force shares with the fast code only its inputs (deck, classes, buckets, the table's
arrays) and the G_ind post-draw choices it fixes: Riemann's class prior given H's hand by counting
its dealt hands that avoid H's cards, its final strength given its class by enumerating every
dealt hand of the class and every House replacement from its own deck (plain evaluator), H's
expectations by enumerating its replacements, both betting rounds by an explicit walk per
decision (no fold masses, no superset sums, no inclusion-exclusion, no bucket prefix sums).
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import pytest

from poker51.errors import InputError
from poker51.hands.pure import pure_house, pure_strength
from poker51.realcard import gind as G
from poker51.rules import BET_SIZES, RIEMANN_BET

#: ranks 8..A in hearts and spades (14 cards, 2,002 hands)
CARDS14 = [4 * r + s for r in range(6, 13) for s in (2, 3)]
DEC = {line: i for i, line in enumerate(G.DEC_LINES)}
PRE = {line: i for i, line in enumerate(G.PRE_LINES)}
#: each player's contribution after each completed pre-draw line (antes included), written out
PUT = np.array([1, 3, 5] + [p for b in BET_SIZES for p in (1 + b, 1 + 2 * b, 1 + 3 * b)], np.float64)


@pytest.fixture(scope="module")
def setup14():
    gd = G.small_deck(CARDS14, n_buckets=6)
    table = G.random_table(gd.n_classes, gd.n_buckets, seed=262)
    joint = G.riemann_joint(gd)
    base = G.v_ind(gd, table, joint)
    given = G.v_ind_given(gd, table, joint, None, base)
    return gd, table, joint, base, given


class Plain:
    """Every decision of H's dealt hand ``h`` walked plainly (module docstring)."""

    def __init__(self, gd, table, base):
        self.gd, self.table, self.base = gd, table, base
        self.cards = [int(c) for c in gd.deck]
        self.hands = [tuple(int(c) for c in h) for h in gd.hands]
        self.row = {h: i for i, h in enumerate(self.hands)}
        s = np.array([pure_strength(list(h), gd.rule) for h in self.hands], np.int64)
        self.values = np.unique(s)
        self.si = np.searchsorted(self.values, s)
        lows = [int(x) for x in gd.lows]
        self.bucket = np.array([max([i for i, lo in enumerate(lows) if lo <= v], default=0) for v in self.values])
        C, U = gd.n_classes, self.values.size
        # P(final strength | class): every dealt hand of the class, every replacement of its House keep
        self.cond = np.zeros((C, U))
        for h in self.hands:
            c = int(gd.r_class[self.row[h]])
            mask = pure_house(list(h), gd.rule)[0]
            kept = [h[i] for i in range(5) if (mask >> i) & 1]
            rest = [x for x in self.cards if x not in h]
            adds = list(combinations(rest, 5 - len(kept)))
            for add in adds:
                self.cond[c, self.si[self.row[tuple(sorted(kept + list(add)))]]] += 1.0 / len(adds)
        self.cond /= self.cond.sum(axis=1, keepdims=True)
        self.sign = np.sign(np.arange(U)[:, None] - np.arange(U)[None, :]).astype(np.float64)
        self.post = {}

    def prior_given(self, h):
        """Riemann's class distribution over its dealt hands that avoid H's cards ``h``."""
        out = np.zeros(self.gd.n_classes)
        for j, r in enumerate(self.hands):
            if not set(r) & set(h):
                out[self.gd.r_class[j]] += 1.0
        return out / out.sum()

    def post_matrix(self, d4, k, line):
        """(U, U): H's post-draw value with strength i against Riemann's strength j at the node,
        H playing the G_ind choices, Riemann its table's probabilities by the bucket of j."""
        key = (d4, k, line)
        if key in self.post:
            return self.post[key]
        a = self.base.draws.index(k)
        p = PRE[line]
        put = float(PUT[p])
        P = self.table.post[d4, k, p]  # (10 lines, B, 3)
        R = P[:, self.bucket]  # (10, U_R, 3)
        act = self.base.post_opening[d4, a, p]
        xb2 = self.base.post_xb2[d4, a, p]
        br = self.base.post_br[d4, a, p]
        U = self.values.size
        out = np.zeros((U, U))
        for i in range(U):
            sg = self.sign[i]
            if act[i] == 0:
                x = R[DEC["x"]]
                faced = [-put * np.ones(U), (put + RIEMANN_BET) * sg]
                xr = R[DEC["x-b2-r"]]
                faced.append(xr[:, 0] * (put + RIEMANN_BET) + xr[:, 1] * (put + 2 * RIEMANN_BET) * sg)
                out[i] = x[:, 0] * put * sg + x[:, 1] * faced[xb2[i]]
            else:
                z = BET_SIZES[act[i] - 1]
                b = R[DEC[f"b{z}"]]
                rr = R[DEC[f"b{z}-r-r"]]
                faced = [
                    -(put + z) * np.ones(U),
                    (put + 2 * z) * sg,
                    rr[:, 0] * (put + 2 * z) + rr[:, 1] * (put + 3 * z) * sg,
                ]
                out[i] = b[:, 0] * put + b[:, 1] * (put + z) * sg + b[:, 2] * faced[br[i, act[i] - 1]]
        self.post[key] = out
        return out

    def decisions(self, h, prior):
        """{(keep, opening, answer): H's value}: ``answer`` its answer to Riemann's bet after its
        check (opening 0) or to Riemann's raise of its bet; Riemann's dealt class by ``prior``."""
        gd = self.gd
        rest = [x for x in self.cards if x not in h]
        ks = np.array([int(k) for k in gd.class_draw])
        out = {}
        for K in range(32):
            d = 5 - bin(K).count("1")
            d4 = min(d, 4)
            kept = [h[i] for i in range(5) if (K >> i) & 1]
            finals = [self.si[self.row[tuple(sorted(kept + list(a)))]] for a in combinations(rest, d)]

            def line_value(line, w, d4=d4, finals=finals):  # Riemann's class weights w reaching the completed line
                tot = 0.0
                for c in range(gd.n_classes):
                    if w[c] == 0.0:
                        continue
                    M = self.post_matrix(d4, int(ks[c]), line)
                    tot += w[c] * np.mean([M[f] @ self.cond[c] for f in finals])
                return tot

            pre = self.table.pre[d4]  # (10, C, 3)
            x, xr = pre[DEC["x"]], pre[DEC["x-b2-r"]]
            check = line_value("x-x", prior * x[:, 0])
            bet_w = prior * x[:, 1]
            faced = [-1.0 * bet_w.sum(), line_value("x-b2-c", bet_w),
                     3.0 * (bet_w * xr[:, 0]).sum() + line_value("x-b2-r-c", bet_w * xr[:, 1])]  # fmt: skip
            for ans in range(3):
                out[(K, 0, ans)] = check + faced[ans]
            for o, z in enumerate(BET_SIZES):
                b, rr = pre[DEC[f"b{z}"]], pre[DEC[f"b{z}-r-r"]]
                base = (prior * b[:, 0]).sum() + line_value(f"b{z}-c", prior * b[:, 1])
                rw = prior * b[:, 2]
                faced = [-(1.0 + z) * rw.sum(), line_value(f"b{z}-r-c", rw),
                         (1.0 + 2 * z) * (rw * rr[:, 0]).sum() + line_value(f"b{z}-r-r-c", rw * rr[:, 1])]  # fmt: skip
                for ans in range(3):
                    out[(K, 1 + o, ans)] = base + faced[ans]
        return out


def _chosen(r, h):
    o = int(r.opening[h])
    return int(r.keep[h]), o, int(r.xb2[h]) if o == 0 else int(r.br[h, o - 1])


def test_given_is_the_best_response_to_the_class_prior_given_the_hand(setup14):
    """For hands where ``given`` and G_ind disagree and a few others: the plain walk's best
    decision value under Riemann's prior given the hand is ``given``'s value, and ``given``'s
    decision reaches it; the same walk under the unconditional prior gives V_ind's hand value
    (the walk itself checked against v_ind)."""
    gd, table, _, base, given = setup14
    pl = Plain(gd, table, base)
    differ = np.flatnonzero((given.keep != base.keep) | (given.opening != base.opening))
    assert differ.size > 0.05 * gd.n_hands  # the correction changes many decisions on a small deck
    rng = np.random.default_rng(26)
    rows = list(differ[:: max(1, differ.size // 3)][:3]) + list(rng.choice(gd.n_hands, 2, replace=False))
    pbar = gd.class_members() / gd.n_hands
    for h in rows:
        hand = pl.hands[h]
        q = pl.prior_given(hand)
        vals = pl.decisions(hand, q)
        best = max(vals.values())
        assert abs(given.hand_value[h] - best) < 1e-9
        assert abs(vals[_chosen(given, h)] - best) < 1e-9
        plain0 = pl.decisions(hand, pbar)
        assert abs(max(plain0.values()) - base.hand_value[h]) < 1e-9
        assert abs(plain0[_chosen(base, h)] - base.hand_value[h]) < 1e-9
    assert given.value > base.value  # a better prior is worth something in this hybrid game


def test_unconditional_prior_reproduces_v_ind(setup14):
    """Passing the unconditional prior to every hand gives v_ind's keeps, openings, answers and
    values bit for bit; the per-class post-draw values mix back to V_ind's."""
    gd, table, joint, base, _ = setup14
    pbar = gd.class_members() / gd.n_hands
    X = G.class_node_values(gd, table, joint, base)
    assert np.abs(np.einsum("dlcu,c->dlu", X, pbar) - base.post_cv.sum(axis=1)).max() < 1e-12
    r = G.v_ind_given(gd, table, joint, np.tile(pbar, (gd.n_hands, 1)), base)
    for k in ("keep", "opening", "xb2", "br"):
        assert np.array_equal(getattr(r, k), getattr(base, k)), k
    assert np.abs(r.hand_value - base.hand_value).max() < 1e-12 and r.value == pytest.approx(base.value, abs=1e-12)
    with pytest.raises(InputError, match="prior"):
        G.v_ind_given(gd, table, joint, np.ones((3, gd.n_classes)), base)


def test_the_priors_given_the_hand_are_exact_counts(setup14):
    """Every row of the corrected prior, times C(n - 5, 5), is an integer count of Riemann's hands
    avoiding H's hand (class_counts_given) and sums to C(9, 5) = 126."""
    gd = setup14[0]
    pbar = gd.class_members() / gd.n_hands
    counts = (G.prior_given(gd) + pbar) * comb(gd.n - 5, 5)
    assert np.abs(counts - np.round(counts)).max() < 1e-9 and counts.min() > -1e-9
    assert np.array_equal(np.round(counts), G.class_counts_given(gd, np.arange(gd.n_hands)))
    assert comb(gd.n - 5, 5) == 126 and np.all(np.round(counts).sum(axis=1) == 126)


def test_given_table_reads_back_from_its_frames_and_plays(tmp_path):
    """``given`` as the bounds play it: its dealt-hand choices, G_ind's post-draw choices and V_ind's
    hand values as the control variate; the frames realcard_br writes read back as the very table
    (read_strategies, the exact G_ind value NaN); in G_ind itself (mode IND) it does not beat V_ind."""
    import pandas as pd

    from poker51.realcard import bounds as B
    from poker51.realcard import bounds_kernels as BK

    gd = G.small_deck([4 * r + s for r in range(7, 13) for s in (2, 3)], n_buckets=5)
    ta = G.random_table(gd.n_classes, gd.n_buckets, seed=26)
    r = G.v_ind(gd, ta)
    S, rg = B.given_table(gd, ta, r)
    ref = B.result_table(gd, r)
    idx = B.colex_rows(gd.hands)
    assert np.array_equal(S.keep[idx], rg.keep.astype(np.uint8)) and np.array_equal(S.open[idx], rg.opening)
    assert np.array_equal(S.g, ref.g) and not np.array_equal(S.keep, ref.keep)
    for name in ("post_open", "post_xb2", "post_br"):
        assert np.array_equal(getattr(S, name), getattr(ref, name)), name
    hands, post = G.strategy_frames(gd, r)
    g_hands, _ = G.strategy_frames(gd, rg)
    files = {"table": tmp_path / "t.parquet", "hands": tmp_path / "h.parquet", "post": tmp_path / "p.parquet",
             "given_hands": tmp_path / "g.parquet"}  # fmt: skip
    pd.DataFrame([{"v_ind": r.value, "v_abstract": 0.0, "v_ind_abstract_human": 0.0}]).to_parquet(files["table"])
    hands.to_parquet(files["hands"])
    post.to_parquet(files["post"])
    g_hands.to_parquet(files["given_hands"])
    built, v, _ = B.read_strategies(gd, {k: str(x) for k, x in files.items()}, ("gind", "given"))
    assert v == r.value and np.isnan(built["given"][1]) and built["gind"][1] == r.value
    assert all(np.array_equal(x, y) for x, y in zip(built["given"][0], S, strict=True))
    with pytest.raises(InputError, match="given_hands"):
        B.read_strategies(gd, {k: str(x) for k, x in files.items() if k != "given_hands"}, ("given",))
    with pytest.raises(InputError, match="unknown strategy"):
        B.read_strategies(gd, {}, ("givne",))
    M = B.small_model(gd, ta)
    e = B.evaluate(M, S, 200_000, 7, r.value, mode=BK.IND)
    assert e.cv_ci_low < r.value and e.hands == 200_000


def test_superset_sums_by_rows_are_the_plain_kernels(setup14):
    """superset_rows on the strength lists of superset_strengths (per subset the distinct
    strengths of its five-card supersets and their counts) equals superset_sums for every
    smallest subset size; the counts are C(n - |T|, 5 - |T|) per subset."""
    from poker51.realcard import gind_kernels as K

    gd = setup14[0]
    V = np.random.default_rng(5).normal(size=(gd.values.size, 37))
    binom, offset = K.subset_tables(gd.n)
    ptr, u, w = K.superset_strengths(gd.pos, gd.sidx, binom, offset)
    sizes = np.repeat(np.arange(5), np.diff(offset))
    per_row = np.add.reduceat(w, ptr[:-1])
    assert np.array_equal(per_row, [comb(gd.n - k, 5 - k) for k in sizes])
    assert all(np.all(np.diff(u[ptr[r] : ptr[r + 1]]) > 0) for r in range(0, len(sizes), 97))
    for tmin in (0, 1, 3, 4):
        want = np.zeros((int(offset[5]), 37))
        K.superset_sums(gd.pos, gd.sidx, V, tmin, binom, offset, want)
        got = np.zeros_like(want)
        K.superset_rows(ptr, u, w, V, int(offset[tmin]), got)
        assert np.abs(got - want).max() < 1e-9 * max(1.0, np.abs(want).max()), tmin


def test_columns_riemann_never_reaches_are_left_out_exactly():
    """A table where some classes never bet after a check and never raise a bet: their (class,
    line) columns are left out of the per-class sums, and every value and choice is the same as
    with every column kept, bit for bit."""
    gd = G.small_deck([4 * r + s for r in range(7, 13) for s in (2, 3)], n_buckets=5)
    ta = G.random_table(gd.n_classes, gd.n_buckets, seed=9)
    pre = ta.pre.copy()
    pre[:, DEC["x"], ::2] = [1.0, 0.0, 0.0]  # even classes check behind
    for z in BET_SIZES:
        pre[:, DEC[f"b{z}"], 1::3] = [0.3, 0.7, 0.0]  # every third class never raises
    ta = G.TableArrays(pre, ta.post)
    base = G.v_ind(gd, ta)
    a = G.v_ind_given(gd, ta, None, None, base, prune=True)
    b = G.v_ind_given(gd, ta, None, None, base, prune=False)
    assert a.seconds["columns"] < b.seconds["columns"] == 5 * 15 * gd.n_classes
    for k in ("keep", "opening", "xb2", "br", "hand_value"):
        assert np.array_equal(getattr(a, k), getattr(b, k)), k
