"""The solved tables against the player types on real cards (``workflow/rules/realcard_br.smk``,
rule ``realcard_types``; issue 26): per variant, every table of ``realcard_br.p`` (the Nash table
and the published one by default) played on the evidence stage's deals against every training
type and every hold-out type, with each table's paired difference from the published table.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from poker51.abstraction.tables import AbstractionTables
from poker51.export.tables import strategy_table
from poker51.games.cache import cached_game
from poker51.games.population import load_population
from poker51.io import read_metadata, read_parquet, write_parquet
from poker51.policies.holdout import load_holdout
from poker51.provenance import JBITS, PROBABILITY, table_metadata, units_for
from poker51.realcard.abstraction_size import table_player
from poker51.realcard.evidence import CheckCallPlayer, evidence_hands, mean_ci
from poker51.stages.common import Provenance
from poker51.stages.realcard_br import table_name

log = logging.getLogger("poker51.stages")

#: the statistics of a table's nets, then of its paired difference from the published table
STATS = ["mean", "sd", "se", "ci_low", "ci_high"]
DIFF_STATS = [f"vs_published{s}" for s in ("", "_sd", "_se", "_ci_low", "_ci_high")]
COLUMNS = ["variant", "table", "p", "population", "type", "hands", "seed", "stack", *STATS, *DIFF_STATS]
UNITS = {
    "p": PROBABILITY,
    "hands": "deals per type and table (the same deals for every table)",
    "stack": "jbits",
    **units_for(STATS, f"{JBITS}; Riemann playing this table (+ = Riemann wins)"),
    **units_for(DIFF_STATS, f"{JBITS}; this table's net minus the published table's on the same deal (NaN for the "
                "published table)"),
}  # fmt: skip


def play_tables(players: Mapping[float, object], *, types, holdout, variant: str, hands: int, seed: int, stack: int,
                tables: AbstractionTables, progress: bool = False) -> pd.DataFrame:  # fmt: skip
    """Per deal, the net of every table in ``players`` (p -> Riemann player): columns variant,
    population, type, hand and one column per p (int jbits).  The tables go through
    :func:`poker51.realcard.evidence.evidence_hands` two at a time, in its two policy seats
    (its ``v0.6`` and ``v0.5``), so no match is played for nothing: every match meets the
    same deals and the same type-player seeds (each match starts a fresh type player with the
    type's seed), whichever seat a table takes and whichever table shares its call.  An odd
    table out shares its call with a cheap stand-in whose nets are dropped."""
    ps = list(players)
    out = None
    for i in range(0, len(ps), 2):
        a, b = ps[i], ps[i + 1] if i + 1 < len(ps) else None
        df = evidence_hands(
            players[a], CheckCallPlayer if b is None else players[b], types, variant, hands, seed, stacks=stack,
            tables=tables, progress=progress, holdout=holdout,
        )  # fmt: skip
        df = df.drop(columns="v0.5") if b is None else df.rename(columns={"v0.5": b})
        df = df.rename(columns={"v0.6": a})
        out = df if out is None else out.merge(df, on=["variant", "population", "type", "hand"], validate="1:1")
    assert out is not None
    return out


def summarize_tables(
    per_hand: pd.DataFrame, ps: Sequence[float], table_p: float, seed: int, stack: int
) -> pd.DataFrame:
    """One row per (table p, population, type) (:data:`COLUMNS`): the mean of the table's nets
    with its Student-t 95% interval and, unless the table is the published one (``table_p``),
    the mean of its per-deal difference from the published table's with its interval (the
    published table's ``vs_published*`` are NaN, as they are when ``table_p`` is not played)."""
    rows = []
    for p in ps:
        for (variant, population, tname), g in per_hand.groupby(["variant", "population", "type"], sort=False):
            x = g[p].to_numpy(np.float64)
            if p != table_p and table_p in g.columns:
                diff = mean_ci(x - g[table_p].to_numpy(np.float64))
            else:
                diff = (np.nan,) * 5
            rows.append((variant, table_name(float(p), float(table_p)), float(p), population, tname, int(x.size),
                         int(seed), int(stack), *mean_ci(x), *diff))  # fmt: skip
    return pd.DataFrame(rows, columns=COLUMNS)


def run_realcard_types(
    variant: str,
    abstraction_dir: str,
    policies: Mapping[float, str],
    table_p: float,
    population: str,
    holdout: str | None,
    hands: int,
    seed: int,
    stack: int,
    out: str,
    provenance: Provenance = None,
    game_cache: str | None = None,
) -> None:
    """Every table of one variant (``policies``: p -> its solve's ``policy.npy``) against every
    training type and every hold-out type on the evidence stage's deals (``hands``, ``seed``,
    ``stack``: the same deals for every table, so differences are paired): ``out``, the rows of
    :func:`summarize_tables`.  Each table is :func:`poker51.export.tables.strategy_table` of its
    policy, played as :func:`poker51.realcard.abstraction_size.table_player` (the published
    table's rows are the evidence stage's v0.6 rows)."""
    start = time.perf_counter()
    tables = AbstractionTables.load(abstraction_dir, variant)
    ab = tables.arrays()
    game = cached_game(ab, game_cache)
    ps = sorted(float(p) for p in policies)
    players = {p: table_player(tables, strategy_table(game, np.load(policies[p]), ab, variant), f"p={p:g}")
               for p in ps}  # fmt: skip
    built = time.perf_counter()
    per_hand = play_tables(
        players, types=load_population(population), holdout=load_holdout(holdout) if holdout else (),
        variant=variant, hands=int(hands), seed=int(seed), stack=int(stack), tables=tables, progress=True,
    )  # fmt: skip
    df = summarize_tables(per_hand, ps, float(table_p), int(seed), int(stack))
    meta = {"variant": variant, "hands": int(hands), "seed": int(seed), "stack": int(stack), "table_p": float(table_p)}
    write_parquet(df, out, metadata=table_metadata(provenance, UNITS, **meta))
    log.info("realcard_types %s: %d tables x %d types x %d deals; %.1f s tables, %.1f s play", variant, len(ps),
             per_hand.groupby(["population", "type"]).ngroups, int(hands), built - start,
             time.perf_counter() - built)  # fmt: skip


def gather_realcard_types(inputs: Sequence[str], out: str, provenance: Provenance = None) -> None:
    """Every variant's rows in one table, sorted by variant and p (then as played: the training
    types, then the hold-out types)."""
    df = pd.concat([read_parquet(path) for path in inputs], ignore_index=True)
    df = df.sort_values(["variant", "p"], kind="stable").reset_index(drop=True)
    units = read_metadata(inputs[0]).get("units", UNITS) if inputs else UNITS
    write_parquet(df, out, metadata=table_metadata(provenance, units))


__all__ = ["COLUMNS", "UNITS", "gather_realcard_types", "play_tables", "run_realcard_types", "summarize_tables"]
