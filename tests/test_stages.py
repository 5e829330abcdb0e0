"""Stage functions write byte-identical files on a second run (SPEC: exact or seeded)."""

from __future__ import annotations

import json
from pathlib import Path

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


@pytest.mark.slow  # `make test` compares two whole smoke runs file by file
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


def test_lbr_columns_of_the_scores_table():
    """LBR's gains land on the published table's row (v0.6) and on v0.5's, NaN elsewhere; the
    columns exist (NaN, 0 hands) without an LBR table too."""
    import numpy as np
    import pandas as pd

    from poker51.realcard.lbr import LBRScore
    from poker51.stages import add_lbr_columns

    scores = pd.DataFrame(
        {
            "variant": ["bug", "bug", "bug", "wild"],
            "table": ["nash", "rnr", "v0.5", "rnr"],
            "p": [0.0, 0.5, np.nan, 0.5],
        }
    )
    rows = [
        LBRScore("bug", "v0.5", 100, 1, 32, 64, 2.5, 3.0, 0.3, 1.9, 3.1, 0).row(),
        LBRScore("bug", "v0.6", 100, 1, 32, 64, -0.2, 3.0, 0.3, -0.8, 0.4, 2).row(),
    ]
    out = add_lbr_columns(scores, pd.DataFrame(rows))
    assert out["lbr_win"].tolist()[1:3] == [-0.2, 2.5] and np.isnan(out["lbr_win"].iloc[[0, 3]]).all()
    assert out["lbr_win_ci_low"].tolist()[1:3] == [-0.8, 1.9] and out["lbr_hands"].tolist() == [0, 100, 100, 0]
    none = add_lbr_columns(scores, None)
    assert list(none.columns) == list(out.columns) and none["lbr_win"].isna().all() and (none["lbr_hands"] == 0).all()


def test_br_columns_of_the_scores_table():
    """V_A, V_ind and the abstract human land on the rows of their variant and p (the published
    table's too, not v0.5's); a V_A that is not minus the guarantee, a human above V_ind, or a
    row without its table are refused."""
    import numpy as np
    import pandas as pd

    from poker51.realcard.decomposition import BoundViolation
    from poker51.stages import BR_COLUMNS, add_br_columns

    scores = pd.DataFrame({"variant": ["bug", "bug", "bug", "wild"], "table": ["nash", "rnr", "v0.5", "rnr"],
                           "p": [0.0, 0.5, np.nan, 0.5], "guarantee": [-0.01, -0.03, -3.0, -0.1]})  # fmt: skip
    br = pd.DataFrame({"variant": ["bug", "bug"], "table": ["nash", "rnr"], "p": [0.0, 0.5], "v_abstract": [0.01, 0.03],
                       "v_ind": [0.05, 0.07], "v_ind_abstract_human": [0.02, 0.06]})  # fmt: skip
    out = add_br_columns(scores, br)
    assert out["v_ind"].tolist()[:2] == [0.05, 0.07] and out["v_ind"].iloc[2:].isna().all()
    assert out["v_abstract"].tolist()[:2] == [0.01, 0.03] and out["v_ind_abstract_human"].iloc[1] == 0.06
    none = add_br_columns(scores, None)
    assert all(none[c].isna().all() for c in BR_COLUMNS) and list(none.columns) == list(out.columns)
    with pytest.raises(ValueError, match="is not minus the guarantee"):
        add_br_columns(scores, br.assign(v_abstract=[0.01, 0.04]))
    with pytest.raises(BoundViolation, match="exceeds V_ind"):
        add_br_columns(scores, br.assign(v_ind_abstract_human=[0.02, 0.08]))
    with pytest.raises(ValueError, match="matches 0 score rows"):
        add_br_columns(scores, br.assign(p=[0.0, 0.4]))


