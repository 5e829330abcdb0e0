"""The local best response in plain Python: seat H of the engine, the kernels' twin.

:class:`PlainLBR` plays the engine's player protocol (``choose_keep``, ``act``) with exactly
the rules of :mod:`poker51.realcard.lbr_kernels` (the module docstring there states them), written
again without Numba: the same counter-based random stream (:func:`uniform_plain`), the same
rejection sampler, the same equity and expected-value rules and tie-breaks.  Riemann's
decisions for candidate hands come from the players themselves (:class:`TableModel` calls
:meth:`poker51.policies.riemann.Riemann.decide`; :class:`V05Model` the v0.5 read and threshold
functions of :mod:`poker51.policies.v05`), so a hand played by the engine with this player and
the real Riemann must equal the kernel's hand, action for action (tested).  It is slow (tens
of milliseconds a hand): the runs use the kernels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np

from poker51.hands.evaluate import strength
from poker51.hands.house import house_keep
from poker51.play.actions import Action, View
from poker51.play.engine import variant_cards
from poker51.policies.kernels import BET, CALL, CHECK, FOLD, PRE_DONE, R_LINES, RAISE, HandArrays
from poker51.policies.riemann import PublicState, Riemann
from poker51.policies.v05 import in_bluff_class, post_draw_read, pre_draw_read, spot_probabilities
from poker51.realcard.lbr_kernels import FINALISTS, PRE_CARDS, SCREEN, uniform_plain
from poker51.rules import ANTE, BET_SIZES, RIEMANN_BET, VARIANT_RULES

_CODE = {"fold": FOLD, "call": CALL, "raise": RAISE, "check": CHECK, "bet": BET}


class Model(Protocol):
    """Riemann's action (a code of :mod:`poker51.policies.kernels`) for candidate cards in a spot."""

    def pre(self, cards: Sequence[int], h_draw: int, line: int) -> int: ...

    def post(self, cards: Sequence[int], h_draw: int, r_draw: int, pre_done: int, line: int) -> int: ...


class TableModel:
    """Riemann v0.6: :meth:`Riemann.decide` (deep stacks: every raise can be answered)."""

    def __init__(self, riemann: Riemann):
        self.riemann = riemann

    def pre(self, cards, h_draw, line):
        return _CODE[self.riemann.decide(list(cards), PublicState(0, h_draw, -1, R_LINES[line], ""))[0]]

    def post(self, cards, h_draw, r_draw, pre_done, line):
        state = PublicState(1, h_draw, r_draw, PRE_DONE[pre_done], R_LINES[line])
        return _CODE[self.riemann.decide(list(cards), state)[0]]


class V05Model:
    """Riemann v0.5: its read, the spot's rule and the argmax of ``V05Player.act``."""

    def __init__(self, variant: str, belief: np.ndarray):
        self.variant, self.belief = variant, np.asarray(belief)

    def _act(self, line: int, read: float, cards, pot0: float) -> int:
        tokens = R_LINES[line].split("-")
        p = spot_probabilities(tokens, read, pot0, 1.0 if in_bluff_class(cards) else 0.0)
        names = (
            ["check", "bet"]
            if tokens == ["x"]
            else (["fold", "call", "raise"] if len(tokens) == 1 else ["fold", "call"])
        )
        return _CODE[names[int(np.argmax(p))]]

    def pre(self, cards, h_draw, line):
        return self._act(line, pre_draw_read(cards, h_draw, self.belief, self.variant), cards, 2 * ANTE)

    def post(self, cards, h_draw, r_draw, pre_done, line):
        read = post_draw_read(cards, h_draw, self.belief, self.variant)
        contrib = _contrib(PRE_DONE[pre_done])
        return self._act(line, read, cards, 2 * contrib)


class CheckCallModel:
    """A Riemann that checks when it can and calls otherwise (the known-answer opponent)."""

    def pre(self, cards, h_draw, line):
        return CHECK if line == 0 else CALL

    def post(self, cards, h_draw, r_draw, pre_done, line):
        return CHECK if line == 0 else CALL


def _contrib(pre_done: str) -> int:
    from poker51.policies.v05 import line_contributions

    return int(line_contributions(pre_done.split("-"))[0])


def draw_cards_plain(key: int, stream: int, j: int, avail: list[int], k: int) -> list[int]:
    """Plain twin of :func:`poker51.realcard.lbr_kernels.draw_cards`."""
    a = list(avail)
    n = len(a)
    for t in range(k):
        r = t + min(int(uniform_plain(key, stream, j, t) * (n - t)), n - t - 1)
        a[t], a[r] = a[r], a[t]
    return a[:k]


