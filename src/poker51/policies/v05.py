"""Riemann v0.3–v0.5: the read-and-threshold policy, on real cards and in the abstraction.

Source: the live rule card v0.6, "Riemann v0.3–v0.5: the read-and-threshold policy"
(steps 1–7; "step n" below).  Riemann sits in seat R; H acts first in both rounds.

Step 1, the read ``r``
    :func:`poker51.abstraction.belief.read_score`: ``0.6 · score(row d) + 0.4 · score(row 5)`` of
    Riemann's final strength against the belief table, ties counted half, ``d`` = H's
    draw count.  A five-card draw by H (rule card point 2 allows it) uses row 5 for both
    terms: the final hand of a five-card draw is a random hand of the cards not held,
    which is exactly what row 5 stores (:mod:`poker51.abstraction.belief`).  On real cards
    :func:`fast_read` computes the same numbers by binary search (tested equal).
Step 2, before the draw
    The average read over :data:`N_COMPLETIONS` = 128 completions of Riemann's own
    House-rule draw, each ``d`` cards drawn uniformly without replacement from the
    cards of the variant outside its five (46 standard, 47 wild/bug).  Deterministic:
    the generator is ``numpy.random.default_rng(fnv1a_64(b"poker51-v05-completions" +
    bytes(sorted(cards))))`` and sample ``i`` takes the first ``d`` cards of the
    ``argsort`` of a row of uniforms over the outside cards (ascending), so the same
    five cards always give the same score, whatever their order.  A stand-pat hand is
    one evaluation.  After the draw: the read of its actual five cards.
Step 3, range adjustment
    ``score' = max(0, min(1, (r - (1 - f)) / f))`` with ``f`` = 1.00, 0.85, 0.70, 0.55
    for H's bets of 1, 2, 4, 8 (:data:`RANGE_FRACTION`); a re-raise halves ``f``.  An
    all-in bet of another amount (short stacks only) uses the nearest of 1/2/4/8 in
    jbits, ties to the smaller size (3 → 2, 5 and 6 → 4, 7 → 8): a design choice that
    matches the v0.6 reading of all-in sizes.
Step 4, facing H's bet ``B``
    Raise if ``score' ≥ 0.70``; bluff-raise if ``score' < 0.10`` and the FNV-1a hash of
    its own cards is in the 1-in-8 class (:func:`in_bluff_class`); otherwise call if
    ``score' ≥ B / (P₀ + 2B)``, else fold.
Step 5, facing H's re-raise
    Call if ``score'`` (``f`` halved) ``≥ B / (P₀ + 6B)``, else fold.
Step 6, checked to
    Bet 2 if the read ``r ≥ 0.70`` (H checked: its whole range, ``f = 1``) or
    ``r < 0.10`` in the bluff class; else check.
Step 7, facing H's raise of its bet
    With ``P`` the pot after H's raise and ``B`` = 2 Riemann's bet, call if the score
    with H's range halved is ``≥ B / (P + B)``, else fold.  "Halved as for a re-raise":
    H raised by 2, which reads as a bet of 2 (``f`` = 0.85), halved: ``f`` = 0.425.

Riemann never bets or raises against a player with no balance left (steps 4 and 6);
a raise it cannot make (H all in, or Riemann unable to cover it) becomes the call or
fold of the same step without the raise rule, and a bet it cannot make a check.

The pot ``P₀`` (step 4) in the real engine
    ``P₀`` = both players' total contributions at the start of the current round,
    antes included: ``view.pot - view.round_bet - view.opp_round_bet`` (2 before the
    draw; after the draw twice what each put in before it).  ``B`` is the round's
    opening bet, ``view.opening_bet``.  In the abstraction the same quantities come
    from the drawgame line (:func:`line_contributions`).

The hash class (step 4)
    ``fnv1a_64(bytes(sorted(cards))) % 8 == 0`` over Riemann's current five cards
    (dealt before the draw, final after it).  In the abstraction, where cards are not
    known, a bluff-class decision is taken with probability exactly 1/8.

In the abstraction (:func:`abstract_policy`)
    R's information sets hold H's draw count read as 4 for a five-card draw, so the
    abstract read uses row ``min(d, 4)``.  The read of a bucket is the probability-
    weighted mean read over the exact final-strength distribution of House-rule hands
    inside the bucket (:func:`poker51.abstraction.buckets.final_strength_distribution`); before
    the draw it is the expectation of that over R's class transition ``r_trans[c]``.
    The thresholds are then applied to that mean read.  H's information sets stay
    uniform.  See ``docs/v05.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from poker51.abstraction.belief import N_ROWS, RANDOM_ROW, READ_WEIGHT_DRAW, READ_WEIGHT_RANDOM, read_score
from poker51.abstraction.buckets import bucket_of_strength, final_strength_distribution
from poker51.abstraction.classes import hand_table
from poker51.abstraction.tables import AbstractionArrays, AbstractionTables
from poker51.fnv import fnv1a_64
from poker51.hands.evaluate import strength as eval_strength
from poker51.hands.evaluate import strengths as eval_strengths
from poker51.hands.house import house_keep
from poker51.play.actions import Action, View
from poker51.play.engine import variant_cards
from poker51.rules import ANTE, RIEMANN_BET, VARIANT_RULES
from poker51.solver.tree import Game

#: sample completions of its own House-rule draw before the draw (step 2)
N_COMPLETIONS = 128
#: H's bet -> the fraction f of its modelled range it represents (step 3)
RANGE_FRACTION = {1: 1.00, 2: 0.85, 4: 0.70, 8: 0.55}
#: a re-raise halves f (step 3; also "halved as for a re-raise" in step 7)
RERAISE_FACTOR = 0.5
#: raise at an adjusted score of 70% or above (step 4)
RAISE_AT = 0.70
#: bluff-raise below 10%, in the hash class (step 4)
BLUFF_BELOW = 0.10
#: the bluff hash class is 1 in 8 (step 4)
BLUFF_CLASS_SIZE = 8
#: call a bet B if score' >= B / (P0 + CALL_BET_BETS * B) (step 4)
CALL_BET_BETS = 2
#: call a re-raise if score' >= B / (P0 + CALL_RERAISE_BETS * B) (step 5)
CALL_RERAISE_BETS = 6
#: checked to: bet at a read of 70% or better (step 6)
BET_AT = 0.70
#: facing H's raise of its bet: call if score >= B / (P + CALL_RAISED_BETS * B) (step 7)
CALL_RAISED_BETS = 1

_COMPLETION_DOMAIN = b"poker51-v05-completions"


# --------------------------------------------------------------------------- formulas
def range_fraction(bet: int, reraise: bool = False) -> float:
    """The fraction ``f`` of H's range a bet represents (step 3); a re-raise halves it.

    >>> range_fraction(2), range_fraction(8, reraise=True), range_fraction(3), range_fraction(7)
    (0.85, 0.275, 0.85, 0.55)
    """
    b = int(bet)
    if b not in RANGE_FRACTION:
        if b < 1:
            raise ValueError(f"a bet is at least 1 jbit, got {bet}")
        b = min(RANGE_FRACTION, key=lambda s: (abs(s - b), s))  # nearest size, ties to the smaller
    f = RANGE_FRACTION[b]
    return f * RERAISE_FACTOR if reraise else f


def adjusted_score(read: float, f: float) -> float:
    """``max(0, min(1, (r - (1 - f)) / f))`` (step 3).

    >>> adjusted_score(0.9, 0.85), adjusted_score(0.1, 0.55), adjusted_score(1.0, 0.7)
    (0.8823529411764706, 0.0, 1.0)
    """
    return max(0.0, min(1.0, (float(read) - (1.0 - f)) / f))


def call_threshold(bet: float, pot0: float) -> float:
    """``B / (P₀ + 2B)``: the price of calling an opening bet (step 4)."""
    return bet / (pot0 + CALL_BET_BETS * bet)


def reraise_threshold(bet: float, pot0: float) -> float:
    """``B / (P₀ + 6B)``: the price of calling a re-raise (step 5)."""
    return bet / (pot0 + CALL_RERAISE_BETS * bet)


def raised_threshold(bet: float, pot: float) -> float:
    """``B / (P + B)`` with ``P`` the pot after H's raise of Riemann's bet (step 7)."""
    return bet / (pot + CALL_RAISED_BETS * bet)


def in_bluff_class(cards: Sequence[int]) -> bool:
    """True when ``fnv1a_64(bytes(sorted(cards)))`` falls in the fixed 1-in-8 class (residue 0).

    >>> from poker51.cards import parse_cards
    >>> in_bluff_class(parse_cards("Ah Kd 7c 5s 3h")) == in_bluff_class(parse_cards("3h 5s 7c Kd Ah"))
    True
    """
    return fnv1a_64(bytes(sorted(int(c) for c in cards))) % BLUFF_CLASS_SIZE == 0


# --------------------------------------------------------------------------- decisions
# Each returns the probabilities of the node's actions in drawgame order.  ``bluff`` is
# the probability that a bluff-class rule fires: 0 or 1 on real cards, 1/8 in the abstraction.
def respond_to_bet(read: float, bet: int, pot0: float, bluff: float, can_raise: bool = True) -> np.ndarray:
    """(fold, call, raise) facing H's opening bet ``bet`` (steps 3–4)."""
    s = adjusted_score(read, range_fraction(bet))
    base = np.array([0.0, 1.0, 0.0]) if s >= call_threshold(bet, pot0) else np.array([1.0, 0.0, 0.0])
    if not can_raise:  # step 4: never raises a player with no balance left
        return base
    if s >= RAISE_AT:
        return np.array([0.0, 0.0, 1.0])
    if s < BLUFF_BELOW:
        return (1.0 - bluff) * base + bluff * np.array([0.0, 0.0, 1.0])
    return base


