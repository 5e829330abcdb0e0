"""CFR+ and its variants on the public tree with vectors of private states.

One iteration is two passes over the public tree (alternating updates: player 0
is updated, its new strategy is used to update player 1), each a Numba kernel:
a forward pass for reaches, a backward pass for counterfactual values, a loop
over the updating player's decision nodes for regrets.  The whole run of
``n`` iterations stays inside one compiled call.

Notation for player p, member (n, s) of information set I, action a:
``r_s(a) = v(child_a)[s] - v(n)[s]`` (counterfactual values from
:func:`poker51.solver.passes._backward_kernel`), ``C_s`` the static chance weight of the
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

import hashlib
from collections.abc import Callable

import numpy as np
from numba import njit

from poker51.solver.passes import _backward_kernel, _forward_kernel, scratch_size
from poker51.solver.tree import Game


@njit(cache=True)
def _regret_matching_plus(regret, inc, lo, hi, t, floor, discount, alpha, beta):
    """R <- R + inc on actions lo..hi-1, then the DCFR discount and/or the RM+ floor."""
    ta = t**alpha
    tb = t**beta
    pos = ta / (ta + 1.0)
    neg = tb / (tb + 1.0)
    for x in range(lo, hi):
        r = regret[x] + inc[x]
        if discount:
            r *= pos if r > 0.0 else neg
        if floor and r < 0.0:
            r = 0.0
        regret[x] = r


@njit(cache=True)
def _current_strategy(regret, inc, strategy, act_off, i_lo, i_hi, predictive):
    """Regret matching on information sets i_lo..i_hi-1: strategy proportional to
    the positive part of R (of R + inc when predictive); uniform if none is positive."""
    for i in range(i_lo, i_hi):
        lo, hi = act_off[i], act_off[i + 1]
        tot = 0.0
        for x in range(lo, hi):
            y = regret[x] + (inc[x] if predictive else 0.0)
            y = y if y > 0.0 else 0.0
            strategy[x] = y
            tot += y
        for x in range(lo, hi):
            strategy[x] = strategy[x] / tot if tot > 0.0 else 1.0 / (hi - lo)


@njit(cache=True)
def _update_average(avg, strategy, qsum, act_off, i_lo, i_hi, weight):
    """avg(I, a) += weight * (own probability of reaching I) * strategy(I, a)."""
    for i in range(i_lo, i_hi):
        w = weight * qsum[i]
        if w == 0.0:
            continue
        for x in range(act_off[i], act_off[i + 1]):
            avg[x] += w * strategy[x]


@njit(cache=True)
def _instant_regrets(g, p, v, own_reach, inc, qnum, qsum, csum):
    """inc(I, a) and qsum(I) = sum of q over I's members, for every information set of p."""
    dec = g.dec_nodes0 if p == 0 else g.dec_nodes1
    cr = g.chance_reach0 if p == 0 else g.chance_reach1
    state_off, n_states, children, child_start, child_count = (
        g.state_off[p],
        g.n_states[p],
        g.children,
        g.child_start,
        g.child_count,
    )
    iset_off, state_iset, act_off, iset_size, node_chance = (
        g.iset_off,
        g.state_iset,
        g.act_off,
        g.iset_size,
        g.node_chance,
    )
    i_lo, i_hi = g.iset_range[p], g.iset_range[p + 1]
    for i in range(i_lo, i_hi):
        qsum[i] = 0.0
        csum[i] = 0.0
    for x in range(act_off[i_lo], act_off[i_hi]):
        inc[x] = 0.0
        qnum[x] = 0.0
    for n in dec:
        off = state_off[n]
        io = iset_off[n]
        cs = child_start[n]
        na = child_count[n]
        pn = node_chance[n]
        for s in range(n_states[n]):
            i = state_iset[io + s]
            ao = act_off[i]
            c = cr[off + s]
            q = pn * own_reach[off + s]
            vs = v[off + s]
            qsum[i] += q
            if iset_size[i] == 1:
                for a in range(na):
                    inc[ao + a] = c * (v[state_off[children[cs + a]] + s] - vs)
            else:
                csum[i] += c
                for a in range(na):
                    r = v[state_off[children[cs + a]] + s] - vs
                    inc[ao + a] += c * r
                    qnum[ao + a] += q * r
    for i in range(i_lo, i_hi):
        if iset_size[i] > 1 and qsum[i] > 0.0:
            scale = csum[i] / qsum[i]
            for x in range(act_off[i], act_off[i + 1]):
                inc[x] = scale * qnum[x]


