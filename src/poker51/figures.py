"""Figures of the pipeline: plain functions ``fig_xxx(df, out_stem) -> list[Path]``.

Each writes ``out_stem.pdf`` and ``out_stem.png`` with the Agg backend and fixed
metadata (no creation date, no software version), so the same table gives the same
bytes on every run.  Functions read the tables the stages write (the column names
are those of :mod:`poker51.census.count`), never recompute them.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

#: metadata that keeps the files byte-reproducible
PDF_METADATA = {"CreationDate": None, "Producer": None, "Creator": None}
PNG_METADATA = {"Software": None}
DPI = 150
_STYLE = {"font.size": 8, "axes.titlesize": 9, "svg.hashsalt": "poker51", "pdf.compression": 6}


def _save(fig, out_stem: str | Path) -> list[Path]:
    out_stem = Path(out_stem)
    out_stem.parent.mkdir(parents=True, exist_ok=True)
    pdf, png = out_stem.with_name(out_stem.name + ".pdf"), out_stem.with_name(out_stem.name + ".png")
    fig.savefig(pdf, metadata=PDF_METADATA)
    fig.savefig(png, metadata=PNG_METADATA, dpi=DPI)
    plt.close(fig)
    return [pdf, png]


def _category_labels(names) -> list[str]:
    return [str(n).replace("_", " ") for n in names]


def fig_census_frequencies(df: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """Probability of each category per deck (log scale), from the census counts table.

    ``df``: columns deck, category, category_id, count, hands (``census.counts_frame``).
    Categories best first on the x axis; one marker series per deck; zero counts omitted.
    """
    decks = list(dict.fromkeys(df["deck"]))
    cats = df.drop_duplicates("category_id").sort_values("category_id", ascending=False)
    cat_ids = list(cats["category_id"])
    x = np.arange(len(cat_ids))
    markers = "osD^vP*Xh<>"
    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots(figsize=(7.0, 3.6))
        width = 0.8 / max(len(decks), 1)
        for k, deck in enumerate(decks):
            sub = df[df["deck"] == deck].set_index("category_id")
            p = np.array([sub.loc[c, "count"] / sub.loc[c, "hands"] if c in sub.index else 0.0 for c in cat_ids])
            keep = p > 0
            ax.plot(
                x[keep] + (k - (len(decks) - 1) / 2) * width,
                p[keep],
                linestyle="none",
                marker=markers[k % len(markers)],
                markersize=4,
                label=deck,
            )
        ax.set_yscale("log")
        ax.set_xticks(x, _category_labels(cats["category"]), rotation=35, ha="right")
        ax.set_ylabel("probability of the category (all hands)")
        ax.set_title("Census: exact category frequencies per deck")
        ax.grid(axis="y", which="major", linewidth=0.4, alpha=0.5)
        ax.legend(ncol=min(len(decks), 6), fontsize=7, frameon=False, loc="upper left")
        fig.tight_layout()
        return _save(fig, out_stem)


def fig_removal_heatmap(df: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """Relative change of each category's probability when one card is removed (card x category).

    ``df``: columns card, card_id, category, category_id, relative_change
    (``census.removal_table``).  Diverging colours centred on zero, in percent.
    """
    table = df.pivot(index="card_id", columns="category_id", values="relative_change") * 100
    table = table.sort_index().sort_index(axis=1, ascending=False)
    cards = df.drop_duplicates("card_id").set_index("card_id")["card"].reindex(table.index)
    cats = df.drop_duplicates("category_id").set_index("category_id")["category"].reindex(table.columns)
    values = table.to_numpy()
    lim = float(np.nanmax(np.abs(values))) or 1.0
    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots(figsize=(4.8, 8.4))
        im = ax.imshow(values, aspect="auto", cmap="RdBu_r", vmin=-lim, vmax=lim, interpolation="nearest")
        ax.set_yticks(np.arange(len(cards)), list(cards), fontsize=6)
        ax.set_xticks(np.arange(len(cats)), _category_labels(cats), rotation=45, ha="right")
        ax.set_title("Removing one card: relative change of\neach category's probability vs 52 cards")
        bar = fig.colorbar(im, ax=ax, fraction=0.05, pad=0.03)
        bar.set_label("relative change (%)")
        fig.tight_layout()
        return _save(fig, out_stem)
