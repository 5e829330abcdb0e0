"""Stage functions: what the thin Snakemake scripts (``workflow/scripts``) call, and nothing else.

Each takes plain paths and parameters (what ``snakemake.input``/``params`` hold), calls the
package and writes its outputs, so the workflow holds no logic and every stage can also be
run from Python.  The workflow imports only this module (and :mod:`poker51.rules` for names).
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import resource
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pandas as pd

from poker51.abstraction.tables import AbstractionArrays, AbstractionTables, build_abstraction
from poker51.census.claims import claims_markdown, claims_table
from poker51.census.count import census, counts_frame
from poker51.census.decks import named_deck
from poker51.census.orders import orders_frame
from poker51.census.removal import removal_table
from poker51.errors import ConfigError, InputError
from poker51.export.receipt import write_receipt
from poker51.export.rounding import rounding_report
from poker51.export.schema import ACTION_COLUMNS
from poker51.export.tables import strategy_table, to_json, write_table
from poker51.games.abstract import build_game, describe
from poker51.games.cache import cached_game
from poker51.games.population import Population, load_population
from poker51.io import canonical_json, read_metadata, read_parquet, write_json, write_parquet
from poker51.log import logged
from poker51.multi.stage import run_multi as simulate_tables
from poker51.play.abstraction_size import paired_differences, real_card_columns
from poker51.play.belief_claims import SPOT_DEFINITION, belief_claims, belief_claims_markdown, belief_spots
from poker51.play.evidence import HOLDOUT, evidence_hands, riemann_factory, summarize, v05_factory
from poker51.play.holdout import load_holdout
from poker51.play.lbr import LBR_UNIT, LBRScore, lbr_run, policy_model, summarize_lbr
from poker51.play.v05 import abstract_policy
from poker51.play.verify import VerifyReport, verify
from poker51.provenance import HANDS, JBITS, PROBABILITY, provenance, table_metadata, units_for
from poker51.rulebook.stage import run_rulebook_census
from poker51.slurm import ClusterJob, check_submission
from poker51.solver.passes import set_threads
from poker51.solver.schedule import CheckSchedule
from poker51.solver.tree import Game
from poker51.study.abstraction_size import STUDY_VARIANT, growth_of, solve_size
from poker51.study.comparison import compare_solver
from poker51.study.scores import score_table, value_bracket, variant_types
from poker51.study.solve import WARM_CLOCK, WarmStart, solve_table
from poker51.study.summary import strategy_summary
from poker51.validation import config_origin, validate

log = logging.getLogger("poker51.stages")


def _figures() -> Any:
    """:mod:`poker51.figures`, imported on first use: with matplotlib it costs about a second
    and a half of every job's start, and most jobs draw nothing."""
    from poker51 import figures

    return figures


Provenance = Mapping[str, Any] | None  # what poker51.provenance.provenance returns for the job

#: units of the census tables' columns
_COUNT_UNITS = {"count": HANDS, "with_marker": HANDS, "hands": HANDS, "probability": PROBABILITY}
_ORDER_UNITS = dict.fromkeys(("orders", "consistent_strict", "consistent_ties"), "category orders")
_CLAIM_UNITS = {"computed": "as the claim states it (JSON)", "stated": "as the claim states it (JSON)"}
_REMOVAL_UNITS = {
    **dict.fromkeys(("count", "hands", "count_full52"), HANDS),
    "probability": PROBABILITY,
    "probability_full52": PROBABILITY,
    "relative_change": "fraction: probability / probability_full52 - 1",
}
_CONVERGENCE_UNITS = {"p": PROBABILITY, "iteration": "iterations of solve.algorithm", **units_for(
    ["exploitability", "guarantee", "vs_population"], JBITS)}  # fmt: skip
_COMPARISON_UNITS = {"p": PROBABILITY, "iteration": "iterations of the row's algorithm",
                     **units_for(["exploitability", "target"], JBITS)}  # fmt: skip
_SUMMARY_UNITS = {"weight": "reach probability", "aggressive": PROBABILITY, "fold": PROBABILITY}