def respond_to_reraise(read: float, bet: int, pot0: float) -> np.ndarray:
    """(fold, call) facing H's re-raise of an opening bet ``bet`` (step 5, ``f`` halved)."""
    s = adjusted_score(read, range_fraction(bet, reraise=True))
    return np.array([0.0, 1.0]) if s >= reraise_threshold(bet, pot0) else np.array([1.0, 0.0])


def when_checked_to(read: float, bluff: float, can_bet: bool = True) -> np.ndarray:
    """(check, bet 2) after H's check (step 6)."""
    if not can_bet:
        return np.array([1.0, 0.0])
    if read >= BET_AT:
        return np.array([0.0, 1.0])
    if read < BLUFF_BELOW:
        return np.array([1.0 - bluff, bluff])
    return np.array([1.0, 0.0])


def respond_to_raise_of_bet(read: float, pot: float, bet: int = RIEMANN_BET) -> np.ndarray:
    """(fold, call) facing H's raise of Riemann's bet; ``pot`` after the raise (step 7)."""
    s = adjusted_score(read, range_fraction(bet, reraise=True))
    return np.array([0.0, 1.0]) if s >= raised_threshold(bet, pot) else np.array([1.0, 0.0])


# --------------------------------------------------------------------------- lines
def line_contributions(tokens: Sequence[str], start: tuple[float, float] = (ANTE, ANTE)) -> tuple[float, float]:
    """(H, R) contributions after a round's drawgame tokens (H acts first), from ``start``.

    >>> line_contributions(["b4", "r", "r", "c"]), line_contributions(["x", "b2", "r"], (3, 3))
    ((13, 13), (7, 5))
    """
    c = [start[0], start[1]]
    unit = 0
    for i, tok in enumerate(tokens):
        me, opp = i % 2, 1 - i % 2
        if tok == "x" or tok == "f":
            continue
        if tok.startswith("b"):
            unit = int(tok[1:])
            c[me] += unit
        elif tok == "c":
            c[me] = c[opp]
        elif tok == "r":
            c[me] = c[opp] + unit
        else:
            raise ValueError(f"unknown betting token {tok!r}")
    return c[0], c[1]


