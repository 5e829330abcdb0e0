"""Riemann's public policies as kernels: equal to the players themselves, decision for decision."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from numba import njit

from poker51.cards import MARKER
from poker51.hands.evaluate import strength
from poker51.hands.house import house_keep
from poker51.policies import kernels as m
from poker51.policies.riemann import PublicState, Riemann
from poker51.policies.v05 import post_draw_read, pre_draw_read, spot_probabilities
from poker51.realcard.evidence import built_tables
from poker51.rules import VARIANT_RULES
from tests.helpers import solved_standard

NAMES = ("fold", "call", "raise", "check", "bet")


@pytest.fixture(scope="module")
def standard():
    s = solved_standard()
    hands = m.hand_arrays("standard", s.tables.classes, s.tables.buckets)
    riemann = Riemann(s.df, "standard", s.tables.classes, s.tables.buckets)
    return s, hands, riemann


@pytest.fixture(scope="module")
def wild():
    tables = built_tables("wild")
    return tables, m.hand_arrays("wild", tables.classes, tables.buckets)


def _hands(cards, n, seed):
    rng = np.random.default_rng(seed)
    return [np.sort(rng.choice(cards, 5, replace=False)).astype(np.int64) for _ in range(n)]


def test_colex_and_sorting():
    for h in itertools.islice(itertools.combinations(range(52), 5), 0, 2_598_960, 9973):
        assert m.colex(np.array(h)) == m.colex_plain(reversed(h))
    assert m.colex(np.array([47, 48, 49, 50, 51])) == m.N_HANDS52 - 1
    for perm in itertools.permutations([3, 9, 17, 30, 44]):
        a = np.array(perm)
        m.sort5(a)
        assert a.tolist() == [3, 9, 17, 30, 44]


def test_hand_arrays_standard(standard):
    s, H, riemann = standard
    for h in _hands(H.cards, 300, 1):
        idx = m.colex(h)
        assert H.strength[idx] == strength(list(h))
        assert H.strengths[H.srank[idx]] == H.strength[idx]
        assert H.house_mask[idx] == house_keep(list(h))[0]
        assert H.class_id[idx] == riemann.classify(list(h)) and H.bucket[idx] == riemann.bucket(list(h))
    assert (H.strength[[m.colex(np.array([MARKER, 1, 2, 3, 4]))]] == -1).all()  # not a standard hand
    # hands listed by House draw count: the exact counts of docs/abstraction.md
    assert np.diff(H.draw_start)[:5].tolist() == [18_291, 238_017, 49_632, 992_640, 1_050_480]
    for k in range(5):
        rows = H.by_draw[H.draw_start[k] : H.draw_start[k + 1] : 50_000]
        assert all(5 - bin(house_keep(list(r))[0]).count("1") == k for r in rows)
        bits = H.by_draw_mask[H.draw_start[k] : H.draw_start[k + 1] : 50_000]
        assert all(b == sum(1 << int(c) for c in r) for b, r in zip(bits, rows))


@njit(cache=False)
def _ranks_shuffled(M, hands, out):
    for i in range(hands.shape[0]):
        h = hands[i].astype(np.int64)
        out[i] = m.rank5(M, h[4], h[2], h[0], h[3], h[1])


# wild and bug build their abstractions (about 20 s each): `make slow`
@pytest.mark.parametrize(
    "variant", ["standard", pytest.param("wild", marks=pytest.mark.slow), pytest.param("bug", marks=pytest.mark.slow)]
)
def test_rank5_is_the_colex_rank_of_every_hand(variant, standard):
    if variant == "standard":
        H = standard[1]
    else:
        tables = built_tables(variant)
        H = m.hand_arrays(variant, tables.classes, tables.buckets)
    M = m.policy_tuple(m.CHECKCALL, H)
    out = np.empty(len(H.by_draw), np.int64)
    _ranks_shuffled(M, H.by_draw, out)
    idx = m.BINOM[H.by_draw.astype(np.int64), np.arange(1, 6)].sum(axis=1)
    assert np.array_equal(out, H.srank[idx]) and (out >= 0).all()
    assert np.array_equal(H.strengths[out], H.strength[idx])
    assert np.array_equal(H.bucket_by_srank[out], H.bucket[idx])


def test_v06_kernel_is_riemann_decide(standard):
    s, H, riemann = standard
    M = m.policy_tuple(m.V06, H, m.table_arrays(*riemann.kernel_arrays()))
    rng = np.random.default_rng(2)
    out = np.empty(10, np.int64)
    lines = np.arange(10, dtype=np.int64)
    for h in _hands(H.cards, 400, 3):
        d = int(rng.integers(0, 6))
        m.pre_actions(M, h, d, lines, out)
        want = [riemann.decide(list(h), PublicState(0, d, -1, m.R_LINES[i], ""))[0] for i in range(10)]
        assert [NAMES[a] for a in out] == want
        k, pre = int(rng.choice(riemann.r_draws)), int(rng.integers(0, 15))
        m.post_actions(M, h, d, k, pre, lines, out)
        want = [riemann.decide(list(h), PublicState(1, d, k, m.PRE_DONE[pre], m.R_LINES[i]))[0] for i in range(10)]
        assert [NAMES[a] for a in out] == want


def test_pairwise_mean_is_numpys():
    rng = np.random.default_rng(4)
    for n in list(range(1, 20)) + [63, 64, 100, 127, 128]:
        x = rng.random(n) * rng.choice([1e-3, 1.0, 1e3])
        assert m.pairwise_mean(x) == np.mean(x)


@pytest.mark.parametrize("variant", ["standard", pytest.param("wild", marks=pytest.mark.slow)])
def test_v05_pre_reads_are_the_players(variant, standard, request):
    tables, H = (standard[0].tables, standard[1]) if variant == "standard" else request.getfixturevalue("wild")
    M = m.policy_tuple(m.V05, H, belief=tables.belief_array())
    hands = _hands(H.cards, 60, 5)
    if variant == "wild":
        hands += [np.sort(np.r_[MARKER, h[1:]]) for h in _hands(H.cards[1:], 20, 6)]  # marker hands
    pat = H.by_draw[H.draw_start[0] : H.draw_start[1] : 4000].astype(np.int64)  # stand-pat hands: one read
    for h in hands + list(pat):
        out = np.empty(6)
        m.v05_pre_reads(M, h, out)
        assert out.tolist() == [pre_draw_read(list(h), d, tables.belief_array(), variant) for d in range(6)]


def test_v05_kernel_is_the_policy_at_the_thresholds(standard):
    """v05_action equals the argmax of spot_probabilities on reads that sit exactly on the
    thresholds (0.1, 0.7, every call price) and next to them."""
    reads = {0.0, 1.0, 0.1, 0.7}
    for b in (1, 2, 4, 8):
        for f in (1.0, 0.85, 0.7, 0.55, 0.5, 0.425, 0.35, 0.275):
            for pot0 in (2, 6, 18, 50):
                for thr in (b / (pot0 + 2 * b), b / (pot0 + 6 * b), 2 / (pot0 + 8), 0.7, 0.1):
                    reads.add(thr * f + (1 - f))  # the read whose adjusted score is the threshold
    reads = sorted(r for r0 in reads for r in (r0, np.nextafter(r0, 0), np.nextafter(r0, 1)) if 0 <= r <= 1)
    for read in reads:
        for line, tokens in enumerate(m.R_LINES):
            for pot0 in (2.0, 6.0, 18.0):
                for bluff in (False, True):
                    p = spot_probabilities(tokens.split("-"), read, pot0, 1.0 if bluff else 0.0)
                    names = (
                        ["check", "bet"]
                        if tokens == "x"
                        else (["fold", "call", "raise"] if "-" not in tokens else ["fold", "call"])
                    )
                    assert NAMES[m.v05_action(read, bluff, line, pot0)] == names[int(np.argmax(p))], (read, tokens)


def test_v05_post_action_uses_the_read_of_the_final_hand(standard):
    s, H, _ = standard
    M = m.policy_tuple(m.V05, H, belief=s.tables.belief_array())
    rng = np.random.default_rng(8)
    for h in _hands(H.cards, 200, 9):
        d, pre, line = int(rng.integers(0, 6)), int(rng.integers(0, 15)), int(rng.integers(0, 10))
        read = post_draw_read(list(h), d, s.tables.belief_array(), "standard")
        pot0 = 2.0 * m.PRE_DONE_CONTRIB[pre]
        assert m.post_action(M, h, d, 3, pre, line) == m.v05_action(read, m.bluff_class(h), line, pot0)


def test_fill_reads_equals_the_lazy_cache(standard):
    s, H, _ = standard
    lazy = m.policy_tuple(m.V05, H, belief=s.tables.belief_array())
    sub = H.by_draw[::25_000]
    for h in sub:
        m.pre_action(lazy, h.astype(np.int64), 3, 0)
    full = m.policy_tuple(m.V05, H, belief=s.tables.belief_array())
    m._fill_reads(full, sub)
    idx = [m.colex(h.astype(np.int64)) for h in sub]
    assert np.array_equal(lazy.reads[idx], full.reads[idx]) and not np.isnan(full.reads[idx]).any()


def test_check_call_model_and_bad_kinds(standard):
    _, H, _ = standard
    M = m.policy_tuple(m.CHECKCALL, H)
    h = np.array([4, 9, 22, 31, 50])
    assert [m.pre_action(M, h, 2, line) for line in range(10)] == [m.CHECK] + [m.CALL] * 9
    with pytest.raises(ValueError):
        m.policy_tuple(7, H)
    with pytest.raises(ValueError):
        m.policy_tuple(m.V06, H)
    assert VARIANT_RULES["standard"] == H.rule


def test_rank_tables_are_small_and_refuse_a_key_with_two_strengths(standard):
    H = standard[1]
    # the multiset numbers of five ranks (C(17, 5)), the rank sets of a flush, the marker's other four
    assert H.rank_table.shape == (6188,) and H.flush_table.shape == (8192,) and H.marker_table.shape == (3640,)
    # filled exactly where the deck can deal the ranks: not a flush, at most as many of a rank as it holds
    per_rank = np.bincount(np.asarray(H.cards) >> 2, minlength=13)
    dealt = [
        r
        for r in itertools.combinations_with_replacement(range(13), 5)
        if (np.bincount(r, minlength=13) <= per_rank).all()
    ]
    assert int((H.rank_table >= 0).sum()) == len(dealt)
    suits = [{int(c) >> 2 for c in H.cards if int(c) & 3 == s} for s in range(4)]
    flushes = {r for r in itertools.combinations(range(13), 5) if any(set(r) <= s for s in suits)}
    assert int((H.flush_table >= 0).sum()) == len(flushes)
    assert (H.marker_table == -1).all()  # the standard variant reads no marker
    with pytest.raises(ValueError, match="the standard rank table: hands with one key have different strengths"):
        m._keyed_table(10, "rank", "standard", np.array([3, 3]), np.array([1, 2]))
