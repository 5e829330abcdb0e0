"""The abstraction-size study (issue 12, section 2): what the number of strength buckets buys.

For one bucket count, :func:`solve_size` solves the standard variant's abstract game twice
with the pipeline's driver (:func:`poker51.study.solve.solve_table`, the configured algorithm,
check schedule and target): the Nash table (p = 0) from scratch, then the restricted Nash
response at ``p`` started from the Nash solve's state (:class:`~poker51.study.solve.WarmStart`,
as the solver comparison's ``warm`` run).  It scores both as ``scores`` does: the value bracket
of the Nash table (:func:`~poker51.study.scores.value_bracket`) and each table's guarantee.

Its deterministic columns (:meth:`SizeSolves.columns`) go to the study's table (in the
receipt); its wall-clock seconds and memory (:meth:`SizeSolves.timing`) go to a separate TSV
(not in the receipt), as in the solver comparison.  Memory is ``tracemalloc``'s peak of the
two solves (NumPy allocations, which hold the solver's regret and strategy arrays; Numba
kernels allocate nothing per iteration); the job's peak resident size is added by the stage.
Before the timed solves, one iteration of each (discarded) loads the compiled kernels, so a
job's first solve does not carry Numba's start-up in its seconds.

:func:`fit_growth` fits the growth exponent of cost: least squares of log(CPU seconds per
iteration) on log(private states), where a player's private states are its dealt-hand
classes (before the draw) plus its buckets (after it).  CPU seconds (``time.process_time``),
because the machines this runs on are shared: a loaded machine stretches wall-clock seconds,
not the CPU seconds of a one-thread solve.
"""

from __future__ import annotations

import time
import tracemalloc
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from poker51.abstraction.tables import AbstractionArrays
from poker51.games.population import Population
from poker51.solver.schedule import CheckSchedule
from poker51.solver.tree import Game
from poker51.study.scores import TableScore, ValueBracket, score_table, value_bracket
from poker51.study.solve import WARM_CLOCK, SolveResult, solve_table

#: the variant of the study (the issue's "standard variant")
STUDY_VARIANT = "standard"
#: the two tables solved per bucket count, in order
TABLES = ("nash", "rnr")


@dataclass(frozen=True)
class SizeSolves:
    """The two solves of one bucket count and their scores."""

    buckets: int
    classes: int
    infosets: int
    actions: int
    p: float
    target: float | None
    nash: SolveResult
    rnr: SolveResult
    bracket: ValueBracket
    nash_score: TableScore
    rnr_score: TableScore
    peak_solve_bytes: int
    #: CPU seconds of the process during the Nash and the p solve (checks included)
    cpu_seconds: tuple[float, float] = (float("nan"), float("nan"))

    @property
    def private_states(self) -> int:
        """A player's private states: classes before the draw plus buckets after it."""
        return self.classes + self.buckets

    def _reached(self, res: SolveResult) -> bool:
        e = float(res.convergence["exploitability"].iloc[-1])
        return self.target is not None and e <= self.target

    def columns(self) -> dict[str, Any]:
        """The deterministic columns of the study's row (jbits per hand, Riemann's view)."""
        out: dict[str, Any] = {
            "variant": STUDY_VARIANT,
            "buckets": self.buckets,
            "classes": self.classes,
            "private_states": self.private_states,
            "infosets": self.infosets,
            "actions": self.actions,
            **self.bracket.columns(),
            "p": self.p,
            "target": float("nan") if self.target is None else float(self.target),
        }
        for name, res, score in (("nash", self.nash, self.nash_score), ("rnr", self.rnr, self.rnr_score)):
            out |= {
                f"{name}_iterations": int(res.iterations),
                f"{name}_exploitability": float(res.convergence["exploitability"].iloc[-1]),
                f"{name}_reached": self._reached(res),
                f"{name}_guarantee": score.guarantee,
                f"{name}_vs_population": score.vs_population,
            }
        return out

    def timing(self) -> dict[str, Any]:
        """Wall-clock seconds and memory of the two solves (not reproducible: kept out of the
        receipt).  ``*_seconds_per_iteration`` is the solve's seconds (checks included) over
        its iterations; ``*_seconds_to_target`` the seconds at the first check at or below
        the target (NaN when the solve stopped short of it); ``*_cpu_seconds`` the process's
        CPU seconds in the solve (``time.process_time``: all its threads), which a loaded
        machine stretches far less than the wall clock."""
        out: dict[str, Any] = {"buckets": self.buckets, "private_states": self.private_states}
        for (name, res), cpu in zip((("nash", self.nash), ("rnr", self.rnr)), self.cpu_seconds):
            n = max(int(res.iterations), 1)
            out |= {
                f"{name}_iterations": int(res.iterations),
                f"{name}_seconds": float(res.seconds),
                f"{name}_seconds_per_iteration": float(res.seconds) / n,
                f"{name}_seconds_to_target": seconds_to_target(res, self.target),
                f"{name}_cpu_seconds": float(cpu),
                f"{name}_cpu_seconds_per_iteration": float(cpu) / n,
            }
        out["peak_solve_mb"] = self.peak_solve_bytes / 2**20
        return out


