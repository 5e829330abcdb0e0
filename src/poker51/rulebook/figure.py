"""The figure of the ``rulebook_census`` stage: each category's probability in each game.

House style of :mod:`poker51.figures` (Agg backend, 8 pt, fixed PDF and PNG metadata so the
same table gives the same bytes): categories best first on the x axis, probability on a log
scale, one marker series per game, 95% intervals drawn for an estimate.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

__all__ = ["fig_rulebook_census"]

_PDF_METADATA = {"CreationDate": None, "Producer": None, "Creator": None}
_PNG_METADATA = {"Software": None}
_STYLE: Any = {"font.size": 8, "axes.titlesize": 9, "svg.hashsalt": "poker51", "pdf.compression": 6}


def _save(fig, out_stem: str | Path) -> list[Path]:
    out_stem = Path(out_stem)
    out_stem.parent.mkdir(parents=True, exist_ok=True)
    pdf, png = out_stem.with_name(out_stem.name + ".pdf"), out_stem.with_name(out_stem.name + ".png")
    fig.savefig(pdf, metadata=_PDF_METADATA)
    fig.savefig(png, metadata=_PNG_METADATA, dpi=150)
    plt.close(fig)
    return [pdf, png]


def fig_rulebook_census(df: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """Probability of each category per game (log scale) from the comparison table
    (:func:`poker51.rulebook.compare.comparison_table`); writes ``out_stem.pdf`` and ``.png``."""
    games = list(dict.fromkeys(df["game"]))
    cats = df.drop_duplicates("category_id").sort_values("category_id", ascending=False)
    x = np.arange(len(cats))
    markers = "osD^vP*X"
    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots(figsize=(7.0, 4.2))
        width = 0.8 / max(len(games), 1)
        for k, game in enumerate(games):
            g = df[df["game"] == game].set_index("category_id").reindex(cats["category_id"])
            p = g["probability"].to_numpy(float)
            keep = p > 0
            xs = x[keep] + (k - (len(games) - 1) / 2) * width
            label = g["title"].iloc[0] + ("" if bool(g["exact"].iloc[0]) else " (estimate)")
            line = ax.plot(xs, p[keep], linestyle="none", marker=markers[k % len(markers)], markersize=4, label=label)
            if not bool(g["exact"].iloc[0]):
                lo, hi = g["ci_low"].to_numpy(float)[keep], g["ci_high"].to_numpy(float)[keep]
                ax.vlines(xs, np.maximum(lo, 1e-12), hi, color=line[0].get_color(), linewidth=0.8)
        ax.set_yscale("log")
        ax.set_xticks(x, [str(c).replace("_", " ") for c in cats["category"]], rotation=35, ha="right")
        ax.set_ylabel("probability of the best hand's category")
        ax.set_title('Rule book games vs Poker 51: how often each category occurs ("rarer is higher"?)')
        ax.grid(axis="y", which="major", linewidth=0.4, alpha=0.5)
        ax.legend(ncol=3, fontsize=7, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.3))
        fig.tight_layout()
        return _save(fig, out_stem)
