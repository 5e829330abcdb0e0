"""Figures of the abstraction and the solves (SPEC section 8), same conventions as
:mod:`poker51.figures`: ``fig_xxx(..., out_stem) -> list[Path]`` writing PDF and PNG
with fixed metadata, from the tables the stages wrote.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from poker51.figures import _STYLE, _save, plt

#: spots of Riemann's decisions, in heat-map column order (H's bet size kept apart)
SPOTS = ("checked", "bet1", "bet2", "bet4", "bet8", "reraised", "raised")


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
        ax.set_title("CFR+ convergence")
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


def spot_of(line: str) -> str:
    """Riemann's spot from the round's line, a heat-map column (:func:`poker51.export.tables.spot_of_line`
    with H's opening size folded into the name).

    >>> [spot_of(x) for x in ("x", "b4", "b4-r-r", "x-b2-r")]
    ['checked', 'bet4', 'reraised', 'raised']
    """
    from poker51.export.tables import spot_of_line

    spot, h_bet = spot_of_line(line)
    return f"bet{h_bet}" if spot == "bet" else spot


def strategy_summary(game, policy: np.ndarray) -> pd.DataFrame:
    """Riemann's strategy aggregated by (street, spot, class or bucket), each information
    set weighted by how often play reaches it under the solved profile.

    Columns: street, spot, state, weight, aggressive (bet or raise), fold."""
    from poker51.solver.passes import forward_reach

    a = game.arrays
    reach_r = forward_reach(a, 1, policy)
    hsum = np.add.reduceat(forward_reach(a, 0, policy), a.state_off[0])  # H's mass per node
    nodes = a.dec_nodes1
    ns = a.n_states[1, nodes]
    node_of = np.repeat(nodes, ns)
    state = np.arange(ns.sum()) - np.repeat(np.cumsum(ns) - ns, ns)
    weight = reach_r[a.state_off[1, node_of] + state] * hsum[node_of] * a.node_chance[node_of]
    iset = a.state_iset[a.iset_off[node_of] + state]
    # per information set of Riemann: street, spot, state
    keys = game.iset_keys
    street = np.array([k[1] if p == 1 else -1 for p, k in keys])
    spot = np.array([SPOTS.index(spot_of(k[4] if k[1] == 0 else k[5])) if p == 1 else -1 for p, k in keys])
    st = np.array([k[-1] if p == 1 else -1 for p, k in keys])
    lo = a.act_off[:-1]
    checked = spot[iset] == SPOTS.index("checked")
    three = a.num_actions[iset] == 3
    last = lo[iset] + a.num_actions[iset] - 1  # raise (3 actions) or bet (checked to)
    aggressive = np.where(checked | three, policy[last], 0.0)
    fold = np.where(checked, 0.0, policy[lo[iset]])
    keep = weight > 0
    df = pd.DataFrame(
        {
            "street": street[iset][keep],
            "spot": np.array(SPOTS)[spot[iset][keep]],
            "state": st[iset][keep],
            "weight": weight[keep],
            "wa": (weight * aggressive)[keep],
            "wf": (weight * fold)[keep],
        }
    )
    g = df.groupby(["street", "spot", "state"], sort=True)[["weight", "wa", "wf"]].sum().reset_index()
    g["aggressive"] = g["wa"] / g["weight"]
    g["fold"] = g["wf"] / g["weight"]
    return g.drop(columns=["wa", "wf"])


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
