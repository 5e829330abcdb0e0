"""Every game's census, exact or seeded (``poker51 census --game``, the ``rulebook_census`` stage).

:func:`game_census` returns a :class:`GameCensus`: for Hold'em the exact counts over all
``C(52, 7)`` seven-card sets (:func:`poker51.rulebook.census.holdem_census`); for the Omahas
the exact counts over every deal (:func:`poker51.rulebook.omaha_census.omaha_census`), or,
when asked, a seeded estimate: ``samples`` random deals (hole cards then board, a partial
Fisher-Yates shuffle per deal) drawn in chunks of :data:`CHUNK`, chunk ``i`` from
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

from poker51.errors import InputError
from poker51.rulebook.games import BEST_FIRST, CATEGORY_NAMES, CENSUS_GAMES, GAMES, N_CATEGORIES
from poker51.rulebook.reading import best_strengths

__all__ = ["CHUNK", "GameCensus", "deals_in_game", "game_census", "sample_deals", "wilson"]

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


def sample_deals(game: str, n: int, seed: int, chunk_index: int) -> np.ndarray:
    """``n`` seeded deals ``(n, hole + 5)`` (hole cards first) of chunk ``chunk_index``."""
    k = GAMES[game].hole + 5
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(chunk_index,)))
    deck = np.tile(np.arange(52, dtype=np.int64), (n, 1))
    rows = np.arange(n)
    for i in range(k):
        j = i + rng.integers(0, 52 - i, size=n)
        a, b = deck[rows, i].copy(), deck[rows, j]
        deck[rows, i] = b
        deck[rows, j] = a
    return deck[:, :k]


def _estimate(game: str, samples: int, seed: int, progress: bool) -> np.ndarray:
    from tqdm import tqdm

    from poker51.rulebook.reading import category_of

    h = GAMES[game].hole
    counts = np.zeros(N_CATEGORIES, np.int64)
    cat = np.vectorize(category_of, otypes=[np.int64])
    for i in tqdm(range(-(-samples // CHUNK)), desc=f"estimate {game}", disable=not progress):
        m = min(CHUNK, samples - i * CHUNK)
        deals = sample_deals(game, m, seed, i)
        s = best_strengths(game, deals[:, :h], deals[:, h:])
        counts += np.bincount(cat(s), minlength=N_CATEGORIES)
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
