"""The abstract game of Poker 51 (SPEC section 5), one per variant, on :mod:`poker51.solver.tree`.

Riemann (R, player 1) against the human (H, player 0).  Both ante :data:`poker51.rules.ANTE`
(1 jbit; :func:`build_game` takes another ``ante`` for the tests); chance
deals each a dealt-hand class independently (``class_prob``).  H acts first in both
rounds; stacks are deep.

Pre-draw
    H's first action picks its draw count ``d`` (0..5) and check or bet
    ``b`` in {1, 2, 4, 8}: 30 actions.  After a bet ``b``: R folds, calls or raises
    by ``b``; facing the raise H folds, calls or re-raises by ``b``; facing the
    re-raise R folds or calls.  After a check: R checks or bets 2; facing it H
    folds, calls or raises by 2; R then folds or calls.
Draw
    R's House draw count ``k`` is revealed (a public chance node whose outcome k
    keeps R's classes with ``r_draw[c] == k``), then a private chance node moves H's
    class ``c`` to a bucket with ``h_trans[c, d, bucket]`` and R's class to a bucket
    with ``r_trans[c, bucket]`` (the House rule).  Both draw counts are public.
Post-draw
    The same betting structure without the draw choice, then a showdown of the
    buckets (higher wins, equal splits; independent hands, no card removal).

Information
    R before the draw: (class, H's draw count read with 5 as 4, betting so far).
    R after the draw: (bucket, own draw count k, H's draw count read as 4, the
    pre-draw line, betting so far): R forgets its class.  H has perfect recall.

Post-draw private states are buckets
    After the draw both players' private states are buckets only.  For R this is
    its information (it forgets its class).  For H it loses nothing: payoffs depend
    on buckets only and the deals are independent, so at a post-draw node the
    counterfactual value of H's state (class, bucket) does not depend on the class;
    H's best response (its perfect-recall guarantee) is the same with or without the
    class, and every H strategy that uses the class post-draw has a bucket-only
    strategy of equal value against every R.  The merged states differ only by a
    chance relabelling (a well-formed imperfect-recall game in the sense of Lanctot
    et al. 2012), so CFR's bounds hold.  :func:`build_game` with
    ``recall=True`` keeps (class, bucket) states for both players instead; the tests
    check that both give the same values, and the score stage uses the R-recall game
    for the upper end of the value bracket (R's best response recalling its class).

Information-set keys (``Game.iset_keys`` holds ``(player, key)``)::

    H: ("H", street, d, k, pre_line, post_line, state)
    R: ("R", street, d4, k, pre_line, post_line, state)

``street`` 0 (before the draw) or 1; ``d`` is H's draw count (-1 at H's first
action), ``d4 = min(d, 4)``; ``k`` is R's draw count (-1 before the draw);
``state`` is the class before the draw and the bucket after it (``(class,
bucket)`` in the recall game).

Lines are betting tokens joined by ``-``: ``x`` check, ``b1``/``b2``/``b4``/``b8``
bet, ``c`` call, ``r`` raise (or re-raise), ``f`` fold.  The pre-draw line of a
decision is the betting so far in that round (H's draw count is the separate
``d``); after the draw ``pre_line`` is the completed pre-draw line.
Payoffs of :mod:`poker51.solver.tree` are H's; Riemann's value is their negative.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from poker51.abstraction.tables import AbstractionArrays
from poker51.rules import ANTE, BET_SIZES, N_DRAWS, RIEMANN_BET, read_draw
from poker51.solver.tree import Game, GameBuilder

if TYPE_CHECKING:  # SciPy is imported where a game is built: a job that loads a cached game never needs it
    import scipy.sparse as sp

H, R = 0, 1
OPENS = ("x",) + tuple(f"b{b}" for b in BET_SIZES)
#: the token of Riemann's bet after H checks
R_OPEN = f"b{RIEMANN_BET}"
#: H's 30 first actions, in action order: (d, open)
FIRST_ACTIONS = tuple((d, o) for d in range(N_DRAWS) for o in OPENS)


def _line(tokens) -> str:
    return "-".join(tokens)


def _transition(rows: np.ndarray) -> sp.csr_matrix:
    """class -> (class, bucket): row c holds ``rows[c]`` at columns c*B .. c*B+B-1."""
    import scipy.sparse as sp

    C, B = rows.shape
    r = np.repeat(np.arange(C), B)
    c = np.arange(C * B)
    return sp.csr_matrix((rows.reshape(-1), (r, c)), shape=(C, C * B))


class _TreeBuilder:
    """Builds the public tree of one variant's game (:func:`build_game`); one method per
    part of the hand, nodes created in the order the tests pin."""

    def __init__(self, ab: AbstractionArrays, recall: bool, ante: int = ANTE) -> None:
        import scipy.sparse as sp

        ab.validate()
        self.ab, self.recall, self.ante = ab, recall, ante
        C, B = ab.n_classes, ab.n_buckets
        self.gb = GameBuilder(f"poker51-{ab.variant}" + ("-recall" if recall else ""))
        self.draws_r = sorted({int(k) for k in ab.r_draw})
        if recall:
            self.h_mats = [_transition(ab.h_trans[:, d, :]) for d in range(N_DRAWS)]
            self.r_mat = _transition(ab.r_trans)
            post_bucket = np.tile(np.arange(B), C)
            self.keys_post: list = list(zip(np.repeat(np.arange(C), B).tolist(), post_bucket.tolist()))
        else:
            self.h_mats = [sp.csr_matrix(ab.h_trans[:, d, :]) for d in range(N_DRAWS)]
            self.r_mat = sp.csr_matrix(ab.r_trans)
            post_bucket = np.arange(B)
            self.keys_post = post_bucket.tolist()
        self.keys_pre = list(range(C))
        self.strengths = (post_bucket, post_bucket)
        self.masks = {k: (None, (ab.r_draw == k).astype(np.float64)) for k in self.draws_r}

    def keys(self, player, street, d, k, pre, post) -> list:
        """Information-set keys of ``player``'s private states at a decision (module docstring)."""
        states = self.keys_pre if street == 0 else self.keys_post
        if player == H:
            return [("H", street, d, k, pre, post, s) for s in states]
        d4 = read_draw(d)
        if street == 1 and self.recall:  # R's sets still group by bucket
            return [("R", 1, d4, k, pre, post, b) for (_, b) in self.keys_post]
        return [("R", street, d4, k, pre, post, s) for s in states]

    def decision(self, player, street, d, k, pre, line, children) -> int:
        lk = _line(line)
        at = (0, d, -1, lk, "") if street == 0 else (1, d, k, pre, lk)
        if street == 1 and self.recall:  # (class, bucket) states; R's sets by bucket
            return self.gb.add_decision(player, children, self.keys(player, *at))
        who, dd = ("H", d) if player == H else ("R", read_draw(d))
        return self.gb.add_decision(player, children, group=(who, street, dd, *at[2:]))

    def after_open(self, street, d, k, pre, line, h, r, close) -> int:
        """The round after H's opening token (last of ``line``); contributions (h, r)."""
        gb, at = self.gb, (street, d, k, pre)
        if line[-1] == "x":
            r2 = r + RIEMANN_BET
            h2 = r2 + RIEMANN_BET
            facing_raise = self.decision(
                R, *at, line + [R_OPEN, "r"], [gb.add_fold(R, (h2, r2)), close(line + [R_OPEN, "r", "c"], h2)]
            )
            facing_bet = self.decision(
                H, *at, line + [R_OPEN], [gb.add_fold(H, (h, r2)), close(line + [R_OPEN, "c"], r2), facing_raise]
            )
            return self.decision(R, *at, line, [close(line + ["x"], h), facing_bet])
        b = int(line[-1][1:])
        r2 = h + b
        h2 = r2 + b
        facing_reraise = self.decision(
            R, *at, line + ["r", "r"], [gb.add_fold(R, (h2, r2)), close(line + ["r", "r", "c"], h2)]
        )
        facing_raise = self.decision(
            H, *at, line + ["r"], [gb.add_fold(H, (h, r2)), close(line + ["r", "c"], r2), facing_reraise]
        )
        return self.decision(R, *at, line, [gb.add_fold(R, (h, r)), close(line + ["c"], h), facing_raise])

    def showdown(self, line, amount) -> int:
        return self.gb.add_showdown((amount, amount), strengths=self.strengths)

    def post_round(self, d, k, pre, put) -> int:
        kids = []
        for o in OPENS:
            h = put + (0 if o == "x" else int(o[1:]))
            kids.append(self.after_open(1, d, k, pre, [o], h, put, self.showdown))
        return self.decision(H, 1, d, k, pre, [], kids)

    def draw(self, d):
        """The pre-draw round's closing for H's draw count ``d``: R's draw count revealed,
        both draws, then the post-draw round."""

        def close(line, amount):
            pre = _line(line)
            subs = [
                self.gb.add_private_chance(self.post_round(d, k, pre, amount), self.h_mats[d], self.r_mat)
                for k in self.draws_r
            ]
            return self.gb.add_chance(subs, [1.0] * len(subs), [self.masks[k] for k in self.draws_r])

        return close

    def build(self) -> Game:
        first = []
        for d, o in FIRST_ACTIONS:
            h = self.ante + (0 if o == "x" else int(o[1:]))
            first.append(self.after_open(0, d, -1, "", [o], h, self.ante, self.draw(d)))
        C = self.ab.n_classes
        root_h = self.gb.add_decision(H, first, group=("H", 0, -1, -1, "", ""))
        deal = np.asarray(self.ab.class_prob, np.float64).reshape(1, C)
        return self.gb.build(self.gb.add_private_chance(root_h, deal, deal))


def build_game(ab: AbstractionArrays, recall: bool = False, ante: int = ANTE) -> Game:
    """The public tree of one variant's abstract game (see the module docstring).

    ``recall=True`` keeps (class, bucket) post-draw states for both players (R's
    information sets still group by bucket); used for R's class-recalling best
    response and for tests.  ``ante`` is each player's ante (the rules' :data:`~poker51.rules.ANTE`;
    another value only in the tests that check the game follows it).
    """
    return _TreeBuilder(ab, recall, ante).build()


@dataclass(frozen=True)
class GameSize:
    """Public nodes, information sets per player, actions and bytes of a built game."""

    public_nodes: int
    infosets_H: int
    infosets_R: int
    actions: int
    bytes: int


def describe(game: Game) -> GameSize:
    """The size of a game (printed by ``poker51 solve``, logged by the solve stage)."""
    a = game.arrays
    return GameSize(
        public_nodes=int(game.num_nodes),
        infosets_H=int(np.sum(a.iset_player == H)),
        infosets_R=int(np.sum(a.iset_player == R)),
        actions=int(game.num_actions),
        bytes=int(game.nbytes()),
    )
