"""Solves and scores: restricted Nash responses behave as the theory says."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from helpers import small_abstraction

from poker51.abstraction.tables import AbstractionArrays
from poker51.games.abstract import H, R, build_game
from poker51.games.population import load_population
from poker51.rules import p_label
from poker51.solver.best_response import (
    best_response_policy,
    best_response_value,
    expected_value,
    infoset_best_response_value,
    value_against,
)
from poker51.solver.rnr import rnr_solver
from poker51.solver.schedule import CheckSchedule
from poker51.study import solve as solve_module
from poker51.study.comparison import COMPARISON_COLUMNS, RUNS, TIMING_COLUMNS, compare_solver, time_to_target
from poker51.study.scores import recall_upper_bound, score_table, value_bracket, variant_types
from poker51.study.solve import WARM_CLOCK, WarmStart, restricted_gap, solve_table, warm_state


@pytest.fixture(scope="module")
def setup():
    ab = small_abstraction(C=3, B=5, seed=3)
    game = build_game(ab)
    pop = load_population("config/population.yaml")
    return ab, game, pop, variant_types(game, ab, pop)


@pytest.fixture(scope="module")
def solved(setup):
    ab, game, pop, types = setup
    every = CheckSchedule(first=100, growth=1.5)  # 100, 150, 225, 338, 507, then the last: 600
    return {p: solve_table(game, types, pop.weights, p, iterations=600, schedule=every) for p in (0.0, 0.5, 1.0)}


def test_nash_converges(setup, solved):
    conv = solved[0.0].convergence
    assert conv["exploitability"].iloc[-1] < 0.2 * conv["exploitability"].iloc[0]
    assert conv["exploitability"].iloc[-1] < 5e-3
    assert list(conv["iteration"]) == [100, 150, 225, 338, 507, 600]


def test_bracket_contains_the_value(setup, solved):
    """Each end of the bracket is the value of a best-response *policy*, built and played
    independently of the value passes that define the bracket, and the Nash profile's own
    value lies between them."""
    ab, game, pop, types = setup
    nash = solved[0.0].policy
    bracket = value_bracket(game, nash)
    br_h = best_response_policy(game, nash, H)  # a pure strategy of the human
    assert value_against(game, nash, R, br_h) == pytest.approx(bracket.low, abs=1e-12)
    br_r = best_response_policy(game, nash, R)  # one action per Riemann information set
    assert value_against(game, br_r, R, nash) == pytest.approx(bracket.high, abs=1e-12)
    profile = -expected_value(game, nash, H)
    assert bracket.low - 1e-12 <= profile <= bracket.high + 1e-12
    assert 0 <= bracket.high - bracket.low < 0.02  # 600 iterations of a 3-class, 5-bucket game
    assert bracket.game_exploitability == pytest.approx(0.5 * (bracket.high - bracket.low))


def test_rnr_frontier_orders(setup, solved):
    ab, game, pop, types = setup
    s = {p: score_table(game, solved[p].policy, types, pop) for p in solved}
    low = value_bracket(game, solved[0.0].policy).low
    tol = 2 * max(r.convergence["exploitability"].iloc[-1] for r in solved.values())
    # more weight on the population: exploits it more, guarantees less
    assert s[0.0].vs_population <= s[0.5].vs_population + tol <= s[1.0].vs_population + 2 * tol
    assert s[1.0].guarantee <= s[0.5].guarantee + tol <= s[0.0].guarantee + 2 * tol
    # guarantee <= value of the game <= value against the population, within the solve's accuracy
    assert s[0.5].guarantee <= low + tol
    assert low <= s[0.5].vs_population + tol
    # p = 1 is a best response to the population
    br = best_response_value(game, types, R, pop.weights)
    assert s[1.0].vs_population == pytest.approx(br, abs=tol)
    # the mixture value is the weighted mean of the per-type values
    per_type = np.array([s[0.5].vs_types[n] for n in pop.names])
    assert s[0.5].vs_population == pytest.approx(float(pop.weights @ per_type), abs=1e-12)


def test_restricted_gap_at_zero_is_exploitability(setup, solved):
    ab, game, pop, types = setup
    pol = solved[0.0].policy
    gap = restricted_gap(game, pol, types, pop.weights, 0.0).exploitability
    br_r = infoset_best_response_value(game, pol, R)
    assert gap == pytest.approx(0.5 * (best_response_value(game, pol, H) + br_r), abs=1e-12)
    # recalling d = 5 vs 4 can only help Riemann
    assert br_r <= recall_upper_bound(game, pol) + 1e-12


def test_infoset_best_response_reads_five_as_four():
    """With a five-card draw that moves like a four-card draw, merging them costs
    Riemann nothing; otherwise the per-state response is strictly better."""
    ab = small_abstraction(C=3, B=5, seed=3)
    same = AbstractionArrays(
        "same", ab.class_prob, np.concatenate([ab.h_trans[:, :5], ab.h_trans[:, 4:5]], axis=1), ab.r_trans, ab.r_draw
    )
    for abx, equal in ((same, True), (ab, False)):
        game = build_game(abx)
        pol = random_h_policy(game, symmetric=equal)
        exact = infoset_best_response_value(game, pol, R)
        loose = best_response_value(game, pol, R)
        assert (exact == pytest.approx(loose, abs=1e-12)) if equal else (exact < loose - 1e-6)
        br = best_response_policy(game, pol, R)
        a = game.arrays
        r_sets = a.iset_player == R
        assert np.all(np.add.reduceat(br, a.act_off[:-1])[r_sets] == 1.0)


def random_h_policy(game, symmetric):
    """A random profile; ``symmetric``: H plays the same after drawing five as after four."""
    from helpers import random_policy

    pol = random_policy(game, 7)
    if symmetric:
        a = game.arrays
        index = {k: i for i, k in enumerate(game.iset_keys)}
        for i, (p, k) in enumerate(game.iset_keys):
            lo, hi = a.act_off[i], a.act_off[i + 1]
            if p == H and k[2] == 5:
                j = index[(p, k[:2] + (4,) + k[3:])]
                pol[lo:hi] = pol[a.act_off[j] : a.act_off[j + 1]]
            elif p == H and k[2] == -1:  # the first action: (5, x) as likely as (4, x)
                first = pol[lo:hi].reshape(6, 5)
                first[5] = first[4]
                pol[lo:hi] = (first / first.sum()).ravel()
    return pol


def test_checkpoint_resume_is_exact(setup, tmp_path, monkeypatch):
    """A run that dies after a checkpoint taken between two checks, then resumes, gives the
    uninterrupted run's policy and convergence log."""
    ab, game, pop, types = setup
    every = CheckSchedule(first=40, growth=1.5)  # checks at 40, 60, 90, then the last: 120
    whole = solve_table(game, types, pop.weights, 0.5, iterations=120, schedule=every)
    ck = tmp_path / "ck.npz"
    real_save = solve_module._save

    def save_then_die(solver, path, rows):
        real_save(solver, path, rows)
        if solver.iteration == 75:
            raise KeyboardInterrupt

    monkeypatch.setattr(solve_module, "_save", save_then_die)
    with pytest.raises(KeyboardInterrupt):
        solve_table(game, types, pop.weights, 0.5, iterations=120, schedule=every, checkpoint=ck, checkpoint_every=75)
    monkeypatch.setattr(solve_module, "_save", real_save)
    resumed = solve_table(game, types, pop.weights, 0.5, iterations=120, schedule=every, checkpoint=ck)
    assert list(resumed.convergence["iteration"]) == [40, 60, 90, 120]
    assert np.array_equal(whole.policy, resumed.policy)
    assert whole.convergence.equals(resumed.convergence)