# --------------------------------------------------------------------------- census
def run_census(decks: Sequence[str], out: Mapping[str, str], provenance: Provenance = None) -> None:
    """``counts`` and ``orders`` of the named ``decks``, the rule card's ``claims`` (always on
    the named decks they are about) and ``claims_md``."""
    results = [census(named_deck(name)) for name in decks]
    claims = claims_table()
    decks = list(decks)
    write_parquet(counts_frame(results), out["counts"], metadata=table_metadata(provenance, _COUNT_UNITS, decks=decks))
    write_parquet(orders_frame(results), out["orders"], metadata=table_metadata(provenance, _ORDER_UNITS, decks=decks))
    write_parquet(claims, out["claims"], metadata=table_metadata(provenance, _CLAIM_UNITS, decks=decks))
    Path(out["claims_md"]).write_text(claims_markdown(claims))
    log.info("claims: %s", claims["verdict"].value_counts().to_dict())


def run_removal(out: str, provenance: Provenance = None) -> None:
    """The one-card removal table."""
    write_parquet(removal_table(), out, metadata=table_metadata(provenance, _REMOVAL_UNITS))


# --------------------------------------------------------------------------- abstraction
def run_abstraction(
    variant: str,
    out: Mapping[str, str],
    n_buckets: int,
    belief_seed: int,
    belief_samples: int,
    provenance: Provenance = None,
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
    tables.save(out, {**meta, **(provenance or {})})
    log.info(
        "abstraction %s: %d classes, %d buckets; stage seconds %s",
        variant,
        tables.n_classes,
        tables.n_buckets,
        {k: round(v, 2) for k, v in timings.items()},
    )


# --------------------------------------------------------------------------- solves and scores
def _game_and_types(
    abstraction_dir: str | Path, variant: str, population: str | Path, game_cache: str | None = None
) -> tuple[AbstractionTables, AbstractionArrays, Game, Population, np.ndarray]:
    """The variant's tables, arrays, game (from ``game_cache`` when it holds it:
    :mod:`poker51.games.cache`), population and the population's types as policies."""
    tables = AbstractionTables.load(abstraction_dir, variant)
    ab = tables.arrays()
    game = cached_game(ab, game_cache)
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
    warm_start: Sequence[str] = (),
    threads: int = 1,
    provenance: Provenance = None,
    game_cache: str | None = None,
) -> None:
    """Solve one table; write ``policy`` (.npy), ``convergence`` (.parquet), ``summary``
    (.json, deterministic, with the job's ``provenance`` for the tables computed from the
    policy), ``regret_mass`` (.npy: with the policy, where the next table's solve starts)
    and ``timing`` (.tsv, wall clock: not part of the receipt).  ``warm_start``: the
    ``regret_mass`` and ``policy`` files of the neighbouring table (empty: a cold start);
    ``threads``: Numba threads of the passes (the outputs are the same for any number)."""
    set_threads(threads)
    _, ab, game, pop, types = _game_and_types(abstraction_dir, variant, population, game_cache)
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
        warm_start=_warm_start(warm_start, int(solve_cfg.get("warm_clock", WARM_CLOCK))),
        progress=True,
    )
    Path(out["policy"]).parent.mkdir(parents=True, exist_ok=True)
    np.save(out["policy"], res.policy)
    res.state.save(out["regret_mass"])
    res.convergence.insert(0, "variant", variant)
    last = res.convergence.iloc[-1]
    meta = {"variant": variant, "p": p, "algorithm": solve_cfg["algorithm"], "iterations": res.iterations}
    write_parquet(res.convergence, out["convergence"], metadata=table_metadata(provenance, _CONVERGENCE_UNITS, **meta))
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
        "provenance": dict(provenance or {}),
    }
    write_json(summary, out["summary"])
    pd.DataFrame(res.timing, columns=["iteration", "seconds"]).to_csv(out["timing"], sep="\t", index=False)
    if not solve_cfg.get("keep_checkpoints", False):  # the solve finished: its checkpoint is spent
        for path in (Path(out["checkpoint"]), Path(out["checkpoint"]).with_suffix(".log.npy")):
            path.unlink(missing_ok=True)


def game_cache_dir(config: Mapping[str, Any]) -> str:
    """Where a run's jobs keep the built games (:mod:`poker51.games.cache`): ``cache/games``
    under the run's results folder (nothing there is a result; delete it at will)."""
    return f"{str(config['results']).rstrip('/')}/cache/games"


