"""Figures of the solves: convergence and the restricted Nash response frontier.

Both colour a solve by its p (the weight of the population model, 0 = Nash) on one
sequential colour map with a colour bar, so a sweep of eleven p reads as a gradient instead
of eleven legend entries.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from matplotlib import colormaps
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from poker51.figures.style import DOUBLE, SINGLE, new_figure, save, style

P_CMAP = "viridis"
P_LABEL = "p: population weight (0 = Nash)"
_VARIANT_MARKERS = {"standard": "o", "wild": "s", "bug": "^"}


def _p_colour(p: float) -> tuple[float, float, float, float]:
    return colormaps[P_CMAP](Normalize(0.0, 1.0)(p))


def _p_colourbar(fig: Figure, axes, label: str = P_LABEL) -> None:
    bar = fig.colorbar(ScalarMappable(norm=Normalize(0.0, 1.0), cmap=P_CMAP), ax=axes, fraction=0.05, pad=0.02)
    bar.set_label(label)


def draw_convergence(conv: pd.DataFrame, x: str = "iteration") -> Figure:
    """Exploitability of each restricted game against iterations (or ``x="seconds"``), log-log:
    one panel per variant, one line per p coloured by p.

    ``conv``: columns variant, p, iteration, exploitability (jbits per hand) and, for the
    seconds, ``seconds`` (the gathered ``convergence.parquet``, merged with ``timing.tsv``).
    Non-positive exploitabilities (none in exact arithmetic) are left out of the log scale.
    """
    variants = list(dict.fromkeys(conv.sort_values("variant", kind="stable")["variant"]))
    with style():
        fig = new_figure(DOUBLE, 2.5)
        axes = fig.subplots(1, len(variants), sharey=True, squeeze=False)[0]
        for ax, variant in zip(axes, variants):
            sub = conv[conv["variant"] == variant]
            for p, g in sub.groupby("p", sort=True):
                g = g[g["exploitability"] > 0].sort_values(x)
                ax.plot(g[x], g["exploitability"], color=_p_colour(float(p)), linewidth=0.9)
            ax.set_xscale("log")
            ax.set_yscale("log")
            # ticks at 1, 2 and 5 times a power of ten, written plainly (20, 50, 100): a short
            # solve spans less than a decade, and 2x10^2 3x10^2 ... labels crowd
            ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
            ax.xaxis.set_minor_formatter(NullFormatter())
            ax.set_title(f"{variant}: {sub['p'].nunique()} solves")
            ax.set_xlabel("iterations" if x == "iteration" else "seconds (wall clock)")
            ax.grid(which="major", linewidth=0.3, alpha=0.5)
        axes[0].set_ylabel("exploitability (jbits/hand)")
        _p_colourbar(fig, list(axes))
    return fig


def fig_convergence(conv: pd.DataFrame, out_stem: str | Path, x: str = "iteration") -> list[Path]:
    """:func:`draw_convergence`, written as ``out_stem.pdf`` and ``.png``."""
    return save(draw_convergence(conv, x), out_stem)


def draw_frontier(scores: pd.DataFrame) -> Figure:
    """The restricted Nash response frontier: each table's exploitability (the value of the
    game minus its guarantee) against its value versus the population, in jbits per hand for
    Riemann.  One line per variant (marker shape), points coloured by p, the published table
    ringed, the v0.5 policy as a black marker of its variant's shape.  No text sits on the
    data: p is read from the colour bar.

    ``scores``: the gathered ``scores.parquet`` (columns variant, table, p, value_low,
    guarantee, vs_population).
    """
    with style():
        fig = new_figure(SINGLE, 3.4)
        ax = fig.add_subplot()
        handles = []
        for variant, g in scores.groupby("variant", sort=True):
            marker = _VARIANT_MARKERS.get(str(variant), "D")
            value = float(g["value_low"].iloc[0])
            t = g[g["table"] != "v0.5"].sort_values("p")
            xs, ys = value - t["guarantee"].to_numpy(), t["vs_population"].to_numpy()
            ax.plot(xs, ys, color="0.55", linewidth=0.8, zorder=1)
            ax.scatter(xs, ys, c=[_p_colour(float(p)) for p in t["p"]], marker=marker, s=16, zorder=2, linewidths=0)
            published = t[t["table"] == "rnr"]
            ax.scatter(
                value - published["guarantee"], published["vs_population"], s=60, facecolors="none",
                edgecolors="black", linewidths=0.7, zorder=3,
            )  # fmt: skip
            v = g[g["table"] == "v0.5"]
            ax.scatter(value - v["guarantee"], v["vs_population"], marker=marker, s=22, color="black", zorder=3)
            handles.append(Line2D([], [], color="0.55", marker=marker, markerfacecolor="0.3", markeredgewidth=0,
                                  markersize=4, label=str(variant)))  # fmt: skip
        handles.append(Line2D([], [], linestyle="none", marker="o", markerfacecolor="none", markeredgecolor="black",
                              markersize=7, label="published table"))  # fmt: skip
        handles.append(Line2D([], [], linestyle="none", marker="o", color="black", markersize=4, label="v0.5 policy"))
        ax.set_xscale("symlog", linthresh=1e-2)
        ax.set_xlabel("exploitability (jbits/hand)")
        ax.set_ylabel("value vs the population (jbits/hand)")
        ax.set_title("Restricted Nash response frontier")
        ax.grid(linewidth=0.3, alpha=0.5)
        _p_colourbar(fig, ax)
        # below the axes: on them it sat among the v0.5 marks, which fall anywhere
        fig.legend(handles=handles, loc="outside lower center", ncol=2, frameon=False, fontsize=6.5,
                   handletextpad=0.3, columnspacing=1.2)  # fmt: skip
    return fig


def fig_frontier(scores: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """:func:`draw_frontier`, written as ``out_stem.pdf`` and ``.png``."""
    return save(draw_frontier(scores), out_stem)
