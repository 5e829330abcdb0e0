"""The solver comparison: which regret minimiser reaches the target first (``solve.algorithm``).

Drawn from ``solver_comparison.parquet`` (one row per exploitability check, deterministic:
columns variant, algorithm, run, p, iteration, exploitability, reached, target) and
``solver_comparison_timing.tsv`` (variant, algorithm, run, iteration, seconds: wall clock
since the solve began, checks included), both written by
:func:`poker51.study.comparison.compare_solver`.  The figure shows seconds, so it is not in
the receipt.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.artist import Artist
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import LogFormatter

from poker51.figures.style import DOUBLE, new_figure, save, style

#: the three runs of a comparison: line style and bar shade
_RUNS: dict[str, tuple[Any, float, str]] = {
    "nash": ("-", 1.0, "Nash (p = 0), cold"),
    "cold": ("--", 0.6, "frontier p, cold"),
    "warm": (":", 0.3, "frontier p, warm from Nash"),
}


def _time_to_target(rows: pd.DataFrame) -> tuple[float, int, bool]:
    """Seconds and iterations at the first check at the target (else the last check) and
    whether the target was reached."""
    hit = rows[rows["reached"]]
    row = hit.iloc[0] if len(hit) else rows.iloc[-1]
    return float(row["seconds"]), int(row["iteration"]), bool(len(hit))


class _PlainLog(LogFormatter):
    """Log-axis labels as plain numbers (``0.03``, ``20``); which ticks get one is
    :class:`~matplotlib.ticker.LogFormatter`'s choice (a few minor ones on a short axis)."""

    def _num_to_string(self, x: float, vmin: float, vmax: float) -> str:
        return f"{x:g}"


def draw_solver_comparison(df: pd.DataFrame, timing: pd.DataFrame) -> Figure:
    """Top row: exploitability (jbits/hand) against iterations, log-log, one panel per
    variant, one colour per algorithm, one line style per run; the target as a grey dashed
    line.  Bottom row: seconds to the target per algorithm and run (checks included),
    iterations printed on the bars; a hatched bar stopped at its iteration cap short of
    the target (its whole time)."""
    variants = list(dict.fromkeys(df.sort_values("variant", kind="stable")["variant"]))
    algorithms = list(dict.fromkeys(df["algorithm"]))
    colours = {a: f"C{i}" for i, a in enumerate(algorithms)}
    timed = df.merge(timing, on=["variant", "algorithm", "run", "iteration"], how="left")
    target = float(df["target"].iloc[0]) if len(df) else 0.0
    with style():
        fig = new_figure(DOUBLE, 4.4)
        axes = fig.subplots(2, len(variants), squeeze=False)
        for j, v in enumerate(variants):
            top, bottom = axes[0, j], axes[1, j]
            width = 0.8 / len(_RUNS)
            for i, a in enumerate(algorithms):
                for k, (run, (ls, shade, _)) in enumerate(_RUNS.items()):
                    sel = (df["variant"] == v) & (df["algorithm"] == a) & (df["run"] == run)
                    d = df[sel & (df["exploitability"] > 0)]
                    top.plot(d["iteration"], d["exploitability"], ls, color=colours[a], linewidth=0.9)
                    t = timed[(timed["variant"] == v) & (timed["algorithm"] == a) & (timed["run"] == run)]
                    if not len(t):
                        continue
                    seconds, iters, reached = _time_to_target(t)
                    x = i + (k - 1) * width
                    bottom.bar(x, seconds, width, color=colours[a], alpha=shade, hatch=None if reached else "//")
                    bottom.text(x, seconds, str(iters), ha="center", va="bottom", fontsize=6, rotation=90)
            if target > 0:
                top.axhline(target, color="0.5", linewidth=0.7, linestyle="--")
            top.set_xscale("log")
            top.set_yscale("log")
            for axis in (top.xaxis, top.yaxis):  # 20, 30, 0.04: not 2×10¹, 3×10¹, 4×10⁻²
                axis.set_major_formatter(_PlainLog())
                axis.set_minor_formatter(_PlainLog(labelOnlyBase=False))
            top.set_title(v)
            top.set_xlabel("iterations")
            top.grid(which="major", linewidth=0.3, alpha=0.5)
            bottom.set_xticks(range(len(algorithms)), algorithms)
            bottom.margins(y=0.25)
        axes[0, 0].set_ylabel("exploitability (jbits/hand)")
        axes[1, 0].set_ylabel("seconds to target\n(iterations on the bars)")
        handles: list[Artist] = [Line2D([], [], color=colours[a], label=a) for a in algorithms]
        handles += [Line2D([], [], color="0.2", linestyle=ls, label=lab) for ls, _, lab in _RUNS.values()]
        handles += [Patch(facecolor="white", edgecolor="0.2", hatch="//", label="target not reached")]
        fig.legend(handles=handles, loc="outside lower center", ncol=len(handles), frameon=False, fontsize=6)
    return fig


def fig_solver_comparison(df: pd.DataFrame, timing: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """:func:`draw_solver_comparison`, written as ``out_stem.pdf`` and ``.png``."""
    return save(draw_solver_comparison(df, timing), out_stem)
