"""The ``rulebook_census`` stage: every game's census, the comparison with Poker 51, claims, figure.

Called by ``workflow/scripts/rulebook_census.py`` through :mod:`poker51.stages`.  Reads the
census stage's ``counts.parquet`` (Poker 51's 51-card deck), counts each configured game
exactly or by seeded estimate (:func:`poker51.rulebook.estimate.game_census`), and writes
``census.parquet`` (:func:`poker51.rulebook.compare.comparison_table`, with the method of
each game in its metadata), ``claims.md`` and the figure.  Counts do not depend on the
number of threads; the outputs are byte-identical from run to run.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from poker51.io import read_parquet, write_parquet

__all__ = ["run_rulebook_census"]

log = logging.getLogger("poker51.rulebook")


def run_rulebook_census(
    counts: str,
    table: str,
    claims: str,
    figure: str,
    games: Sequence[str],
    exact: Sequence[str],
    samples: int,
    seed: int,
    threads: int = 1,
) -> None:
    """Write the comparison table, its claims and its figure (``figure`` is the path stem)."""
    import numba

    from poker51.rulebook.compare import claims_markdown, comparison_table, poker51_census
    from poker51.rulebook.estimate import game_census
    from poker51.rulebook.figure import fig_rulebook_census

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
        "methods": {r.game: ("exact" if r.exact else "estimate") for r in results},
        "samples": samples,
        "seed": seed,
        "source": "rule book (seed 003), Articles VI-VII; Poker 51 census counts",
    }
    write_parquet(df, table, metadata=meta)
    Path(claims).write_text(claims_markdown(df))
    fig_rulebook_census(df, figure)
