"""The abstraction-size study's solve half: the two tables of one abstraction, their scores,
their timing row, and the growth fit (poker51.study.abstraction_size)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from helpers import small_abstraction

from poker51.abstraction.buckets import bucket_of_strength, bucket_table
from poker51.export.schema import check_table, content_digest, frame
from poker51.export.tables import write_table
from poker51.games.abstract import build_game
from poker51.games.population import load_population
from poker51.rules import bucket_dtype
from poker51.solver.schedule import CheckSchedule
from poker51.study.abstraction_size import fit_growth, growth_of, seconds_to_target, solve_size
from poker51.study.scores import score_table, value_bracket, variant_types
from poker51.study.solve import solve_table

TARGET = 5e-3


@pytest.fixture(scope="module")
def sized():
    ab = small_abstraction(C=3, B=5, seed=3)
    game = build_game(ab)
    pop = load_population("config/population.yaml")
    types = variant_types(game, ab, pop)
    kw = dict(algorithm="dcfr", iterations=400, target=TARGET, schedule=CheckSchedule(10, 1.5))
    return ab, game, pop, types, solve_size(game, ab, types, pop, 0.5, **kw), kw


def test_the_row_is_the_scores_of_the_two_tables(sized):
    """The bracket is that of the Nash table, each guarantee the table's own; the Nash table
    is the cold solve at p = 0 and the p table the warm-started one."""
    ab, game, pop, types, s, kw = sized
    row = s.columns()
    assert (row["buckets"], row["classes"], row["private_states"]) == (5, 3, 8)
    assert row["infosets"] == game.num_infosets and row["actions"] == game.num_actions
    cold = solve_table(game, types, pop.weights, 0.0, algorithm="dcfr", iterations=400, target_exploitability=TARGET,
                       schedule=kw["schedule"])  # fmt: skip
    assert np.array_equal(cold.policy, s.nash.policy)  # the warm-up iterations change nothing
    bracket = value_bracket(game, cold.policy)
    assert (row["value_low"], row["value_high"]) == (bracket.low, bracket.high)
    assert row["nash_guarantee"] == row["value_low"]
    rnr = score_table(game, s.rnr.policy, types, pop)
    assert (row["rnr_guarantee"], row["rnr_vs_population"]) == (rnr.guarantee, rnr.vs_population)
    assert row["nash_reached"] and row["rnr_reached"]
    assert row["nash_exploitability"] <= TARGET and row["rnr_exploitability"] <= TARGET
    # the theory, within the solves' exploitability: guarantee <= value <= value vs population
    tol = 2 * (row["rnr_exploitability"] + row["game_exploitability"])
    assert row["value_low"] <= row["value_high"]
    assert row["rnr_guarantee"] <= row["value_high"] + tol and row["value_low"] <= row["rnr_vs_population"] + tol
    # the p table trades guarantee for the population: it takes more from the population and
    # guarantees no more than the Nash table, within the solves' precision (on this tiny game the
    # guarantee given up is smaller than the target)
    assert row["rnr_vs_population"] > row["nash_vs_population"] + 0.5
    assert row["rnr_guarantee"] <= row["nash_guarantee"] + tol


def test_the_row_is_deterministic_and_the_timing_apart(sized):
    ab, game, pop, types, s, kw = sized
    again = solve_size(game, ab, types, pop, 0.5, **kw)
    assert again.columns() == s.columns()
    t = s.timing()
    assert not set(t) & {"value_low", "nash_guarantee"}  # no score among the wall-clock columns
    assert t["nash_iterations"] == s.nash.iterations and t["peak_solve_mb"] > 0
    assert 0 < t["nash_seconds_to_target"] <= t["nash_seconds"]
    assert t["nash_seconds_per_iteration"] == pytest.approx(t["nash_seconds"] / s.nash.iterations)
    assert 0 < t["nash_cpu_seconds"] and t["rnr_cpu_seconds_per_iteration"] == pytest.approx(
        t["rnr_cpu_seconds"] / s.rnr.iterations)  # fmt: skip
    assert math.isnan(seconds_to_target(s.nash, None)) and math.isnan(seconds_to_target(s.nash, 1e-12))


def test_growth_fit():
    fit = fit_growth([10, 20, 40, 80], [3.0 * n**1.5 for n in (10, 20, 40, 80)])
    assert fit.exponent == pytest.approx(1.5) and math.exp(fit.intercept) == pytest.approx(3.0)
    assert fit.r_squared == pytest.approx(1.0) and fit.points == 4
    noisy = fit_growth([10, 20, 40], [1.0, 2.5, 3.5])  # log-log slope by hand: least squares
    x, y = np.log([10, 20, 40]), np.log([1.0, 2.5, 3.5])
    assert noisy.exponent == pytest.approx(((x - x.mean()) * (y - y.mean())).sum() / ((x - x.mean()) ** 2).sum())
    assert 0 < noisy.r_squared < 1
    assert math.isnan(fit_growth([40], [1.0]).exponent) and math.isnan(fit_growth([40, 40], [1.0, 2.0]).exponent)
    timing = pd.DataFrame({"private_states": [29, 59], "nash_cpu_seconds_per_iteration": [0.01, 0.04],
                           "nash_seconds_per_iteration": [0.01, 0.02]})  # fmt: skip
    assert growth_of(timing).exponent == pytest.approx(np.log(4) / np.log(59 / 29))
    assert growth_of(timing, clock="seconds").exponent == pytest.approx(np.log(2) / np.log(59 / 29))


def test_more_than_127_buckets_are_int16_and_40_stay_int8():
    """An int8 bucket column would wrap at 128 (the 160-bucket study); 40 buckets keep int8."""
    values = np.arange(1000, dtype=np.int32) * 7
    weights = np.ones(1000, np.int64)
    for n, dtype in ((40, "int8"), (127, "int8"), (160, "int16")):
        b = bucket_table(values, weights, 1000, n)
        assert str(b["bucket"].dtype) == dtype == bucket_dtype(n)
        assert list(b["bucket"]) == list(range(n)) and b["low"].is_monotonic_increasing
        got = bucket_of_strength(values, b)
        assert got.dtype == np.dtype(dtype)
        assert np.array_equal(got, (n * np.arange(1000)) // 1000)  # floor(n · P(S < s))


def _after_draw_rows(n_buckets: int) -> pd.DataFrame:
    cols: dict[str, list] = {c: [] for c in ("street", "spot", "h_bet", "h_draw", "r_draw", "pre_line", "post_line",
                                             "class", "bucket", "fold", "call", "raise", "check", "bet")}  # fmt: skip
    for b in range(n_buckets):
        row = dict(street=1, spot="checked", h_bet=0, h_draw=0, r_draw=0, pre_line="x-x", post_line="x",
                   bucket=b, fold=0.0, call=0.0, raise_=0.0, check=0.75, bet=0.25)  # fmt: skip
        row["class"], row["raise"] = -1, row.pop("raise_")
        for c in cols:
            cols[c].append(row[c])
    return frame(cols)


def test_a_table_of_160_buckets_is_checked_in_memory_but_not_written(tmp_path):
    wide, narrow = _after_draw_rows(160), _after_draw_rows(40)
    assert wide["bucket"].dtype == np.int16 and narrow["bucket"].dtype == np.int8
    assert list(wide["bucket"]) == list(range(160))
    check_table(wide)
    check_table(narrow)
    assert content_digest(wide) != content_digest(_after_draw_rows(159))
    write_table(narrow, tmp_path / "t.parquet", {"variant": "standard"})  # the published format: int8
    with pytest.raises(ValueError, match="int8 buckets, this table has 160"):
        write_table(wide, tmp_path / "w.parquet", {"variant": "standard"})
