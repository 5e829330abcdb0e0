"""Every game's census, exact or seeded (``poker51 census --game``, the ``rulebook_census`` stage).

:func:`game_census` returns a :class:`GameCensus`: for Hold'em the exact counts over all
``C(52, 7)`` seven-card sets (:func:`poker51.rulebook.census.holdem_census`); for the Omahas
the exact counts over every deal (:func:`poker51.rulebook.omaha_census.omaha_census`), or,
when asked, a seeded estimate: ``samples`` random deals (hole cards then board: the first
cards of a Fisher-Yates shuffle driven by uniform floats, ``j = k + floor(u (52 - k))``)
drawn in chunks of :data:`CHUNK`, chunk ``i`` from
``numpy.random.SeedSequence(seed, spawn_key=(i,))``, so the sample does not depend on how it
is computed.  An estimate carries 95% Wilson score intervals of each category's probability.

>>> c = game_census("omaha", method="estimate", samples=20_000, seed=1)
>>> c.exact, c.hands, sum(c.counts.values()), set(c.ci95) == set(c.counts)
(False, 20000, 20000, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from math import comb

import numpy as np
from numba import njit

from poker51.errors import InputError
from poker51.rulebook.census import FLUSH_CATEGORY, STRAIGHT_CATEGORY
from poker51.rulebook.games import BEST_FIRST, CATEGORY_NAMES, CENSUS_GAMES, GAMES, N_CATEGORIES
from poker51.rulebook.omaha_census import popcount
from poker51.rulebook.reading import combos_table

__all__ = [
    "CHUNK",
    "GameCensus",
    "deal_categories",
    "deal_categories_kernel",
    "deals_in_game",
    "game_census",
    "partial_shuffle_kernel",
    "partial_shuffle_plain",
    "sample_deals",
    "wilson",
]

#: deals per seeded chunk of an estimate
CHUNK = 1 << 18
_Z95 = 1.959963984540054


@dataclass(frozen=True)
class GameCensus:
    """A game's census: ``hands`` counted (every set or deal if ``exact``, else the sample),
    ``counts`` per category name (best first), ``ci95`` per category for an estimate."""

    game: str
    hands: int
    exact: bool
    counts: dict[str, int]
    ci95: dict[str, tuple[float, float]] | None = None
    seed: int | None = None

    def to_json(self) -> dict:
        out: dict = {"game": self.game, "hands": self.hands, "exact": self.exact, "counts": dict(self.counts)}
        if self.ci95 is not None:
            out["ci95"] = {k: list(v) for k, v in self.ci95.items()}
            out["seed"] = self.seed
        return out


def deals_in_game(game: str) -> int:
    """What an exact census counts: seven-card sets for Hold'em, (hole, board) deals for the Omahas."""
    if game == "holdem":
        return comb(52, 7)
    return comb(52, 5) * comb(47, GAMES[game].hole)


