"""The rule book's games next to Poker 51: each category's probability in each game.

Drawn from ``results/rulebook/census.parquet`` (:func:`poker51.rulebook.compare.comparison_table`),
never recomputed: categories best first on the x axis (royal flush apart), the probability
``count / hands`` on a log scale, one marker series per game, and for a seeded estimate its 95%
interval ``[ci_low, ci_high]`` as a vertical bar.  A category that never occurs (probability 0)
is not drawn.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from poker51.figures.style import DOUBLE, category_label, new_figure, save, style

__all__ = ["draw_rulebook_census", "fig_rulebook_census"]

_MARKERS = "osD^vP*Xh<>"


def draw_rulebook_census(df: pd.DataFrame) -> Figure:
    """Probability of each category per game (log scale).

    ``df``: one row per (game, category) with columns game, title, exact, category,
    category_id, probability, ci_low, ci_high (the comparison table).
    """
    games = list(dict.fromkeys(df["game"]))
    cats = df.drop_duplicates("category_id").sort_values("category_id", ascending=False)
    x = np.arange(len(cats))
    with style():
        fig = new_figure(DOUBLE, 3.4)
        ax = fig.add_subplot()
        width = 0.8 / max(len(games), 1)
        for k, game in enumerate(games):
            g = df[df["game"] == game].set_index("category_id").reindex(cats["category_id"])
            p = g["probability"].to_numpy(float)
            keep = p > 0
            xs = x[keep] + (k - (len(games) - 1) / 2) * width
            exact = bool(g["exact"].iloc[0])
            label = str(g["title"].iloc[0]) + ("" if exact else " (estimate)")
            line = ax.plot(
                xs, p[keep], linestyle="none", marker=_MARKERS[k % len(_MARKERS)], markersize=3.5, label=label
            )
            if not exact:
                lo, hi = g["ci_low"].to_numpy(float)[keep], g["ci_high"].to_numpy(float)[keep]
                ax.vlines(xs, np.maximum(lo, 1e-12), hi, color=line[0].get_color(), linewidth=0.8)
        ax.set_yscale("log")
        ax.set_xticks(x, [category_label(str(c)) for c in cats["category"]], rotation=30, ha="right")
        ax.set_ylabel("probability of the best hand's category")
        ax.set_title('Rule book games vs Poker 51: how often each category occurs ("rarer is higher"?)')
        ax.grid(axis="y", which="major", linewidth=0.4, alpha=0.5)
        ax.legend(ncol=3, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.32))
    return fig


def fig_rulebook_census(df: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """:func:`draw_rulebook_census`, written as ``out_stem.pdf`` and ``.png``."""
    return save(draw_rulebook_census(df), out_stem)