def _tokens(line: str) -> list[str]:
    return line.split("-") if line else []


def spot_probabilities(
    tokens: Sequence[str], read: float, pot0: float, bluff: float, can_raise: bool = True
) -> np.ndarray:
    """Riemann's action probabilities after the round's ``tokens`` (drawgame action order).

    ``pot0`` is the pot at the start of the round; the rule of the spot is chosen by the
    tokens: ``x`` (step 6), ``bB`` (4), ``bB-r-r`` (5), ``x-b2-r`` (7).
    """
    t = list(tokens)
    if t == ["x"]:
        return when_checked_to(read, bluff, can_raise)
    if len(t) == 1 and t[0].startswith("b"):
        return respond_to_bet(read, int(t[0][1:]), pot0, bluff, can_raise)
    if len(t) == 3 and t[0].startswith("b") and t[1:] == ["r", "r"]:
        return respond_to_reraise(read, int(t[0][1:]), pot0)
    if t == ["x", f"b{RIEMANN_BET}", "r"]:
        h, r = line_contributions(t, (pot0 / 2, pot0 / 2))
        return respond_to_raise_of_bet(read, h + r, RIEMANN_BET)
    raise ValueError(f"Riemann does not act after the line {'-'.join(t)!r}")


# --------------------------------------------------------------------------- real cards
def _rule(variant: str) -> int:
    if variant not in VARIANT_RULES:
        raise ValueError(f"unknown variant {variant!r}; expected one of {sorted(VARIANT_RULES)}")
    return VARIANT_RULES[variant]


