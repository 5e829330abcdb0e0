"""CFR+ and its variants on the public tree with vectors of private states.

One iteration is two passes over the public tree (alternating updates: player 0
is updated, its new strategy is used to update player 1), each a Numba kernel:
a backward pass for counterfactual values that also updates the regrets, average and
strategy of the updating player's one-member information sets as soon as their values
are known (``MODE_CFR``), a loop over its other sets, a forward pass for its new reach.
The whole run of ``n`` iterations stays inside one compiled call (``_iterate_seq``, or
``_iterate_par`` on threads: a one-thread solve never loads the threaded kernels).

Notation for player p, member (n, s) of information set I, action a:
``r_s(a) = v(child_a)[s] - v(n)[s]`` (counterfactual values from
:func:`poker51.solver.passes.backward_seq`), ``C_s`` the static chance weight of the
member, ``q_s = node_chance[n] * reach_p[n, s]`` its full own probability.
The instantaneous regret is

    inc(I, a) = (sum_s C_s / sum_s q_s) * sum_s q_s r_s(a)     (sum_s q_s > 0)
              = sum_s C_s r_s(a)                                 (otherwise)

which is the ordinary counterfactual regret whenever the members share the own
strategy reach (always for singletons) and weights the members of an
imperfect-recall set by their full probability (see :mod:`poker51.solver.tree`).

Variants only set flags (as OpenSpiel's ``CFRPlusSolver`` does):

============  =============  ====================  ====================  =========
solver        regret floor   regret discount       average weight        predictive
============  =============  ====================  ====================  =========
CFR+          max(R, 0)      none                  t (linear)            no
DCFR          none           t^1.5/(t^1.5+1) if    t^2                   no
                             R>0 else 1/2
PCFR+         max(R, 0)      none                  t^2                   yes
============  =============  ====================  ====================  =========

Tammelin 2014 (CFR+); Brown & Sandholm 2019 (DCFR, alpha 1.5, beta 0, gamma 2);
Farina, Kroer & Sandholm 2021 (PCFR+: strategy from ``[R + inc]^+``).

Restricted Nash response (Johanson, Zinkevich & Bowling 2007): with
``rnr=(player, p, fixed_reach)`` the updating ``player`` sees the opponent reach
``(1 - p) * reach_free + p * fixed_reach``; :mod:`poker51.solver.rnr` builds it.
"""

from __future__ import annotations

import collections
import hashlib
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit, prange

from poker51.solver.best_response import Gap, profile_gap
from poker51.solver.passes import (
    MODE_CFR,
    PENDING_SETS,
    Passes,
    backward_par,
    backward_seq,
    forward_par,
    forward_seq,
    live_either,
    live_nodes,
    mix,
    mix_par,
    set_update,
)
from poker51.solver.schedule import CheckSchedule
from poker51.solver.tree import Game


@njit(cache=True, inline="always")
def _weights(t, alpha, beta, gamma):
    """Iteration t's average weight t^gamma and DCFR's discounts of positive and negative regrets."""
    ta = t**alpha
    tb = t**beta
    return t**gamma, ta / (ta + 1.0), tb / (tb + 1.0)