def seconds_to_target(res: SolveResult, target: float | None) -> float:
    """Seconds at the first check at or below ``target`` (NaN when none is, or no target)."""
    if target is None:
        return float("nan")
    seconds = dict(res.timing)
    for it, e in zip(res.convergence["iteration"], res.convergence["exploitability"]):
        if float(e) <= target and int(it) in seconds:
            return float(seconds[int(it)])
    return float("nan")


def solve_size(
    game: Game,
    ab: AbstractionArrays,
    types: np.ndarray,
    pop: Population,
    p: float,
    *,
    algorithm: str,
    iterations: int,
    target: float | None,
    schedule: CheckSchedule,
    progress: bool = False,
    warm_clock: int = WARM_CLOCK,
) -> SizeSolves:
    """The Nash and the p tables of one abstraction (module docstring)."""
    for warm_p in (0.0, p):  # load the compiled kernels first: the seconds are the solves' own
        solve_table(game, types, pop.weights, warm_p, algorithm=algorithm, iterations=1, schedule=schedule)
    started = tracemalloc.is_tracing()
    if not started:
        tracemalloc.start()
    tracemalloc.reset_peak()
    kw: dict[str, Any] = dict(
        algorithm=algorithm, iterations=iterations, target_exploitability=target, schedule=schedule, progress=progress
    )
    try:
        cpu = [time.process_time()]
        nash = solve_table(game, types, pop.weights, 0.0, **kw)
        cpu.append(time.process_time())
        rnr = solve_table(game, types, pop.weights, p, warm_start=replace(nash.state, clock=int(warm_clock)), **kw)
        cpu.append(time.process_time())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        if not started:
            tracemalloc.stop()
    return SizeSolves(
        buckets=ab.n_buckets,
        classes=ab.n_classes,
        infosets=int(game.num_infosets),
        actions=int(game.num_actions),
        p=float(p),
        target=None if target is None else float(target),
        nash=nash,
        rnr=rnr,
        bracket=value_bracket(game, nash.policy),
        nash_score=score_table(game, nash.policy, types, pop),
        rnr_score=score_table(game, rnr.policy, types, pop),
        peak_solve_bytes=int(peak),
        cpu_seconds=(cpu[1] - cpu[0], cpu[2] - cpu[1]),
    )


@dataclass(frozen=True)
class GrowthFit:
    """``cost ≈ exp(intercept) · states ** exponent``, fitted by least squares in logs."""

    exponent: float
    intercept: float
    points: int
    r_squared: float

    def text(self) -> str:
        return (
            f"seconds per iteration ∝ private states^{self.exponent:.2f} ({self.points} sizes, R² {self.r_squared:.3f})"
        )


def fit_growth(states: Any, cost: Any) -> GrowthFit:
    """Least squares of log(cost) on log(states) (NaN exponent below two distinct sizes).

    >>> round(fit_growth([10, 20, 40], [1.0, 4.0, 16.0]).exponent, 6)
    2.0
    """
    x = np.log(np.asarray(states, np.float64))
    y = np.log(np.asarray(cost, np.float64))
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    if np.unique(x).size < 2:
        return GrowthFit(float("nan"), float("nan"), int(x.size), float("nan"))
    slope, intercept = np.polyfit(x, y, 1)
    resid = y - (slope * x + intercept)
    total = float(((y - y.mean()) ** 2).sum())
    r2 = 1.0 - float((resid**2).sum()) / total if total > 0 else 1.0
    return GrowthFit(float(slope), float(intercept), int(x.size), r2)


def growth_of(timing: pd.DataFrame, table: str = "nash", clock: str = "cpu_seconds") -> GrowthFit:
    """:func:`fit_growth` of a gathered timing table's ``{table}_{clock}_per_iteration``
    (``clock``: ``cpu_seconds`` or ``seconds``, the wall clock)."""
    return fit_growth(timing["private_states"], timing[f"{table}_{clock}_per_iteration"])


__all__ = ["STUDY_VARIANT", "TABLES", "GrowthFit", "SizeSolves", "fit_growth", "growth_of", "seconds_to_target",
           "solve_size"]  # fmt: skip
