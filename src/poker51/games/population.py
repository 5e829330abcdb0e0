"""The population model: four human player types as behaviour strategies of the abstract game.

Each type (:class:`PlayerType`) is a handful of readable parameters from
``config/population.yaml``; :func:`type_policy` turns one into a full behaviour
strategy of H in a built :mod:`poker51.games.abstract` game (a policy vector of
:mod:`poker51.solver.tree`, H's information sets filled, R's left uniform).

Strength ``s`` in [0, 1] is a percentile among House-rule final hands: after the
draw ``(bucket + 1/2) / B``; before the draw its expectation over the type's draw,
``sum_b h_trans[c, d, b] (b + 1/2) / B``.  Thresholds act through a logistic ramp
``sigma((s - t) / softness)`` so the types are mixed strategies (a sharp threshold
at ``softness = 0``).

Decisions of H:

- opening (pre-draw, with its draw count; post-draw): bet ``size`` with probability
  ``q = ramp(value) + (1 - ramp(value)) * bluff``, else check;
- facing R's raise of its bet, or R's bet after its check: raise (re-raise) with
  ``ramp(raise)``, otherwise call with ``ramp(call)``, otherwise fold.

The choices are documented in ``docs/population.md``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from poker51.abstraction.tables import AbstractionArrays
from poker51.errors import ConfigError
from poker51.games.abstract import FIRST_ACTIONS, OPENS
from poker51.solver.tree import Game
from poker51.validation import POPULATION_SCHEMA, load_yaml, validate

DRAW_RULES = ("house", "keep_kicker")


@dataclass(frozen=True)
class PlayerType:
    name: str
    draw: str
    open_value: float
    open_size: int
    bluff: float
    call: float
    raise_: float
    softness: float

    @classmethod
    def from_config(cls, name: str, cfg: Mapping[str, Any]) -> PlayerType:
        """One type from its entry of a population config that :func:`load_population` has
        checked against the schema (``workflow/schemas/population.schema.yaml``)."""
        op = cfg["open"]
        return cls(
            name,
            str(cfg["draw"]),
            float(op["value"]),
            int(op["size"]),
            float(op["bluff"]),
            float(cfg["call"]),
            float(cfg["raise"]),
            float(cfg.get("softness", 0.0)),
        )

    def ramp(self, s: np.ndarray, threshold: float) -> np.ndarray:
        s = np.asarray(s, np.float64)
        if self.softness == 0:
            return (s >= threshold).astype(np.float64)
        return 1.0 / (1.0 + np.exp(-(s - threshold) / self.softness))

    def draw_count(self, house_draw: int) -> int:
        if self.draw == "keep_kicker" and house_draw >= 3:
            return house_draw - 1
        return house_draw


@dataclass(frozen=True)
class Population:
    types: tuple[PlayerType, ...]
    weights: np.ndarray

    @property
    def names(self) -> list[str]:
        return [t.name for t in self.types]


def load_population(path_or_cfg: str | Path | Mapping[str, Any]) -> Population:
    """Read ``config/population.yaml`` (or a dict of the same shape), checked against
    :data:`poker51.validation.POPULATION_SCHEMA`; a bad file is one
    :class:`~poker51.errors.ConfigError` line naming the file and the key
    (``config/population.yaml: types.rock.softnes: unknown key (did you mean 'softness'?; ...)``)."""
    if isinstance(path_or_cfg, Mapping):
        source, cfg = "population", copy.deepcopy(dict(path_or_cfg))
    else:
        source, cfg = str(path_or_cfg), load_yaml(path_or_cfg, "population file")
    validate(cfg, POPULATION_SCHEMA, source)
    types = tuple(PlayerType.from_config(n, c) for n, c in cfg["types"].items())
    names = [t.name for t in types]
    if set(cfg["weights"]) != set(names):
        raise ConfigError(f"{source}: weights: keys {sorted(cfg['weights'])} must be the types {sorted(names)}")
    w = np.array([float(cfg["weights"][n]) for n in names])
    if w.sum() <= 0:
        raise ConfigError(f"{source}: weights: their sum must be positive")
    return Population(types, w / w.sum())


def pre_strength(ab: AbstractionArrays) -> np.ndarray:
    """(C, 6): expected final percentile of class c drawing d."""
    B = ab.n_buckets
    return ab.h_trans @ ((np.arange(B) + 0.5) / B)


def _h_spots(game: Game, ab: AbstractionArrays) -> dict[str, np.ndarray]:
    """H's information sets by kind, with what a type needs to know of each (cached on
    the game): ``first`` (the first action; its class), ``open`` (post-draw opening;
    its bucket), ``facing`` (facing R's raise or bet; class and draw count before the
    draw, bucket after it)."""
    cache = game.__dict__.setdefault("_h_spots", {})
    if "spots" in cache:
        return cache["spots"]
    cols: dict[str, list[int]] = {
        k: []
        for k in (
            "first",
            "first_class",
            "open",
            "open_bucket",
            "facing",
            "facing_street",
            "facing_class",
            "facing_draw",
            "facing_bucket",
        )
    }
    for i, (_player, key) in enumerate(game.iset_keys):
        if key[0] != "H":
            continue
        _, street, d, k, pre, post, state = key
        if street == 0 and d < 0:
            cols["first"].append(i)
            cols["first_class"].append(state)
            continue
        b = (state[1] if isinstance(state, tuple) else state) if street == 1 else -1
        if street == 1 and post == "":
            cols["open"].append(i)
            cols["open_bucket"].append(b)
            continue
        cols["facing"].append(i)
        cols["facing_street"].append(street)
        cols["facing_class"].append(state if street == 0 else -1)
        cols["facing_draw"].append(d)
        cols["facing_bucket"].append(b)
    cache["spots"] = {k: np.asarray(v, np.int64) for k, v in cols.items()}
    return cache["spots"]


def type_policy(game: Game, ab: AbstractionArrays, t: PlayerType, base: np.ndarray | None = None) -> np.ndarray:
    """Behaviour strategy of type ``t`` for H in ``game`` (R's sets keep ``base``, default uniform)."""
    policy = game.uniform_policy() if base is None else base.copy()
    lo = game.arrays.act_off[:-1]
    s_pre = pre_strength(ab)
    B = ab.n_buckets
    sp = _h_spots(game, ab)
    bet = OPENS.index(f"b{t.open_size}")
    # the first action: (draw count, open) among FIRST_ACTIONS = (d, open) in d-major order
    c = sp["first_class"]
    draws = np.array([t.draw_count(int(h)) for h in ab.r_draw])[c]
    q = open_prob(t, s_pre[c, draws])
    rows = lo[sp["first"]]
    policy[rows[:, None] + np.arange(len(FIRST_ACTIONS))] = 0.0
    policy[rows + draws * len(OPENS) + OPENS.index("x")] = 1 - q
    policy[rows + draws * len(OPENS) + bet] += q
    # post-draw opening
    q = open_prob(t, (sp["open_bucket"] + 0.5) / B)
    rows = lo[sp["open"]]
    policy[rows[:, None] + np.arange(len(OPENS))] = 0.0
    policy[rows + OPENS.index("x")] = 1 - q
    policy[rows + bet] += q
    # facing R's raise or R's bet: fold, call, raise
    pre = sp["facing_street"] == 0
    s = np.where(
        pre, s_pre[np.maximum(sp["facing_class"], 0), np.maximum(sp["facing_draw"], 0)], (sp["facing_bucket"] + 0.5) / B
    )
    fold, call, raise_ = facing_probs(t, s)
    rows = lo[sp["facing"]]
    policy[rows], policy[rows + 1], policy[rows + 2] = fold, call, raise_
    return policy


def open_prob(t: PlayerType, s):
    """Probability that type ``t`` opens (bets its size) at strength ``s`` (a float or an array)."""
    v = t.ramp(s, t.open_value)
    out = v + (1 - v) * t.bluff
    return float(out) if np.ndim(out) == 0 else out


def facing_probs(t: PlayerType, s):
    """(fold, call, raise) of type ``t`` at strength ``s`` facing a bet or a raise
    (floats, or arrays for an array ``s``)."""
    pr = t.ramp(s, t.raise_)
    pc = (1 - pr) * t.ramp(s, t.call)
    out = (1 - pr - pc, pc, pr)
    return tuple(float(x) for x in out) if np.ndim(s) == 0 else out


def population_policies(game: Game, ab: AbstractionArrays, pop: Population) -> list[np.ndarray]:
    """One H policy per type, in ``pop.types`` order."""
    return [type_policy(game, ab, t) for t in pop.types]
