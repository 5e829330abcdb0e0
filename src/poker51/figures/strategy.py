"""Heat maps of Riemann's published strategy: how often it bets or raises, and folds, at each
spot, by dealt-hand class before the draw and by bucket after it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from poker51.figures.style import DOUBLE, MIN_FONT, class_label, new_figure, save, style
from poker51.study.summary import SPOTS

#: Riemann's spots (``poker51.study.summary.SPOTS``) as the human's action that made them
SPOT_LABELS = {
    "checked": "H checks",
    "bet1": "H bets 1",
    "bet2": "H bets 2",
    "bet4": "H bets 4",
    "bet8": "H bets 8",
    "reraised": "H re-raises",
    "raised": "H raises R's bet",
}
_IMPOSSIBLE = "0.82"  # grey of a cell whose action does not exist at the spot


def strategy_matrix(summary: pd.DataFrame, street: int, what: str, n_states: int) -> tuple[np.ndarray, np.ndarray]:
    """(values, impossible) of one heat map, both (n_states, len(SPOTS)).

    ``values`` holds the reach-weighted probability of ``what`` ("aggressive" or "fold"),
    NaN where play never reaches the cell or the action does not exist there; ``impossible``
    is True where the spot is reached but offers no such action (the summary writes NaN:
    Riemann cannot fold when checked to, nor raise a raise).
    """
    s = summary[summary["street"] == street]
    values = np.full((n_states, len(SPOTS)), np.nan)
    reached = np.zeros_like(values, dtype=bool)
    rows, cols = s["state"].to_numpy(int), np.array([SPOTS.index(x) for x in s["spot"]], dtype=int)
    values[rows, cols] = s[what].to_numpy(float)
    reached[rows, cols] = True
    return values, reached & np.isnan(values)


def draw_strategy(summary: pd.DataFrame, class_names: list[str], n_buckets: int, title: str) -> Figure:
    """Riemann's table as four heat maps: bet or raise (left) and fold (right), before the
    draw by class (top) and after it by bucket (bottom); each cell is the probability at
    that spot, weighted by how often the solved play reaches each information set.

    ``summary``: ``{variant}/strategy_summary.parquet`` (street, spot, state, weight,
    aggressive, fold); ``class_names``: the class table's names in class order.  Grey cells
    have no such action; white cells are never reached.
    """
    rows = ((0, [class_label(n) for n in class_names]), (1, [str(b) for b in range(n_buckets)]))
    with style():
        fig = new_figure(DOUBLE, 0.085 * (len(class_names) + n_buckets) + 2.0)
        axes = fig.subplots(2, 2, sharex=True, gridspec_kw={"height_ratios": [len(class_names), n_buckets]})
        grey = ListedColormap([_IMPOSSIBLE])
        im = None
        for r, (street, labels) in enumerate(rows):
            for c, what in enumerate(("aggressive", "fold")):
                ax = axes[r, c]
                values, impossible = strategy_matrix(summary, street, what, len(labels))
                im = ax.imshow(values, aspect="auto", cmap="viridis", vmin=0, vmax=1, origin="lower",
                               interpolation="nearest")  # fmt: skip
                ax.imshow(np.ma.masked_where(~impossible, np.ones_like(values)), aspect="auto", cmap=grey,
                          origin="lower", interpolation="nearest")  # fmt: skip
                ax.set_facecolor("white")
                if street == 0:
                    ax.set_yticks(range(len(labels)), labels, fontsize=MIN_FONT)
                else:
                    ax.set_yticks(range(0, len(labels), 5))
                    ax.set_ylabel("bucket after the draw (0 weakest)" if c == 0 else "")
                if c == 1:
                    ax.tick_params(labelleft=False)
                action = "bets or raises" if what == "aggressive" else "folds"
                when = "Before the draw" if street == 0 else "After the draw"
                ax.set_title(f"{when}: Riemann {action}")
        for ax in axes[1]:
            ax.set_xticks(range(len(SPOTS)), [SPOT_LABELS[s] for s in SPOTS], rotation=35, ha="right")
            ax.set_xlabel("Riemann's spot: the human's last action")
        if im is not None:
            bar = fig.colorbar(im, ax=axes, fraction=0.03, pad=0.01, aspect=50)
            bar.set_label("probability (reach-weighted)")
        fig.legend(
            handles=[Patch(color=_IMPOSSIBLE, label="no such action at this spot"),
                     Patch(facecolor="white", edgecolor="0.5", linewidth=0.5, label="never reached")],
            loc="outside lower right", ncol=2, frameon=False,
        )  # fmt: skip
        fig.suptitle(title)
    return fig


def fig_strategy(
    summary: pd.DataFrame, class_names: list[str], n_buckets: int, title: str, out_stem: str | Path
) -> list[Path]:
    """:func:`draw_strategy`, written as ``out_stem.pdf`` and ``.png``."""
    return save(draw_strategy(summary, class_names, n_buckets, title), out_stem)
