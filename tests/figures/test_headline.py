"""The headline tables of the report (poker51.figures.headline)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from poker51.figures.headline import (
    evidence_note,
    headline_evidence,
    headline_realcard,
    headline_scores,
    write_html,
)


def test_scores_put_the_quoted_tables_first():
    rows = [("wild", "sweep", 1.0), ("wild", "v0.5", np.nan), ("wild", "rnr", 0.5), ("wild", "nash", 0.0),
            ("standard", "sweep", 0.1), ("standard", "nash", 0.0)]  # fmt: skip
    scores = pd.DataFrame(rows, columns=["variant", "table", "p"]).assign(
        value_low=0.1, value_high=0.2, guarantee=-0.1, vs_population=1.0, br_gain=0.1, exploitability=0.01, iterations=9
    )
    h = headline_scores(scores)
    assert list(zip(h["variant"], h["table"], h["p"])) == [
        ("standard", "nash", "0"), ("standard", "sweep", "0.1"),
        ("wild", "nash", "0"), ("wild", "rnr", "0.5"), ("wild", "sweep", "1"), ("wild", "v0.5", ""),
    ]  # fmt: skip
    assert "value of the game: low" in h.columns


def test_evidence_cells_and_pages(tmp_path):
    ev = pd.DataFrame(
        [
            ("standard", "rock", pol, 60, m, m - 0.5, m + 0.5)
            for pol, m in (("v0.6", 0.4), ("v0.5", 0.1), ("v0.6-v0.5", 0.3))
        ],
        columns=["variant", "type", "policy", "hands", "mean", "ci_low", "ci_high"],
    )
    h = headline_evidence(ev)
    assert list(h.columns) == ["variant", "type", "v0.6", "v0.5", "v0.6-v0.5", "deals"]
    assert h.loc[0, "v0.6-v0.5"] == "+0.300 [-0.200, +0.800]" and h.loc[0, "deals"] == 60
    a, b = write_html(h, tmp_path / "a.html", "Evidence <v0.6>"), write_html(h, tmp_path / "b.html", "Evidence <v0.6>")
    assert a.read_bytes() == b.read_bytes()
    page = a.read_text()
    assert "<title>Evidence &lt;v0.6&gt;</title>" in page and "+0.300 [-0.200, +0.800]" in page


def test_scores_show_what_lbr_wins_and_evidence_splits_the_populations():
    scores = pd.DataFrame([("wild", "rnr", 0.5), ("wild", "nash", 0.0)], columns=["variant", "table", "p"]).assign(
        value_low=0.1, value_high=0.2, guarantee=-0.1, vs_population=1.0, br_gain=0.1, exploitability=0.01,
        iterations=9, lbr_win=[0.25, np.nan], lbr_win_ci_low=[0.125, np.nan], lbr_win_ci_high=[0.375, np.nan],
        lbr_hands=[100, 0],
    )  # fmt: skip
    h = headline_scores(scores)
    assert h["LBR wins (jbits/hand)"].tolist()[1] == 0.25 and h["LBR deals"].tolist() == [0, 100]
    ev = pd.DataFrame(
        [("standard", pop, "rock", pol, 60, 0.5, 0.0, 1.0) for pop in ("in_sample", "holdout")
         for pol in ("v0.6", "v0.5", "v0.6-v0.5")],
        columns=["variant", "population", "type", "policy", "hands", "mean", "ci_low", "ci_high"],
    )  # fmt: skip
    h = headline_evidence(ev)
    assert list(h.columns) == ["variant", "population", "type", "v0.6", "v0.5", "v0.6-v0.5", "deals"]
    assert h["population"].tolist() == ["holdout", "in_sample"]


def test_headline_tables_as_csv_and_latex(tmp_path):
    from poker51.figures.headline import write_csv, write_latex

    df = pd.DataFrame({"variant": ["standard", "wild"], "p": ["0", "0.5"], "guarantee": [-0.12345678, 0.5]})
    csv = write_csv(df, tmp_path / "s.csv")
    assert csv.read_text() == "variant,p,guarantee\nstandard,0,-0.12345678\nwild,0.5,0.5\n"
    assert pd.read_csv(csv)["guarantee"].tolist() == [-0.12345678, 0.5]
    tex = write_latex(df.rename(columns={"p": "p_rnr"}), tmp_path / "s.tex", "Scores: 95% CIs & more", "tab:scores")
    text = tex.read_text()
    assert text.startswith("\\begin{table}[htbp]\n\\centering\n\\caption{Scores: 95\\% CIs \\& more}\n")
    assert "\\label{tab:scores}" in text and "\\toprule" in text and "\\bottomrule" in text
    assert "variant & p\\_rnr & guarantee \\\\" in text and "standard & 0 & -0.1235 \\\\" in text
    assert (
        write_latex(df, tmp_path / "t.tex", "x", "tab:x").read_bytes()
        == write_latex(df, tmp_path / "u.tex", "x", "tab:x").read_bytes()
    )


def test_the_scores_page_fits_1280_px():
    """A model of the browser's layout (12 px sans-serif: about 7 px a character; headers wrap
    at 6em = 72 px but never inside a word; 12 px of padding a cell) keeps the 14 columns of
    the scores table, with LBR, under 1280 px."""
    import re

    from poker51.figures.headline import _CSS

    assert "font-size:12px" in _CSS and "max-width:6em" in _CSS and "padding:2px 6px" in _CSS
    scores = pd.DataFrame([("standard", "rnr", 0.5), ("standard", "v0.5", np.nan)], columns=["variant", "table", "p"])
    scores = scores.assign(
        value_low=-0.030235, value_high=0.058542, guarantee=-0.069332, vs_population=1.412795, br_gain=0.069332,
        exploitability=0.014456, iterations=2000, lbr_win=-0.275, lbr_win_ci_low=-3.695057, lbr_win_ci_high=3.145057,
        lbr_hands=4000,
    )  # fmt: skip
    h = headline_scores(scores)
    assert len(h.columns) == 14
    width = 0
    for col in h.columns:
        cells = [f"{x:+.4f}" if isinstance(x, float) else str(x) for x in h[col]]
        words = max(len(w) for w in re.split(r"\s+", col)) * 7
        header = max(words, min(len(col) * 7, 72))
        width += max(header, max(len(c) for c in cells) * 7) + 12
    assert width < 1280, width


def test_evidence_gains_with_the_bonferroni_correction():
    """Three paired gains (m = 3, each at 1 - 0.05/3): +0.10 with se 0.045 excludes 0 at 95% alone
    (t 2.22) but not corrected (t 2.40); +0.20 with se 0.04 does both; -0.15 with se 0.03 is a
    loss that survives too."""
    rows = []
    for t, m, se in (("rock", 0.10, 0.045), ("maniac", 0.20, 0.04), ("regular", -0.15, 0.03)):
        for pol, mean in (("v0.6", m + 0.5), ("v0.5", 0.5), ("v0.6-v0.5", m)):
            rows.append(("standard", "in_sample", t, pol, 1000, mean, se, mean - 1.962 * se, mean + 1.962 * se))
    ev = pd.DataFrame(rows, columns=["variant", "population", "type", "policy", "hands", "mean", "se", "ci_low",
                                     "ci_high"])  # fmt: skip
    h = headline_evidence(ev).set_index("type")
    col = "v0.6-v0.5: Bonferroni (m = 3)"
    assert h.loc["rock", col].endswith(" no") and h.loc["maniac", col].endswith(" yes")
    assert h.loc["regular", col].endswith(" yes") and h.loc["rock", col].startswith("[-0.")
    note = evidence_note(ev)
    assert "m = 3 paired intervals" in note and "2 of the 3 gains still exclude 0; not: standard rock." in note


def test_realcard_headline_orders_tables_and_keeps_room_for_the_lower_bounds():
    rows = [("wild", "sweep", 1.0), ("wild", "rnr", 0.5), ("wild", "nash", 0.0), ("wild", "v0.5", np.nan)]
    scores = pd.DataFrame(rows, columns=["variant", "table", "p"]).assign(
        v_abstract=[np.nan, 0.03, 0.01, np.nan], v_ind=[np.nan, 0.08, 0.05, np.nan],
        v_ind_abstract_human=[np.nan, 0.02, 0.04, np.nan])  # fmt: skip
    h = headline_realcard(scores)
    assert list(h["table"]) == ["nash", "rnr"] and list(h["p"]) == ["0", "0.5"]
    assert h["V_ind - V_A"].tolist() == pytest.approx([0.04, 0.05])
    assert h["V_ind - abstract human"].tolist() == pytest.approx([0.01, 0.06])
    assert "real cards: lower bound by play" not in h.columns
    more = headline_realcard(scores.assign(v_real_lower=0.02, v_real_lower_ci_low=0.01, v_real_lower_ci_high=0.03))
    assert more["real cards: lower bound by play"].tolist() == [0.02, 0.02]
    assert list(headline_realcard(scores.drop(columns=["v_ind"])).columns)[:3] == ["variant", "table", "p"]
