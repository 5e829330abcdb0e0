"""Hold-out types: the config is validated like the population's, the hand levels and the
chaser's keeps are right, and every type plays legal hands on every variant."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from poker51.cards import parse_cards
from poker51.errors import ConfigError
from poker51.play.engine import play_match
from poker51.policies.holdout import (
    LEVELS,
    HoldoutPlayer,
    V05Human,
    chase_keep,
    hand_level,
    holdout_player,
    load_holdout,
)
from poker51.policies.v05 import V05Player, post_draw_read, when_checked_to
from poker51.realcard.evidence import built_tables

ROOT = Path(__file__).resolve().parents[2]
HOLDOUT = ROOT / "config" / "holdout.yaml"


def test_the_shipped_types():
    types = load_holdout(HOLDOUT)
    assert [t.name for t in types] == ["tight_passive", "loose_aggressive", "draw_chaser", "v05_mirror"]
    assert [t.kind for t in types] == ["rules", "rules", "rules", "v05"]
    tp = types[0]
    assert tp.pre is not None and tp.pre.raise_ == len(LEVELS) and tp.pre.call == LEVELS.index("pair_J")
    assert types[2].draw == "chase" and types[1].size == 8 and types[1].bluff == 0.3


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda c: c["types"]["tight_passive"]["pre"].update(call="pair_1"), "types.tight_passive.pre.call"),
        (lambda c: c["types"]["loose_aggressive"].update(size=3), "types.loose_aggressive.size"),
        (lambda c: c["types"]["draw_chaser"].pop("draw"), "missing key 'draw'"),
        (lambda c: c["types"]["draw_chaser"].update(bluff=1.5), "types.draw_chaser.bluff"),
        (lambda c: c["types"]["v05_mirror"].update(size=2), "unknown key 'size' for kind v05"),
        (lambda c: c["types"]["tight_passive"].update(kind="robot"), "types.tight_passive.kind"),
        (lambda c: c["types"]["tight_passive"]["post"].pop("raise"), "types.tight_passive.post"),
        (lambda c: c.update(weights={}), "needs exactly one key"),
    ],
)
def test_a_bad_config_names_the_key_and_the_file(tmp_path, edit, message):
    cfg = yaml.safe_load(HOLDOUT.read_text())
    edit(cfg)
    path = tmp_path / "holdout.yaml"
    path.write_text(yaml.safe_dump(cfg))
    with pytest.raises(ConfigError, match=message) as err:
        load_holdout(path)
    assert str(path) in str(err.value)
    with pytest.raises(ConfigError, match="missing.yaml: no such hold-out types file"):
        load_holdout(tmp_path / "missing.yaml")
    (tmp_path / "bad.yaml").write_text("types: [")
    with pytest.raises(ConfigError, match=r"bad.yaml: line 1, column \d+: not valid YAML"):
        load_holdout(tmp_path / "bad.yaml")


@pytest.mark.parametrize(
    "cards, variant, before, after",
    [
        ("Ah Kd 7c 5s 3h", "standard", "high_card", "high_card"),
        ("5c 6d 8h 9s Kd", "standard", "straight_draw", "high_card"),
        ("Ac 2d 3h 4s 9d", "standard", "straight_draw", "high_card"),  # the wheel draw
        ("2h 3h 4h 5h Kd", "standard", "flush_draw", "high_card"),
        ("9h 9d Th Jh Qh", "standard", "pair_9", "pair_9"),
        ("Ah Ad Kc Ks 2d", "standard", "two_pair", "two_pair"),
        ("2c 9h 9d 4s Jc", "wild", "three_of_a_kind", "three_of_a_kind"),  # the marker reads at its best
        ("2c Kd Kh Ks Kc", "wild", "four_of_a_kind", "four_of_a_kind"),
        ("2c 3d 6s 9h Qc", "bug", "high_card", "high_card"),  # I reads as the ace: ace-high
    ],
)
def test_hand_levels(cards, variant, before, after):
    hand = parse_cards(cards)
    assert LEVELS[hand_level(hand, variant, before_draw=True)] == before
    assert LEVELS[hand_level(hand, variant, before_draw=False)] == after


def test_chase_keeps():
    assert chase_keep(parse_cards("9h 9d Th Jh Qh"), "standard") == 0b11101  # breaks the nines
    assert chase_keep(parse_cards("5c 6d 8h 9s Kd"), "standard") == 0b01111  # inside straight
    assert chase_keep(parse_cards("Ac 2d 3h 4s 9d"), "standard") == 0b01111  # the wheel
    assert chase_keep(parse_cards("Ks Kd 7h 4c 2d"), "standard") == 0b00011  # no draw: the House rule
    assert chase_keep(parse_cards("7s 7d 9h 9c Ad"), "standard") == 0b01111  # two pair: the House rule
    assert chase_keep(parse_cards("2c 5h 6h 7h 8h"), "wild") == 0b11111  # a marker hand: the House rule


def test_rule_players_follow_their_levels():
    tight = load_holdout(HOLDOUT)[0]
    player = HoldoutPlayer(tight, "standard", 3)
    assert player.htype.pre is not None and player.htype.pre.open == LEVELS.index("three_of_a_kind")
    with pytest.raises(ValueError):
        HoldoutPlayer(load_holdout(HOLDOUT)[3], "standard", 3)


# wild and bug build their abstractions (about 20 s each): `make slow`
@pytest.mark.parametrize(
    "variant", ["standard", pytest.param("wild", marks=pytest.mark.slow), pytest.param("bug", marks=pytest.mark.slow)]
)
def test_every_type_plays_legal_reproducible_hands(variant):
    tables = built_tables(variant)
    riemann = V05Player.from_tables(variant, tables)
    for i, t in enumerate(load_holdout(HOLDOUT)):
        a = play_match({"H": holdout_player(t, variant, tables, 10 + i), "R": riemann}, 60, 4, variant)
        b = play_match({"H": holdout_player(t, variant, tables, 10 + i), "R": riemann}, 60, 4, variant)
        assert [r.log for r in a] == [r.log for r in b]
        assert all(sum(r.net.values()) == 0 for r in a)
        nets = np.array([r.net["H"] for r in a])
        assert nets.any()  # money changes hands


def test_the_v05_mirror_reads_against_riemanns_draw():
    tables = built_tables("standard")
    human = V05Human("standard", tables.belief_array())
    res = play_match({"H": human, "R": V05Player.from_tables("standard", tables)}, 40, 8, "standard")
    for r in res:
        assert r.reason in ("fold", "showdown")
    # its opening after the draw is v0.5's rule when checked to, on the read against Riemann's row
    hand = parse_cards("As Ah Ad 9c 9d")
    read = post_draw_read(hand, 2, tables.belief_array(), "standard")
    assert read >= 0.7 and when_checked_to(read, 0.0)[1] == 1.0
