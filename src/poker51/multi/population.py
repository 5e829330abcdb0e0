"""The four population types at a table: a multi-seat reading on real cards (design choice M11).

The types of ``config/population.yaml`` (:class:`poker51.games.population.PlayerType`) are
heads-up behaviour strategies of the abstract game, acting on a *strength*: the hand's
percentile among House-rule final hands (``docs/population.md``).  At a table they play
real cards; this module reads them so:

- **Draw**: the House rule's keep set and count ``h``; a ``keep_kicker`` type draws
  ``PlayerType.draw_count(h)`` (one card fewer when ``h`` is 3 or 4), keeping the
  highest of the cards the House rule throws away (card order: rank, then suit).
- **Strength after the draw**: the percentile of its final strength among
  :attr:`StrengthTables.finals`, a seeded sample of House-rule final hands (ties half):
  ``(#below + #equal / 2) / N``.  This is the abstraction's ``(bucket + 1/2) / 40`` with
  one bucket per sampled hand.
- **Strength before the draw**: the expected final percentile of dealt hands with the
  same House step, the same highest kept rank and the same draw count
  (:attr:`StrengthTables.pre`, a seeded Monte-Carlo table: the real-card stand-in for the
  abstraction's class), or, standing pat, the percentile of the dealt hand itself.
- **Decisions**: the type's own formulas, unchanged by the number of opponents (the types
  do not adapt): with no bet yet it opens its ``open.size`` (all in when it holds less)
  with :func:`poker51.games.population.open_prob`, else checks; facing any bet or raise it
  folds, calls or raises with :func:`poker51.games.population.facing_probs`, a raise it
  cannot make in full (cap, closed round, short stack, no one to answer) being a call.
  One uniform ``u`` per decision (:func:`poker51.multi.rng.decision_uniform`): fold if
  ``u < p_fold``, call if ``u < p_fold + p_call``, else raise; open if ``u < q``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from poker51.cards import MARKER
from poker51.games.population import PlayerType, facing_probs, open_prob
from poker51.hands.evaluate import RULE_ORDINARY, strengths
from poker51.hands.house import house_kernel
from poker51.multi.law import JBIT, Move
from poker51.multi.view import Spot
from poker51.rules import N_DRAWS

#: House steps 1..7 x highest kept rank 0..12
N_KEYS = 8 * 13
DECK = np.array([c for c in range(52) if c != MARKER], np.int64)


def house(cards: Sequence[int]) -> tuple[int, int, int]:
    """(keep mask, House step, draw count) of five cards, ordinary reading."""
    m, step, _ = house_kernel(np.asarray(cards, np.int64), RULE_ORDINARY, MARKER)
    m = int(m)
    return m, int(step), 5 - bin(m).count("1")


def type_keep(cards: Sequence[int], house_mask: int, d: int) -> int:
    """Keep mask for drawing ``d`` cards: the House set plus the highest other cards."""
    mask = house_mask
    kept = bin(mask).count("1")
    others = sorted((c, i) for i, c in enumerate(cards) if not (mask >> i) & 1)
    while 5 - kept > d:
        _, i = others.pop()
        mask |= 1 << i
        kept += 1
    return mask


def hand_key_of(cards: Sequence[int], keep_mask: int, step: int) -> int:
    """``step * 13 + highest rank the House rule keeps``: the pre-draw table's row."""
    top = max(int(c) >> 2 for i, c in enumerate(cards) if (keep_mask >> i) & 1)
    return step * 13 + top


def percentile(finals: np.ndarray, s: int) -> float:
    """``(#below + #equal / 2) / N`` of strength ``s`` in the sorted sample ``finals``."""
    lo = int(np.searchsorted(finals, s, "left"))
    hi = int(np.searchsorted(finals, s, "right"))
    return (lo + hi) / (2.0 * finals.size)


