"""The solve driver runs its iterations in chunks so that Ctrl-C is honoured (issue 29): the
arrays after chunks are those of one call, bit for bit, for every algorithm; the chunked
``solve`` checks, logs and stops as :meth:`CFRSolver.solve` does."""

from __future__ import annotations

import numpy as np
import pytest

from poker51.games.toy import leduc
from poker51.solver.cfr import SOLVERS
from poker51.solver.schedule import CheckSchedule
from poker51.study.solve import iterate_in_chunks, solve_in_chunks


def state(solver) -> bytes:
    return b"".join(np.ascontiguousarray(a).tobytes() for a in (solver.regret, solver.avg, solver.strategy))


@pytest.fixture(scope="module")
def game():
    return leduc()


@pytest.mark.parametrize("algorithm", sorted(SOLVERS))
def test_chunks_give_the_arrays_of_one_call(algorithm, game, monkeypatch):
    one = SOLVERS[algorithm](game)
    one.iterate(37)
    chunked = SOLVERS[algorithm](game)
    sizes = [1, 2, 4, 8, 16, 6]
    monkeypatch.setattr("poker51.study.solve.chunks", lambda n: iter(sizes if n == 37 else [n]))
    iterate_in_chunks(chunked, 37)
    assert sum(sizes) == 37 and chunked.iteration == one.iteration == 37
    assert state(chunked) == state(one)


@pytest.mark.parametrize("algorithm", sorted(SOLVERS))
def test_the_default_chunks_too(algorithm, game):
    one, chunked = SOLVERS[algorithm](game), SOLVERS[algorithm](game)
    one.iterate(300)
    iterate_in_chunks(chunked, 300)
    assert state(chunked) == state(one)


@pytest.mark.parametrize("target", [None, 0.05])
def test_solve_in_chunks_is_solve(target, game):
    schedule = CheckSchedule(10, 1.25)
    a = SOLVERS["dcfr"](game).solve(400, target_exploitability=target, schedule=schedule)
    b = solve_in_chunks(SOLVERS["dcfr"](game), 400, target_exploitability=target, schedule=schedule)
    assert a.iteration == b.iteration and a.log == b.log and state(a) == state(b)
    if target is not None:
        assert a.iteration < 400 and a.log[-1][1] <= target  # the target stopped it: the checks matter
