"""What every stage module shares: the provenance type, figures on first use, gathering per-
variant tables, the game cache's folder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from poker51.io import read_metadata, read_parquet, write_parquet
from poker51.provenance import table_metadata

Provenance = Mapping[str, Any] | None  # what poker51.provenance.provenance returns for the job


def figures() -> Any:
    """:mod:`poker51.figures`, imported on first use: with matplotlib it costs about a second
    and a half of every job's start, and most jobs draw nothing."""
    from poker51 import figures

    return figures


def stem(path: str) -> str:
    """``results/figures/x.pdf`` -> ``results/figures/x``."""
    return str(Path(path).with_suffix(""))


def gather(inputs: Sequence[str], out: str, sort: list[str], provenance: Provenance = None) -> None:
    """Concatenate per-variant tables into one, sorted; the units are those of the inputs."""
    df = pd.concat([read_parquet(p) for p in inputs], ignore_index=True)
    units = read_metadata(inputs[0]).get("units", {}) if inputs else {}
    write_parquet(df.sort_values(sort, kind="stable").reset_index(drop=True), out,
                  metadata=table_metadata(provenance, units))  # fmt: skip


def game_cache_dir(config: Mapping[str, Any]) -> str:
    """Where a run's jobs keep the built games (:mod:`poker51.games.cache`): ``cache/games``
    under the run's results folder (nothing there is a result; delete it at will)."""
    return f"{str(config['results']).rstrip('/')}/cache/games"
