"""The rule book's games (seed ``003``): Texas Hold'em, four Omahas and 3 Sets.

Hand reading (:mod:`~poker51.rulebook.reading`), the exact census of every game
(:mod:`~poker51.rulebook.census`, :mod:`~poker51.rulebook.omaha_census`), the betting law
(:mod:`~poker51.rulebook.table`), committed deals and hand logs (:mod:`~poker51.rulebook.log`),
scenarios (:mod:`~poker51.rulebook.scenario`), Poker Hand History (:mod:`~poker51.rulebook.phh`) and
a hand under the floor's action protocol (:mod:`~poker51.rulebook.protocol`).
The game constants live in :mod:`~poker51.rulebook.games`.
"""
