"""Stage functions: what the thin Snakemake scripts (``workflow/scripts``) call, and nothing else.

Each takes plain paths and parameters (what ``snakemake.input``/``params`` hold), calls the
package and writes its outputs, so the workflow holds no logic and every stage can also be
run from Python.  The workflow imports only this module (and :mod:`poker51.rules` for names).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from poker51 import figures
from poker51.abstraction.tables import AbstractionArrays, AbstractionTables, build_abstraction
from poker51.census.claims import claims_markdown, claims_table
from poker51.census.count import census, counts_frame
from poker51.census.decks import named_deck
from poker51.census.orders import orders_frame
from poker51.census.removal import removal_table
from poker51.export.receipt import write_receipt
from poker51.export.tables import strategy_table, to_json, write_table
from poker51.games.abstract import build_game, describe
from poker51.games.population import Population, load_population
from poker51.io import canonical_json, read_parquet, write_json, write_parquet
from poker51.log import logged
from poker51.play.evidence import evidence_run, riemann_factory, v05_factory
from poker51.play.v05 import abstract_policy
from poker51.play.verify import VerifyReport, verify
from poker51.solver.passes import set_threads
from poker51.solver.schedule import CheckSchedule
from poker51.solver.tree import Game
from poker51.study.comparison import compare_solver
from poker51.study.scores import score_table, value_bracket, variant_types
from poker51.study.solve import WarmStart, solve_table
from poker51.study.summary import strategy_summary

log = logging.getLogger("poker51.stages")


# --------------------------------------------------------------------------- census
def run_census(decks: Sequence[str], out: Mapping[str, str]) -> None:
    """``counts`` and ``orders`` of the named ``decks``, the rule card's ``claims`` (always on
    the named decks they are about) and ``claims_md``."""
    results = [census(named_deck(name)) for name in decks]
    claims = claims_table()
    meta = {"decks": list(decks)}
    write_parquet(counts_frame(results), out["counts"], metadata=meta)
    write_parquet(orders_frame(results), out["orders"], metadata=meta)
    write_parquet(claims, out["claims"], metadata=meta)
    Path(out["claims_md"]).write_text(claims_markdown(claims))
    log.info("claims: %s", claims["verdict"].value_counts().to_dict())


def run_removal(out: str) -> None:
    """The one-card removal table."""
    write_parquet(removal_table(), out)


# --------------------------------------------------------------------------- abstraction
def run_abstraction(
    variant: str, out: Mapping[str, str], n_buckets: int, belief_seed: int, belief_samples: int
) -> None:
    """Write ``classes``, ``buckets``, ``transitions``, ``belief`` tables of one variant."""
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
    tables.save(out, meta)
    log.info(
        "abstraction %s: %d classes, %d buckets; stage seconds %s",
        variant,
        tables.n_classes,
        tables.n_buckets,
        {k: round(v, 2) for k, v in timings.items()},
    )


# --------------------------------------------------------------------------- solves and scores
def _game_and_types(
    abstraction_dir: str | Path, variant: str, population: str | Path
) -> tuple[AbstractionTables, AbstractionArrays, Game, Population, np.ndarray]:
    tables = AbstractionTables.load(abstraction_dir, variant)
    ab = tables.arrays()
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
    warm_start: str | None = None,
    threads: int = 1,
) -> None:
    """Solve one table; write ``policy`` (.npy), ``convergence`` (.parquet), ``summary``
    (.json, deterministic), ``state`` (.npy, where a neighbouring table's solve starts) and
    ``timing`` (.tsv, wall clock: not part of the receipt).  ``warm_start``: the ``state``
    of the neighbouring table (None: a cold start); ``threads``: Numba threads of the
    passes (the outputs are the same for any number)."""
    set_threads(threads)
    _, ab, game, pop, types = _game_and_types(abstraction_dir, variant, population)
    res = solve_table(
        game,
        types,
        pop.weights,
        p,
        algorithm=solve_cfg["algorithm"],
        iterations=iterations,
        target_exploitability=solve_cfg.get("target_exploitability"),
        schedule=CheckSchedule(int(solve_cfg["check_first"]), float(solve_cfg["check_growth"])),
        checkpoint=out["checkpoint"],
        checkpoint_every=solve_cfg["checkpoint_every"],
        warm_start=WarmStart.load(warm_start) if warm_start else None,
        progress=True,
    )
    Path(out["policy"]).parent.mkdir(parents=True, exist_ok=True)
    np.save(out["policy"], res.policy)
    res.state.save(out["state"])
    res.convergence.insert(0, "variant", variant)
    last = res.convergence.iloc[-1]
    meta = {"variant": variant, "p": p, "algorithm": solve_cfg["algorithm"], "iterations": res.iterations}
    write_parquet(res.convergence, out["convergence"], metadata=meta)
    target = solve_cfg.get("target_exploitability")
    summary = {
        **meta,
        "exploitability": float(last["exploitability"]),
        "guarantee": float(last["guarantee"]),
        "target_exploitability": target,
        "reached_target": bool(target is not None and float(last["exploitability"]) <= target),
        "warm_start": bool(warm_start),
        "game": game.name,
        "num_infosets": game.num_infosets,
        "num_actions": game.num_actions,
    }
    write_json(summary, out["summary"])
    pd.DataFrame(res.timing, columns=["iteration", "seconds"]).to_csv(out["timing"], sep="\t", index=False)
    if not solve_cfg.get("keep_checkpoints", False):  # the solve finished: its checkpoint is spent
        for path in (Path(out["checkpoint"]), Path(out["checkpoint"]).with_suffix(".log.npy")):
            path.unlink(missing_ok=True)


def run_solver_comparison(
    variant: str,
    algorithm: str,
    abstraction_dir: str,
    population: str,
    solve_cfg: Mapping[str, Any],
    iterations: int,
    warm_p: float,
    out: Mapping[str, str],
    threads: int = 1,
) -> None:
    """Time one algorithm on one variant (:func:`poker51.study.comparison.compare_solver`):
    ``table`` (.parquet, deterministic) and ``timing`` (.tsv, wall clock)."""
    set_threads(threads)
    _, _, game, pop, types = _game_and_types(abstraction_dir, variant, population)
    target = solve_cfg.get("target_exploitability")
    df, timing = compare_solver(
        game,
        types,
        pop.weights,
        variant,
        algorithm,
        target=float(target) if target is not None else 0.0,
        iterations=iterations,
        warm_p=warm_p,
        schedule=CheckSchedule(int(solve_cfg["check_first"]), float(solve_cfg["check_growth"])),
    )
    write_parquet(df, out["table"], metadata={"variant": variant, "algorithm": algorithm, "target": target})
    timing.to_csv(out["timing"], sep="\t", index=False)


def gather_solver_comparison(tables: Sequence[str], timings: Sequence[str], out: Mapping[str, str]) -> None:
    """The measurements of every variant and algorithm in one table, the timings in one TSV."""
    gather(tables, out["table"], sort=["variant", "algorithm", "run", "iteration"])
    timing = pd.concat([pd.read_csv(t, sep="\t") for t in timings], ignore_index=True)
    timing.sort_values(["variant", "algorithm", "run", "iteration"], kind="stable").to_csv(
        out["timing"], sep="\t", index=False
    )


def solver_comparison_figure(table: str, timing: str, out: str) -> None:
    """Exploitability against iterations and time to target per algorithm (wall clock: the
    figure is not in the receipt)."""
    df = read_parquet(table)
    figures.fig_solver_comparison(df, pd.read_csv(timing, sep="\t"), _stem(out))


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
    tables, ab, game, pop, types = _game_and_types(abstraction_dir, variant, population)
    bracket = value_bracket(game, np.load(policies[0.0])).columns()
    rows = []
    for p in sorted(policies):
        summary = json.loads(Path(summaries[p]).read_text())
        name = "nash" if p == 0 else ("rnr" if p == table_p else "sweep")
        score = score_table(game, np.load(policies[p]), types, pop)
        rows.append(
            {
                "variant": variant,
                "table": name,
                "p": float(p),
                **bracket,
                **score.columns(),
                "iterations": int(summary["iterations"]),
                "exploitability": float(summary["exploitability"]),
            }
        )
    v05 = score_table(game, abstract_policy(game, ab, tables), types, pop)
    rows.append(
        {
            "variant": variant,
            "table": "v0.5",
            "p": float("nan"),
            **bracket,
            **v05.columns(),
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


def gather(inputs: Sequence[str], out: str, sort: list[str]) -> None:
    """Concatenate per-variant tables into one, sorted."""
    df = pd.concat([read_parquet(p) for p in inputs], ignore_index=True)
    write_parquet(df.sort_values(sort, kind="stable").reset_index(drop=True), out)


def gather_scores(
    scores: Sequence[str],
    convergence: Sequence[str],
    timings: Sequence[str],
    solves: Sequence[tuple[str, float]],
    out: Mapping[str, str],
) -> None:
    """``scores`` and ``convergence`` of every variant in one table each, and the solves'
    wall-clock timings (not reproducible, not in the receipt) in one TSV."""
    gather(scores, out["scores"], sort=["variant", "table", "p"])
    gather(convergence, out["convergence"], sort=["variant", "p", "iteration"])
    timing = [
        pd.read_csv(path, sep="\t").assign(variant=v, p=float(p)) for (v, p), path in zip(solves, timings, strict=True)
    ]
    pd.concat(timing, ignore_index=True).to_csv(out["timing"], sep="\t", index=False)


def config_hash(config: Mapping[str, Any]) -> str:
    """SHA-256 of the config that decides the computation (the output directory does not)."""
    computed = {k: v for k, v in config.items() if k != "results"}
    return hashlib.sha256(canonical_json(computed).encode()).hexdigest()


# --------------------------------------------------------------------------- export
def run_export(
    variant: str, abstraction_dir: str, policy: str, summary: str, out: Mapping[str, str], provenance: Mapping[str, Any]
) -> None:
    """Write the published strategy table of one variant (Parquet and JSON)."""
    ab = AbstractionTables.load(abstraction_dir, variant).arrays()
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
    variant: str, abstraction_dir: str, table: str, population: str, hands: int, seed: int, stack: int, out: str
) -> None:
    """v0.6 (the exported table) against v0.5, each against each type, on the same deals."""
    tables = AbstractionTables.load(abstraction_dir, variant)
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


def gather_evidence(inputs: Sequence[str], out: str, figure: str) -> None:
    """The evidence of every variant in one table, and its figure."""
    gather(inputs, out, sort=["variant", "type", "policy"])
    figures.fig_evidence(read_parquet(out), _stem(figure))


def run_receipt(out: str, files: Sequence[str], config: Mapping[str, Any], seeds: Mapping[str, Any]) -> None:
    """The receipt of every reproducible file."""
    write_receipt(out, list(files), dict(config), dict(seeds))


def run_verify(tables: Sequence[str], receipt: str, hands: int, seed: int, abstraction_root: str, out: str) -> None:
    """The v0.6 verifier; a failed check stops the workflow after writing its report."""
    report: VerifyReport = verify(
        list(tables), receipt, hands_per_variant=hands, seed=seed, abstraction=abstraction_root, out=out, progress=True
    )
    log.info("verify: %s", {k: v for k, v in report.to_json().items() if k != "examples"})
    if not report.passed:
        raise SystemExit(f"verify failed: see {out}")


# --------------------------------------------------------------------------- figures
def _stem(path: str) -> str:
    """``results/figures/x.pdf`` -> ``results/figures/x``."""
    return str(Path(path).with_suffix(""))


def census_figure(counts: str, out: str) -> None:
    figures.fig_census_frequencies(read_parquet(counts), _stem(out))


def removal_figure(removal: str, out: str) -> None:
    figures.fig_removal_heatmap(read_parquet(removal), _stem(out))


def abstraction_figure(variants: Sequence[str], classes: Sequence[str], buckets: Sequence[str], out: str) -> None:
    figures.fig_classes_buckets(
        {v: read_parquet(p) for v, p in zip(variants, classes, strict=True)},
        {v: read_parquet(p) for v, p in zip(variants, buckets, strict=True)},
        _stem(out),
    )


def score_figures(convergence: str, timing: str, scores: str, out: Mapping[str, str]) -> None:
    """Convergence against iterations and seconds, and the frontier."""
    conv = read_parquet(convergence)
    figures.fig_convergence(conv, _stem(out["convergence"]))
    timed = conv.merge(pd.read_csv(timing, sep="\t"), on=["variant", "p", "iteration"])
    figures.fig_convergence(timed, _stem(out["convergence_time"]), x="seconds")
    figures.fig_frontier(read_parquet(scores), _stem(out["frontier"]))


def strategy_figure(variant: str, p: float, strategy: str, classes: str, buckets: str, out: str) -> None:
    class_table = read_parquet(classes).sort_values("class")
    figures.fig_strategy(
        read_parquet(strategy),
        list(class_table["name"]),
        len(read_parquet(buckets)),
        f"Riemann v0.6, {variant}, restricted Nash response p = {p:g}",
        _stem(out),
    )


__all__ = [
    "abstraction_figure", "census_figure", "config_hash", "gather", "gather_evidence", "gather_scores", "logged",
    "removal_figure", "run_abstraction", "run_census", "run_evidence", "run_export", "run_receipt", "run_removal",
    "run_scores", "run_solve", "run_verify", "score_figures", "strategy_figure", "run_solver_comparison",
    "gather_solver_comparison", "solver_comparison_figure",
]  # fmt: skip
