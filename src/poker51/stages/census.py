"""Stage 1, the census (``workflow/rules/census.smk``): counts, orders, the rule card's census
claims, the removal table and their figures.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path

from poker51.census.claims import claims_markdown, claims_table
from poker51.census.count import census, counts_frame
from poker51.census.decks import named_deck
from poker51.census.orders import orders_frame
from poker51.census.removal import removal_table
from poker51.io import read_parquet, write_parquet
from poker51.provenance import HANDS, PROBABILITY, table_metadata
from poker51.stages.common import Provenance, figures, stem

log = logging.getLogger("poker51.stages")


#: units of the census tables' columns
_COUNT_UNITS = {"count": HANDS, "with_marker": HANDS, "hands": HANDS, "probability": PROBABILITY}


_ORDER_UNITS = dict.fromkeys(("orders", "consistent_strict", "consistent_ties"), "category orders")


_CLAIM_UNITS = {"computed": "as the claim states it (JSON)", "stated": "as the claim states it (JSON)"}


_REMOVAL_UNITS = {
    **dict.fromkeys(("count", "hands", "count_full52"), HANDS),
    "probability": PROBABILITY,
    "probability_full52": PROBABILITY,
    "relative_change": "fraction: probability / probability_full52 - 1",
}


def run_census(decks: Sequence[str], out: Mapping[str, str], provenance: Provenance = None) -> None:
    """``counts`` and ``orders`` of the named ``decks``, the rule card's ``claims`` (always on
    the named decks they are about) and ``claims_md``."""
    results = [census(named_deck(name)) for name in decks]
    claims = claims_table()
    decks = list(decks)
    write_parquet(counts_frame(results), out["counts"], metadata=table_metadata(provenance, _COUNT_UNITS, decks=decks))
    write_parquet(orders_frame(results), out["orders"], metadata=table_metadata(provenance, _ORDER_UNITS, decks=decks))
    write_parquet(claims, out["claims"], metadata=table_metadata(provenance, _CLAIM_UNITS, decks=decks))
    Path(out["claims_md"]).write_text(claims_markdown(claims))
    log.info("claims: %s", claims["verdict"].value_counts().to_dict())


def run_removal(out: str, provenance: Provenance = None) -> None:
    """The one-card removal table."""
    write_parquet(removal_table(), out, metadata=table_metadata(provenance, _REMOVAL_UNITS))


def census_figure(counts: str, out: str) -> None:
    figures().fig_census_frequencies(read_parquet(counts), stem(out))


def removal_figure(removal: str, out: str) -> None:
    figures().fig_removal_heatmap(read_parquet(removal), stem(out))
