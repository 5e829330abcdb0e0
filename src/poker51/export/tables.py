"""Writing Riemann's strategy tables: the rows of a solved policy, Parquet with provenance, and
JSON for the game server (SPEC section 7; the shape is :mod:`poker51.export.schema`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from poker51.abstraction.tables import AbstractionArrays
from poker51.export.receipt import package_versions
from poker51.export.schema import (
    ACTION_COLUMNS,
    INDEX_COLUMNS,
    INT_DTYPES,
    SPOT_ACTIONS,
    TABLE_COLUMNS,
    TABLE_FORMAT,
    TABLE_SCHEMA,
    check_table,
    content_digest,
    frame,
    spot_of_line,
    table_path,
)
from poker51.io import canonical_json, write_parquet
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
    cols: dict[str, list] = {c: [] for c in TABLE_COLUMNS}
    for i, (player, key) in enumerate(game.iset_keys):
        if player != 1:
            continue
        _, street, d4, k, pre, post, state = key
        spot, h_bet = spot_of_line(pre if street == 0 else post)
        probs = policy[act_off[i] : act_off[i + 1]]
        names = SPOT_ACTIONS[spot]
        if len(probs) != len(names):
            raise ValueError(f"information set {key} has {len(probs)} actions, spot {spot} has {len(names)}")
        if street == 0 and not 0 <= state < ab.n_classes or street == 1 and not 0 <= state < ab.n_buckets:
            raise ValueError(f"information set {key} has state {state} outside the abstraction")
        s = float(probs.sum())
        if abs(s - 1.0) > 1e-12 or probs.min() < 0:
            raise ValueError(f"information set {key}: probabilities {probs.tolist()} do not sum to 1")
        row = dict(
            street=street,
            spot=spot,
            h_bet=h_bet,
            h_draw=d4,
            r_draw=k,
            pre_line=pre,
            post_line=post,
            **{"class": state if street == 0 else -1, "bucket": state if street == 1 else -1},
        )
        row.update({a: 0.0 for a in ACTION_COLUMNS})
        row.update(zip(names, probs.tolist()))
        for c in TABLE_COLUMNS:
            cols[c].append(row[c])
    return frame(cols)


def write_table(df: pd.DataFrame, path: str | Path, provenance: Mapping[str, Any]) -> Path:
    """Write a checked table to Parquet (``poker51.io.write_parquet``, schema
    :data:`TABLE_SCHEMA`).  The key-value metadata holds ``provenance`` (expected: variant,
    p, iterations, exploitability, config hash, seeds), the package versions, the format
    and the :func:`content_digest`; ``provenance["variant"]`` is required."""
    if "variant" not in provenance:
        raise ValueError("provenance must name the variant")
    check_table(df, str(path))
    meta = {
        "provenance": dict(provenance),
        "packages": package_versions(),
        "format": TABLE_FORMAT,
        "content_sha256": content_digest(df),
        "rows": len(df),
        "variant": provenance["variant"],
    }
    return write_parquet(df, path, metadata=meta, schema=TABLE_SCHEMA)


def to_json(df: pd.DataFrame, path: str | Path, provenance: Mapping[str, Any] | None = None) -> Path:
    """The same table as JSON for the game server: an object with ``format``,
    ``columns``, ``actions``, ``spot_actions``, ``content_sha256``, ``provenance`` and
    ``rows`` (one record per row, keys sorted, one row per line; floats in shortest
    round-trip form).  Deterministic: the same frame gives the same bytes."""
    check_table(df, str(path))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    head = {
        "format": TABLE_FORMAT,
        "columns": list(TABLE_COLUMNS),
        "index_columns": list(INDEX_COLUMNS),
        "actions": list(ACTION_COLUMNS),
        "spot_actions": {k: list(v) for k, v in SPOT_ACTIONS.items()},
        "content_sha256": content_digest(df),
        "provenance": dict(provenance or {}),
    }
    text = canonical_json(head)[:-1] + ',"rows":[\n'
    text += ",\n".join(_json_records(df))
    text += "\n]}\n"
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path


def _json_records(df: pd.DataFrame) -> list[str]:
    """One canonical JSON object per row (keys sorted, compact; what ``canonical_json``
    gives for the row's dict), built column-wise for speed."""
    parts = []
    for c in sorted(TABLE_COLUMNS):
        if c in ACTION_COLUMNS:
            enc = [repr(float(v)) for v in df[c].tolist()]  # json's float form: shortest round trip
        elif c in INT_DTYPES:
            enc = [str(int(v)) for v in df[c].tolist()]
        else:
            vals = df[c].astype(str).tolist()
            memo = {v: json.dumps(v, ensure_ascii=False) for v in set(vals)}
            enc = [memo[v] for v in vals]
        key = json.dumps(c) + ":"
        parts.append([key + e for e in enc])
    return ["{" + ",".join(row) + "}" for row in zip(*parts)]


def export_tables(
    game: Game,
    policy: np.ndarray,
    ab: AbstractionArrays,
    variant: str,
    tables_dir: str | Path,
    provenance: Mapping[str, Any],
) -> list[Path]:
    """Write the variant's table as Parquet and JSON (:func:`table_path`); returns both paths."""
    df = strategy_table(game, policy, ab, variant)
    prov = {**provenance, "variant": variant}
    return [
        write_table(df, table_path(tables_dir, variant), prov),
        to_json(df, table_path(tables_dir, variant, "json"), prov),
    ]
