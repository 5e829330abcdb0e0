"""poker51.load_results: typed frames of every table of a run.

The smoke tests read the results directory named by ``POKER51_RESULTS``; ``make smoke``
runs them on the smoke results right after the smoke DAG (without it they are skipped).
The error tests need no results."""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import poker51
from poker51.io import TableError, read_metadata
from poker51.provenance import JBITS
from poker51.realcard.lbr import LBR_UNIT
from poker51.rules import p_label

RESULTS = os.environ.get("POKER51_RESULTS")


@pytest.fixture(scope="module")
def results():
    if not RESULTS:
        pytest.skip("POKER51_RESULTS is not set: `make smoke` runs these on results/smoke")
    return poker51.load_results(RESULTS)


def _checks(solve: dict, iterations: int) -> list[int]:
    """Where a solve without a target checks: first, then each ceil(growth x) later, and the last."""
    at, t = [], int(solve["check_first"])
    while t < iterations:
        at.append(t)
        t = max(t + 1, math.ceil(t * float(solve["check_growth"])))
    return [*at, iterations]


def test_every_table_is_loaded_as_the_config_says(results):
    cfg = results.receipt["config"]
    variants, solve = cfg["abstraction"]["variants"], cfg["solve"]
    ps = sorted({0.0, float(solve["p"])} | {float(p) for p in solve["sweep"]})
    assert list(results.variants) == variants
    assert set(results.counts["deck"]) == set(cfg["census"]["decks"])
    assert len(results.scores) == len(variants) * (len(ps) + 1)  # every solve and v0.5
    for v, t in results.variants.items():
        assert t.variant == v and np.isclose(t.classes["probability"].sum(), 1.0, atol=1e-12)
        assert len(t.buckets) == cfg["abstraction"]["buckets"]
        mine = results.scores[results.scores["variant"] == v].reset_index(drop=True)
        # the gathered table adds the lbr_* columns and orders the rows its own way (the
        # published table after the Nash one): the same rows, compared in one order
        key = ["table", "p"]
        want = t.scores.sort_values(key, kind="stable").reset_index(drop=True)
        got = mine[list(t.scores.columns)].sort_values(key, kind="stable").reset_index(drop=True)
        assert want.equals(got)
        assert t.table_metadata["variant"] == v and len(t.table) > 0
        ev = t.evidence
        assert set(ev["hands"]) == {cfg["evidence"]["hands"]} and len(ev) == 3 * ev["type"].nunique()
        for p in ps:  # a convergence row at each check of the geometric schedule and at the last iteration
            its = solve["iterations"] if p in (0.0, float(solve["p"])) else solve["sweep_iterations"]
            rows = results.convergence[(results.convergence["variant"] == v) & (results.convergence["p"] == p)]
            assert list(rows["iteration"]) == _checks(solve, its)
    assert results.verify is not None and results.verify["pass"] is True
    assert isinstance(results.timing, pd.DataFrame) and len(results.timing) > 0


def test_the_real_card_studies_are_in_the_tables(results):
    """Issue 12: hold-out rows in the evidence, what LBR wins in the scores (rnr and v0.5 rows,
    the hands of the config), the belief claims next to the census claims."""
    cfg = results.receipt["config"]
    ev = results.evidence
    assert set(ev["population"]) == ({"in_sample", "holdout"} if cfg.get("holdout") else {"in_sample"})
    s = results.scores
    hit = s["table"].isin(["rnr", "v0.5"])
    if cfg["lbr"]["enabled"]:
        assert (s.loc[hit, "lbr_hands"] == cfg["lbr"]["hands"]).all() and (s.loc[~hit, "lbr_hands"] == 0).all()
        assert (s.loc[hit, "lbr_win_ci_low"] <= s.loc[hit, "lbr_win"]).all()
        assert (s.loc[hit, "lbr_win"] <= s.loc[hit, "lbr_win_ci_high"]).all()
        assert results.units("scores.parquet")["lbr_win"] == LBR_UNIT
    assert s.loc[~hit, "lbr_win"].isna().all()
    if cfg["belief_claims"]["enabled"] and {"standard", "wild"} <= set(cfg["abstraction"]["variants"]):
        claims = pd.read_parquet(Path(results.root) / "census" / "belief_claims.parquet")
        assert len(claims) == 5 and set(claims["verdict"]) <= {"holds", "differs", "not computed"}


