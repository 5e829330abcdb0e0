"""What a best responder wins from one table, in the abstract game and in G_ind (issue 26, point 1).

Three values per table, jbits per hand *won by the best-responding human* (+ = it wins; the
opposite sign of the pipeline's Riemann-side jbits):

- ``v_abstract`` = V_A: the abstract game's best response (:func:`poker51.solver.best_response.
  best_response_value` of the table's policy for H), which is minus the table's guarantee in
  ``scores.parquet`` (the same call on the same policy);
- ``v_ind`` = V_ind: the exact best response in G_ind, real cards with independent hands
  (:func:`poker51.realcard.gind.v_ind`);
- ``v_ind_abstract_human``: the exact G_ind value of the abstract best-response human (its class and
  bucket strategy with House keeps, :func:`poker51.realcard.gind.abstract_human`) played in G_ind.

The abstract game is not a coarsening of G_ind: its showdowns compare *buckets* (a tie within
a bucket splits the pot), G_ind's exact strengths.  So V_ind - V_A may take either sign: exact
cards and all 32 keeps can only help H (V_ind is at least the G_ind value of every fixed human
strategy), but the abstract human's value in its own game and in G_ind differ by the showdowns.
What must hold is ``v_ind_abstract_human <= v_ind`` (:func:`check_bound`), which
:func:`decompose` checks on every table; its slack ``v_ind - v_ind_abstract_human`` is what
exact cards add to the abstract best response *in the same game*.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

from poker51.errors import InputError
from poker51.realcard.gind import (
    GindDeck,
    GindResult,
    HumanStrategy,
    TableArrays,
    abstract_human,
    strategy_value,
    v_ind,
)

#: the unit of every value here (the best responder's side)
BR_UNIT = "jbits per hand won by the best-responding human from Riemann (+ = the human wins)"
#: the three values, in the order of the decomposition
VALUE_COLUMNS = ("v_abstract", "v_ind", "v_ind_abstract_human")
#: float64 slack of :func:`check_bound`: both values are means over millions of dealt hands
TOLERANCE = 1e-9


class BoundViolation(AssertionError):
    """The abstract human's G_ind value exceeds V_ind: a bug in one of the two computations."""


def check_bound(v_ind_value: float, human_value: float, tolerance: float = TOLERANCE) -> None:
    """Refuse ``human_value > v_ind_value + tolerance`` (a best response is at least any fixed
    strategy's value) and non-finite values."""
    if not (np.isfinite(v_ind_value) and np.isfinite(human_value)):
        raise BoundViolation(f"non-finite G_ind values: V_ind {v_ind_value}, abstract human {human_value}")
    if human_value > v_ind_value + tolerance:
        raise BoundViolation(
            f"the abstract human's G_ind value {human_value:+.12f} exceeds V_ind {v_ind_value:+.12f} "
            f"by {human_value - v_ind_value:.3e} jbits/hand"
        )


@dataclass(frozen=True)
class Decomposition:
    """V_A, V_ind and the abstract human's G_ind value of one table (module docstring), with the
    sizes of the game they were computed on."""

    v_abstract: float
    v_ind: float
    v_ind_abstract_human: float
    dealt_hands: int
    classes: int
    buckets: int

    @property
    def ind_gap(self) -> float:
        """V_ind - V_A: exact cards, all 32 keeps and exact showdowns against the abstract game."""
        return self.v_ind - self.v_abstract

    @property
    def human_gap(self) -> float:
        """V_ind minus the abstract human's G_ind value (never negative)."""
        return self.v_ind - self.v_ind_abstract_human

    def columns(self) -> dict[str, Any]:
        return {**asdict(self), "ind_gap": self.ind_gap, "human_gap": self.human_gap}


