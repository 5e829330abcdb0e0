"""The solve driver: one table of a variant's abstract game (SPEC section 6).

Riemann is player 1 of :mod:`poker51.games.abstract`; every value here is **Riemann's**,
in jbits per hand (the negative of the game's player-0 payoffs).

:func:`solve_table` runs CFR+ (or DCFR / PCFR+) as a restricted Nash response with
probability ``p`` of the human being the population (Johanson, Zinkevich and Bowling
2007; :func:`poker51.solver.rnr.rnr_solver`); ``p = 0`` is the plain Nash solve.  It logs,
at the checks of a :class:`~poker51.solver.schedule.CheckSchedule` (geometric), the
exploitability of the restricted game (the gap of the average profile, halved;
:func:`poker51.solver.best_response.profile_gap`), Riemann's guarantee and its value
against the population, and it checkpoints so an interrupted job resumes exactly.  A table
may start from its neighbour's state (:class:`WarmStart`).
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from poker51.games.abstract import H, R
from poker51.interrupt import chunks, interruptible
from poker51.solver.best_response import Gap, infoset_best_response_value, opponent_reach, profile_gap
from poker51.solver.cfr import SOLVERS, CFRSolver
from poker51.solver.rnr import rnr_solver
from poker51.solver.schedule import CheckSchedule
from poker51.solver.tree import Game

log = logging.getLogger("poker51.study")

#: where a warm-started solve's clock starts (:class:`WarmStart`, config ``solve.warm_clock``):
#: measured on the default frontier of the three variants, docs/design-choices.md,
#: "Warm-started frontier"
WARM_CLOCK = 50

#: columns of a solve's convergence log
CONVERGENCE_COLUMNS = ["iteration", "exploitability", "guarantee", "vs_population"]


@dataclass(frozen=True)
class Convergence:
    """Convergence of a restricted-Nash-response profile at one iteration, Riemann's view.

    With ``u_p(sR, sH) = (1-p) u(sR, sH) + p u(sR, population)``:
    ``exploitability = (max_sR u_p(sR, sH_free) - min_sH u_p(sR_avg, sH)) / 2``; at p = 0
    this is the ordinary exploitability.  ``guarantee`` is Riemann's value against a
    best-responding human; ``vs_population`` its value against the population (NaN at p = 0).
    """

    iteration: int
    exploitability: float
    guarantee: float
    vs_population: float


@dataclass(frozen=True)
class WarmStart:
    """Where a solve starts: a neighbouring table's finished solve, its average policy
    ``policy`` (one entry per action) and ``mass``, the sum of its positive regrets in each
    information set (one entry per set; docs/design-choices.md, "Warm-started frontier").

    :meth:`apply` sets the solver's current strategy to ``policy`` and its regrets to
    ``policy`` times ``mass`` in each information set, so that regret matching plays
    ``policy`` first and moves off it as fast as the neighbour's regrets would.  The solve
    then runs its own iterations from 1 with its own average, weighted and discounted as
    iterations ``clock + 1, clock + 2, ...`` (:attr:`CFRSolver.clock`): DCFR halves the
    positive regrets at its first iteration and keeps about a fifth of them through its
    first ten, a schedule meant for a solve's random start, which would discount the
    neighbour's regrets away; a clock of :data:`WARM_CLOCK` keeps them (docs/design-choices.md,
    "Warm-started frontier").  Its exploitability is checked exactly as a cold solve's: a
    warm start changes how fast a table reaches its target, never what reaching it means.
    On disk the policy is the neighbour's ``policy.npy`` (an output anyway) and the mass its
    ``regret_mass.npy``; the clock is a setting (config ``solve.warm_clock``)."""

    mass: np.ndarray
    policy: np.ndarray
    clock: int = WARM_CLOCK

    def digest(self) -> str:
        return hashlib.sha256(self.mass.tobytes() + self.policy.tobytes()).hexdigest()

    def apply(self, solver: CFRSolver) -> None:
        a = solver.game.arrays
        if self.policy.shape != solver.regret.shape or self.mass.shape != a.num_actions.shape:
            raise ValueError(
                f"warm start has {len(self.policy)} actions and {len(self.mass)} information sets, "
                f"the game {len(solver.regret)} and {len(a.num_actions)}"
            )
        solver.strategy[:] = self.policy
        solver.regret[:] = self.policy * np.repeat(self.mass, a.num_actions)
        solver.origin = self.digest()
        solver.clock = int(self.clock)

    def save(self, mass_path: str | Path) -> None:
        """The mass as a raw ``.npy`` (``.npz`` zips carry timestamps); the policy is saved
        by the caller as the table's ``policy.npy``."""
        np.save(mass_path, self.mass)

    @classmethod
    def load(cls, mass_path: str | Path, policy_path: str | Path, clock: int = WARM_CLOCK) -> WarmStart:
        """The state saved by :meth:`save` and the neighbour's ``policy.npy``, to start at
        ``clock``; anything else (a missing file, another shape or dtype) is refused with its
        path."""
        arrays = []
        for path, what in ((mass_path, "regret mass"), (policy_path, "policy")):
            try:
                x = np.load(path)
            except (OSError, ValueError) as exc:
                raise ValueError(f"{path}: not a warm-start {what} ({exc})") from None
            if x.ndim != 1 or x.dtype != np.float64:
                raise ValueError(f"{path}: not a warm-start {what} (shape {x.shape}, {x.dtype})")
            arrays.append(np.ascontiguousarray(x))
        return cls(arrays[0], arrays[1], int(clock))