@lru_cache(maxsize=65536)
def completion_strengths(cards: tuple[int, ...], variant: str) -> np.ndarray:
    """Final strengths of the deterministic completions of a hand's House-rule draw (step 2).

    ``cards`` sorted; one strength when the House rule stands pat, else
    :data:`N_COMPLETIONS` (module docstring for the sampling).  Read-only result.
    """
    rule = _rule(variant)
    hand = np.array(sorted(cards), dtype=np.int64)
    mask, d = house_keep(hand, rule)
    if d == 0:
        out = np.array([eval_strength(hand, rule)], dtype=np.int32)
    else:
        kept = hand[[(mask >> i) & 1 == 1 for i in range(5)]]
        outside = np.array([c for c in variant_cards(variant) if c not in set(hand.tolist())], dtype=np.int64)
        rng = np.random.default_rng(fnv1a_64(_COMPLETION_DOMAIN + bytes(hand.tolist())))
        drawn = outside[np.argsort(rng.random((N_COMPLETIONS, outside.size)), axis=1, kind="stable")[:, :d]]
        finals = np.concatenate([np.broadcast_to(kept, (N_COMPLETIONS, kept.size)), drawn], axis=1)
        out = eval_strengths(finals, rule)
    out.setflags(write=False)
    return out


def fast_read(strengths, belief: np.ndarray, human_draw: int) -> np.ndarray:
    """:func:`poker51.abstraction.belief.read_score` by binary search on the sorted belief rows.

    ``(#below + #equal / 2) / Q`` per row is ``(searchsorted left + searchsorted right) / 2Q``;
    the tests check it against ``read_score``.  Used on real cards, 128 strengths a decision.
    """
    s = np.asarray(strengths)
    q = belief.shape[1]

    def row(d):
        r = belief[d]
        return (np.searchsorted(r, s, "left") + np.searchsorted(r, s, "right")) / (2.0 * q)

    d = int(human_draw)
    if not 0 <= d < N_ROWS:
        raise ValueError("human draw counts are 0..5")
    return READ_WEIGHT_DRAW * row(d) + READ_WEIGHT_RANDOM * row(RANDOM_ROW)


