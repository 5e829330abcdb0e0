"""The five-seat tables (``workflow/rules/multi.smk``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from poker51.io import read_parquet
from poker51.multi.stage import run_multi as simulate_tables
from poker51.provenance import table_metadata, units_for
from poker51.stages.common import Provenance, figures, stem

_MULTI_UNITS = {
    **units_for(["net_people", "net_people_lo", "net_people_hi"], "jbits per hand"),
    **units_for(["abit_score", "abit_score_lo", "abit_score_hi"], "abits per hand"),
    **units_for(["riemann_abits", "riemann_abits_lo", "riemann_abits_hi"], "abits per hand"),
    **units_for(["tables", "hands"], "count"),
}


def run_multi(
    population: str, out_sim: str, out_audit: str, settings: Mapping[str, Any], belief_seed: int,
    belief_samples: int, threads: int, provenance: Provenance = None,
) -> None:  # fmt: skip
    """The five-seat tables (:mod:`poker51.multi.stage`): ``sim.parquet`` with its provenance
    and units, and the conservation audit."""
    simulate_tables(
        population, out_sim, out_audit, belief_seed=belief_seed, belief_samples=belief_samples, threads=threads,
        metadata=table_metadata(provenance, _MULTI_UNITS), **settings,
    )  # fmt: skip


def multi_figure(sim: str, out: str) -> None:
    """The five-seat tables figure of ``sim.parquet``."""
    figures().fig_multi(read_parquet(sim), stem(out))