# --------------------------------------------------------------------------- issue 12's config keys
@pytest.mark.parametrize(
    "edit, message",
    [
        (
            lambda c, d: c["lbr"].update(particles=32, max_tries=10),
            "{cfg}: lbr.max_tries: 10 is below lbr.particles (32)",
        ),
        (lambda c, d: c.update(holdout=str(d / "nope.yaml")), "{dir}/nope.yaml: no such hold-out types file"),
        (
            lambda c, d: c.update(holdout=str(d / "bad_holdout.yaml")),
            "{dir}/bad_holdout.yaml: types.loose_aggressive.size: 3 is not one of 1, 2, 4, 8",
        ),
    ],
)
def test_validate_config_checks_the_holdout_file_and_lbr_tries(tmp_path, edit, message):
    from pathlib import Path

    import yaml

    from poker51.errors import ConfigError
    from poker51.stages import validate_config

    root = Path(__file__).resolve().parents[1]
    holdout = yaml.safe_load((root / "config" / "holdout.yaml").read_text())
    holdout["types"]["loose_aggressive"]["size"] = 3
    (tmp_path / "bad_holdout.yaml").write_text(yaml.safe_dump(holdout))
    cfg = yaml.safe_load((root / "config" / "smoke.yaml").read_text())
    cfg["population"] = str(root / "config" / "population.yaml")
    cfg["holdout"] = str(root / "config" / "holdout.yaml")
    validate_config(cfg, root / "workflow" / "schemas" / "config.schema.yaml", [root / "config" / "smoke.yaml"], {})
    edit(cfg, tmp_path)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(cfg))
    with pytest.raises(ConfigError) as err:
        validate_config(cfg, root / "workflow" / "schemas" / "config.schema.yaml", [path], {})
    assert str(err.value) == message.format(cfg=path, dir=tmp_path)


