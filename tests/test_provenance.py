"""Provenance of the tables: the configuration hash is a chain over the inputs, file locations
are not configuration, seeds are inherited, units are recorded (poker51.provenance)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from poker51.io import read_metadata, write_json, write_parquet
from poker51.provenance import JBITS, input_provenance, provenance, table_metadata, units_for


def _table(path, prov):
    write_parquet(pd.DataFrame({"x": [1, 2]}), path, metadata=table_metadata(prov, {"x": JBITS}))
    return path


def test_locations_are_not_configuration():
    a = provenance("solve", {"variant": "standard"}, {"p": 0.5, "checkpoint": "results/smoke/x/checkpoint.npz"}, [])
    b = provenance("solve", {"variant": "standard"}, {"p": 0.5, "checkpoint": "results/smoke-1core/x/c.npz"}, [])
    assert a == b and a["config"] == {"p": 0.5}


def test_the_hash_changes_with_the_rule_the_job_and_the_config():
    base = provenance("solve", {"variant": "standard"}, {"p": 0.5}, [])["config_sha256"]
    others = {
        provenance("score", {"variant": "standard"}, {"p": 0.5}, [])["config_sha256"],
        provenance("solve", {"variant": "wild"}, {"p": 0.5}, [])["config_sha256"],
        provenance("solve", {"variant": "standard"}, {"p": 0.6}, [])["config_sha256"],
    }
    assert base not in others and len(others) == 3


def test_the_hash_chains_over_input_tables_and_seeds_are_inherited(tmp_path):
    up_a = provenance("abstraction", {"variant": "standard"}, {"belief_seed": 51}, [])
    up_b = provenance("abstraction", {"variant": "standard"}, {"belief_seed": 52}, [])
    assert up_a["seeds"] == {"abstraction.belief_seed": 51}
    a = _table(tmp_path / "a" / "t.parquet", up_a)
    b = _table(tmp_path / "b" / "t.parquet", up_b)
    assert read_metadata(a)["units"] == {"x": JBITS} and read_metadata(a)["config_sha256"] == up_a["config_sha256"]
    down_a = provenance("evidence", {}, {"seed": 7}, [a])
    down_b = provenance("evidence", {}, {"seed": 7}, [b])
    assert down_a["config"] == down_b["config"]
    assert down_a["config_sha256"] != down_b["config_sha256"]  # upstream config differs
    assert down_a["seeds"] == {"abstraction.belief_seed": 51, "evidence.seed": 7}
    # the same upstream configuration written in another directory gives the same hash
    again = _table(tmp_path / "c" / "t.parquet", up_a)
    assert provenance("evidence", {}, {"seed": 7}, [again]) == down_a


def test_json_yaml_and_plain_inputs(tmp_path):
    up = provenance("solve", {"variant": "wild"}, {"p": 1.0}, [])
    summary = write_json({"p": 1.0, "provenance": up}, tmp_path / "summary.json")
    assert input_provenance(summary) == {"config_sha256": up["config_sha256"], "seeds": {}}
    np.save(tmp_path / "policy.npy", np.zeros(3))
    assert input_provenance(tmp_path / "policy.npy") is None
    y1, y2, y3 = tmp_path / "a.yaml", tmp_path / "b.yaml", tmp_path / "c.yaml"
    y1.write_text("weights: {rock: 1}\n")
    y2.write_text("# a comment\nweights:\n  rock: 1\n")
    y3.write_text("weights: {rock: 2}\n")
    h = [input_provenance(y)["config_sha256"] for y in (y1, y2, y3)]
    assert h[0] == h[1] != h[2]  # the content decides, not the formatting
    with_yaml = provenance("solve", {}, {}, [y1, tmp_path / "policy.npy", summary])
    assert (
        with_yaml["config_sha256"]
        != provenance("solve", {}, {}, [y3, tmp_path / "policy.npy", summary])["config_sha256"]
    )


def test_units_for():
    assert units_for(["variant", "p", "mean"], JBITS, exclude=["variant", "p"]) == {"mean": JBITS}
