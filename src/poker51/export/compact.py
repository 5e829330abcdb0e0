"""The strategy table as compact JSON for a JavaScript game server, and what its rounding costs.

Layout (``docs/tables.md``): one JSON object; a header (``format``, ``variant``, ``rows``,
``columns``, ``actions``, ``spot_actions``, ``decimals``, the two digests, ``rounding``,
``provenance``), then ``"data"``: one array per column, in :data:`TABLE_COLUMNS` order, one
column per line, the rows in the Parquet table's order.  Integers and strings as they are;
probabilities rounded to :data:`DECIMALS` decimal places and written in the shortest form
that reads back as the same double (Python's ``repr``, JavaScript's ``Number``).

**Why 11 decimals.**  Riemann takes action ``k`` when ``u = FNV-1a-64 / 2**64`` falls in
``[c_{k-1}, c_k)``, the cumulative sums of its row.  Rounding moves each ``c_k`` by at most
``(k + 1) * 0.5e-d`` and changes the decision exactly for the hands whose ``u`` lands between
the old and new sums: for a row, a share :func:`changed_share` of ``[0, 1)`` (computed exactly,
from the two step functions).  A table is hashed at about ``9e9`` (dealt hand, spot) pairs
(every five-card hand at each of the 3,750 post-draw spots), so the FNV choice resolves
probabilities to about ``1e-10``; at ``d = 11`` the expected number of those ``9e9`` decisions
that rounding changes, :func:`expected_changes`, is about 0.04 (smoke and default tables:
``docs/tables.md``), and any single decision changes with probability at most ``1.5e-11``.
The header records both numbers for the table at hand.  Rows still sum to 1 within
``SUM_TOLERANCE`` (``5 * 0.5e-11``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from poker51.export.schema import (
    ACTION_COLUMNS,
    INDEX_COLUMNS,
    INT_DTYPES,
    SPOT_ACTIONS,
    TABLE_COLUMNS,
    StrategyTableError,
    check_table,
    content_digest,
    frame,
)
from poker51.io import canonical_json

JSON_FORMAT = "poker51-riemann-json/2"
#: decimal places of the probabilities in the JSON table (module docstring)
DECIMALS = 11


def round_probabilities(P: np.ndarray, decimals: int = DECIMALS) -> np.ndarray:
    """Each probability as the double nearest to its ``decimals``-place decimal rounding (what
    a JSON reader gets back from the printed value)."""
    flat = [float(f"{x:.{decimals}f}") for x in np.asarray(P, np.float64).ravel().tolist()]
    return np.array(flat, np.float64).reshape(np.shape(P))


def action_intervals(P: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each row and action column, the ``[lo, hi)`` of ``u`` values choosing it: the
    running sums in column order (as Riemann adds them), the last positive action taking
    everything up to 1 (Riemann's fallback when rounding leaves no sum above ``u``)."""
    cum = np.cumsum(P, axis=1)
    lo = np.concatenate([np.zeros((P.shape[0], 1)), cum[:, :-1]], axis=1)
    positive = P > 0
    last = P.shape[1] - 1 - np.argmax(positive[:, ::-1], axis=1)
    hi = np.where(positive, cum, lo)
    hi[np.arange(P.shape[0]), last] = 1.0
    return np.clip(lo, 0.0, 1.0), np.clip(hi, 0.0, 1.0)


def changed_segments(p: np.ndarray, q: np.ndarray) -> list[tuple[float, float]]:
    """The ``[a, b)`` ranges of ``u`` whose action differs between two rows ``p`` and ``q``.

    >>> changed_segments(np.array([0.25, 0.75, 0, 0, 0]), np.array([0.3, 0.7, 0, 0, 0]))
    [(0.25, 0.3)]
    """
    lo, hi = action_intervals(np.array([p, q], np.float64))
    cuts = sorted({0.0, 1.0, *lo.ravel().tolist(), *hi.ravel().tolist()})
    out: list[tuple[float, float]] = []
    for a, b in zip(cuts, cuts[1:]):
        inside = (lo <= a) & (a < hi)  # the action each row takes for u = a (one per row)
        if b > a and inside[0].argmax() != inside[1].argmax():
            if out and out[-1][1] == a:
                a = out.pop()[0]  # one range, not two that touch
            out.append((a, b))
    return out


