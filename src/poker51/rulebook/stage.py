"""The ``rulebook_census`` stage: every game's census, the comparison with Poker 51, claims.

Called by ``workflow/scripts/rulebook_census.py`` through :mod:`poker51.stages`.  Reads the
census stage's ``counts.parquet`` (Poker 51's 51-card deck), counts each configured game
exactly or by seeded estimate (:func:`poker51.rulebook.estimate.game_census`), and writes
``census.parquet`` (:func:`poker51.rulebook.compare.comparison_table`, with the method of
each game, the job's provenance and the units in its metadata) and ``claims.md``; the
figure is drawn from the table by :func:`poker51.figures.fig_rulebook_census` (rule
``rulebook_figure``).  Counts do not depend on the number of threads; the outputs are
byte-identical from run to run.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from poker51.io import read_parquet, write_parquet
from poker51.provenance import PROBABILITY, table_metadata

__all__ = ["UNITS", "run_rulebook_census"]

#: units of the comparison table's columns
UNITS = {
    "hands": "deals of the game (exact count, or deals sampled for an estimate)",
    "count": "deals whose best hand is the category (exact, or in the sample)",
    "probability": PROBABILITY,
    "ci_low": PROBABILITY,
    "ci_high": PROBABILITY,
    "rarity_rank": "1 = the rarest category of the game",
    "inversions": "lower categories rarer than this one",
    "undecided": "lower categories whose 95% interval overlaps this one's",
}

log = logging.getLogger("poker51.rulebook")


def run_rulebook_census(
    counts: str,
    table: str,
    claims: str,
    games: Sequence[str],
    exact: Sequence[str],
    samples: int,
    seed: int,
    threads: int = 1,
    provenance: Mapping[str, Any] | None = None,
) -> None:
    """Write the comparison table and its claims (``provenance``: the job's, for the metadata)."""
    import numba

    from poker51.rulebook.compare import claims_markdown, comparison_table, poker51_census
    from poker51.rulebook.estimate import game_census

    numba.set_num_threads(max(1, min(int(threads), getattr(numba.config, "NUMBA_NUM_THREADS", 1))))
    results = []
    for game in games:
        method = "exact" if game in exact else "estimate"
        res = game_census(game, method, samples if method == "estimate" else None, seed, progress=True)
        log.info("%s: %s, %d hands", game, method, res.hands)
        results.append(res)
    census_counts = read_parquet(counts)
    for deck in ("standard", "full52"):
        if deck == "standard" or deck in set(census_counts["deck"]):
            results.append(poker51_census(census_counts, deck))
    df = comparison_table(results)
    meta = {
        "games": list(games),
        "exact_games": list(exact),
        "methods": {r.game: ("exact" if r.exact else "estimate") for r in results},
        "samples": samples,
        "seed": seed,
        "source": "rule book (seed 003), Articles VI-VII; Poker 51 census counts",
    }
    write_parquet(df, table, metadata=table_metadata(provenance, UNITS, **meta))
    Path(claims).write_text(claims_markdown(df))
