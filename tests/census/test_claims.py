"""The rule card's census claims (poker51.census.claims): every claim computed, stated numbers checked."""

import json

import pytest

import poker51.census.claims as C


@pytest.fixture(scope="module")
def claims():
    return C.claims_table()


def test_every_claim_is_computed_and_holds(claims):
    assert list(claims.columns) == ["claim_id", "claim", "computed", "stated", "verdict"]
    assert list(claims["claim_id"]) == list(C.STATED)
    assert set(claims["verdict"]) <= {"holds", "fails"}
    failing = claims.loc[claims["verdict"] != "holds", "claim_id"].tolist()
    assert failing == []
    for row in claims.itertuples():
        stated, computed = json.loads(row.stated), json.loads(row.computed)
        assert all(computed[k] == v for k, v in stated.items())


def test_claim_numbers(claims):
    got = {row.claim_id: json.loads(row.computed) for row in claims.itertuples()}
    assert got["wild_three_of_a_kind_vs_two_pair"]["three_of_a_kind"] == 125_664
    assert got["wild_swap"]["swapped_counts"] == {"two_pair": 187_704, "three_of_a_kind": 49_632}
    assert (got["bug_vs_ordinary"]["up"], got["bug_vs_ordinary"]["stay"], got["bug_vs_ordinary"]["down"]) == (
        69_277,
        138_728,
        41_895,
    )
    assert got["club_any_full_house_vs_flush"]["with_marker"] == {"full_house": 3_294, "flush": 461}
    assert got["relative_changes"]["exact"]["straight"] == "12/235"


def test_verdict_is_computed_not_assumed(monkeypatch):
    stated = {k: dict(v) for k, v in C.STATED.items()}
    stated["bug_vs_ordinary"] = {
        **stated["bug_vs_ordinary"],
        "stated": {**C.STATED["bug_vs_ordinary"]["stated"], "down": 41_896},
    }
    monkeypatch.setattr(C, "STATED", stated)
    table = C.claims_table().set_index("claim_id")
    assert table.loc["bug_vs_ordinary", "verdict"] == "fails"
    assert table.loc["wild_swap", "verdict"] == "holds"


def test_claims_markdown(claims):
    md = C.claims_markdown(claims)
    assert md.startswith("# Census claims") and md.count("\n| ") == len(claims) + 1
    assert f"{len(claims)} of {len(claims)} claims hold" in md
