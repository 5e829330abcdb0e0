"""Census figures: exact category frequencies per deck, and what removing one card changes."""

from __future__ import annotations

from math import comb
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.colors import SymLogNorm
from matplotlib.figure import Figure

from poker51.figures.style import DOUBLE, MIN_FONT, category_label, new_figure, save, style

_MARKERS = "osD^vP*Xh<>"
_RANKS = "23456789TJQKA"


def draw_census_frequencies(df: pd.DataFrame) -> Figure:
    """Probability of each category per deck (log scale), from the census counts table.

    ``df``: columns deck, category, category_id, count, hands (``census.counts_frame``).
    Categories best first on the x axis; one marker series per deck; zero counts omitted.
    """
    decks = list(dict.fromkeys(df["deck"]))
    cats = df.drop_duplicates("category_id").sort_values("category_id", ascending=False)
    cat_ids = list(cats["category_id"])
    x = np.arange(len(cat_ids))
    with style():
        fig = new_figure(DOUBLE, 2.8)
        ax = fig.add_subplot()
        width = 0.8 / max(len(decks), 1)
        for k, deck in enumerate(decks):
            sub = df[df["deck"] == deck].set_index("category_id")
            p = np.array([sub.loc[c, "count"] / sub.loc[c, "hands"] if c in sub.index else 0.0 for c in cat_ids])
            keep = p > 0
            ax.plot(
                x[keep] + (k - (len(decks) - 1) / 2) * width,
                p[keep],
                linestyle="none",
                marker=_MARKERS[k % len(_MARKERS)],
                markersize=3.5,
                label=deck,
            )
        ax.set_yscale("log")
        ax.set_xticks(x, [category_label(c) for c in cats["category"]], rotation=30, ha="right")
        ax.set_ylabel("probability of the category")
        ax.set_title("Census: exact category frequencies per deck")
        ax.grid(axis="y", which="major", linewidth=0.4, alpha=0.5)
        ax.legend(ncol=min(len(decks), 6), frameon=False, loc="upper left")
    return fig


def fig_census_frequencies(df: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """:func:`draw_census_frequencies`, written as ``out_stem.pdf`` and ``.png``."""
    return save(draw_census_frequencies(df), out_stem)


def removal_changes(df: pd.DataFrame) -> tuple[pd.DataFrame, list[str], bool]:
    """The removal table reduced to what changes.

    A category is *unchanged* when, for every removed card, its count on the 51 cards is
    exactly proportional to its count on 52 (``count · C(52,5) == count_full52 · hands``,
    in integers).  Returns (relative change in percent, categories best first x removed rank
    or card, the unchanged category names, whether the change depends on the rank only).

    ``df``: columns card, card_id, category, category_id, count, hands, count_full52,
    relative_change (``census.removal_table``); cards are ``4 · rank + suit``.
    """
    full = comb(52, 5)
    exact = df["count"].astype(object) * full == df["count_full52"].astype(object) * df["hands"].astype(object)
    unchanged_ids = {c for c, g in exact.groupby(df["category_id"]) if bool(g.all())}
    names = df.drop_duplicates("category_id").set_index("category_id")["category"]
    unchanged = [str(names[c]) for c in sorted(unchanged_ids, reverse=True)]
    moving = df[~df["category_id"].isin(unchanged_ids)].assign(rank=lambda d: d["card_id"] // 4)
    by_rank = bool((moving.groupby(["category_id", "rank"])["relative_change"].nunique() <= 1).all())
    column = "rank" if by_rank else "card_id"
    table = moving.pivot_table(index="category_id", columns=column, values="relative_change", aggfunc="first") * 100
    table = table.sort_index(ascending=False)
    if by_rank:
        table.columns = [_RANKS[int(r)] for r in table.columns]
    else:
        cards = df.drop_duplicates("card_id").set_index("card_id")["card"]
        table.columns = [str(cards[c]) for c in table.columns]
    table.index = [category_label(str(names[c])) for c in table.index]
    return table, unchanged, by_rank


def draw_removal(df: pd.DataFrame) -> Figure:
    """Relative change of each category's probability when one card is removed from the
    52-card deck, only for the categories that change (:func:`removal_changes`).

    Diverging colours centred on zero on a symmetric log scale (linear within 0.01 %), so a
    change of 0.03 % and one of 5 % both show; every cell also prints its value in percent.
    """
    table, unchanged, by_rank = removal_changes(df)
    values = table.to_numpy(dtype=float)
    lim = float(np.nanmax(np.abs(values))) if values.size else 1.0
    lim = lim or 1.0
    n_rows, n_cols = values.shape
    with style():
        fig = new_figure(DOUBLE, 1.2 + 0.32 * n_rows)
        ax = fig.add_subplot()
        norm = SymLogNorm(linthresh=0.01, vmin=-lim, vmax=lim, base=10)
        im = ax.imshow(values, aspect="auto", cmap="RdBu_r", norm=norm, interpolation="nearest")
        for (i, j), v in np.ndenumerate(values):
            text = f"{v:+.2f}" if abs(v) >= 0.1 else f"{v:+.3f}"
            ax.text(
                j, i, text, ha="center", va="center", fontsize=MIN_FONT, color="white" if abs(v) > lim / 3 else "black"
            )
        ax.set_yticks(np.arange(n_rows), list(table.index))
        ax.set_xticks(np.arange(n_cols), list(table.columns), fontsize=7 if by_rank else MIN_FONT)
        xlabel = "rank of the removed card (any suit: the change does not depend on it)" if by_rank else "removed card"
        if unchanged:
            names = ", ".join(category_label(c) for c in unchanged)
            xlabel += f"\nUnchanged, exactly, whichever card is removed: {names}."
        ax.set_xlabel(xlabel)
        ax.tick_params(length=0)
        ax.set_title("Removing one card from 52: relative change of each category's probability (%)")
        bar = fig.colorbar(im, ax=ax, fraction=0.04, pad=0.01)
        # plain percentages at the decades of the scale (not -10^0 .. 10^0), no minor ticks
        ticks = sorted({0.0, *(s * t for t in (0.01, 0.1, 1.0, 10.0, 100.0) if t <= lim for s in (-1, 1))})
        bar.set_ticks(ticks, labels=[f"{t:+g}" if t else "0" for t in ticks])
        bar.minorticks_off()
        bar.set_label("change (%)")
    return fig


def fig_removal_heatmap(df: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """:func:`draw_removal`, written as ``out_stem.pdf`` and ``.png``."""
    return save(draw_removal(df), out_stem)