@pytest.mark.slow  # two bucket counts built, solved and played: about a minute
def test_abstraction_size_study(abstraction_dir, tmp_path):
    """The study's 40-bucket row has the value bracket the pipeline's scores stage computes
    from its own Nash solve (same solve settings); 160 buckets (int16 bucket columns) are
    solved and played too; the real-card intervals hold their means; the gathered table
    is sorted by buckets, round-trips through pandas and pyarrow and is byte-reproducible."""
    import numpy as np
    import pandas as pd
    import pyarrow.parquet as pq

    from poker51.games.abstract import build_game
    from poker51.stages import abstraction_size_figure, gather_abstraction_size, run_abstraction_size
    from poker51.study.scores import value_bracket

    cfg = {"algorithm": "dcfr", "target_exploitability": 0.001, "check_first": 10, "check_growth": 1.25}
    study = {"p": 0.5, "iterations": 25, "evidence_hands": 12, "lbr_hands": 12}
    paths = {}
    for b in (160, 40):
        paths[b] = {k: str(tmp_path / f"b{b}{suffix}") for k, suffix in (("table", ".parquet"),
                    ("hands", "_hands.parquet"), ("timing", ".tsv"))}  # fmt: skip
        run_abstraction_size(
            b, {"belief_seed": 51, "belief_samples": 1000}, "config/population.yaml", "config/holdout.yaml", cfg,
            study, {"seed": 51006, "stack": 100}, {"seed": 51012, "particles": 16, "max_tries": 512}, paths[b],
        )  # fmt: skip
    again = {k: str(tmp_path / f"again{suffix}") for k, suffix in (("table", ".parquet"), ("hands", "_hands.parquet"),
                                                                   ("timing", ".tsv"))}  # fmt: skip
    run_abstraction_size(40, {"belief_seed": 51, "belief_samples": 1000}, "config/population.yaml",
                         "config/holdout.yaml", cfg, study, {"seed": 51006, "stack": 100},
                         {"seed": 51012, "particles": 16, "max_tries": 512}, again)  # fmt: skip
    assert sha256_file(again["table"]) == sha256_file(paths[40]["table"])
    assert sha256_file(again["hands"]) == sha256_file(paths[40]["hands"])
    out = {"table": str(tmp_path / "all.parquet"), "timing": str(tmp_path / "all.tsv")}
    gather_abstraction_size([paths[b]["table"] for b in (160, 40)], [paths[b]["timing"] for b in (160, 40)],
                            [paths[b]["hands"] for b in (160, 40)], 40, out)  # fmt: skip
    df, at = read_parquet(out["table"]), pq.read_table(out["table"])
    assert list(df["buckets"]) == [40, 160] and at.num_rows == 2 and at.column_names == list(df.columns)
    assert list(pd.read_csv(out["timing"], sep="\t")["buckets"]) == [40, 160]
    # the 40-bucket row against the pipeline's own stages: its Nash solve, then the scores' bracket
    nash = tmp_path / "nash"
    nash.mkdir()
    kinds = (("policy", "npy"), ("regret_mass", "npy"), ("convergence", "parquet"), ("summary", "json"),
             ("timing", "tsv"), ("checkpoint", "npz"))  # fmt: skip
    files = {k: str(nash / f"{k}.{e}") for k, e in kinds}
    run_solve("standard", 0.0, str(abstraction_dir), "config/population.yaml", files,
              {**cfg, "checkpoint_every": 500}, 25)  # fmt: skip
    from poker51.abstraction.tables import AbstractionTables

    game = build_game(AbstractionTables.load(abstraction_dir, "standard").arrays())
    bracket = value_bracket(game, np.load(files["policy"]))
    row = df.set_index("buckets").loc[40]
    assert (row["value_low"], row["value_high"], row["value_high_recall"]) == (
        bracket.low, bracket.high, bracket.high_recall)  # fmt: skip
    assert row["nash_iterations"] == json.loads(Path(files["summary"]).read_text())["iterations"]
    for _, r in df.iterrows():
        assert r["value_low"] <= r["value_high"] <= r["value_high_recall"] + 1e-12
        assert (
            r["nash_guarantee"] == r["value_low"]
            and r["rnr_guarantee"] <= r["value_high"] + 2 * r["rnr_exploitability"]
        )
        for scope in ("pop", "holdout"):
            assert r[f"{scope}_ci_low"] <= r[f"{scope}_mean"] <= r[f"{scope}_ci_high"] and r[f"{scope}_hands"] == 12
        assert r["lbr_win_ci_low"] <= r["lbr_win"] <= r["lbr_win_ci_high"] and r["lbr_hands"] == 12
        for scope in ("pop", "holdout", "lbr"):
            assert r[f"{scope}_vs_ref_ci_low"] <= r[f"{scope}_vs_ref"] <= r[f"{scope}_vs_ref_ci_high"]
    ref = df.set_index("buckets").loc[40]
    assert (ref["reference_buckets"], ref["pop_vs_ref"], ref["lbr_vs_ref_ci_high"]) == (40, 0.0, 0.0)
    # the paired difference is the difference of the two means (the same deals)
    assert df.loc[1, "pop_vs_ref"] == pytest.approx(df.loc[1, "pop_mean"] - df.loc[0, "pop_mean"])
    assert df.loc[1, "lbr_vs_ref"] == pytest.approx(df.loc[0, "lbr_win"] - df.loc[1, "lbr_win"])
    assert (
        df.loc[1, "private_states"] == df.loc[0, "private_states"] + 120
        and df.loc[1, "infosets"] > df.loc[0, "infosets"]
    )
    figs = []
    for k in ("a", "b"):
        abstraction_size_figure(out["table"], str(tmp_path / f"fig_{k}.pdf"))
        figs.append(sha256_file(tmp_path / f"fig_{k}.png"))
    assert figs[0] == figs[1]


