"""Seeded tables in simulation: the reference engine (plain) and the Numba kernel, hand for hand.

A simulated table (:class:`TableSpec`) has ``seats`` seats (0..seats-1): people of the
population types in the first ones (one type each, ``types``), Riemanns in the last
``riemanns`` seats, Riemann ``j`` added by person ``j mod people``.  Everyone buys in for
``buyin`` jbits from a bank of :data:`BANK` cents.  Table dynamics (design choice M13):

- before each hand, in seat order, a person holding less than one ante leaves (its
  Riemanns leave with it) and sits again with the buy-in; then every missing Riemann is
  added again by its adder, with abits equal to the adder's stack;
- the button starts at seat 0 and moves one seat each hand; decks are
  ``DeckSource("seedsequence", seed, table_key=(table,))`` (:mod:`poker51.multi.commit`);
- Riemann plays :class:`~poker51.multi.riemann.RiemannPolicy`, people their type
  (:class:`~poker51.multi.population.TypePolicy`) with the uniforms of :mod:`poker51.multi.rng`;
- after the last hand the table closes.

:func:`simulate_plain` plays a table on :class:`~poker51.multi.table.Table` (the reference);
:func:`simulate_kernel` runs :func:`poker51.multi.ktable.simulate_table`.  Both return a
:class:`TableRun` with the same per-hand arrays, compared exactly by the tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from poker51.games.population import PlayerType
from poker51.multi.commit import DECK_CARDS, DeckSource
from poker51.multi.hand import DRAW
from poker51.multi.krng import entropy_words
from poker51.multi.ktable import MAX_ACTIONS, N_STATS, new_memo, simulate_table
from poker51.multi.law import ANTE, JBIT, N_SEATS
from poker51.multi.population import StrengthTables, TypePolicy
from poker51.multi.riemann import RiemannPolicy
from poker51.multi.rng import decision_uniform, hand_key
from poker51.multi.table import Table
from poker51.policies.kernels import RankTables
from poker51.rules import N_DRAWS

#: every simulated person's bank (cents): never the limit
BANK = 10**12
CODES = {"check": 0, "open": 1, "call": 2, "raise": 3, "fold": 4}


@dataclass(frozen=True)
class TableSpec:
    """One simulated table: ``types`` (one per person, in seat order) and ``riemanns``."""

    types: tuple[PlayerType, ...]
    riemanns: int
    buyin: int = 16

    @property
    def seats(self) -> int:
        return len(self.types) + self.riemanns

    def kinds(self) -> np.ndarray:
        k = np.zeros(N_SEATS, np.int64)
        k[: len(self.types)] = 1
        k[len(self.types) : self.seats] = 2
        return k

    def adders(self) -> np.ndarray:
        a = np.full(N_SEATS, -1, np.int64)
        for j in range(self.riemanns):
            a[len(self.types) + j] = j % len(self.types)
        return a


@dataclass(frozen=True)
class Tables:
    """What the players read: Riemann's belief table and the types' strength tables."""

    belief: np.ndarray
    strengths: StrengthTables
    ranks: RankTables

    @classmethod
    def build(cls, belief: np.ndarray, strengths: StrengthTables) -> Tables:
        return cls(np.asarray(belief), strengths, RankTables.build())


@dataclass
class TableRun:
    """Per hand: ``hands`` (button, actions); ``seats`` (dealt, committed, payout, draw, stack
    after); ``actions`` (round, seat, code, cents); ``stats`` per seat (net against people,
    abit score, Riemann's abits result, hands dealt in; cents); ``audit`` (steps, failures)."""

    hands: np.ndarray
    seats: np.ndarray
    actions: np.ndarray
    stats: np.ndarray
    audit: np.ndarray


def _empty(n_hands: int) -> TableRun:
    return TableRun(
        np.zeros((n_hands, 2), np.int64),
        np.zeros((n_hands, N_SEATS, 5), np.int64),
        np.zeros((n_hands, MAX_ACTIONS, 4), np.int64),
        np.zeros((N_SEATS, N_STATS), np.int64),
        np.zeros(2, np.int64),
    )


def type_table(types: Sequence[PlayerType]) -> np.ndarray:
    """(types, 7) rows: open value, open size (cents), bluff, call, raise, softness, keep-kicker."""
    return np.array(
        [[t.open_value, t.open_size * JBIT, t.bluff, t.call, t.raise_, t.softness, t.draw == "keep_kicker"]
         for t in types], np.float64,
    ).reshape(-1, 7)  # fmt: skip


def simulate_kernel(
    spec: TableSpec, tables: Tables, seed: int, table: int, n_hands: int, memo: np.ndarray | None = None
) -> TableRun:
    """One table on the Numba kernel (module docstring); ``memo`` (:func:`poker51.multi.ktable.new_memo`)
    carries Riemann's reads from table to table (a fresh one by default)."""
    out = _empty(n_hands)
    r, st = tables.ranks, tables.strengths
    lr = np.stack([r.counts(tables.belief[d]) for d in range(N_DRAWS)])
    ptype = np.zeros(N_SEATS, np.int64)
    ptype[: len(spec.types)] = np.arange(len(spec.types))
    simulate_table(
        n_hands, spec.kinds(), ptype, spec.adders(), spec.buyin * JBIT, BANK, entropy_words(seed, table),
        type_table(spec.types), np.array(DECK_CARDS, np.int64), r.lut, lr,
        tables.belief.shape[1], r.counts(st.finals), st.finals.size, st.pre, new_memo() if memo is None else memo,
        out.hands, out.seats, out.actions, out.stats, out.audit,
    )  # fmt: skip
    return out


def simulate_plain(spec: TableSpec, tables: Tables, seed: int, table: int, n_hands: int) -> TableRun:
    """One table on the reference engine, :class:`~poker51.multi.table.Table` (module docstring)."""
    out = _empty(n_hands)
    t = Table(f"sim{table}", DeckSource("seedsequence", seed, table_key=(table,)), button=0)
    riemann = RiemannPolicy(tables.belief)
    people = [TypePolicy(p, tables.strengths) for p in spec.types]
    kinds, adders = spec.kinds(), spec.adders()
    names = {s: (f"p{s}" if kinds[s] == 1 else f"r{s}") for s in range(spec.seats)}
    for h in range(n_hands):
        for s in range(spec.seats):
            if kinds[s] == 1 and (s not in t.ledger.owner or t.stack[s] < ANTE):
                if s in t.ledger.owner:
                    t.leave(names[s])
                t.sit(names[s], s, spec.buyin, None if names[s] in t.ledger.people else BANK)
        for s in range(spec.seats):
            if kinds[s] == 2 and s not in t.ledger.owner:
                t.add_riemann(names[int(adders[s])], s, names[s])
        hand = t.start_hand()
        key = hand_key(seed, (table,), hand.number)
        k = dict.fromkeys(range(N_SEATS), 0)
        na = 0
        while t.in_hand:
            actor = hand.actor
            assert actor is not None
            s = actor
            if hand.phase == DRAW:
                cards = hand.cards[s]
                t.draw(s, riemann.keep(cards) if kinds[s] == 2 else people[s].discards(cards))
                continue
            spot = t.spot(s)
            if kinds[s] == 2:
                m = riemann.decide(spot)
            else:
                m = people[s].decide(spot, decision_uniform(key, s, k[s]))
                k[s] += 1
            out.actions[h, na] = (0 if spot.round == "pre" else 1, s, CODES[m.kind], m.amount)
            na += 1
            t.act(s, m.kind, m.amount)
        res = hand.result
        assert res is not None
        out.hands[h] = (hand.button, na)
        out.seats[h, :, 3] = -1
        for s in hand.order:
            out.seats[h, s, :4] = (1, res.contributed[s], res.payouts[s], hand.draws.get(s, -1))
        out.seats[h, :, 4] = [t.stack.get(s, 0) for s in range(N_SEATS)]
        for s in hand.order:
            out.stats[s, 3] += 1
            if kinds[s] == 2:
                out.stats[s, 2] += res.payouts[s] - res.contributed[s]
    t.close()
    for s in range(spec.seats):
        if kinds[s] == 1:
            p = t.ledger.people[names[s]]
            out.stats[s, 0], out.stats[s, 1] = p.net_people, p.abit_score
    out.audit[:] = (t.steps, len(t.audit_failures))
    return out


__all__ = ["BANK", "TableRun", "TableSpec", "Tables", "simulate_kernel", "simulate_plain", "type_table"]