def _warm_start(files: Sequence[str], clock: int) -> WarmStart | None:
    """The neighbour's state from its ``regret_mass`` and ``policy`` files, or none (a cold start)."""
    if not files:
        return None
    mass, policy = files
    return WarmStart.load(mass, policy, clock)


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
    provenance: Provenance = None,
    game_cache: str | None = None,
) -> None:
    """Time one algorithm on one variant (:func:`poker51.study.comparison.compare_solver`):
    ``table`` (.parquet, deterministic) and ``timing`` (.tsv, wall clock)."""
    set_threads(threads)
    _, _, game, pop, types = _game_and_types(abstraction_dir, variant, population, game_cache)
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
        warm_clock=int(solve_cfg.get("warm_clock", WARM_CLOCK)),
    )
    meta = {"variant": variant, "algorithm": algorithm, "target": target}
    write_parquet(df, out["table"], metadata=table_metadata(provenance, _COMPARISON_UNITS, **meta))
    timing.to_csv(out["timing"], sep="\t", index=False)


def gather_solver_comparison(
    tables: Sequence[str], timings: Sequence[str], out: Mapping[str, str], provenance: Provenance = None
) -> None:
    """The measurements of every variant and algorithm in one table, the timings in one TSV."""
    gather(tables, out["table"], sort=["variant", "algorithm", "run", "iteration"], provenance=provenance)
    timing = pd.concat([pd.read_csv(t, sep="\t") for t in timings], ignore_index=True)
    timing.sort_values(["variant", "algorithm", "run", "iteration"], kind="stable").to_csv(
        out["timing"], sep="\t", index=False
    )


def solver_comparison_figure(table: str, timing: str, out: str) -> None:
    """Exploitability against iterations and time to target per algorithm (wall clock: the
    figure is not in the receipt)."""
    df = read_parquet(table)
    _figures().fig_solver_comparison(df, pd.read_csv(timing, sep="\t"), _stem(out))


