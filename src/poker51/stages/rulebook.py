"""The rule book's games (``workflow/rules/rulebook.smk``): the exact census is
:func:`poker51.rulebook.stage.run_rulebook_census`; its figure.
"""

from __future__ import annotations

from poker51.io import read_parquet
from poker51.stages.common import figures, stem


def rulebook_figure(table: str, out: str) -> None:
    """The rule book's games next to Poker 51, from ``results/rulebook/census.parquet``."""
    figures().fig_rulebook_census(read_parquet(table), stem(out))
