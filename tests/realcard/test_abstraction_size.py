"""The abstraction-size study's real-card half (poker51.realcard.abstraction_size)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from poker51.realcard.abstraction_size import paired_differences, pooled
from poker51.realcard.evidence import HOLDOUT, IN_SAMPLE, mean_ci


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


def test_paired_differences_are_per_deal_against_the_reference():
    rng = np.random.default_rng(3)
    base = rng.normal(1.5, 3.0, 50)  # a large deal-to-deal spread, shared by every bucket count
    frames = []
    for b, shift in ((10, 0.1), (40, 0.0), (160, -0.05)):
        noise = rng.normal(0.0, 0.2, 50)
        for scope in ("pop", "lbr"):
            frames.append(
                pd.DataFrame({"buckets": b, "scope": scope, "hand": np.arange(50), "net": base + shift + noise})
            )
    deals = pd.concat(frames, ignore_index=True)
    out = paired_differences(deals, 40).set_index("buckets")
    net = {b: g.set_index("hand")["net"] for (b, sc), g in deals.groupby(["buckets", "scope"]) if sc == "pop"}
    mean, _, _, lo, hi = mean_ci((net[10] - net[40]).to_numpy())
    assert (out.loc[10, "pop_vs_ref"], out.loc[10, "pop_vs_ref_ci_low"], out.loc[10, "pop_vs_ref_ci_high"]) == (
        mean,
        lo,
        hi,
    )
    assert hi - lo < 0.5 < mean_ci(net[10].to_numpy())[4] - mean_ci(net[10].to_numpy())[3]  # pairing removes the spread
    assert out.loc[40, ["pop_vs_ref", "pop_vs_ref_ci_low", "pop_vs_ref_ci_high"]].tolist() == [0.0, 0.0, 0.0]
    assert out["holdout_vs_ref"].isna().all()  # no hold-out deals
    assert np.isnan(paired_differences(deals, 20)["pop_vs_ref"]).all()  # no such reference
    short = deals[~((deals["buckets"] == 160) & (deals["hand"] == 0))]
    with pytest.raises(ValueError, match="160 buckets and the reference 40 played different deals"):
        paired_differences(short, 40)


def test_equivalence_margins_and_statements():
    """The smallest margin holding each paired interval, and the statement at a given margin
    (the reference row, a zero-width interval, is equivalent; a missing scope is not)."""
    import numpy as np
    import pandas as pd

    from poker51.realcard.abstraction_size import equivalence

    d = pd.DataFrame({
        "buckets": [10, 40, 80],
        "pop_vs_ref": [-0.02, 0.0, 0.01], "pop_vs_ref_ci_low": [-0.06, 0.0, -0.01],
        "pop_vs_ref_ci_high": [0.02, 0.0, 0.03],
        "lbr_vs_ref": [0.05, 0.0, np.nan], "lbr_vs_ref_ci_low": [-0.01, 0.0, np.nan],
        "lbr_vs_ref_ci_high": [0.11, 0.0, np.nan],
    })  # fmt: skip
    eq = equivalence(d, 0.05)
    assert eq["pop_vs_ref_margin"].tolist() == [0.06, 0.0, 0.03]
    assert eq["pop_equivalent"].tolist() == [False, True, True]
    assert eq["lbr_equivalent"].tolist() == [False, True, False] and eq["lbr_vs_ref_margin"].iloc[0] == 0.11
    assert "holdout_equivalent" not in eq.columns
    with pytest.raises(ValueError, match="margin must be above 0"):
        equivalence(d, 0.0)


def test_a_refined_row_is_paired_with_the_standard_reference():
    """A refined class set's row at the reference bucket count is compared with the standard
    classes' reference row on the same deals (not with itself), and sorts after the standard rows."""
    from poker51.realcard.abstraction_size import sort_sizes

    rng = np.random.default_rng(5)
    base = rng.normal(0.0, 2.0, 40)
    frames = [
        pd.DataFrame({"class_set": cs, "buckets": b, "scope": "pop", "hand": np.arange(40), "net": base + shift})
        for cs, b, shift in (("refined", 40, 0.25), ("standard", 40, 0.0), ("standard", 10, -0.5))
    ]
    out = paired_differences(pd.concat(frames, ignore_index=True), 40)
    assert out[["class_set", "buckets"]].values.tolist() == [["standard", 10], ["standard", 40], ["refined", 40]]
    assert out["pop_vs_ref"].tolist() == pytest.approx([-0.5, 0.0, 0.25])
    assert out.loc[2, "pop_vs_ref_ci_low"] == out.loc[2, "pop_vs_ref_ci_high"]  # a constant shift: no spread
    legacy = sort_sizes(pd.DataFrame({"buckets": [40, 10]}))  # a table from before the class sets
    assert legacy.values.tolist() == [[10, "standard"], [40, "standard"]]