def changed_share(P: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """Per row, the share of ``u`` in ``[0, 1)`` whose action differs between the rows of
    ``P`` and ``Q`` (same column order): ``1 - sum_k |[lo_k, hi_k) ∩ [lo'_k, hi'_k)|``.

    >>> changed_share(np.array([[0.25, 0.75]]), np.array([[0.3, 0.7]])).round(12).tolist()
    [0.05]
    """
    lo, hi = action_intervals(np.asarray(P, np.float64))
    lo2, hi2 = action_intervals(np.asarray(Q, np.float64))
    agree = np.clip(np.minimum(hi, hi2) - np.maximum(lo, lo2), 0.0, None).sum(axis=1)
    return np.clip(1.0 - agree, 0.0, 1.0)


def expected_changes(share: np.ndarray, hands_per_row: np.ndarray) -> float:
    """Expected number of (hand, spot) decisions that change, ``sum_rows hands · share``:
    ``hands_per_row`` is the number of five-card hands a row is played for (the dealt hands of
    its class before the draw, the hands whose strength lies in its bucket after it)."""
    return float(np.dot(np.asarray(hands_per_row, np.float64), share))


def rounded_frame(df: pd.DataFrame, decimals: int = DECIMALS) -> pd.DataFrame:
    """The table with its probabilities rounded (checked: rows still sum to 1)."""
    out = df.copy()
    out[list(ACTION_COLUMNS)] = round_probabilities(df[list(ACTION_COLUMNS)].to_numpy(np.float64), decimals)
    check_table(out, f"<{df.shape[0]} rows rounded to {decimals} decimals>")
    return out


def to_json(
    df: pd.DataFrame,
    path: str | Path,
    provenance: Mapping[str, Any] | None = None,
    report: Callable[[pd.DataFrame, pd.DataFrame], Mapping[str, Any]] | None = None,
    decimals: int = DECIMALS,
) -> Path:
    """Write the compact JSON table (module docstring); deterministic bytes.

    ``report(full, rounded)`` (optional; the pipeline's
    :func:`poker51.export.rounding.rounding_report`) adds to the header's ``rounding``: from its
    ``hands_per_row``, :func:`expected_changes` over every (hand, spot) pair; its other keys as
    they are (the exhaustive pre-draw count).  Without it the header holds the per-decision
    bound only."""
    check_table(df, str(path))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    rounded = rounded_frame(df, decimals)
    share = changed_share(df[list(ACTION_COLUMNS)].to_numpy(np.float64), rounded[list(ACTION_COLUMNS)].to_numpy())
    rounding: dict[str, Any] = {"decimals": decimals, "max_decision_change": float(share.max())}
    extra = dict(report(df, rounded)) if report is not None else {}
    hands = extra.pop("hands_per_row", None)
    if hands is not None:
        rounding["expected_changed_decisions"] = expected_changes(share, hands)
        rounding["decisions"] = int(np.sum(hands))
    rounding.update(extra)
    head = {
        "format": JSON_FORMAT,
        "variant": (provenance or {}).get("variant"),
        "rows": len(df),
        "columns": list(TABLE_COLUMNS),
        "index_columns": list(INDEX_COLUMNS),
        "actions": list(ACTION_COLUMNS),
        "spot_actions": {k: list(v) for k, v in SPOT_ACTIONS.items()},
        "decimals": decimals,
        "content_sha256": content_digest(df),
        "rounded_sha256": content_digest(rounded),
        "rounding": rounding,
        "provenance": dict(provenance or {}),
    }
    lines = []
    for c in TABLE_COLUMNS:
        if c in ACTION_COLUMNS:
            values = ",".join(repr(v) if v else "0" for v in rounded[c].tolist())
        elif c in INT_DTYPES:
            values = ",".join(str(int(v)) for v in rounded[c].tolist())
        else:
            vals = rounded[c].astype(str).tolist()
            memo = {v: json.dumps(v, ensure_ascii=False) for v in set(vals)}
            values = ",".join(memo[v] for v in vals)
        lines.append(f"{json.dumps(c)}:[{values}]")
    text = canonical_json(head)[:-1] + ',"data":{\n' + ",\n".join(lines) + "\n}}\n"
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path


def read_json_table(path: str | Path) -> tuple[pd.DataFrame, dict[str, Any]]:
    """(table frame, header) of a :func:`to_json` file: the rounded rows, checked, and their
    digest compared with the header's ``rounded_sha256``; a malformed file raises
    :class:`StrategyTableError` naming ``path``."""
    path = Path(path)
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise StrategyTableError(f"{path}: not a readable JSON table ({exc})") from None
    if not isinstance(obj, dict) or obj.get("format") != JSON_FORMAT or not isinstance(obj.get("data"), dict):
        raise StrategyTableError(f"{path}: not a {JSON_FORMAT} table")
    data = obj.pop("data")
    if set(data) != set(TABLE_COLUMNS) or len({len(v) for v in data.values()}) != 1:
        raise StrategyTableError(f"{path}: the columns are not {list(TABLE_COLUMNS)} of equal length")
    try:
        df = frame(data)
    except (TypeError, ValueError) as exc:
        raise StrategyTableError(f"{path}: rows cannot be decoded ({exc})") from None
    check_table(df, str(path))
    if content_digest(df) != obj.get("rounded_sha256"):
        raise StrategyTableError(f"{path}: content digest does not match the header (corrupted rows)")
    return df, obj


__all__ = [
    "DECIMALS", "JSON_FORMAT", "action_intervals", "changed_segments", "changed_share", "expected_changes",
    "read_json_table", "round_probabilities", "rounded_frame", "to_json",
]  # fmt: skip
