"""The real-card half of the abstraction-size study (issue 12, section 2).

A table solved on an abstraction of any bucket count (:mod:`poker51.study.abstraction_size`)
is played on real cards as the pipeline plays the published table, without writing it: its
rows (:func:`poker51.export.tables.strategy_table`) become a :class:`~poker51.policies.riemann.Riemann`
that classifies with that abstraction's classes and buckets.  :func:`real_card_columns` reports

- ``pop_*``: Riemann's jbits per hand against the population, per deal the population's
  weighted mix of the training types' nets on that deal (every type meets the same deals,
  :mod:`poker51.realcard.evidence`), so the mean is the population's and the Student-t 95%
  interval is over independent deals;
- ``holdout_*``: the same with the hold-out types, equally weighted;
- ``lbr_*``: what the local best response wins from the table (:class:`~poker51.realcard.lbr.LBRScore`,
  + = LBR wins), on its own seeded deals;
- per deal, Riemann's net in each of the three (the population's mix, the hold-out mix, minus
  LBR's net), from which :func:`paired_differences` compares every bucket count with a
  reference bucket count on the same deals.

The type players read their strength through the abstraction's buckets (:mod:`poker51.play.players`),
so the in-sample opponents are those of each bucket count; the hold-out rule players read
their hands by name and are the same for every bucket count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from poker51.abstraction.tables import AbstractionTables
from poker51.games.population import Population
from poker51.policies.holdout import HoldoutType
from poker51.policies.riemann import Riemann
from poker51.realcard.evidence import HOLDOUT, IN_SAMPLE, evidence_hands, mean_ci, v05_factory
from poker51.realcard.lbr import lbr_run, policy_model, summarize_lbr
from poker51.study.abstraction_size import STUDY_VARIANT


def table_player(tables: AbstractionTables, table: pd.DataFrame, name: str) -> Riemann:
    """Riemann v0.6 playing ``table`` (a checked strategy table frame) with ``tables``' classes
    and buckets."""
    return Riemann(table, tables.variant, tables.classes, tables.buckets, name=name)


def pooled(
    per_hand: pd.DataFrame, population: str, types: Sequence[str], weights: Sequence[float] | np.ndarray | None = None
) -> np.ndarray:
    """Per deal (``hand``), the ``weights``-weighted sum (default: the mean) of Riemann's v0.6
    nets against the ``types`` of one population on that deal."""
    if weights is not None and len(weights) != len(types):
        raise ValueError(f"{len(types)} {population} types, {len(weights)} weights")
    sel = per_hand[per_hand["population"] == population]
    wide = sel.pivot(index="hand", columns="type", values="v0.6")
    missing = sorted(set(types) - set(wide.columns))
    if missing:
        raise ValueError(f"no {population} deals of {missing}")
    x = wide[list(types)].to_numpy(np.float64)
    w = np.full(len(types), 1.0 / len(types)) if weights is None else np.asarray(weights, np.float64)
    return x @ w


#: the scopes of the per-deal nets (Riemann's jbits per hand; ``lbr`` minus what LBR wins)
DEAL_SCOPES = ("pop", "holdout", "lbr")
DEAL_COLUMNS = ["scope", "hand", "net"]


def real_card_columns(
    tables: AbstractionTables,
    table: pd.DataFrame,
    pop: Population,
    holdout: Sequence[HoldoutType],
    *,
    hands: int,
    seed: int,
    stack: int,
    lbr_hands: int,
    lbr_seed: int,
    particles: int,
    max_tries: int,
    progress: bool = False,
) -> tuple[dict[str, Any], pd.DataFrame]:
    """The real-card columns of one bucket count (module docstring; ``lbr_hands`` 0 leaves
    the LBR columns NaN) and the per-deal nets behind them (:data:`DEAL_COLUMNS`: scope, hand,
    Riemann's net on that deal, for :func:`paired_differences`)."""
    if tables.variant != STUDY_VARIANT:
        raise ValueError(f"the study plays the {STUDY_VARIANT} variant, not {tables.variant}")
    riemann = table_player(tables, table, f"<{tables.n_buckets}-bucket table>")
    per_hand = evidence_hands(
        riemann, v05_factory(tables), pop, tables.variant, hands, seed, stacks=stack, tables=tables,
        progress=progress, holdout=holdout,
    )  # fmt: skip
    out: dict[str, Any] = {}
    deals = []
    scopes = (("pop", IN_SAMPLE, [t.name for t in pop.types], pop.weights),
              ("holdout", HOLDOUT, [h.name for h in holdout], None))  # fmt: skip
    for scope, population, names, w in scopes:
        if not names:
            out |= {
                f"{scope}_hands": 0,
                **dict.fromkeys((f"{scope}_{c}" for c in ("mean", "ci_low", "ci_high")), np.nan),
            }
            continue
        x = pooled(per_hand, population, names, w)
        mean, _, _, lo, hi = mean_ci(x)
        out |= {f"{scope}_hands": int(x.size), f"{scope}_mean": mean, f"{scope}_ci_low": lo, f"{scope}_ci_high": hi}
        deals.append(pd.DataFrame({"scope": scope, "hand": np.arange(x.size, dtype=np.int64), "net": x}))
    if lbr_hands > 0:
        model = policy_model("v0.6", tables.variant, tables, riemann)
        df = lbr_run(model, tables.variant, "v0.6", lbr_hands, lbr_seed, particles, max_tries, progress=progress)
        out |= summarize_lbr(df, lbr_seed, particles, max_tries)[0].columns()
        net = -df["net"].to_numpy(np.float64)
        deals.append(pd.DataFrame({"scope": "lbr", "hand": df["hand"].to_numpy(np.int64), "net": net}))
    else:
        out |= {"lbr_win": np.nan, "lbr_win_ci_low": np.nan, "lbr_win_ci_high": np.nan, "lbr_hands": 0}
    empty = pd.DataFrame({"scope": pd.Series([], dtype=str), "hand": pd.Series([], dtype=np.int64),
                          "net": pd.Series([], dtype=np.float64)})  # fmt: skip
    return out, pd.concat(deals, ignore_index=True) if deals else empty


#: the key of a study row: the abstraction's class set and bucket count
SIZE_KEY = ["class_set", "buckets"]


def sort_sizes(df: pd.DataFrame) -> pd.DataFrame:
    """Rows in the study's order: the standard classes' bucket counts ascending, then the
    refined set's (a frame without ``class_set`` is the standard set's)."""
    if "class_set" not in df.columns:
        df = df.assign(class_set="standard")
    order = np.lexsort((df["buckets"].to_numpy(np.int64), (df["class_set"] != "standard").to_numpy()))
    return df.iloc[order].reset_index(drop=True)


def paired_differences(deals: pd.DataFrame, reference: int) -> pd.DataFrame:
    """Per abstraction (``deals``: the per-deal nets of every abstraction, with a ``buckets``
    column and a ``class_set`` column, standard when absent) and scope, the mean per-deal
    difference of Riemann's net from the standard classes' ``reference`` bucket count's on the
    same deal, with its Student-t 95% interval: columns class_set, buckets, ``{scope}_vs_ref``,
    ``{scope}_vs_ref_ci_low``, ``{scope}_vs_ref_ci_high`` (NaN when the reference or the scope is
    absent; 0 with a zero-width interval for the reference itself).  Every abstraction meets the
    same deals, so the difference has far less spread than either mean."""
    deals = deals if "class_set" in deals.columns else deals.assign(class_set="standard")
    rows = []
    ref_rows = (deals["class_set"] == "standard") & (deals["buckets"] == reference)
    for _, key in sort_sizes(deals[SIZE_KEY].drop_duplicates()).iterrows():
        cs, b = str(key["class_set"]), int(key["buckets"])
        row: dict[str, Any] = {"class_set": cs, "buckets": b}
        here = (deals["class_set"] == cs) & (deals["buckets"] == b)
        for scope in DEAL_SCOPES:
            mine = deals[here & (deals["scope"] == scope)].set_index("hand")["net"]
            ref = deals[ref_rows & (deals["scope"] == scope)].set_index("hand")["net"]
            cols = [f"{scope}_vs_ref", f"{scope}_vs_ref_ci_low", f"{scope}_vs_ref_ci_high"]
            if mine.empty or ref.empty:
                row |= dict.fromkeys(cols, np.nan)
                continue
            if not mine.index.equals(ref.index):
                raise ValueError(f"{scope}: {cs} {b} buckets and the reference {reference} played different deals")
            d = (mine - ref).to_numpy(np.float64)
            mean, _, _, lo, hi = mean_ci(d)
            if not np.any(d):
                lo = hi = 0.0
            row |= dict(zip(cols, (mean, lo, hi)))
        rows.append(row)
    return pd.DataFrame(rows)


def equivalence(diffs: pd.DataFrame, margin: float) -> pd.DataFrame:
    """Equivalence statements from :func:`paired_differences`: per bucket count and scope,
    ``{scope}_vs_ref_margin`` = max(|ci_low|, |ci_high|), the smallest margin δ whose band
    [-δ, +δ] holds the paired 95% interval, and ``{scope}_equivalent``: that margin is at most
    ``margin`` (the two tables are equivalent within ±``margin`` jbits per hand: the interval
    test of equivalence, each side at 2.5%).  Not equivalent is not a difference: an interval
    wider than the margin (``{scope}_vs_ref_margin`` above it with 0 inside) means the study is
    underpowered at that margin.  The reference row (a zero-width interval) is equivalent.

    >>> d = pd.DataFrame({"buckets": [10], "pop_vs_ref": [0.01], "pop_vs_ref_ci_low": [-0.02],
    ...                   "pop_vs_ref_ci_high": [0.04]})
    >>> equivalence(d, 0.05)[["pop_vs_ref_margin", "pop_equivalent"]].values.tolist()
    [[0.04, True]]
    """
    if not margin > 0:
        raise ValueError(f"the equivalence margin must be above 0 jbits per hand, got {margin}")
    out = pd.DataFrame({"buckets": diffs["buckets"].to_numpy(np.int64)})
    if "class_set" in diffs.columns:
        out.insert(0, "class_set", diffs["class_set"].to_numpy())
    for scope in DEAL_SCOPES:
        lo, hi = f"{scope}_vs_ref_ci_low", f"{scope}_vs_ref_ci_high"
        if lo not in diffs.columns:
            continue
        need = np.maximum(np.abs(diffs[lo].to_numpy(np.float64)), np.abs(diffs[hi].to_numpy(np.float64)))
        out[f"{scope}_vs_ref_margin"] = need
        out[f"{scope}_equivalent"] = need <= margin  # NaN (no deals) compares False
    return out


#: the columns of the lower bound by play in the study's table (the G_ind best response's
#: control-variate estimate and its 95% interval; :func:`size_bound`)
BOUND_COLUMNS = ("v_real_lower", "v_real_lower_ci_low", "v_real_lower_ci_high")


def size_bound(tables: AbstractionTables, table: pd.DataFrame, gd, r, hands: int, seed: int):
    """The lower bound by play of one abstraction's table: the G_ind best response ``r`` (of
    :func:`poker51.realcard.gind.v_ind` on ``gd``, the deck of ``tables``' classes and buckets)
    played on ``hands`` fresh real-card deals of ``seed`` against ``table`` deployed as Riemann
    (:func:`poker51.realcard.bounds.evaluate`: card removal, the real engine's rules, V_ind's
    per-hand value as the control variate).  An unbiased estimate of what that strategy wins on
    real cards, hence of a lower bound on the table's real-card exploitability."""
    from poker51.realcard.bounds import deployed_model, evaluate, result_table

    M = deployed_model(tables.variant, tables, table, gd)
    return evaluate(M, result_table(gd, r), int(hands), int(seed), float(r.value))


__all__ = [
    "BOUND_COLUMNS", "DEAL_COLUMNS", "DEAL_SCOPES", "SIZE_KEY", "equivalence", "paired_differences",
    "pooled", "real_card_columns", "size_bound", "sort_sizes", "table_player",
]  # fmt: skip
