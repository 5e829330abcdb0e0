"""V_A, V_ind and the abstract human in G_ind per table (poker51.realcard.decomposition), on a 12-card deck."""

from __future__ import annotations

import numpy as np
import pytest

from poker51.errors import InputError
from poker51.realcard import decomposition as D
from poker51.realcard import gind as G

#: ranks 9..A in hearts and spades (the brute-force deck of tests/realcard/test_gind.py)
CARDS12 = [4 * r + s for r in range(7, 13) for s in (2, 3)]


@pytest.fixture(scope="module")
def small():
    from poker51.games.abstract import build_game

    gd = G.small_deck(CARDS12, n_buckets=5)
    table = G.random_table(gd.n_classes, gd.n_buckets, seed=26)
    game = build_game(G.small_abstraction(gd))
    return gd, table, game, G.game_policy(game, table)


def test_decomposition_of_a_table(small):
    """V_A is the abstract game's best response; V_ind and the abstract human's value are the G_ind
    module's own; the human never exceeds V_ind (the stage's check), and the joint passed in gives
    the same numbers as the joint computed inside."""
    from poker51.solver.best_response import best_response_policy, best_response_value

    gd, table, game, policy = small
    dec, r, _ = D.decompose(gd, table, game, policy)
    assert dec.v_abstract == best_response_value(game, policy, 0)
    assert dec.v_ind == G.v_ind(gd, table).value == r.value
    human = G.strategy_value(gd, table, G.abstract_human(game, best_response_policy(game, policy, 0), gd))
    assert dec.v_ind_abstract_human == human and human <= dec.v_ind
    assert dec.human_gap >= 0 and dec.ind_gap == dec.v_ind - dec.v_abstract
    assert (dec.dealt_hands, dec.classes, dec.buckets) == (792, gd.n_classes, 5)
    again, _, _ = D.decompose(gd, table, game, policy, G.riemann_joint(gd))
    assert again == dec
    cols = dec.columns()
    assert set(D.VALUE_COLUMNS) <= set(cols) and cols["human_gap"] == dec.human_gap
    quick, _, _ = D.decompose(gd, table, game, policy, human=False)
    assert quick.v_ind == dec.v_ind and np.isnan(quick.v_ind_abstract_human)


@pytest.mark.parametrize(
    "v_ind, human, message",
    [(0.1, 0.1 + 1e-8, "exceeds V_ind"), (np.nan, 0.0, "non-finite"), (0.1, np.inf, "non-finite")],
)
def test_the_bound_is_enforced(v_ind, human, message):
    with pytest.raises(D.BoundViolation, match=message):
        D.check_bound(v_ind, human)


def test_the_bound_allows_float_rounding_and_equality():
    D.check_bound(0.1, 0.1)
    D.check_bound(0.1, 0.1 + 0.5e-9)
    D.check_bound(0.2, -0.3)


def test_riemann_strength_table_round_trip_and_bad_tables(small):
    gd = small[0]
    joint = G.riemann_joint(gd)
    df = D.joint_frame(gd, joint)
    assert list(df.columns) == list(D.JOINT_COLUMNS) and len(df) == gd.n_classes * gd.values.size
    assert np.array_equal(D.joint_of_frame(df, gd), joint)
    bad = {
        "rows": df.iloc[1:],
        "order": df.iloc[::-1].reset_index(drop=True),
        "mass": df.assign(probability=df["probability"] * 2),
        "classes": df.assign(probability=np.roll(df["probability"].to_numpy(), gd.values.size)),
    }
    for frame in bad.values():
        with pytest.raises(InputError, match="Riemann's strength table"):
            D.joint_of_frame(frame, gd)
    with pytest.raises(ValueError, match="joint for a deck"):
        D.joint_frame(gd, joint[:, 1:])
