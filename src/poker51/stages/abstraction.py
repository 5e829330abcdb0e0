"""Stage 2, the abstraction (``workflow/rules/abstraction.smk``): one variant's tables and the
figure of all.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

import pandas as pd

from poker51.abstraction.tables import build_abstraction
from poker51.io import read_parquet
from poker51.stages.common import Provenance, figures, stem

log = logging.getLogger("poker51.stages")


def run_abstraction(
    variant: str,
    out: Mapping[str, str],
    n_buckets: int,
    belief_seed: int,
    belief_samples: int,
    provenance: Provenance = None,
) -> None:
    """Write ``classes``, ``buckets``, ``transitions``, ``belief`` tables of one variant."""
    timings: dict[str, float] = {}
    tables = build_abstraction(
        variant,
        n_buckets=n_buckets,
        belief_seed=belief_seed,
        belief_samples=belief_samples,
        progress=True,
        timings=timings,
    )
    meta = {"variant": variant, "n_buckets": n_buckets, "belief_seed": belief_seed, "belief_samples": belief_samples}
    tables.save(out, {**meta, **(provenance or {})})
    log.info(
        "abstraction %s: %d classes, %d buckets; stage seconds %s",
        variant,
        tables.n_classes,
        tables.n_buckets,
        {k: round(v, 2) for k, v in timings.items()},
    )


def abstraction_figure(
    variants: Sequence[str], classes: Sequence[str], buckets: Sequence[str], transitions: Sequence[str], out: str
) -> None:
    def read(paths: Sequence[str]) -> dict[str, pd.DataFrame]:
        return {v: read_parquet(p) for v, p in zip(variants, paths, strict=True)}

    figures().fig_classes_buckets(read(classes), read(buckets), read(transitions), stem(out))
