"""The engine's test players, either seat: :class:`ScriptedPlayer` (a fixed list of actions
and keeps) and :class:`RandomPlayer` (uniform over the legal actions and the 32 keep masks,
seeded).  Plain Python on the slim core (no Numba): the doctests, the tests and the verify
run use them.  The population's types on real cards are :mod:`poker51.policies.types`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from poker51.errors import InputError
from poker51.play.actions import Action, View


class ScriptedPlayer:
    """Plays a fixed list of actions (``Action`` or text like ``"bet 4"``) and keep masks.

    A scripted action without an amount takes the legal one of its kind; when the keep
    list runs out the player keeps ``default_keep`` (31: stand pat).
    """

    def __init__(self, actions: Sequence[Action | str] = (), keeps: Sequence[int] = (), default_keep: int = 31):
        self.actions = [a if isinstance(a, Action) else Action.parse(a) for a in actions]
        self.keeps, self.default_keep = list(keeps), default_keep

    def choose_keep(self, view: View) -> int:
        return self.keeps.pop(0) if self.keeps else self.default_keep

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        if not self.actions:
            raise InputError(f"scripted player {view.seat} has no action left; legal: {[str(a) for a in legal]}")
        return self.actions.pop(0)


class RandomPlayer:
    """Uniform over the legal actions and the 32 keep masks, from its own seeded RNG."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose_keep(self, view: View) -> int:
        return self.rng.randrange(32)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


__all__ = ["RandomPlayer", "ScriptedPlayer"]
