"""The strategy summary behind the heat maps: impossible actions are NaN, not 0."""

from __future__ import annotations

import numpy as np
from helpers import random_policy, small_abstraction

from poker51.games.abstract import build_game
from poker51.study.summary import SPOTS, strategy_summary


def test_actions_a_spot_does_not_offer_are_nan():
    game = build_game(small_abstraction())
    s = strategy_summary(game, random_policy(game, seed=3))
    assert set(s["spot"]) == set(SPOTS) and set(s["street"]) == {0, 1}
    no_raise = s["spot"].isin(["reraised", "raised"])  # facing a raise: fold or call only
    checked = s["spot"] == "checked"  # checked to: check or bet, nothing to fold
    assert s["aggressive"].isna().equals(no_raise)
    assert s["fold"].isna().equals(checked)
    offered = np.concatenate([s.loc[~no_raise, "aggressive"], s.loc[~checked, "fold"]])
    assert ((offered > 0) & (offered < 1)).all()  # a random policy mixes every offered action
    assert (s["weight"] > 0).all()