def wilson(k: int, n: int, z: float = _Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion ``k / n``.

    >>> [round(x, 4) for x in wilson(50, 100)]
    [0.4038, 0.5962]
    """
    if n <= 0:
        raise ValueError("an interval needs at least one sample")
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def partial_shuffle_plain(u: np.ndarray) -> list[list[int]]:
    """Plain twin of the shuffle kernel: per row of ``u`` (floats in [0, 1)), the first
    ``u.shape[1]`` cards of Fisher-Yates on a fresh deck, position ``k`` swapped with
    ``k + floor(u[k] (52 - k))``."""
    out = []
    for row in u.tolist():
        deck = list(range(52))
        for k, x in enumerate(row):
            j = k + int(x * (52 - k))
            deck[k], deck[j] = deck[j], deck[k]
        out.append(deck[: len(row)])
    return out


def sample_deals(game: str, n: int, seed: int, chunk_index: int) -> np.ndarray:
    """``n`` seeded deals ``(n, hole + 5)`` (hole cards first) of chunk ``chunk_index``."""
    k = GAMES[game].hole + 5
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(chunk_index,)))
    out = np.empty((n, k), np.int64)
    partial_shuffle_kernel(rng.random((n, k)), out)
    return out


@njit(cache=True, inline="always")
def _category5(c0, c1, c2, c3, c4):
    """Category (0..9, royal flush 9) of five distinct cards, from the rank mask and a few equalities."""
    r0, r1, r2, r3, r4 = c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2, c4 >> 2
    mask = (1 << r0) | (1 << r1) | (1 << r2) | (1 << r3) | (1 << r4)
    d = popcount(mask)
    if d == 5:
        s = c0 & 3
        if (c1 & 3) == s and (c2 & 3) == s and (c3 & 3) == s and (c4 & 3) == s:
            return FLUSH_CATEGORY[mask]
        return STRAIGHT_CATEGORY[mask]
    if d == 4:
        return 1  # one pair
    n0 = (r0 == r1) + (r0 == r2) + (r0 == r3) + (r0 == r4)
    if d == 2:  # four of a kind or a full house
        return 7 if n0 == 3 or n0 == 0 else 6
    n1 = (r1 == r2) + (r1 == r3) + (r1 == r4)
    n2 = (r2 == r3) + (r2 == r4)
    return 3 if n0 == 2 or n1 == 2 or n2 == 2 else 2  # three of a kind or two pair


@njit(cache=True)
def partial_shuffle_kernel(u, out):
    """Per row, the first ``out.shape[1]`` cards of a Fisher-Yates shuffle of 0..51 driven by ``u`` in [0, 1)."""
    deck = np.empty(52, np.int64)
    for i in range(out.shape[0]):
        for c in range(52):
            deck[c] = c
        for k in range(out.shape[1]):
            j = k + int(u[i, k] * (52 - k))
            deck[k], deck[j] = deck[j], deck[k]
            out[i, k] = deck[k]


@njit(cache=True)
def deal_categories_kernel(hands, combos, out):
    """``out[i]`` = best category of row ``i`` of ``hands`` (hole then board) over the ``combos`` rows."""
    for i in range(hands.shape[0]):
        h = hands[i]
        best = 0
        for j in range(combos.shape[0]):
            v = _category5(h[combos[j, 0]], h[combos[j, 1]], h[combos[j, 2]], h[combos[j, 3]], h[combos[j, 4]])
            if v > best:
                best = v
        out[i] = best


def deal_categories(game: str, deals: np.ndarray) -> np.ndarray:
    """Best category (int64) of each deal ``(n, hole + 5)`` of ``game`` (plain twin: the category of
    :func:`poker51.rulebook.reading.read_hand_plain`)."""
    deals = np.ascontiguousarray(deals, dtype=np.int64)
    h = GAMES[game].hole
    out = np.empty(deals.shape[0], np.int64)
    deal_categories_kernel(deals, combos_table(game, h, deals.shape[1] - h), out)
    return out


def _estimate(game: str, samples: int, seed: int, progress: bool) -> np.ndarray:
    from tqdm import tqdm

    counts = np.zeros(N_CATEGORIES, np.int64)
    for i in tqdm(range(-(-samples // CHUNK)), desc=f"estimate {game}", disable=not progress):
        m = min(CHUNK, samples - i * CHUNK)
        counts += np.bincount(deal_categories(game, sample_deals(game, m, seed, i)), minlength=N_CATEGORIES)
    return counts


def game_census(
    game: str, method: str = "exact", samples: int | None = None, seed: int | None = None, progress: bool = False
) -> GameCensus:
    """The census of ``game`` (:data:`~poker51.rulebook.games.CENSUS_GAMES`) by ``method``."""
    if game not in CENSUS_GAMES:
        raise InputError(f"no census for game {game!r} (choose from {', '.join(CENSUS_GAMES)})")
    if method == "exact":
        if game == "holdem":
            from poker51.rulebook.census import holdem_census

            counts = holdem_census()
        else:
            from poker51.rulebook.omaha_census import omaha_census

            counts = omaha_census(game, progress=progress)
        return GameCensus(game, deals_in_game(game), True, {CATEGORY_NAMES[c]: int(counts[c]) for c in BEST_FIRST})
    if method != "estimate":
        raise InputError(f"unknown census method {method!r} (exact or estimate)")
    if samples is None or samples < 1 or seed is None:
        raise InputError("an estimate needs samples (at least 1) and a seed")
    counts = _estimate(game, samples, seed, progress)
    names = {CATEGORY_NAMES[c]: int(counts[c]) for c in BEST_FIRST}
    ci = {k: wilson(v, samples) for k, v in names.items()}
    return GameCensus(game, samples, False, names, ci, seed)
