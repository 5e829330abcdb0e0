"""Stage functions called by the thin Snakemake scripts (``workflow/scripts``).

Each takes plain paths and parameters (what ``snakemake.input``/``params`` hold),
calls the package and writes its outputs, so the workflow holds no logic and every
stage can also be run from Python.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from poker51.io import canonical_json, read_parquet, write_json, write_parquet

log = logging.getLogger("poker51.stages")


def run_abstraction(
    variant: str, out: Mapping[str, str], n_buckets: int, belief_seed: int, belief_samples: int
) -> None:
    """Write ``classes``, ``buckets``, ``transitions``, ``belief`` tables of one variant."""
    from poker51.abstraction.classes import build_abstraction

    timings: dict[str, float] = {}
    tables = build_abstraction(
        variant,
        n_buckets=n_buckets,
        belief_seed=belief_seed,
        belief_samples=belief_samples,
        progress=True,
        timings=timings,
    )
    meta = {"variant": variant, "n_buckets": n_buckets, "belief_seed": belief_seed, "belief_samples": belief_samples}
    for name, df in tables.items():
        write_parquet(df, out[name], metadata=meta)
    log.info(
        "abstraction %s: %d classes, %d buckets; stage seconds %s",
        variant,
        len(tables["classes"]),
        len(tables["buckets"]),
        {k: round(v, 2) for k, v in timings.items()},
    )


def _game_and_types(abstraction_dir: str | Path, variant: str, population: str | Path):
    from poker51.games.abstract import build_game, describe
    from poker51.games.population import load_population
    from poker51.study.solve import load_abstraction, variant_types

    tables, ab = load_abstraction(abstraction_dir, variant)
    game = build_game(ab)
    log.info("game %s: %s", variant, describe(game))
    pop = load_population(population)
    return tables, ab, game, pop, variant_types(game, ab, pop)


def run_solve(
    variant: str,
    p: float,
    abstraction_dir: str,
    population: str,
    out: Mapping[str, str],
    solve_cfg: Mapping[str, Any],
    iterations: int,
) -> None:
    """Solve one table; write ``policy`` (.npy), ``convergence`` (.parquet), ``summary``
    (.json, deterministic) and ``timing`` (.tsv, wall clock: not part of the receipt)."""
    from poker51.study.solve import solve_table

    _, ab, game, pop, types = _game_and_types(abstraction_dir, variant, population)
    res = solve_table(
        game,
        types,
        pop.weights,
        p,
        algorithm=solve_cfg["algorithm"],
        iterations=iterations,
        target_exploitability=solve_cfg.get("target_exploitability"),
        check_every=solve_cfg["check_every"],
        checkpoint=out["checkpoint"],
        checkpoint_every=solve_cfg["checkpoint_every"],
        progress=True,
    )
    Path(out["policy"]).parent.mkdir(parents=True, exist_ok=True)
    np.save(out["policy"], res.policy)
    res.convergence.insert(0, "variant", variant)
    last = res.convergence.iloc[-1]
    meta = {"variant": variant, "p": p, "algorithm": solve_cfg["algorithm"], "iterations": res.iterations}
    write_parquet(res.convergence, out["convergence"], metadata=meta)
    write_json(
        {
            **meta,
            "exploitability": float(last["exploitability"]),
            "guarantee": float(last["guarantee"]),
            "game": game.name,
            "num_infosets": game.num_infosets,
            "num_actions": game.num_actions,
        },
        out["summary"],
    )
    pd.DataFrame(res.timing, columns=["iteration", "seconds"]).to_csv(out["timing"], sep="\t", index=False)
    if not solve_cfg.get("keep_checkpoints", False):  # the solve finished: its checkpoint is spent
        for path in (Path(out["checkpoint"]), Path(out["checkpoint"]).with_suffix(".log.npy")):
            path.unlink(missing_ok=True)


def run_scores(
    variant: str,
    abstraction_dir: str,
    population: str,
    policies: Mapping[float, str],
    summaries: Mapping[float, str],
    table_p: float,
    out: str,
    strategy_out: str,
) -> None:
    """Score every solved table of one variant, plus the v0.5 policy, into one table;
    write the reach-weighted summary of the published table's strategy (heat maps)."""
    from poker51.figures_study import strategy_summary
    from poker51.play.v05 import abstract_policy
    from poker51.study.solve import recall_upper_bound, score_table, value_bracket

    tables, ab, game, pop, types = _game_and_types(abstraction_dir, variant, population)
    nash = np.load(policies[0.0])
    low, high = value_bracket(game, nash)
    bracket = {
        "value_low": low,
        "value_high": high,
        "value_high_recall": recall_upper_bound(game, nash),
        "game_exploitability": 0.5 * (high - low),
    }
    rows = []
    for p in sorted(policies):
        pol = np.load(policies[p])
        summary = json.loads(Path(summaries[p]).read_text())
        name = "nash" if p == 0 else ("rnr" if p == table_p else "sweep")
        rows.append(
            {
                "variant": variant,
                "table": name,
                "p": float(p),
                **bracket,
                **score_table(game, pol, types, pop),
                "iterations": int(summary["iterations"]),
                "exploitability": float(summary["exploitability"]),
            }
        )
    v05 = abstract_policy(game, ab, tables)
    rows.append(
        {
            "variant": variant,
            "table": "v0.5",
            "p": float("nan"),
            **bracket,
            **score_table(game, v05, types, pop),
            "iterations": 0,
            "exploitability": float("nan"),
        }
    )
    df = pd.DataFrame(rows)
    df["br_gain"] = -df["guarantee"]
    write_parquet(df, out, metadata={"variant": variant})
    summary = strategy_summary(game, np.load(policies[table_p]))
    summary["state"] = summary["state"].astype("int64")
    write_parquet(summary, strategy_out, metadata={"variant": variant, "p": table_p})