def warm_state(solver: CFRSolver) -> WarmStart:
    """The state a neighbouring solve starts from (:class:`WarmStart`, at the default clock):
    the average policy and the positive regret mass of each information set."""
    mass = np.add.reduceat(np.maximum(solver.regret, 0.0), solver.game.arrays.act_off[:-1])
    return WarmStart(mass, solver.average_policy())


@dataclass
class SolveResult:
    policy: np.ndarray
    convergence: pd.DataFrame
    iterations: int
    seconds: float
    state: WarmStart
    timing: list[tuple[int, float]] = field(default_factory=list)


def restricted_gap(game: Game, policy: np.ndarray, types: np.ndarray, weights: np.ndarray, p: float,
                   iteration: int = 0) -> Convergence:  # fmt: skip
    """:class:`Convergence` of the average profile ``policy`` (see its docstring): one
    :func:`~poker51.solver.best_response.profile_gap`, four passes over the tree."""
    fixed = opponent_reach(game, H, types, weights) if p > 0 else None
    return _convergence(profile_gap(game, policy, R, p, fixed), iteration)


def _convergence(gap: Gap, iteration: int) -> Convergence:
    return Convergence(int(iteration), gap.exploitability, gap.guarantee, gap.vs_fixed)


def riemann_best_response(game: Game, policy: np.ndarray, types: np.ndarray, weights: np.ndarray, p: float) -> float:
    """Riemann's best value, within its information sets, when the human plays the
    population with probability ``p`` and ``policy``'s human part otherwise."""
    stack = np.vstack([policy[None, :], types])
    w = np.concatenate([[1.0 - p], p * np.asarray(weights, np.float64)])
    keep = w > 0
    return infoset_best_response_value(game, stack[keep], R, w[keep] / w[keep].sum())


def _resume(solver: CFRSolver, ck: Path | None, iterations: int, fresh) -> tuple[CFRSolver, list[Convergence]]:
    """The solver restored from the checkpoint ``ck`` when it matches, and its log."""
    if ck is None or not ck.exists() or not ck.with_suffix(".log.npy").exists():
        return solver, []
    try:
        solver.load_checkpoint(ck)
    except ValueError as exc:  # another game, population or solver: start afresh
        log.warning("%s; starting afresh", exc)
        return fresh(), []
    if solver.iteration > iterations:
        log.warning("%s is past %d iterations; starting afresh", ck, iterations)
        return fresh(), []
    if solver.iteration == 0:
        return solver, []
    rows = [Convergence(int(i), float(e), float(g), float(v)) for i, e, g, v in np.load(ck.with_suffix(".log.npy"))]
    log.info("resumed %s at iteration %d", ck, solver.iteration)
    return solver, rows


def _save(solver: CFRSolver, ck: Path, rows: list[Convergence]) -> None:
    ck.parent.mkdir(parents=True, exist_ok=True)
    solver.save_checkpoint(ck)
    log_rows = [[r.iteration, r.exploitability, r.guarantee, r.vs_population] for r in rows]
    np.save(ck.with_suffix(".log.npy"), np.array(log_rows, np.float64))


def iterate_in_chunks(solver: CFRSolver, n: int, bar=None) -> None:
    """``solver.iterate(n)`` in chunks of at most about a quarter second each
    (:func:`poker51.interrupt.chunks`), so that Ctrl-C stops it within a chunk
    (:func:`~poker51.interrupt.interruptible`); the same arrays, bit for bit, as one call
    (``tests/study/test_chunks.py``).  ``bar``, a tqdm bar, advances after each chunk."""
    with interruptible():
        for k in chunks(n):
            solver.iterate(k)
            if bar is not None:
                bar.update(k)


