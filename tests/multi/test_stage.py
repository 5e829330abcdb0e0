"""The multi stage on a tiny configuration: its outputs, their invariants, byte-identical reruns."""

from __future__ import annotations

import json

import numpy as np
import pyarrow.parquet as pq
import pytest

from poker51.errors import InputError
from poker51.figures import fig_multi
from poker51.io import read_parquet
from poker51.multi.stage import run_multi

PARAMS = dict(
    seats=[2, 3], riemanns=[1, 2], opponents=["rock", "mixed"], tables=3, hands=60, buyin=16, seed=7,
    belief_seed=51, belief_samples=20000, strength_samples=1000, pre_samples=5000, progress=False,
)  # fmt: skip


def run(tmp_path, name: str, threads: int):
    d = tmp_path / name
    df = run_multi("config/population.yaml", d / "sim.parquet", d / "audit.json", threads=threads, **PARAMS)
    fig_multi(df, d / "multi")
    return d, df


def test_stage_outputs_invariants_and_reruns(tmp_path):
    a, df = run(tmp_path, "a", threads=2)
    b, _ = run(tmp_path, "b", threads=1)
    for f in ("sim.parquet", "audit.json", "multi.pdf", "multi.png"):
        assert (a / f).read_bytes() == (b / f).read_bytes(), f  # whatever the number of threads
    back = read_parquet(a / "sim.parquet")
    assert len(back) == pq.read_table(a / "sim.parquet").num_rows == len(df)
    # (2 seats, 1 Riemann), (3, 1), (3, 2): rock rows and one row per type present at mixed tables
    assert sorted(set(zip(back["seats"], back["riemanns"]))) == [(2, 1), (3, 1), (3, 2)]
    rock = back[back["opponents"] == "rock"]
    assert (rock["type"] == "rock").all() and (rock["tables"] == 3).all()
    assert np.all(rock["net_people"] == 0.0)  # a table of one type: zero-sum among people, exactly
    mixed = back[(back["opponents"] == "mixed") & (back["seats"] == 3) & (back["riemanns"] == 1)]
    assert sorted(mixed["type"]) == ["calling_station", "maniac", "regular", "rock"]
    for m in ("net_people", "abit_score", "riemann_abits"):
        assert np.all(back[f"{m}_lo"] <= back[m] + 1e-12) and np.all(back[m] <= back[f"{m}_hi"] + 1e-12)
    audit = json.loads((a / "audit.json").read_text())
    assert audit["conserved"] and audit["failures"] == 0 and audit["twin"]["identical"]
    assert audit["hands"] == 3 * 2 * 3 * 60 and audit["steps"] > audit["hands"]
    assert (a / "multi.pdf").read_bytes()[:4] == b"%PDF" and (a / "multi.png").read_bytes()[:4] == b"\x89PNG"


def test_stage_refuses_an_unknown_type(tmp_path):
    params = {**PARAMS, "opponents": ["shark"]}
    with pytest.raises(InputError, match="'shark' is not a type"):
        run_multi("config/population.yaml", tmp_path / "s.parquet", tmp_path / "a.json", **params)
