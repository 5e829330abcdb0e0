"""The solved tables against the player types on real cards (poker51.stages.realcard_types):
the published table's rows are the evidence stage's v0.6 rows, the paired differences are per
deal, and the gathered table holds every variant's rows."""

from __future__ import annotations

import numpy as np
import pytest

from poker51.abstraction.tables import AbstractionTables
from poker51.export.tables import export_tables, strategy_table
from poker51.games.abstract import build_game
from poker51.games.population import load_population
from poker51.io import read_metadata, read_parquet
from poker51.policies.holdout import load_holdout
from poker51.realcard.abstraction_size import table_player
from poker51.realcard.evidence import CheckCallPlayer, evidence_hands, mean_ci
from poker51.solver.cfr import CFRPlusSolver
from poker51.stages import gather_realcard_types, run_abstraction, run_evidence, run_realcard_types

POP, HOLDOUT = "config/population.yaml", "config/holdout.yaml"
HANDS, SEED, STACK = 24, 51006, 100


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    """A 40-bucket standard abstraction on disk, two short solves as the Nash (p = 0) and the
    published (p = 0.5) table, and the published one exported as the evidence stage reads it."""
    d = tmp_path_factory.mktemp("types")
    absdir = d / "standard"
    run_abstraction("standard", {n: absdir / f"{n}.parquet" for n in ("classes", "buckets", "transitions", "belief")},
                    n_buckets=40, belief_seed=51, belief_samples=1000)  # fmt: skip
    tables = AbstractionTables.load(absdir, "standard")
    ab = tables.arrays()
    game = build_game(ab)
    policies = {}
    for p, iterations in ((0.0, 3), (0.5, 12)):  # two different tables; their p is only a name here
        solver = CFRPlusSolver(game)
        solver.iterate(iterations)
        policies[p] = str(d / f"policy_p{p:g}.npy")
        np.save(policies[p], solver.average_policy())
    prov = {"p": 0.5, "iterations": 12, "exploitability": None, "config_sha256": "test", "seeds": {"belief": 51}}
    parquet = export_tables(game, np.load(policies[0.5]), ab, "standard", d / "tables", prov)[0]
    return {"dir": d, "absdir": absdir, "tables": tables, "ab": ab, "game": game, "policies": policies,
            "published": str(parquet)}  # fmt: skip


def test_tables_against_the_types_on_the_evidence_deals(solved, tmp_path):
    out = tmp_path / "standard_types.parquet"
    run_realcard_types("standard", str(solved["absdir"]), solved["policies"], 0.5, POP, HOLDOUT, HANDS, SEED, STACK,
                       str(out))  # fmt: skip
    df = read_parquet(out)
    pop, holdout = load_population(POP), load_holdout(HOLDOUT)
    n_types = len(pop.types) + len(holdout)
    assert len(df) == 2 * n_types
    assert df.groupby("p").size().tolist() == [n_types, n_types]
    assert set(df["table"]) == {"nash", "rnr"} and (df["hands"] == HANDS).all() and (df["seed"] == SEED).all()
    assert (df["ci_low"] <= df["mean"]).all() and (df["mean"] <= df["ci_high"]).all()
    assert set(read_metadata(out)["units"]) >= {"mean", "ci_low", "vs_published", "vs_published_ci_high"}

    # the published table's rows are what the evidence stage computes for v0.6 on the same deals
    ev, ev_hands = tmp_path / "evidence.parquet", tmp_path / "evidence_hands.parquet"
    run_evidence("standard", str(solved["absdir"]), solved["published"], POP, HOLDOUT, HANDS, SEED, STACK, str(ev),
                 str(ev_hands))  # fmt: skip
    v06 = read_parquet(ev).query("policy == 'v0.6'").set_index(["population", "type"])
    rnr = df[df["p"] == 0.5].set_index(["population", "type"])
    assert list(rnr.index) == list(v06.index)
    for col in ("hands", "mean", "sd", "se", "ci_low", "ci_high"):
        assert rnr[col].tolist() == v06[col].tolist(), col
    assert rnr[["vs_published", "vs_published_ci_low", "vs_published_ci_high"]].isna().all().all()

    # the Nash table's differences are per deal: its nets minus the published table's, deal by deal
    tables = solved["tables"]
    nash = table_player(tables, strategy_table(solved["game"], np.load(solved["policies"][0.0]), solved["ab"],
                                               "standard"), "nash")  # fmt: skip
    nash_hands = evidence_hands(nash, CheckCallPlayer, pop, "standard", HANDS, SEED, stacks=STACK, tables=tables,
                                holdout=holdout)  # fmt: skip
    published = read_parquet(ev_hands)
    rows = df[df["p"] == 0.0].set_index(["population", "type"])
    for (population, tname), g in nash_hands.groupby(["population", "type"], sort=False):
        x = g["v0.6"].to_numpy(np.float64)
        ref = published[(published["population"] == population) & (published["type"] == tname)]
        assert ref["hand"].tolist() == g["hand"].tolist()
        d = x - ref["v0.6"].to_numpy(np.float64)
        row = rows.loc[(population, tname)]
        assert (row["mean"], row["sd"], row["ci_low"], row["ci_high"]) == tuple(np.array(mean_ci(x))[[0, 1, 3, 4]])
        mean, sd, se, lo, hi = mean_ci(d)
        assert (row["vs_published"], row["vs_published_sd"], row["vs_published_se"]) == (mean, sd, se)
        assert (row["vs_published_ci_low"], row["vs_published_ci_high"]) == (lo, hi)
        assert lo <= mean <= hi
        assert row["vs_published"] == pytest.approx(row["mean"] - rnr.loc[(population, tname), "mean"])
    assert np.any(rows["vs_published"] != 0)  # two different tables

    # the gather: every variant's rows, sorted by variant and p, in play order within
    other = tmp_path / "other.parquet"
    read_parquet(out).assign(variant="bug").to_parquet(other)
    both = tmp_path / "all.parquet"
    gather_realcard_types([str(out), str(other)], str(both))
    g = read_parquet(both)
    assert len(g) == 4 * n_types and g["variant"].tolist() == ["bug"] * (2 * n_types) + ["standard"] * (2 * n_types)
    assert g[g["variant"] == "standard"].reset_index(drop=True).equals(df)