def run_abstraction_size(
    buckets: int,
    abstraction_cfg: Mapping[str, Any],
    population: str,
    holdout: str | None,
    solve_cfg: Mapping[str, Any],
    study_cfg: Mapping[str, Any],
    evidence_cfg: Mapping[str, Any],
    lbr_cfg: Mapping[str, Any],
    out: Mapping[str, str],
    threads: int = 1,
    provenance: Provenance = None,
) -> None:
    """One bucket count of the abstraction-size study: the standard variant's abstraction with
    ``buckets`` buckets (built in the job, the abstraction stage's other settings), its Nash and
    p tables (:func:`poker51.study.abstraction_size.solve_size`), the p table's real-card results
    (:func:`poker51.play.abstraction_size.real_card_columns`): ``table`` (.parquet, one
    deterministic row) and ``timing`` (.tsv: wall-clock seconds and memory, not in the receipt)."""
    start = time.perf_counter()
    set_threads(threads)
    numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))  # type: ignore[attr-defined]
    tables = build_abstraction(
        STUDY_VARIANT,
        n_buckets=int(buckets),
        belief_seed=int(abstraction_cfg["belief_seed"]),
        belief_samples=int(abstraction_cfg["belief_samples"]),
        progress=False,
    )
    ab = tables.arrays()
    game = build_game(ab)
    log.info("abstraction size %d: %s", buckets, describe(game))
    pop = load_population(population)
    types = variant_types(game, ab, pop)
    target = solve_cfg.get("target_exploitability")
    built = time.perf_counter()
    solves = solve_size(
        game, ab, types, pop, float(study_cfg["p"]), algorithm=str(solve_cfg["algorithm"]),
        iterations=int(study_cfg["iterations"]), target=None if target is None else float(target),
        schedule=CheckSchedule(int(solve_cfg["check_first"]), float(solve_cfg["check_growth"])), progress=True,
        warm_clock=int(solve_cfg.get("warm_clock", WARM_CLOCK)),
    )  # fmt: skip
    solved = time.perf_counter()
    row = solves.columns()
    cards, deals = real_card_columns(
        tables, strategy_table(game, solves.rnr.policy, ab, STUDY_VARIANT), pop,
        load_holdout(holdout) if holdout else (), hands=int(study_cfg["evidence_hands"]),
        seed=int(evidence_cfg["seed"]), stack=int(evidence_cfg["stack"]), lbr_hands=int(study_cfg["lbr_hands"]),
        lbr_seed=int(lbr_cfg["seed"]), particles=int(lbr_cfg["particles"]), max_tries=int(lbr_cfg["max_tries"]),
        progress=True,
    )  # fmt: skip
    row |= cards
    played = time.perf_counter()
    df = pd.DataFrame([row])
    units = {
        "buckets": "buckets", "classes": "classes", "private_states": "classes + buckets",
        "infosets": "information sets", "actions": "actions", "p": PROBABILITY,
        **{c: "iterations" for c in df.columns if c.endswith("_iterations")},
        **{c: "deals" for c in df.columns if c.endswith("_hands")},
        **{c: LBR_UNIT for c in ("lbr_win", "lbr_win_ci_low", "lbr_win_ci_high")},
        **units_for([c for c in df.columns if c.startswith(("value_", "game_", "target", "pop_", "holdout_"))
                     or c.endswith(("_exploitability", "_guarantee", "_vs_population"))], JBITS),
    }  # fmt: skip
    meta = {"variant": STUDY_VARIANT, "buckets": int(buckets)}
    write_parquet(df, out["table"], metadata=table_metadata(provenance, units, **meta))
    deals.insert(0, "buckets", np.int64(buckets))
    deal_units = {"hand": "deal index", "net": f"{JBITS}; scope lbr: minus what the local best response wins"}
    write_parquet(deals, out["hands"], metadata=table_metadata(provenance, deal_units, **meta))
    timing = solves.timing() | {
        "build_seconds": built - start,
        "solve_seconds": solved - built,
        "real_card_seconds": played - solved,
        "job_seconds": time.perf_counter() - start,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    pd.DataFrame([timing]).to_csv(out["timing"], sep="\t", index=False)
    log.info("abstraction size %d: %s; %s", buckets, row, timing)


def gather_abstraction_size(
    tables: Sequence[str],
    timings: Sequence[str],
    hands: Sequence[str],
    reference: int,
    out: Mapping[str, str],
    provenance: Provenance = None,
) -> None:
    """Every bucket count's row in one table (sorted by buckets) with its paired real-card
    differences from the ``reference`` bucket count on the same deals
    (:func:`poker51.play.abstraction_size.paired_differences`), and the timings in one TSV;
    logs the fitted growth exponent of the solves' seconds per iteration."""
    df = pd.concat([read_parquet(p) for p in tables], ignore_index=True)
    df = df.sort_values("buckets", kind="stable").reset_index(drop=True)
    diffs = paired_differences(pd.concat([read_parquet(p) for p in hands], ignore_index=True), int(reference))
    df = df.merge(diffs, on="buckets", how="left", validate="one_to_one")
    df.insert(df.columns.get_loc("lbr_hands") + 1, "reference_buckets", np.int64(reference))
    units = {**(read_metadata(tables[0]).get("units", {}) if tables else {}), "reference_buckets": "buckets",
             **units_for([c for c in diffs.columns if "_vs_ref" in c], f"{JBITS}; minus the reference bucket count's, "
                         "same deals")}  # fmt: skip
    write_parquet(df, out["table"], metadata=table_metadata(provenance, units, reference_buckets=int(reference)))
    timing = pd.concat([pd.read_csv(t, sep="\t") for t in timings], ignore_index=True)
    timing = timing.sort_values("buckets", kind="stable").reset_index(drop=True)
    timing.to_csv(out["timing"], sep="\t", index=False)
    log.info(
        "abstraction size, CPU: %s; wall clock: %s", growth_of(timing).text(), growth_of(timing, clock="seconds").text()
    )


def abstraction_size_figure(table: str, out: str) -> None:
    """Value and real-card results against the bucket count (deterministic: in the receipt)."""
    _figures().fig_abstraction_size(read_parquet(table), _stem(out))


def abstraction_size_cost_figure(timing: str, out: str) -> None:
    """Seconds per iteration and memory against private states (wall clock: not in the receipt)."""
    _figures().fig_abstraction_size_cost(pd.read_csv(timing, sep="\t"), _stem(out))


def run_scores(
    variant: str,
    abstraction_dir: str,
    population: str,
    policies: Mapping[float, str],
    summaries: Mapping[float, str],
    table_p: float,
    out: str,
    strategy_out: str,
    provenance: Provenance = None,
    game_cache: str | None = None,
) -> None:
    """Score every solved table of one variant, plus the v0.5 policy, into one table;
    write the reach-weighted summary of the published table's strategy (heat maps)."""
    tables, ab, game, pop, types = _game_and_types(abstraction_dir, variant, population, game_cache)
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
    units = {"p": PROBABILITY, "iterations": "CFR+ iterations",
             **units_for(df.columns, JBITS, exclude=["variant", "table", "p", "iterations"])}  # fmt: skip
    write_parquet(df, out, metadata=table_metadata(provenance, units, variant=variant))
    summary = strategy_summary(game, np.load(policies[table_p]))
    summary["state"] = summary["state"].astype("int64")
    write_parquet(
        summary, strategy_out, metadata=table_metadata(provenance, _SUMMARY_UNITS, variant=variant, p=table_p)
    )


def gather(inputs: Sequence[str], out: str, sort: list[str], provenance: Provenance = None) -> None:
    """Concatenate per-variant tables into one, sorted; the units are those of the inputs."""
    df = pd.concat([read_parquet(p) for p in inputs], ignore_index=True)
    units = read_metadata(inputs[0]).get("units", {}) if inputs else {}
    write_parquet(df.sort_values(sort, kind="stable").reset_index(drop=True), out,
                  metadata=table_metadata(provenance, units))  # fmt: skip


def gather_scores(
    scores: Sequence[str],
    convergence: Sequence[str],
    timings: Sequence[str],
    solves: Sequence[tuple[str, float]],
    out: Mapping[str, str],
    provenance: Provenance = None,
    lbr: str | None = None,
) -> None:
    """``scores`` and ``convergence`` of every variant in one table each, and the solves'
    wall-clock timings (not reproducible, not in the receipt) in one TSV.  With ``lbr`` (the
    gathered local-best-response table) the rows of the published table (``rnr``) and of
    ``v0.5`` get what LBR wins from them (:meth:`LBRScore.columns`; NaN and 0 hands elsewhere)."""
    df = pd.concat([read_parquet(p) for p in scores], ignore_index=True)
    df = df.sort_values(["variant", "table", "p"], kind="stable").reset_index(drop=True)
    units = {**(read_metadata(scores[0]).get("units", {}) if scores else {}), **LBR_COLUMN_UNITS}
    write_parquet(add_lbr_columns(df, read_parquet(lbr) if lbr else None), out["scores"],
                  metadata=table_metadata(provenance, units))  # fmt: skip
    gather(convergence, out["convergence"], sort=["variant", "p", "iteration"], provenance=provenance)
    timing = [
        pd.read_csv(path, sep="\t").assign(variant=v, p=float(p)) for (v, p), path in zip(solves, timings, strict=True)
    ]
    pd.concat(timing, ignore_index=True).to_csv(out["timing"], sep="\t", index=False)


LBR_TABLE = {"v0.6": "rnr", "v0.5": "v0.5"}
LBR_COLUMN_UNITS = {**units_for(["lbr_win", "lbr_win_ci_low", "lbr_win_ci_high"], LBR_UNIT), "lbr_hands": "deals"}


def add_lbr_columns(scores: pd.DataFrame, lbr: pd.DataFrame | None) -> pd.DataFrame:
    """The scores with the LBR columns ``lbr_win``, ``lbr_win_ci_low``, ``lbr_win_ci_high``,
    ``lbr_hands`` (jbits per hand LBR wins; a lower bound on what a real opponent can win)."""
    out = scores.copy()
    cols = ["lbr_win", "lbr_win_ci_low", "lbr_win_ci_high"]
    for c in cols:
        out[c] = np.nan
    out["lbr_hands"] = 0
    for row in [] if lbr is None else lbr.itertuples(index=False):
        score = LBRScore(**row._asdict())
        hit = (out["variant"] == score.variant) & (out["table"] == LBR_TABLE[score.policy])
        for key, value in score.columns().items():
            out.loc[hit, key] = value
    out["lbr_hands"] = out["lbr_hands"].astype("int64")
    return out


#: config keys that shape no output: where the results go, and the solves' checkpoint
#: housekeeping (a resumed solve equals a fresh one).  They are left out of the config hash
#: and the receipt, and no rule has them as params, so changing one reruns nothing.
HOUSEKEEPING: tuple[tuple[str, ...], ...] = (
    ("results",), ("solve", "keep_checkpoints"), ("solve", "checkpoint_every"), ("solve", "threads")
)  # fmt: skip


def computed_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """``config`` without the :data:`HOUSEKEEPING` keys, maps sorted by key (a copy): the config
    that decides the computation, as the receipt records it.  Sorted, so that a rule param
    holding it does not change (and rerun the rule) when a config file's keys are reordered.

    >>> computed_config({"solve": {"p": 0.5, "keep_checkpoints": True}, "results": "r", "census": {}})
    {'census': {}, 'solve': {'p': 0.5}}
    """

    def tidy(node: Any, path: tuple[str, ...]) -> Any:
        if isinstance(node, Mapping):
            return {k: tidy(node[k], (*path, k)) for k in sorted(node) if (*path, k) not in HOUSEKEEPING}
        return copy.deepcopy(node)

    return tidy(config, ())


def config_hash(config: Mapping[str, Any]) -> str:
    """SHA-256 of :func:`computed_config`: the config that decides the computation (the output
    directory and checkpoint housekeeping do not)."""
    return hashlib.sha256(canonical_json(computed_config(config)).encode()).hexdigest()


def validate_config(
    config: dict[str, Any], schema: str | Path, files: Sequence[str | Path], overrides: Mapping[str, Any]
) -> None:
    """Check the workflow's ``config`` against ``schema`` (defaults filled in place), its
    population file against the population schema and its hold-out types file
    (:func:`poker51.play.holdout.load_holdout`), and that ``lbr.max_tries`` is at least
    ``lbr.particles``, before any rule runs.

    ``files``: the config files in the order Snakemake merged them (lowest precedence first);
    ``overrides``: the ``--config`` values.  Raises :class:`~poker51.errors.ConfigError`, one
    line naming the file and the key (``config/smoke.yaml: solve.iterations: expected integer,
    got 'many'``).
    """
    origin = config_origin(files, overrides)
    validate(config, schema, "config", origin=origin)
    load_population(config["population"])
    if config.get("holdout"):
        load_holdout(config["holdout"])
    lbr = config["lbr"]
    if lbr["max_tries"] < lbr["particles"]:
        where = origin(["lbr", "max_tries"])
        raise ConfigError(f"{where}: lbr.max_tries: {lbr['max_tries']} is below lbr.particles ({lbr['particles']})")


def check_slurm(jobs: Sequence[tuple[str, Any, Any]], status_command: str | None) -> str | None:
    """Before a SLURM run submits anything (the workflow's ``onstart``): every cluster job's
    ``(rule, slurm_partition, slurm_account)`` and the plugin's status command, checked against
    the cluster by :func:`poker51.slurm.check_submission`.  Returns ``None`` when the run can
    go ahead, else the one-line problem (the workflow prints it and exits 2)."""
    text = [(rule, str(p) if p else None, str(a) if a else None) for rule, p, a in jobs]
    try:
        check_submission([ClusterJob(*job) for job in text], status_command)
    except InputError as exc:
        return str(exc)
    return None


# --------------------------------------------------------------------------- export
def run_export(
    variant: str,
    abstraction_dir: str,
    policy: str,
    summary: str,
    out: Mapping[str, str],
    provenance: Mapping[str, Any],
    game_cache: str | None = None,
) -> None:
    """Write the published strategy table of one variant (Parquet and JSON)."""
    tables = AbstractionTables.load(abstraction_dir, variant)
    ab = tables.arrays()
    game = cached_game(ab, game_cache)
    s = json.loads(Path(summary).read_text())
    prov = {
        **provenance,
        "variant": variant,
        "p": s["p"],
        "iterations": s["iterations"],
        "exploitability": s["exploitability"],
        "algorithm": s["algorithm"],
        "units": {"h_bet": "jbits", **dict.fromkeys(ACTION_COLUMNS, PROBABILITY)},
    }
    df = strategy_table(game, np.load(policy), ab, variant)
    write_table(df, out["parquet"], prov)
    to_json(df, out["json"], prov, rounding_report(tables.classes, tables.buckets, variant))
    log.info("exported %s: %d information sets", variant, len(df))


def run_evidence(
    variant: str,
    abstraction_dir: str,
    table: str,
    population: str,
    holdout: str | None,
    hands: int,
    seed: int,
    stack: int,
    out: str,
    hands_out: str,
    provenance: Provenance = None,
) -> None:
    """v0.6 (the exported table) against v0.5, each against every training type and every
    hold-out type, on the same deals: the summary (``out``) and the per-hand nets (``hands_out``)."""
    tables = AbstractionTables.load(abstraction_dir, variant)
    per_hand = evidence_hands(
        riemann_factory(tables, strategy=table, variant=variant),
        v05_factory(tables),
        load_population(population),
        variant,
        hands,
        seed,
        stacks=stack,
        tables=tables,
        progress=True,
        holdout=load_holdout(holdout) if holdout else (),
    )
    meta = {"variant": variant, "hands": hands, "seed": seed, "stack": stack}
    hand_units = {"hand": "deal index", **units_for(["v0.6", "v0.5"], JBITS)}
    write_parquet(per_hand, hands_out, metadata=table_metadata(provenance, hand_units, **meta))
    units = {"hands": "deals per type and policy", "stack": "jbits", **units_for(
        ["mean", "sd", "se", "ci_low", "ci_high"], JBITS)}  # fmt: skip
    write_parquet(summarize(per_hand, seed), out, metadata=table_metadata(provenance, units, **meta))


def gather_evidence(inputs: Sequence[str], out: str, figure: str, provenance: Provenance = None) -> None:
    """The evidence of every variant in one table, and its figure (hold-out types marked)."""
    gather(inputs, out, sort=["variant", "population", "type", "policy"], provenance=provenance)
    df = read_parquet(out)
    df["type"] = np.where(df["population"] == HOLDOUT, df["type"] + " (hold-out)", df["type"])
    _figures().fig_evidence(df, _stem(figure))


# --------------------------------------------------------------------------- real-card studies
def run_lbr(
    variant: str,
    policy: str,
    abstraction_dir: str,
    table: str | None,
    hands: int,
    seed: int,
    particles: int,
    max_tries: int,
    out: str,
    threads: int = 1,
    provenance: Provenance = None,
) -> None:
    """The local best response against one policy of one variant: per-hand results."""
    numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))  # type: ignore[attr-defined]
    tables = AbstractionTables.load(abstraction_dir, variant)
    model = policy_model(policy, variant, tables, table)
    df = lbr_run(model, variant, policy, hands, seed, particles, max_tries, progress=True)
    meta = {"variant": variant, "policy": policy, "hands": hands, "seed": seed, "particles": particles}
    units = {"hand": "deal index", "net": LBR_UNIT, "fallbacks": "decisions", "particles": "candidate hands"}
    write_parquet(df, out, metadata=table_metadata(provenance, units, **meta, max_tries=max_tries))
    score = summarize_lbr(df, seed, particles, max_tries)[0]
    log.info("lbr %s %s: LBR wins %.3f [%.3f, %.3f] jbits/hand over %d hands", variant, policy, score.mean,
             score.ci_low, score.ci_high, score.hands)  # fmt: skip


