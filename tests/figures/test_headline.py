"""The headline tables of the report (poker51.figures.headline)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from poker51.figures.headline import headline_evidence, headline_scores, write_html


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
