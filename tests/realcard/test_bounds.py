"""Lower bounds by play (poker51.realcard.bounds): the kernel against its plain twin and the engine,
hand by hand; unbiasedness against the exact G_ind value on a small deck; reproducibility."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from poker51.games.abstract import build_game
from poker51.play.engine import HandState, run_hand
from poker51.policies import kernels as m
from poker51.policies.riemann import Riemann
from poker51.realcard import bounds as B
from poker51.realcard import bounds_kernels as K
from poker51.realcard import gind as G
from poker51.realcard.bounds_plain import (
    IndDecider,
    RealDecider,
    TablePlayer,
    deck_plain,
    hand_key_plain,
    play_hand_plain,
)
from poker51.realcard.evidence import mean_ci
from poker51.realcard.lbr_kernels import decode_line
from poker51.solver.best_response import best_response_policy
from tests.helpers import solved_standard

#: ranks 9..A in hearts and spades (the G_ind tests' deck)
CARDS12 = [4 * r + s for r in range(7, 13) for s in (2, 3)]


@pytest.fixture(scope="module")
def small():
    gd = G.small_deck(CARDS12, n_buckets=5)
    ta = G.random_table(gd.n_classes, gd.n_buckets, seed=26)
    return gd, ta, B.small_model(gd, ta)


@pytest.fixture(scope="module")
def standard():
    s = solved_standard()
    hands = m.hand_arrays("standard", s.tables.classes, s.tables.buckets)
    riemann = Riemann(s.df, "standard", s.tables.classes, s.tables.buckets)
    M = m.policy_tuple(m.V06, hands, m.table_arrays(*riemann.kernel_arrays()))
    return hands, riemann, M


def test_streams_are_the_plain_twins():
    for z in (0, 1, 2**63 + 7, 2**64 - 1):
        assert int(K.mix64(np.uint64(z))) == K.mix64_plain(z)
    sk = B.stream_key(51, 0)
    assert sk != B.stream_key(51, 1) and sk != B.stream_key(52, 0)
    assert int(K.hand_key(np.uint64(sk), 9)) == hand_key_plain(sk, 9)
    full = deck_plain(range(51), 12345)
    assert sorted(full) == list(range(51)) and full != list(range(51))
    assert deck_plain(range(51), 12345, positions=20)[:20] == full[:20]  # lazily drawn: a prefix


def test_kernel_is_the_plain_twin_in_gind(small):
    """Mode IND on the 12-card deck: net, draw counts and both lines of every hand."""
    gd, ta, M = small
    S = B.strategy_table(gd, B.pure_random_strategy(gd, 3))
    det, decks = B.play_detail(M, S, 5, 0, 0, 400, K.IND)
    dec, sk = IndDecider(gd, ta), B.stream_key(5, 0)
    for i in range(400):
        net, hd, rd, pre, post, deck = play_hand_plain(
            S, dec, gd.deck, gd.values, gd.rule, hand_key_plain(sk, i), K.IND
        )
        assert (net, hd, rd) == tuple(det[i, :3]), i
        assert (pre, post) == (decode_line(det[i, 4]), decode_line(det[i, 5])), i
        used = int(det[i, 6])
        assert deck[:used] == decks[i, :used].tolist()
    assert len(np.unique(det[:, 0])) > 5  # folds and showdowns of several sizes were played


def test_kernel_is_the_plain_twin_and_the_engine_on_real_cards(standard):
    """Mode REAL on the standard deck with the real Riemann: the kernel, the plain twin and the
    engine (the same deck injected; TablePlayer in seat H) give the same nets, hand by hand."""
    hands, riemann, M = standard
    S = B.random_human_table(hands.strengths.size, seed=8)
    n = 150
    det, decks = B.play_detail(M, S, 11, 0, 0, n, K.REAL)
    dec, sk = RealDecider(riemann), B.stream_key(11, 0)
    player = TablePlayer(S, hands.strengths, hands.rule)
    for i in range(n):
        net, hd, rd, pre, post, deck = play_hand_plain(
            S, dec, hands.cards, hands.strengths, hands.rule, hand_key_plain(sk, i), K.REAL
        )
        assert (net, hd, rd) == tuple(det[i, :3]), i
        assert (pre, post) == (decode_line(det[i, 4]), decode_line(det[i, 5])), i
        assert deck[: det[i, 6]] == decks[i, : det[i, 6]].tolist()
        res = run_hand(HandState("standard", {"H": 100, "R": 100}, deck), {"H": player, "R": riemann})
        assert res.net["H"] == det[i, 0], i
    assert (det[:, 3] >= 0).sum() > 20 and (det[:, 5] > 0).sum() > 20  # many hands reached the draw and beyond


def test_the_packed_table_holds_every_choice(small):
    """The play reads a packed table (one word per dealt hand, one per post-draw spot): every
    field unpacks to the table's, the control variate is the table's to the bit."""
    gd, _, M = small
    S = B.random_human_table(gd.values.size, seed=12)
    T = K.pack(M, S)
    word = T.pre[0::2].astype(np.int64)
    assert np.array_equal(word & 31, S.keep) and np.array_equal(word >> 5 & 7, S.open)
    assert np.array_equal(word >> 8 & 3, S.xb2) and T.pre[1::2].tobytes() == S.g.tobytes()
    assert all(np.array_equal(word >> (10 + 2 * o) & 3, S.br[:, o]) for o in range(4))
    post = T.post.astype(np.int64)
    assert np.array_equal(post & 7, S.post_open) and np.array_equal(post >> 3 & 3, S.post_xb2)
    assert all(np.array_equal(post >> (5 + 2 * o) & 3, S.post_br[..., o]) for o in range(4))
    idx = B.colex_rows(gd.hands)
    assert np.array_equal(T.riemann[idx] & 0xFFFF, M.class_id[idx]) and np.array_equal(
        T.riemann[idx] >> 16, M.house_mask[idx]
    )
    assert B.play_sums(M, T, 3, 0, 0, 500, K.IND).tobytes() == B.play_sums(M, S, 3, 0, 0, 500, K.IND).tobytes()


def test_sums_are_the_nets_and_do_not_depend_on_chunking(small):
    gd, ta, M = small
    S = B.with_g(B.strategy_table(gd, B.pure_random_strategy(gd, 4)), gd, np.arange(gd.n_hands) / gd.n_hands)
    n = 3 * K.BLOCK + 17
    nets = np.zeros(n, np.int64)
    sums = B.play_sums(M, S, 9, 0, 0, n, K.IND, nets=nets)
    assert sums[:, 0].sum() == n and sums[:, 1].sum() == nets.sum() and sums[:, 2].sum() == (nets * nets).sum()
    det, _ = B.play_detail(M, S, 9, 0, 0, 50, K.IND)
    assert det[:, 0].tolist() == nets[:50].tolist()
    parts = np.concatenate([B.play_sums(M, S, 9, 0, 0, 2 * K.BLOCK, K.IND),
                            B.play_sums(M, S, 9, 0, 2 * K.BLOCK, n - 2 * K.BLOCK, K.IND)])  # fmt: skip
    assert parts.tobytes() == sums.tobytes()
    assert B.run_sums(M, S, n, 9, mode=K.IND).tobytes() == sums.tobytes()
    # whatever the thread count: fixed blocks, each summed in hand order, combined in block order
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = B.play_sums(M, S, 9, 0, 0, n, K.IND)
    finally:
        numba.set_num_threads(threads)
    assert one.tobytes() == sums.tobytes() and threads >= 1
    e = B.estimate(sums, 0.0, 0.0)
    assert np.allclose((e.mean, e.sd, e.ci_low, e.ci_high), np.array(mean_ci(nets))[[0, 1, 3, 4]], rtol=1e-10)


def test_play_is_unbiased_in_gind(small):
    """A random pure strategy and the G_ind best response, played in mode IND: each estimate
    (plain and with the control variate) covers the exact G_ind value; the control variate
    shrinks the best response's spread."""
    gd, ta, M = small
    hs = B.pure_random_strategy(gd, 3)
    r = G.v_ind(gd, ta)
    exact = G.strategy_value(gd, ta, hs)
    S = B.with_g(B.strategy_table(gd, hs), gd, r.hand_value)
    e = B.evaluate(M, S, 400_000, 17, r.value, mode=K.IND)
    for lo, hi in ((e.ci_low, e.ci_high), (e.cv_ci_low, e.cv_ci_high)):
        assert lo < exact < hi, (exact, e)
    br, r2 = B.gind_table(gd, ta, r)
    assert r2.value == r.value
    e = B.evaluate(M, br, 400_000, 18, r.value, mode=K.IND)
    for lo, hi in ((e.ci_low, e.ci_high), (e.cv_ci_low, e.cv_ci_high)):
        assert lo < r.value < hi, (r.value, e)
    assert e.cv_sd < e.sd and 0.5 < e.beta < 1.5, e
    assert B.evaluate(M, br, 400_000, 18, r.value, mode=K.IND) == e  # seeded: the same figures


