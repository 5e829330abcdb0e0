"""Lower bounds on V_real by play (``workflow/rules/realcard_bounds.smk``; issue 26, point 2).

Per variant and table (the Nash table p = 0 and the published p, at least): each strategy of
:mod:`poker51.realcard.bounds` built against the table and played on fresh real-card deals
against the deployed Riemann; one Parquet per table, gathered into
``realcard_bounds.parquet`` (with the LBR result of the published table beside, when the
``lbr`` stage runs), and :func:`add_bounds_columns` for ``scores.parquet``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

import numba
import numpy as np
import pandas as pd

from poker51.abstraction.tables import AbstractionTables
from poker51.io import read_metadata, read_parquet, write_parquet
from poker51.provenance import table_metadata, units_for
from poker51.stages.common import Provenance

log = logging.getLogger("poker51.stages")

#: the jbit columns of a bounds table
VALUE_COLUMNS = [
    "mean",
    "sd",
    "se",
    "ci_low",
    "ci_high",
    "cv_mean",
    "cv_sd",
    "cv_se",
    "cv_ci_low",
    "cv_ci_high",
    "v_gind",
    "v_ind",
    "v_abstract",
]
#: the columns :func:`add_bounds_columns` adds to ``scores.parquet``
BOUNDS_COLUMNS = ("v_real_lower", "v_real_lower_ci", "v_real_lower_strategy")
#: the units of the bound columns in scores.parquet
BOUNDS_UNITS = {
    **units_for(BOUNDS_COLUMNS[:2], "jbits per hand won by H from Riemann (+ = H wins)"),
    "v_real_lower_strategy": "strategy name",
}


def run_realcard_bounds(
    variant: str,
    p: float,
    abstraction_dir: str,
    policy: str,
    br: Mapping[str, str],
    hands: int,
    seed: int,
    strategies: Sequence[str],
    out: str,
    threads: int = 1,
    provenance: Provenance = None,
) -> None:
    """One table's plays: the deployed table is the solve's ``policy`` as
    :func:`poker51.export.tables.strategy_table` writes it (the published table at the published
    p, byte for byte its rows); the strategies are the ones ``realcard_br`` built for it, read
    from its files ``br`` (:func:`poker51.realcard.bounds.read_strategies`), none rebuilt here."""
    import time

    from poker51.export.tables import strategy_table
    from poker51.games.abstract import build_game
    from poker51.realcard.bounds import UNIT, deployed_model, play_strategies, read_strategies
    from poker51.realcard.gind import variant_deck

    numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))  # type: ignore[attr-defined]
    t = time.perf_counter()
    tables = AbstractionTables.load(abstraction_dir, variant)
    ab = tables.arrays()
    frame = strategy_table(build_game(ab), np.load(policy), ab, variant)
    gd = variant_deck(tables)
    M = deployed_model(variant, tables, frame, gd)
    built, v_ind_value, v_a = read_strategies(gd, dict(br), tuple(strategies))
    setup = {"read": time.perf_counter() - t}
    tb = play_strategies(M, built, v_ind_value, v_a, hands, seed, tuple(strategies), True, f"bounds {variant}", setup)
    df = pd.DataFrame(
        [
            {"variant": variant, "p": float(p), "seed": int(seed), **r, "v_ind": tb.v_ind, "v_abstract": tb.v_abstract}
            for r in tb.rows
        ]
    )
    units = {**units_for(VALUE_COLUMNS, UNIT), "hands": "deals", "beta": "control-variate coefficient"}
    write_parquet(
        df,
        out,
        metadata=table_metadata(
            provenance,
            units,
            variant=variant,
            p=float(p),
            hands=int(hands),
            seed=int(seed),
        ),
    )
    # wall-clock seconds go to the log only: the table must be byte-identical whatever --cores is
    log.info("realcard_bounds %s p=%s seconds: %s", variant, p, {k: round(v, 1) for k, v in tb.seconds.items()})
    for r in tb.rows:
        log.info(
            "realcard_bounds %s p=%s %s: %+.4f [%+.4f, %+.4f] (control variate), exact in G_ind %+.4f; "
            "V_ind %+.4f, V_A %+.4f",
            variant,
            p,
            r["strategy"],
            r["cv_mean"],
            r["cv_ci_low"],
            r["cv_ci_high"],
            r["v_gind"],
            tb.v_ind,
            tb.v_abstract,
        )


def gather_realcard_bounds(
    inputs: Sequence[str], out: str, lbr: str | None = None, table_p: float | None = None, provenance: Provenance = None
) -> None:
    """Every table's rows in one table (sorted by variant, p, strategy); with ``lbr`` (the
    gathered LBR table) a row ``strategy = lbr`` per variant at ``table_p`` (LBR plays only the
    published table; its interval is its own, with no control variate: ``cv_*`` repeat it), for
    the variants whose tables were played."""
    from poker51.realcard.bounds import UNIT

    df = pd.concat([read_parquet(p) for p in inputs], ignore_index=True)
    if lbr is not None:
        rows = []
        for r in read_parquet(lbr).itertuples(index=False):
            if r.policy != "v0.6" or r.variant not in set(df["variant"]):
                continue  # v0.5's, or a variant whose tables are not played (realcard_br.variants)
            base = df[(df["variant"] == r.variant) & np.isclose(df["p"], float(table_p or 0.0))]
            rows.append(
                {
                    "variant": r.variant,
                    "p": float(table_p or 0.0),
                    "seed": int(r.seed),
                    "strategy": "lbr",
                    "hands": int(r.hands),
                    "mean": r.mean,
                    "sd": r.sd,
                    "se": r.se,
                    "ci_low": r.ci_low,
                    "ci_high": r.ci_high,
                    "beta": 0.0,
                    "cv_mean": r.mean,
                    "cv_sd": r.sd,
                    "cv_se": r.se,
                    "cv_ci_low": r.ci_low,
                    "cv_ci_high": r.ci_high,
                    "v_gind": np.nan,
                    "v_ind": base["v_ind"].iloc[0] if len(base) else np.nan,
                    "v_abstract": base["v_abstract"].iloc[0] if len(base) else np.nan,
                }
            )
        if rows:
            df = pd.concat([df, pd.DataFrame(rows)], ignore_index=True)
    df = df.sort_values(["variant", "p", "strategy"], kind="stable").reset_index(drop=True)
    units = read_metadata(inputs[0]).get("units", {}) if inputs else units_for(VALUE_COLUMNS, UNIT)
    write_parquet(df, out, metadata=table_metadata(provenance, units))


def best_bounds(bounds: pd.DataFrame) -> pd.DataFrame:
    """Per (variant, p): the strongest strategy's control-variate estimate (``v_real_lower``),
    chosen by the highest lower end of its 95% interval, and that lower end (``v_real_lower_ci``,
    the conservative figure), with the strategy's name."""
    rows = []
    for (variant, p), g in bounds.groupby(["variant", "p"], sort=True):
        best = g.loc[g["cv_ci_low"].idxmax()]
        rows.append(
            {
                "variant": variant,
                "p": float(p),
                "v_real_lower": float(best["cv_mean"]),
                "v_real_lower_ci": float(best["cv_ci_low"]),
                "v_real_lower_strategy": str(best["strategy"]),
            }
        )
    return pd.DataFrame(rows, columns=["variant", "p", *BOUNDS_COLUMNS])


def add_bounds_columns(scores: pd.DataFrame, bounds: pd.DataFrame | None) -> pd.DataFrame:
    """``scores`` with :data:`BOUNDS_COLUMNS` by (variant, p) from the gathered bounds table
    (NaN and "" where a table was not played)."""
    out = scores.copy()
    out["v_real_lower"] = np.nan
    out["v_real_lower_ci"] = np.nan
    out["v_real_lower_strategy"] = ""
    if bounds is None or bounds.empty:
        return out
    for r in best_bounds(bounds).itertuples(index=False):
        hit = (out["variant"] == r.variant) & np.isclose(out["p"].astype(float), r.p)
        out.loc[hit, "v_real_lower"] = r.v_real_lower
        out.loc[hit, "v_real_lower_ci"] = r.v_real_lower_ci
        out.loc[hit, "v_real_lower_strategy"] = r.v_real_lower_strategy
    return out
