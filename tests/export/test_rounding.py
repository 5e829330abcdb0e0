"""The compact JSON's rounding: exact changed shares, and the exhaustive pre-draw count checked
against the plain recipe (FNV-1a of Riemann's byte string, choose_action) hand by hand."""

from __future__ import annotations

import json

import numpy as np
import pytest
from helpers import solved_standard

from poker51.abstraction.classes import class_key_array, hand_table
from poker51.export.compact import changed_segments, changed_share, rounded_frame, to_json
from poker51.export.rounding import hands_per_row, predraw_changes, rounding_report
from poker51.export.schema import ACTION_COLUMNS
from poker51.fnv import fnv1a_64
from poker51.policies.riemann import PublicState, choose_action, hash_bytes


@pytest.fixture(scope="module")
def solved():
    return solved_standard()


def test_changed_share_is_exact_on_hand_made_rows():
    P = np.array([[0.2, 0.5, 0.3, 0, 0], [0, 0, 0, 0.4, 0.6], [0, 0, 0, 1.0, 0]])
    Q = np.array([[0.25, 0.5, 0.25, 0, 0], [0, 0, 0, 0.4, 0.6], [0, 0, 0, 0.5, 0.5]])
    assert changed_share(P, Q).round(12).tolist() == [0.1, 0.0, 0.5]  # |0.2-0.25| + |0.7-0.75|
    assert changed_segments(P[0], Q[0]) == [(0.2, 0.25), (0.7, 0.75)]
    assert changed_segments(P[2], Q[2]) == [(0.5, 1.0)]
    # the fallback: a last action rounded away gives its share to the one before it
    tiny = 2.0**-40
    assert changed_segments(np.array([0.5, 0.25 - tiny, tiny, 0, 0]), np.array([0.5, 0.25, 0, 0, 0])) == [
        (0.75 - tiny, 1.0)
    ]


def test_predraw_count_equals_the_plain_recipe(solved):
    df, classes = solved.df, solved.tables.classes
    ht = hand_table("standard")
    assert predraw_changes(df, rounded_frame(df), classes, "standard") == {
        "predraw_decisions": 50 * 2_349_060,
        "predraw_changed": 0,
    }
    # move a row of the rarest class (four of a kind or better) at one spot; count by hand
    c = int(classes.sort_values("members")["class"].iloc[0])
    r = int(df.index[(df["street"] == 0) & (df["class"] == c) & (df["pre_line"] == "b4") & (df["h_draw"] == 2)][0])
    moved = df.copy()
    moved.loc[r, ["fold", "call", "raise"]] = [0.6, 0.1, 0.3]
    keys = class_key_array(ht.base, ht.marker, ht.house_draw)
    row = classes[classes["class"] == c].iloc[0]
    members = ht.hands[keys == class_key_array(row["base"], row["marker"], row["house_draw"])].tolist()
    assert len(members) == int(row["members"])
    s = PublicState(0, 2, -1, "b4", "")
    old, new = tuple(df.loc[r, list(ACTION_COLUMNS)]), tuple(moved.loc[r, list(ACTION_COLUMNS)])
    us = [fnv1a_64(hash_bytes(h, s)) / 2**64 for h in members]
    by_hand = sum(choose_action(old, u) != choose_action(new, u) for u in us)
    assert by_hand > 0
    assert predraw_changes(df, moved, classes, "standard")["predraw_changed"] == by_hand


def test_json_header_reports_the_rounding(solved, tmp_path):
    df, t = solved.df, solved.tables
    report = rounding_report(t.classes, t.buckets, "standard")
    head = json.loads(to_json(df, tmp_path / "t.json", {"variant": "standard"}, report).read_text())["rounding"]
    hands = hands_per_row(df, t.classes, t.buckets, "standard")
    assert head["decisions"] == int(hands.sum()) == 50 * 2_349_060 + 3750 * 2_349_060
    assert head["predraw_changed"] == 0 and head["predraw_decisions"] == 50 * 2_349_060
    assert 0 < head["expected_changed_decisions"] < 0.1 and 0 < head["max_decision_change"] <= 1.5e-11
