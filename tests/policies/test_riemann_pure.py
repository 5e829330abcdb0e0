"""Riemann's numba-free path decides exactly as the pipeline's kernels say it should.

For each variant, a seeded random table over every spot (exact zeros and ones included) is
played by :class:`Riemann` (plain Python: ``hands.pure``, ``abstraction.keys``, ``fnv``) and
recomputed from the kernels' class keys and strengths (``abstraction.classes.hand_table``), the
bucket table, the plain FNV-1a of :func:`hash_bytes` and :func:`choose_action`: 100,000 seeded
(hand, spot) decisions per variant in ``make test``, every dealt hand in ``make slow``.
Importing Riemann or the engine loads neither Numba nor SciPy.
"""

from __future__ import annotations

import subprocess
import sys
from functools import lru_cache

import numpy as np
import pandas as pd
import pytest
from helpers import hand_sample

from poker51.abstraction.buckets import bucket_of_strength, exact_buckets
from poker51.abstraction.classes import class_frame, class_key_array, class_keys, hand_table
from poker51.export.schema import (
    ACTION_COLUMNS,
    SPOT_ACTIONS,
    TABLE_COLUMNS,
    completed_pre_lines,
    decision_lines,
    spot_of_line,
)
from poker51.export.schema import frame as table_frame
from poker51.fnv import fnv1a_64
from poker51.policies.riemann import PublicState, Riemann, choose_action, hash_bytes, play_converted


def random_table(variant: str, seed: int) -> pd.DataFrame:
    """A complete table of the variant with seeded random rows (a fifth of them pure actions)."""
    rng = np.random.default_rng(seed)
    n_classes, n_buckets = len(class_keys(variant)), len(exact_buckets(variant))
    r_draws = sorted({int(k) % 10 for k in class_keys(variant)})
    spots = [(0, d, -1, line, "") for d in range(5) for line in decision_lines()]
    spots += [
        (1, d, k, pre, post)
        for d in range(5)
        for k in r_draws
        for pre in completed_pre_lines()
        for post in decision_lines()
    ]
    cols: dict[str, list] = {c: [] for c in TABLE_COLUMNS}
    for street, d, k, pre, post in spots:
        spot, h_bet = spot_of_line(pre if street == 0 else post)
        names = SPOT_ACTIONS[spot]
        for state in range(n_classes if street == 0 else n_buckets):
            p = rng.dirichlet(np.ones(len(names)))
            if rng.random() < 0.2:
                p = np.eye(len(names))[rng.integers(len(names))]
            probs = dict.fromkeys(ACTION_COLUMNS, 0.0) | dict(zip(names, p.tolist()))
            row = {"street": street, "spot": spot, "h_bet": h_bet, "h_draw": d, "r_draw": k, "pre_line": pre}
            row |= {"post_line": post, "class": state if street == 0 else -1, "bucket": state if street else -1}
            for c in TABLE_COLUMNS:
                cols[c].append(probs[c] if c in probs else row[c])
    return table_frame(cols)


@lru_cache(maxsize=3)
def player(variant: str) -> tuple[Riemann, dict]:
    df = random_table(variant, 9)
    r = Riemann(df, variant, class_frame(variant), exact_buckets(variant))
    keys = zip(*(df[c].astype(str) if c == "spot" else df[c] for c in TABLE_COLUMNS[:9]))
    rows = dict(zip((tuple(k) for k in keys), df[list(ACTION_COLUMNS)].itertuples(index=False, name=None)))
    return r, rows


def _check(variant: str, rows_idx: np.ndarray, seed: int) -> int:
    r, table = player(variant)
    ht = hand_table(variant)
    keys = class_key_array(ht.base[rows_idx], ht.marker[rows_idx], ht.house_draw[rows_idx])
    classes = np.searchsorted(class_keys(variant), keys)
    buckets = bucket_of_strength(ht.strengths[rows_idx], exact_buckets(variant))
    rng = np.random.default_rng(seed)
    n = 0
    for hand, c, b in zip(ht.hands[rows_idx].tolist(), classes.tolist(), buckets.tolist()):
        street = int(rng.integers(2))
        line = decision_lines()[rng.integers(10)]
        d, can = int(rng.integers(6)), bool(rng.random() < 0.8)
        if street == 0:
            s = PublicState(0, d, -1, line, "", can)
        else:
            s = PublicState(
                1, d, r.r_draws[rng.integers(len(r.r_draws))], completed_pre_lines()[rng.integers(15)], line, can
            )
        spot, h_bet = spot_of_line(line)
        key = (
            street,
            spot,
            h_bet,
            min(d, 4),
            s.r_draw,
            s.pre_line,
            s.post_line,
            c if street == 0 else -1,
            -1 if street == 0 else b,
        )
        probs = table[key]
        want = play_converted(choose_action(probs, fnv1a_64(hash_bytes(hand, s)) / 2**64), can)
        shuffled = [hand[i] for i in rng.permutation(5)]
        assert r.decide(shuffled, s) == (want, probs, key), (hand, s)
        n += 1
    return n


@pytest.mark.parametrize("variant", ["standard", "wild", "bug"])
def test_decisions_equal_the_kernel_recipe_on_a_seeded_sample(variant):
    assert _check(variant, hand_sample(20_000, 5_000, 7, variant), 11) >= 20_000


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["standard", "wild", "bug"])
def test_decisions_equal_the_kernel_recipe_on_every_dealt_hand(variant):
    assert _check(variant, hand_sample(None, 0, 0, variant), 12) == {"standard": 2_349_060}.get(variant, 2_598_960)


def test_importing_riemann_and_the_engine_loads_neither_numba_nor_scipy():
    code = (
        "import sys, poker51.policies.riemann, poker51.play.engine, poker51.play.players, poker51.export.schema\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'numba', 'llvmlite', 'scipy', 'matplotlib', "
        "'snakemake', 'tqdm', 'yaml', 'jsonschema'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
