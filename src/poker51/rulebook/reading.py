"""Hand reading of the rule book's games (Articles VI and VII).

Every hand is exactly five cards (Article VI).  A game says which five a player may use
(:class:`~poker51.rulebook.games.Game`): Hold'em the best five of seven (both, one or no
hole cards, 7.1); OG Omaha and Open Flop exactly two of four hole cards with exactly three
of the board (7.2, 7.5); Omaha (5 Cards) two of five with three (7.3); Omaha (3 Cards)
exactly three of four with exactly two (7.4); a set of 3 Sets its two laid cards with
exactly three of its board (7.6).

The reading is a maximum over the allowed five-card combinations, listed once per game and
board size by :func:`combos_table` (``(m, 5)`` positions into ``hole + board``: 21 for
Hold'em, 60 for Omaha, 100 for Omaha (5 Cards), 40 for Omaha (3 Cards), 10 for a set).
Strength is :func:`poker51.hands.evaluate.eval_cards_kernel`'s int (``category << 20 |
kickers``; higher wins, equal splits; suits never rank, 6.3; the ace plays high or low in
a straight, never in the middle, 6.1).  The category with the royal flush apart is
:func:`category_of` (a straight flush to the ace).

:func:`best_of_combos_kernel` and :func:`best_many_kernel` are the Numba kernels;
:func:`read_hand_plain` and :func:`strength5_plain` their plain twins, written from the
rule book with ``itertools`` and ``Counter``.

>>> r = read_hand("omaha3", "As Ks Qs 2d", "Js Ts 9h 3c 4d")
>>> cards_str(r.best), CATEGORY_NAMES[r.category]
('As Ks Qs Js Ts', 'royal_flush')
>>> r = read_hand("omaha", "As Ks Qs 2d", "Js Ts 9h 3c 4d")   # exactly two hole cards
>>> cards_str(r.best), CATEGORY_NAMES[r.category]
('Ks Qs Js Ts 9h', 'straight')
>>> CATEGORY_NAMES[read_hand("holdem", "2c 7d", "Ah Kh Qh Jh Th").category]   # the board plays
'royal_flush'
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from numba import njit

from poker51.cards import cards_str, parse_cards
from poker51.errors import InputError
from poker51.hands.evaluate import eval_cards_kernel
from poker51.rulebook.games import CATEGORY_NAMES, GAMES, ROYAL_FLUSH, STRAIGHT_FLUSH, Game

__all__ = [
    "Reading",
    "best_many_kernel",
    "best_of_combos_kernel",
    "best_strengths",
    "category_of",
    "combos_table",
    "read_cards",
    "read_hand",
    "read_hand_plain",
    "set_strength",
    "strength5_plain",
]


@dataclass(frozen=True)
class Reading:
    """A player's hand: the best five cards (card ints, in the order they were chosen),
    the category (0..9, royal flush 9) and the strength (higher wins)."""

    best: tuple[int, ...]
    category: int
    strength: int

    def to_json(self) -> dict:
        return {
            "best": cards_str(self.best).split(),
            "category": CATEGORY_NAMES[self.category],
            "strength": self.strength,
        }


def category_of(strength: int) -> int:
    """Category id (0..9) of a strength, the royal flush (a straight flush to the ace) apart."""
    cat = int(strength) >> 20
    if cat == STRAIGHT_FLUSH and (int(strength) >> 16) & 15 == 12:
        return ROYAL_FLUSH
    return cat


@functools.lru_cache(maxsize=64)
def combos_table(game_name: str, n_hole: int, n_board: int) -> np.ndarray:
    """Every five-card combination the game allows, as positions into ``hole + board``.

    Rows are ordered by the number of hole cards used (ascending), then hole subset, then
    board subset, each in ``itertools.combinations`` order; shape ``(m, 5)``, int64.
    """
    g = GAMES[game_name]
    rows = []
    for h in g.use_hole:
        if h > n_hole or 5 - h > n_board:
            continue
        for hs in combinations(range(n_hole), h):
            for bs in combinations(range(n_hole, n_hole + n_board), 5 - h):
                rows.append(hs + bs)
    if not rows:
        raise InputError(f"{g.title}: no five-card hand from {n_hole} hole and {n_board} board cards")
    out = np.array(rows, dtype=np.int64)
    out.setflags(write=False)
    return out


# --------------------------------------------------------------------------- kernels
@njit(cache=True)
def best_of_combos_kernel(cards, combos):
    """(best strength, index of the first combination reaching it) over ``combos`` rows."""
    best = -1
    arg = -1
    for i in range(combos.shape[0]):
        v = eval_cards_kernel(
            cards[combos[i, 0]], cards[combos[i, 1]], cards[combos[i, 2]], cards[combos[i, 3]], cards[combos[i, 4]]
        )
        if v > best:
            best = v
            arg = i
    return best, arg


@njit(cache=True)
def best_many_kernel(hands, combos, out):
    """``out[i]`` = best strength of row ``i`` of ``hands`` (hole then board, ``(n, k)``)."""
    for i in range(hands.shape[0]):
        out[i] = best_of_combos_kernel(hands[i], combos)[0]


# --------------------------------------------------------------------------- public
def _check_cards(g: Game, hole: list[int], board: list[int], boards: int = 1) -> None:
    if len(hole) != g.hole:
        raise InputError(f"{g.title} deals {g.hole} hole cards, got {len(hole)} ({cards_str(hole) or 'none'})")
    if not 3 <= len(board) <= 5:
        raise InputError(f"a board is 3, 4 or 5 cards, got {len(board)} ({cards_str(board) or 'none'})")
    seen: set[int] = set()
    for c in list(hole) + list(board):
        if c in seen:
            raise InputError(f"card {cards_str([c])} is given twice")
        seen.add(c)


def _as_cards(cards: str | list[int] | tuple[int, ...]) -> list[int]:
    return parse_cards(cards) if isinstance(cards, str) else [int(c) for c in cards]


def read_cards(game_name: str, hole: list[int], board: list[int]) -> Reading:
    """The reading of card ints (already checked); the kernel path used by the table."""
    combos = combos_table(game_name, len(hole), len(board))
    cards = np.array(list(hole) + list(board), dtype=np.int64)
    s, arg = best_of_combos_kernel(cards, combos)
    best = tuple(int(cards[j]) for j in combos[arg])
    return Reading(best, category_of(s), int(s))


def read_hand(game_name: str, hole, board) -> Reading:
    """Read one hand of ``game_name`` (a :data:`~poker51.rulebook.games.GAMES` key).

    ``hole`` and ``board`` are card strings (``"As Kd"``) or card ints; a wrong number of
    cards or a repeated card is an :class:`~poker51.errors.InputError` naming it.
    """
    if game_name not in GAMES or GAMES[game_name].boards != 1:
        raise InputError(f"no single-board hand reading for game {game_name!r}")
    g = GAMES[game_name]
    h, b = _as_cards(hole), _as_cards(board)
    _check_cards(g, h, b)
    return read_cards(game_name, h, b)


def best_strengths(game_name: str, holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """Best strength of each row: ``holes`` ``(n, k)`` and ``boards`` ``(n, 5)`` card ints; int64."""
    holes = np.asarray(holes, dtype=np.int64)
    boards = np.asarray(boards, dtype=np.int64)
    hands = np.ascontiguousarray(np.concatenate([holes, boards], axis=1))
    combos = combos_table(game_name, holes.shape[1], boards.shape[1])
    out = np.empty(hands.shape[0], np.int64)
    best_many_kernel(hands, combos, out)
    return out


def set_strength(laid: list[int], board: list[int]) -> int:
    """3 Sets (7.6): a set's hand is both laid cards with exactly three from its board."""
    combos = combos_table("three_sets", 2, len(board))
    return int(best_of_combos_kernel(np.array(list(laid) + list(board), dtype=np.int64), combos)[0])


