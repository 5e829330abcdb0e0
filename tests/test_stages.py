"""Stage functions write byte-identical files on a second run (SPEC: exact or seeded)."""

from __future__ import annotations

import json

import pytest

from poker51.io import read_parquet, sha256_file
from poker51.stages import run_abstraction, run_export, run_solve

SOLVE_CFG = {
    "algorithm": "cfr+",
    "check_first": 10,
    "check_growth": 1.25,
    "checkpoint_every": 10,
    "target_exploitability": None,
    "keep_checkpoints": True,
}


@pytest.fixture(scope="module")
def abstraction_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("standard")
    run_abstraction(
        "standard",
        {n: d / f"{n}.parquet" for n in ("classes", "buckets", "transitions", "belief")},
        n_buckets=40,
        belief_seed=51,
        belief_samples=1000,
    )
    return d


def _solve(abstraction_dir, out_dir, iterations=20, cfg=SOLVE_CFG):
    out = {
        k: out_dir / f"{k}.{ext}"
        for k, ext in (
            ("policy", "npy"),
            ("regret_mass", "npy"),
            ("convergence", "parquet"),
            ("summary", "json"),
            ("timing", "tsv"),
            ("checkpoint", "npz"),
        )
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    run_solve(
        "standard",
        0.5,
        str(abstraction_dir),
        "config/population.yaml",
        {k: str(v) for k, v in out.items()},
        cfg,
        iterations,
    )
    return out


def test_abstraction_tables_are_reproducible(abstraction_dir, tmp_path):
    again = {n: tmp_path / f"{n}.parquet" for n in ("classes", "buckets", "transitions", "belief")}
    run_abstraction("standard", again, n_buckets=40, belief_seed=51, belief_samples=1000)
    for name, path in again.items():
        assert sha256_file(path) == sha256_file(abstraction_dir / f"{name}.parquet"), name


def test_solve_and_export_are_reproducible(abstraction_dir, tmp_path):
    a, b = _solve(abstraction_dir, tmp_path / "a"), _solve(abstraction_dir, tmp_path / "b")
    for key in ("policy", "regret_mass", "convergence", "summary"):
        assert sha256_file(a[key]) == sha256_file(b[key]), key
    summary = json.loads(a["summary"].read_text())
    assert summary["iterations"] == 20 and summary["p"] == 0.5
    conv = read_parquet(a["convergence"])
    # checks at 10, then each ceil(1.25 x) later (no target: nothing to predict), and the last
    assert list(conv["iteration"]) == [10, 13, 17, 20] and set(conv["variant"]) == {"standard"}
    outs = []
    for run in ("a", "b"):
        out = {"parquet": str(tmp_path / run / "t.parquet"), "json": str(tmp_path / run / "t.json")}
        run_export(
            "standard",
            str(abstraction_dir),
            str(a["policy"]),
            str(a["summary"]),
            out,
            {"config_sha256": "0" * 64, "seeds": {"belief": 51}},
        )
        outs.append(out)
    for ext in ("parquet", "json"):
        assert sha256_file(outs[0][ext]) == sha256_file(outs[1][ext]), ext
    table = read_parquet(outs[0]["parquet"])
    assert len(table) == 150_950  # Riemann's information sets of the standard game


def test_resumed_solve_equals_a_fresh_one(abstraction_dir, tmp_path):
    fresh = _solve(abstraction_dir, tmp_path / "fresh", iterations=20)
    part = _solve(abstraction_dir, tmp_path / "part", iterations=10)
    resumed = _solve(abstraction_dir, tmp_path / "part", iterations=20)  # same checkpoint
    assert part["checkpoint"] == resumed["checkpoint"]
    for key in ("policy", "convergence"):
        assert sha256_file(fresh[key]) == sha256_file(resumed[key]), key


def test_solve_command_on_a_poker51_game(abstraction_dir, capsys):
    from poker51.cli import main

    assert (
        main(
            [
                "solve",
                "--game",
                "standard",
                "--abstraction",
                str(abstraction_dir),
                "--p",
                "0.5",
                "--iterations",
                "10",
                "--check-first",
                "10",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "standard" and out["iterations"] == 10 and out["p"] == 0.5
    assert out["public_nodes"] == 20_966 and out["infosets_R"] == 150_950
    assert out["guarantee"] <= out["value"] <= out["vs_population"] + 10 * out["exploitability"]
    assert main(["solve", "--game", "standard", "--p", "1.5"]) == 2


def test_spent_checkpoints_are_deleted_unless_kept(abstraction_dir, tmp_path):
    out = _solve(abstraction_dir, tmp_path / "gone", iterations=10, cfg={**SOLVE_CFG, "keep_checkpoints": False})
    assert out["policy"].exists() and not out["checkpoint"].exists()
    assert not out["checkpoint"].with_suffix(".log.npy").exists()