def test_p_label():
    assert [p_label(p) for p in (0.0, 0.3, 1)] == ["p0", "p0.3", "p1"]


# --------------------------------------------------------------------------- warm starts
def test_warm_start_plays_the_neighbour_average_first(setup):
    ab, game, pop, types = setup
    nash = solve_table(game, types, pop.weights, 0.0, algorithm="dcfr", iterations=60)
    state = nash.state
    assert np.array_equal(state.policy, nash.policy)
    a = game.arrays
    # the mass is the neighbour's positive regret summed per set: the same solve, run by hand
    by_hand = rnr_solver(game, R, types, 0.0, pop.weights, "dcfr")
    by_hand.iterate(60)
    expect = [np.maximum(by_hand.regret[a.act_off[i] : a.act_off[i + 1]], 0).sum() for i in range(len(a.num_actions))]
    assert np.allclose(state.mass, expect, rtol=1e-12, atol=0) and state.mass.max() > 0
    assert np.array_equal(warm_state(by_hand).mass, state.mass)
    solver = rnr_solver(game, R, types, 0.3, pop.weights, "dcfr")
    state.apply(solver)
    assert np.array_equal(solver.strategy, nash.policy)
    assert np.array_equal(solver.regret, nash.policy * np.repeat(state.mass, a.num_actions))
    assert solver.origin == state.digest() != ""


def test_warm_state_round_trips_and_bad_files_are_refused(setup, tmp_path):
    ab, game, pop, types = setup
    res = solve_table(game, types, pop.weights, 0.0, iterations=20)
    res.state.save(tmp_path / "regret_mass.npy")
    np.save(tmp_path / "policy.npy", res.policy)
    back = WarmStart.load(tmp_path / "regret_mass.npy", tmp_path / "policy.npy")
    assert back.digest() == res.state.digest()
    np.save(tmp_path / "bad.npy", np.zeros((3, 4)))
    (tmp_path / "junk.npy").write_bytes(b"not numpy")
    for bad in ("bad.npy", "junk.npy", "missing.npy"):
        with pytest.raises(ValueError, match=f"{bad}: not a warm-start regret mass"):
            WarmStart.load(tmp_path / bad, tmp_path / "policy.npy")
    with pytest.raises(ValueError, match="bad.npy: not a warm-start policy"):
        WarmStart.load(tmp_path / "regret_mass.npy", tmp_path / "bad.npy")
    short = WarmStart(back.mass[:-1], back.policy)  # another game's state
    with pytest.raises(ValueError, match="information sets"):
        short.apply(rnr_solver(game, R, types, 0.3, pop.weights, "dcfr"))


