"""The on-disk cache of built games: the same game as a build, keyed by everything that shapes it,
and a damaged entry rebuilt rather than trusted."""

from __future__ import annotations

import dataclasses
import logging
import pickle

import numpy as np
import pytest
from helpers import small_abstraction

from poker51.games.abstract import build_game
from poker51.games.cache import cached_game, game_key


def same_game(a, b) -> bool:
    pairs = zip(a.arrays, b.arrays, strict=True)
    fields_equal = all(x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y) for x, y in pairs)
    return a.name == b.name and fields_equal and a.iset_keys == b.iset_keys


@pytest.fixture(scope="module")
def ab():
    return small_abstraction()


@pytest.fixture(scope="module")
def built(ab):
    return build_game(ab)


def entries(folder):
    return sorted(p.name for p in folder.glob("*.pkl"))


def test_a_cached_game_is_the_built_game(ab, built, tmp_path):
    first = cached_game(ab, tmp_path)  # built and stored
    assert same_game(first, built)
    assert entries(tmp_path) == [f"game-{ab.variant}-{game_key(ab)[:20]}.pkl"]
    stored = (tmp_path / entries(tmp_path)[0]).stat().st_mtime_ns
    second = cached_game(ab, tmp_path)  # read back, not rebuilt
    assert same_game(second, built)
    assert (tmp_path / entries(tmp_path)[0]).stat().st_mtime_ns == stored
    assert second is not first


def test_no_cache_dir_builds(ab, built):
    assert same_game(cached_game(ab, None), built)


def test_the_key_follows_every_input(ab):
    key = game_key(ab)
    assert game_key(ab) == key  # deterministic
    assert game_key(ab, recall=True) != key
    nudged = ab.class_prob.copy()
    nudged[0] = np.nextafter(nudged[0], 1.0)  # one ulp
    assert game_key(dataclasses.replace(ab, class_prob=nudged)) != key
    assert game_key(dataclasses.replace(ab, r_draw=ab.r_draw.astype(np.int32))) != key  # dtype counts
    assert game_key(dataclasses.replace(ab, variant="wild")) != key


def test_a_new_key_replaces_the_variants_old_entry(ab, tmp_path):
    cached_game(ab, tmp_path)
    nudged = ab.class_prob.copy()
    nudged[0] = np.nextafter(nudged[0], 1.0)
    other = dataclasses.replace(ab, class_prob=nudged)
    cached_game(other, tmp_path)
    assert entries(tmp_path) == [f"game-{ab.variant}-{game_key(other)[:20]}.pkl"]


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda b: b[: len(b) // 2], id="truncated"),
        pytest.param(lambda b: b"", id="empty"),
        pytest.param(lambda b: b"not a pickle at all", id="garbage"),
        pytest.param(lambda b: pickle.dumps(("another key", None)), id="another key"),
        pytest.param(lambda b: pickle.dumps((pickle.loads(b)[0], "not a game")), id="not a game"),
        pytest.param(lambda b: pickle.dumps([1, 2, 3]), id="not a pair"),
    ],
)
def test_a_damaged_entry_is_named_and_rebuilt(ab, built, tmp_path, caplog, damage):
    cached_game(ab, tmp_path)
    path = tmp_path / entries(tmp_path)[0]
    path.write_bytes(damage(path.read_bytes()))
    with caplog.at_level(logging.WARNING, logger="poker51.games.cache"):
        game = cached_game(ab, tmp_path)
    assert same_game(game, built)
    assert str(path) in caplog.text and "rebuilding" in caplog.text
    assert same_game(cached_game(ab, tmp_path), built)  # the rebuilt entry was stored again
    assert entries(tmp_path) == [path.name]


def test_an_unwritable_cache_still_gives_the_game(ab, built, tmp_path, caplog):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder should be")
    with caplog.at_level(logging.WARNING, logger="poker51.games.cache"):
        game = cached_game(ab, blocker / "games")
    assert same_game(game, built)
    assert "could not store" in caplog.text
