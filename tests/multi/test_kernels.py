"""Every Numba kernel of the tables against its plain twin, and the simulation kernel against the
reference engine: identical hands on seeded decks."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from poker51.abstraction.belief import read_score
from poker51.cards import all_hands
from poker51.fnv import fnv1a_64
from poker51.games.population import load_population
from poker51.hands.evaluate import strength, strengths
from poker51.multi.belief import house_masks, house_masks_plain, standard_belief
from poker51.multi.commit import DECK_CARDS
from poker51.multi.hand import settle
from poker51.multi.kdeal import shuffle_kernel
from poker51.multi.kpots import settle_kernel
from poker51.multi.krng import (
    decision_uniform_k,
    entropy_words,
    fnv1a_k,
    hand_seed_words,
    pcg64_randoms,
    seedseq_state,
)
from poker51.multi.ktable import N_HANDS, hand_index, new_memo
from poker51.multi.population import StrengthTables
from poker51.multi.rng import decision_uniform, hand_key
from poker51.multi.simulate import Tables, TableSpec, simulate_kernel, simulate_plain
from poker51.policies.kernels import RankTables, pairwise_mean, ranks_of, v05_post_read, v05_pre_read_random
from poker51.policies.v05 import post_draw_read, pre_draw_read
from poker51.table.deal import new_seed, shuffle

DECK = np.array(DECK_CARDS, np.int64)


@lru_cache(maxsize=1)
def rank_tables() -> RankTables:
    return RankTables.build()


@lru_cache(maxsize=1)
def tables() -> Tables:
    return Tables.build(standard_belief(), StrengthTables.build(5, n_finals=4000, n_pre=20_000))


@pytest.mark.parametrize("entropy", [0, 1, 7, 2**32 - 1, 2**32, 2**40 + 3, 2**64 - 1, [3, 5], [2**33, 1, 2, 0]])
def test_seedsequence_and_pcg64_match_numpy(entropy):
    values = entropy if isinstance(entropy, list) else [entropy]
    words = entropy_words(*values)
    out = np.empty(8, np.uint64)
    seedseq_state(words, 8, out)
    assert out.tolist() == np.random.SeedSequence(entropy).generate_state(8).tolist()
    got = np.empty(300)
    pcg64_randoms(words, 300, got)
    assert np.array_equal(got, np.random.default_rng(np.random.SeedSequence(entropy)).random(300))


def test_hand_seeds_decisions_and_fnv_match_their_plain_twins():
    base = entropy_words(123456789012345, 4)
    out = np.empty(8, np.uint64)
    for hand in (1, 2, 77):
        for which in (0, 1, 2):
            hand_seed_words(base, hand, which, out)
            assert out.astype("<u4").tobytes() == new_seed("seedsequence", 123456789012345, key=(4, hand, which))
        hand_seed_words(base, hand, 2, out)
        key = int(out[0]) | (int(out[1]) << 32)
        assert key == hand_key(123456789012345, (4,), hand)
        for seat in range(5):
            for k in range(4):
                assert decision_uniform_k(np.uint64(key), seat, k) == decision_uniform(key, seat, k)
    for data in (b"", b"a", bytes(range(40))):
        assert int(fnv1a_k(np.frombuffer(data[:3], np.uint8), np.frombuffer(data[3:], np.uint8))) == fnv1a_64(data)


def test_shuffle_kernel_is_the_committed_deal_bit_for_bit():
    deck = np.empty(51, np.int64)
    for k in range(60):
        seed = new_seed("seedsequence", 99, key=(k,))
        words = np.frombuffer(seed, "<u4").astype(np.uint64)
        shuffle_kernel(words, DECK, deck)
        assert deck.tolist() == shuffle(seed, DECK_CARDS)
    small = np.arange(7, dtype=np.int64)
    shuffle_kernel(words, small, deck[:7])
    assert deck[:7].tolist() == shuffle(seed, range(7))


def test_rank_evaluator_orders_every_hand_of_52_cards_as_the_evaluator():
    hands = all_hands(range(52))
    t = rank_tables()
    r = ranks_of(hands, t)
    assert t.strength.size == 7462
    assert np.array_equal(t.strength[r], strengths(hands))


def test_pre_and_post_draw_reads_match_v05_bit_for_bit():
    belief = standard_belief()
    t = rank_tables()
    lr = np.stack([t.counts(belief[d]) for d in range(6)])
    rng = np.random.default_rng(8)
    scratch, buf, finals = np.empty(128), np.empty(128 * 46, np.uint64), np.empty((128, 5), np.int64)
    hands = [np.sort(rng.choice(DECK, 5, replace=False)) for _ in range(400)]
    hands += [np.array(h, np.int64) for h in ([40, 41, 42, 43, 44], [4, 9, 14, 19, 26], [48, 49, 50, 8, 12])]
    for h in hands:
        h = np.sort(h)
        got = v05_pre_read_random(h, DECK, lr[5], 1000, t.lut, scratch, buf, finals)
        assert got == pre_draw_read(h.tolist(), 5, belief, "standard")
        rank = int(np.searchsorted(t.strength, strength(h)))
        for d in range(6):
            assert v05_post_read(rank, lr, d, 1000) == post_draw_read(h.tolist(), d, belief, "standard")
    s = np.array([strength(h) for h in hands[:50]])
    assert np.allclose([v05_post_read(int(np.searchsorted(t.strength, x)), lr, 2, 1000) for x in s],
                       read_score(s, belief, 2), atol=1e-15)  # fmt: skip


def test_pairwise_mean_is_numpys():
    rng = np.random.default_rng(2)
    for _ in range(500):
        a = rng.random(128) * rng.choice([1e-3, 1.0, 1e4])
        assert pairwise_mean(a) == np.mean(a)
    for n in range(1, 129):  # every length up to 128: eight sums, then the rest in order
        a = rng.random(n) * rng.choice([1e-3, 1.0, 1e4])
        assert pairwise_mean(a) == np.mean(a), n


def test_hand_index_numbers_every_hand_of_51_cards_once():
    hands = all_hands(range(1, 52)).astype(np.int64)
    idx = hand_indices(hands)
    assert idx.size == N_HANDS == 2_349_060 and np.array_equal(np.sort(idx), np.arange(N_HANDS))


@njit
def hand_indices(hands):
    out = np.empty(hands.shape[0], np.int64)
    for i in range(hands.shape[0]):
        out[i] = hand_index(hands[i])
    return out


def test_house_masks_kernel_and_its_twin():
    hands = all_hands(range(1, 52))[::997]
    assert np.array_equal(house_masks(hands), house_masks_plain(hands))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 3000), min_size=2, max_size=5), st.data())
def test_settle_kernel_is_the_pot_law(contrib, data):
    n = len(contrib)
    seats = sorted(data.draw(st.lists(st.integers(0, 4), min_size=n, max_size=n, unique=True)))
    button = data.draw(st.integers(0, 4))
    order = sorted(seats, key=lambda s: (s - button - 1) % 5)
    committed = dict(zip(seats, contrib))
    live = set(data.draw(st.lists(st.sampled_from(seats), min_size=1, unique=True)))
    showdown = len(live) > 1 and data.draw(st.booleans())
    if not showdown:
        live = {min(live)}
    ranks = {s: data.draw(st.integers(0, 3)) for s in seats}
    ref = settle(order, committed, live, ranks if showdown else {}, button)
    o = np.array(order + [0] * (5 - n), np.int64)
    c = np.zeros(5, np.int64)
    lv = np.zeros(5, np.bool_)
    rk = np.zeros(5, np.int64)
    for s in seats:
        c[s], lv[s], rk[s] = committed[s], s in live, ranks[s]
    tf, tt, ta = np.empty(160, np.int64), np.empty(160, np.int64), np.empty(160, np.int64)
    pots = np.empty((5, 3), np.int64)
    k, npots = settle_kernel(o, n, c, lv, rk, showdown, button, tf, tt, ta, pots)
    assert list(zip(tf[:k].tolist(), tt[:k].tolist(), ta[:k].tolist())) == list(ref.transfers)
    assert npots == len(ref.pots)
    for p, row in zip(ref.pots, pots[:npots].tolist()):
        assert row[0] == p.amount
        assert row[1] == sum(1 << s for s in p.eligible) and row[2] == sum(1 << s for s in p.winners)


@pytest.mark.parametrize(
    "mix, riemanns, seed", [((0, 1, 2, 3), 1, 11), ((2,), 1, 5), ((3, 2), 2, 8), ((1, 0, 3), 0, 3)]
)
def test_simulation_kernel_plays_the_reference_engines_hands(mix, riemanns, seed):
    pop = load_population("config/population.yaml")
    spec = TableSpec(tuple(pop.types[i] for i in mix), riemanns)
    n = 120
    memo = new_memo()
    a = simulate_kernel(spec, tables(), seed, 2, n, memo)
    b = simulate_plain(spec, tables(), seed, 2, n)
    again = simulate_kernel(spec, tables(), seed, 2, n, memo)  # every read now from the memo
    for name in ("hands", "seats", "actions", "stats"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
        assert np.array_equal(getattr(a, name), getattr(again, name)), name
    assert ((memo >= 0).sum() > 0) == (riemanns > 0)  # Riemann's reads were kept
    assert a.audit[1] == 0 and b.audit[1] == 0 and a.audit[0] > n
    assert a.seats[:, :, 0].sum(axis=1).min() >= 2  # every hand had at least two players
    assert (a.actions[:, :, 2] == 3).any() and (a.actions[:, :, 2] == 4).any()  # raises and folds happened


def test_sha256_compress_is_fips_180_4():
    import hashlib

    from poker51.multi.kdeal import H256, sha256_compress

    msg = b"abc"  # one padded block: message, 0x80, zeros, the bit length
    block = bytearray(64)
    block[:3] = msg
    block[3] = 0x80
    block[-8:] = (8 * len(msg)).to_bytes(8, "big")
    state = H256.copy()
    sha256_compress(state, np.frombuffer(bytes(block), ">u4").astype(np.uint32), np.empty(64, np.uint32))
    assert state.astype(">u4").tobytes() == hashlib.sha256(msg).digest()


def test_parallel_driver_plays_each_table_as_the_single_table_kernel():
    from poker51.multi.commit import DECK_CARDS as CARDS
    from poker51.multi.ktable import run_tables
    from poker51.multi.simulate import BANK, type_table

    pop = load_population("config/population.yaml")
    specs = [TableSpec(tuple(pop.types), 1), TableSpec(pop.types[1:3], 2)]
    t = tables()
    r, st = t.ranks, t.strengths
    lr = np.stack([r.counts(t.belief[d]) for d in range(6)])
    n, hands = len(specs), 80
    kinds = np.stack([s.kinds() for s in specs])
    adders = np.stack([s.adders() for s in specs])
    ptypes = np.zeros((n, 5), np.int64)
    for i, s in enumerate(specs):
        ptypes[i, : len(s.types)] = [pop.types.index(x) for x in s.types]
    words = np.zeros((n, 4), np.uint64)
    nwords = np.zeros(n, np.int64)
    for i in range(n):
        w = entropy_words(9, i)
        words[i, : w.size], nwords[i] = w, w.size
    stats, audit = np.zeros((n, 5, 4), np.int64), np.zeros((n, 2), np.int64)
    tail = (r.lut, lr, t.belief.shape[1], r.counts(st.finals), st.finals.size, st.pre, new_memo(), stats, audit)
    run_tables(hands, kinds, ptypes, adders, 1600, BANK, words, nwords, type_table(pop.types), np.array(CARDS), *tail)
    for i, s in enumerate(specs):
        types = tuple(pop.types[j] for j in ptypes[i, : len(s.types)])
        one = simulate_kernel(TableSpec(types, s.riemanns), t, 9, i, hands)
        assert np.array_equal(stats[i], one.stats) and np.array_equal(audit[i], one.audit)
