"""Population types: valid behaviour strategies that follow their parameters."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import numpy as np
import pytest
import yaml
from helpers import small_abstraction

from poker51.errors import ConfigError
from poker51.games.abstract import FIRST_ACTIONS, build_game
from poker51.games.population import DRAW_RULES, PlayerType, load_population, population_policies, type_policy
from poker51.rules import BET_SIZES
from poker51.validation import POPULATION_SCHEMA

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


def _edited(tmp_path, path, value):
    """config/population.yaml with the key at ``path`` set to ``value`` (deleted if None), as a file."""
    cfg = copy.deepcopy(CFG)
    node = cfg
    for p in path[:-1]:
        node = node[p]
    if value is None:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    out = tmp_path / "population.yaml"
    out.write_text(yaml.safe_dump(cfg))
    return out


@pytest.mark.parametrize(
    "path,value,message",
    [
        (("types", "rock", "call"), 1.5, "types.rock.call: 1.5 is above the maximum 1"),
        (("types", "maniac", "open", "size"), 3, "types.maniac.open.size: 3 is not one of 1, 2, 4, 8"),
        (("types", "regular", "draw"), "always", "types.regular.draw: 'always' is not one of house, keep_kicker"),
        (("types", "rock", "softness"), -0.1, "types.rock.softness: -0.1 is below the minimum 0"),
        (("types", "rock", "raise"), None, "types.rock: missing key 'raise'"),
        (("types", "rock", "call"), "high", "types.rock.call: expected number, got 'high'"),
        (
            ("types", "rock", "softnes"),
            0.03,
            "types.rock.softnes: unknown key (did you mean 'softness'?; expected: call, draw, open, raise, softness)",
        ),
        (("weight",), {"rock": 1}, "weight: unknown key (did you mean 'weights'?; expected: types, weights)"),
        (("weights", "rock"), None, "weights: keys ['calling_station', 'maniac', 'regular'] must be the types"),
        (("weights", "rock"), -1, "weights.rock: -1 is below the minimum 0"),
    ],
)
def test_bad_config_is_one_line_naming_the_file_and_key(tmp_path, path, value, message):
    bad = _edited(tmp_path, path, value)
    with pytest.raises(ConfigError) as info:
        load_population(bad)
    text = str(info.value)
    assert text.startswith(f"{bad}: {message}") and "\n" not in text


def test_a_typo_is_refused_not_read_as_zero(tmp_path):
    """The issue's case: ``softnes:`` used to load silently as softness 0."""
    bad = _edited(tmp_path, ("types", "calling_station", "softnes"), 0.04)
    del_key = yaml.safe_load(bad.read_text())
    del del_key["types"]["calling_station"]["softness"]
    bad.write_text(yaml.safe_dump(del_key))
    with pytest.raises(ConfigError, match=r"types\.calling_station\.softnes: unknown key"):
        load_population(bad)


def test_missing_and_malformed_files(tmp_path):
    with pytest.raises(ConfigError, match=f"^{re.escape(str(tmp_path))}/none.yaml: no such population file$"):
        load_population(tmp_path / "none.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("weights: [\n")
    with pytest.raises(ConfigError, match=f"^{re.escape(str(bad))}: line 2, column 1: not valid YAML"):
        load_population(bad)
    bad.write_text("- just\n- a list\n")
    with pytest.raises(ConfigError, match=f"^{re.escape(str(bad))}: \\(top level\\): expected object, got"):
        load_population(bad)


def test_defaults_are_filled_and_the_dict_is_not_changed():
    cfg = copy.deepcopy(CFG)
    del cfg["types"]["rock"]["softness"]
    pop = load_population(cfg)
    assert pop.types[pop.names.index("rock")].softness == 0.0 and "softness" not in cfg["types"]["rock"]


def test_schema_lists_what_the_code_reads():
    """The schema's enums are the draw rules and bet sizes the code implements."""
    schema = yaml.safe_load(POPULATION_SCHEMA.read_text())
    player = schema["properties"]["types"]["additionalProperties"]["properties"]
    assert player["draw"]["enum"] == list(DRAW_RULES)
    assert player["open"]["properties"]["size"]["enum"] == list(BET_SIZES)
    assert POPULATION_SCHEMA.resolve() == (Path(__file__).parents[2] / "workflow/schemas/population.schema.yaml")