def pre_draw_read(cards: Sequence[int], human_draw: int, belief: np.ndarray, variant: str) -> float:
    """Mean read over the completions of its own House draw (steps 1–2)."""
    s = completion_strengths(tuple(sorted(int(c) for c in cards)), variant)
    return float(np.mean(fast_read(s, belief, human_draw)))


def post_draw_read(cards: Sequence[int], human_draw: int, belief: np.ndarray, variant: str) -> float:
    """The read of its actual five cards (steps 1–2)."""
    return float(fast_read(eval_strength(list(cards), _rule(variant)), belief, human_draw))


_KIND_TOKEN = {"check": "x", "call": "c", "raise": "r", "fold": "f"}


def _round_tokens(view: View) -> list[str]:
    toks = []
    for rec in view.line:
        if rec.round == view.phase:
            toks.append(f"b{rec.amount}" if rec.kind == "bet" else _KIND_TOKEN[rec.kind])
    return toks


class V05Player:
    """Riemann v0.5 for seat R of :mod:`poker51.play.engine` (module docstring).

    ``belief`` is the variant's (6, 1000) belief table
    (:meth:`poker51.abstraction.tables.AbstractionTables.belief_array`).  Deterministic and stateless apart
    from a cache of reads (by cards, round and H's draw count, at most ``cache_size``): the same cards in
    the same spot give the same action.
    """

    def __init__(self, variant: str, belief: np.ndarray):
        self.variant = variant
        self.rule = _rule(variant)
        self.belief = np.asarray(belief)
        if self.belief.shape[0] != N_ROWS:
            raise ValueError(f"a belief table has {N_ROWS} rows, got {self.belief.shape}")
        self._reads: dict[tuple[bool, tuple[int, ...], int], float] = {}
        self.cache_size = 500_000

    @classmethod
    def from_tables(cls, variant: str, tables: AbstractionTables) -> V05Player:
        return cls(variant, tables.belief_array())

    def choose_keep(self, view: View) -> int:
        """The House rule (rule card, The House rule for the draw)."""
        return house_keep(list(view.cards), self.rule)[0]

    def read(self, view: View) -> float:
        if view.opp_draw_count is None:
            raise ValueError("H's draw count is not announced yet")
        d = int(view.opp_draw_count)
        key = (view.phase == "pre", tuple(view.cards), d)
        r = self._reads.get(key)
        if r is None:
            if len(self._reads) >= self.cache_size:
                self._reads.clear()  # bounded memory over millions of hands
            read = pre_draw_read if view.phase == "pre" else post_draw_read
            r = self._reads[key] = read(view.cards, d, self.belief, self.variant)
        return r

    def probabilities(self, view: View, legal: Sequence[Action]) -> tuple[list[str], np.ndarray]:
        """(action kinds, 0/1 probabilities) of the v0.5 decision in this spot."""
        tokens = _round_tokens(view)
        kinds = {a.kind for a in legal}
        # steps 4 and 6: no bet or raise against a player with no balance (or one the engine forbids)
        can_raise = view.opp_stack > 0 and ("bet" if tokens == ["x"] else "raise") in kinds
        pot0 = view.pot - view.round_bet - view.opp_round_bet
        bluff = 1.0 if in_bluff_class(view.cards) else 0.0
        if tokens == ["x"]:
            names = ["check", "bet"]
        elif len(tokens) == 1:
            names = ["fold", "call", "raise"]
        else:
            names = ["fold", "call"]
        return names, spot_probabilities(tokens, self.read(view), pot0, bluff, can_raise)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        names, p = self.probabilities(view, legal)
        kind = names[int(np.argmax(p))]
        by_kind = {a.kind: a for a in legal}
        if kind not in by_kind:  # cannot happen when can_raise follows legal; keep the engine safe
            kind = "call" if "call" in by_kind else "check"
        return by_kind[kind]


