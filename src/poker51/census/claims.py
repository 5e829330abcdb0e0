"""The rule card's census claims, each stated number checked against the enumeration.

:data:`STATED` quotes every census claim of the rule card (v0.6: "What removing one
card does to the odds", "Exact counts over every hand" and the Status table) with the
numbers it states; it is the only place the card's numbers appear.
:func:`claims_table` recomputes each claim from the exact census of the named decks
(:mod:`poker51.census.count`) and the order searches (:mod:`poker51.census.orders`), and gives it the
verdict "holds" only when every stated number equals the computed one;
:func:`claims_markdown` renders the table for ``results/census/claims.md``.

>>> list(STATED)[:2]
['hand_totals', 'five_categories_keep_probability']
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pandas as pd

from poker51.cards import RANK_CHARS, cards_str, parse_cards
from poker51.census.count import (
    N_MASKS,
    NATURAL_PATTERNS,
    RANK_MULTIPLICITY,
    STANDARD_ORDER,
    TOP,
    DeckCensus,
    category_names,
    census,
    reach_mask,
)
from poker51.census.decks import NAMED_DECKS
from poker51.census.orders import deck_orders, order_counts
from poker51.hands.evaluate import (
    CATEGORIES,
    FIVE_OF_A_KIND,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    RULE_BUG,
    RULE_ORDINARY,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    strength,
)
from poker51.io import canonical_json

_FIVE = [CATEGORIES[c] for c in STANDARD_ORDER if c in RANK_MULTIPLICITY]
_STD9 = [CATEGORIES[c] for c in STANDARD_ORDER if c != FIVE_OF_A_KIND]

#: The census claims of the rule card (v0.6: "What removing one card does to the odds",
#: "Exact counts over every hand" and the Status table), with the numbers it states.
#: This is the only place the card's numbers appear; everything else is enumerated.
STATED: dict[str, dict] = {
    "hand_totals": {
        "claim": "The exact counts over all C(52,5) = 2,598,960 and C(51,5) = 2,349,060 hands.",
        "stated": {"full52": 2_598_960, "standard": 2_349_060},
    },
    "five_categories_keep_probability": {
        "claim": "One pair, two pair, three of a kind, full house and four of a kind keep their "
        "52-card probability exactly on 51 cards.",
        "stated": {"invariant_categories": _FIVE},
    },
    "every_card_same_share": {
        "claim": "Every card lies in the same share of those five categories' hands, five in fifty-two.",
        "stated": {"cards_with_share_5_in_52": 52},
    },
    "straights_lose_one_twentieth": {
        "claim": "Exactly 1/20 of straights and straight flushes are lost; the deck lost 9.6% of all hands.",
        "stated": {"categories_losing_exactly_1_20": ["straight_flush", "straight"], "hands_lost_percent_1dp": 9.6},
    },
    "relative_changes": {
        "claim": "Straights and straight flushes become about 5.11% more likely; flush and high card "
        "probabilities fall by about 0.03999% relative to their 52-card values.",
        "stated": {
            "straight_percent_2dp": 5.11,
            "straight_flush_percent_2dp": 5.11,
            "flush_percent_5dp": -0.03999,
            "high_card_percent_5dp": -0.03999,
        },
    },
    "four_categories_move": {
        "claim": "A player using memorised 52-card odds is wrong on exactly four categories and right on five.",
        "stated": {"changed_categories": ["straight_flush", "flush", "straight", "high_card"]},
    },
    "marker_hands": {
        "claim": "Each variant counts C(52,5) = 2,598,960 hands, of which 249,900 hold I.",
        "stated": {
            "wild": {"hands": 2_598_960, "with_marker": 249_900},
            "bug": {"hands": 2_598_960, "with_marker": 249_900},
        },
    },
    "wild_three_of_a_kind_vs_two_pair": {
        "claim": "Wild I, standard order: three of a kind (125,664 hands) is more common than two pair (111,672).",
        "stated": {"three_of_a_kind": 125_664, "two_pair": 111_672, "three_of_a_kind_more_common": True},
    },
    "wild_swap": {
        "claim": "Reversing three of a kind and two pair sends 76,032 hands with one natural pair to two pair, "
        "making two pair more common instead.",
        "stated": {
            "movers": 76_032,
            "movers_by_natural_pattern": {"one_pair": 76_032},
            "two_pair_more_common_after_swap": True,
        },
    },
    "wild_no_consistent_order": {
        "claim": "Wild I has no category order in which every higher category is rarer, even allowing equal "
        "frequencies; all 3,628,800 orders searched.",
        "stated": {"orders": 3_628_800, "consistent_strict": 0, "consistent_with_ties": 0},
    },
    "bug_one_consistent_order": {
        "claim": "The bug: of all 3,628,800 orders only the standard one (with five aces on top) ranks rarer "
        "categories higher.",
        "stated": {
            "orders": 3_628_800,
            "consistent_strict": 1,
            "strict_orders": [[CATEGORIES[c] for c in STANDARD_ORDER]],
        },
    },
    "bug_vs_ordinary": {
        "claim": "Compared with reading I as ordinary 2c, 69,277 of the 249,900 bug marker hands move up a "
        "category, 138,728 stay and 41,895 move down.",
        "stated": {"marker_hands": 249_900, "up": 69_277, "stay": 138_728, "down": 41_895},
    },
    "bug_example": {
        "claim": "I, 2d, 6s, 9h, Qc changes from a pair of twos to ace-high under the bug.",
        "stated": {"ordinary": "one_pair", "ordinary_top_rank": "2", "bug": "high_card", "bug_top_rank": "A"},
    },
    "suit_two_exact_counts": {
        "claim": "I as a two of any suit keeps one pair, two pair, three of a kind, full house and four of a "
        "kind at their exact 52-card counts.",
        "stated": {"exact_categories": _FIVE},
    },
    "suit_two_changes": {
        "claim": "Only 1,479 high-card hands become flushes, and 6 straights become straight flushes.",
        "stated": {"changes": {"high_card->flush": 1_479, "straight->straight_flush": 6}},
    },
    "suit_two_one_consistent_order": {
        "claim": "Status table: I any suit admits only the standard rarity-consistent category order (362,880 orders).",
        "stated": {"orders": 362_880, "consistent_strict": 1, "strict_orders": [_STD9]},
    },
    "club_any_full_house_vs_flush": {
        "claim": "I as a club of any rank makes full houses (6,678) more common than flushes (5,076).",
        "stated": {"full_house": 6_678, "flush": 5_076, "full_house_more_common": True},
    },
    "club_any_one_consistent_order": {
        "claim": "I as a club of any rank: of all 362,880 orderings exactly one is consistent, the standard one "
        "with flush above full house.",
        "stated": {
            "orders": 362_880,
            "consistent_strict": 1,
            "strict_orders": [
                [
                    "straight_flush",
                    "four_of_a_kind",
                    "flush",
                    "full_house",
                    "straight",
                    "three_of_a_kind",
                    "two_pair",
                    "one_pair",
                    "high_card",
                ]
            ],
        },
    },
}


def _by_name(counts: np.ndarray) -> dict[str, int]:
    return {CATEGORIES[c]: int(counts[c]) for c in STANDARD_ORDER}


def _computed_claims() -> dict[str, dict]:
    """Every claim's numbers, from the enumeration only."""
    res = {name: census(deck) for name, deck in NAMED_DECKS.items()}
    out: dict[str, dict] = {"hand_totals": {name: r.hands for name, r in res.items()}}
    for part in (_removal_claims, _marker_claims, _wild_claims, _order_claims, _bug_claims, _suit_claims):
        out.update(part(res))
    return out


