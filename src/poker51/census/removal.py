"""The one-card removal table: for each of the 52 cards, the census of the deck without it
(rule card, "What removing one card does to the odds").
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pandas as pd

from poker51.cards import N_CARDS, card_str
from poker51.census.count import STANDARD_ORDER, census
from poker51.census.decks import NAMED_DECKS
from poker51.hands.evaluate import CATEGORIES


def removal_table() -> pd.DataFrame:
    """For each of the 52 cards, the census of the deck without it (ordinary reading).

    Counts come from one pass over the 52-card deck: hands without card x = all hands
    minus the hands holding x (``DeckCensus.by_card``).  ``relative_change`` is
    P(category | 51 cards) / P(category | 52 cards) - 1, computed as an exact fraction
    and then rounded to float.  Five of a kind (never dealt) is left out.
    """
    full = census(NAMED_DECKS["full52"], by_card=True)
    assert full.by_card is not None
    total = full.category_counts()
    hands51, hands52 = comb(51, 5), comb(52, 5)
    rows = []
    for card in range(N_CARDS):
        for cat in STANDARD_ORDER:
            if total[cat] == 0:
                continue
            n = int(total[cat] - full.by_card[card, cat])
            change = Fraction(n * hands52, int(total[cat]) * hands51) - 1
            rows.append(
                (
                    card_str(card),
                    card,
                    CATEGORIES[cat],
                    cat,
                    n,
                    hands51,
                    n / hands51,
                    int(total[cat]),
                    int(total[cat]) / hands52,
                    float(change),
                )
            )
    df = pd.DataFrame(
        rows,
        columns=[
            "card",
            "card_id",
            "category",
            "category_id",
            "count",
            "hands",
            "probability",
            "count_full52",
            "probability_full52",
            "relative_change",
        ],
    )
    df["card_id"] = df["card_id"].astype(np.int8)
    df["category_id"] = df["category_id"].astype(np.int8)
    return df.sort_values(["card_id", "category_id"], ascending=[True, False], kind="stable").reset_index(drop=True)