def solve_in_chunks(
    solver: CFRSolver,
    iterations: int,
    *,
    target_exploitability: float | None = None,
    schedule: CheckSchedule | None = None,
    progress: bool = False,
) -> CFRSolver:
    """:meth:`CFRSolver.solve <poker51.solver.cfr.CFRSolver.solve>` (the same iterations, the
    same checks, the same log and arrays) with its iterations run by :func:`iterate_in_chunks`:
    the driver of ``poker51 solve`` on Kuhn and Leduc, which Ctrl-C stops within a chunk."""
    return solver.solve(
        iterations,
        target_exploitability=target_exploitability,
        schedule=schedule,
        progress=progress,
        step=lambda n, bar: iterate_in_chunks(solver, n, bar),
    )


def solve_table(
    game: Game,
    types: np.ndarray,
    weights: np.ndarray,
    p: float,
    *,
    algorithm: str = "cfr+",
    iterations: int = 2000,
    target_exploitability: float | None = None,
    schedule: CheckSchedule | None = None,
    checkpoint: str | Path | None = None,
    checkpoint_every: int = 500,
    warm_start: WarmStart | None = None,
    progress: bool = False,
    workers: int | None = None,
) -> SolveResult:
    """Solve the restricted game of one table; see the module docstring.

    The exploitability is checked at the iterations of ``schedule`` (default
    :class:`~poker51.solver.schedule.CheckSchedule`) and at the last one; ``timing`` holds
    the wall-clock seconds at each check, checks included (the kernels are loaded before
    the clock starts, :meth:`~poker51.solver.cfr.CFRSolver.load_kernels`).  ``warm_start`` (the state of a
    neighbouring table's solve, :func:`warm_state`) sets the solver's starting point.  A
    checkpoint at ``checkpoint`` (if it exists and matches the game, the settings and the
    warm start) is resumed; the convergence log is rebuilt from the checkpoint's own log.
    """
    if algorithm not in SOLVERS:
        raise ValueError(f"unknown algorithm {algorithm!r}")
    schedule = schedule or CheckSchedule()

    def fresh() -> CFRSolver:
        solver = rnr_solver(game, R, types, p, weights, algorithm, workers=workers)
        if warm_start is not None:
            warm_start.apply(solver)
        return solver

    ck = Path(checkpoint) if checkpoint else None
    solver, rows = _resume(fresh(), ck, iterations, fresh)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=iterations, initial=solver.iteration, desc=game.name, unit="it")
    timing = []
    solver.load_kernels()  # the compiled kernels, before the clock (as poker51 solve does)
    start = time.perf_counter()
    done = bool(rows) and target_exploitability is not None and rows[-1].exploitability <= target_exploitability
    while solver.iteration < iterations and not done:
        history = [(r.iteration, r.exploitability) for r in rows]
        check_at = max(schedule.next(history, target_exploitability), solver.iteration + 1)
        stop = min(check_at, (solver.iteration // checkpoint_every + 1) * checkpoint_every, iterations)
        iterate_in_chunks(solver, stop - solver.iteration, bar)
        if solver.iteration in (check_at, iterations):
            m = _convergence(solver.check(), solver.iteration)
            rows.append(m)
            timing.append((solver.iteration, time.perf_counter() - start))
            if bar is not None:
                bar.set_postfix(exploitability=f"{m.exploitability:.2e}")
            log.info("iteration %d exploitability %.3e guarantee %+.5f", m.iteration, m.exploitability, m.guarantee)
            done = target_exploitability is not None and m.exploitability <= target_exploitability
        if ck is not None and (solver.iteration % checkpoint_every == 0 or done or solver.iteration == iterations):
            _save(solver, ck, rows)
    if bar is not None:
        bar.close()
    conv = pd.DataFrame([asdict(r) for r in rows], columns=CONVERGENCE_COLUMNS)
    conv = conv.astype({"iteration": "int64"})
    conv.insert(0, "p", float(p))
    seconds = time.perf_counter() - start
    return SolveResult(solver.average_policy(), conv, solver.iteration, seconds, warm_state(solver), timing)


__all__ = [
    "WARM_CLOCK", "Convergence", "SolveResult", "WarmStart", "restricted_gap", "riemann_best_response",
    "iterate_in_chunks", "solve_in_chunks", "solve_table", "warm_state",
]  # fmt: skip
