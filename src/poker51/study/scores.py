"""Scores of the solved tables (SPEC section 6), Riemann's values in jbits per hand.

- :func:`score_table` gives a table's guarantee (its value against a best-responding
  human, exact: the human has perfect recall), its value against the population and
  each type; the best-responding human's gain is minus the guarantee.
- :func:`value_bracket` brackets the game's value: below, the Nash table's guarantee;
  above, Riemann's best response to the human's Nash strategy within Riemann's
  information sets (it reads a five-card draw as four).  Recalling its class would
  not raise it: after the draw the payoffs depend on buckets only and the deals are
  independent (see :mod:`poker51.games.abstract`), so the class-recalling response
  equals this one; :func:`recall_upper_bound` gives the looser bound of a Riemann that
  also tells a five-card draw from a four-card one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from poker51.abstraction.tables import AbstractionArrays
from poker51.games.abstract import H, R
from poker51.games.population import Population, population_policies
from poker51.solver.best_response import best_response_value, infoset_best_response_value, value_against
from poker51.solver.tree import Game


@dataclass(frozen=True)
class TableScore:
    """Riemann's guarantee, its value against the population and against each type."""

    guarantee: float
    vs_population: float
    vs_types: dict[str, float]

    def columns(self) -> dict[str, float]:
        """``guarantee``, ``vs_population``, then ``vs_{type}`` per type (the score table's columns)."""
        return {
            "guarantee": self.guarantee,
            "vs_population": self.vs_population,
            **{f"vs_{name}": v for name, v in self.vs_types.items()},
        }


@dataclass(frozen=True)
class ValueBracket:
    """The game's value for Riemann lies in [low, high]; ``high_recall`` is the looser bound
    of a Riemann that recalls its class and tells d = 5 from d = 4."""

    low: float
    high: float
    high_recall: float

    @property
    def game_exploitability(self) -> float:
        return 0.5 * (self.high - self.low)

    def columns(self) -> dict[str, float]:
        return {
            "value_low": self.low,
            "value_high": self.high,
            "value_high_recall": self.high_recall,
            "game_exploitability": self.game_exploitability,
        }


def score_table(game: Game, policy: np.ndarray, types: np.ndarray, pop: Population) -> TableScore:
    """Riemann's guarantee, its value against the population and against each type."""
    return TableScore(
        guarantee=-best_response_value(game, policy, H),
        vs_population=value_against(game, policy, R, types, pop.weights),
        vs_types={t.name: value_against(game, policy, R, pol) for t, pol in zip(pop.types, types)},
    )


def value_bracket(game: Game, nash_policy: np.ndarray) -> ValueBracket:
    """The bracket of the game's value for Riemann from a Nash solve (module docstring)."""
    low = -best_response_value(game, nash_policy, H)
    high = infoset_best_response_value(game, nash_policy, R)
    return ValueBracket(low, high, recall_upper_bound(game, nash_policy))


def recall_upper_bound(game: Game, nash_policy: np.ndarray) -> float:
    """Riemann's best response maximised per (public node, private state): it recalls
    its class and tells d = 5 from d = 4.  An upper bound, looser than the bracket's."""
    return best_response_value(game, nash_policy, R)


def variant_types(game: Game, ab: AbstractionArrays, pop: Population) -> np.ndarray:
    """The population's policies stacked (T x num_actions)."""
    return np.vstack(population_policies(game, ab, pop))


__all__ = ["TableScore", "ValueBracket", "recall_upper_bound", "score_table", "value_bracket", "variant_types"]
