"""How often the compact JSON table's rounding changes a decision, counted on the real hands.

:mod:`poker51.export.compact` computes, per row, the share of ``u`` whose action rounding
changes.  Here the pipeline weighs it by the hands each row is played for
(:func:`hands_per_row`), and checks every dealt hand at every pre-draw spot exhaustively
(:func:`predraw_changes`: 50 spots × 2.3 to 2.6 million hands, the FNV-1a hash vectorised over
the hands): before the draw, "rounding never changes a decision" is then a count, not an
expectation.  After the draw (3,750 spots × every five-card hand, about 9 × 10^9 pairs) the
header keeps the expectation.  Uses the kernels' hand table (pipeline extra).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from poker51.abstraction.buckets import bucket_of_strength
from poker51.abstraction.classes import class_key_array, hand_table
from poker51.cards import card_str
from poker51.export.compact import changed_segments
from poker51.export.schema import ACTION_COLUMNS
from poker51.fnv import FNV64_OFFSET_BASIS, FNV64_PRIME


def hands_per_row(df: pd.DataFrame, classes: pd.DataFrame, buckets: pd.DataFrame, variant: str) -> np.ndarray:
    """For each row of a table, the number of five-card hands it is played for: the dealt hands
    of its class (the class table's ``members``) before the draw, the hands of the variant's
    deck whose strength lies in its bucket after it (every hand enumerated by the kernels)."""
    members = classes.set_index("class")["members"].astype(np.int64)
    per_bucket = np.bincount(bucket_of_strength(hand_table(variant).strengths, buckets), minlength=len(buckets))
    street = df["street"].to_numpy()
    by_class = members.reindex(df["class"].to_numpy()).fillna(0).to_numpy(np.int64)
    by_bucket = per_bucket[np.clip(df["bucket"].to_numpy(np.int64), 0, None)]
    return np.where(street == 0, by_class, by_bucket)


def _fnv(h: np.ndarray, data: Sequence[int | np.ndarray] | bytes) -> np.ndarray:
    """FNV-1a 64 continued from states ``h`` (uint64, wrapping) over bytes: each step one byte
    for every state, or an array of bytes, one per state.  Returns new states (``h`` is kept);
    the steps work in place on one copy."""
    prime = np.uint64(FNV64_PRIME)
    h = h.copy()
    for b in data:
        np.bitwise_xor(h, np.asarray(b, dtype=np.uint64), out=h)
        np.multiply(h, prime, out=h)
    return h


def predraw_changes(full: pd.DataFrame, rounded: pd.DataFrame, classes: pd.DataFrame, variant: str) -> dict[str, int]:
    """Every dealt hand of the variant at every pre-draw spot of the table: how many decisions
    the ``rounded`` rows give differently from the ``full`` ones (``{"predraw_decisions",
    "predraw_changed"}``).  The hash is Riemann's byte string, FNV-1a vectorised over the hands
    (sorted by class, so a class is a slice); a decision changes exactly when its ``u`` lies in
    one of the row's :func:`~poker51.export.compact.changed_segments`."""
    ht = hand_table(variant)
    ids = classes.sort_values("class")
    keys = class_key_array(ids["base"], ids["marker"], ids["house_draw"])
    order = np.argsort(keys)
    hand_keys = class_key_array(ht.base, ht.marker, ht.house_draw)
    cls = ids["class"].to_numpy()[order][np.searchsorted(keys[order], hand_keys)]
    by = np.argsort(cls, kind="stable")
    bounds = np.searchsorted(cls[by], np.arange(len(classes) + 1))
    hands = ht.hands[by]
    chars = np.array([[ord(ch) for ch in card_str(c)] for c in range(52)], np.uint64)
    h = np.full(hands.shape[0], FNV64_OFFSET_BASIS, np.uint64)
    for i in range(5):  # "c1,c2,c3,c4,c5;" of the sorted hand
        h = _fnv(h, ([44] if i else []) + [chars[hands[:, i], 0], chars[hands[:, i], 1]])
    h = _fnv(h, b";")
    pre = full[full["street"] == 0]
    P_full = pre[list(ACTION_COLUMNS)].to_numpy(np.float64)
    P_round = rounded.loc[pre.index, list(ACTION_COLUMNS)].to_numpy(np.float64)
    state = pre["class"].to_numpy()
    changed = decisions = 0
    spot_head: dict[int, np.ndarray] = {}  # the hash through "0|d|-1|", shared by the spots of one d
    for (d, line), rows in pre.groupby(["h_draw", "pre_line"], sort=True).indices.items():
        if d not in spot_head:
            spot_head[d] = _fnv(h, f"0|{d}|-1|".encode("ascii"))
        u = _fnv(spot_head[d], f"{line}|".encode("ascii")).astype(np.float64) / 2.0**64
        for r in rows:
            uc = u[bounds[state[r]] : bounds[state[r] + 1]]
            for a, b in changed_segments(P_full[r], P_round[r]):
                changed += int(np.count_nonzero((uc >= a) & (uc < b)))
        decisions += len(u)
    return {"predraw_decisions": decisions, "predraw_changed": changed}


def rounding_report(
    classes: pd.DataFrame, buckets: pd.DataFrame, variant: str
) -> Callable[[pd.DataFrame, pd.DataFrame], dict[str, Any]]:
    """What :func:`poker51.export.compact.to_json` adds to its header's ``rounding`` for a table
    of this variant: the hands per row (for the expected changes) and the exhaustive pre-draw count."""

    def report(full: pd.DataFrame, rounded: pd.DataFrame) -> dict[str, Any]:
        return {"hands_per_row": hands_per_row(full, classes, buckets, variant)} | predraw_changes(
            full, rounded, classes, variant
        )

    return report


__all__ = ["hands_per_row", "predraw_changes", "rounding_report"]