@njit(cache=True)
def _iterate(
    g,
    regret,
    avg,
    strategy,
    inc,
    qnum,
    qsum,
    csum,
    reach0,
    reach1,
    v0,
    v1,
    scratch,
    mixed,
    fixed_reach,
    t0,
    n_iter,
    floor,
    discount,
    alpha,
    beta,
    gamma,
    predictive,
    rnr_player,
    rnr_p,
):
    """Run iterations t0+1 .. t0+n_iter in place (alternating updates, player 0 first)."""
    _forward_kernel(g, 0, strategy, reach0)
    _forward_kernel(g, 1, strategy, reach1)
    for it in range(n_iter):
        t = float(t0 + it + 1)
        w = t**gamma
        for p in range(2):
            own = reach0 if p == 0 else reach1
            opp = reach1 if p == 0 else reach0
            v = v0 if p == 0 else v1
            if rnr_player == p:
                for x in range(len(opp)):
                    mixed[x] = (1.0 - rnr_p) * opp[x] + rnr_p * fixed_reach[x]
                opp = mixed
            _backward_kernel(g, p, opp, strategy, False, v, scratch)
            _instant_regrets(g, p, v, own, inc, qnum, qsum, csum)
            i_lo, i_hi = g.iset_range[p], g.iset_range[p + 1]
            _update_average(avg, strategy, qsum, g.act_off, i_lo, i_hi, w)
            _regret_matching_plus(regret, inc, g.act_off[i_lo], g.act_off[i_hi], t, floor, discount, alpha, beta)
            _current_strategy(regret, inc, strategy, g.act_off, i_lo, i_hi, predictive)
            _forward_kernel(g, p, strategy, own)


def normalize_policy(game: Game, weights: np.ndarray) -> np.ndarray:
    """Per-information-set normalisation; all-zero sets become uniform."""
    a = game.arrays
    sums = np.add.reduceat(weights, a.act_off[:-1]) if len(weights) else weights
    tot = np.repeat(sums, a.num_actions)
    uni = np.repeat(1.0 / a.num_actions, a.num_actions)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(tot > 0, weights / np.where(tot > 0, tot, 1.0), uni)


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
    ) -> None:
        self.game = game
        a = game.arrays
        A, I = game.num_actions, game.num_infosets
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
        self.log: list[tuple[int, float]] = []
        self._qnum, self._qsum, self._csum = np.zeros(A), np.zeros(I), np.zeros(I)
        n0, n1 = int(a.n_states[0].sum()), int(a.n_states[1].sum())
        self._reach = (np.zeros(n0), np.zeros(n1))
        self._v = (np.zeros(n0), np.zeros(n1))
        self._scratch = np.zeros(scratch_size(a))
        if rnr is None:
            self.rnr_player, self.rnr_p, self.fixed_reach = -1, 0.0, np.zeros(0)
            self._mixed = np.zeros(0)
        else:
            self.rnr_player, self.rnr_p = int(rnr[0]), float(rnr[1])
            self.fixed_reach = np.ascontiguousarray(rnr[2], np.float64)
            self._mixed = np.zeros_like(self.fixed_reach)

    # -- iterations ----------------------------------------------------------------
    def iterate(self, n: int = 1) -> None:
        """Run n iterations (deterministic; chunking does not change the result)."""
        f = self.flags
        _iterate(
            self.game.arrays,
            self.regret,
            self.avg,
            self.strategy,
            self.inc,
            self._qnum,
            self._qsum,
            self._csum,
            self._reach[0],
            self._reach[1],
            self._v[0],
            self._v[1],
            self._scratch,
            self._mixed,
            self.fixed_reach,
            self.iteration,
            int(n),
            f["regret_floor"],
            f["discount"],
            f["alpha"],
            f["beta"],
            f["gamma"],
            f["predictive"],
            self.rnr_player,
            self.rnr_p,
        )
        self.iteration += int(n)

    def solve(
        self,
        iterations: int,
        *,
        target_exploitability: float | None = None,
        every: int = 100,
        callback: Callable[[int, float], None] | None = None,
        progress: bool = False,
    ) -> CFRSolver:
        """Run up to ``iterations`` more iterations.

        Every ``every`` iterations (when a target or callback is given) the
        exploitability of the average policy is computed, appended to
        ``self.log`` and passed to ``callback(iteration, exploitability)``; the
        run stops once it is <= ``target_exploitability``.
        """
        from poker51.solver.best_response import exploitability

        checking = target_exploitability is not None or callback is not None
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=iterations, desc=f"{self.name} {self.game.name}", unit="it")
        done = 0
        while done < iterations:
            chunk = min(every if checking else max(every, 1000), iterations - done)
            self.iterate(chunk)
            done += chunk
            if bar is not None:
                bar.update(chunk)
            if checking:
                e = exploitability(self.game, self.average_policy())
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
            self._qnum,
            self._qsum,
            self._csum,
            *self._reach,
            *self._v,
            self._scratch,
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


#: algorithm name (as on the command line) -> solver class
SOLVERS: dict[str, type[CFRSolver]] = {"cfr+": CFRPlusSolver, "dcfr": DCFRSolver, "pcfr+": PCFRPlusSolver}
