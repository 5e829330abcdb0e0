"""The v0.2 belief table Riemann reads at a table: built from seed 51, or read from the pipeline.

:func:`standard_belief` rebuilds the standard deck's (6, 1000) table exactly as the
abstraction stage does (:func:`poker51.abstraction.belief.build_belief` over every hand of
the 51 cards with its House keep mask and draw count), so a clean install needs no
results; :func:`read_belief` reads ``results/standard/belief.parquet`` (columns
``draw, quantile, strength``) instead.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
from numba import njit

from poker51.abstraction.belief import N_QUANTILES, build_belief
from poker51.cards import MARKER, all_hands
from poker51.errors import InputError
from poker51.hands.evaluate import RULE_ORDINARY
from poker51.hands.house import house_keep, house_kernel
from poker51.io import TableError, read_parquet

N_ROWS = 6


@njit(cache=True)
def house_masks_kernel(hands, rule, marker, out):
    """out[i] = the House keep mask of hands[i] (Numba; plain twin :func:`house_masks_plain`)."""
    for i in range(hands.shape[0]):
        m, _step, _s = house_kernel(hands[i], rule, marker)
        out[i] = m


def house_masks_plain(hands: np.ndarray, rule: int = RULE_ORDINARY) -> np.ndarray:
    """Plain twin of :func:`house_masks_kernel`, one :func:`poker51.hands.house.house_keep` per hand."""
    return np.array([house_keep(list(h), rule)[0] for h in np.asarray(hands).tolist()], np.uint8)


def house_masks(hands: np.ndarray, rule: int = RULE_ORDINARY) -> np.ndarray:
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    out = np.empty(hands.shape[0], np.uint8)
    house_masks_kernel(hands, rule, MARKER, out)
    return out


@lru_cache(maxsize=4)
def standard_belief(seed: int = 51, samples: int = 20_000) -> np.ndarray:
    """The standard deck's v0.2 belief table (read-only), as the abstraction stage builds it."""
    deck = np.arange(1, 52)
    hands = all_hands(deck)
    masks = house_masks(hands)
    draws = 5 - np.unpackbits(masks[:, None], axis=1).sum(axis=1)
    table = build_belief(hands, masks, draws, deck, RULE_ORDINARY, seed, samples)
    table.setflags(write=False)
    return table


def read_belief(path: str | Path) -> np.ndarray:
    """A belief table written by the abstraction stage; :class:`InputError` names a bad file."""
    try:
        df = read_parquet(path)
    except TableError as exc:
        raise InputError(str(exc)) from None
    if not {"draw", "quantile", "strength"} <= set(df.columns) or len(df) != N_ROWS * N_QUANTILES:
        raise InputError(f"{path}: not a belief table (columns draw, quantile, strength; {N_ROWS * N_QUANTILES} rows)")
    t = df.sort_values(["draw", "quantile"])["strength"].to_numpy(np.int32).reshape(N_ROWS, N_QUANTILES)
    t.setflags(write=False)
    return t


__all__ = ["house_masks", "house_masks_kernel", "house_masks_plain", "read_belief", "standard_belief"]
