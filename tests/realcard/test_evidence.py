"""The evidence run: same deals for both policies, paired statistics, figure and CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import poker51.realcard.evidence as evidence
from poker51.cli import main
from poker51.export.tables import strategy_table
from poker51.figures import fig_evidence
from poker51.games.abstract import build_game
from poker51.games.population import load_population
from poker51.io import read_parquet, write_parquet
from poker51.play.engine import play_hand
from poker51.policies.riemann import Riemann
from poker51.policies.types import TypePlayer, type_seed
from poker51.policies.v05 import V05Player
from poker51.rules import ABSTRACTION_TABLES

ROOT = Path(__file__).resolve().parents[2]
POPULATION = str(ROOT / "config" / "population.yaml")


@pytest.fixture(scope="module")
def tables():
    return evidence.built_tables("standard")


@pytest.fixture(scope="module")
def pop():
    return load_population(POPULATION)


@pytest.fixture(scope="module")
def run(tables, pop):
    per_hand = evidence.evidence_hands(
        evidence.CheckCallPlayer, evidence.v05_factory(tables), pop.types[:2], "standard", 80, 21, tables=tables
    )
    return per_hand, evidence.summarize(per_hand, 21)


def test_summary_shape_and_paired_statistics(run):
    per_hand, summary = run
    assert list(summary.columns) == evidence.SUMMARY_COLUMNS
    assert len(summary) == 2 * 3 and set(summary["policy"]) == {"v0.6", "v0.5", "v0.6-v0.5"}
    for name, g in per_hand.groupby("type"):
        s = summary[summary["type"] == name].set_index("policy")
        x, y = g["v0.6"].to_numpy(), g["v0.5"].to_numpy()
        assert s.loc["v0.6", "mean"] == pytest.approx(x.mean()) and s.loc["v0.5", "mean"] == pytest.approx(y.mean())
        assert s.loc["v0.6-v0.5", "mean"] == pytest.approx(x.mean() - y.mean())
        d = x - y
        half = stats.t.ppf(0.975, d.size - 1) * d.std(ddof=1) / np.sqrt(d.size)
        assert s.loc["v0.6-v0.5", "ci_low"] == pytest.approx(d.mean() - half)
        assert (s["ci_low"] <= s["mean"]).all() and (s["mean"] <= s["ci_high"]).all()
        assert (s["hands"] == 80).all()


def test_hands_are_the_engine_deals_and_reproducible(run, tables, pop):
    per_hand, _ = run
    again = evidence.evidence_hands(
        evidence.CheckCallPlayer, evidence.v05_factory(tables), pop.types[:2], "standard", 80, 21, tables=tables
    )
    pd.testing.assert_frame_equal(per_hand, again)
    # hand k of the v0.5 column is play_hand on the deck [seed, k] against a fresh type player
    human = TypePlayer(pop.types[1], "standard", tables, type_seed(21, 1))
    r = V05Player.from_tables("standard", tables)
    nets = [
        play_hand({"H": human, "R": r}, stacks={"H": 100, "R": 100}, base_seed=21, hand_index=k).net["R"]
        for k in range(80)
    ]
    assert nets == per_hand[per_hand["type"] == pop.types[1].name]["v0.5"].tolist()


def test_same_policy_twice_gives_a_zero_difference(tables, pop):
    """Same deals and common random numbers: v0.5 against itself differs by exactly 0 per hand."""
    f = evidence.v05_factory(tables)
    per_hand = evidence.evidence_hands(f, f, pop.types[2:], "standard", 40, 3, tables=tables)
    assert (per_hand["v0.6"] == per_hand["v0.5"]).all()
    s = evidence.summarize(per_hand, 3)
    d = s[s["policy"] == "v0.6-v0.5"]
    assert (d["mean"] == 0).all() and (d["sd"] == 0).all()


def test_player_objects_and_factories(tables):
    obj = evidence.CheckCallPlayer()
    assert evidence.make_player(obj, "standard") is obj
    assert isinstance(evidence.make_player(evidence.CheckCallPlayer, "standard"), evidence.CheckCallPlayer)
    assert isinstance(evidence.make_player(evidence.v05_factory(tables), "standard"), V05Player)
    with pytest.raises(TypeError):
        evidence.make_player(3, "standard")


def test_mean_ci():
    m, sd, se, lo, hi = evidence.mean_ci(np.array([0.0, 2.0, 4.0, 6.0]))
    assert (m, sd) == (3.0, pytest.approx(np.std([0, 2, 4, 6], ddof=1)))
    assert hi - m == pytest.approx(stats.t.ppf(0.975, 3) * se)
    assert np.isnan(evidence.mean_ci(np.array([1.0]))[3])


def test_figure_is_byte_reproducible(run, tmp_path):
    _, summary = run
    a = fig_evidence(summary, tmp_path / "a" / "evidence")
    b = fig_evidence(summary, tmp_path / "b" / "evidence")
    assert [p.suffix for p in a] == [".pdf", ".png"]
    for x, y in zip(a, b):
        assert x.read_bytes() == y.read_bytes() and x.stat().st_size > 1000


def test_cli_json_and_tables_dir(tables, tmp_path, capsys):
    for name in ABSTRACTION_TABLES:
        write_parquet(tables.frame(name), tmp_path / "abs" / f"{name}.parquet")
    out = tmp_path / "summary.parquet"
    rc = main(
        [
            "evidence",
            "--variant",
            "standard",
            "--hands",
            "6",
            "--seed",
            "2",
            "--abstraction",
            str(tmp_path / "abs"),
            "--population",
            POPULATION,
            "--v06",
            "check-call",
            "--json",
            "--out",
            str(out),
            "--figure",
            str(tmp_path / "fig"),
        ]
    )
    assert rc == 0
    records = json.loads(capsys.readouterr().out)
    assert len(records) == 4 * 3 and {r["policy"] for r in records} == {"v0.6", "v0.5", "v0.6-v0.5"}
    assert len(read_parquet(out)) == 12 and (tmp_path / "fig.pdf").exists()
    assert main(["evidence", "--hands", "0", "--v06", "check-call"]) == 2
    assert main(["evidence", "--hands", "2", "--abstraction", str(tmp_path / "nothing"), "--v06", "check-call"]) == 2
    assert main(["evidence", "--hands", "2", "--v06", "no-colon", "--population", POPULATION]) == 2


def test_with_the_v06_table_player(tables, pop):
    """The real v0.6 player on a table exported from a uniform policy: a Riemann that folds a
    third of the time facing any bet loses to v0.5 against the calling station and the maniac
    (seeded: the intervals are fixed numbers), and each of its hands is the engine's hand."""
    ab = tables.arrays()
    game = build_game(ab)
    table = strategy_table(game, game.uniform_policy(), ab, "standard")
    player = Riemann(table, "standard", tables.classes, tables.buckets)
    types = [t for t in pop.types if t.name in ("calling_station", "maniac")]
    per_hand = evidence.evidence_hands(player, evidence.v05_factory(tables), types, "standard", 300, 5, tables=tables)
    s = evidence.summarize(per_hand, 5).set_index(["type", "policy"])
    for t in types:
        assert s.loc[(t.name, "v0.6-v0.5"), "ci_high"] < 0
    human = TypePlayer(types[1], "standard", tables, type_seed(5, 1))
    nets = [
        play_hand({"H": human, "R": player}, stacks={"H": 100, "R": 100}, base_seed=5, hand_index=k).net["R"]
        for k in range(300)
    ]
    assert nets == per_hand[per_hand["type"] == "maniac"]["v0.6"].tolist()


