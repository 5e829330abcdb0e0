"""Stage 4, the scores (``workflow/rules/scores.smk``): every table of a variant scored,
gathered with what the local best response wins, and the figures.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from poker51.io import read_metadata, read_parquet, write_parquet
from poker51.policies.v05 import abstract_policy
from poker51.provenance import JBITS, PROBABILITY, table_metadata, units_for
from poker51.realcard.decomposition import BR_UNIT, check_bound
from poker51.realcard.lbr import LBR_UNIT, LBRScore
from poker51.stages.common import Provenance, figures, gather, stem
from poker51.stages.solve import game_and_types
from poker51.study.scores import score_table, value_bracket
from poker51.study.summary import strategy_summary

_SUMMARY_UNITS = {"weight": "reach probability", "aggressive": PROBABILITY, "fold": PROBABILITY}


def run_scores(
    variant: str,
    abstraction_dir: str,
    population: str,
    policies: Mapping[float, str],
    summaries: Mapping[float, str],
    table_p: float,
    out: str,
    strategy_out: str,
    provenance: Provenance = None,
    game_cache: str | None = None,
) -> None:
    """Score every solved table of one variant, plus the v0.5 policy, into one table;
    write the reach-weighted summary of the published table's strategy (heat maps)."""
    tables, ab, game, pop, types = game_and_types(abstraction_dir, variant, population, game_cache)
    bracket = value_bracket(game, np.load(policies[0.0])).columns()
    rows = []
    for p in sorted(policies):
        summary = json.loads(Path(summaries[p]).read_text())
        name = "nash" if p == 0 else ("rnr" if p == table_p else "sweep")
        score = score_table(game, np.load(policies[p]), types, pop)
        rows.append(
            {
                "variant": variant,
                "table": name,
                "p": float(p),
                **bracket,
                **score.columns(),
                "iterations": int(summary["iterations"]),
                "exploitability": float(summary["exploitability"]),
            }
        )
    v05 = score_table(game, abstract_policy(game, ab, tables), types, pop)
    rows.append(
        {
            "variant": variant,
            "table": "v0.5",
            "p": float("nan"),
            **bracket,
            **v05.columns(),
            "iterations": 0,
            "exploitability": float("nan"),
        }
    )
    df = pd.DataFrame(rows)
    df["br_gain"] = -df["guarantee"]
    units = {"p": PROBABILITY, "iterations": "CFR+ iterations",
             **units_for(df.columns, JBITS, exclude=["variant", "table", "p", "iterations"])}  # fmt: skip
    write_parquet(df, out, metadata=table_metadata(provenance, units, variant=variant))
    summary = strategy_summary(game, np.load(policies[table_p]))
    summary["state"] = summary["state"].astype("int64")
    write_parquet(
        summary, strategy_out, metadata=table_metadata(provenance, _SUMMARY_UNITS, variant=variant, p=table_p)
    )


def gather_scores(
    scores: Sequence[str],
    convergence: Sequence[str],
    timings: Sequence[str],
    solves: Sequence[tuple[str, float]],
    out: Mapping[str, str],
    provenance: Provenance = None,
    lbr: str | None = None,
    realcard_br: str | None = None,
    convergence_provenance: Provenance = None,
    realcard_bounds: str | None = None,
) -> None:
    """``scores`` and ``convergence`` of every variant in one table each, and the solves'
    wall-clock timings (not reproducible, not in the receipt) in one TSV.  With ``lbr`` (the
    gathered local-best-response table) the rows of the published table (``rnr``) and of
    ``v0.5`` get what LBR wins from them (:meth:`LBRScore.columns`; NaN and 0 hands elsewhere);
    with ``realcard_br`` (the gathered decompositions) every table computed gets V_A, V_ind and
    the abstract human's G_ind value (:func:`add_br_columns`), and with ``realcard_bounds`` (the
    gathered plays) the strongest real-card lower bound (``add_bounds_columns``).  ``convergence_provenance``, when
    given, is the convergence table's (the inputs that decide it: not the real-card best response)."""
    df = pd.concat([read_parquet(p) for p in scores], ignore_index=True)
    df = df.sort_values(["variant", "table", "p"], kind="stable").reset_index(drop=True)
    units = {**(read_metadata(scores[0]).get("units", {}) if scores else {}), **LBR_COLUMN_UNITS,
             **BR_COLUMN_UNITS}  # fmt: skip
    df = add_lbr_columns(df, read_parquet(lbr) if lbr else None)
    df = add_br_columns(df, read_parquet(realcard_br) if realcard_br else None)
    if realcard_bounds:
        from poker51.stages.realcard_bounds import BOUNDS_UNITS, add_bounds_columns

        df = add_bounds_columns(df, read_parquet(realcard_bounds))
        units = {**units, **BOUNDS_UNITS}
    write_parquet(df, out["scores"], metadata=table_metadata(provenance, units))
    gather(convergence, out["convergence"], sort=["variant", "p", "iteration"],
           provenance=convergence_provenance or provenance)  # fmt: skip
    timing = [
        pd.read_csv(path, sep="\t").assign(variant=v, p=float(p)) for (v, p), path in zip(solves, timings, strict=True)
    ]
    pd.concat(timing, ignore_index=True).to_csv(out["timing"], sep="\t", index=False)


