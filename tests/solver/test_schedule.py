"""When a solve checks: geometric, predicted when the target is near, decided by the history only."""

from __future__ import annotations

import math

import pytest

from poker51.games.toy import leduc
from poker51.solver.cfr import SOLVERS
from poker51.solver.schedule import CheckSchedule


def test_geometric_without_a_target():
    s = CheckSchedule(first=10, growth=1.25)
    t, seen = 0, []
    history: list[tuple[int, float]] = []
    while t < 100:
        t = s.next(history)
        history.append((t, 1.0 / t))
        seen.append(t)
    assert seen == [10, 13, 17, 22, 28, 35, 44, 55, 69, 87, 109]
    assert CheckSchedule(first=3, growth=1.02).next([(3, 1.0)]) == 4  # at least one iteration later


def test_prediction_lands_on_a_power_law():
    """With e = 1/t exactly the prediction from two checks is the iteration where e meets
    the target, when that is sooner than the geometric step."""
    s = CheckSchedule(first=10, growth=1.25)
    history = [(100, 1 / 100), (125, 1 / 125)]
    assert s.next(history, target=1 / 140) == 140
    assert s.next(history, target=1 / 400) == math.ceil(125 * 1.25)  # too far: the geometric step
    assert s.next(history, target=1 / 126) == math.ceil(125 * 1.02)  # too near: at least 2 % later
    assert s.next(history, target=1 / 100) == math.ceil(125 * 1.25)  # already met: no prediction


def test_prediction_uses_a_long_baseline():
    """A wobble between the last two checks does not stop the prediction: the slope comes
    from the latest check at least a factor ``growth`` back."""
    s = CheckSchedule(first=10, growth=1.25)
    history = [(100, 1 / 100), (200, 1 / 190), (204, 1 / 191)]
    t = s.next(history, target=1 / 230)
    assert 204 < t < math.ceil(204 * 1.25)


def test_a_flat_history_takes_the_geometric_step():
    """Exploitability that barely moved between two checks far apart predicts the target
    astronomically late: the schedule takes its geometric step (it once raised OverflowError
    there, in a frontier chain run downwards from p = 1)."""
    s = CheckSchedule(first=10, growth=1.25)
    flat = [(100, 0.002), (400, 0.002 * (1 - 1e-12))]
    assert s.next(flat, target=0.001) == 500
    assert s.next([(100, 0.002), (400, 0.0019)], target=1e-300) == 500


@pytest.mark.parametrize("bad", [dict(first=0), dict(growth=1.0), dict(growth=1.5, min_growth=1.6)])
def test_bad_schedules_are_refused(bad):
    with pytest.raises(ValueError):
        CheckSchedule(**bad)


def test_leduc_stops_near_where_the_target_is_first_met():
    """CFR+ to 1e-4: the schedule stops at most 5 % past the first multiple of 10 at which
    the exploitability is at most the target (a dense scan), after at most 30 checks."""
    g = leduc()
    s = SOLVERS["cfr+"](g).solve(5000, target_exploitability=1e-4)
    assert s.log[-1][1] <= 1e-4 and len(s.log) <= 30
    dense = SOLVERS["cfr+"](g)
    first = None
    while first is None:
        dense.iterate(10)
        if dense.check().exploitability <= 1e-4:
            first = dense.iteration
    assert s.iteration <= 1.05 * first
