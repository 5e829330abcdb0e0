"""Writing Riemann's strategy tables: the rows of a solved policy, Parquet with provenance, and
compact JSON for the game server (SPEC section 7; the shape is :mod:`poker51.export.schema`, the
JSON layout and its rounding :mod:`poker51.export.compact`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from poker51.abstraction.tables import AbstractionArrays
from poker51.export.compact import to_json
from poker51.export.receipt import package_versions
from poker51.export.schema import (
    ACTION_COLUMNS,
    INT_DTYPES,
    SPOT_ACTIONS,
    TABLE_FORMAT,
    TABLE_SCHEMA,
    check_table,
    content_digest,
    frame,
    spot_of_line,
    table_path,
)
from poker51.io import write_parquet
from poker51.solver.tree import Game


def strategy_table(game: Game, policy: np.ndarray, ab: AbstractionArrays, variant: str) -> pd.DataFrame:
    """Riemann's rows of ``policy`` in a :func:`poker51.games.abstract.build_game` game.

    ``game.iset_keys[i] = (player, key)``; Riemann (player 1) keys are
    ``("R", street, d4, k, pre_line, post_line, state)``; the actions of information set
    ``i`` are ``policy[act_off[i]:act_off[i+1]]`` in the order of :data:`SPOT_ACTIONS`.
    ``ab`` is the variant's :class:`~poker51.abstraction.tables.AbstractionArrays` (its class and bucket
    counts bound the states).  Returns the sorted table with exact dtypes (module docstring).
    """
    if getattr(ab, "variant", variant) != variant:
        raise ValueError(f"abstraction is for {ab.variant!r}, not {variant!r}")
    policy = np.asarray(policy, dtype=np.float64)
    act_off = game.arrays.act_off
    if policy.shape != (int(act_off[-1]),):
        raise ValueError(f"policy has shape {policy.shape}, the game has {int(act_off[-1])} actions")
    rows = [(i, key) for i, (player, key) in enumerate(game.iset_keys) if player == 1]
    n = len(rows)
    iset = np.fromiter((i for i, _ in rows), np.int64, n)
    street, d4, k, pre, post, state = (list(c) for c in zip(*(key[1:] for _, key in rows))) if n else ([],) * 6
    street_a, state_a = np.asarray(street, np.int64), np.asarray(state, np.int64)
    lines = [p if s == 0 else q for s, p, q in zip(street, pre, post, strict=True)]
    spots = {line: spot_of_line(line) for line in set(lines)}  # a few dozen lines
    spot = [spots[line][0] for line in lines]
    spot_a = np.asarray(spot, dtype=object)
    width = act_off[iset + 1] - act_off[iset]
    bad_state = ((street_a == 0) & ((state_a < 0) | (state_a >= ab.n_classes))) | (
        (street_a == 1) & ((state_a < 0) | (state_a >= ab.n_buckets))
    )
    action = {a: np.zeros(n) for a in ACTION_COLUMNS}
    for name, names in SPOT_ACTIONS.items():  # one spot at a time: its rows have len(names) actions
        at = np.flatnonzero(spot_a == name)
        wrong = at[width[at] != len(names)]
        if wrong.size:
            key = rows[wrong[0]][1]
            raise ValueError(f"information set {key} has {width[wrong[0]]} actions, spot {name} has {len(names)}")
        if (bad := at[bad_state[at]]).size:
            raise ValueError(f"information set {rows[bad[0]][1]} has state {state[bad[0]]} outside the abstraction")
        probs = policy[act_off[iset[at]][:, None] + np.arange(len(names))]
        off = np.flatnonzero((np.abs(probs.sum(axis=1) - 1.0) > 1e-12) | (probs.min(axis=1, initial=0.0) < 0))
        if off.size:
            key = rows[at[off[0]]][1]
            raise ValueError(f"information set {key}: probabilities {probs[off[0]].tolist()} do not sum to 1")
        for j, a in enumerate(names):
            action[a][at] = probs[:, j]
    cols: dict[str, Any] = {
        "street": street_a,
        "spot": spot,
        "h_bet": np.fromiter((spots[line][1] for line in lines), np.int64, n),
        "h_draw": np.asarray(d4, np.int64),
        "r_draw": np.asarray(k, np.int64),
        "pre_line": pre,
        "post_line": post,
        "class": np.where(street_a == 0, state_a, -1),
        "bucket": np.where(street_a == 1, state_a, -1),
        **action,
    }
    return frame(cols)


def write_table(df: pd.DataFrame, path: str | Path, provenance: Mapping[str, Any]) -> Path:
    """Write a checked table to Parquet (``poker51.io.write_parquet``, schema
    :data:`TABLE_SCHEMA`).  The key-value metadata holds ``provenance`` (expected: variant,
    p, iterations, exploitability, config hash, seeds), the package versions, the format
    and the :func:`content_digest`; ``provenance["variant"]`` is required."""
    if "variant" not in provenance:
        raise ValueError("provenance must name the variant")
    check_table(df, str(path))
    if df["bucket"].dtype != np.dtype(INT_DTYPES["bucket"]):
        raise ValueError(f"{path}: the table format holds int8 buckets, this table has {int(df['bucket'].max()) + 1}")
    meta = {
        "provenance": dict(provenance),
        "packages": package_versions(),
        "format": TABLE_FORMAT,
        "content_sha256": content_digest(df),
        "rows": len(df),
        "variant": provenance["variant"],
    }
    return write_parquet(df, path, metadata=meta, schema=TABLE_SCHEMA)


def export_tables(
    game: Game,
    policy: np.ndarray,
    ab: AbstractionArrays,
    variant: str,
    tables_dir: str | Path,
    provenance: Mapping[str, Any],
    report: Callable[[pd.DataFrame, pd.DataFrame], Mapping[str, Any]] | None = None,
) -> list[Path]:
    """Write the variant's table as Parquet and compact JSON (:func:`table_path`); returns both
    paths.  ``report`` (:func:`poker51.export.rounding.rounding_report`) adds the rounding's
    counts to the JSON header."""
    df = strategy_table(game, policy, ab, variant)
    prov = {**provenance, "variant": variant}
    return [
        write_table(df, table_path(tables_dir, variant), prov),
        to_json(df, table_path(tables_dir, variant, "json"), prov, report),
    ]
