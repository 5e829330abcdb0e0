"""The evidence figure: Riemann v0.6 against v0.5 on real-card deals, per player type."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from poker51.figures.style import DOUBLE, new_figure, save, style, type_label
from poker51.realcard.evidence import DIFF, POLICIES


def draw_evidence(df: pd.DataFrame) -> Figure:
    """Mean jbits per hand for Riemann with 95% CIs: v0.6 and v0.5 per type (left), and
    the paired difference v0.6 − v0.5 (right); one row of panels per variant.

    ``df`` is the :func:`poker51.realcard.evidence.evidence_run` summary (columns variant, type,
    policy, mean, ci_low, ci_high, hands).
    """
    variants = list(dict.fromkeys(df["variant"]))
    with style():
        fig = new_figure(DOUBLE, 0.4 + 1.9 * len(variants))
        axes = fig.subplots(len(variants), 2, squeeze=False, gridspec_kw={"width_ratios": [2, 1]})
        for row, variant in zip(axes, variants):
            sub = df[df["variant"] == variant]
            names = list(dict.fromkeys(sub["type"]))
            y = np.arange(len(names))
            for k, (policy, marker) in enumerate(((POLICIES[0], "o"), (POLICIES[1], "s"))):
                s = sub[sub["policy"] == policy].set_index("type").reindex(names)
                err = np.vstack([s["mean"] - s["ci_low"], s["ci_high"] - s["mean"]])
                row[0].errorbar(
                    s["mean"], y + (-0.15 if k == 0 else 0.15), xerr=err, fmt=marker, markersize=3.5, capsize=2,
                    linewidth=0.8, label=f"Riemann {policy}",
                )  # fmt: skip
            d = sub[sub["policy"] == DIFF].set_index("type").reindex(names)
            row[1].errorbar(
                d["mean"], y, xerr=np.vstack([d["mean"] - d["ci_low"], d["ci_high"] - d["mean"]]), fmt="D",
                markersize=3.5, capsize=2, linewidth=0.8, color="black",
            )  # fmt: skip
            for ax in row:
                ax.axvline(0.0, color="grey", linewidth=0.6)
                ax.set_yticks(y, [type_label(n) for n in names])
                ax.grid(axis="x", linewidth=0.3, alpha=0.5)
            n = int(sub["hands"].iloc[0]) if len(sub) else 0
            row[0].set_title(f"{variant}: {n:,} deals per type")
            row[0].set_xlabel("Riemann's mean jbits per hand (95% CI)")
            row[0].invert_yaxis()  # the first type on top
            row[0].legend(frameon=False, loc="best")
            row[1].set_title("paired difference v0.6 − v0.5")
            row[1].set_xlabel("jbits per hand (95% CI)")
            row[1].set_ylim(row[0].get_ylim())
            row[1].tick_params(labelleft=False)
    return fig


def fig_evidence(df: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """:func:`draw_evidence`, written as ``out_stem.pdf`` and ``.png`` (same table, same bytes)."""
    return save(draw_evidence(df), out_stem)