def test_abstract_human_table_plays_its_gind_value(small):
    gd, ta, M = small
    game = build_game(G.small_abstraction(gd))
    response = best_response_policy(game, G.game_policy(game, ta), 0)
    hs = G.abstract_human(game, response, gd)
    exact = G.strategy_value(gd, ta, hs)
    e = B.evaluate(M, B.abstract_table(gd, hs), 300_000, 21, 0.0, mode=K.IND)
    assert e.ci_low < exact < e.ci_high and exact <= G.v_ind(gd, ta).value + 1e-12


def test_strategies_read_back_from_their_frames(small):
    """What realcard_br writes (the G_ind best response's frames, the abstract human's) reads back
    as the very tables the bounds play (array for array); frames of another deck are refused."""
    gd, ta, _ = small
    r = G.v_ind(gd, ta)
    S = B.result_table(gd, r)
    idx = B.colex_rows(gd.hands)
    assert np.array_equal(S.keep[idx], r.keep.astype(np.uint8)) and np.array_equal(S.open[idx], r.opening)
    assert set(np.unique(S.xb2[idx])) <= {0, 1, 2} and len(np.unique(S.xb2[idx])) >= 2
    hands, post = G.strategy_frames(gd, r)
    again = B.table_of_frames(gd, hands, post)
    assert all(np.array_equal(x, y) for x, y in zip(again, S, strict=True))
    game = build_game(G.small_abstraction(gd))
    hs = G.abstract_human(game, best_response_policy(game, G.game_policy(game, ta), 0), gd)
    h_hands, h_post = B.human_frames(gd, hs)
    assert len(h_post) == 6 * 5 * 15 * gd.n_buckets
    back = B.table_of_frames(gd, h_hands, h_post, r.hand_value)
    want = B.abstract_table(gd, hs, r.hand_value)
    assert all(np.array_equal(x, y) for x, y in zip(back, want, strict=True))
    with pytest.raises(B.InputError, match="dealt hands"):
        B.table_of_frames(gd, hands.iloc[1:], post)
    with pytest.raises(B.InputError, match="strength"):
        B.table_of_frames(gd, hands, post.assign(strength=post["strength"] + 1))
    with pytest.raises(B.InputError, match="categorical"):
        B.table_of_frames(gd, hands.assign(xb2=1), post)


