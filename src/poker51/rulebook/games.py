"""The one home of the rule book's constants: its games, categories, table sizes and rake.

Source: the rule book (seed ``003``), Articles I-X; the article of every rule is named where
the rule is used, and :data:`ARTICLES` gives each a short title for error messages.

>>> GAMES["omaha3"].use_hole, GAMES["omaha3"].use_board, GAMES["holdem"].seats
((3,), 2, 9)
>>> [g for g in GAMES if GAMES[g].ante]
['omaha_open', 'three_sets']
>>> CATEGORY_NAMES[ROYAL_FLUSH], len(CATEGORY_NAMES)
('royal_flush', 10)
"""

from __future__ import annotations

from dataclasses import dataclass

from poker51.rules import CATEGORIES, STRAIGHT_FLUSH

#: Article VI's ten ranks of five-card hands, worst first (category ids 0..9).  The royal
#: flush is its own top category; ids 0..8 are those of :data:`poker51.rules.CATEGORIES`
#: (no five of a kind: the rule book has no wild card).
CATEGORY_NAMES: tuple[str, ...] = (*CATEGORIES[: STRAIGHT_FLUSH + 1], "royal_flush")
ROYAL_FLUSH = STRAIGHT_FLUSH + 1
N_CATEGORIES = len(CATEGORY_NAMES)
#: the rule book's order, best first (category ids)
BEST_FIRST: tuple[int, ...] = tuple(range(N_CATEGORIES - 1, -1, -1))


@dataclass(frozen=True)
class Game:
    """One game of Article VII.

    ``use_hole``: the numbers of hole cards a hand may use (Hold'em: 0, 1 or 2; the Omahas
    exactly one number); the rest of the five come from the board (exactly ``5 - h``).
    ``ante``: every player antes the big blind and there is no betting round before the
    flop (II.6, VII.5, VII.6).  ``boards``: 3 for 3 Sets.  ``phh``: the Poker Hand History
    variant code (``NT`` is the standard's; the Omaha codes are this project's extension,
    ``docs/rulebook.md``), ``None`` where PHH cannot express the game.
    """

    name: str
    title: str
    article: str
    hole: int
    use_hole: tuple[int, ...]
    seats: int
    ante: bool = False
    boards: int = 1
    burns: bool = True
    phh: str | None = None

    @property
    def use_board(self) -> int:
        """The most board cards a hand may use: exactly this many in the Omahas, up to five in Hold'em."""
        return 5 - min(self.use_hole)


GAMES: dict[str, Game] = {
    "holdem": Game("holdem", "Texas Hold'em", "7.1", 2, (0, 1, 2), 9, phh="NT"),
    "omaha": Game("omaha", "OG Omaha", "7.2", 4, (2,), 7, phh="NO"),
    "omaha5": Game("omaha5", "Omaha (5 Cards)", "7.3", 5, (2,), 7, phh="NO5"),
    "omaha3": Game("omaha3", "Omaha (3 Cards)", "7.4", 4, (3,), 7, phh="NO3"),
    "omaha_open": Game("omaha_open", "Omaha (Open Flop)", "7.5", 4, (2,), 7, ante=True, phh="NOF"),
    "three_sets": Game("three_sets", "3 Sets", "7.6", 6, (2,), 6, ante=True, boards=3, burns=False),
}
#: games with a hand reading of one hand against one board (``poker51 hand``)
READ_GAMES: tuple[str, ...] = ("holdem", "omaha", "omaha5", "omaha3", "omaha_open")
#: games with a census (``poker51 census --game``); Open Flop reads hands as OG Omaha
CENSUS_GAMES: tuple[str, ...] = ("holdem", "omaha", "omaha5", "omaha3")

#: Random (7.7): every ``RANDOM_BLOCK`` hands the game changes to one of these, never the
#: one just played.  A Random table seats the fewest seats of its games (3 Sets: six).
RANDOM = "random"
RANDOM_GAMES: tuple[str, ...] = ("omaha", "omaha5", "omaha3", "omaha_open", "three_sets")
RANDOM_BLOCK = 3
RANDOM_SEATS = min(GAMES[g].seats for g in RANDOM_GAMES)

#: Article X: five per cent of each pot, capped at three big blinds (per pot: docs/design-choices.md)
RAKE_PERCENT = 5
RAKE_CAP_BIG_BLINDS = 3
#: Article VIII: consecutive timeouts that sit a player out; the advance choices of 8.5
TIMEOUTS_TO_SIT_OUT = 3
ADVANCE_CHOICES: tuple[str, ...] = ("fold", "check_fold", "check", "call")

#: short titles of the articles cited by illegal-action messages
ARTICLES: dict[str, str] = {
    "1.3": "blinds are posted by the two seats left of the button",
    "1.4": "the small blind is half the big blind",
    "1.7": "a player sitting out is dealt out",
    "1.9": "chips added during a hand arrive at the next deal",
    "2.5": "the hand ends when one player remains",
    "3.1": "on their turn a player may fold, check, call, bet, raise or go all-in, as these are legal",
    "3.2": "check only when owing nothing, call only when owing something",
    "3.3": "bet only when nobody has bet this round, raise only when somebody has",
    "3.4": "the smallest bet is one big blind, the smallest raise the last bet or raise",
    "3.5": "an all-in for less than a full raise does not reopen the betting",
    "3.6": "no player may bet more chips than they have",
    "5.2": "hands are shown in order",
    "5.3": "the player claiming a pot must show",
    "7.6": "each player lays two of their six cards on each board, all six placed, no card twice",
    "9.2": "the seed's hash is published before any card",
    "9.3": "the published seed reproduces the shuffle",
}


def game(name: str) -> Game:
    """The game called ``name``; an unknown name is an :class:`~poker51.errors.InputError`."""
    from poker51.errors import InputError

    try:
        return GAMES[name]
    except KeyError:
        raise InputError(f"unknown game {name!r} (choose from {', '.join(GAMES)})") from None


def category_name(category: int) -> str:
    return CATEGORY_NAMES[int(category)]