def test_the_study_gathers_a_refined_row_and_the_bounds_by_play(tmp_path):
    """The gather on written files: the refined set's row after the standard rows, V_ind's
    difference from the standard reference, the bound columns and their units carried over."""
    import numpy as np
    import pandas as pd

    from poker51.io import write_parquet
    from poker51.provenance import table_metadata
    from poker51.stages import gather_abstraction_size

    paths: dict[str, list[str]] = {"tables": [], "timings": [], "hands": [], "br": []}
    for cs, b, v in (("refined", 40, 0.10), ("standard", 40, 0.12), ("standard", 10, 0.17)):
        stem = tmp_path / f"{cs}{b}"
        row = {"variant": "standard", "class_set": cs, "buckets": b, "lbr_hands": 4, "private_states": b + 19}
        write_parquet(pd.DataFrame([row]), f"{stem}.parquet", metadata=table_metadata(None, {"lbr_hands": "deals"}))
        deals = pd.DataFrame(
            {"class_set": cs, "buckets": b, "scope": "pop", "hand": np.arange(4), "net": v * np.arange(4)}
        )
        write_parquet(deals, f"{stem}_hands.parquet", metadata=table_metadata(None, {}))
        br = {
            "class_set": cs,
            "buckets": b,
            "p": 0.5,
            "v_abstract": 0.03,
            "v_ind": v,
            "v_ind_abstract_human": np.nan,
            "dealt_hands": 9,
            "classes": 25 if cs == "refined" else 19,
            "ind_gap": v - 0.03,
            "human_gap": np.nan,
            "v_real_lower": v - 0.01,
            "v_real_lower_ci_low": v - 0.02,
            "v_real_lower_ci_high": v,
            "v_real_lower_hands": 8,
        }
        write_parquet(
            pd.DataFrame([br]), f"{stem}_br.parquet", metadata=table_metadata(None, {"v_real_lower": "jbits won by H"})
        )
        pd.DataFrame(
            [
                {
                    "class_set": cs,
                    "buckets": b,
                    "private_states": b + 19,
                    "nash_cpu_seconds_per_iteration": 0.01 * b,
                    "nash_seconds_per_iteration": 0.01 * b,
                }
            ]
        ).to_csv(f"{stem}.tsv", sep="\t", index=False)
        for k, suffix in (
            ("tables", ".parquet"),
            ("timings", ".tsv"),
            ("hands", "_hands.parquet"),
            ("br", "_br.parquet"),
        ):
            paths[k].append(f"{stem}{suffix}")
    out = {"table": str(tmp_path / "all.parquet"), "timing": str(tmp_path / "all.tsv")}
    gather_abstraction_size(paths["tables"], paths["timings"], paths["hands"], 40, out, br=paths["br"], margin=0.05)
    df = read_parquet(out["table"])
    assert df[["class_set", "buckets"]].values.tolist() == [["standard", 10], ["standard", 40], ["refined", 40]]
    assert df["v_ind_vs_ref"].tolist() == pytest.approx([0.05, 0.0, -0.02])
    assert df["pop_vs_ref"].tolist() == pytest.approx([0.075, 0.0, -0.03])  # mean of (v - 0.12) * (0, 1, 2, 3)
    assert df["v_real_lower_hands"].tolist() == [8, 8, 8] and df["v_real_lower"].tolist() == pytest.approx(
        [0.16, 0.11, 0.09]
    )
    from poker51.io import read_metadata

    assert read_metadata(out["table"])["units"]["v_real_lower"] == "jbits won by H"
    assert pd.read_csv(out["timing"], sep="\t")["class_set"].tolist() == ["standard", "standard", "refined"]