def test_bad_inputs(small):
    gd, ta, M = small
    with pytest.raises(B.InputError):
        B.stream_key(-1, 0)
    with pytest.raises(B.InputError):
        B.run_sums(M, B.empty_table(gd.values.size), 1, 0)
    mixed = G.random_strategy(gd, 1)
    with pytest.raises(B.InputError, match="pure"):
        B.strategy_table(gd, mixed)
    with pytest.raises(ValueError, match="multiple"):
        B.play_sums(M, B.empty_table(gd.values.size), 0, 0, 5, 10)


def test_ctrl_c_stops_between_chunks(small):
    from poker51 import interrupt

    gd, ta, M = small
    with pytest.raises(KeyboardInterrupt), interrupt.interruptible():
        interrupt._requested.set()  # as the SIGINT handler does
        B.run_sums(M, B.empty_table(gd.values.size), 10 * K.BLOCK, 0, mode=K.IND)


def test_scores_columns_take_the_strategy_with_the_highest_lower_end():
    import pandas as pd

    from poker51.stages.realcard_bounds import add_bounds_columns, best_bounds

    bounds = pd.DataFrame(
        {
            "variant": ["standard"] * 3 + ["wild"],
            "p": [0.5, 0.5, 0.0, 0.5],
            "strategy": ["gind", "abstract", "gind", "lbr"],
            "cv_mean": [0.12, 0.15, 0.30, -0.1],
            "cv_ci_low": [0.11, 0.09, 0.29, -0.2],
        }
    )
    best = best_bounds(bounds)
    assert best[["variant", "p", "v_real_lower", "v_real_lower_ci", "v_real_lower_strategy"]].values.tolist() == [
        ["standard", 0.0, 0.30, 0.29, "gind"],
        ["standard", 0.5, 0.12, 0.11, "gind"],  # the higher lower end, not the higher mean
        ["wild", 0.5, -0.1, -0.2, "lbr"],
    ]
    scores = pd.DataFrame({"variant": ["standard", "standard", "wild", "wild"], "p": [0.5, 1.0, 0.5, np.nan]})
    out = add_bounds_columns(scores, bounds)
    assert out["v_real_lower"].tolist()[0] == 0.12 and out["v_real_lower_ci"].tolist()[2] == -0.2
    assert np.isnan(out["v_real_lower"].iloc[1]) and np.isnan(out["v_real_lower"].iloc[3])
