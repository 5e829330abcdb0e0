"""Which regret minimiser solves Poker 51 fastest: the measurement behind ``solve.algorithm``.

For one variant and one algorithm, :func:`compare_solver` runs three solves to the target
(jbits per hand), each through :func:`poker51.study.solve.solve_table` with the pipeline's
check schedule, so the times include the checks:

* ``nash``: the Nash table (p = 0) from scratch;
* ``cold``: the restricted Nash response at ``warm_p`` (a frontier table) from scratch;
* ``warm``: the same table started from the Nash solve's final state
  (:class:`~poker51.study.solve.WarmStart`, its clock at ``warm_clock``), as the pipeline's
  frontier chain does.

Every check is one row: the iterations and exploitabilities are deterministic (the
measurement table, in the receipt); the seconds since the solve began are wall clock and
go to a separate table (not in the receipt).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from poker51.solver.schedule import CheckSchedule
from poker51.solver.tree import Game
from poker51.study.solve import WARM_CLOCK, SolveResult, solve_table

#: the three runs of :func:`compare_solver`, in order
RUNS = ("nash", "cold", "warm")
#: columns of the measurement table (one row per check)
COMPARISON_COLUMNS = ["variant", "algorithm", "run", "p", "iteration", "exploitability", "reached", "target"]
#: columns of the timing table
TIMING_COLUMNS = ["variant", "algorithm", "run", "iteration", "seconds"]


def compare_solver(
    game: Game,
    types: np.ndarray,
    weights: np.ndarray,
    variant: str,
    algorithm: str,
    *,
    target: float,
    iterations: int,
    warm_p: float,
    schedule: CheckSchedule,
    warm_clock: int = WARM_CLOCK,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The measurement and timing rows of the three runs (module docstring).  ``reached``
    marks the rows at or below the target."""
    results: dict[str, tuple[float, SolveResult]] = {}

    def run(name: str, p: float, **kw) -> SolveResult:
        res = solve_table(
            game,
            types,
            weights,
            p,
            algorithm=algorithm,
            iterations=iterations,
            target_exploitability=target,
            schedule=schedule,
            **kw,
        )
        results[name] = (p, res)
        return res

    nash = run("nash", 0.0)
    run("cold", warm_p)
    run("warm", warm_p, warm_start=replace(nash.state, clock=int(warm_clock)))
    rows, timing = [], []
    for name in RUNS:
        p, res = results[name]
        conv = res.convergence
        for it, e in zip(conv["iteration"], conv["exploitability"]):
            rows.append((variant, algorithm, name, p, int(it), float(e), bool(e <= target), float(target)))
        timing += [(variant, algorithm, name, int(it), float(s)) for it, s in res.timing]
    df = pd.DataFrame(rows, columns=COMPARISON_COLUMNS).astype({"iteration": "int64"})
    return df, pd.DataFrame(timing, columns=TIMING_COLUMNS)


def time_to_target(df: pd.DataFrame, timing: pd.DataFrame) -> pd.DataFrame:
    """Per variant, algorithm and run: the first check at or below the target, its
    iterations and its seconds (NaN when the run stopped short of the target)."""
    first = df[df["reached"]].groupby(["variant", "algorithm", "run"], sort=False)["iteration"].min()
    keys = df[["variant", "algorithm", "run"]].drop_duplicates()
    out = keys.merge(first.rename("iterations").reset_index(), how="left")
    out = out.merge(timing.rename(columns={"iteration": "iterations"}), how="left", on=[*keys.columns, "iterations"])
    return out.reset_index(drop=True)


__all__ = ["COMPARISON_COLUMNS", "RUNS", "TIMING_COLUMNS", "compare_solver", "time_to_target"]