@pytest.mark.slow  # V_ind twice on the full deck and a refined abstraction built and solved: about three minutes
def test_the_refined_study_row_with_v_ind_and_the_bound(tmp_path):
    """A refined job and a standard job at 10 buckets with the exact best response and the bound
    by play: the refined files say so, 25 classes, the bound's interval holds its mean, the same
    deals for both (the same hands count and seed), and V_ind's exact difference is gathered."""
    import pandas as pd

    from poker51.stages import gather_abstraction_size, run_abstraction_size

    cfg = {"algorithm": "dcfr", "target_exploitability": 0.001, "check_first": 10, "check_growth": 1.25}
    study = {"p": 0.5, "iterations": 40, "evidence_hands": 12, "lbr_hands": 0, "bound_hands": 100_000,
             "bound_seed": 51026}  # fmt: skip
    files = {}
    for cs in ("standard", "refined"):
        files[cs] = {k: str(tmp_path / f"{cs}{suffix}") for k, suffix in (("table", ".parquet"),
                     ("hands", "_hands.parquet"), ("timing", ".tsv"), ("br", "_br.parquet"))}  # fmt: skip
        run_abstraction_size(10, {"belief_seed": 51, "belief_samples": 1000}, "config/population.yaml", None, cfg,
                             study, {"seed": 51006, "stack": 100}, {"seed": 51012, "particles": 16, "max_tries": 512},
                             files[cs], class_set=cs)  # fmt: skip
    ref = read_parquet(files["refined"]["br"]).iloc[0]
    std = read_parquet(files["standard"]["br"]).iloc[0]
    assert (ref["class_set"], ref["classes"], std["classes"]) == ("refined", 25, 19)
    for r in (ref, std):
        assert r["v_real_lower_ci_low"] <= r["v_real_lower"] <= r["v_real_lower_ci_high"]
        assert r["v_real_lower_hands"] == 100_000
    assert read_parquet(files["refined"]["table"])["class_set"].tolist() == ["refined"]
    assert set(read_parquet(files["refined"]["hands"])["class_set"]) == {"refined"}
    out = {"table": str(tmp_path / "all.parquet"), "timing": str(tmp_path / "all.tsv")}
    listed = {k: [f[k] for f in files.values()] for k in ("table", "timing", "hands", "br")}
    gather_abstraction_size(listed["table"], listed["timing"], listed["hands"], 10, out, br=listed["br"])
    df = read_parquet(out["table"])
    assert df["class_set"].tolist() == ["standard", "refined"]
    assert df["v_ind_vs_ref"].tolist() == pytest.approx([0.0, ref["v_ind"] - std["v_ind"]], abs=1e-15)
    assert (pd.read_csv(out["timing"], sep="\t")["class_set"] == ["standard", "refined"]).all()


# A solve job imports its stage module alone (docs/design-choices.md, "A job imports what it uses").
_IMPORTS = """
import sys
from poker51.stages import game_cache_dir, logged, provenance, {name}
watched = ("poker51.", "matplotlib", "scipy.sparse", "scipy.stats")
print(",".join(sorted(m for m in sys.modules if m.startswith(watched))))
"""


@pytest.mark.parametrize(
    ("name", "absent"),
    [
        ("run_solve", ["poker51.play", "poker51.multi", "poker51.rulebook", "poker51.figures", "poker51.census",
                       "matplotlib", "scipy.sparse", "scipy.stats"]),
        ("run_export", ["poker51.play", "poker51.multi", "poker51.rulebook", "poker51.figures", "poker51.solver.cfr",
                        "matplotlib", "scipy.stats"]),
        ("run_census", ["poker51.play", "poker51.solver", "poker51.games", "poker51.figures", "matplotlib"]),
    ],
)  # fmt: skip
def test_a_stage_imports_its_own_module_only(name, absent):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _IMPORTS.format(name=name)], capture_output=True, text=True, check=True)
    loaded = out.stdout.strip().split(",")
    assert f"poker51.stages.{name.removeprefix('run_')}" in loaded
    assert not [m for m in loaded if m.startswith(tuple(absent))]


def test_stage_names_resolve_to_their_modules():
    import importlib

    import poker51.stages as stages

    for name in stages.__all__:
        value = getattr(stages, name)
        home = importlib.import_module(getattr(value, "__module__", "poker51.stages.config"))
        assert getattr(home, name, value) is value, name
    assert set(stages.__all__) <= set(dir(stages))
    with pytest.raises(AttributeError, match="no attribute 'run_nothing'"):
        stages.run_nothing  # noqa: B018
