"""PokerKit's ranking of every five-card hand as one array (test-only oracle).

PokerKit ranks a five-card hand by its lookup's entry index (a higher index is a stronger
high hand) and reads a game's hand by its hand type's combination rule: ``StandardHighHand``
takes the best five of hole and board together, a ``HoleBoardCombinationHand`` exactly
``hole_card_count`` hole cards with ``board_card_count`` board cards.  Asking PokerKit for
each hand of a showdown costs 2-12 ms (it builds every combination as an object), so
100,000 showdowns per game would take most of an hour.  This module asks PokerKit once per
class of five-card hand (ranks and flush: 7,462 classes, one representative each) and
spreads the answer over all 2,598,960 hands by their colex index; a game's showdowns then
read PokerKit's combination rule from its hand type and take the best combination with
NumPy.  ``tests/rulebook/test_reading.py`` checks this oracle against PokerKit's own
``from_game`` on showdowns of every game, so it cannot drift from PokerKit.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from math import comb

import numpy as np
from pokerkit import Card, HoleBoardCombinationHand

from poker51.cards import all_hands, cards_str

#: COLEX[c, j] = C(c, j + 1): a sorted five-card hand's colex index is sum_j COLEX[card_j, j]
COLEX = np.array([[comb(c, j + 1) for j in range(5)] for c in range(52)], dtype=np.int64)


def colex_index(sorted_hands: np.ndarray) -> np.ndarray:
    """Index in 0 .. C(52,5)-1 of each row of ascending card ints ``(..., 5)``."""
    h = np.asarray(sorted_hands, dtype=np.int64)
    return sum(COLEX[h[..., j], j] for j in range(5))


def pokerkit_ranks(hand_type) -> np.ndarray:
    """PokerKit's entry index of every five-card hand (by ``hand_type``'s lookup), indexed by
    colex index; int32."""
    return _ranks(type(hand_type.lookup))


@cache
def _ranks(lookup_type) -> np.ndarray:
    lookup = lookup_type()
    hands = all_hands(range(52)).astype(np.int64)  # ascending cards, rank = card >> 2
    ranks = np.sort(hands >> 2, axis=1)
    flush = (hands & 3 == (hands[:, :1] & 3)).all(axis=1)
    key = sum(ranks[:, j] * 13**j for j in range(5)) + flush * 13**5
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    entry = np.array([lookup.get_entry(Card.parse(cards_str(hands[i].tolist()))).index for i in first], dtype=np.int32)
    out = np.empty(len(hands), np.int32)
    out[colex_index(hands)] = entry[inverse.ravel()]
    out.setflags(write=False)
    return out


def combination_rule(hand_type, n_hole: int, n_board: int) -> np.ndarray:
    """Positions into ``hole + board`` of every five-card hand PokerKit's ``from_game`` compares."""
    if issubclass(hand_type, HoleBoardCombinationHand):
        h, b = hand_type.hole_card_count, hand_type.board_card_count
        rows = [
            hs + bs for hs in combinations(range(n_hole), h) for bs in combinations(range(n_hole, n_hole + n_board), b)
        ]
    else:
        rows = list(combinations(range(n_hole + n_board), hand_type.card_count))
    return np.array(rows, dtype=np.int64)


def pokerkit_best(hand_type, holes: np.ndarray, boards: np.ndarray, chunk: int = 20_000) -> np.ndarray:
    """PokerKit's rank of each row's best hand: ``holes`` ``(n, k)``, ``boards`` ``(n, 5)``."""
    table = pokerkit_ranks(hand_type)
    cards = np.concatenate([holes, boards], axis=1).astype(np.uint8)
    rule = combination_rule(hand_type, holes.shape[1], boards.shape[1])
    out = np.empty(len(cards), np.int32)
    for lo in range(0, len(cards), chunk):
        five = np.sort(cards[lo : lo + chunk][:, rule], axis=2)  # (m, combinations, 5)
        out[lo : lo + chunk] = table[colex_index(five)].max(axis=1)
    return out