def gather_lbr(inputs: Sequence[str], out: str, provenance: Provenance = None) -> None:
    """One row per (variant, policy): what LBR wins, with its 95% interval (:class:`LBRScore`)."""
    rows = []
    for path in inputs:
        df, meta = read_parquet(path), read_metadata(path)
        rows += [s.row() for s in summarize_lbr(df, int(meta["seed"]), int(meta["particles"]), int(meta["max_tries"]))]
    df = pd.DataFrame(rows).sort_values(["variant", "policy"], kind="stable").reset_index(drop=True)
    units = {**units_for(["mean", "sd", "se", "ci_low", "ci_high"], LBR_UNIT), "hands": "deals", "fallbacks": "deals"}
    write_parquet(df, out, metadata=table_metadata(provenance, units))


def run_belief_spots(
    variant: str,
    abstraction_dir: str,
    standard_dir: str,
    population: str,
    spots: int,
    seed: int,
    out: str,
    provenance: Provenance = None,
) -> None:
    """The after-draw decisions of v0.5 in one variant, with its own and with the standard belief table."""
    tables = AbstractionTables.load(abstraction_dir, variant)
    standard = AbstractionTables.load(standard_dir, "standard").belief_array()
    df = belief_spots(variant, tables, standard, load_population(population), spots, seed)
    units = {"read_own": "read (0..1)", "read_standard": "read (0..1)"}
    write_parquet(df, out, metadata=table_metadata(provenance, units, variant=variant, spots=spots, seed=seed))


