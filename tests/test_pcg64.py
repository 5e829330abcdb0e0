"""NumPy's SeedSequence + PCG64 reimplemented (plain and Numba): bit for bit against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

from poker51.pcg64 import PCG64Plain, pcg64_next64, pcg64_random, pcg64_state, seed_words

SEEDS = [0, 1, 51, 2**32 - 1, 2**32, 2**63 + 77, 2**64 - 1] + [
    int(x) for x in np.random.default_rng(7).integers(0, 2**63, 40, dtype=np.int64)
]


@pytest.mark.parametrize("seed", SEEDS)
def test_seed_words_are_numpys_generate_state(seed):
    assert seed_words(seed) == np.random.SeedSequence(seed).generate_state(4, np.uint64).tolist()


@pytest.mark.parametrize("seed", SEEDS)
def test_plain_and_kernel_streams_are_numpys(seed):
    ref = np.random.default_rng(seed)
    raw = np.random.Generator(np.random.PCG64(seed)).bit_generator.random_raw(50)
    doubles = ref.random(200)
    plain = PCG64Plain(seed)
    assert [plain.next64() for _ in range(50)] == raw.tolist()
    plain = PCG64Plain(seed)
    assert [plain.random() for _ in range(200)] == doubles.tolist()
    st = np.zeros(4, np.uint64)
    pcg64_state(np.uint64(seed), st)
    assert [int(pcg64_next64(st)) for _ in range(50)] == raw.tolist()
    pcg64_state(np.uint64(seed), st)
    assert [pcg64_random(st) for _ in range(200)] == doubles.tolist()


def test_negative_entropy_is_refused():
    with pytest.raises(ValueError):
        seed_words(-1)