@njit(cache=True)
def update_sets(g, p, v, own, regret, avg, strategy, inc, sets, j_lo, j_hi, w, floor, discount, pos, neg, predictive):
    """One CFR update of player p's information sets ``sets[j_lo:j_hi]``, set by set: the
    instantaneous regret (module docstring; members in pre-order), then
    :func:`poker51.solver.passes.set_update` (the average ``avg += w * q(I) * strategy``,
    the regret update with DCFR's discounts ``pos``/``neg`` and RM+'s floor, regret matching,
    on ``R + inc`` when ``predictive``).

    The solver's backward pass (``MODE_CFR``, :func:`poker51.solver.passes.backward_seq`)
    does the same to the sets with one member; this is for the others.  The instantaneous
    regrets of up to ``PENDING_SETS`` sets are gathered in a local buffer for one
    ``set_update`` call (a call per set cost the standard game several per cent of an
    iteration); a set's regret is stored in ``inc`` only when
    ``predictive`` (PCFR+'s prediction), which spares the other algorithms a pass over one
    more array."""
    if j_hi <= j_lo:  # no set (games whose sets all have one member): no buffers either
        return
    cr = g.chance_reach0 if p == 0 else g.chance_reach1
    state_off, children, child_start, node_chance = g.state_off[p], g.children, g.child_start, g.node_chance
    act_off, member_off, member_node, member_state = g.act_off, g.member_off, g.member_node, g.member_state
    width = 1
    for j in range(j_lo, j_hi):
        width = max(width, act_off[sets[j] + 1] - act_off[sets[j]])
    buf = np.empty(width * PENDING_SETS)  # the gathered sets' regrets, end to end
    num = np.empty(width)
    set_lo = np.empty(PENDING_SETS, np.int64)
    set_wq = np.empty(PENDING_SETS)
    set_na = np.empty(PENDING_SETS, np.int64)
    pend = 0
    fill = 0
    for j in range(j_lo, j_hi):
        i = sets[j]
        lo, hi = act_off[i], act_off[i + 1]
        na = hi - lo
        m0, m1 = member_off[i], member_off[i + 1]
        qsum = 0.0
        if m1 - m0 == 1:
            n = member_node[m0]
            s = member_state[m0]
            off = state_off[n]
            cs = child_start[n]
            c = cr[off + s]
            qsum = node_chance[n] * own[off + s]
            vs = v[off + s]
            for a in range(na):
                buf[fill + a] = c * (v[state_off[children[cs + a]] + s] - vs)
        else:
            csum = 0.0
            for a in range(na):
                buf[fill + a] = 0.0
                num[a] = 0.0
            for m in range(m0, m1):
                n = member_node[m]
                s = member_state[m]
                off = state_off[n]
                cs = child_start[n]
                c = cr[off + s]
                q = node_chance[n] * own[off + s]
                vs = v[off + s]
                qsum += q
                csum += c
                for a in range(na):
                    r = v[state_off[children[cs + a]] + s] - vs
                    buf[fill + a] += c * r
                    num[a] += q * r
            if qsum > 0.0:
                scale = csum / qsum
                for a in range(na):
                    buf[fill + a] = scale * num[a]
        set_lo[pend] = lo
        set_wq[pend] = w * qsum  # the average's weight: iteration weight x own probability of reaching I
        set_na[pend] = na
        pend += 1
        fill += na
        if pend == PENDING_SETS:  # the updates write no value, reach or weight read above: gathered
            set_update(regret, avg, strategy, inc, buf, set_lo, set_wq, set_na, pend, floor, discount, pos, neg,
                       predictive)  # fmt: skip
            pend = 0
            fill = 0
    if pend > 0:
        set_update(regret, avg, strategy, inc, buf, set_lo, set_wq, set_na, pend, floor, discount, pos, neg, predictive)


@njit(cache=True, parallel=True)
def _update_sets_par(g, p, v, own, regret, avg, strategy, inc, sets, w, floor, discount, pos, neg, predictive, chunks):
    """:func:`update_sets` on ``chunks`` equal ranges of ``sets``, on Numba threads (the sets
    are independent: no location is written by two chunks)."""
    n = len(sets)
    for c in prange(chunks):
        lo = n * c // chunks
        hi = n * (c + 1) // chunks
        update_sets(g, p, v, own, regret, avg, strategy, inc, sets, lo, hi, w, floor, discount, pos, neg, predictive)


#: the arrays a compiled run of iterations reads and writes (:meth:`CFRSolver.iterate`): the
#: solver's state (one entry per action: ``regret``, ``avg``, ``strategy``, ``inc``), per player
#: its reach and values at every (node, private state), the passes' buffers (``scratch``,
#: ``choice``: :class:`~poker51.solver.passes.Passes`), a restricted solve's mixed opponent reach
#: and fixed types' reach (empty when unrestricted), per player the information sets with
#: several members (:func:`multi_member_sets`), and which nodes each player, the mixed opponent
#: and the fixed types reach (one byte per node; empty: no pruning)
SolverArrays = collections.namedtuple(
    "SolverArrays",
    [
        "regret",
        "avg",
        "strategy",
        "inc",
        "reach0",
        "reach1",
        "v0",
        "v1",
        "scratch",
        "choice",
        "mixed",
        "fixed_reach",
        "multi0",
        "multi1",
        "live0",
        "live1",
        "live_mixed",
        "live_fixed",
    ],
)
#: a variant's flags (module docstring) and a restricted solve's responder and p
#: (``rnr_player`` -1: unrestricted)
SolverFlags = collections.namedtuple(
    "SolverFlags", ["floor", "discount", "alpha", "beta", "gamma", "predictive", "rnr_player", "rnr_p"]
)


