"""The one-card removal figure shows only the categories that change (poker51.figures.census)."""

from __future__ import annotations

import numpy as np
import pytest

from poker51 import figures
from poker51.census.removal import removal_table
from poker51.figures.census import removal_changes


@pytest.fixture(scope="module")
def removal():
    return removal_table()


def test_only_changing_categories_are_drawn(removal):
    table, unchanged, by_rank = removal_changes(removal)
    # the five rank-multiplicity categories keep their probability exactly (integer check)
    assert unchanged == ["four_of_a_kind", "full_house", "three_of_a_kind", "two_pair", "one_pair"]
    assert by_rank  # suits are symmetric: the change depends on the removed rank only
    assert list(table.index) == ["straight flush", "flush", "straight", "high card"]
    assert table.shape == (4, 13) and (table.abs().to_numpy() > 0).all()
    # each cell is the table's relative change (percent) of the removed card of that rank
    straight = removal[removal["category"] == "straight"].set_index("card_id")["relative_change"]
    assert np.allclose(table.loc["straight"].to_numpy(), [100 * straight[4 * r] for r in range(13)])


def test_removal_figure_says_what_is_unchanged(removal):
    fig = figures.draw_removal(removal)
    ax = fig.axes[0]
    assert "Unchanged, exactly" in ax.get_xlabel() and "one pair" in ax.get_xlabel()
    assert len(ax.texts) == 4 * 13  # every cell prints its value
    image = ax.get_images()[0]
    lo, hi = image.norm.vmin, image.norm.vmax
    assert lo == -hi and hi > 0  # diverging, centred on zero
