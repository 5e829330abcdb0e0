"""The game server's class keys (``abstraction.keys``) equal the kernels and the class tables."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import hand_sample

from poker51.abstraction.classes import (
    base_class_kernel,
    class_key_array,
    class_keys,
    hand_class_key_kernel,
    hand_table,
)
from poker51.abstraction.keys import base_class, hand_class_key, hand_class_key_strength
from poker51.cards import MARKER
from poker51.hands.house import house_keeps
from poker51.rules import VARIANT_RULES


def _compare(variant: str, rows: np.ndarray) -> None:
    ht = hand_table(variant)
    rule = VARIANT_RULES[variant]
    table_keys = class_key_array(ht.base[rows], ht.marker[rows], ht.house_draw[rows])
    hands = ht.hands[rows]
    bad = []
    for hand, key, s in zip(hands.tolist(), table_keys.tolist(), ht.strengths[rows].tolist()):
        if hand_class_key_strength(hand, rule) != (key, s):
            bad.append(hand)
    assert not bad, f"{len(bad)} {variant} hands differ, e.g. {bad[:3]}"
    assert set(table_keys.tolist()) <= set(class_keys(variant).tolist())


@pytest.mark.parametrize("variant", ["standard", "wild", "bug"])
def test_class_keys_equal_the_class_table_on_a_seeded_sample(variant):
    _compare(variant, hand_sample(60_000, 20_000, 52, variant))


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["standard", "wild", "bug"])
def test_class_keys_equal_the_class_table_on_every_dealt_hand(variant):
    _compare(variant, hand_sample(None, 0, 0, variant))


def test_equal_the_kernels():
    rng = np.random.default_rng(5)
    for variant, rule in VARIANT_RULES.items():
        ht = hand_table(variant)
        for i in rng.choice(ht.hands.shape[0], 2000, replace=False):
            h = ht.hands[i]
            assert hand_class_key(h.tolist(), rule) == hand_class_key_kernel(h, rule, MARKER)
    # base classes of every (step, strength) the House rule produces in the bug variant
    ht = hand_table("bug")
    _, steps, strengths = house_keeps(ht.hands[::7], VARIANT_RULES["bug"])
    pairs = set(zip(steps.tolist(), strengths.tolist()))
    assert len(pairs) > 5000
    assert all(base_class(st, s) == base_class_kernel(st, s) for st, s in pairs)