def run_belief_claims(spots: Sequence[str], out: str, out_md: str, provenance: Provenance = None) -> None:
    """The rule card's belief-table claims, recomputed (next to the census claims)."""
    frames = {str(read_parquet(p)["variant"].iloc[0]): read_parquet(p) for p in spots}
    claims = belief_claims(frames)
    write_parquet(claims, out, metadata=table_metadata(provenance, {}))
    Path(out_md).write_text(belief_claims_markdown(claims, SPOT_DEFINITION))
    log.info("belief claims: %s", dict(zip(claims["claim_id"], claims["verdict"])))


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


# --------------------------------------------------------------------------- report
def headline_tables(scores: str, evidence: str, claims: str, out: Mapping[str, str]) -> None:
    """The headline tables as HTML pages for ``snakemake --report``."""
    from poker51.figures import headline

    headline.write_html(
        headline.headline_scores(read_parquet(scores)),
        out["scores"],
        "Scores: Riemann's value in jbits per hand",
        "value of the game = [low, high]; guarantee = the table against a best-responding human; "
        "vs population = against the configured mix of player types.",
    )
    headline.write_html(
        headline.headline_evidence(read_parquet(evidence)),
        out["evidence"],
        "Evidence: v0.6 against v0.5 on real-card deals",
        "Riemann's mean jbits per hand [95% CI]; the difference is paired (the same deals).",
    )
    headline.write_html(headline.headline_claims(read_parquet(claims)), out["claims"], "The rule card's census claims")