def _removal_claims(res: dict[str, DeckCensus]) -> dict[str, dict]:
    """What removing the marker does: five categories keep their probability, straights lose 1/20."""
    c52, c51 = res["full52"].category_counts(), res["standard"].category_counts()
    h52, h51 = res["full52"].hands, res["standard"].hands
    out: dict[str, dict] = {}
    present = [c for c in STANDARD_ORDER if c52[c] > 0]
    cross = {
        CATEGORIES[c]: {
            "count52": int(c52[c]),
            "count51": int(c51[c]),
            "count51_x_hands52": int(c51[c]) * h52,
            "count52_x_hands51": int(c52[c]) * h51,
        }
        for c in present
    }
    out["five_categories_keep_probability"] = {
        "invariant_categories": [CATEGORIES[c] for c in present if int(c51[c]) * h52 == int(c52[c]) * h51],
        "cross_products": cross,
    }

    full = census(NAMED_DECKS["full52"], by_card=True)
    five = list(RANK_MULTIPLICITY)
    five_total = int(c52[five].sum())
    assert full.by_card is not None
    holding = full.by_card[:, five].sum(axis=1)
    out["every_card_same_share"] = {
        "cards_with_share_5_in_52": int(np.sum(holding * 52 == five_total * 5)),
        "five_category_hands": five_total,
        "holding_each_card": sorted({int(x) for x in holding}),
    }

    lost = Fraction(h52 - h51, h52)
    out["straights_lose_one_twentieth"] = {
        "categories_losing_exactly_1_20": [CATEGORIES[c] for c in present if 20 * int(c52[c] - c51[c]) == int(c52[c])],
        "lost": {CATEGORIES[c]: f"{Fraction(int(c52[c] - c51[c]), int(c52[c]))}" for c in present},
        "hands_lost": f"{lost}",
        "hands_lost_percent_1dp": round(float(lost * 100), 1),
    }

    change = {c: Fraction(int(c51[c]) * h52, int(c52[c]) * h51) - 1 for c in present}
    pct = {c: float(change[c] * 100) for c in present}
    out["relative_changes"] = {
        "straight_percent_2dp": round(pct[STRAIGHT], 2),
        "straight_flush_percent_2dp": round(pct[STRAIGHT_FLUSH], 2),
        "flush_percent_5dp": round(pct[FLUSH], 5),
        "high_card_percent_5dp": round(pct[HIGH_CARD], 5),
        "exact": {CATEGORIES[c]: f"{change[c]}" for c in present},
        "percent": {CATEGORIES[c]: pct[c] for c in present},
    }
    out["four_categories_move"] = {"changed_categories": [CATEGORIES[c] for c in present if change[c] != 0]}

    return out


