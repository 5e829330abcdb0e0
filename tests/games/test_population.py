"""Population types: valid behaviour strategies that follow their parameters."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import yaml
from helpers import small_abstraction

from poker51.errors import InputError
from poker51.games.abstract import FIRST_ACTIONS, build_game
from poker51.games.population import PlayerType, load_population, population_policies, type_policy

CFG = yaml.safe_load(open("config/population.yaml"))


@pytest.fixture(scope="module")
def tiny():
    ab = small_abstraction()
    return ab, build_game(ab)


def test_config_loads_with_weights():
    pop = load_population("config/population.yaml")
    assert pop.names == ["calling_station", "rock", "maniac", "regular"]
    assert pop.weights.sum() == pytest.approx(1.0)


def test_policies_are_distributions(tiny):
    ab, game = tiny
    a = game.arrays
    for pol in population_policies(game, ab, load_population(CFG)):
        sums = np.add.reduceat(pol, a.act_off[:-1])
        assert np.allclose(sums, 1.0, atol=1e-12) and pol.min() >= 0


def test_type_follows_parameters(tiny):
    ab, game = tiny
    sharp = PlayerType("t", "house", open_value=0.5, open_size=4, bluff=0.0, call=0.3, raise_=0.9, softness=0.0)
    pol = type_policy(game, ab, sharp)
    a = game.arrays
    for i, (p, key) in enumerate(game.iset_keys):
        if p != 0:
            continue
        probs = pol[a.act_off[i] : a.act_off[i + 1]]
        _, street, d, k, pre, post, state = key
        if street == 1 and post == "":
            s = (state + 0.5) / ab.n_buckets
            expect = np.zeros(5)
            expect[3 if s >= 0.5 else 0] = 1.0  # b4 or check
            assert np.array_equal(probs, expect), key
        if street == 0 and d < 0:
            hd = int(ab.r_draw[state])
            nz = np.flatnonzero(probs)
            assert len(nz) == 1 and FIRST_ACTIONS[nz[0]][0] == hd and FIRST_ACTIONS[nz[0]][1] in ("x", "b4")
        if street == 1 and post.endswith("r"):
            s = (state + 0.5) / ab.n_buckets
            assert probs[2] == (1.0 if s >= 0.9 else 0.0)
            assert probs[1] == (1.0 if 0.3 <= s < 0.9 else 0.0)


def test_keep_kicker_draws_one_fewer():
    t = PlayerType("t", "keep_kicker", 0.5, 1, 0.0, 0.3, 0.9, 0.0)
    assert [t.draw_count(d) for d in range(5)] == [0, 1, 2, 2, 3]


@pytest.mark.parametrize(
    "path,value,needle",
    [
        (("types", "rock", "call"), 1.5, "population.types.rock.call"),
        (("types", "maniac", "open", "size"), 3, "population.types.maniac.open.size"),
        (("types", "regular", "draw"), "always", "population.types.regular.draw"),
        (("weights", "rock"), None, "population.weights"),
    ],
)
def test_bad_config_names_the_key(path, value, needle):
    cfg = copy.deepcopy(CFG)
    node = cfg
    for p in path[:-1]:
        node = node[p]
    if value is None:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    with pytest.raises(InputError, match=needle.replace(".", r"\.")):
        load_population(cfg)
