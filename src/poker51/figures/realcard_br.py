"""What a best responder wins on real cards with independent hands, per variant and along the
frontier (issue 26; :mod:`poker51.realcard.decomposition`), drawn from ``realcard_br.parquet``
(deterministic, so in the receipt)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from poker51.figures.style import DOUBLE, new_figure, save, style

#: (column, label, marker, line style, colour) of each value drawn
_SERIES = (
    ("v_abstract", "$V_A$: abstract best response", "o", "-", "C0"),
    ("v_ind", "$V_{ind}$: exact best response in $G_{ind}$", "s", "-", "C3"),
    ("v_ind_abstract_human", "abstract best response played in $G_{ind}$", "^", "--", "C2"),
)


def draw_realcard_br(df: pd.DataFrame, table_p: float | None = None) -> Figure:
    """One panel per variant: against the table's p, what the best-responding human wins (jbits
    per hand, + = it wins; symmetric-log scale) in the abstract game (V_A = minus the guarantee),
    exactly in G_ind (V_ind), and with the abstract best response played in G_ind (never above
    V_ind); the shaded band is V_ind - V_A.  The published table's p (``table_p``, default the
    ``rnr`` row's) is the dotted line.

    ``df``: the gathered ``realcard_br.parquet`` (variant, table, p and the three values)."""
    variants = sorted(df["variant"].unique())
    if table_p is None:
        rnr = df[df["table"] == "rnr"]["p"]
        table_p = float(rnr.iloc[0]) if len(rnr) else None
    with style():
        fig = new_figure(DOUBLE, 2.7)
        axes = np.atleast_1d(fig.subplots(1, max(len(variants), 1), sharey=True))
        for ax, variant in zip(axes, variants):
            g = df[df["variant"] == variant].sort_values("p")
            p = g["p"].to_numpy(np.float64)
            ax.fill_between(p, g["v_abstract"], g["v_ind"], color="C3", alpha=0.12, linewidth=0)
            for col, label, marker, ls, colour in _SERIES:
                ax.plot(p, g[col], marker=marker, linestyle=ls, color=colour, markersize=3, linewidth=0.8,
                        label=label)  # fmt: skip
            if table_p is not None:
                ax.axvline(table_p, color="0.4", linestyle=":", linewidth=0.7)
            ax.axhline(0.0, color="grey", linewidth=0.5)
            ax.set_yscale("symlog", linthresh=1e-2)
            ax.set_title(f"{variant}: {len(g)} tables")
            ax.set_xlabel("p of the table (0 = Nash)")
            ax.grid(linewidth=0.3, alpha=0.5)
        axes[0].set_ylabel("best responder wins (jbits/hand)")
        handles, labels = axes[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncol=3, frameon=False, fontsize=6.5)
    return fig


def fig_realcard_br(df: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """:func:`draw_realcard_br`, written as ``out_stem.pdf`` and ``.png``."""
    return save(draw_realcard_br(df), out_stem)