@njit(cache=True)
def _iterate_seq(g, arrays, flags, t0, n_iter):
    """Run iterations t0+1 .. t0+n_iter in place on one thread (alternating updates, player 0
    first): per player a backward pass that also updates its one-member sets
    (``MODE_CFR``), the update of its other sets, a forward pass of its new reach.  The
    forward passes keep which nodes each player reaches (``live0``, ``live1``; with the
    fixed types' ``live_fixed``, the mixed opponent's ``live_mixed``), and the backward
    passes skip the values where the opponent's reach is zero (``_backward_segment``).
    ``arrays`` is a :data:`SolverArrays`, ``flags`` a :data:`SolverFlags`."""
    regret, avg, strategy, inc = arrays.regret, arrays.avg, arrays.strategy, arrays.inc
    reach0, reach1, v0, v1 = arrays.reach0, arrays.reach1, arrays.v0, arrays.v1
    multi0, multi1 = arrays.multi0, arrays.multi1
    scratch, choice, mixed, fixed_reach = arrays.scratch, arrays.choice, arrays.mixed, arrays.fixed_reach
    live0, live1, live_mixed, live_fixed = arrays.live0, arrays.live1, arrays.live_mixed, arrays.live_fixed
    floor, discount, predictive = flags.floor, flags.discount, flags.predictive
    alpha, beta, gamma, rnr_player, rnr_p = flags.alpha, flags.beta, flags.gamma, flags.rnr_player, flags.rnr_p
    forward_seq(g, 0, strategy, reach0, live0)
    forward_seq(g, 1, strategy, reach1, live1)
    for it in range(n_iter):
        w, pos, neg = _weights(float(t0 + it + 1), alpha, beta, gamma)
        for p in range(2):
            own = reach0 if p == 0 else reach1
            opp = reach1 if p == 0 else reach0
            own_live = live0 if p == 0 else live1
            opp_live = live1 if p == 0 else live0
            v = v0 if p == 0 else v1
            multi = multi0 if p == 0 else multi1
            if rnr_player == p:
                mix(opp, fixed_reach, rnr_p, mixed)
                opp = mixed
                live_either(opp_live, live_fixed, live_mixed)
                opp_live = live_mixed
            cfr = (own, regret, avg, inc, w, pos, neg, floor, discount, predictive)
            backward_seq(g, p, opp, strategy, MODE_CFR, v, scratch, choice, cfr, opp_live)
            update_sets(g, p, v, own, regret, avg, strategy, inc, multi, 0, len(multi), w, floor, discount, pos, neg,
                        predictive)  # fmt: skip
            forward_seq(g, p, strategy, own, own_live)


@njit(cache=True)
def _iterate_par(g, arrays, flags, t0, n_iter, plan_off, plan_seg):
    """:func:`_iterate_seq` with the passes and set updates on Numba threads (same results:
    every value is computed by the same operations in the same order)."""
    regret, avg, strategy, inc = arrays.regret, arrays.avg, arrays.strategy, arrays.inc
    reach0, reach1, v0, v1 = arrays.reach0, arrays.reach1, arrays.v0, arrays.v1
    multi0, multi1 = arrays.multi0, arrays.multi1
    scratch, choice, mixed, fixed_reach = arrays.scratch, arrays.choice, arrays.mixed, arrays.fixed_reach
    live0, live1, live_mixed, live_fixed = arrays.live0, arrays.live1, arrays.live_mixed, arrays.live_fixed
    floor, discount, predictive = flags.floor, flags.discount, flags.predictive
    alpha, beta, gamma, rnr_player, rnr_p = flags.alpha, flags.beta, flags.gamma, flags.rnr_player, flags.rnr_p
    chunks = 8 * (len(plan_off) - 1)
    forward_par(g, 0, strategy, reach0, plan_off, plan_seg, live0)
    forward_par(g, 1, strategy, reach1, plan_off, plan_seg, live1)
    for it in range(n_iter):
        w, pos, neg = _weights(float(t0 + it + 1), alpha, beta, gamma)
        for p in range(2):
            own = reach0 if p == 0 else reach1
            opp = reach1 if p == 0 else reach0
            own_live = live0 if p == 0 else live1
            opp_live = live1 if p == 0 else live0
            v = v0 if p == 0 else v1
            multi = multi0 if p == 0 else multi1
            if rnr_player == p:
                mix_par(opp, fixed_reach, rnr_p, mixed, chunks)
                opp = mixed
                live_either(opp_live, live_fixed, live_mixed)
                opp_live = live_mixed
            cfr = (own, regret, avg, inc, w, pos, neg, floor, discount, predictive)
            backward_par(g, p, opp, strategy, MODE_CFR, v, scratch, choice, plan_off, plan_seg, cfr, opp_live)
            _update_sets_par(g, p, v, own, regret, avg, strategy, inc, multi, w, floor, discount, pos, neg, predictive,
                             chunks)  # fmt: skip
            forward_par(g, p, strategy, own, plan_off, plan_seg, own_live)