# --------------------------------------------------------------------------- figures
def _stem(path: str) -> str:
    """``results/figures/x.pdf`` -> ``results/figures/x``."""
    return str(Path(path).with_suffix(""))


def census_figure(counts: str, out: str) -> None:
    _figures().fig_census_frequencies(read_parquet(counts), _stem(out))


def removal_figure(removal: str, out: str) -> None:
    _figures().fig_removal_heatmap(read_parquet(removal), _stem(out))


def abstraction_figure(
    variants: Sequence[str], classes: Sequence[str], buckets: Sequence[str], transitions: Sequence[str], out: str
) -> None:
    def read(paths: Sequence[str]) -> dict[str, pd.DataFrame]:
        return {v: read_parquet(p) for v, p in zip(variants, paths, strict=True)}

    _figures().fig_classes_buckets(read(classes), read(buckets), read(transitions), _stem(out))


def score_figures(convergence: str, timing: str, scores: str, out: Mapping[str, str]) -> None:
    """Convergence against iterations and seconds, and the frontier."""
    conv = read_parquet(convergence)
    _figures().fig_convergence(conv, _stem(out["convergence"]))
    timed = conv.merge(pd.read_csv(timing, sep="\t"), on=["variant", "p", "iteration"])
    _figures().fig_convergence(timed, _stem(out["convergence_time"]), x="seconds")
    _figures().fig_frontier(read_parquet(scores), _stem(out["frontier"]))