def gather(inputs: list[str], out: str, sort: list[str]) -> None:
    """Concatenate per-variant tables into one, sorted."""
    df = pd.concat([read_parquet(p) for p in inputs], ignore_index=True)
    write_parquet(df.sort_values(sort, kind="stable").reset_index(drop=True), out)


def config_hash(config: Mapping[str, Any]) -> str:
    """SHA-256 of the config that decides the computation (the output directory does not)."""
    import hashlib

    computed = {k: v for k, v in config.items() if k != "results"}
    return hashlib.sha256(canonical_json(computed).encode()).hexdigest()


def run_export(
    variant: str, abstraction_dir: str, policy: str, summary: str, out: Mapping[str, str], provenance: Mapping[str, Any]
) -> None:
    """Write the published strategy table of one variant (Parquet and JSON)."""
    from poker51.export.tables import strategy_table, to_json, write_table
    from poker51.games.abstract import build_game
    from poker51.study.solve import load_abstraction

    _, ab = load_abstraction(abstraction_dir, variant)
    game = build_game(ab)
    s = json.loads(Path(summary).read_text())
    prov = {
        **provenance,
        "variant": variant,
        "p": s["p"],
        "iterations": s["iterations"],
        "exploitability": s["exploitability"],
        "algorithm": s["algorithm"],
    }
    df = strategy_table(game, np.load(policy), ab, variant)
    write_table(df, out["parquet"], prov)
    to_json(df, out["json"], prov)
    log.info("exported %s: %d information sets", variant, len(df))


def run_evidence(
    variant: str, results_dir: str, table: str, population: str, hands: int, seed: int, stack: int, out: str
) -> None:
    """v0.6 (the exported table) against v0.5, each against each type, on the same deals."""
    from poker51.games.population import load_population
    from poker51.play.evidence import evidence_run, load_tables, riemann_factory, v05_factory

    tables = load_tables(variant, results_dir)
    df = evidence_run(
        riemann_factory(tables, strategy=table, variant=variant),
        v05_factory(tables),
        load_population(population),
        variant,
        hands,
        seed,
        stacks=stack,
        tables=tables,
        progress=True,
    )
    write_parquet(df, out, metadata={"variant": variant, "hands": hands, "seed": seed, "stack": stack})


from poker51.rulebook.stage import run_rulebook_census  # noqa: E402,F401  (rule book stage, issue 11)
