"""The abstraction-size study's real-card half (poker51.play.abstraction_size)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from poker51.play.abstraction_size import pooled
from poker51.play.evidence import HOLDOUT, IN_SAMPLE


def _per_hand() -> pd.DataFrame:
    rng = np.random.default_rng(7)
    frames = []
    for population, names in ((IN_SAMPLE, ["rock", "maniac", "regular"]), (HOLDOUT, ["nit", "v05"])):
        for name in names:
            frames.append(pd.DataFrame({"variant": "standard", "population": population, "type": name,
                                        "hand": np.arange(5), "v0.6": rng.integers(-8, 9, 5),
                                        "v0.5": rng.integers(-8, 9, 5)}))  # fmt: skip
    return pd.concat(frames, ignore_index=True)


def test_pooled_weighs_each_deal_by_type():
    df = _per_hand()
    nets = {t: g["v0.6"].to_numpy(float) for t, g in df.groupby("type")}
    names, w = ["rock", "maniac", "regular"], [0.5, 0.3, 0.2]
    want = 0.5 * nets["rock"] + 0.3 * nets["maniac"] + 0.2 * nets["regular"]
    assert np.allclose(pooled(df, IN_SAMPLE, names, w), want)
    assert np.allclose(pooled(df.iloc[::-1], IN_SAMPLE, names, w), want)  # rows in any order
    assert np.allclose(pooled(df, HOLDOUT, ["nit", "v05"]), (nets["nit"] + nets["v05"]) / 2)
    with pytest.raises(ValueError, match="3 in_sample types, 2 weights"):
        pooled(df, IN_SAMPLE, names, [0.5, 0.5])
    with pytest.raises(ValueError, match="no holdout deals of \\['rock'\\]"):
        pooled(df, HOLDOUT, ["nit", "rock"])