_MULTI_UNITS = {
    **units_for(["net_people", "net_people_lo", "net_people_hi"], "jbits per hand"),
    **units_for(["abit_score", "abit_score_lo", "abit_score_hi"], "abits per hand"),
    **units_for(["riemann_abits", "riemann_abits_lo", "riemann_abits_hi"], "abits per hand"),
    **units_for(["tables", "hands"], "count"),
}


def run_multi(
    population: str, out_sim: str, out_audit: str, settings: Mapping[str, Any], belief_seed: int,
    belief_samples: int, threads: int, provenance: Provenance = None,
) -> None:  # fmt: skip
    """The five-seat tables (:mod:`poker51.multi.stage`): ``sim.parquet`` with its provenance
    and units, and the conservation audit."""
    simulate_tables(
        population, out_sim, out_audit, belief_seed=belief_seed, belief_samples=belief_samples, threads=threads,
        metadata=table_metadata(provenance, _MULTI_UNITS), **settings,
    )  # fmt: skip


def multi_figure(sim: str, out: str) -> None:
    """The five-seat tables figure of ``sim.parquet``."""
    _figures().fig_multi(read_parquet(sim), _stem(out))


def rulebook_figure(table: str, out: str) -> None:
    """The rule book's games next to Poker 51, from ``results/rulebook/census.parquet``."""
    _figures().fig_rulebook_census(read_parquet(table), _stem(out))


def strategy_figure(variant: str, p: float, strategy: str, classes: str, buckets: str, out: str) -> None:
    class_table = read_parquet(classes).sort_values("class")
    _figures().fig_strategy(
        read_parquet(strategy),
        list(class_table["name"]),
        len(read_parquet(buckets)),
        f"Riemann v0.6, {variant}, restricted Nash response p = {p:g}",
        _stem(out),
    )


__all__ = [
    "ConfigError", "HOUSEKEEPING", "abstraction_figure", "abstraction_size_cost_figure", "abstraction_size_figure",
    "add_lbr_columns", "census_figure", "computed_config", "config_hash", "gather", "gather_abstraction_size",
    "gather_evidence", "gather_lbr", "gather_scores", "gather_solver_comparison", "headline_tables", "logged",
    "multi_figure", "provenance", "removal_figure", "rulebook_figure", "run_abstraction", "run_abstraction_size",
    "run_belief_claims", "run_belief_spots", "run_census", "run_evidence", "run_export", "run_lbr", "run_multi",
    "run_receipt", "run_removal", "run_rulebook_census", "run_scores", "run_solve", "run_solver_comparison",
    "run_verify", "score_figures", "solver_comparison_figure", "strategy_figure", "validate_config",
]  # fmt: skip
