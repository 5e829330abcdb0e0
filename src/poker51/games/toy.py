"""Kuhn and Leduc poker on the public tree (:mod:`poker51.solver.tree`), and the game registry.

Both follow OpenSpiel's rules and action order, so values and information-set
counts can be compared with ``pyspiel``:

* **Kuhn** (Kuhn 1950): cards J < Q < K (0, 1, 2), ante 1, one bet of 1.
  Actions: 0 = pass (check/fold), 1 = bet (bet/call).  Player 0's value is
  -1/18.
* **Leduc** (Southey et al. 2005): six cards J J Q Q K K (card c has rank
  c // 2), ante 1, raises of 2 in round 1 and 4 in round 2, at most two raises
  per round, player 0 first in both rounds.  Actions: 0 = fold (only facing a
  bet), 1 = call/check, 2 = raise.  A pair with the board wins, else the higher
  rank; equal ranks split.  Player 0's value is about -0.0856.

Card removal uses the exact per-player weights described in :mod:`poker51.solver.tree`
(player 0 dealt with weight 1/n, player 1 with 1/(n-1), board 1/(n-2) with masks).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from poker51.solver.tree import Game, GameBuilder


def kuhn() -> Game:
    """Kuhn poker; private state = card 0..2; information set key (card, history)
    with history a string of ``p`` (pass) and ``b`` (bet)."""
    b = GameBuilder("kuhn")
    n = 3
    compat = 1.0 - np.eye(n)
    cards = np.arange(n)
    win = np.sign(cards[:, None] - cards[None, :]).astype(float)

    def show(c):
        return b.add_showdown((c, c), win=win, compat=compat)

    def decide(player, hist, kids):
        return b.add_decision(player, kids, infosets=[(c, hist) for c in range(n)])

    pb = decide(0, "pb", [b.add_fold(0, (1, 2), compat), show(2)])
    p = decide(1, "p", [show(1), pb])
    bet = decide(1, "b", [b.add_fold(1, (2, 1), compat), show(2)])
    betting = decide(0, "", [p, bet])
    root = b.add_private_chance(betting, np.full((1, n), 1.0 / n), np.full((1, n), 1.0 / (n - 1)))
    return b.build(root)


def leduc() -> Game:
    """Leduc poker; private state = card 0..5 (rank = card // 2); information set
    key (card, board or -1, history), history in ``f``/``c``/``r`` with ``/``
    between the rounds (e.g. ``"rc/cr"``)."""
    b = GameBuilder("leduc")
    n = 6
    rank = np.arange(n) // 2
    compat = 1.0 - np.eye(n)
    masks = [tuple((np.arange(n) != card).astype(float) for _ in range(2)) for card in range(n)]
    wins = []
    for board in range(n):
        strength = np.where(rank == rank[board], 10 + rank, rank)  # pair beats any high card
        wins.append(np.sign(strength[:, None] - strength[None, :]).astype(float) * compat)

    def betting(rnd, contrib, to_act, raises, facing, board, first, hist):
        """Node where ``to_act`` acts; ``facing`` = it faces a bet; ``first`` = round start."""
        size = 2 if rnd == 1 else 4
        other = 1 - to_act
        kids = []
        if facing:
            kids.append(b.add_fold(to_act, tuple(contrib), compat))
        called = list(contrib)
        called[to_act] = called[other]
        if facing or not first:
            kids.append(round_end(rnd, called, board, hist + "c"))
        else:
            kids.append(betting(rnd, called, other, raises, False, board, False, hist + "c"))
        if raises < 2:
            raised = list(called)
            raised[to_act] += size
            kids.append(betting(rnd, raised, other, raises + 1, True, board, False, hist + "r"))
        keys = [(c, -1 if board is None else board, hist) for c in range(n)]
        return b.add_decision(to_act, kids, infosets=keys)

    def round_end(rnd, contrib, board, hist):
        if rnd == 2:
            return b.add_showdown(tuple(contrib), win=wins[board], compat=compat)
        outs = [betting(2, contrib, 0, 0, False, c, True, hist + "/") for c in range(n)]
        return b.add_chance(outs, [1.0 / (n - 2)] * n, masks)

    first = betting(1, [1, 1], 0, 0, False, None, True, "")
    root = b.add_private_chance(first, np.full((1, n), 1.0 / n), np.full((1, n), 1.0 / (n - 1)))
    return b.build(root)


#: game name -> builder; Poker 51 variants register here (see :func:`register_game`).
GAMES: dict[str, Callable[[], Game]] = {"kuhn": kuhn, "leduc": leduc}


def register_game(name: str, builder: Callable[[], Game]) -> None:
    """Make ``builder`` available as ``poker51 solve --game NAME``."""
    GAMES[name] = builder
