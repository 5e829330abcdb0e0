"""Built abstract games kept on disk, so that the jobs of one run build each variant's game once.

Building the public tree of a variant (:func:`poker51.games.abstract.build_game`) is a Python
walk over its 20,966 nodes: about a second, which every solve, score and export job paid again
(33 solves per run, most of them warm-started frontier tables of a few seconds).  A cached game
loads in about a tenth of that.

An entry is the pickled :class:`~poker51.solver.tree.Game` under a name made of the variant
and a key: the SHA-256 of the abstraction arrays (every field, with dtype and shape), of
``recall``, and of the source of every module that shapes the built game (the solver package,
the abstract game, the rules).  A change to any of them is a new key, so an entry is never
used for a game it was not built from; the entries of a variant with another key are removed
when a new one is written.  An entry that cannot be read or is not the game of its key
(truncated, corrupted, written by another version) is logged with its path and rebuilt.
Entries are written to a temporary file and renamed, so two jobs building the same game at
once never leave half a file.  The cache holds nothing a result depends on: a run with an
empty cache, or none, produces the same bytes (``tests/games/test_cache.py``).
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import tempfile
from dataclasses import fields
from pathlib import Path

import numpy as np

from poker51.abstraction.tables import AbstractionArrays
from poker51.games.abstract import build_game
from poker51.solver.tree import Game

log = logging.getLogger("poker51.games.cache")

#: bump to retire every existing entry (a change in what an entry holds)
FORMAT = "poker51-game-cache/1"


def _sources() -> list[Path]:
    """The modules whose code shapes a built game: the solver package, the abstract game, the rules."""
    package = Path(__file__).resolve().parents[1]  # src/poker51
    return sorted((package / "solver").glob("*.py")) + [package / "games" / "abstract.py", package / "rules.py"]


def game_key(ab: AbstractionArrays, recall: bool = False) -> str:
    """The cache key of the game :func:`build_game` builds from ``ab`` (hex SHA-256)."""
    h = hashlib.sha256(f"{FORMAT} recall={bool(recall)}".encode())
    for f in fields(ab):
        value = getattr(ab, f.name)
        if isinstance(value, np.ndarray):
            x = np.ascontiguousarray(value)
            h.update(f"{f.name} {x.dtype.str} {x.shape}".encode())
            h.update(x.tobytes())
        else:
            h.update(f"{f.name} {value!r}".encode())
    for path in _sources():
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _entry(cache_dir: Path, variant: str, key: str) -> Path:
    return cache_dir / f"game-{variant}-{key[:20]}.pkl"


def _read(path: Path, key: str) -> Game | None:
    """The game in ``path`` if it is a readable entry of ``key``, else None (logged)."""
    try:
        with path.open("rb") as fh:
            stored_key, game = pickle.load(fh)
    except FileNotFoundError:
        return None
    except Exception as err:  # a damaged entry of any kind: rebuild it
        log.warning("%s: unreadable cached game (%s: %s); rebuilding it", path, type(err).__name__, err)
        return None
    if stored_key != key or not isinstance(game, Game):
        log.warning("%s: the cached game is not the game of its key; rebuilding it", path)
        return None
    return game


def _write(path: Path, key: str, game: Game, variant: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            pickle.dump((key, game), fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    for old in path.parent.glob(f"game-{variant}-*.pkl"):
        if old != path:  # the same variant from other abstraction arrays or other code
            old.unlink(missing_ok=True)


def cached_game(ab: AbstractionArrays, cache_dir: str | Path | None, recall: bool = False) -> Game:
    """:func:`build_game` of ``ab``, read from ``cache_dir`` when it holds it, else built and
    stored there; ``cache_dir=None`` builds without a cache."""
    if cache_dir is None:
        return build_game(ab, recall)
    key = game_key(ab, recall)
    path = _entry(Path(cache_dir), ab.variant, key)
    game = _read(path, key)
    if game is None:
        game = build_game(ab, recall)
        try:
            _write(path, key, game, ab.variant)
        except OSError as err:  # a full or read-only disk costs speed, not the job
            log.warning("%s: could not store the built game (%s); continuing without the cache", path, err)
    return game
