"""The rule card's belief-table claims: spots recomputed from their cards, verdict rules."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from poker51.cards import parse_cards
from poker51.games.population import load_population
from poker51.policies.v05 import post_draw_read
from poker51.realcard import belief_claims as bc
from poker51.realcard.evidence import built_tables

ROOT = Path(__file__).resolve().parents[2]


# Wild's abstraction costs about 20 s to build: the tests on Wild's spots run in `make slow`;
# the always-run test below plays the standard variant against a shifted copy of its table.
@pytest.fixture(scope="module")
def spots():
    standard = built_tables("standard").belief_array()
    wild = built_tables("wild")
    pop = load_population(ROOT / "config" / "population.yaml")
    return wild, standard, bc.belief_spots("wild", wild, standard, pop, 150, 51)


@pytest.mark.slow
def test_spots_are_after_draw_decisions_read_with_both_tables(spots):
    wild, standard, df = spots
    assert list(df.columns) == bc.SPOT_COLUMNS and len(df) == 150 and df["spot"].tolist() == list(range(150))
    assert df["hand"].is_monotonic_increasing and set(df["type"]) <= {"calling_station", "rock", "maniac", "regular"}
    assert set(df["line"]) <= {"x", "b1", "b2", "b4", "b8", "x-b2-r", "b1-r-r", "b2-r-r", "b4-r-r", "b8-r-r"}
    for row in df.itertuples(index=False):
        cards = parse_cards(row.cards)
        assert row.read_own == post_draw_read(cards, row.h_draw, wild.belief_array(), "wild")
        assert row.read_standard == post_draw_read(cards, row.h_draw, standard, "wild")
    # with Wild's own table a Wild hand reads lower: the standard table overstates it
    assert (df["read_standard"] - df["read_own"]).mean() > 0


@pytest.mark.slow
def test_spots_are_seeded(spots):
    wild, standard, df = spots
    again = bc.belief_spots("wild", wild, standard, load_population(ROOT / "config" / "population.yaml"), 150, 51)
    pd.testing.assert_frame_equal(df, again)
    with pytest.raises(ValueError):
        bc.belief_spots("wild", wild, standard, load_population(ROOT / "config" / "population.yaml"), 0, 51)


def test_spots_read_with_a_shifted_table_and_are_seeded():
    tables = built_tables("standard")
    belief = tables.belief_array()  # (draw, quantile) -> strength, non-decreasing in the quantile
    shifted = belief[:, np.minimum(np.arange(belief.shape[1]) + 50, belief.shape[1] - 1)]  # 50 quantiles up
    pop = load_population(ROOT / "config" / "population.yaml")
    df = bc.belief_spots("standard", tables, shifted, pop, 30, 7)
    assert list(df.columns) == bc.SPOT_COLUMNS and len(df) == 30 and df["spot"].tolist() == list(range(30))
    for row in df.itertuples(index=False):
        cards = parse_cards(row.cards)
        assert row.read_own == post_draw_read(cards, row.h_draw, tables.belief_array(), "standard")
        assert row.read_standard == post_draw_read(cards, row.h_draw, shifted, "standard")
    d = (df["read_standard"] - df["read_own"]).to_numpy()
    assert (d <= 0).all() and (d < 0).any()  # a stronger table reads every hand lower
    pd.testing.assert_frame_equal(df, bc.belief_spots("standard", tables, shifted, pop, 30, 7))
    with pytest.raises(ValueError):
        bc.belief_spots("standard", tables, shifted, pop, 0, 7)


@pytest.mark.slow
def test_the_same_table_changes_nothing():
    wild = built_tables("wild")
    pop = load_population(ROOT / "config" / "population.yaml")
    df = bc.belief_spots("wild", wild, wild.belief_array(), pop, 120, 3)
    assert (df["action_own"] == df["action_standard"]).all() and (df["read_own"] == df["read_standard"]).all()
    claims = bc.belief_claims({"wild": df}).set_index("claim_id")
    assert json.loads(claims.loc["belief_wild_changed", "computed"])["changed"] == 0
    assert claims.loc["belief_wild_changed", "verdict"] == "differs"  # 4.5% is above the interval [0, 3.1%]
    assert claims.loc["belief_bug_changed", "verdict"] == "not computed"


def _frame(n, changed, bias_points, sd=0.0, seed=0):
    rng = np.random.default_rng(seed)
    own = rng.random(n) * 0.5
    noise = rng.standard_normal(n) * sd
    noise -= noise.mean()
    return pd.DataFrame(
        {
            "read_own": own,
            "read_standard": own + (bias_points + noise) / 100.0,
            "action_own": ["call"] * n,
            "action_standard": ["fold"] * changed + ["call"] * (n - changed),
        }
    )


def test_verdict_rules():
    n = 20_000
    claims = bc.belief_claims({"wild": _frame(n, 900, 2.4, 1.0), "bug": _frame(n, 840, 0.0, 1.0, 1)})
    c = claims.set_index("claim_id")
    assert (c["verdict"] == "holds").all(), c["verdict"].to_dict()
    got = json.loads(c.loc["belief_one_in_22", "computed"])
    assert got["changed"] == 1740 and got["spots"] == 40_000 and got["variants"] == ["wild", "bug"]
    assert got["rate"] == pytest.approx(1740 / 40_000)
    claims = bc.belief_claims({"wild": _frame(n, 1400, 3.5, 1.0), "bug": _frame(n, 840, 0.6, 0.1, 1)})
    c = claims.set_index("claim_id")
    assert c.loc["belief_wild_changed", "verdict"] == "differs" and c.loc["belief_wild_bias", "verdict"] == "differs"
    assert c.loc["belief_bug_bias", "verdict"] == "differs" and c.loc["belief_bug_changed", "verdict"] == "holds"
    assert list(claims.columns) == bc.CLAIM_COLUMNS
    md = bc.belief_claims_markdown(claims, bc.SPOT_DEFINITION)
    assert md.count("\n| belief_") == 5 and "A spot is one after-draw decision" in md


def test_wilson_interval():
    lo, hi = bc.wilson(900, 20_000)
    assert lo < 0.045 < hi and hi - lo == pytest.approx(2 * 1.96 * np.sqrt(0.045 * 0.955 / 20_000), rel=0.01)
    lo, hi = bc.wilson(0, 100)
    assert lo == pytest.approx(0.0, abs=1e-12) and 0.03 < hi < 0.04