def multi_member_sets(game: Game, p: int) -> np.ndarray:
    """Player p's information sets with more than one member (the ones the backward pass
    leaves to :func:`update_sets`), in order."""
    a = game.arrays
    lo, hi = int(a.iset_range[p]), int(a.iset_range[p + 1])
    return (np.flatnonzero(a.iset_size[lo:hi] > 1) + lo).astype(np.int64)


def normalize_policy(game: Game, weights: np.ndarray) -> np.ndarray:
    """Per-information-set normalisation; all-zero sets become uniform."""
    out = np.empty(len(weights))
    _normalize(np.ascontiguousarray(weights, np.float64), game.arrays.act_off, out)
    return out


@njit(cache=True)
def _normalize(weights, act_off, out):
    for i in range(len(act_off) - 1):
        lo, hi = act_off[i], act_off[i + 1]
        tot = 0.0
        for x in range(lo, hi):
            tot += weights[x]
        for x in range(lo, hi):
            out[x] = weights[x] / tot if tot > 0.0 else 1.0 / (hi - lo)


class CFRSolver:
    """Regret minimisation over a :class:`~poker51.solver.tree.Game`; variants set flags.

    ``rnr = (player, p, fixed_reach)`` turns the solve into a restricted Nash
    response for ``player`` (see :mod:`poker51.solver.rnr`).
    """

    name = "cfr"

    def __init__(
        self,
        game: Game,
        *,
        regret_floor: bool = True,
        discount: bool = False,
        alpha: float = 1.5,
        beta: float = 0.0,
        gamma: float = 1.0,
        predictive: bool = False,
        rnr: tuple | None = None,
        workers: int | None = None,
        prune: bool = True,
    ) -> None:
        self.game = game
        a = game.arrays
        A = game.num_actions
        self.flags = dict(
            regret_floor=bool(regret_floor),
            discount=bool(discount),
            alpha=float(alpha),
            beta=float(beta),
            gamma=float(gamma),
            predictive=bool(predictive),
        )
        self.regret = np.zeros(A)
        self.avg = np.zeros(A)
        self.strategy = game.uniform_policy()
        self.inc = np.zeros(A)  # last instantaneous regret (PCFR+'s prediction)
        self.iteration = 0
        #: iterations the weights count before this solve's first: iteration t of the solve
        #: is weighted and discounted as iteration ``clock + t`` (a warm start's,
        #: :class:`poker51.study.solve.WarmStart`; 0 for a cold solve)
        self.clock = 0
        self.log: list[tuple[int, float]] = []
        self.origin = ""  # where a warm-started state came from (part of the checkpoint fingerprint)
        self.passes = Passes(a, workers)
        self._multi = (multi_member_sets(game, 0), multi_member_sets(game, 1))
        self._average = np.zeros(A)  # the average policy of the last check
        n0, n1 = int(a.n_states[0].sum()), int(a.n_states[1].sum())
        self._reach = (np.zeros(n0), np.zeros(n1))
        self._v = (np.zeros(n0), np.zeros(n1))
        if rnr is None:
            self.rnr_player, self.rnr_p, self.fixed_reach = -1, 0.0, np.zeros(0)
            self._mixed = np.zeros(0)
        else:
            self.rnr_player, self.rnr_p = int(rnr[0]), float(rnr[1])
            self.fixed_reach = np.ascontiguousarray(rnr[2], np.float64)
            self._mixed = np.zeros_like(self.fixed_reach)
        # which nodes each player reaches under the current strategy (kept by the forward
        # passes), the fixed types reach and the mixed opponent reaches: the backward passes
        # skip the values below a node the opponent never reaches (the same bytes;
        # ``prune=False``, empty arrays, does every node, for tests and benchmarks)
        nodes = len(a.kind) if prune else 0
        self._live = (np.ones(nodes, np.uint8), np.ones(nodes, np.uint8))
        self._live_mixed = np.ones(nodes, np.uint8)
        self._live_fixed = np.ones(nodes, np.uint8)
        if rnr is not None and prune:
            o = 1 - self.rnr_player
            live_nodes(a.state_off[o], a.n_states[o], self.fixed_reach, self._live_fixed)

    # -- iterations ----------------------------------------------------------------
    def load_kernels(self) -> float:
        """Load the compiled kernels of :meth:`iterate` and :meth:`check` now, so that a timed
        solve does not (Numba loads a cached kernel at its first call: about 25 ms for Leduc,
        a quarter of its solve); returns the seconds it took.  Runs no iteration and changes
        nothing :meth:`iterate` reads: the forward passes and the check of the starting
        profile write only buffers that every iteration and check rewrite first."""
        start = time.perf_counter()
        self.iterate(0)
        self.check()
        return time.perf_counter() - start

    def iterate(self, n: int = 1) -> None:
        """Run n iterations (deterministic; chunking and threads do not change the result)."""
        f, ps = self.flags, self.passes
        arrays = SolverArrays(
            self.regret, self.avg, self.strategy, self.inc, *self._reach, *self._v, ps.scratch, ps.choice,
            self._mixed, self.fixed_reach, *self._multi, *self._live, self._live_mixed, self._live_fixed,
        )  # fmt: skip
        flags = SolverFlags(
            f["regret_floor"], f["discount"], f["alpha"], f["beta"], f["gamma"], f["predictive"], self.rnr_player,
            self.rnr_p,
        )  # fmt: skip
        t0 = self.clock + self.iteration
        if ps.parallel:  # two kernels: a one-thread solve never loads the threaded ones
            _iterate_par(self.game.arrays, arrays, flags, t0, int(n), ps.plan_off, ps.plan_seg)
        else:
            _iterate_seq(self.game.arrays, arrays, flags, t0, int(n))
        self.iteration += int(n)

    def check(self) -> Gap:
        """The :class:`~poker51.solver.best_response.Gap` of the average profile: four passes
        over the tree (about one iteration), in the solver's own buffers."""
        r = self.rnr_player if self.rnr_player >= 0 else 1
        mixed = self._mixed if self.rnr_player >= 0 else np.zeros(0)
        _normalize(self.avg, self.game.arrays.act_off, self._average)
        return profile_gap(
            self.game,
            self._average,
            r,
            self.rnr_p,
            self.fixed_reach if self.rnr_player >= 0 else None,
            passes=self.passes,
            buffers=(*self._reach, *self._v, mixed),
        )

    def solve(
        self,
        iterations: int,
        *,
        target_exploitability: float | None = None,
        schedule: CheckSchedule | None = None,
        callback: Callable[[int, float], None] | None = None,
        progress: bool = False,
        step: Callable[[int, Any], None] | None = None,
    ) -> CFRSolver:
        """Run up to ``iterations`` more iterations.

        ``step(n, bar)`` runs ``n`` of them and advances the progress bar ``bar`` (None without
        ``progress``); by default one :meth:`iterate` call (the Ctrl-C driver of ``poker51 solve``
        passes :func:`poker51.study.solve.iterate_in_chunks`).

        When a target or callback is given, the exploitability of the average profile
        (:meth:`check`) is computed at the iterations of ``schedule`` (default
        :class:`~poker51.solver.schedule.CheckSchedule`) and at the last iteration,
        appended to ``self.log`` and passed to ``callback(iteration, exploitability)``;
        the run stops once it is <= ``target_exploitability``.
        """
        schedule = schedule or CheckSchedule()
        checking = target_exploitability is not None or callback is not None
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=iterations, desc=f"{self.name} {self.game.name}", unit="it")
        end = self.iteration + iterations
        while self.iteration < end:
            stop = end
            if checking:
                stop = max(schedule.next(self.log, target_exploitability), self.iteration + 1)
            n = min(stop, end) - self.iteration
            if step is not None:
                step(n, bar)
            else:
                self.iterate(n)
                if bar is not None:
                    bar.update(n)
            if checking:
                e = self.check().exploitability
                self.log.append((self.iteration, e))
                if bar is not None:
                    bar.set_postfix(exploitability=f"{e:.3g}")
                if callback is not None:
                    callback(self.iteration, e)
                if target_exploitability is not None and e <= target_exploitability:
                    break
        if bar is not None:
            bar.close()
        return self

    # -- results -------------------------------------------------------------------
    def average_policy(self) -> np.ndarray:
        return normalize_policy(self.game, self.avg)

    def current_policy(self) -> np.ndarray:
        return self.strategy.copy()

    def nbytes(self) -> int:
        """Bytes of the solver state plus the game arrays."""
        own = [
            self.regret,
            self.avg,
            self.strategy,
            self.inc,
            self._average,
            *self._multi,
            *self._reach,
            *self._v,
            *self._live,
            self._live_mixed,
            self._live_fixed,
            self.passes.scratch,
            self.passes.choice,
            self._mixed,
            self.fixed_reach,
        ]
        return int(sum(x.nbytes for x in own)) + self.game.nbytes()

    # -- checkpoints -----------------------------------------------------------------
    def _fingerprint(self) -> str:
        h = hashlib.sha1()
        for x in self.game.arrays:
            h.update(np.ascontiguousarray(x).tobytes())
        h.update(repr(sorted(self.flags.items())).encode())
        h.update(repr((self.rnr_player, self.rnr_p)).encode())
        h.update(self.fixed_reach.tobytes())
        h.update(self.origin.encode())
        if self.clock:
            h.update(f"clock {self.clock}".encode())
        return h.hexdigest()

    def save_checkpoint(self, path) -> None:
        """Write the whole solver state to an ``.npz`` file."""
        np.savez(
            path,
            regret=self.regret,
            avg=self.avg,
            strategy=self.strategy,
            inc=self.inc,
            iteration=np.int64(self.iteration),
            fingerprint=np.array(self._fingerprint()),
            log=np.array(self.log, dtype=np.float64).reshape(-1, 2),
        )

    def load_checkpoint(self, path) -> CFRSolver:
        """Restore a state saved by :meth:`save_checkpoint` (same game and flags)."""
        with np.load(path) as z:
            if str(z["fingerprint"]) != self._fingerprint():
                raise ValueError(f"{path}: checkpoint is for another game or solver configuration")
            for k in ("regret", "avg", "strategy", "inc"):
                getattr(self, k)[:] = z[k]
            self.iteration = int(z["iteration"])
            self.log = [(int(i), float(e)) for i, e in z["log"]]
        return self