def test_the_abstraction_size_study_has_a_row_per_bucket_count(results):
    """Issue 12, section 2: the study's table as the config says (or absent when it is off)."""
    study = results.receipt["config"].get("abstraction_study", {})
    if not study.get("enabled", True):
        assert results.abstraction_size is None
        return
    df = results.abstraction_size
    refined = df["class_set"] == "refined"
    assert df is not None and list(df.loc[~refined, "buckets"]) == sorted(study["buckets"])
    assert (
        list(df.loc[refined, "buckets"]) == sorted(study.get("refined", []))
        and not refined.iloc[: (~refined).sum()].any()
    )
    assert (df.loc[refined, "classes"] == 25).all() and (df.loc[~refined, "classes"] == 19).all()
    assert (df["private_states"] == df["classes"] + df["buckets"]).all() and set(df["variant"]) == {"standard"}
    assert (df["pop_hands"] == study["evidence_hands"]).all() and (df["lbr_hands"] == study["lbr_hands"]).all()
    ref = df[(df["buckets"] == df["reference_buckets"]) & ~refined]
    assert len(ref) == 1 and (ref[["pop_vs_ref", "holdout_vs_ref", "lbr_vs_ref"]] == 0).all(axis=None)
    assert (df["nash_iterations"] <= study["iterations"]).all() and (df["rnr_iterations"] <= study["iterations"]).all()
    assert results.units("study/abstraction_size.parquet")["value_low"] == JBITS
    assert results.units("study/abstraction_size.parquet")["lbr_win"] == LBR_UNIT
    assert "study/abstraction_size.parquet" in {Path(f).relative_to(results.root).as_posix()
                                                 for f in results.receipt["files"]}  # fmt: skip
    assert not any(f.endswith("abstraction_size_timing.tsv") for f in results.receipt["files"])


def test_every_parquet_carries_its_provenance_and_units(results):
    cfg = results.receipt["config"]
    root = Path(results.root)
    tables = sorted(root.rglob("*.parquet"))
    assert len(tables) > 20
    for path in tables:
        meta = read_metadata(path)
        meta = {**meta.get("provenance", {}), **meta}  # exported tables nest their provenance
        assert re.fullmatch(r"[0-9a-f]{64}", meta["config_sha256"]), path
        assert {"rule", "seeds", "units"} <= set(meta), path
    assert results.units("scores.parquet")["guarantee"] == JBITS
    assert results.units("evidence.parquet")["mean"] == JBITS
    assert results.units("convergence.parquet")["exploitability"] == JBITS
    # seeds follow the chain: the evidence depends on its own seed and on the belief table's
    seeds = results.metadata("evidence.parquet")["seeds"]
    assert seeds["evidence.seed"] == cfg["evidence"]["seed"]
    assert seeds["abstraction.belief_seed"] == cfg["abstraction"]["belief_seed"]
    assert results.metadata("census/counts.parquet")["seeds"] == {}  # the census is exact
    # the rule and its job
    v = next(iter(results.variants))
    solve = results.metadata(f"{v}/solve_{p_label(0.0)}/convergence.parquet")
    assert solve["rule"] == "solve" and solve["wildcards"] == {"variant": v, "plabel": p_label(0.0)}
    assert solve["config"]["p"] == 0.0 and "checkpoint" not in solve["config"]


def test_every_figure_carries_no_date_nor_software(results):
    """Every figure the run drew (PDF and PNG) is free of what would make two runs differ:
    no creation date, no software name (the receipt comparison of `make test` then shows the
    bytes equal across runs)."""
    figs = sorted(Path(RESULTS, "figures").iterdir())
    pdfs = [f for f in figs if f.suffix == ".pdf"]
    pngs = [f for f in figs if f.suffix == ".png"]
    assert len(pdfs) >= 10 and [f.stem for f in pdfs] == [f.stem for f in pngs]
    for pdf in pdfs:
        data = pdf.read_bytes()
        assert data.startswith(b"%PDF") and b"/CreationDate" not in data and b"matplotlib" not in data.lower(), pdf
    for png in pngs:
        data = png.read_bytes()
        assert data.startswith(b"\x89PNG") and b"Software" not in data, png


def test_a_missing_directory_or_table_is_named(tmp_path):
    with pytest.raises(TableError, match="no such results directory"):
        poker51.load_results(tmp_path / "nowhere")
    with pytest.raises(TableError, match="no variant results"):
        poker51.load_results(tmp_path)
    (tmp_path / "standard").mkdir()
    pd.DataFrame({"a": [1]}).to_parquet(tmp_path / "standard" / "classes.parquet")
    with pytest.raises(TableError, match=re.escape(str(tmp_path / "census" / "counts.parquet"))):
        poker51.load_results(tmp_path)
    (tmp_path / "census").mkdir()
    (tmp_path / "census" / "counts.parquet").write_bytes(b"PAR1 truncated")
    with pytest.raises(TableError, match="counts.parquet: not a readable Parquet table"):
        poker51.load_results(tmp_path)


def test_the_front_door_is_lazy():
    import subprocess
    import sys

    code = "import poker51, sys; assert 'poker51.results' not in sys.modules; poker51.load_results; print('ok')"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "ok\n"
