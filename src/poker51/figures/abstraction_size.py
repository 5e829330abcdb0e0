"""The abstraction-size study: what the number of buckets buys (issue 12, section 2).

:func:`draw_abstraction_size` is drawn from ``results/study/abstraction_size.parquet`` (one
deterministic row per bucket count, :mod:`poker51.study.abstraction_size` and
:mod:`poker51.play.abstraction_size`), so it is in the receipt; :func:`draw_abstraction_size_cost`
from ``abstraction_size_timing.tsv`` (wall clock), so it is not.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from poker51.figures.style import DOUBLE, new_figure, save, style
from poker51.study.abstraction_size import fit_growth

#: real-card series of the right panel: (column prefix, label, sign turning it into Riemann's jbits)
_REAL = (
    ("pop", "vs population", 1.0),
    ("holdout", "vs hold-out types", 1.0),
    ("lbr_win", "vs local best response", -1.0),
)


def _log2_axis(ax, buckets: np.ndarray) -> None:
    ax.set_xscale("log", base=2)
    ax.set_xticks(buckets, [str(int(b)) for b in buckets])
    ax.minorticks_off()
    ax.set_xlabel("buckets (standard variant)")
    ax.grid(linewidth=0.3, alpha=0.5)


def draw_abstraction_size(df: pd.DataFrame) -> Figure:
    """Left: the value bracket of the abstract game (shaded, jbits per hand for Riemann) and
    the guarantees of the Nash and the p table, with the p table's value against the
    population, against the bucket count.  Right: the p table on real cards, Riemann's mean
    jbits per hand with 95% CIs against the population, the hold-out types and the local best
    response (minus what LBR wins)."""
    df = df.sort_values("buckets", kind="stable")
    b = df["buckets"].to_numpy(np.float64)
    p = float(df["p"].iloc[0]) if len(df) else float("nan")
    with style():
        fig = new_figure(DOUBLE, 2.7)
        left, right = fig.subplots(1, 2)
        left.fill_between(b, df["value_low"], df["value_high"], color="C0", alpha=0.25, linewidth=0,
                          label="value bracket [low, high]")  # fmt: skip
        left.plot(b, df["nash_guarantee"], "o-", color="C0", markersize=3, label="Nash table's guarantee")
        left.plot(b, df["rnr_guarantee"], "s-", color="C1", markersize=3, label=f"p = {p:g} table's guarantee")
        left.plot(b, df["rnr_vs_population"], "^--", color="C2", markersize=3,
                  label=f"p = {p:g} table vs population (abstract)")  # fmt: skip
        left.set_ylabel("jbits per hand (Riemann)")
        left.set_title("abstract game")
        left.legend(frameon=False, fontsize=6, loc="best")
        offsets = np.array([0.97, 1.0, 1.03])
        for (prefix, label, sign), off in zip(_REAL, offsets):
            mean = prefix if prefix == "lbr_win" else f"{prefix}_mean"
            lo, hi = f"{prefix}_ci_low", f"{prefix}_ci_high"
            m = sign * df[mean].to_numpy(np.float64)
            a, z = sign * df[lo].to_numpy(np.float64), sign * df[hi].to_numpy(np.float64)
            err = np.vstack([m - np.minimum(a, z), np.maximum(a, z) - m])
            right.errorbar(b * off, m, yerr=err, fmt="o-", markersize=3, capsize=2, linewidth=0.8, label=label)
        right.axhline(0.0, color="grey", linewidth=0.6)
        right.set_ylabel("Riemann's mean jbits per hand (95% CI)")
        n = int(df["pop_hands"].iloc[0]) if len(df) else 0
        m = int(df["lbr_hands"].iloc[0]) if len(df) else 0
        right.set_title(f"p = {p:g} table on real cards ({n:,} deals per type, LBR {m:,})")
        right.legend(frameon=False, fontsize=6, loc="best")
        for ax in (left, right):
            _log2_axis(ax, b)
    return fig


def fig_abstraction_size(df: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """:func:`draw_abstraction_size`, written as ``out_stem.pdf`` and ``.png``."""
    return save(draw_abstraction_size(df), out_stem)


def draw_abstraction_size_cost(timing: pd.DataFrame) -> Figure:
    """Left: CPU seconds per iteration (checks included) of the Nash and the p solve against a
    player's private states (classes + buckets), log-log, with the least-squares growth
    exponent in the legend (hollow markers: the wall clock's seconds).  Right: peak memory of
    the solves (tracemalloc) and of the job (peak resident size)."""
    t = timing.sort_values("private_states", kind="stable")
    x = t["private_states"].to_numpy(np.float64)
    with style():
        fig = new_figure(DOUBLE, 2.5)
        left, right = fig.subplots(1, 2)
        for name, label, colour in (("nash", "Nash", "C0"), ("rnr", "p table", "C1")):
            y = t[f"{name}_cpu_seconds_per_iteration"].to_numpy(np.float64)
            fit = fit_growth(x, y)
            left.plot(x, y, "o", color=colour, markersize=3.5, label=f"{label}: exponent {fit.exponent:.2f}")
            if np.isfinite(fit.exponent):
                left.plot(x, np.exp(fit.intercept) * x**fit.exponent, "-", color=colour, linewidth=0.7)
            wall = t[f"{name}_seconds_per_iteration"].to_numpy(np.float64)
            left.plot(x, wall, "o", color=colour, markersize=3.5, markerfacecolor="none", markeredgewidth=0.6)
        left.set_ylabel("CPU seconds per iteration\n(hollow: wall clock)")
        left.legend(frameon=False, fontsize=6, loc="best")
        right.plot(x, t["peak_solve_mb"], "o-", markersize=3.5, label="solves (tracemalloc peak)")
        right.plot(x, t["peak_rss_mb"], "s-", markersize=3.5, label="job (peak resident size)")
        right.set_ylabel("MB")
        right.legend(frameon=False, fontsize=6, loc="best")
        for ax in (left, right):
            ax.set_xscale("log")
            ax.set_xlabel("private states per player (classes + buckets)")
            ax.grid(which="both", linewidth=0.3, alpha=0.5)
        left.set_yscale("log")
    return fig


def fig_abstraction_size_cost(timing: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """:func:`draw_abstraction_size_cost`, written as ``out_stem.pdf`` and ``.png``."""
    return save(draw_abstraction_size_cost(timing), out_stem)