def decompose(
    gd: GindDeck,
    table: TableArrays,
    game,
    policy: np.ndarray,
    joint: np.ndarray | None = None,
    human: bool = True,
) -> tuple[Decomposition, GindResult, HumanStrategy | None]:
    """The decomposition of one table: ``table`` its arrays (:func:`poker51.realcard.gind.table_arrays`),
    ``game`` the abstract game of the same classes and buckets and ``policy`` a policy vector of it
    whose Riemann slots are the table (the solve's policy; H's slots are not read); ``joint``
    Riemann's (class, strength) distribution (:func:`poker51.realcard.gind.riemann_joint`, computed
    when None: it does not depend on the table).  Returns it with the G_ind best response (for
    :func:`poker51.realcard.gind.strategy_frames`) and the abstract human played (None with
    ``human=False``); raises :class:`BoundViolation` when the abstract
    human's value exceeds V_ind.  ``human=False`` leaves that value out (NaN; it costs as much as
    V_ind itself)."""
    from poker51.games.abstract import H
    from poker51.realcard.gind import riemann_joint
    from poker51.solver.best_response import best_response_policy, best_response_value

    pol = np.asarray(policy, np.float64)
    joint = riemann_joint(gd) if joint is None else joint
    v_a = float(best_response_value(game, pol, H))
    r = v_ind(gd, table, joint)
    value = float("nan")
    hs = None
    if human:
        hs = abstract_human(game, best_response_policy(game, pol, H), gd)
        value = float(strategy_value(gd, table, hs, joint))
        check_bound(r.value, value)
    return Decomposition(v_a, float(r.value), value, gd.n_hands, gd.n_classes, gd.n_buckets), r, hs


#: the columns of Riemann's (class, strength) distribution as a table (:func:`joint_frame`)
JOINT_COLUMNS = ("class", "strength", "probability")


def joint_frame(gd: GindDeck, joint: np.ndarray) -> pd.DataFrame:
    """Riemann's exact (class, final strength) distribution (C, U) as a table, one row per class
    and distinct strength of the deck (class-major), for the stage that computes it once per
    variant."""
    C, U = joint.shape
    if (C, U) != (gd.n_classes, gd.values.size):
        raise ValueError(f"a ({C}, {U}) joint for a deck of {gd.n_classes} classes and {gd.values.size} strengths")
    return pd.DataFrame({
        "class": np.repeat(np.arange(C, dtype=np.int16), U),
        "strength": np.tile(gd.values.astype(np.int32), C),
        "probability": np.ascontiguousarray(joint, np.float64).ravel(),
    })  # fmt: skip


def joint_of_frame(df: pd.DataFrame, gd: GindDeck) -> np.ndarray:
    """The (C, U) array of :func:`joint_frame`'s table, refused (:class:`~poker51.errors.InputError`)
    unless it is one of this deck's classes and strengths, in order, summing to 1."""
    C, U = gd.n_classes, gd.values.size
    if list(df.columns) != list(JOINT_COLUMNS) or len(df) != C * U:
        raise InputError(f"Riemann's strength table must have columns {list(JOINT_COLUMNS)} and {C} x {U} rows")
    cls = df["class"].to_numpy(np.int64).reshape(C, U)
    strength = df["strength"].to_numpy(np.int64).reshape(C, U)
    if np.any(cls != np.arange(C)[:, None]) or np.any(strength != gd.values[None, :]):
        raise InputError("Riemann's strength table does not match the deck's classes and strengths")
    joint = df["probability"].to_numpy(np.float64).reshape(C, U)
    if np.any(joint < 0) or abs(float(joint.sum()) - 1.0) > 1e-9:
        raise InputError("Riemann's strength table is not a probability distribution")
    if np.abs(joint.sum(axis=1) - gd.class_members() / gd.n_hands).max() > 1e-12:
        raise InputError("Riemann's strength table's class masses are not the deck's class sizes")
    return joint


__all__ = ["BR_UNIT", "JOINT_COLUMNS", "TOLERANCE", "VALUE_COLUMNS", "BoundViolation", "Decomposition", "check_bound",
           "decompose", "joint_frame", "joint_of_frame"]  # fmt: skip
