"""Stage 3, the solves (``workflow/rules/solve.smk``): one restricted Nash response per job."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from poker51.abstraction.tables import AbstractionArrays, AbstractionTables
from poker51.games.abstract import describe
from poker51.games.cache import cached_game
from poker51.games.population import Population, load_population
from poker51.io import write_json, write_parquet
from poker51.provenance import JBITS, PROBABILITY, table_metadata, units_for
from poker51.solver.passes import set_threads
from poker51.solver.schedule import CheckSchedule
from poker51.solver.tree import Game
from poker51.stages.common import Provenance
from poker51.study.scores import variant_types
from poker51.study.solve import WARM_CLOCK, WarmStart, solve_table

log = logging.getLogger("poker51.stages")


def game_and_types(
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


_CONVERGENCE_UNITS = {"p": PROBABILITY, "iteration": "iterations of solve.algorithm", **units_for(
    ["exploitability", "guarantee", "vs_population"], JBITS)}  # fmt: skip


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
    _, ab, game, pop, types = game_and_types(abstraction_dir, variant, population, game_cache)
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


def _warm_start(files: Sequence[str], clock: int) -> WarmStart | None:
    """The neighbour's state from its ``regret_mass`` and ``policy`` files, or none (a cold start)."""
    if not files:
        return None
    mass, policy = files
    return WarmStart.load(mass, policy, clock)
