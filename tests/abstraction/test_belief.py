"""Belief table v0.2: bit-for-bit regeneration from seed 51, and the v0.5 read."""

from __future__ import annotations

import numpy as np
import pytest

import poker51.abstraction.classes as ab
from poker51.abstraction.belief import belief_digest, build_belief, quantile_positions, read_score
from poker51.hands.evaluate import STRAIGHT

BELIEF_DIGESTS = {
    "standard": "b11b5c0c0ee133a5df5b59520fe9467bd0df140dd46c743b10e6974fd7ad92ca",
    "wild": "2a69954473d7bfd43b83417c256a3bc098d7ff99a593fe636659adc6ed1d507e",
    "bug": "663c05b51fd3d15b3d9fbcc165c71c94cac59e8341cbfed6a32d09d8626847f8",
}


def belief(variant: str, seed: int = 51, samples: int = 20_000) -> np.ndarray:
    ht = ab.hand_table(variant)
    return build_belief(ht.hands, ht.masks, ht.house_draw, ht.deck, ht.rule, seed=seed, samples=samples)


@pytest.mark.parametrize("variant", ["standard", "wild", "bug"])
def test_belief_regenerates_bit_for_bit(variant):
    table = belief(variant)
    assert table.shape == (6, 1000) and table.dtype == np.int32
    assert belief_digest(table) == BELIEF_DIGESTS[variant]
    assert np.all(np.diff(table, axis=1) >= 0)
    if variant != "bug":  # bug: I + two natural pairs stands pat on two pair
        assert table[0].min() >= (STRAIGHT << 20)
    assert np.array_equal(table, belief(variant))
    if variant == "standard":
        assert not np.array_equal(table, belief(variant, seed=52))


def test_quantile_positions():
    assert quantile_positions(1000).tolist() == list(range(1000))
    pos = quantile_positions(20_000)
    assert pos[0] == 9 and pos[-1] == 19_989 and np.all(np.diff(pos) == 20)


def test_read_score():
    table = belief("standard")
    rng = np.random.default_rng(np.random.SeedSequence(5107))
    own = rng.integers(0, 10 << 20, 500)
    draw = rng.integers(0, 6, 500)
    r = read_score(own, table, draw)
    assert r.shape == (500,) and np.all((r >= 0) & (r <= 1))

    def plain(s, d):
        def score(row):
            return (sum(q < s for q in row) + 0.5 * sum(q == s for q in row)) / len(row)

        return 0.6 * score(table[d].tolist()) + 0.4 * score(table[5].tolist())

    for s, d, got in list(zip(own.tolist(), draw.tolist(), r.tolist()))[:40]:
        assert got == pytest.approx(plain(s, d), abs=1e-12)
    tie = int(table[2, 500])
    assert read_score(tie, table, 2) == pytest.approx(plain(tie, 2), abs=1e-12)
    assert read_score(0, table, 0) == 0.0 and read_score(1 << 30, table, 4) == 1.0
    grid = np.sort(rng.integers(0, 10 << 20, 200))
    assert np.all(np.diff(read_score(grid, table, 3)) >= 0)
    with pytest.raises(ValueError):
        read_score(100, table, 6)
