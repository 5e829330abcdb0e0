"""The evidence (``workflow/rules/export.smk``): v0.6 against v0.5 on real-card deals, per
variant, then gathered with its figure.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from poker51.abstraction.tables import AbstractionTables
from poker51.games.population import load_population
from poker51.io import read_parquet, write_parquet
from poker51.policies.holdout import load_holdout
from poker51.provenance import JBITS, table_metadata, units_for
from poker51.realcard.evidence import HOLDOUT, evidence_hands, riemann_factory, summarize, v05_factory
from poker51.stages.common import Provenance, figures, gather, stem


def run_evidence(
    variant: str,
    abstraction_dir: str,
    table: str,
    population: str,
    holdout: str | None,
    hands: int,
    seed: int,
    stack: int,
    out: str,
    hands_out: str,
    provenance: Provenance = None,
) -> None:
    """v0.6 (the exported table) against v0.5, each against every training type and every
    hold-out type, on the same deals: the summary (``out``) and the per-hand nets (``hands_out``)."""
    tables = AbstractionTables.load(abstraction_dir, variant)
    per_hand = evidence_hands(
        riemann_factory(tables, strategy=table, variant=variant),
        v05_factory(tables),
        load_population(population),
        variant,
        hands,
        seed,
        stacks=stack,
        tables=tables,
        progress=True,
        holdout=load_holdout(holdout) if holdout else (),
    )
    meta = {"variant": variant, "hands": hands, "seed": seed, "stack": stack}
    hand_units = {"hand": "deal index", **units_for(["v0.6", "v0.5"], JBITS)}
    write_parquet(per_hand, hands_out, metadata=table_metadata(provenance, hand_units, **meta))
    units = {"hands": "deals per type and policy", "stack": "jbits", **units_for(
        ["mean", "sd", "se", "ci_low", "ci_high"], JBITS)}  # fmt: skip
    write_parquet(summarize(per_hand, seed), out, metadata=table_metadata(provenance, units, **meta))


def gather_evidence(inputs: Sequence[str], out: str, figure: str, provenance: Provenance = None) -> None:
    """The evidence of every variant in one table, and its figure (hold-out types marked)."""
    gather(inputs, out, sort=["variant", "population", "type", "policy"], provenance=provenance)
    df = read_parquet(out)
    df["type"] = np.where(df["population"] == HOLDOUT, df["type"] + " (hold-out)", df["type"])
    figures().fig_evidence(df, stem(figure))
