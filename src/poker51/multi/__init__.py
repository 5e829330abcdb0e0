"""Poker 51 tables: five seats, side pots, Riemann with abits, committed decks (issue 10).

Source: the tables' rule card, ``../shared/seeds/000_9d69170e20150212.txt`` ("Poker 51
tables, live rule card v1"; its rules file is ``poker51-multi-v1.js``).  Amounts are
integer cents of a jbit (1 jbit = 100 cents).  Layers, bottom up:

- :mod:`~poker51.multi.law`: the constants and the betting law of one round;
- :mod:`~poker51.multi.hand`: one hand (antes, deal, two rounds, the public draw, the
  showdown through :mod:`poker51.table.pots`);
- :mod:`~poker51.multi.ledger`: people's banks, stacks, jbits held by Riemann, abits;
- :mod:`~poker51.multi.commit`: the commitment per hand and ``poker51 multi check``;
- :mod:`~poker51.multi.table`: the table (seats, receipts, tokens, time, Riemann);
- :mod:`~poker51.multi.policy`: Riemann's five playing rules and the population types'
  multi-seat reading on real cards;
- :mod:`~poker51.multi.scenario`: the scenario front door ``poker51 multi run``;
- :mod:`~poker51.multi.protocol`: a hand under the floor's action protocol
  (:mod:`poker51.table.protocol`: what a game server drives; its log rebuilds the hand);
- the Numba simulation kernel (``k*`` modules), whose plain twin is the table itself
  (:mod:`~poker51.multi.simulate`), and the pipeline stage (:mod:`~poker51.multi.stage`).

``docs/multi.md`` documents the scenario format and the decisions; ``docs/design-choices.md``
lists each choice the card leaves open.
"""
