"""The abstract game of Poker 51 (SPEC section 5), one per variant, on :mod:`poker51.solver.tree`.

Riemann (R, player 1) against the human (H, player 0).  Both ante 1 jbit; chance
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

import numpy as np
import scipy.sparse as sp

from poker51.solver.tree import Game, GameBuilder

H, R = 0, 1
BETS = (1, 2, 4, 8)
R_BET = 2
N_DRAWS = 6
OPENS = ("x",) + tuple(f"b{b}" for b in BETS)
#: H's 30 first actions, in action order: (d, open)
FIRST_ACTIONS = tuple((d, o) for d in range(N_DRAWS) for o in OPENS)


def read_draw(d: int) -> int:
    """Riemann reads a five-card draw as four (rule card, How Riemann bets, 4)."""
    return min(int(d), 4)


@dataclass(frozen=True)
class AbstractionArrays:
    """What the game needs from the abstraction of one variant.

    ``class_prob`` (C,) sums to 1; ``h_trans`` (C, 6, B) and ``r_trans`` (C, B) have
    rows summing to 1; ``r_draw`` (C,) is R's House draw count per class (0..4).
    """

    variant: str
    class_prob: np.ndarray
    h_trans: np.ndarray
    r_trans: np.ndarray
    r_draw: np.ndarray
    class_names: tuple[str, ...] = ()

    @property
    def n_classes(self) -> int:
        return len(self.class_prob)

    @property
    def n_buckets(self) -> int:
        return self.r_trans.shape[1]

    def validate(self) -> None:
        C, B = self.n_classes, self.n_buckets
        if self.h_trans.shape != (C, N_DRAWS, B) or self.r_trans.shape != (C, B) or self.r_draw.shape != (C,):
            raise ValueError(f"{self.variant}: abstraction arrays have inconsistent shapes")
        for name, arr in (("class_prob", self.class_prob), ("h_trans", self.h_trans), ("r_trans", self.r_trans)):
            sums = arr.sum(axis=-1)
            if np.any(arr < 0) or not np.allclose(sums, 1.0, atol=1e-9):
                raise ValueError(f"{self.variant}: {name} is not a probability distribution")


def _line(tokens) -> str:
    return "-".join(tokens)


def _transition(rows: np.ndarray) -> sp.csr_matrix:
    """class -> (class, bucket): row c holds ``rows[c]`` at columns c*B .. c*B+B-1."""
    C, B = rows.shape
    r = np.repeat(np.arange(C), B)
    c = np.arange(C * B)
    return sp.csr_matrix((rows.reshape(-1), (r, c)), shape=(C, C * B))


def build_game(ab: AbstractionArrays, recall: bool = False) -> Game:
    """The public tree of one variant's abstract game (see the module docstring).

    ``recall=True`` keeps (class, bucket) post-draw states for both players (R's
    information sets still group by bucket); used for R's class-recalling best
    response and for tests.
    """
    ab.validate()
    C, B = ab.n_classes, ab.n_buckets
    gb = GameBuilder(f"poker51-{ab.variant}" + ("-recall" if recall else ""))
    draws_r = sorted(set(int(k) for k in ab.r_draw))
    if recall:
        h_mats = [_transition(ab.h_trans[:, d, :]) for d in range(N_DRAWS)]
        r_mat = _transition(ab.r_trans)
        post_bucket = np.tile(np.arange(B), C)
        post_class = np.repeat(np.arange(C), B)
    else:
        h_mats = [sp.csr_matrix(ab.h_trans[:, d, :]) for d in range(N_DRAWS)]
        r_mat = sp.csr_matrix(ab.r_trans)
        post_bucket = np.arange(B)
        post_class = None
    strengths = (post_bucket, post_bucket)
    masks = {k: (None, (ab.r_draw == k).astype(np.float64)) for k in draws_r}

    def state_keys(street):
        if street == 0:
            return list(range(C))
        if recall:
            return list(zip(post_class.tolist(), post_bucket.tolist()))
        return post_bucket.tolist()

    keys_pre, keys_post = state_keys(0), state_keys(1)

    def keys(player, street, d, k, pre, post):
        states = keys_pre if street == 0 else keys_post
        if player == H:
            return [("H", street, d, k, pre, post, s) for s in states]
        d4 = read_draw(d)
        if street == 1 and recall:  # R's sets still group by bucket
            return [("R", 1, d4, k, pre, post, b) for (_, b) in states]
        return [("R", street, d4, k, pre, post, s) for s in states]

    def decision(player, street, d, k, pre, line, children):
        lk = _line(line)
        if street == 0:
            return gb.add_decision(player, children, keys(player, 0, d, -1, lk, ""))
        return gb.add_decision(player, children, keys(player, 1, d, k, pre, lk))

    def after_open(street, d, k, pre, line, h, r, close):
        """The round after H's opening token (last of ``line``); contributions (h, r)."""
        if line[-1] == "x":
            r2 = r + R_BET
            h2 = r2 + R_BET
            facing_raise = decision(
                R,
                street,
                d,
                k,
                pre,
                line + ["b2", "r"],
                [
                    gb.add_fold(R, (h2, r2)),
                    close(line + ["b2", "r", "c"], h2),
                ],
            )
            facing_bet = decision(
                H,
                street,
                d,
                k,
                pre,
                line + ["b2"],
                [
                    gb.add_fold(H, (h, r2)),
                    close(line + ["b2", "c"], r2),
                    facing_raise,
                ],
            )
            return decision(R, street, d, k, pre, line, [close(line + ["x"], h), facing_bet])
        b = int(line[-1][1:])
        r2 = h + b
        h2 = r2 + b
        facing_reraise = decision(
            R,
            street,
            d,
            k,
            pre,
            line + ["r", "r"],
            [
                gb.add_fold(R, (h2, r2)),
                close(line + ["r", "r", "c"], h2),
            ],
        )
        facing_raise = decision(
            H,
            street,
            d,
            k,
            pre,
            line + ["r"],
            [
                gb.add_fold(H, (h, r2)),
                close(line + ["r", "c"], r2),
                facing_reraise,
            ],
        )
        return decision(R, street, d, k, pre, line, [gb.add_fold(R, (h, r)), close(line + ["c"], h), facing_raise])

    def post_round(d, k, pre, put):
        def close(line, amount):
            return gb.add_showdown((amount, amount), strengths=strengths)

        kids = []
        for o in OPENS:
            h = put + (0 if o == "x" else int(o[1:]))
            kids.append(after_open(1, d, k, pre, [o], h, put, close))
        return decision(H, 1, d, k, pre, [], kids)

    def pre_close(d):
        def close(line, amount):
            pre = _line(line)
            subs = [gb.add_private_chance(post_round(d, k, pre, amount), h_mats[d], r_mat) for k in draws_r]
            return gb.add_chance(subs, [1.0] * len(subs), [masks[k] for k in draws_r])

        return close

    first = []
    for d, o in FIRST_ACTIONS:
        h = 1 + (0 if o == "x" else int(o[1:]))
        first.append(after_open(0, d, -1, "", [o], h, 1, pre_close(d)))
    root_h = gb.add_decision(H, first, [("H", 0, -1, -1, "", "", c) for c in range(C)])
    deal = np.asarray(ab.class_prob, np.float64).reshape(1, C)
    root = gb.add_private_chance(root_h, deal, deal)
    return gb.build(root)


def describe(game: Game) -> dict[str, int]:
    """Public nodes and information sets per player (printed by ``poker51 solve``)."""
    a = game.arrays
    return {
        "public_nodes": int(game.num_nodes),
        "infosets_H": int(np.sum(a.iset_player == H)),
        "infosets_R": int(np.sum(a.iset_player == R)),
        "actions": int(game.num_actions),
        "bytes": int(game.nbytes()),
    }