LBR_TABLE = {"v0.6": "rnr", "v0.5": "v0.5"}


LBR_COLUMN_UNITS = {**units_for(["lbr_win", "lbr_win_ci_low", "lbr_win_ci_high"], LBR_UNIT), "lbr_hands": "deals"}


def add_lbr_columns(scores: pd.DataFrame, lbr: pd.DataFrame | None) -> pd.DataFrame:
    """The scores with the LBR columns ``lbr_win``, ``lbr_win_ci_low``, ``lbr_win_ci_high``,
    ``lbr_hands`` (jbits per hand LBR wins; a lower bound on what a real opponent can win)."""
    out = scores.copy()
    cols = ["lbr_win", "lbr_win_ci_low", "lbr_win_ci_high"]
    for c in cols:
        out[c] = np.nan
    out["lbr_hands"] = 0
    for row in [] if lbr is None else lbr.itertuples(index=False):
        score = LBRScore(**row._asdict())
        hit = (out["variant"] == score.variant) & (out["table"] == LBR_TABLE[score.policy])
        for key, value in score.columns().items():
            out.loc[hit, key] = value
    out["lbr_hands"] = out["lbr_hands"].astype("int64")
    return out


#: the decomposition's columns in ``scores.parquet`` (:mod:`poker51.realcard.decomposition`)
BR_COLUMNS = ("v_abstract", "v_ind", "v_ind_abstract_human")
BR_COLUMN_UNITS = units_for(BR_COLUMNS, BR_UNIT)


def add_br_columns(scores: pd.DataFrame, br: pd.DataFrame | None) -> pd.DataFrame:
    """The scores with :data:`BR_COLUMNS` (jbits per hand the best-responding human wins) on the
    rows of the tables the ``realcard_br`` stage computed (matched by variant and p; NaN
    elsewhere, v0.5 included).  Refuses a row whose V_A is not minus its guarantee (both are the
    same best response on the same policy) or whose abstract human's G_ind value exceeds V_ind."""
    out = scores.copy()
    for c in BR_COLUMNS:
        out[c] = np.nan
    for row in [] if br is None else br.itertuples(index=False):
        hit = (out["variant"] == row.variant) & (out["table"] != "v0.5") & np.isclose(out["p"], row.p, atol=1e-12)
        if int(hit.sum()) != 1:
            raise ValueError(f"realcard_br: {row.variant} p={row.p:g} matches {int(hit.sum())} score rows, not 1")
        guarantee = float(out.loc[hit, "guarantee"].iloc[0])
        if abs(row.v_abstract + guarantee) > 1e-9:
            raise ValueError(f"realcard_br: {row.variant} p={row.p:g}: V_A {row.v_abstract:+.9f} is not minus the "
                             f"guarantee {guarantee:+.9f}")  # fmt: skip
        check_bound(row.v_ind, row.v_ind_abstract_human)
        for c in BR_COLUMNS:
            out.loc[hit, c] = float(getattr(row, c))
    return out


def score_figures(convergence: str, scores: str, out: Mapping[str, str]) -> None:
    """Convergence against iterations, and the frontier (both in the receipt)."""
    figures().fig_convergence(read_parquet(convergence), stem(out["convergence"]))
    figures().fig_frontier(read_parquet(scores), stem(out["frontier"]))


def convergence_time_figure(convergence: str, timing: str, out: str) -> None:
    """Convergence against wall-clock seconds (not in the receipt: a job of its own, so that the
    receipt does not wait for it)."""
    conv = read_parquet(convergence)
    timed = conv.merge(pd.read_csv(timing, sep="\t"), on=["variant", "p", "iteration"])
    figures().fig_convergence(timed, stem(out), x="seconds")


def strategy_figure(variant: str, p: float, strategy: str, classes: str, buckets: str, out: str) -> None:
    class_table = read_parquet(classes).sort_values("class")
    figures().fig_strategy(
        read_parquet(strategy),
        list(class_table["name"]),
        len(read_parquet(buckets)),
        f"Riemann v0.6, {variant}, restricted Nash response p = {p:g}",
        stem(out),
    )
