"""The ``multi`` figure: Riemann's result per opponent type and number of seats.

Drawn from ``results/multi/sim.parquet`` (:mod:`poker51.multi.stage`) in the house style
of :mod:`poker51.figures` (Agg, PDF and PNG with fixed metadata so the bytes are
reproducible): one panel per number of Riemanns at the table; x the seats, y Riemann's
abits won per hand (mean over tables, 95% interval as error bars), one line per opponent
type (``mixed``: the four types together).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd

#: metadata that keeps the files byte-reproducible (as poker51.figures)
PDF_METADATA = {"CreationDate": None, "Producer": None, "Creator": None}
PNG_METADATA = {"Software": None}
DPI = 150
STYLE: dict[str, Any] = {"font.size": 8, "axes.titlesize": 9, "svg.hashsalt": "poker51", "pdf.compression": 6}


def save(fig, out_stem: str | Path) -> list[Path]:
    out_stem = Path(out_stem)
    out_stem.parent.mkdir(parents=True, exist_ok=True)
    pdf, png = out_stem.with_name(out_stem.name + ".pdf"), out_stem.with_name(out_stem.name + ".png")
    fig.savefig(pdf, metadata=PDF_METADATA)
    fig.savefig(png, metadata=PNG_METADATA, dpi=DPI)
    plt.close(fig)
    return [pdf, png]


def fig_multi(df: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """``df``: the columns of ``sim.parquet``.  One Riemann result per configuration (the
    rows of one configuration share it), so the rows are first reduced to configurations."""
    cfg = df.drop_duplicates(["seats", "riemanns", "opponents"]).sort_values(["riemanns", "opponents", "seats"])
    panels = sorted(cfg["riemanns"].unique())
    with plt.rc_context(STYLE):  # type: ignore[arg-type]
        fig, axes = plt.subplots(1, len(panels), figsize=(3.4 * len(panels), 3.0), sharey=True, squeeze=False)
        for ax, r in zip(axes[0], panels):
            sub = cfg[cfg["riemanns"] == r]
            opps = list(dict.fromkeys(sub["opponents"]))
            for j, o in enumerate(opps):
                line = sub[sub["opponents"] == o]
                x = line["seats"].to_numpy() + (j - (len(opps) - 1) / 2) * 0.06
                y = line["riemann_abits"].to_numpy()
                err = [y - line["riemann_abits_lo"].to_numpy(), line["riemann_abits_hi"].to_numpy() - y]
                ax.errorbar(x, y, yerr=err, marker="o", markersize=3, linewidth=1, capsize=2, label=o.replace("_", " "))
            ax.axhline(0.0, color="0.6", linewidth=0.6)
            ax.set_xticks(sorted(sub["seats"].unique()))
            ax.set_xlabel("seats at the table")
            ax.set_title(f"{r} Riemann{'s' if r > 1 else ''} at the table")
            ax.grid(axis="y", linewidth=0.4, alpha=0.5)
        axes[0][0].set_ylabel("Riemann's abits won per hand")
        fig.suptitle("Riemann at a table: mean over seeded tables, 95% interval", fontsize=9)
        axes[0][-1].legend(fontsize=7, frameon=False, title="opponents", title_fontsize=7)
        fig.tight_layout()
        return save(fig, out_stem)


__all__ = ["fig_multi"]
