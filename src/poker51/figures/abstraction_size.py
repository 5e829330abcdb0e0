"""The abstraction-size study: what the number of buckets buys (issue 12, section 2).

:func:`draw_abstraction_size` is drawn from ``results/study/abstraction_size.parquet`` (one
deterministic row per bucket count, :mod:`poker51.study.abstraction_size` and
:mod:`poker51.realcard.abstraction_size`), so it is in the receipt; :func:`draw_abstraction_size_cost`
from ``abstraction_size_timing.tsv`` (wall clock), so it is not.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from poker51.figures.style import DOUBLE, new_figure, save, style
from poker51.study.abstraction_size import fit_growth


def _log2_axis(ax, buckets: np.ndarray) -> None:
    ax.set_xscale("log", base=2)
    ax.set_xticks(buckets, [str(int(b)) for b in buckets])
    ax.minorticks_off()
    ax.set_xlabel("buckets")
    ax.grid(linewidth=0.3, alpha=0.5)


def _interval(ax, b: np.ndarray, df: pd.DataFrame, mean: str, lo: str, hi: str, sign: float, **kw) -> None:
    """Means with their 95% intervals (``sign`` -1 turns what LBR wins into Riemann's jbits)."""
    m = sign * df[mean].to_numpy(np.float64)
    a, z = sign * df[lo].to_numpy(np.float64), sign * df[hi].to_numpy(np.float64)
    err = np.vstack([m - np.minimum(a, z), np.maximum(a, z) - m])
    ax.errorbar(b, m, yerr=err, fmt="o-", markersize=3, capsize=2, linewidth=0.8, **kw)


def _refined_points(ax, r: pd.DataFrame, cols: list[tuple[str, str]], sign: float = 1.0) -> None:
    """The refined class set's rows as diamonds (hollow) at their bucket counts, one per column."""
    if r.empty:
        return
    x = r["buckets"].to_numpy(np.float64) * 1.08
    for col, colour in cols:
        ax.plot(x, sign * r[col].to_numpy(np.float64), "D", color=colour, markersize=4, markerfacecolor="none",
                markeredgewidth=0.8)  # fmt: skip


def draw_abstraction_size(df: pd.DataFrame) -> Figure:
    """Three panels against the bucket count, Riemann's jbits per hand.  Left, the abstract
    game: its value bracket (shaded, from the Nash table) and the guarantees of the Nash and
    the p table.  Middle, the p table on real cards against the population and the hold-out
    types (means with 95% CIs), with its abstract value against the population for
    comparison.  Right, the p table on real cards against the local best response (minus
    what LBR wins, 95% CI).  When the table has ``v_ind`` (the realcard_br stage on), a fourth
    panel: what a best-responding human wins from the p table, V_A (minus its guarantee), the
    exact best response in G_ind, V_ind, and (where played) that best response on real cards,
    the lower bound by play with its 95% CI.  Rows of the refined class set (``class_set``) are
    hollow diamonds at their bucket count, beside the lines of the standard classes."""
    if "class_set" not in df.columns:
        df = df.assign(class_set="standard")
    rf = df[df["class_set"] == "refined"].sort_values("buckets", kind="stable")
    df = df[df["class_set"] != "refined"].sort_values("buckets", kind="stable")
    b = df["buckets"].to_numpy(np.float64)
    p = float(df["p"].iloc[0]) if len(df) else float("nan")
    n = int(df["pop_hands"].iloc[0]) if len(df) else 0
    m = int(df["lbr_hands"].iloc[0]) if len(df) else 0
    with style():
        with_ind = "v_ind" in df.columns and bool(df["v_ind"].notna().any())
        fig = new_figure(DOUBLE, 3.0)
        axes = fig.subplots(1, 4 if with_ind else 3)
        left, middle, right = axes[:3]
        left.fill_between(b, df["value_low"], df["value_high"], color="C0", alpha=0.25, linewidth=0,
                          label="value bracket")  # fmt: skip
        left.plot(b, df["nash_guarantee"], "o-", color="C0", markersize=3, label="Nash table's guarantee")
        left.plot(b, df["rnr_guarantee"], "s-", color="C1", markersize=3, label=f"p = {p:g} table's guarantee")
        _refined_points(left, rf, [("value_low", "C0"), ("rnr_guarantee", "C1")])
        left.axhline(0.0, color="grey", linewidth=0.6)
        left.set_ylabel("jbits per hand (Riemann)")
        left.set_title("standard variant,\nabstract game")
        left.legend(frameon=False, fontsize=6, loc="center left")
        _interval(middle, b, df, "pop_mean", "pop_ci_low", "pop_ci_high", 1.0, color="C2", label="vs population")
        _interval(middle, b * 1.04, df, "holdout_mean", "holdout_ci_low", "holdout_ci_high", 1.0, color="C3",
                  label="vs hold-out types")  # fmt: skip
        middle.plot(b, df["rnr_vs_population"], "^--", color="C2", markersize=3, linewidth=0.8,
                    label="vs population, abstract game")  # fmt: skip
        _refined_points(middle, rf, [("pop_mean", "C2"), ("holdout_mean", "C3")])
        if not rf.empty:
            middle.plot([], [], "D", color="grey", markersize=4, markerfacecolor="none", label="refined classes")
        middle.set_title(f"p = {p:g} table, real cards\n({n:,} deals a type)")
        fig.legend(*middle.get_legend_handles_labels(), loc="outside lower center", ncol=4, frameon=False, fontsize=6)
        _interval(right, b, df, "lbr_win", "lbr_win_ci_low", "lbr_win_ci_high", -1.0, color="C4",
                  label="vs local best response")  # fmt: skip
        _refined_points(right, rf, [("lbr_win", "C4")], -1.0)
        right.axhline(0.0, color="grey", linewidth=0.6)
        right.set_title(f"vs local best response\n({m:,} hands)")
        if with_ind:
            ind = axes[3]
            ind.plot(b, df["v_abstract"], "o-", color="C0", markersize=3, linewidth=0.8, label="$V_A$ (abstract)")
            ind.plot(b, df["v_ind"], "s-", color="C3", markersize=3, linewidth=0.8, label="$V_{ind}$ (exact)")
            points = [("v_abstract", "C0"), ("v_ind", "C3")]
            if "v_real_lower" in df.columns and bool(df["v_real_lower"].notna().any()):
                _interval(ind, b * 1.04, df, "v_real_lower", "v_real_lower_ci_low", "v_real_lower_ci_high", 1.0,
                          color="C5", label="by play, real cards")  # fmt: skip
                points.append(("v_real_lower", "C5"))
            _refined_points(ind, rf, points)
            ind.set_title("a best responder\nwins from it")
            ind.set_ylabel("jbits/hand (the human)")
            ind.legend(frameon=False, fontsize=6, loc="lower right", bbox_to_anchor=(1.0, 0.12))
        for ax in axes:
            _log2_axis(ax, b)
        middle.set_ylabel("Riemann's mean jbits per hand (95% CI)")
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
            ax.set_xticks(x, [str(int(v)) for v in x])
            ax.minorticks_off()
            ax.set_xlabel("private states per player (classes + buckets)")
            ax.grid(linewidth=0.3, alpha=0.5)
        left.set_yscale("log")
    return fig


def fig_abstraction_size_cost(timing: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """:func:`draw_abstraction_size_cost`, written as ``out_stem.pdf`` and ``.png``."""
    return save(draw_abstraction_size_cost(timing), out_stem)