def test_holdout_types_are_reported_apart_and_leave_the_training_rows_unchanged(tables, pop):
    """Hold-out types add rows of population 'holdout'; the in-sample rows are the run without them
    (the same deals and seeds); every population's paired difference is its own hands' mean."""
    from poker51.policies.holdout import load_holdout

    holdout = load_holdout(ROOT / "config" / "holdout.yaml")
    base = evidence.evidence_hands(
        evidence.CheckCallPlayer, evidence.v05_factory(tables), pop.types[:1], "standard", 30, 4, tables=tables
    )
    both = evidence.evidence_hands(
        evidence.CheckCallPlayer,
        evidence.v05_factory(tables),
        pop.types[:1],
        "standard",
        30,
        4,
        tables=tables,
        holdout=holdout,
    )
    assert list(both.columns) == ["variant", "population", "type", "hand", "v0.6", "v0.5"]
    pd.testing.assert_frame_equal(both[both["population"] == "in_sample"].reset_index(drop=True), base)
    assert both.groupby("population")["type"].nunique().to_dict() == {"holdout": 4, "in_sample": 1}
    s = evidence.summarize(both, 4)
    assert len(s) == 5 * 3 and set(s["population"]) == {"in_sample", "holdout"}
    for name, g in both.groupby("type"):
        row = s[(s["type"] == name) & (s["policy"] == "v0.6-v0.5")].iloc[0]
        assert row["population"] == g["population"].iloc[0]
        assert row["mean"] == pytest.approx((g["v0.6"] - g["v0.5"]).mean())