# --------------------------------------------------------------------------- plain twins
def strength5_plain(cards) -> int:
    """Plain twin of the five-card strength, from Article VI with ``Counter``.

    Same encoding: ``category << 20`` then ranks by (multiplicity, rank), four bits each;
    a straight keeps its top rank only (the wheel A-2-3-4-5 has top 3, the five).
    """
    ranks = [int(c) >> 2 for c in cards]
    flush = len({int(c) & 3 for c in cards}) == 1
    counts = Counter(ranks)
    distinct = sorted(counts, reverse=True)
    top = -1
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            top = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:
            top = 3
    if top >= 0:
        return ((STRAIGHT_FLUSH if flush else 4) << 20) | (top << 16)
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 4:
        cat = 7
    elif shape[:2] == [3, 2]:
        cat = 6
    elif flush:
        cat = 5
    elif shape[0] == 3:
        cat = 3
    elif shape[:2] == [2, 2]:
        cat = 2
    elif shape[0] == 2:
        cat = 1
    else:
        cat = 0
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    value = cat << 20
    for i, (r, _) in enumerate(groups):
        value |= r << (16 - 4 * i)
    return value


def read_hand_plain(game_name: str, hole, board) -> Reading:
    """Plain twin of :func:`read_hand`: the rule of Article VII written with ``itertools``."""
    g = GAMES[game_name]
    h, b = _as_cards(hole), _as_cards(board)
    best_s = -1
    best_five: tuple[int, ...] = ()
    for k in g.use_hole:
        for hs in combinations(h, k):
            for bs in combinations(b, 5 - k):
                s = strength5_plain(hs + bs)
                if s > best_s:
                    best_s, best_five = s, hs + bs
    if best_s < 0:
        raise InputError(f"{g.title}: no five-card hand from {len(h)} hole and {len(b)} board cards")
    return Reading(tuple(best_five), category_of(best_s), best_s)
