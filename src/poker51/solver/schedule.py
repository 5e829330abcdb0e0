"""When a solve checks its exploitability.

A check costs about one iteration (:func:`poker51.solver.best_response.profile_gap`), so
checking every k iterations wastes 1/k of the run, and the run overshoots its target by up
to k iterations.  A geometric schedule (check at ``first``, then each time ``growth`` times
later) costs only ``log(T / first) / log(growth)`` checks for a run of T iterations, but may
overshoot by a factor ``growth``.  The overshoot is cut by prediction: CFR's
exploitability falls roughly as a power of t, so the last check ``(t2, e2)`` and the
latest one at least a factor ``growth`` earlier, ``(t1, e1)`` (a short baseline would
follow CFR's wobble), predict that ``e`` reaches the target near
``t2 * (e2 / target) ** (log(t2 / t1) / log(e1 / e2))``; the next check is there, if that
is sooner than ``growth * t2`` (and at least ``min_growth * t2``, so that a run hovering
just above its target does not check every iteration).  Everything depends only on the
iterations and the exploitabilities, so it is deterministic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class CheckSchedule:
    """Checks at ``first``, then at most ``growth`` and at least ``min_growth`` times the
    last checked iteration, sooner when the target is predicted sooner (module docstring)."""

    first: int = 10
    growth: float = 1.25
    min_growth: float = 1.02

    def __post_init__(self) -> None:
        if self.first < 1:
            raise ValueError(f"the first check must be at iteration 1 or later, got {self.first}")
        if not 1.0 < self.min_growth <= self.growth:
            raise ValueError(f"check growth must satisfy 1 < {self.min_growth} <= growth, got {self.growth}")

    def next(self, history: Sequence[tuple[int, float]] = (), target: float | None = None) -> int:
        """The iteration of the next check, from the ``(iteration, exploitability)`` of the
        checks so far (none: ``first``); only the history decides, so a resumed run checks
        where an uninterrupted one would."""
        if not history:
            return self.first
        t2, e2 = history[-1]
        late = max(t2 + 1, math.ceil(t2 * self.growth))
        soon = max(t2 + 1, math.ceil(t2 * self.min_growth))
        if target is None or target <= 0 or not e2 > target:
            return late
        # the slope from a check far enough back to average out CFR's wobble
        far = [(ti, ei) for ti, ei in history[:-1] if ti * self.growth <= t2]
        t1, e1 = far[-1] if far else history[0]
        if not (t1 < t2 and e1 > e2 > 0):
            return late
        slope = math.log(e1 / e2) / math.log(t2 / t1)  # e ~ t^-slope between the two checks
        power = math.log(e2 / target) / slope
        if power > 700.0:  # a slope near 0 (barely moved): exp would overflow; far past ``late`` anyway
            return late
        predicted = t2 * math.exp(power)
        if not math.isfinite(predicted):
            return late
        return int(min(late, max(soon, math.ceil(predicted))))