class PlainLBR:
    """The local best response for seat H (module docstring); ``keys[n]`` is the random key of
    the ``n``-th hand it plays (``poker51.realcard.lbr.hand_keys``)."""

    def __init__(
        self, variant: str, model: Model, hands: HandArrays, keys: Sequence[int], n_particles: int, max_tries: int
    ):
        self.variant, self.rule, self.model = variant, VARIANT_RULES[variant], model
        self.by_draw, self.draw_start = hands.by_draw, hands.draw_start
        self.cards = [int(c) for c in variant_cards(variant)]
        self.keys, self.n_particles, self.max_tries = [int(k) for k in keys], int(n_particles), int(max_tries)
        self.hands_started = 0
        self.fallbacks = 0
        #: every decision: (phase, number of candidates kept, tries) for tests
        self.trace: list[tuple[str, int, int]] = []

    # ------------------------------------------------------------------ helpers
    def _s(self, cards) -> int:
        return strength(list(cards), self.rule)

    @staticmethod
    def _win(sh: int, sr: int) -> float:
        return 1.0 if sh > sr else (0.5 if sh == sr else 0.0)

    def _posterior(self, stream: int, draw: Callable[[int], object], accept: Callable[[object], object]) -> list:
        """The first ``n_particles`` accepted candidates ``draw(j)`` of a stream (rejection sampling)."""
        out: list = []
        j = 0
        while len(out) < self.n_particles and j < self.max_tries:
            cand = draw(j)
            j += 1
            got = None if cand is None else accept(cand)
            if got is not None:
                out.append(got)
        self.trace.append(("pre" if stream == 0 else "post", len(out), j))
        if not out:
            self.fallbacks += 1
        return out

    def _pre_draw(self, j: int) -> list[int]:
        return draw_cards_plain(self.key, 0, j, self.avail, PRE_CARDS)

    def _post_draw(self, j: int, k: int, seen: set[int]) -> tuple[list[int], list[int]] | None:
        """Candidate j of stream 1 (``poker51.realcard.lbr_kernels.post_candidate``): (dealt, final)."""
        lo, hi = int(self.draw_start[k]), int(self.draw_start[k + 1])
        row = [int(c) for c in self.by_draw[lo + min(int(uniform_plain(self.key, 1, j, 0) * (hi - lo)), hi - lo - 1)]]
        if seen & set(row):
            return None
        used = seen | set(row)
        mask, _ = house_keep(row, self.rule)
        final = [c for i, c in enumerate(row) if mask >> i & 1]
        t, n = 1, len(self.cards)
        while len(final) < 5 and t < 16:
            c = self.cards[min(int(uniform_plain(self.key, 1, j, t) * n), n - 1)]
            t += 1
            if c not in used:
                used.add(c)
                final.append(c)
        return (row, sorted(final)) if len(final) == 5 else None

    def _r_final(self, cand: list[int], d: int) -> list[int]:
        mask, _ = house_keep(sorted(cand[:5]), self.rule)
        kept = [c for i, c in enumerate(sorted(cand[:5])) if mask >> i & 1]
        return kept + cand[5 + d : 5 + d + 5 - len(kept)]

    def _pre_wins(self, mask: int, X: list[list[int]]) -> list[float]:
        kept = [c for i, c in enumerate(self.hand) if mask >> i & 1]
        d = 5 - len(kept)
        return [self._win(self._s(kept + x[5 : 5 + d]), self._s(self._r_final(x, d))) for x in X]

    def _pre_accept(self, obs: list[tuple[int, int]]):
        def accept(cand):
            h = sorted(cand[:5])
            return cand if all(self.model.pre(h, self.hd, line) == act for line, act in obs) else None

        return accept

    @staticmethod
    def _choose_open(W: list[float], resp: list[list[int]], c: float) -> int:
        evs = []
        for a in range(5):
            ev = 0.0
            for w, r in zip(W, resp):
                s = 2.0 * w - 1.0
                if a == 0:
                    ev += (c + RIEMANN_BET) * s if r[0] == BET else c * s
                else:
                    b = BET_SIZES[a - 1]
                    ev += c if r[a] == FOLD else ((c + b) * s if r[a] == CALL else (c + 2 * b) * s)
            evs.append(ev)
        return max(range(5), key=lambda a: (evs[a], -a))

    @staticmethod
    def _choose_facing(W: list[float], resp: list[int], c_h: float, c_r: float, unit: float) -> int:
        ev_call = sum(c_r * (2.0 * w - 1.0) for w in W)
        ev_raise = sum(c_r if r == FOLD else (c_r + unit) * (2.0 * w - 1.0) for w, r in zip(W, resp))
        evs = [-c_h * len(W), ev_call, ev_raise]
        return max(range(3), key=lambda a: (evs[a], -a))

    # ------------------------------------------------------------------ protocol
    def choose_keep(self, view: View) -> int:
        """Start a hand: the prior's candidates, the keep mask of highest equity, the opening."""
        self.key = self.keys[self.hands_started]
        self.hands_started += 1
        self.hand = [int(c) for c in view.cards]
        self.avail = sorted(set(variant_cards(self.variant)) - set(self.hand))
        self.hd = 0
        X = self._posterior(0, self._pre_draw, self._pre_accept([]))
        n1 = min(len(X), SCREEN)
        eq1 = {m: sum(self._pre_wins(m, X[:n1])) for m in range(32)}
        finalists = sorted(range(32), key=lambda m: (-eq1[m], -m))[:FINALISTS]
        eq = {m: sum(self._pre_wins(m, X)) for m in finalists}
        self.mask = max(finalists, key=lambda m: (eq[m], m))
        self.hd = 5 - bin(self.mask).count("1")
        W = self._pre_wins(self.mask, X)
        lines = [0, 2, 3, 4, 5]
        resp = [[self.model.pre(sorted(x[:5]), self.hd, line) for line in lines] for x in X]
        self.opening = self._choose_open(W, resp, float(view.contributed))  # the ante
        return self.mask

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        kinds = {a.kind: a for a in legal}
        mine = [r for r in view.line if r.round == view.phase]
        if view.phase == "pre" and not mine:
            if self.opening == 0:
                return kinds["check"]
            return next(a for a in legal if a.kind == "bet" and a.amount == BET_SIZES[self.opening - 1])
        if view.phase == "pre":
            obs, raise_line = self._observations(mine)
            X = self._posterior(0, self._pre_draw, self._pre_accept(obs))
            if not X:
                return kinds.get("call") or kinds["check"]
            W = self._pre_wins(self.mask, X)
            resp = [self.model.pre(sorted(x[:5]), self.hd, raise_line) for x in X]
            return self._facing_action(kinds, view, W, resp)
        return self._post_act(view, legal, mine)

    # ------------------------------------------------------------------ after the draw
    def _observations(self, records) -> tuple[list[tuple[int, int]], int]:
        """(observed (line id, Riemann's action code) of a round, the line of a raise by LBR now)."""
        obs: list[tuple[int, int]] = []
        toks: list[str] = []
        for r in records:
            if r.seat == "R":
                obs.append((R_LINES.index("-".join(toks)), _CODE[r.kind]))
            toks.append("x" if r.kind == "check" else (f"b{r.amount}" if r.kind == "bet" else r.kind[0]))
        raised = "-".join(toks + ["r"])
        return obs, R_LINES.index(raised) if raised in R_LINES else -1

    def _facing_action(self, kinds, view: View, W, resp) -> Action:
        c_h, c_r = float(view.contributed), float(view.opp_contributed)
        unit = float((view.opening_bet or RIEMANN_BET) if view.line[-1].kind == "raise" else RIEMANN_BET)
        choice = self._choose_facing(W, resp, c_h, c_r, unit)
        return kinds[("fold", "call", "raise")[choice]]

    def _post_act(self, view: View, legal: Sequence[Action], mine) -> Action:
        kinds = {a.kind: a for a in legal}
        pre_toks = []
        for r in view.line:
            if r.round == "pre":
                pre_toks.append("x" if r.kind == "check" else (f"b{r.amount}" if r.kind == "bet" else r.kind[0]))
        pre_done = PRE_DONE.index("-".join(pre_toks))
        pre_obs, _ = self._observations([r for r in view.line if r.round == "pre"])
        kept = [c for i, c in enumerate(self.hand) if self.mask >> i & 1]
        drawn = [c for c in view.cards if c not in kept]
        k = int(view.opp_draw_count or 0)
        post_obs, raise_line = self._observations(mine)
        s_h = self._s(view.cards)

        seen = set(self.hand) | set(drawn)

        def accept(cand):
            h, final = cand
            if any(self.model.pre(h, self.hd, line) != act for line, act in pre_obs):
                return None
            if any(self.model.post(final, self.hd, k, pre_done, line) != act for line, act in post_obs):
                return None
            return final

        F = self._posterior(1, lambda j: self._post_draw(j, k, seen), accept)
        if not F:
            return kinds.get("check") or kinds["call"]
        W = [self._win(s_h, self._s(f)) for f in F]
        if not mine:
            lines = [0, 2, 3, 4, 5]
            resp = [[self.model.post(f, self.hd, k, pre_done, line) for line in lines] for f in F]
            a = self._choose_open(W, resp, float(view.contributed))
            if a == 0:
                return kinds["check"]
            return next(x for x in legal if x.kind == "bet" and x.amount == BET_SIZES[a - 1])
        resp1 = [self.model.post(f, self.hd, k, pre_done, raise_line) for f in F]
        return self._facing_action(kinds, view, W, resp1)


__all__ = ["CheckCallModel", "Model", "PlainLBR", "TableModel", "V05Model", "draw_cards_plain"]
