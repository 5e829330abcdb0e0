"""The real-card studies (``workflow/rules/realcards.smk``): the local best response and the
belief-table claims.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import numba
import pandas as pd

from poker51.abstraction.tables import AbstractionTables
from poker51.games.population import load_population
from poker51.io import read_metadata, read_parquet, write_parquet
from poker51.provenance import table_metadata, units_for
from poker51.realcard.belief_claims import SPOT_DEFINITION, belief_claims, belief_claims_markdown, belief_spots
from poker51.realcard.lbr import LBR_UNIT, lbr_run, policy_model, summarize_lbr
from poker51.stages.common import Provenance

log = logging.getLogger("poker51.stages")


def run_lbr(
    variant: str,
    policy: str,
    abstraction_dir: str,
    table: str | None,
    hands: int,
    seed: int,
    particles: int,
    max_tries: int,
    out: str,
    threads: int = 1,
    provenance: Provenance = None,
) -> None:
    """The local best response against one policy of one variant: per-hand results."""
    numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))  # type: ignore[attr-defined]
    tables = AbstractionTables.load(abstraction_dir, variant)
    model = policy_model(policy, variant, tables, table)
    df = lbr_run(model, variant, policy, hands, seed, particles, max_tries, progress=True)
    meta = {"variant": variant, "policy": policy, "hands": hands, "seed": seed, "particles": particles}
    units = {"hand": "deal index", "net": LBR_UNIT, "fallbacks": "decisions", "particles": "candidate hands"}
    write_parquet(df, out, metadata=table_metadata(provenance, units, **meta, max_tries=max_tries))
    score = summarize_lbr(df, seed, particles, max_tries)[0]
    log.info("lbr %s %s: LBR wins %.3f [%.3f, %.3f] jbits/hand over %d hands", variant, policy, score.mean,
             score.ci_low, score.ci_high, score.hands)  # fmt: skip


def gather_lbr(inputs: Sequence[str], out: str, provenance: Provenance = None) -> None:
    """One row per (variant, policy): what LBR wins, with its 95% interval (:class:`LBRScore`)."""
    rows = []
    for path in inputs:
        df, meta = read_parquet(path), read_metadata(path)
        rows += [s.row() for s in summarize_lbr(df, int(meta["seed"]), int(meta["particles"]), int(meta["max_tries"]))]
    df = pd.DataFrame(rows).sort_values(["variant", "policy"], kind="stable").reset_index(drop=True)
    units = {**units_for(["mean", "sd", "se", "ci_low", "ci_high"], LBR_UNIT), "hands": "deals", "fallbacks": "deals"}
    write_parquet(df, out, metadata=table_metadata(provenance, units))


def run_belief_spots(
    variant: str,
    abstraction_dir: str,
    standard_dir: str,
    population: str,
    spots: int,
    seed: int,
    out: str,
    provenance: Provenance = None,
) -> None:
    """The after-draw decisions of v0.5 in one variant, with its own and with the standard belief table."""
    tables = AbstractionTables.load(abstraction_dir, variant)
    standard = AbstractionTables.load(standard_dir, "standard").belief_array()
    df = belief_spots(variant, tables, standard, load_population(population), spots, seed)
    units = {"read_own": "read (0..1)", "read_standard": "read (0..1)"}
    write_parquet(df, out, metadata=table_metadata(provenance, units, variant=variant, spots=spots, seed=seed))


def run_belief_claims(spots: Sequence[str], out: str, out_md: str, provenance: Provenance = None) -> None:
    """The rule card's belief-table claims, recomputed (next to the census claims)."""
    frames = {str(read_parquet(p)["variant"].iloc[0]): read_parquet(p) for p in spots}
    claims = belief_claims(frames)
    write_parquet(claims, out, metadata=table_metadata(provenance, {}))
    Path(out_md).write_text(belief_claims_markdown(claims, SPOT_DEFINITION))
    log.info("belief claims: %s", dict(zip(claims["claim_id"], claims["verdict"])))
