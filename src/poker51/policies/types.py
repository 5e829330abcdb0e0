"""The population's player types on real cards: seat H of :mod:`poker51.play.engine`.

A :class:`TypePlayer` plays one :class:`poker51.games.population.PlayerType` with real cards,
seeing its hand only through the abstraction of the variant, exactly as the type's
abstract behaviour strategy (:func:`poker51.games.population.type_policy`) does:

- **class** ``c`` of its dealt hand (:func:`poker51.abstraction.classes.classify`); its draw
  count is ``ptype.draw_count(house_draw[c])`` and its keep set
  :func:`poker51.hands.house.keep_for_draw` of that count (the keep sets the abstraction's
  human transitions use);
- **strength** before the draw the abstraction's expected percentile
  ``sum_b h_trans[c, d, b] (b + 1/2) / B``; after the draw ``(bucket + 1/2) / B`` of its
  final hand (:func:`poker51.abstraction.buckets.bucket_of`);
- **probabilities** the type's own functions (``PlayerType.ramp``, the population's
  opening probability): open with ``q``, else check; facing Riemann's raise of its bet
  or Riemann's bet after its check, raise ``ramp(raise)``, call ``(1 - that) ·
  ramp(call)``, fold the rest.

Abstract sizes on the engine: the type's bet ``open_size`` when legal; when its
balance is below it, all in (the engine's "whole balance" bet), else the largest legal
bet below it.  A raise the engine forbids (Riemann all in, or H unable to cover it) is
played as a call.

Randomness: one uniform per decision from a ``numpy.random.Generator(PCG64)`` seeded,
for the ``n``-th hand the player starts, by ``SeedSequence(seed, spawn_key=(n,))`` (the
``n``-th child of ``SeedSequence(seed)``).  A match is reproducible, and two matches
with the same seed on the same deals (v0.6 and v0.5 in the evidence run) give the type
the same random numbers hand by hand: common random numbers for the paired difference.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from poker51.abstraction.buckets import bucket_of
from poker51.abstraction.classes import class_index, classify
from poker51.abstraction.tables import AbstractionTables
from poker51.games.population import PlayerType, facing_probs, open_prob, pre_strength
from poker51.hands.house import keep_for_draw
from poker51.play.actions import Action, View
from poker51.rules import VARIANT_RULES


class TypePlayer:
    """One population type in seat H on real cards (module docstring).

    ``tables`` are the variant's abstraction tables (built, or read back from Parquet):
    ``classes``, ``buckets`` and ``transitions`` are used.
    """

    def __init__(self, ptype: PlayerType, variant: str, tables: AbstractionTables, seed: int):
        if variant not in VARIANT_RULES:
            raise ValueError(f"unknown variant {variant!r}; expected one of {sorted(VARIANT_RULES)}")
        self.ptype, self.variant, self.seed = ptype, variant, int(seed)
        self.rule = VARIANT_RULES[variant]
        self.classes = tables.classes.sort_values("class").reset_index(drop=True)
        self.buckets = tables.buckets.sort_values("bucket").reset_index(drop=True)
        ab = tables.arrays()
        self.n_buckets = ab.n_buckets
        #: (C, 6) expected final percentile of class c drawing d (the population's own formula)
        self.pre_strength = pre_strength(ab)
        self.house_draw = self.classes["house_draw"].to_numpy(np.int64)
        self.bucket_lows = self.buckets["low"].to_numpy()
        self._class_index = class_index(self.classes)  # classify() on the table, worked out once
        self.hands_started = 0
        self.rng = self._hand_rng(0)
        self.hand_class: int | None = None
        self.draw: int | None = None

    def _hand_rng(self, n: int) -> np.random.Generator:
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence(self.seed, spawn_key=(n,))))

    # ------------------------------------------------------------------ protocol
    def choose_keep(self, view: View) -> int:
        """Called once per hand, before H's first action: classify, reseed, pick the keep."""
        self.rng = self._hand_rng(self.hands_started)
        self.hands_started += 1
        self.hand_class = classify(list(view.cards), self.variant, self._class_index)
        self.draw = self.ptype.draw_count(int(self.house_draw[self.hand_class]))
        return keep_for_draw(list(view.cards), self.draw, self.rule)

    def strength(self, view: View) -> float:
        """The percentile the type acts on (module docstring)."""
        if view.phase == "pre":
            return float(self.pre_strength[self.hand_class, self.draw])
        b = bucket_of(list(view.cards), self.variant, self.bucket_lows)
        return (b + 0.5) / self.n_buckets

    def probabilities(self, view: View, legal: Sequence[Action]) -> list[tuple[Action, float]]:
        """The type's mixed action in this spot, mapped onto ``legal`` (zero entries dropped)."""
        by_kind: dict[str, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        if "call" in by_kind:  # facing Riemann's raise, or its bet after H's check
            pf, pc, pr = facing_probs(self.ptype, self.strength(view))
            raise_or_call = by_kind.get("raise", by_kind["call"])[0]
            out = [(by_kind["fold"][0], pf), (by_kind["call"][0], pc), (raise_or_call, pr)]
        else:  # opening: check or bet
            check = by_kind["check"][0]
            bet = self._bet_action(view, by_kind.get("bet", []))
            if bet is None:
                return [(check, 1.0)]
            q = open_prob(self.ptype, self.strength(view))
            out = [(check, 1.0 - q), (bet, q)]
        merged: dict[Action, float] = {}
        for a, p in out:
            merged[a] = merged.get(a, 0.0) + p
        return [(a, p) for a, p in merged.items() if p > 0]

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        probs = self.probabilities(view, legal)
        if len(probs) == 1:
            return probs[0][0]
        u = self.rng.random()
        cum = 0.0
        for a, p in probs:
            cum += p
            if u < cum:
                return a
        return probs[-1][0]

    def _bet_action(self, view: View, bets: list[Action]) -> Action | None:
        size = self.ptype.open_size
        amounts = {a.amount: a for a in bets}
        if size in amounts:
            return amounts[size]
        if view.stack < size and view.stack in amounts:
            return amounts[view.stack]  # all in when short
        below = [a for a in amounts if a is not None and a < size]
        return amounts[max(below)] if below else None


def type_seed(seed: int, index: int) -> int:
    """A 63-bit seed for the ``index``-th type from a run seed (SeedSequence entropy)."""
    return int(np.random.SeedSequence([int(seed), int(index)]).generate_state(2, np.uint32).view(np.uint64)[0] >> 1)


__all__ = ["TypePlayer", "type_seed"]
