"""Belief table v0.2 and the v0.5 read (rule card, "Riemann v0.3–v0.5", step 1).

The table has six rows of 1,000 final-hand strengths each (int32, sorted):

- row ``d`` = 0..4: quantiles of the final strength of a House-rule hand whose House
  draw count is ``d``: a dealt hand drawn uniformly among the hands of the deck with
  that draw count, then its House draw (``d`` cards uniformly from the cards outside it);
- row 5: quantiles of the strength of a random five-card hand of the deck (no draw).
  It is the random baseline of the read, and also the row of a human five-card draw,
  whose final hand is a random hand of the cards not held.

Sampling (bit-for-bit reproducible): ``numpy.random.SeedSequence(seed).spawn(6)``, row
``d`` uses ``numpy.random.default_rng(child[d])`` (PCG64): ``samples`` integers for the
dealt hands (row 5: none), then a ``(samples, deck size)`` array of uniforms whose
``argsort`` (cards in the hand pushed last) orders the replacement cards.  The original
v0.2 sample sizes are unknown; the default is 20,000 samples per row.

Quantile ``j`` (0..999) is the inverted-CDF quantile at ``p = (j + 1/2) / 1000``: the
``ceil(p · samples)``-th smallest sample, an observed strength.
"""

from __future__ import annotations

import hashlib

import numpy as np

from poker51.hands.evaluate import strengths as eval_strengths

N_QUANTILES = 1000
N_ROWS = 6
RANDOM_ROW = 5
#: weights of the read (rule card v0.3–v0.5 step 1)
READ_WEIGHT_DRAW, READ_WEIGHT_RANDOM = 0.6, 0.4


def quantile_positions(samples: int, n_quantiles: int = N_QUANTILES) -> np.ndarray:
    """0-based sorted-sample positions ``ceil((2j+1) n / (2Q)) - 1`` of the quantiles.

    >>> quantile_positions(20000)[:3].tolist(), quantile_positions(20000)[-1].item()
    ([9, 29, 49], 19989)
    """
    j = np.arange(n_quantiles, dtype=np.int64)
    num = (2 * j + 1) * samples
    den = 2 * n_quantiles
    return (num + den - 1) // den - 1


def _replacement_order(rng, hands: np.ndarray, deck: np.ndarray) -> np.ndarray:
    """For each row of ``hands``: the first five cards of a uniform order of ``deck \\ hand``."""
    keys = rng.random((hands.shape[0], deck.size))
    np.put_along_axis(keys, np.searchsorted(deck, hands), 2.0, axis=1)  # held cards last
    return deck[np.argsort(keys, axis=1, kind="stable")[:, :5]]


def build_belief(
    hands: np.ndarray,
    keep_masks: np.ndarray,
    house_draw: np.ndarray,
    deck: np.ndarray,
    rule: int,
    seed: int = 51,
    samples: int = 20_000,
) -> np.ndarray:
    """The (6, 1000) int32 belief table of a deck, from every hand of the deck
    (``hands`` (n, 5) sorted rows in ``all_hands`` order) with its House keep masks
    (uint8 position masks) and House draw counts."""
    if samples < N_QUANTILES:
        raise ValueError(f"need at least {N_QUANTILES} samples per row, got {samples}")
    deck = np.sort(np.asarray(deck, dtype=np.int64))
    hands = np.asarray(hands, dtype=np.int64)
    keep_masks = np.asarray(keep_masks, dtype=np.int64)
    children = np.random.SeedSequence(seed).spawn(N_ROWS)
    pos = quantile_positions(samples)
    bits = np.arange(5)[None, :]
    table = np.empty((N_ROWS, N_QUANTILES), np.int32)
    for d in range(N_ROWS):
        rng = np.random.default_rng(children[d])
        if d == RANDOM_ROW:
            none = np.empty((samples, 0), np.int64)
            finals = _replacement_order(rng, none, deck)
        else:
            pool = np.flatnonzero(np.asarray(house_draw) == d)
            pick = pool[rng.integers(0, pool.size, size=samples)]
            dealt = hands[pick]
            kept = dealt[((keep_masks[pick][:, None] >> bits) & 1) == 1].reshape(samples, 5 - d)
            finals = np.concatenate([kept, _replacement_order(rng, dealt, deck)[:, :d]], axis=1)
        table[d] = np.sort(eval_strengths(finals, rule))[pos]
    return table


def belief_digest(table: np.ndarray) -> str:
    """SHA-256 of the table as little-endian int32, row by row."""
    return hashlib.sha256(np.ascontiguousarray(table, dtype="<i4").tobytes()).hexdigest()


def _row_score(rows: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Fraction of each row below s, ties counted half; rows (n, Q), s (n,)."""
    below = (rows < s[:, None]).sum(axis=1)
    ties = (rows == s[:, None]).sum(axis=1)
    return (below + 0.5 * ties) / rows.shape[1]


def read_score(own_strength, belief: np.ndarray, human_draw) -> np.ndarray | float:
    """The v0.5 read of an own final strength against a human who drew ``human_draw``.

    ``0.6 · score(row human_draw) + 0.4 · score(row 5)``, each score the fraction of the
    row's 1,000 quantiles below ``own_strength`` with ties counted half.  A human draw of
    5 uses row 5 for both terms.  Broadcasts over arrays; returns a float for scalars.

    >>> belief = np.tile(np.arange(1000, dtype=np.int32), (6, 1))
    >>> round(read_score(500, belief, 2), 6), round(read_score(-1, belief, 0), 6)
    (0.5005, 0.0)
    """
    belief = np.asarray(belief)
    if belief.ndim != 2 or belief.shape[0] != N_ROWS:
        raise ValueError(f"a belief table has {N_ROWS} rows, got shape {belief.shape}")
    s, d = np.broadcast_arrays(np.asarray(own_strength, dtype=np.int64), np.asarray(human_draw, dtype=np.int64))
    if np.any((d < 0) | (d > 5)):
        raise ValueError("human draw counts are 0..5")
    flat_s, flat_d = s.reshape(-1), d.reshape(-1)
    r = READ_WEIGHT_DRAW * _row_score(belief[flat_d], flat_s) + READ_WEIGHT_RANDOM * _row_score(
        np.broadcast_to(belief[RANDOM_ROW], (flat_s.size, belief.shape[1])), flat_s
    )
    r = r.reshape(s.shape)
    return float(r) if r.ndim == 0 else r


__all__ = ["N_QUANTILES", "RANDOM_ROW", "build_belief", "belief_digest", "quantile_positions", "read_score"]