class CFRPlusSolver(CFRSolver):
    """CFR+: regret matching+, alternating updates, linear averaging (the default)."""

    name = "cfr+"

    def __init__(self, game: Game, **kw) -> None:
        super().__init__(game, regret_floor=True, discount=False, gamma=1.0, predictive=False, **kw)


class DCFRSolver(CFRSolver):
    """Discounted CFR with alpha 1.5, beta 0, gamma 2."""

    name = "dcfr"

    def __init__(self, game: Game, *, alpha: float = 1.5, beta: float = 0.0, gamma: float = 2.0, **kw) -> None:
        super().__init__(
            game, regret_floor=False, discount=True, alpha=alpha, beta=beta, gamma=gamma, predictive=False, **kw
        )


class PCFRPlusSolver(CFRSolver):
    """Predictive CFR+: RM+ with the last instantaneous regret as prediction, quadratic averaging."""

    name = "pcfr+"

    def __init__(self, game: Game, **kw) -> None:
        super().__init__(game, regret_floor=True, discount=False, gamma=2.0, predictive=True, **kw)


#: the regret minimisers by name (their ``name``, as the command line and the config name them:
#: ``workflow/schemas/config.schema.yaml`` lists the same names) -> solver class; the only registry
SOLVERS: dict[str, type[CFRSolver]] = {cls.name: cls for cls in (CFRPlusSolver, DCFRSolver, PCFRPlusSolver)}
#: the fastest to 1 mjbit/hand on the three Poker 51 variants (``results/figures/solver_comparison``,
#: ``results/solver_comparison.parquet``); config/config.yaml ``solve.algorithm`` names it too
DEFAULT_ALGORITHM = DCFRSolver.name