def test_warm_clock_weighs_the_solve_as_later_iterations(setup, tmp_path):
    """A warm start at clock c runs iteration t with the weights and discounts of iteration
    c + t: the same state as a solver whose own counter stood at c; clock 0 is the plain warm
    start, and a checkpoint written at one clock is not resumed at another."""
    ab, game, pop, types = setup
    state = solve_table(game, types, pop.weights, 0.0, algorithm="dcfr", iterations=40).state
    assert state.clock == WARM_CLOCK > 0

    def warm(clock):
        solver = rnr_solver(game, R, types, 0.3, pop.weights, "dcfr")
        replace(state, clock=clock).apply(solver)
        return solver

    late, by_hand, plain = warm(WARM_CLOCK), warm(0), warm(0)
    assert late.clock == WARM_CLOCK and plain.clock == 0
    by_hand.iteration = WARM_CLOCK
    late.iterate(25)
    by_hand.iterate(25)
    plain.iterate(25)
    for field in ("regret", "avg", "strategy"):
        assert np.array_equal(getattr(late, field), getattr(by_hand, field))
    assert not np.array_equal(late.regret, plain.regret)  # the clock does change the solve
    late.save_checkpoint(tmp_path / "ck.npz")
    with pytest.raises(ValueError, match="another game or solver configuration"):
        warm(0).load_checkpoint(tmp_path / "ck.npz")
    assert warm(WARM_CLOCK).load_checkpoint(tmp_path / "ck.npz").iteration == 25


def test_warm_resume_is_exact_and_ignores_a_cold_checkpoint(setup, tmp_path, monkeypatch):
    """A warm solve resumed from its own checkpoint equals the uninterrupted warm solve; a
    checkpoint written by a cold solve of the same table is not resumed by a warm one."""
    ab, game, pop, types = setup
    every = CheckSchedule(first=20, growth=1.5)
    state = solve_table(game, types, pop.weights, 0.0, iterations=50).state
    whole = solve_table(game, types, pop.weights, 0.5, iterations=90, schedule=every, warm_start=state)
    ck = tmp_path / "ck.npz"
    solve_table(game, types, pop.weights, 0.5, iterations=40, schedule=every, checkpoint=ck, checkpoint_every=40)
    fresh = solve_table(
        game, types, pop.weights, 0.5, iterations=90, schedule=every, warm_start=state, checkpoint=ck
    )  # the cold checkpoint is ignored: a fresh warm run
    assert np.array_equal(fresh.policy, whole.policy)
    real_save = solve_module._save

    def save_then_die(solver, path, rows):
        real_save(solver, path, rows)
        if solver.iteration == 40:
            raise KeyboardInterrupt

    ck.unlink()
    monkeypatch.setattr(solve_module, "_save", save_then_die)
    with pytest.raises(KeyboardInterrupt):
        solve_table(
            game, types, pop.weights, 0.5, iterations=90, schedule=every, warm_start=state, checkpoint=ck,
            checkpoint_every=40,
        )  # fmt: skip
    monkeypatch.setattr(solve_module, "_save", real_save)
    resumed = solve_table(game, types, pop.weights, 0.5, iterations=90, schedule=every, warm_start=state, checkpoint=ck)
    assert np.array_equal(resumed.policy, whole.policy)
    assert resumed.convergence.equals(whole.convergence)


def test_solver_comparison_rows(setup):
    """Three runs per algorithm, one row per check; the warm run starts from the Nash state
    (its first check is below the cold run's); ``reached`` marks the rows under the target."""
    ab, game, pop, types = setup
    every = CheckSchedule(first=10, growth=1.5)
    df, timing = compare_solver(
        game, types, pop.weights, "tiny", "dcfr", target=5e-3, iterations=400, warm_p=0.2, schedule=every
    )
    assert list(df.columns) == COMPARISON_COLUMNS and list(timing.columns) == TIMING_COLUMNS
    assert list(dict.fromkeys(df["run"])) == list(RUNS)
    assert set(df.loc[df["run"] == "nash", "p"]) == {0.0} and set(df.loc[df["run"] != "nash", "p"]) == {0.2}
    assert np.array_equal(df["reached"], df["exploitability"] <= 5e-3)
    first = df.groupby("run")["exploitability"].first()
    assert first["warm"] < first["cold"]
    for run in RUNS:  # each run stops at its first check under the target
        d = df[df["run"] == run]
        assert d["reached"].iloc[-1] and not d["reached"].iloc[:-1].any()
    assert len(timing) == len(df) and (timing["seconds"] > 0).all()
    hit = time_to_target(df, timing)
    assert list(hit["run"]) == list(RUNS) and hit["seconds"].notna().all()
    assert np.array_equal(hit["iterations"], [df[df["run"] == r]["iteration"].iloc[-1] for r in RUNS])
