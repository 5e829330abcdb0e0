"""Stage 5, the export (``workflow/rules/export.smk``): the published tables, the receipt, the
headline tables.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from poker51.abstraction.tables import AbstractionTables
from poker51.export.receipt import write_receipt
from poker51.export.rounding import rounding_report
from poker51.export.schema import ACTION_COLUMNS
from poker51.export.tables import strategy_table, to_json, write_table
from poker51.games.cache import cached_game
from poker51.io import read_parquet
from poker51.provenance import PROBABILITY

log = logging.getLogger("poker51.stages")


def run_export(
    variant: str,
    abstraction_dir: str,
    policy: str,
    summary: str,
    out: Mapping[str, str],
    provenance: Mapping[str, Any],
    game_cache: str | None = None,
) -> None:
    """Write the published strategy table of one variant (Parquet and JSON)."""
    tables = AbstractionTables.load(abstraction_dir, variant)
    ab = tables.arrays()
    game = cached_game(ab, game_cache)
    s = json.loads(Path(summary).read_text())
    prov = {
        **provenance,
        "variant": variant,
        "p": s["p"],
        "iterations": s["iterations"],
        "exploitability": s["exploitability"],
        "algorithm": s["algorithm"],
        "units": {"h_bet": "jbits", **dict.fromkeys(ACTION_COLUMNS, PROBABILITY)},
    }
    df = strategy_table(game, np.load(policy), ab, variant)
    write_table(df, out["parquet"], prov)
    to_json(df, out["json"], prov, rounding_report(tables.classes, tables.buckets, variant))
    log.info("exported %s: %d information sets", variant, len(df))


def run_receipt(out: str, files: Sequence[str], config: Mapping[str, Any], seeds: Mapping[str, Any]) -> None:
    """The receipt of every reproducible file."""
    write_receipt(out, list(files), dict(config), dict(seeds))


def headline_tables(scores: str, evidence: str, claims: str, out: Mapping[str, str]) -> None:
    """The headline tables as HTML pages for ``snakemake --report`` (``out[name]``), and as CSV
    and LaTeX (``out[name + "_csv"]``, ``out[name + "_tex"]``) when those are asked for."""
    from poker51.figures import headline

    tables = {
        "scores": (
            headline.headline_scores(read_parquet(scores)),
            "Scores: Riemann's value in jbits per hand",
            "value of the game = [low, high]; guarantee = the table against a best-responding human; "
            "vs population = against the configured mix of player types.",
        ),
        "realcard": (
            headline.headline_realcard(read_parquet(scores)),
            "Real cards: what a best-responding human wins from our tables",
            "jbits per hand for the human (+ = it wins). V_A = minus the guarantee (the abstract game); "
            "V_ind = the exact best response with independent hands (each hand from its own deck, exact "
            "cards, any keep, exact showdowns), which is never below the abstract best response played "
            "there. The abstract game compares buckets at showdown, so V_ind - V_A may take either sign.",
        ),
        "evidence": (
            headline.headline_evidence(ev := read_parquet(evidence)),
            "Evidence: v0.6 against our v0.5 on real-card deals",
            headline.evidence_note(ev),
        ),
        "claims": (headline.headline_claims(read_parquet(claims)), "The rule card's census claims", ""),
    }
    for name, (df, title, note) in tables.items():
        headline.write_html(df, out[name], title, note)
        if f"{name}_csv" in out:
            headline.write_csv(df, out[f"{name}_csv"])
        if f"{name}_tex" in out:
            headline.write_latex(df, out[f"{name}_tex"], f"{title}. {note}".strip(" ."), f"tab:{name}")