@dataclass(frozen=True)
class StrengthTables:
    """``finals`` (N,) sorted House-rule final strengths; ``pre`` (104, 6) expected final
    percentiles by (House step, highest kept rank) and draw count (NaN-free)."""

    finals: np.ndarray
    pre: np.ndarray
    seed: int

    @classmethod
    def build(cls, seed: int, n_finals: int = 20_000, n_pre: int = 100_000) -> StrengthTables:
        """Seeded: ``SeedSequence(seed).spawn(2)``, one PCG64 stream for each sample.
        A dealt hand is the first five cards of a uniform order of the 51; its draws the
        next cards of that order."""
        kids = np.random.SeedSequence(int(seed)).spawn(2)
        hands, orders = _sample(np.random.default_rng(kids[0]), n_finals)
        finals = np.sort(_finals(hands, orders, kicker=False)[0])
        hands, orders = _sample(np.random.default_rng(kids[1]), n_pre)
        total = np.zeros((N_KEYS, N_DRAWS))
        count = np.zeros((N_KEYS, N_DRAWS))
        for kicker in (False, True):
            s, keys, draws = _finals(hands, orders, kicker)
            pct = (np.searchsorted(finals, s, "left") + np.searchsorted(finals, s, "right")) / (2.0 * finals.size)
            np.add.at(total, (keys, draws), pct)
            np.add.at(count, (keys, draws), 1.0)
        pre = np.full((N_KEYS, N_DRAWS), 0.5)
        for d in range(N_DRAWS):
            step_mean = {}
            for step in range(1, 8):
                rows = slice(step * 13, step * 13 + 13)
                if count[rows, d].sum() > 0:
                    step_mean[step] = total[rows, d].sum() / count[rows, d].sum()
            for key in range(13, N_KEYS):
                if count[key, d] > 0:
                    pre[key, d] = total[key, d] / count[key, d]
                elif key // 13 in step_mean:
                    pre[key, d] = step_mean[key // 13]
        return cls(finals, pre, int(seed))


def _sample(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    order = DECK[np.argsort(rng.random((n, DECK.size)), axis=1, kind="stable")[:, :10]]
    return order[:, :5], order[:, 5:]


def _finals(hands: np.ndarray, nexts: np.ndarray, kicker: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Final strengths, pre-table keys and draw counts of the House (or keep-kicker) draws."""
    n = hands.shape[0]
    masks, steps = house_many(hands)
    bits = (masks[:, None] >> np.arange(5)) & 1
    h = 5 - bits.sum(axis=1)
    keys = steps * 13 + np.where(bits == 1, hands >> 2, -1).max(axis=1)
    d = np.where(kicker & (h >= 3), h - 1, h)
    pad = d < h  # keep the highest card the House rule throws away
    top = np.argmax(np.where(bits == 1, -1, hands), axis=1)
    bits[pad, top[pad]] = 1
    kept_first = np.argsort(1 - bits, axis=1, kind="stable")
    ordered = np.take_along_axis(hands, kept_first, axis=1)
    finals = np.where(np.arange(5) < (5 - d)[:, None], ordered, 0)
    for k in range(1, 6):
        rows = d == k
        finals[rows, 5 - k :] = nexts[rows, :k]
    del n
    return strengths(finals, RULE_ORDINARY).astype(np.int64), keys, d


def house_many(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(keep masks, House steps) of an (n, 5) array of hands (a loop over :func:`house`)."""
    out = np.array([house(row)[:2] for row in np.asarray(hands).tolist()], np.int64).reshape(-1, 2)
    return out[:, 0], out[:, 1]


class TypePolicy:
    """One population type at a table (module docstring)."""

    def __init__(self, ptype: PlayerType, tables: StrengthTables):
        self.t, self.tables = ptype, tables

    def draw_plan(self, cards: Sequence[int]) -> tuple[int, int, float]:
        """(keep mask, draw count, pre-draw strength) of dealt ``cards``."""
        m, step, h = house(cards)
        d = self.t.draw_count(h)
        keep = type_keep(cards, m, d)
        if d == 0:
            s = percentile(self.tables.finals, int(strengths(np.asarray([cards]), RULE_ORDINARY)[0]))
        else:
            s = float(self.tables.pre[hand_key_of(cards, m, step), d])
        return keep, d, s

    def strength(self, spot: Spot) -> float:
        """Before the draw (``spot.cards`` are the dealt cards) and after it."""
        if spot.round == "pre":
            return self.draw_plan(spot.cards)[2]
        return percentile(self.tables.finals, int(strengths(np.asarray([spot.cards]), RULE_ORDINARY)[0]))

    def decide(self, spot: Spot, u: float) -> Move:
        legal = {m.kind: m for m in spot.legal}
        s = self.strength(spot)
        if spot.to_call == 0:
            amount = min(self.t.open_size * JBIT, spot.stack)
            opens = [m for m in spot.legal if m.kind == "open" and m.amount == amount]
            if opens and u < open_prob(self.t, s):
                return opens[0]
            return legal["check"]
        pf, pc, _pr = facing_probs(self.t, s)
        if u < pf:
            return legal["fold"]
        raise_move = legal.get("raise")
        if u < pf + pc or raise_move is None or raise_move.incomplete:
            return legal["call"]
        return raise_move

    def discards(self, cards: Sequence[int]) -> list[int]:
        keep, _, _ = self.draw_plan(cards)
        return [c for i, c in enumerate(cards) if not (keep >> i) & 1]


__all__ = ["StrengthTables", "TypePolicy", "hand_key_of", "house", "percentile", "type_keep"]