def _marker_claims(res: dict[str, DeckCensus]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    out["marker_hands"] = {
        name: {"hands": res[name].hands, "with_marker": int(res[name].counts[1].sum())}
        for name in ("wild", "bug", "suit_two", "club_any")
    }

    return out


def _wild_claims(res: dict[str, DeckCensus]) -> dict[str, dict]:
    """Wild I: three of a kind against two pair, and the hands that move when they swap."""
    out: dict[str, dict] = {}
    wild = res["wild"]
    w = wild.category_counts()
    out["wild_three_of_a_kind_vs_two_pair"] = {
        "three_of_a_kind": int(w[THREE_OF_A_KIND]),
        "two_pair": int(w[TWO_PAIR]),
        "three_of_a_kind_more_common": bool(w[THREE_OF_A_KIND] > w[TWO_PAIR]),
    }
    swapped = list(STANDARD_ORDER)
    i, j = swapped.index(THREE_OF_A_KIND), swapped.index(TWO_PAIR)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    recount = order_counts(wild.mask_counts(), swapped)
    by_pattern = wild.reach.sum(axis=(0, 2))  # (pattern, mask)
    movers: dict[str, int] = {}
    for mask in range(N_MASKS):
        if TOP[mask] == THREE_OF_A_KIND and mask >> TWO_PAIR & 1:
            for p, name in enumerate(NATURAL_PATTERNS):
                if by_pattern[p, mask]:
                    movers[name] = movers.get(name, 0) + int(by_pattern[p, mask])
    out["wild_swap"] = {
        "movers": int(w[THREE_OF_A_KIND]) - recount[THREE_OF_A_KIND],
        "movers_by_natural_pattern": movers,
        "swapped_counts": {"two_pair": recount[TWO_PAIR], "three_of_a_kind": recount[THREE_OF_A_KIND]},
        "two_pair_more_common_after_swap": recount[TWO_PAIR] > recount[THREE_OF_A_KIND],
    }

    return out


def _order_claims(res: dict[str, DeckCensus]) -> dict[str, dict]:
    """The rarity-consistent category orders of each marker deck."""
    out: dict[str, dict] = {}
    for key, name in (
        ("wild_no_consistent_order", "wild"),
        ("bug_one_consistent_order", "bug"),
        ("suit_two_one_consistent_order", "suit_two"),
        ("club_any_one_consistent_order", "club_any"),
    ):
        s = deck_orders(res[name])
        out[key] = {
            "orders": s.n_orders,
            "categories": category_names(sorted(s.categories, reverse=True)),
            "consistent_strict": s.n_strict,
            "consistent_with_ties": s.n_ties,
            "strict_orders": [category_names(o) for o in s.strict_orders],
            "ties_orders": [category_names(o) for o in s.ties_orders],
        }

    return out


def _bug_claims(res: dict[str, DeckCensus]) -> dict[str, dict]:
    """The bug against reading I as the ordinary 2c, and the card's example hand."""
    out: dict[str, dict] = {}
    bug = res["bug"]
    trans = bug.transitions()
    down_by_twos = {}
    per_same = bug.reach.sum(axis=1)  # (same rank, ordinary, mask)
    for k in range(per_same.shape[0]):
        n = 0
        for mask in np.flatnonzero(per_same[k].sum(axis=0)):
            n += int(per_same[k, TOP[mask] + 1 :, mask].sum())
        down_by_twos[str(k)] = n
    out["bug_vs_ordinary"] = {
        "marker_hands": int(trans.sum()),
        "up": int(np.triu(trans, 1).sum()),
        "stay": int(np.trace(trans)),
        "down": int(np.tril(trans, -1).sum()),
        "down_by_natural_twos": down_by_twos,
    }

    hand = parse_cards("2c 2d 6s 9h Qc")
    s_ord, s_bug = strength(hand, RULE_ORDINARY), strength(hand, RULE_BUG)
    out["bug_example"] = {
        "hand": cards_str(hand),
        "ordinary": CATEGORIES[s_ord >> 20],
        "ordinary_top_rank": RANK_CHARS[s_ord >> 16 & 15],
        "bug": CATEGORIES[s_bug >> 20],
        "bug_top_rank": RANK_CHARS[s_bug >> 16 & 15],
        "bug_reach_mask": category_names([c for c in STANDARD_ORDER if reach_mask(hand[1:], "bug") >> c & 1]),
    }

    return out


def _suit_claims(res: dict[str, DeckCensus]) -> dict[str, dict]:
    """I as a two of any suit, and I as a club of any rank."""
    c52 = res["full52"].category_counts()
    present = [c for c in STANDARD_ORDER if c52[c] > 0]
    out: dict[str, dict] = {}
    s2 = res["suit_two"].category_counts()
    out["suit_two_exact_counts"] = {
        "exact_categories": [CATEGORIES[c] for c in present if s2[c] == c52[c]],
        "counts": _by_name(s2),
        "full52": _by_name(c52),
    }
    t2 = res["suit_two"].transitions()
    out["suit_two_changes"] = {
        "changes": {
            f"{CATEGORIES[a]}->{CATEGORIES[b]}": int(t2[a, b])
            for a in STANDARD_ORDER
            for b in STANDARD_ORDER
            if a != b and t2[a, b]
        }
    }

    ca = res["club_any"].category_counts()
    out["club_any_full_house_vs_flush"] = {
        "full_house": int(ca[FULL_HOUSE]),
        "flush": int(ca[FLUSH]),
        "full_house_more_common": bool(ca[FULL_HOUSE] > ca[FLUSH]),
        "with_marker": {
            "full_house": int(res["club_any"].counts[1, FULL_HOUSE]),
            "flush": int(res["club_any"].counts[1, FLUSH]),
        },
    }
    return out


def claims_table() -> pd.DataFrame:
    """One row per census claim of the rule card: claim_id, claim, computed, stated, verdict.

    ``computed`` and ``stated`` are canonical JSON; the verdict is "holds" when every
    stated number equals the computed one (extra computed keys are detail), else "fails".
    """
    computed = _computed_claims()
    rows = []
    for claim_id, spec in STATED.items():
        got = computed[claim_id]
        holds = all(key in got and _jsonable(got[key]) == _jsonable(val) for key, val in spec["stated"].items())
        rows.append(
            (
                claim_id,
                spec["claim"],
                canonical_json(_jsonable(got)),
                canonical_json(_jsonable(spec["stated"])),
                "holds" if holds else "fails",
            )
        )
    return pd.DataFrame(rows, columns=["claim_id", "claim", "computed", "stated", "verdict"])


def _jsonable(obj):
    return json.loads(canonical_json(obj))


def claims_markdown(df: pd.DataFrame) -> str:
    """The claims table as Markdown (one row per claim; numbers as JSON)."""

    def cell(text) -> str:
        return str(text).replace("|", "\\|").replace("\n", " ")

    lines = ["| claim_id | claim | verdict | stated | computed |", "|---|---|---|---|---|"]
    for row in df.itertuples(index=False):
        lines.append(
            f"| {cell(row.claim_id)} | {cell(row.claim)} | **{row.verdict}** | `{cell(row.stated)}` "
            f"| `{cell(row.computed)}` |"
        )
    holds = int((df["verdict"] == "holds").sum())
    return "# Census claims of the rule card\n\n" + f"{holds} of {len(df)} claims hold.\n\n" + "\n".join(lines) + "\n"
