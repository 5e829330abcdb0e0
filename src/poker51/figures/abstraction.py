"""The abstraction of each variant: where the House rule's draw takes each dealt-hand class.

Buckets hold equal shares of the final hands by construction (1/40 each), so their
probabilities say nothing; this figure shows instead how likely each class is and the
distribution of its final bucket when Riemann draws by the House rule, with the hand
categories each bucket covers marked above.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.colors import LogNorm
from matplotlib.figure import Figure

from poker51.figures.style import DOUBLE, MIN_FONT, category_label, class_label, new_figure, save, style
from poker51.hands.evaluate import CATEGORIES

#: strengths are ``category << 20 | kickers`` (:mod:`poker51.hands.evaluate`)
_CATEGORY_SHIFT = 20
#: categories that start closer than this many buckets to the previous label are merged into it
_MIN_GAP = 3
_FLOOR = 1e-4  # colour scale floor: smaller non-zero probabilities share the darkest colour


def category_starts(buckets: pd.DataFrame) -> list[tuple[int, str]]:
    """(first bucket, label) of the hand categories along the buckets, weakest first.

    A category starts at the first bucket whose strongest hand reaches it; categories that
    start within ``_MIN_GAP`` buckets of the previous label join it as "... or better".

    >>> tops = [0, 0, 0, 1, 1, 3]  # the category of each bucket's strongest hand
    >>> b = pd.DataFrame({"bucket": range(6), "high": [t << 20 for t in tops]})
    >>> category_starts(b)
    [(0, 'high card'), (3, 'one pair or better')]
    """
    b = buckets.sort_values("bucket")
    top = (b["high"].to_numpy() >> _CATEGORY_SHIFT).astype(int)
    out: list[tuple[int, str]] = []
    merged = False
    for cat in range(int(top.max()) + 1):
        reach = np.nonzero(top >= cat)[0]
        if not len(reach):
            break
        start = int(b["bucket"].iloc[int(reach[0])])
        name = category_label(CATEGORIES[cat])
        if out and start - out[-1][0] < _MIN_GAP:
            if not merged:
                out[-1] = (out[-1][0], out[-1][1] + " or better")
                merged = True
            continue
        if merged:
            break
        out.append((start, name))
    return out


def house_transition_matrix(classes: pd.DataFrame, buckets: pd.DataFrame, transitions: pd.DataFrame) -> np.ndarray:
    """P(final bucket | class) of Riemann's House-rule draw: (classes, buckets), rows sum to 1."""
    r = transitions[transitions["drawer"] == "riemann"]
    m = np.zeros((len(classes), len(buckets)))
    m[r["class"].to_numpy(int), r["bucket"].to_numpy(int)] = r["probability"].to_numpy(float)
    return m


def draw_classes_buckets(
    classes: dict[str, pd.DataFrame], buckets: dict[str, pd.DataFrame], transitions: dict[str, pd.DataFrame]
) -> Figure:
    """Per variant (one row of panels): each class's probability (left, log scale) and its
    final-bucket distribution under the House rule (right, log colour scale; a blank cell is
    a bucket the class cannot reach).  Tables as written by the abstraction stage."""
    variants = list(classes)
    heights = [len(classes[v]) + 12 for v in variants]  # rows plus room for titles and labels
    with style():
        # 0.1 in a row: the class names at 7 pt (6.5 pt at 30 rows and more) do not touch
        fig = new_figure(DOUBLE, 0.1 * sum(heights) + 0.9)
        grid = fig.add_gridspec(len(variants), 2, height_ratios=heights, width_ratios=[1.0, 3.4])
        norm = LogNorm(vmin=_FLOOR, vmax=1.0)
        heat_axes = []
        im = None
        for row, variant in enumerate(variants):
            c = classes[variant].sort_values("class")
            b = buckets[variant].sort_values("bucket")
            m = house_transition_matrix(c, b, transitions[variant])
            y = np.arange(len(c))
            bars = fig.add_subplot(grid[row, 0])
            bars.barh(y, c["probability"], color="0.45", height=0.7)
            bars.set_xscale("log")
            bars.set_xlim(1e-4, 1)
            bars.set_ylim(-0.5, len(c) - 0.5)
            bars.set_yticks(y, [class_label(n) for n in c["name"]], fontsize=7.0 if len(c) < 30 else 6.5)
            bars.set_xlabel("P(class)")
            bars.grid(axis="x", linewidth=0.3, alpha=0.5)
            bars.set_title(f"{variant}: {len(c)} classes", loc="left", pad=30)  # above the top axis's names
            heat = fig.add_subplot(grid[row, 1], sharey=bars)
            shown = np.ma.masked_equal(np.maximum(m, np.where(m > 0, _FLOOR, 0.0)), 0.0)
            im = heat.imshow(shown, aspect="auto", origin="lower", cmap="viridis", norm=norm, interpolation="nearest")
            heat.tick_params(labelleft=False)
            heat.set_xticks(np.arange(0, len(b), 5))
            heat.set_xlabel("final bucket after the House-rule draw (0 weakest)")
            heat.set_facecolor("white")
            top = heat.secondary_xaxis("top")
            starts = category_starts(b)
            top.set_xticks(
                [s - 0.5 for s, _ in starts],
                [name for _, name in starts],
                rotation=40,
                ha="left",
                rotation_mode="anchor",
            )
            top.tick_params(labelsize=MIN_FONT, length=6)
            for s, _ in starts[1:]:
                heat.axvline(s - 0.5, color="white", linewidth=0.5, alpha=0.8)
            heat_axes.append(heat)
        if im is not None:  # under the last heat map, its width: attached to what it reads
            bar = fig.colorbar(im, ax=heat_axes[-1], location="bottom", fraction=0.04, pad=0.02, aspect=45)
            bar.set_label("P(final bucket | class); blank: a bucket the class cannot reach")
    return fig


def fig_classes_buckets(
    classes: dict[str, pd.DataFrame],
    buckets: dict[str, pd.DataFrame],
    transitions: dict[str, pd.DataFrame],
    out_stem: str | Path,
) -> list[Path]:
    """:func:`draw_classes_buckets`, written as ``out_stem.pdf`` and ``.png``."""
    return save(draw_classes_buckets(classes, buckets, transitions), out_stem)