# --------------------------------------------------------------------------- abstraction
@lru_cache(maxsize=3)
def _final_distribution(variant: str) -> tuple[np.ndarray, np.ndarray]:
    values, weights, _ = final_strength_distribution(hand_table(variant))
    return values, weights


def bucket_reads(tables: AbstractionTables, variant: str) -> np.ndarray:
    """(B, 6): the mean read of each bucket against each human draw row 0..5.

    Each bucket's read is the probability-weighted mean of :func:`read_score` over the
    exact distribution of House-rule final strengths in the bucket.
    """
    belief = tables.belief_array()
    values, weights = _final_distribution(variant)
    buckets = tables.buckets.sort_values("bucket")
    b = bucket_of_strength(values, buckets).astype(np.int64)
    n_b = len(buckets)
    w = weights.astype(np.float64)
    mass = np.bincount(b, weights=w, minlength=n_b)
    out = np.empty((n_b, N_ROWS))
    for d in range(N_ROWS):
        r = read_score(values, belief, np.full(values.shape, d))
        out[:, d] = np.bincount(b, weights=w * r, minlength=n_b) / mass
    return out


def abstract_policy(
    game: Game, ab: AbstractionArrays, tables: AbstractionTables, base: np.ndarray | None = None
) -> np.ndarray:
    """The v0.5 policy as a full policy vector of a :mod:`poker51.games.abstract` game.

    Every R information set gets the v0.5 decision (module docstring); H's sets keep
    ``base`` (default uniform).  Rows sum to 1.  Works for the recall game too (R's
    post-draw state is then ``(class, bucket)``; its key holds the bucket).
    """
    policy = game.uniform_policy() if base is None else np.array(base, np.float64)
    reads = bucket_reads(tables, ab.variant)  # (B, 6)
    pre_reads = np.asarray(ab.r_trans) @ reads  # (C, 6)
    a = game.arrays
    bluff = 1.0 / BLUFF_CLASS_SIZE
    spots: dict[tuple, np.ndarray] = {}  # a decision depends on (street, line, read): not on R's draw count
    for i, (_player, key) in enumerate(game.iset_keys):
        if key[0] != "R":
            continue
        _, street, d4, _k, pre, post, state = key
        b = state[1] if isinstance(state, tuple) else state
        spot = (street, d4, pre, post if street else "", b)
        p = spots.get(spot)
        if p is None:
            if street == 0:
                tokens, read, pot0 = _tokens(pre), pre_reads[state, d4], 2.0 * ANTE
            else:
                h, r = line_contributions(_tokens(pre))
                tokens, read, pot0 = _tokens(post), reads[b, d4], float(h + r)
            p = spots[spot] = spot_probabilities(tokens, float(read), pot0, bluff)
        lo, hi = int(a.act_off[i]), int(a.act_off[i + 1])
        if hi - lo != p.size:
            raise AssertionError(f"{key}: {hi - lo} actions, the v0.5 rule gives {p.size}")
        policy[lo:hi] = p
    return policy


__all__ = [
    "BET_AT", "BLUFF_BELOW", "BLUFF_CLASS_SIZE", "N_COMPLETIONS", "RAISE_AT", "RANGE_FRACTION", "RERAISE_FACTOR",
    "RIEMANN_BET", "V05Player", "abstract_policy", "adjusted_score", "bucket_reads", "call_threshold",
    "completion_strengths", "fast_read", "in_bluff_class", "line_contributions", "post_draw_read", "pre_draw_read",
    "raised_threshold", "reraise_threshold", "respond_to_bet", "respond_to_raise_of_bet", "respond_to_reraise",
    "spot_probabilities", "when_checked_to",
]  # fmt: skip
