"""The five-seat tables figure: Riemann's abits per hand against each opponent mix, by seats."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from poker51.figures.style import SINGLE, new_figure, save, style, type_label


def draw_multi(df: pd.DataFrame) -> Figure:
    """Riemann's abits won per hand (mean over seeded tables, 95% interval) against the number
    of seats, one line per opponent mix, one panel per number of Riemanns at the table.

    ``df`` has the columns of ``results/multi/sim.parquet``; the rows of one configuration
    (seats, riemanns, opponents) share Riemann's result, so they are reduced first.
    """
    cfg = df.drop_duplicates(["seats", "riemanns", "opponents"]).sort_values(["riemanns", "opponents", "seats"])
    panels = sorted(cfg["riemanns"].unique())
    # one seat axis for every panel (a panel with one seat count had one tick and its points
    # pushed to the edges): every whole seat count of the run, half a seat of margin
    lo, hi = (int(cfg["seats"].min()), int(cfg["seats"].max())) if len(cfg) else (2, 5)
    with style():
        fig = new_figure(min(7.0, SINGLE * len(panels)), 2.8)
        axes = fig.subplots(1, len(panels), sharey=True, squeeze=False)[0]
        for ax, r in zip(axes, panels, strict=True):
            sub = cfg[cfg["riemanns"] == r]
            opps = list(dict.fromkeys(sub["opponents"]))
            for j, o in enumerate(opps):
                line = sub[sub["opponents"] == o]
                x = line["seats"].to_numpy() + (j - (len(opps) - 1) / 2) * 0.08
                y = line["riemann_abits"].to_numpy()
                err = [y - line["riemann_abits_lo"].to_numpy(), line["riemann_abits_hi"].to_numpy() - y]
                ax.errorbar(x, y, yerr=err, marker="o", markersize=3, linewidth=1, capsize=2, label=type_label(o))
            ax.axhline(0.0, color="0.6", linewidth=0.6)
            ax.set_xticks(range(lo, hi + 1))
            ax.set_xlim(lo - 0.5, hi + 0.5)
            ax.set_xlabel("seats at the table")
            ax.set_title(f"{r} Riemann{'s' if r > 1 else ''} at the table")
            ax.grid(axis="y", linewidth=0.3, alpha=0.5)
        axes[0].set_ylabel("Riemann's abits per hand (95% CI)")
        axes[-1].legend(frameon=False, title="opponents")
    return fig


def fig_multi(df: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """:func:`draw_multi`, written as ``out_stem.pdf`` and ``.png`` (same table, same bytes)."""
    return save(draw_multi(df), out_stem)
