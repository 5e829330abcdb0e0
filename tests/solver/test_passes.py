"""The passes on threads, the one-pass best response and the one-pass check, against their twins."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import draw_game, random_policy, small_abstraction

from poker51.games.abstract import H, R, build_game
from poker51.games.toy import kuhn, leduc
from poker51.solver.best_response import (
    best_response_policy,
    best_response_policy_sweeps,
    best_response_value,
    infoset_best_response_value,
    opponent_reach,
    profile_gap,
    value_against,
)
from poker51.solver.cfr import SOLVERS, multi_member_sets, normalize_policy, update_sets
from poker51.solver.passes import (
    MODE_CFR,
    MODE_INFOSET,
    MODE_POLICY,
    MODE_STATE,
    Passes,
    backward_par,
    backward_seq,
    forward_reach,
    no_update,
    terminal_dot,
)
from poker51.solver.tree import per_state


@pytest.fixture(scope="module")
def tiny():
    return build_game(small_abstraction(C=3, B=5, seed=3))


def _games(tiny):
    return {"kuhn": kuhn(), "leduc": leduc(), "draw": draw_game(), "tiny": tiny}


@pytest.mark.parametrize("name", ["leduc", "tiny"])
@pytest.mark.parametrize(  # the default always; the others' tiny games (10 s each) in make slow
    "algorithm", ["dcfr", pytest.param("cfr+", marks=pytest.mark.slow), pytest.param("pcfr+", marks=pytest.mark.slow)]
)
def test_threads_give_bit_identical_solves(tiny, name, algorithm):
    """Two and three workers (forced, whatever the game's size) give the same bytes as one."""
    g = _games(tiny)[name]
    kw = {}
    if name == "tiny":
        kw["rnr"] = (R, 0.5, opponent_reach(g, H, random_policy(g, 4)))
    runs = []
    for workers in (1, 2, 3):
        s = SOLVERS[algorithm](g, workers=workers, **kw)
        assert s.passes.parallel == (workers > 1)
        s.iterate(30)
        runs.append(b"".join(x.tobytes() for x in (s.regret, s.avg, s.strategy, s.inc)))
        if workers == 1:
            gap = repr(s.check())  # repr: exact floats, and NaN equals NaN
        else:
            assert repr(s.check()) == gap
    assert runs[0] == runs[1] == runs[2]


@pytest.mark.parametrize("mode", [MODE_POLICY, MODE_STATE, MODE_INFOSET])
def test_parallel_passes_equal_sequential(tiny, mode):
    g, a = tiny, tiny.arrays
    pol = random_policy(g, 9)
    for p in (0, 1):
        one, two = Passes(a, 1), Passes(a, 2)
        r1 = one.forward(1 - p, pol, np.zeros(int(a.n_states[1 - p].sum())))
        r2 = two.forward(1 - p, pol, np.zeros(int(a.n_states[1 - p].sum())))
        assert r1.tobytes() == r2.tobytes()
        v1, v2 = np.zeros(int(a.n_states[p].sum())), np.zeros(int(a.n_states[p].sum()))
        assert one.backward(p, r1, pol, mode, v1) == two.backward(p, r2, pol, mode, v2)
        assert v1.tobytes() == v2.tobytes()
        if mode == MODE_INFOSET:
            assert np.array_equal(one.choice, two.choice)


@pytest.mark.parametrize("name", ["kuhn", "leduc", "draw", "tiny"])
@pytest.mark.parametrize("seed", [0, 1])
def test_one_pass_best_response_equals_sweeps(tiny, name, seed):
    """The one-pass response plays the policy the sweeps settle on, and its value is that
    policy's value; with perfect recall it is the per-state best response."""
    g = _games(tiny)[name]
    pol = random_policy(g, seed)
    for p in (0, 1):
        one = best_response_policy(g, pol, p)
        assert np.array_equal(one, best_response_policy_sweeps(g, pol, p))
        value = infoset_best_response_value(g, pol, p)
        assert value == pytest.approx(value_against(g, one, p, pol), abs=1e-12)
        per_state = best_response_value(g, pol, p)
        if name in ("kuhn", "leduc") or (name == "tiny" and p == H) or (name == "draw" and p == 0):
            assert value == pytest.approx(per_state, abs=1e-12)  # perfect recall
        else:
            assert value <= per_state + 1e-12  # forgetting can only cost


def test_one_pass_response_falls_back_to_sweeps_when_sets_span_depths(tiny):
    g = tiny
    forced = g.arrays._replace(br_one_pass=np.array([0], np.int64))
    slow = type(g)(g.name, forced, g.iset_keys)
    pol = random_policy(g, 5)
    assert np.array_equal(best_response_policy(slow, pol, R), best_response_policy(g, pol, R))
    assert infoset_best_response_value(slow, pol, R) == pytest.approx(infoset_best_response_value(g, pol, R), abs=1e-12)


@pytest.mark.parametrize("p", [0.0, 0.3, 1.0])
def test_gap_equals_the_separate_passes(tiny, p):
    """The four-pass check against the values computed one by one with the mixture."""
    g = tiny
    pol, types = random_policy(g, 1), np.stack([random_policy(g, 2), random_policy(g, 3)])
    w = np.array([0.25, 0.75])
    fixed = opponent_reach(g, H, types, w)
    gap = profile_gap(g, pol, R, p, fixed)
    assert gap.guarantee == pytest.approx(-best_response_value(g, pol, H), abs=1e-12)
    if p > 0:
        assert gap.vs_fixed == pytest.approx(value_against(g, pol, R, types, w), abs=1e-12)
    else:
        assert np.isnan(gap.vs_fixed)
    stack, mix = np.vstack([pol, types]), np.concatenate([[1 - p], p * w])
    keep = mix > 0
    br = infoset_best_response_value(g, stack[keep], R, mix[keep] / mix[keep].sum())
    assert gap.br_rnr == pytest.approx(br, abs=1e-12)
    low = (1 - p) * gap.guarantee + (p * gap.vs_fixed if p > 0 else 0)
    assert gap.exploitability == pytest.approx(0.5 * (br - low), abs=1e-12)
    assert gap.exploitability >= -1e-12


def test_terminal_dot_is_the_value_of_the_reaching_strategy(tiny):
    g, a = tiny, tiny.arrays
    pol, other = random_policy(g, 6), random_policy(g, 7)
    vh = np.zeros(int(a.n_states[H].sum()))
    Passes(a).backward(H, forward_reach(a, R, pol), pol, MODE_POLICY, vh)
    terminal = np.isin(per_state(a, H, np.arange(len(a.kind))), np.flatnonzero(a.kind >= 3))
    chance = per_state(a, H, a.node_chance)
    reach = forward_reach(a, H, other)
    plain = float(np.sum((reach * vh * chance)[terminal]))
    assert terminal_dot(a, H, reach, vh) == pytest.approx(plain, rel=1e-13)
    assert plain == pytest.approx(value_against(g, other, H, pol), abs=1e-12)


def test_normalize_equals_numpy(tiny):
    g, a = tiny, tiny.arrays
    w = np.random.default_rng(0).random(g.num_actions)
    w[a.act_off[3] : a.act_off[4]] = 0.0  # an all-zero set becomes uniform
    out = normalize_policy(g, w)
    sums = np.repeat(np.add.reduceat(w, a.act_off[:-1]), a.num_actions)
    plain = np.where(sums > 0, w / np.where(sums > 0, sums, 1), 1.0 / np.repeat(a.num_actions, a.num_actions))
    assert np.allclose(out, plain, rtol=1e-15, atol=0)


def _plain_update(g, p, v, own, regret, avg, strategy, w, floor, predictive, discount=(1.0, 1.0)):
    """One CFR update of p's sets, written from the formula in :mod:`poker51.solver.cfr`;
    ``discount``: DCFR's factors of positive and negative regrets."""
    a = g.arrays
    cr = a.chance_reach0 if p == 0 else a.chance_reach1
    members: dict[int, list] = {}
    for n in a.dec_nodes0 if p == 0 else a.dec_nodes1:
        for s in range(a.n_states[p, n]):
            members.setdefault(int(a.state_iset[a.iset_off[n] + s]), []).append((int(n), s))
    regret, avg, strategy = regret.copy(), avg.copy(), strategy.copy()
    for i, mem in members.items():
        lo, hi = a.act_off[i], a.act_off[i + 1]
        value = lambda n, s, k: v[a.state_off[p, a.children[a.child_start[n] + k]] + s]  # noqa: E731
        r = np.array([[value(n, s, k) - v[a.state_off[p, n] + s] for k in range(hi - lo)] for n, s in mem])
        c = np.array([cr[a.state_off[p, n] + s] for n, s in mem])
        q = np.array([a.node_chance[n] * own[a.state_off[p, n] + s] for n, s in mem])
        inc = (c @ r) if len(mem) == 1 or q.sum() == 0 else (c.sum() / q.sum()) * (q @ r)
        avg[lo:hi] += w * q.sum() * strategy[lo:hi]
        new = regret[lo:hi] + inc
        new *= np.where(new > 0, discount[0], discount[1])
        regret[lo:hi] = np.maximum(new, 0.0) if floor else new
        pos = np.maximum(regret[lo:hi] + (inc if predictive else 0), 0)
        strategy[lo:hi] = pos / pos.sum() if pos.sum() > 0 else 1.0 / (hi - lo)
    return regret, avg, strategy


@pytest.mark.parametrize("name", ["draw", "tiny"])
@pytest.mark.parametrize("flags", [(True, False, False), (True, False, True), (False, True, False)])
def test_set_update_equals_plain_formula(tiny, name, flags):
    """The set update (the kernel's own lines, also written out in the solver's backward pass:
    :func:`test_fused_update_equals_pass_then_update`) against the formula: RM+'s floor,
    PCFR+'s prediction, DCFR's discounts (at t = 4: 8/9 for positive regrets, 1/2 for negative)."""
    floor, predictive, discount = flags
    pos, neg = (4**1.5 / (4**1.5 + 1), 0.5) if discount else (1.0, 1.0)
    g = _games(tiny)[name]
    a = g.arrays
    rng = np.random.default_rng(5)
    pol = random_policy(g, 8)
    for p in (0, 1):
        own = forward_reach(a, p, pol)
        v = np.zeros(int(a.n_states[p].sum()))
        Passes(a).backward(p, forward_reach(a, 1 - p, pol), pol, MODE_POLICY, v)
        regret, avg = rng.random(g.num_actions) - 0.3, rng.random(g.num_actions)
        want = _plain_update(g, p, v, own, regret, avg, pol, 3.0, floor, predictive, (pos, neg))
        got = [regret.copy(), avg.copy(), pol.copy()]
        inc = np.zeros(g.num_actions)
        sets = np.arange(a.iset_range[p], a.iset_range[p + 1])
        update_sets(a, p, v, own, *got, inc, sets, 0, len(sets), 3.0, floor, discount, pos, neg, predictive)
        for x, y in zip(got, want):
            assert np.allclose(x, y, rtol=1e-12, atol=1e-14)
        assert np.any(got[0][g.player_actions(p)] < 0) != floor  # the floor clips; the discount keeps negatives


@pytest.mark.parametrize("name", ["leduc", "draw", "tiny"])
@pytest.mark.parametrize("flags", [(True, False, False), (False, True, False), (True, False, True)])
def test_fused_update_equals_pass_then_update(tiny, name, flags):
    """The solver's backward pass that updates one-member sets on the way (``MODE_CFR``),
    then :func:`update_sets` on the others, gives the bytes of a plain backward pass
    followed by :func:`update_sets` on every set, on one thread and on two or three."""
    floor, discount, predictive = flags
    g = _games(tiny)[name]
    a = g.arrays
    rng = np.random.default_rng(11)
    pol = random_policy(g, 6)
    w, pos, neg = 5.0, 0.7, 0.5
    multis = []
    for p in (0, 1):
        own, opp = forward_reach(a, p, pol), forward_reach(a, 1 - p, pol)
        regret, avg = rng.random(g.num_actions) - 0.4, rng.random(g.num_actions)
        v = np.zeros(int(a.n_states[p].sum()))
        Passes(a).backward(p, opp, pol, MODE_POLICY, v)
        want = [regret.copy(), avg.copy(), pol.copy(), np.zeros(g.num_actions)]
        sets = np.arange(a.iset_range[p], a.iset_range[p + 1])
        update_sets(a, p, v, own, *want, sets, 0, len(sets), w, floor, discount, pos, neg, predictive)
        multi = multi_member_sets(g, p)
        multis.append(len(multi))
        for workers in (1, 2, 3):
            ps = Passes(a, workers)
            got = [regret.copy(), avg.copy(), pol.copy(), np.zeros(g.num_actions)]
            cfr = (own, got[0], got[1], got[3], w, pos, neg, floor, discount, predictive)
            vg = np.zeros_like(v)
            if workers == 1:
                backward_seq(a, p, opp, got[2], MODE_CFR, vg, ps.scratch, ps.choice, cfr, ps.untracked)
            else:
                backward_par(
                    a, p, opp, got[2], MODE_CFR, vg, ps.scratch, ps.choice, ps.plan_off, ps.plan_seg, cfr, ps.untracked
                )
            update_sets(a, p, vg, own, *got, multi, 0, len(multi), w, floor, discount, pos, neg, predictive)
            assert vg.tobytes() == v.tobytes()
            assert [x.tobytes() for x in got] == [x.tobytes() for x in want]
            assert not np.array_equal(got[0], regret)  # something was updated
    assert (sum(multis) > 0) == (name != "leduc")  # perfect recall: every set has one member


def _sparse_policy(g, seed):
    """A random policy that, at about a third of the decision nodes, never takes one action
    in any state (a set keeps its first action if it lost all the others): the child below
    is reached by nobody."""
    from poker51.solver.passes import DECISION

    a = g.arrays
    rng = np.random.default_rng(seed)
    raw = rng.random(g.num_actions) + 0.05
    for n in np.flatnonzero(a.kind == DECISION):
        if rng.random() < 0.35:
            q = a.player[n]
            sets = a.state_iset[a.iset_off[n] : a.iset_off[n] + a.n_states[q, n]]
            raw[a.act_off[sets] + rng.integers(a.child_count[n])] = 0.0
    first = a.act_off[:-1]
    raw[first] += (np.add.reduceat(raw, first) == 0) * 0.5
    return normalize_policy(g, raw)


@pytest.mark.parametrize("name", ["kuhn", "leduc", "draw", "tiny"])
@pytest.mark.parametrize("workers", [1, 2])
def test_pruned_passes_give_the_bytes_of_full_passes(tiny, name, workers):
    """Forward passes that keep which nodes a player reaches (``live``) write the reach of
    untracked ones; backward passes that skip the nodes the opponent never reaches write
    the bytes of full ones, in every mode that prunes and in ``MODE_CFR`` (with its
    updates), under a policy that leaves many nodes unreached."""
    from poker51.solver.passes import forward_par, forward_seq

    g = _games(tiny)[name]
    a = g.arrays
    pol = _sparse_policy(g, 17)
    ps = Passes(a, workers)
    rng = np.random.default_rng(3)
    dead = 0
    for p in (0, 1):
        o = 1 - p
        full = ps.forward(o, pol, np.zeros(int(a.n_states[o].sum())))
        opp = np.full_like(full, np.nan)
        live = np.full(len(a.kind), 7, np.uint8)
        if workers == 1:
            forward_seq(a, o, pol, opp, live)
        else:
            forward_par(a, o, pol, opp, ps.plan_off, ps.plan_seg, live)
        assert opp.tobytes() == full.tobytes()
        off, ns = a.state_off[o], a.n_states[o]
        want = [int(np.any(full[off[n] : off[n] + ns[n]] != 0)) for n in range(len(a.kind))]
        assert live.tolist() == want
        dead += len(want) - sum(want)
        for mode in (MODE_POLICY, MODE_STATE):
            v_full, v_pruned = (np.full(int(a.n_states[p].sum()), np.nan) for _ in range(2))
            root = ps.backward(p, full, pol, mode, v_full)
            args = (a, p, opp, pol, mode, v_pruned, ps.scratch, ps.choice)
            if workers == 1:
                got = backward_seq(*args, no_update(), live)
            else:
                got = backward_par(*args, ps.plan_off, ps.plan_seg, no_update(), live)
            assert got == root and v_pruned.tobytes() == v_full.tobytes()
        own = ps.forward(p, pol, np.zeros(int(a.n_states[p].sum())))
        regret, avg = rng.random(g.num_actions) - 0.4, rng.random(g.num_actions)
        runs = []
        for prune in (ps.untracked, live):
            state = [regret.copy(), avg.copy(), pol.copy(), np.zeros(g.num_actions)]
            cfr = (own, state[0], state[1], state[3], 3.0, 0.8, 0.5, False, True, False)
            v = np.full(int(a.n_states[p].sum()), np.nan)
            args = (a, p, opp, state[2], MODE_CFR, v, ps.scratch, ps.choice)
            if workers == 1:
                backward_seq(*args, cfr, prune)
            else:
                backward_par(*args, ps.plan_off, ps.plan_seg, cfr, prune)
            runs.append(b"".join(x.tobytes() for x in (v, *state)))
        assert runs[0] == runs[1]
    assert dead > 0  # the policy leaves nodes unreached: the pruning ran


@pytest.mark.parametrize("algorithm", ["dcfr", "cfr+", "pcfr+"])
def test_pruning_solver_gives_the_bytes_of_a_full_one(tiny, algorithm):
    """A solver whose backward passes skip unreached nodes (the default) and one that does
    every node (``prune=False``) give the same bytes, plain and restricted (the mixed
    opponent's liveness); DCFR's zeroed actions leave nodes unreached in both games."""
    for g, kw in ((leduc(), {}), (tiny, {"rnr": (R, 0.5, opponent_reach(tiny, H, _sparse_policy(tiny, 4)))})):
        runs = []
        for prune in (True, False):
            s = SOLVERS[algorithm](g, prune=prune, **kw)
            s.iterate(40)
            if prune and algorithm == "dcfr":
                assert min(int(s._live[0].sum()), int(s._live[1].sum())) < len(g.arrays.kind)
            runs.append(b"".join(x.tobytes() for x in (s.regret, s.avg, s.strategy, s.inc)))
        assert runs[0] == runs[1]


def test_passes_refuse_the_solver_mode():
    a = kuhn().arrays
    with pytest.raises(ValueError, match="MODE_CFR"):
        Passes(a).backward(0, np.ones(int(a.n_states[1].sum())), kuhn().uniform_policy(), MODE_CFR, np.zeros(5))


def test_threads_wait_passively_unless_told_otherwise(monkeypatch):
    import os

    from poker51.solver.passes import wait_passively

    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    wait_passively()
    assert os.environ["OMP_WAIT_POLICY"] == "PASSIVE"
    monkeypatch.setenv("OMP_WAIT_POLICY", "ACTIVE")
    wait_passively()
    assert os.environ["OMP_WAIT_POLICY"] == "ACTIVE"
