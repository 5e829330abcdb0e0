"""The solver comparison (``workflow/rules/solver_comparison.smk``): each algorithm timed on
each variant.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from poker51.io import read_parquet, write_parquet
from poker51.provenance import JBITS, PROBABILITY, table_metadata, units_for
from poker51.solver.passes import set_threads
from poker51.solver.schedule import CheckSchedule
from poker51.stages.common import Provenance, figures, gather, stem
from poker51.stages.solve import game_and_types
from poker51.study.comparison import compare_solver
from poker51.study.solve import WARM_CLOCK

_COMPARISON_UNITS = {"p": PROBABILITY, "iteration": "iterations of the row's algorithm",
                     **units_for(["exploitability", "target"], JBITS)}  # fmt: skip


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
    _, _, game, pop, types = game_and_types(abstraction_dir, variant, population, game_cache)
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
    figures().fig_solver_comparison(df, pd.read_csv(timing, sep="\t"), stem(out))
