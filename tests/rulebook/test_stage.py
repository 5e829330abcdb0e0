"""The ``rulebook_census`` stage: table, claims and figure, reproducible byte for byte."""

from math import comb

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from poker51.census.count import census, counts_frame
from poker51.census.decks import named_deck
from poker51.io import TableError, read_metadata, write_parquet
from poker51.provenance import provenance
from poker51.rulebook.compare import COLUMNS, claims_markdown, comparison_table, poker51_census
from poker51.rulebook.estimate import GameCensus
from poker51.stages import rulebook_figure, run_rulebook_census


@pytest.fixture(scope="module")
def counts(tmp_path_factory):
    path = tmp_path_factory.mktemp("census") / "counts.parquet"
    write_parquet(counts_frame([census(named_deck("full52")), census(named_deck("standard"))]), path)
    return path


PARAMS = {"games": ["holdem", "omaha3"], "exact": ["holdem"], "samples": 20_000, "seed": 11}


def run(counts, out, threads=1, figure=True):
    out.mkdir(parents=True, exist_ok=True)
    run_rulebook_census(
        str(counts),
        str(out / "census.parquet"),
        str(out / "claims.md"),
        threads=threads,
        provenance=provenance("rulebook_census", {}, PARAMS, [str(counts)]),
        **PARAMS,
    )
    if figure:
        rulebook_figure(str(out / "census.parquet"), str(out / "figures" / "rulebook_census.pdf"))
    return [
        out / n for n in ("census.parquet", "claims.md", "figures/rulebook_census.pdf", "figures/rulebook_census.png")
    ]


@pytest.fixture(scope="module")
def outputs(counts, tmp_path_factory):
    """The stage run on one thread (and its figure drawn) and on two."""
    a = run(counts, tmp_path_factory.mktemp("a"), threads=1)
    return a, run(counts, tmp_path_factory.mktemp("b"), threads=2, figure=False)[:2]


def test_stage_outputs_round_trip_and_are_byte_identical_whatever_the_threads(outputs):
    a, b = outputs
    assert [p.read_bytes() for p in a[:2]] == [p.read_bytes() for p in b]  # the figure reads the table
    meta = read_metadata(a[0])
    assert meta["rule"] == "rulebook_census" and meta["seeds"] == {"rulebook_census.seed": 11}
    assert meta["config"] == PARAMS and len(meta["config_sha256"]) == 64
    assert set(meta["units"]) == {"hands", "count", "probability", "ci_low", "ci_high", "rarity_rank", "inversions",
                                  "undecided"}  # fmt: skip
    df = pd.read_parquet(a[0])
    assert list(df.columns) == COLUMNS and pq.read_table(a[0]).num_rows == len(df) == 4 * 10
    assert list(dict.fromkeys(df["game"])) == ["holdem", "omaha3", "standard", "full52"]
    assert meta["methods"] == {
        "holdem": "exact",
        "omaha3": "estimate",
        "standard": "exact",
        "full52": "exact",
    }
    assert a[2].read_bytes().startswith(b"%PDF") and a[3].read_bytes().startswith(b"\x89PNG")
    g = df.groupby("game", sort=False)
    assert (g["count"].sum() == g["hands"].first()).all()  # every hand in exactly one category
    std = df[df["game"] == "standard"].set_index("category")
    assert std.loc["royal_flush", "count"] == 4 and int(std["hands"].iloc[0]) == comb(51, 5)
    est = df[~df["exact"]]
    assert (est["ci_low"] <= est["probability"]).all() and (est["probability"] <= est["ci_high"]).all()


def test_claims_state_what_each_game_does_to_rarer_is_higher(outputs):
    text = outputs[0][1].read_text()
    # Hold'em's best five of seven: one pair and two pair are both more common than no pair
    assert "two pair is more common than high card; one pair is more common than high card" in text
    # five cards from 52 keep the promise; every number is in the table
    assert "Five cards from 52 (`full52`): 2,598,960 hands, exact" in text
    full = text.split("(`full52`)")[1]
    assert "Verdict: **holds**" in full


def test_inversions_are_counted_from_the_numbers():
    names = [
        "royal_flush",
        "straight_flush",
        "four_of_a_kind",
        "full_house",
        "flush",
        "straight",
        "three_of_a_kind",
        "two_pair",
        "one_pair",
        "high_card",
    ]
    counts = dict(zip(names, [1, 2, 3, 4, 5, 6, 7, 30, 40, 2]))  # high card rarer than all but the top two
    c = GameCensus("toy", sum(counts.values()), True, counts)
    df = comparison_table([c])
    assert df["inversions"].tolist() == [0, 0, 1, 1, 1, 1, 1, 1, 1, 0]
    assert df["rarity_rank"].tolist() == [1, 2, 4, 5, 6, 7, 8, 9, 10, 3]
    assert "Verdict: **breaks** in 7 of 10 categories" in claims_markdown(df)


def test_a_missing_poker51_deck_is_named(counts):
    frame = pd.read_parquet(counts)
    with pytest.raises(TableError, match="no deck 'bug'"):
        poker51_census(frame, "bug")
    assert poker51_census(frame, "full52").counts["royal_flush"] == 4
    assert np.isclose(sum(poker51_census(frame, "full52").counts.values()), comb(52, 5))
