"""CFR+, DCFR, PCFR+ and the restricted Nash response: exact values, resume, determinism, pinned bytes, the registry."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
from helpers import draw_game, random_policy

from poker51.games.toy import kuhn, leduc
from poker51.solver.best_response import (
    best_response_value,
    expected_value,
    exploitability,
    opponent_reach,
    value_against,
)
from poker51.solver.cfr import DEFAULT_ALGORITHM, SOLVERS, CFRPlusSolver, DCFRSolver, normalize_policy
from poker51.solver.rnr import evaluate_against_types, restricted_nash_response
from poker51.solver.schedule import CheckSchedule

ROOT = Path(__file__).resolve().parents[2]
LEDUC_VALUE = -0.0856064  # player 0: CFR+ at exploitability 1.9e-6 gives -0.08560641 (OpenSpiel: -0.0856)


@pytest.fixture(scope="module")
def kuhn_game():
    return kuhn()


@pytest.fixture(scope="module")
def leduc_game():
    return leduc()


@pytest.mark.parametrize("algorithm", list(SOLVERS))
def test_kuhn_value_and_exploitability(kuhn_game, algorithm):
    s = SOLVERS[algorithm](kuhn_game).solve(3000)
    pol = s.average_policy()
    assert exploitability(kuhn_game, pol) <= 1e-4
    assert expected_value(kuhn_game, pol) == pytest.approx(-1 / 18, abs=1e-4)


def test_leduc_cfr_plus_reaches_1e4(leduc_game):
    s = CFRPlusSolver(leduc_game).solve(4000, target_exploitability=1e-4)
    pol = s.average_policy()
    eps = exploitability(leduc_game, pol)
    assert eps <= 1e-4 and s.iteration < 4000
    assert [e for _, e in s.log][-1] == eps
    # |u(avg) - v*| <= NashConv = 2 eps; plus the reference constant's own error
    assert expected_value(leduc_game, pol) == pytest.approx(LEDUC_VALUE, abs=2 * eps + 5e-6)


def test_average_policy_rows_sum_to_one(leduc_game):
    pol = CFRPlusSolver(leduc_game).solve(50).average_policy()
    sums = np.add.reduceat(pol, leduc_game.arrays.act_off[:-1])
    assert np.allclose(sums, 1.0, atol=1e-12)


@pytest.mark.parametrize("algorithm", list(SOLVERS))
def test_resume_from_checkpoint_equals_uninterrupted(tmp_path, kuhn_game, leduc_game, algorithm):
    full = SOLVERS[algorithm](leduc_game)
    full.iterate(60)
    half = SOLVERS[algorithm](leduc_game)
    half.iterate(25)
    half.save_checkpoint(tmp_path / "ck.npz")
    resumed = SOLVERS[algorithm](leduc_game).load_checkpoint(tmp_path / "ck.npz")
    resumed.iterate(35)
    assert resumed.iteration == 60
    for k in ("regret", "avg", "strategy", "inc"):
        assert np.array_equal(getattr(full, k), getattr(resumed, k)), k
    with pytest.raises(ValueError):
        SOLVERS[algorithm](kuhn_game).load_checkpoint(tmp_path / "ck.npz")


def test_runs_are_byte_identical(leduc_game):
    a = CFRPlusSolver(leduc_game)
    a.iterate(40)
    b = CFRPlusSolver(leduc_game)
    for _ in range(4):
        b.iterate(10)
    assert a.avg.tobytes() == b.avg.tobytes() and a.regret.tobytes() == b.regret.tobytes()


def test_callback_logs_exploitability(kuhn_game):
    seen = []
    every = CheckSchedule(first=100, growth=2.0)
    s = CFRPlusSolver(kuhn_game).solve(300, schedule=every, callback=lambda it, e: seen.append((it, e)))
    assert [it for it, _ in seen] == [100, 200, 300] and seen == s.log  # 400 is past the end: the last iteration
    assert seen[-1][1] < seen[0][1]


def test_nbytes_scales_with_infosets(kuhn_game, leduc_game):
    small, big = CFRPlusSolver(kuhn_game).nbytes(), CFRPlusSolver(leduc_game).nbytes()
    assert 0 < small < big
    assert big >= 4 * 8 * leduc_game.num_actions


# ----------------------------------------------------------------------------------------
# restricted Nash response
# ----------------------------------------------------------------------------------------


def _types(game, seeds=(11, 12)):
    rng = [np.random.default_rng(s) for s in seeds]
    return np.stack([normalize_policy(game, r.random(game.num_actions) ** 2) for r in rng])


def test_rnr_endpoints_and_monotone_frontier(kuhn_game):
    g = kuhn_game
    types, w = _types(g), [0.3, 0.7]
    out = {}
    for p in (0.0, 0.5, 1.0):
        pol = restricted_nash_response(g, 0, types, p, weights=w, iterations=4000).average_policy()
        out[p] = (
            best_response_value(g, pol, 1),  # what a best response wins from it
            value_against(g, pol, 0, types, w),
        )  # what it wins from the mixture
    # p = 0: Nash; guarantee = game value (-1/18)
    assert -out[0.0][0] == pytest.approx(-1 / 18, abs=2e-4)
    # p = 1: best response to the fixed mixture
    assert out[1.0][1] == pytest.approx(best_response_value(g, types, 0, w), abs=2e-4)
    tol = 2e-4
    assert out[0.0][0] <= out[0.5][0] + tol <= out[1.0][0] + 2 * tol  # exploitability up
    assert out[0.0][1] <= out[0.5][1] + tol <= out[1.0][1] + 2 * tol  # exploitation up
    assert out[0.5][1] > out[0.0][1] + 0.05  # and strictly here


def test_evaluate_against_each_type(kuhn_game):
    g = kuhn_game
    types = _types(g)
    pol = g.uniform_policy()
    per_type = evaluate_against_types(g, pol, 0, types)
    assert per_type.shape == (2,)
    assert per_type.mean() == pytest.approx(value_against(g, pol, 0, types))


def test_loading_the_kernels_changes_nothing(leduc_game):
    """load_kernels runs no iteration: a solve after it has the bytes of one without it."""
    a, b = SOLVERS["dcfr"](leduc_game), SOLVERS["dcfr"](leduc_game)
    assert a.load_kernels() >= 0.0 and a.iteration == 0 and not a.log
    for s in (a, b):
        s.iterate(25)
    assert [x.tobytes() for x in (a.regret, a.avg, a.strategy)] == [x.tobytes() for x in (b.regret, b.avg, b.strategy)]
    assert repr(a.check()) == repr(b.check())


# ----------------------------------------------------------------------------------------
# the registry
# ----------------------------------------------------------------------------------------


def test_the_config_schema_names_the_registered_algorithms():
    """``SOLVERS`` is the one registry: the schema's ``solve.algorithm`` and
    ``solver_comparison.algorithms`` enums list its names, in its order, and the default
    config solves with :data:`DEFAULT_ALGORITHM`."""
    from poker51.validation import load_schema, load_yaml

    props = load_schema(ROOT / "workflow" / "schemas" / "config.schema.yaml")["properties"]
    assert props["solve"]["properties"]["algorithm"]["enum"] == list(SOLVERS) == ["cfr+", "dcfr", "pcfr+"]
    assert props["solver_comparison"]["properties"]["algorithms"]["items"]["enum"] == list(SOLVERS)
    assert [cls.name for cls in SOLVERS.values()] == list(SOLVERS)
    assert DEFAULT_ALGORITHM == "dcfr" and SOLVERS[DEFAULT_ALGORITHM] is DCFRSolver
    assert load_yaml(ROOT / "config" / "config.yaml")["solve"]["algorithm"] == DEFAULT_ALGORITHM


# ----------------------------------------------------------------------------------------
# whole solves, byte for byte
# ----------------------------------------------------------------------------------------

#: SHA-256 of regret, avg, strategy, inc after 50 iterations, and the check's Gap, as the code
#: before the set update was written once (main 1b44659) computed them: (game, algorithm, restricted)
SOLVE_BYTES = {
    ("leduc", "cfr+", False): (
        "5fe17e878ba8eea04def09945eb4c62dd7a7e9abce5f28a38ac25eff4616c39f",
        "Gap(br_free=-0.05820580353615684, br_rnr=0.12644871652525547, vs_fixed=nan, p=0.0)",
    ),
    ("leduc", "dcfr", False): (
        "31497c47fe43ffd30c0e13c4f97b86f4f1faef5f227ee32439e1556fb324ab8b",
        "Gap(br_free=-0.06862199386697493, br_rnr=0.11446565843722023, vs_fixed=nan, p=0.0)",
    ),
    ("leduc", "pcfr+", False): (
        "9ba668b13bac8a26902e6a5d35ef8c565da39e9b9dd6dc18fed6f7e7ce71cf1e",
        "Gap(br_free=-0.05419107225543274, br_rnr=0.13882263670073125, vs_fixed=nan, p=0.0)",
    ),
    ("draw", "cfr+", False): (
        "a94a4a29b05474a4959851e521159316c07dce49dcb4cb69df9d822cebd61cb8",
        "Gap(br_free=-0.5914566692975491, br_rnr=0.5948619821048406, vs_fixed=nan, p=0.0)",
    ),
    ("draw", "cfr+", True): (
        "7d6a181b79796e3ef7bde4a21c68ad3e060f9721e7ad56d682d3521d98fd5784",
        "Gap(br_free=-0.5925376461530282, br_rnr=0.8933625062864406, vs_fixed=1.1924659496007843, p=0.5)",
    ),
    ("draw", "dcfr", False): (
        "dda63020c8df8f125f0eaadf34354bbe70322c8b26fe551eab61607eaef4c385",
        "Gap(br_free=-0.5932518255670122, br_rnr=0.5941673438272421, vs_fixed=nan, p=0.0)",
    ),
    ("draw", "dcfr", True): (
        "066bccc55de90b75d73a987f3f8c4e4e3ada0cb9758e45d9b0b0cb6de6d07ee4",
        "Gap(br_free=-0.5931933479934836, br_rnr=0.8930624963712834, vs_fixed=1.1922576043584228, p=0.5)",
    ),
    ("draw", "pcfr+", False): (
        "74897094cb51ea21a9f2bcff584d9436de0008b060a806d4d965ac2a9f8e5beb",
        "Gap(br_free=-0.5938027939682525, br_rnr=0.5941022417858556, vs_fixed=nan, p=0.0)",
    ),
    ("draw", "pcfr+", True): (
        "788f6b9b264a8c0570dbd19f5095403981ef333f0b89f450b2efbaad943c90cf",
        "Gap(br_free=-0.5938628320829256, br_rnr=0.8929658957832156, vs_fixed=1.191954724372044, p=0.5)",
    ),
}


@pytest.mark.parametrize(("name", "algorithm", "restricted"), list(SOLVE_BYTES))
def test_solves_keep_their_bytes(name, algorithm, restricted):
    """A refactoring of the kernels changes no bit of a solve: Leduc (every set has one member:
    the backward pass's fused update) and the grouped-set draw game (``update_sets`` too), plain
    and restricted (the mixed opponent), on one thread and on two."""
    g = leduc() if name == "leduc" else draw_game()
    kw = {"rnr": (1, 0.5, opponent_reach(g, 0, random_policy(g, 4)))} if restricted else {}
    for workers in (1, 2):
        s = SOLVERS[algorithm](g, workers=workers, **kw)
        assert s.passes.parallel == (workers == 2)
        s.iterate(50)
        digest = hashlib.sha256(b"".join(x.tobytes() for x in (s.regret, s.avg, s.strategy, s.inc))).hexdigest()
        assert (digest, repr(s.check())) == SOLVE_BYTES[name, algorithm, restricted]
