"""Strategy tables: the one shape, exact schema, rows, sorting, round trips, determinism, receipts.

The helpers :func:`solved_standard` and :func:`exported_standard` (cached per process) are
shared with ``test_riemann.py`` and ``test_verify.py``: the standard abstraction solved by
20 CFR+ iterations, its table, and the files the export stage writes.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from helpers import exported_standard, solved_standard

from poker51.abstraction.tables import AbstractionArrays
from poker51.export.compact import read_json_table
from poker51.export.receipt import receipt
from poker51.export.schema import (
    ACTION_COLUMNS,
    INDEX_COLUMNS,
    SPOT_ACTIONS,
    TABLE_COLUMNS,
    TABLE_SCHEMA,
    StrategyTableError,
    check_table,
    content_digest,
    read_table,
)
from poker51.export.tables import strategy_table, to_json, write_table
from poker51.games.abstract import build_game
from poker51.io import TableError, sha256_file
from poker51.solver.cfr import CFRPlusSolver


@pytest.fixture(scope="module")
def solved():
    return solved_standard()


@pytest.fixture(scope="module")
def exported():
    return exported_standard()


# --------------------------------------------------------------------------- a tiny game, for a pinned digest
def tiny_abstraction() -> AbstractionArrays:
    """3 classes, 4 buckets, exact rational transitions (no floats from any other module)."""
    C, B = 3, 4
    class_prob = np.array([0.5, 0.3, 0.2])
    h = np.zeros((C, 6, B))
    for c in range(C):
        for d in range(6):
            w = np.array([1 + (c + d + b) % 4 for b in range(B)], dtype=np.float64)
            h[c, d] = w / w.sum()
    r = np.array([[0.4, 0.3, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4], [0.0, 0.0, 0.5, 0.5]])
    return AbstractionArrays("standard", class_prob, h, r, np.array([3, 1, 0], dtype=np.int64))


def tiny_table() -> pd.DataFrame:
    ab = tiny_abstraction()
    game = build_game(ab)
    solver = CFRPlusSolver(game)
    solver.iterate(10)
    return strategy_table(game, solver.average_policy(), ab, "standard")


# --------------------------------------------------------------------------- tests
def test_schema_is_exact(solved, exported):
    t = pa.Table.from_pandas(solved.df, schema=TABLE_SCHEMA, preserve_index=False)
    assert t.schema.remove_metadata().equals(TABLE_SCHEMA)
    assert pq.read_schema(exported.parquet).remove_metadata().equals(TABLE_SCHEMA)
    assert tuple(solved.df.columns) == TABLE_COLUMNS == INDEX_COLUMNS + ACTION_COLUMNS
    assert [str(solved.df[c].dtype) for c in ("street", "h_bet", "h_draw", "r_draw", "class", "bucket")] == [
        "int8",
        "int8",
        "int8",
        "int8",
        "int16",
        "int8",
    ]


def test_rows_cover_every_riemann_information_set(solved):
    df, game = solved.df, solved.game
    n_r = sum(1 for p, _ in game.iset_keys if p == 1)
    assert (
        len(df) == n_r == 5 * 10 * 19 + 5 * 5 * 15 * 10 * 40
    )  # pre: d4 x lines x classes; post: d4 x k x pre x post x buckets
    counts = df.groupby(["street", "spot"], observed=True).size().to_dict()
    assert counts == {
        (0, "bet"): 380,
        (0, "checked"): 95,
        (0, "raised"): 95,
        (0, "reraised"): 380,
        (1, "bet"): 60000,
        (1, "checked"): 15000,
        (1, "raised"): 15000,
        (1, "reraised"): 60000,
    }


def test_rows_sum_to_one_and_only_offered_actions(solved):
    P = solved.df[list(ACTION_COLUMNS)].to_numpy()
    assert np.abs(P.sum(axis=1) - 1).max() <= 1e-12
    assert (P >= 0).all()
    for spot, names in SPOT_ACTIONS.items():
        rows = solved.df[solved.df["spot"] == spot]
        others = [a for a in ACTION_COLUMNS if a not in names]
        assert (rows[others].to_numpy() == 0).all()


def test_rows_are_sorted_and_unique(solved):
    key = solved.df[list(INDEX_COLUMNS)]
    assert not key.duplicated().any()
    assert key.equals(key.sort_values(list(INDEX_COLUMNS), kind="stable").reset_index(drop=True))
    pre = solved.df[solved.df["street"] == 0]
    assert (pre["r_draw"] == -1).all() and (pre["bucket"] == -1).all() and (pre["post_line"] == "").all()
    post = solved.df[solved.df["street"] == 1]
    assert (post["class"] == -1).all() and post["bucket"].between(0, 39).all()


def test_a_row_is_its_information_set(solved):
    game, policy, df = solved.game, solved.policy, solved.df
    a = game.arrays
    for i, (p, key) in enumerate(game.iset_keys):  # noqa: B007 - i is the found set
        if p == 1 and key[1] == 1 and key[4] == "b4-r-c" and key[5] == "b2" and key[6] == 17:
            break
    _, street, d4, k, pre, post, b = key
    row = df[
        (df.street == 1)
        & (df.h_draw == d4)
        & (df.r_draw == k)
        & (df.pre_line == pre)
        & (df.post_line == post)
        & (df.bucket == b)
    ]
    assert len(row) == 1 and row["spot"].iloc[0] == "bet" and row["h_bet"].iloc[0] == 2
    np.testing.assert_array_equal(row[["fold", "call", "raise"]].to_numpy()[0], policy[a.act_off[i] : a.act_off[i + 1]])


def test_parquet_round_trips_through_pandas_and_pyarrow(solved, exported):
    pd.testing.assert_frame_equal(pd.read_parquet(exported.parquet), solved.df)
    pd.testing.assert_frame_equal(pq.read_table(exported.parquet).to_pandas(), solved.df)
    df, meta = read_table(exported.parquet)
    pd.testing.assert_frame_equal(df, solved.df)
    assert meta["variant"] == "standard" and meta["provenance"]["p"] == 0.5
    assert meta["content_sha256"] == content_digest(solved.df) and meta["rows"] == len(solved.df)
    assert set(meta["packages"]) == {"python", "numpy", "numba", "pandas", "pyarrow", "poker51"}


def test_writes_are_byte_identical(solved, exported, tmp_path):
    prov = read_table(exported.parquet)[1]["provenance"]
    write_table(solved.df, tmp_path / "a.parquet", prov)
    to_json(solved.df, tmp_path / "a.json", prov)
    assert (tmp_path / "a.parquet").read_bytes() == exported.parquet.read_bytes()
    assert (tmp_path / "a.json").read_bytes() == exported.json.read_bytes()
    assert exported.json.stat().st_size < exported.parquet.stat().st_size * 6


def test_json_has_the_same_content_rounded(solved, exported):
    df, head = read_json_table(exported.json)
    pd.testing.assert_frame_equal(df.drop(columns=list(ACTION_COLUMNS)), solved.df.drop(columns=list(ACTION_COLUMNS)))
    P, Q = solved.df[list(ACTION_COLUMNS)].to_numpy(), df[list(ACTION_COLUMNS)].to_numpy()
    assert 0 < np.abs(P - Q).max() <= 0.5e-11 * (1 + 1e-5)  # rounded to 11 decimals, nothing more
    for p, q in zip(P.ravel()[::997].tolist(), Q.ravel()[::997].tolist()):  # the decimal rounding, printed short
        assert q == float(f"{p:.11f}") and (q == 0 or "e" in repr(q) or len(repr(q).split(".")[1]) <= 11)
    assert head["columns"] == list(TABLE_COLUMNS) and head["rows"] == len(solved.df) == len(df)
    assert head["content_sha256"] == content_digest(solved.df) and head["rounded_sha256"] == content_digest(df)
    assert head["decimals"] == 11 and head["variant"] == "standard"
    text = exported.json.read_text()
    assert text.count("\n") == len(TABLE_COLUMNS) + 2  # the header, one line per column, the close
    first = json.loads(text)["data"]
    assert first["pre_line"][:2] == solved.df["pre_line"].iloc[:2].tolist() and len(first["fold"]) == len(df)


def test_tiny_table_digest_is_pinned():
    """CFR+ is deterministic, so a small solved table has a fixed digest."""
    a, b = tiny_table(), tiny_table()
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == 5 * 10 * 3 + 5 * 3 * 15 * 10 * 4
    # issue 12's fused per-set update sums in another order: the table moved by at most 2.2e-16
    assert content_digest(a) == "5521edaf38cac6a25afaeea877bbb271792a7d12681e4a025d6e5eca61451b11"


def _tiny_policy_with(change):
    ab = tiny_abstraction()
    game = build_game(ab)
    policy = np.concatenate([np.full(n, 1.0 / n) for n in np.diff(game.arrays.act_off)])
    change(game, policy)
    return game, policy, ab


def _first_riemann_set(game, street: int = 0) -> int:
    return next(i for i, (pl, key) in enumerate(game.iset_keys) if pl == 1 and key[1] == street)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda g, pol: pol.__setitem__(g.arrays.act_off[_first_riemann_set(g)], 0.9), "do not sum to 1"),
        (lambda g, pol: pol.__setitem__(slice(g.arrays.act_off[_first_riemann_set(g, 1)],
                                              g.arrays.act_off[_first_riemann_set(g, 1)] + 2), [1.5, -0.5]),
         "do not sum to 1"),
    ],
)  # fmt: skip
def test_strategy_table_refuses_a_row_that_is_no_distribution(change, message):
    game, policy, ab = _tiny_policy_with(change)
    with pytest.raises(ValueError, match=message):
        strategy_table(game, policy, ab, "standard")


def test_strategy_table_refuses_a_state_outside_the_abstraction_and_a_short_policy():
    game, policy, ab = _tiny_policy_with(lambda g, pol: None)
    fewer = AbstractionArrays("standard", ab.class_prob[:2] / ab.class_prob[:2].sum(), ab.h_trans[:2], ab.r_trans[:2],
                              ab.r_draw[:2])  # fmt: skip
    with pytest.raises(ValueError, match="outside the abstraction"):
        strategy_table(game, policy, fewer, "standard")
    with pytest.raises(ValueError, match="the game has"):
        strategy_table(game, policy[:-1], ab, "standard")
    with pytest.raises(ValueError, match="not 'wild'"):
        strategy_table(game, policy, ab, "wild")
    uniform = strategy_table(game, policy, ab, "standard")  # every row of the uniform policy is 1/n
    widths = uniform[list(ACTION_COLUMNS)].gt(0).sum(axis=1)
    assert np.allclose(uniform[list(ACTION_COLUMNS)].sum(axis=1), 1.0) and set(widths) == {2, 3}


def test_receipt_is_deterministic_and_hashes_every_file(exported):
    r1 = receipt([exported.parquet, exported.json], {"variants": ["standard"]}, {"belief": 51})
    r2 = receipt([exported.parquet, exported.json], {"variants": ["standard"]}, {"belief": 51})
    assert r1 == r2 == exported.rec
    assert r1["files"] == {
        exported.parquet.as_posix(): sha256_file(exported.parquet),
        exported.json.as_posix(): sha256_file(exported.json),
    }
    assert set(r1["packages"]) == {
        "python", "numpy", "numba", "scipy", "pandas", "pyarrow", "matplotlib", "snakemake", "poker51"
    }  # fmt: skip
    assert "not installed" not in r1["packages"].values()
    assert "time" not in json.dumps(r1)
    with pytest.raises(FileNotFoundError):
        receipt([exported.root / "missing.parquet"], {}, {})


def _bad(df: pd.DataFrame, mutate) -> pd.DataFrame:
    d = df.copy()
    mutate(d)
    return d


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.loc.__setitem__((0, "fold"), d.loc[0, "fold"] + 0.01), r"do not sum to 1 \(row 0 sums to 1\.0\d*\)"),
    (lambda d: d.loc.__setitem__((3, "fold"), -0.5), r"outside \[0, 1\]"),
    (lambda d: d.loc.__setitem__((0, "h_bet"), np.int8(4)), "does not match line"),
])  # fmt: skip
def test_check_table_refuses(solved, mutate, message):
    with pytest.raises(StrategyTableError, match=message):
        check_table(_bad(solved.df, mutate), "t.parquet")


def test_check_table_refuses_unsorted_and_duplicate_rows(solved):
    with pytest.raises(StrategyTableError, match="not sorted"):
        check_table(solved.df.iloc[::-1].reset_index(drop=True), "t")
    with pytest.raises(StrategyTableError, match="not unique"):
        check_table(pd.concat([solved.df.iloc[:2], solved.df.iloc[1:3]], ignore_index=True), "t")
    assert issubclass(StrategyTableError, TableError)
