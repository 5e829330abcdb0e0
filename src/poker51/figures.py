"""Figures of the pipeline: plain functions ``fig_xxx(df, out_stem) -> list[Path]``.

Each writes ``out_stem.pdf`` and ``out_stem.png`` with the Agg backend and fixed
metadata (no creation date, no software version), so the same table gives the same
bytes on every run.  Functions read the tables the stages write (the column names
are those the stages write), never recompute them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from poker51.play.evidence import DIFF, POLICIES
from poker51.study.summary import SPOTS

#: metadata that keeps the files byte-reproducible
PDF_METADATA = {"CreationDate": None, "Producer": None, "Creator": None}
PNG_METADATA = {"Software": None}
DPI = 150
_STYLE: Any = {  # matplotlib types rc keys as literals
    "font.size": 8,
    "axes.titlesize": 9,
    "svg.hashsalt": "poker51",
    "pdf.compression": 6,
}


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


# --------------------------------------------------------------------------- abstraction and solves
def fig_classes_buckets(
    classes: dict[str, pd.DataFrame], buckets: dict[str, pd.DataFrame], out_stem: str | Path
) -> list[Path]:
    """Class probabilities (left) and the strength range of each bucket (right), per variant."""
    with plt.rc_context(_STYLE):
        n = len(classes)
        fig, axes = plt.subplots(n, 2, figsize=(10, 2.8 * n), squeeze=False)
        for row, variant in enumerate(classes):
            c = classes[variant].sort_values("class")
            ax = axes[row, 0]
            ax.bar(np.arange(len(c)), c["probability"], color="tab:blue")
            ax.set_yscale("log")
            ax.set_xticks(np.arange(len(c)))
            ax.set_xticklabels(c["name"], rotation=90, fontsize=5)
            ax.set_title(f"{variant}: {len(c)} dealt-hand classes")
            ax.set_ylabel("probability")
            b = buckets[variant].sort_values("bucket")
            ax = axes[row, 1]
            ax.bar(b["bucket"], b["probability"], color="tab:green")
            ax.axhline(1 / len(b), color="grey", lw=0.8, ls="--")
            ax.set_title(f"{variant}: {len(b)} strength buckets (House-rule final hands)")
            ax.set_xlabel("bucket (0 weakest)")
            ax.set_ylabel("probability")
        fig.tight_layout()
        return _save(fig, out_stem)


def fig_convergence(conv: pd.DataFrame, out_stem: str | Path, x: str = "iteration") -> list[Path]:
    """Exploitability of the restricted game against iterations (or seconds), log-log,
    one line per (variant, p)."""
    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots(figsize=(6, 4))
        for (variant, p), g in conv.groupby(["variant", "p"], sort=True):
            g = g[g["exploitability"] > 0]
            ax.plot(g[x], g["exploitability"], label=f"{variant} p={p:g}", lw=1)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("iterations" if x == "iteration" else "seconds")
        ax.set_ylabel("exploitability (jbits/hand)")
        ax.set_title("convergence of the solves")
        ax.legend(fontsize=6, ncol=2)
        fig.tight_layout()
        return _save(fig, out_stem)


def fig_frontier(scores: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """The restricted Nash response frontier: exploitability (value of the game minus
    the table's guarantee) against value versus the population, one curve per variant;
    the v0.5 policy as a cross."""
    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots(figsize=(6, 4))
        for variant, g in scores.groupby("variant", sort=True):
            value = g["value_low"].iloc[0]
            t = g[g["table"] != "v0.5"].sort_values("p")
            (line,) = ax.plot(value - t["guarantee"], t["vs_population"], marker="o", ms=3, label=variant)
            for _, r in t.iterrows():
                if r["p"] in (0.0, 0.5, 1.0):
                    ax.annotate(f"p={r['p']:g}", (value - r["guarantee"], r["vs_population"]), fontsize=6)
            v = g[g["table"] == "v0.5"]
            if len(v):
                ax.plot(
                    value - v["guarantee"],
                    v["vs_population"],
                    "x",
                    color=line.get_color(),
                    ms=7,
                    label=f"{variant} v0.5",
                )
        ax.set_xscale("symlog", linthresh=1e-2)
        ax.set_xlabel("exploitability: value of the game - guarantee (jbits/hand)")
        ax.set_ylabel("value against the population (jbits/hand)")
        ax.set_title("Restricted Nash response frontier (Riemann's view)")
        ax.legend(fontsize=6)
        fig.tight_layout()
        return _save(fig, out_stem)


def fig_strategy(
    summary: pd.DataFrame, class_names: list[str], n_buckets: int, title: str, out_stem: str | Path
) -> list[Path]:
    """Heat maps of Riemann's table: class (before the draw) or bucket (after) by spot;
    probability of betting or raising (left) and of folding (right)."""
    with plt.rc_context(_STYLE):
        fig, axes = plt.subplots(2, 2, figsize=(9, 9), gridspec_kw={"height_ratios": [len(class_names), n_buckets]})
        for row, (street, labels) in enumerate(((0, class_names), (1, [str(b) for b in range(n_buckets)]))):
            s = summary[summary["street"] == street]
            for col, what in enumerate(("aggressive", "fold")):
                m = np.full((len(labels), len(SPOTS)), np.nan)
                for _, r in s.iterrows():
                    m[int(r["state"]), SPOTS.index(r["spot"])] = r[what]
                ax = axes[row, col]
                im = ax.imshow(m, aspect="auto", cmap="viridis", vmin=0, vmax=1, origin="lower")
                ax.set_xticks(range(len(SPOTS)))
                ax.set_xticklabels(SPOTS, rotation=45, fontsize=6)
                ax.set_yticks(range(len(labels)))
                ax.set_yticklabels(labels, fontsize=4 if street == 0 else 5)
                street_name = "before the draw (class)" if street == 0 else "after the draw (bucket)"
                ax.set_title(f"{'bet or raise' if what == 'aggressive' else 'fold'}: {street_name}")
                fig.colorbar(im, ax=ax, fraction=0.04)
        fig.suptitle(title)
        fig.tight_layout()
        return _save(fig, out_stem)


# --------------------------------------------------------------------------- evidence
def fig_evidence(df: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """Mean jbits per hand for Riemann with 95% CIs: v0.6 and v0.5 per type (left), and
    the paired difference v0.6 − v0.5 (right); one row of panels per variant.

    ``df`` is the :func:`evidence_run` summary.  Writes ``out_stem.pdf`` and ``.png``
    with fixed metadata (same table, same bytes).
    """
    variants = list(dict.fromkeys(df["variant"]))
    with plt.rc_context(_STYLE):
        fig, axes = plt.subplots(
            len(variants), 2, figsize=(7.0, 2.6 * len(variants)), squeeze=False, gridspec_kw={"width_ratios": [2, 1]}
        )
        for row, variant in zip(axes, variants):
            sub = df[df["variant"] == variant]
            names = list(dict.fromkeys(sub["type"]))
            y = np.arange(len(names))
            for k, (policy, marker) in enumerate(((POLICIES[0], "o"), (POLICIES[1], "s"))):
                s = sub[sub["policy"] == policy].set_index("type").reindex(names)
                err = np.vstack([s["mean"] - s["ci_low"], s["ci_high"] - s["mean"]])
                row[0].errorbar(
                    s["mean"],
                    y + (-0.15 if k == 0 else 0.15),
                    xerr=err,
                    fmt=marker,
                    markersize=4,
                    capsize=2,
                    linewidth=0.8,
                    label=f"Riemann {policy}",
                )
            d = sub[sub["policy"] == DIFF].set_index("type").reindex(names)
            row[1].errorbar(
                d["mean"],
                y,
                xerr=np.vstack([d["mean"] - d["ci_low"], d["ci_high"] - d["mean"]]),
                fmt="D",
                markersize=4,
                capsize=2,
                linewidth=0.8,
                color="black",
            )
            for ax in row:
                ax.axvline(0.0, color="grey", linewidth=0.6)
                ax.set_yticks(y, [n.replace("_", " ") for n in names])
                ax.grid(axis="x", linewidth=0.4, alpha=0.5)
            n = int(sub["hands"].iloc[0]) if len(sub) else 0
            row[0].set_title(f"{variant}: {n:,} deals per type")
            row[0].set_xlabel("Riemann's mean jbits per hand (95% CI)")
            row[0].invert_yaxis()  # the first type on top
            row[0].legend(fontsize=7, frameon=False, loc="best")
            row[1].set_title("paired difference v0.6 − v0.5")
            row[1].set_xlabel("jbits per hand (95% CI)")
            row[1].set_ylim(row[0].get_ylim())
            row[1].tick_params(labelleft=False)
        fig.tight_layout()
        return _save(fig, out_stem)


def fig_solver_comparison(df: pd.DataFrame, timing: pd.DataFrame, out_stem: str | Path) -> list[Path]:
    """Which algorithm reaches the target first, per variant (``study.comparison``).

    ``df``: columns variant, algorithm, run, p, iteration, exploitability, reached, target
    (one row per check); ``timing``: variant, algorithm, run, iteration, seconds (wall
    clock, checks included).  Top: exploitability against iterations (the Nash table solid,
    the frontier table from scratch dashed, warm-started dotted), the target dashed grey.
    Bottom: seconds to the target (hatched: the run stopped short, its whole time).
    """
    variants = list(dict.fromkeys(df["variant"]))
    algorithms = list(dict.fromkeys(df["algorithm"]))
    runs = ["nash", "cold", "warm"]
    styles = {"nash": "-", "cold": "--", "warm": ":"}
    colors = {a: f"C{i}" for i, a in enumerate(algorithms)}
    timed = df.merge(timing, on=["variant", "algorithm", "run", "iteration"], how="left")
    with plt.rc_context(_STYLE):
        fig, axes = plt.subplots(2, len(variants), figsize=(3.2 * len(variants), 5.2), squeeze=False)
        for j, v in enumerate(variants):
            ax = axes[0, j]
            for a in algorithms:
                for r in runs:
                    d = df[(df["variant"] == v) & (df["algorithm"] == a) & (df["run"] == r)]
                    if len(d):
                        label = f"{a}" if r == "nash" else None
                        ax.plot(d["iteration"], d["exploitability"], styles[r], color=colors[a], label=label, lw=1)
            target = float(df["target"].iloc[0])
            if target > 0:
                ax.axhline(target, color="0.5", lw=0.8, ls="--")
            ax.set(xscale="log", yscale="log", title=v, xlabel="iterations")
            if j == 0:
                ax.set_ylabel("exploitability (jbits/hand)")
                ax.legend(frameon=False, title="— Nash   -- p cold   ·· p warm", title_fontsize=6)
            ax = axes[1, j]
            width = 0.8 / len(runs)
            for i, a in enumerate(algorithms):
                for k, r in enumerate(runs):
                    d = timed[(timed["variant"] == v) & (timed["algorithm"] == a) & (timed["run"] == r)]
                    if not len(d):
                        continue
                    hit = d[d["reached"]]
                    row = hit.iloc[0] if len(hit) else d.iloc[-1]
                    ax.bar(
                        i + (k - 1) * width,
                        row["seconds"],
                        width,
                        color=colors[a],
                        alpha=(1.0, 0.65, 0.35)[k],
                        hatch=None if len(hit) else "//",
                    )
                    ax.text(i + (k - 1) * width, row["seconds"], f"{int(row['iteration'])}", ha="center", va="bottom",
                            fontsize=5)  # fmt: skip
            ax.set_xticks(range(len(algorithms)), algorithms)
            ax.set_ylabel("seconds to target (iterations above)" if j == 0 else "")
        fig.tight_layout()
        return _save(fig, out_stem)
