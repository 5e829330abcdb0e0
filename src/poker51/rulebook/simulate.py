"""Random legal play at a rule book table: every action drawn from what the law allows.

Used by the property tests (Hypothesis draws each choice), the Poker Hand History
differential test and the log-check tests (a seeded :class:`numpy.random.Generator` draws
them).  A ``choose(options)`` callback picks one element of a non-empty list, so the same
code serves both.

At each step the player to act picks among the legal actions of
:meth:`poker51.rulebook.hand.Hand.legal` (a bet or raise at its least, its most, halfway or
one big blind above the least), a timeout, or (when ``extras``) a choice made in advance
for another player; at the laying every player lays a random laying or times out; at the
showdown a player shows, mucks when allowed, or times out.  Between hands (``extras``)
players may sit out, sit back in, add chips or leave.

>>> import numpy as np
>>> rng = np.random.default_rng(5)
>>> table = Table("omaha", 2, [(0, "a", 100), (1, "b", 60), (2, "c", 30)])
>>> recs = play_hands(table, 4, lambda opts: opts[rng.integers(len(opts))], entropy=5)
>>> len(recs), all(r["conserved"] for r in recs)
(4, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from poker51.rulebook.games import ADVANCE_CHOICES, RANDOM, RANDOM_BLOCK
from poker51.rulebook.table import Table
from poker51.table.deal import new_seed

__all__ = ["Choose", "play_hand", "play_hands"]

Choose = Callable[[Sequence[Any]], Any]


def _amounts(lo: int, hi: int, bb: int) -> list[int]:
    return sorted({lo, hi, (lo + hi) // 2, min(lo + bb, hi)})


def _step(table: Table, choose: Choose, extras: bool, leaves: bool, runout_mucks: bool, free_folds: bool) -> None:
    h = table.hand
    assert h is not None
    if h.phase == "lay":
        for p in h.live():
            if p.laid is None:
                if choose([True, False]):
                    table.act(p.name, "timeout")
                else:
                    cards = list(p.hole)
                    order = [cards.pop(choose(range(len(cards)))) for _ in range(6)]
                    table.act(p.name, "lay", [order[0:2], order[2:4], order[4:6]])
                if table.hand is None or h.phase != "lay":
                    return
        return
    name = table.waiting_for
    assert name is not None
    if h.phase == "showdown":
        sd = table.showdown
        assert sd is not None
        seat = table.seat_of(name)
        muck = sd.may_muck(seat) and (runout_mucks or not h.ran_out)
        choices = ["show", "timeout"] + (["muck"] if muck else [])
        table.act(name, choose(choices))
        return
    legal = h.legal()
    options: list[tuple[str, Any]] = [("timeout", None)]
    if free_folds or "check" not in legal:
        options.append(("fold", None))
    if legal.get("allin"):
        options.append(("allin", None))
    if "check" in legal:
        options.append(("check", None))
    if "call" in legal:
        options += [("call", None)] * 2
    for kind in ("bet", "raise"):
        if kind in legal:
            lo, hi = legal[kind]
            options += [(kind, a) for a in _amounts(lo, hi, h.bb)]
    if extras:
        others = [p.name for p in h.players if p.name != name and not p.folded]
        if others:
            options.append(("advance", (choose(others), choose(list(ADVANCE_CHOICES)))))
        if leaves:
            options.append(("leave", choose([p.name for p in h.players])))
    kind, arg = choose(options)
    if kind == "advance":
        table.table_action(arg[0], "advance", arg[1])
    elif kind == "leave":
        table.table_action(arg, "leave")
    else:
        table.act(name, kind, arg)


def play_hand(
    table: Table,
    choose: Choose,
    seed: bytes,
    rotation_seed: bytes | None = None,
    extras: bool = True,
    leaves: bool = True,
    runout_mucks: bool = True,
    free_folds: bool = True,
    max_steps: int = 10_000,
) -> dict[str, Any]:
    """Deal one hand from ``seed`` and play it to the end with random legal choices; its record.

    ``runout_mucks=False``: nobody mucks after an all-in run-out; ``free_folds=False``: nobody
    folds when they could check.  PokerKit fails an assertion when either leaves a single
    player in an all-in hand (``tests/rulebook/pk_oracle.py``)."""
    table.start_hand(seed=seed, rotation_seed=rotation_seed)
    for _ in range(max_steps):
        if table.waiting_for is None:
            return table.finish()
        _step(table, choose, extras, leaves, runout_mucks, free_folds)
    raise RuntimeError("a hand did not end")  # pragma: no cover


def play_hands(
    table: Table,
    n: int,
    choose: Choose,
    entropy: int,
    extras: bool = True,
    leaves: bool = True,
    runout_mucks: bool = True,
    free_folds: bool = True,
) -> list[dict[str, Any]]:
    """Up to ``n`` hands (fewer if fewer than two players can be dealt in); seeds from
    ``new_seed("seedsequence", entropy, key=(0, hand))`` and, for Random, ``key=(1, block)``."""
    records = []
    for _ in range(n):
        if extras:
            for name in [st.name for st in table.seats.values()]:
                move = choose(["stay"] * 6 + ["sit_out", "sit_in", "add"] + (["leave"] if leaves else []))
                if move == "add":
                    table.table_action(name, "add", choose([1, table.bb, 10 * table.bb]))
                elif move != "stay":
                    table.table_action(name, move)
        if len(table.dealt_in()) < 2:
            for st in table.seats.values():
                st.sitting_out = False
            if len(table.dealt_in()) < 2:
                break
        k = table.hand_number + 1
        rot = None
        if table.game_name == RANDOM and (k - 1) % RANDOM_BLOCK == 0:
            rot = new_seed("seedsequence", entropy, key=(1, (k - 1) // RANDOM_BLOCK + 1))
        seed = new_seed("seedsequence", entropy, key=(0, k))
        records.append(play_hand(table, choose, seed, rot, extras, leaves, runout_mucks, free_folds))
    return records
