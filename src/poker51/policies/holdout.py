"""Hold-out opponents: player types Riemann never trained on (issue 12, section 3).

The training population (:mod:`poker51.games.population`, ``config/population.yaml``) is
written in the abstraction's terms: percentiles of buckets and classes through logistic
ramps.  The hold-out types of ``config/holdout.yaml`` are defined independently, on real
cards, and never enter a solve:

``kind: rules``
    A rule player that reads its hand as a poker player does, by the named **hand level**
    of its cards (:data:`LEVELS`, weakest first): ``high_card``; before the draw only,
    ``straight_draw`` (four cards of five consecutive ranks, open-ended or inside, the ace
    high or low) and ``flush_draw`` (four of a suit); ``pair_2`` .. ``pair_A``;
    ``two_pair``, ``three_of_a_kind``, ``straight``, ``flush``, ``full_house``,
    ``four_of_a_kind`` (and better).  Made hands come from the variant's showdown strength
    (a marker hand at its best); draws from the natural cards.  Per round (``pre``,
    ``post``) it has three thresholds: ``open`` (bet ``size`` with at least this level,
    otherwise bluff with probability ``bluff``), ``call`` and ``raise`` (facing a bet or a
    raise: raise with at least ``raise``, call with at least ``call``, else fold);
    ``never`` disables one.  ``draw: house`` draws by the House rule; ``draw: chase``
    keeps four to a flush, else four to any straight, whenever its hand is at most one pair
    (breaking the pair), else the House rule.
``kind: v05``
    Riemann's own v0.3–v0.5 read-and-threshold policy (:mod:`poker51.policies.v05`) mirrored into
    seat H: it draws by the House rule and reads its hand against the variant's belief table
    with Riemann's draw-count row (before the draw, when that count is not known yet, the
    random-hand row 5); it opens with a bet of 2 as Riemann answers a check (step 6),
    answers Riemann's bet as Riemann answers a bet of 2 (steps 3–4, raise included) and
    Riemann's raise as Riemann answers a raise of its bet (step 7).

Randomness (the bluffs): one uniform per opening from ``Generator(PCG64(SeedSequence(seed,
spawn_key=(n,))))`` for the player's ``n``-th hand, as :class:`poker51.policies.types.TypePlayer`
does, so the v0.6 and v0.5 matches of the evidence run see the same random numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from poker51.abstraction.tables import AbstractionTables
from poker51.errors import ConfigError
from poker51.hands.evaluate import category_of, strength
from poker51.hands.house import house_keep
from poker51.play.actions import Action, View
from poker51.policies.v05 import (
    in_bluff_class,
    post_draw_read,
    pre_draw_read,
    respond_to_bet,
    respond_to_raise_of_bet,
    when_checked_to,
)
from poker51.rules import BET_SIZES, MARKER_CARD, RIEMANN_BET, VARIANT_RULES
from poker51.validation import load_yaml

#: hand levels, weakest first (module docstring)
LEVELS: tuple[str, ...] = (
    "high_card", "straight_draw", "flush_draw",
    *(f"pair_{r}" for r in "23456789TJQKA"),
    "two_pair", "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind",
)  # fmt: skip
NEVER = "never"
KINDS = ("rules", "v05")
DRAWS = ("house", "chase")
ROUNDS = ("pre", "post")
_CATEGORY_LEVEL = {2: "two_pair", 3: "three_of_a_kind", 4: "straight", 5: "flush", 6: "full_house"}


def _level_index(name: str, where: str) -> int:
    if name == NEVER:
        return len(LEVELS)
    if name not in LEVELS:
        raise ConfigError(f"{where}: {name!r} is not a hand level (one of {', '.join(LEVELS)} or {NEVER})")
    return LEVELS.index(name)


@dataclass(frozen=True)
class RoundRule:
    """Thresholds of one round as :data:`LEVELS` indices (``len(LEVELS)`` = never)."""

    open: int
    call: int
    raise_: int


@dataclass(frozen=True)
class HoldoutType:
    """One hold-out type of ``config/holdout.yaml`` (module docstring)."""

    name: str
    kind: str
    draw: str = "house"
    size: int = 2
    bluff: float = 0.0
    pre: RoundRule | None = None
    post: RoundRule | None = None

    @classmethod
    def from_config(cls, name: str, cfg: Any, source: str = "holdout") -> HoldoutType:
        where = f"{source}: types.{name}"
        if not isinstance(cfg, Mapping):
            raise ConfigError(f"{where}: expected a mapping of keys")
        kind = cfg.get("kind")
        if kind not in KINDS:
            raise ConfigError(f"{where}.kind: {kind!r} is not one of {', '.join(KINDS)}")
        if kind == "v05":
            extra = set(cfg) - {"kind"}
            if extra:
                raise ConfigError(f"{where}: unknown key {sorted(extra)[0]!r} for kind v05")
            return cls(name, "v05")
        allowed = {"kind", "draw", "size", "bluff", "pre", "post"}
        if set(cfg) - allowed:
            raise ConfigError(f"{where}: unknown key {sorted(set(cfg) - allowed)[0]!r}")
        missing = sorted(allowed - set(cfg))
        if missing:
            raise ConfigError(f"{where}: missing key {missing[0]!r}")
        if cfg["draw"] not in DRAWS:
            raise ConfigError(f"{where}.draw: {cfg['draw']!r} is not one of {', '.join(DRAWS)}")
        if cfg["size"] not in BET_SIZES or isinstance(cfg["size"], bool):
            raise ConfigError(f"{where}.size: {cfg['size']!r} is not one of {', '.join(map(str, BET_SIZES))}")
        bluff = cfg["bluff"]
        if isinstance(bluff, bool) or not isinstance(bluff, (int, float)) or not 0.0 <= bluff <= 1.0:
            raise ConfigError(f"{where}.bluff: {bluff!r} is not a probability in 0..1")
        rounds = {}
        for rnd in ROUNDS:
            r = cfg[rnd]
            if not isinstance(r, Mapping) or set(r) != {"open", "call", "raise"}:
                raise ConfigError(f"{where}.{rnd}: needs exactly the keys open, call and raise")
            rounds[rnd] = RoundRule(*(_level_index(r[k], f"{where}.{rnd}.{k}") for k in ("open", "call", "raise")))
        return cls(name, "rules", cfg["draw"], int(cfg["size"]), float(bluff), rounds["pre"], rounds["post"])


def load_holdout(path_or_cfg: str | Path | Mapping[str, Any]) -> tuple[HoldoutType, ...]:
    """Read ``config/holdout.yaml`` (or a dict of its shape); a missing file, bad YAML or a bad
    key is one :class:`~poker51.errors.ConfigError` line naming the file and the key."""
    source = "holdout" if isinstance(path_or_cfg, Mapping) else str(path_or_cfg)
    cfg: Any = path_or_cfg if isinstance(path_or_cfg, Mapping) else load_yaml(path_or_cfg, "hold-out types file")
    if not isinstance(cfg, Mapping) or set(cfg) != {"types"} or not isinstance(cfg["types"], Mapping):
        raise ConfigError(f"{source}: needs exactly one key, 'types', a mapping of type names")
    if len(cfg["types"]) < 1:
        raise ConfigError(f"{source}: types: at least one type")
    return tuple(HoldoutType.from_config(str(n), c, source) for n, c in cfg["types"].items())


# --------------------------------------------------------------------------- hand levels
def _draw_level(cards: Sequence[int]) -> str | None:
    """``flush_draw`` / ``straight_draw`` of the natural cards (marker excluded), else None."""
    nat = [int(c) for c in cards]
    suits = [c & 3 for c in nat]
    if max(suits.count(s) for s in range(4)) >= 4:
        return "flush_draw"
    ranks = {c >> 2 for c in nat}
    ranks |= {-1} if 12 in ranks else set()  # the ace plays low too
    for lo in range(-1, 9):
        if len(ranks & set(range(lo, lo + 5))) >= 4:
            return "straight_draw"
    return None


def hand_level(cards: Sequence[int], variant: str, before_draw: bool) -> int:
    """The :data:`LEVELS` index of a five-card hand (draws count only ``before_draw``)."""
    s = strength(list(cards), VARIANT_RULES[variant])
    cat = int(category_of(s))
    if cat >= 7:
        return LEVELS.index("four_of_a_kind")
    if cat >= 2:
        return LEVELS.index(_CATEGORY_LEVEL[cat])
    if cat == 1:
        return LEVELS.index(f"pair_{'23456789TJQKA'[(s >> 16) & 15]}")
    if before_draw:
        naturals = [c for c in cards if not (variant != "standard" and c == MARKER_CARD)]
        d = _draw_level(naturals) if len(naturals) == 5 else None
        if d is not None:
            return LEVELS.index(d)
    return 0


#: straight windows, highest first: T-J-Q-K-A .. 2-3-4-5-6, then the wheel A-2-3-4-5
_WINDOWS = tuple(frozenset(range(top - 4, top + 1)) for top in range(12, 3, -1)) + (frozenset({12, 0, 1, 2, 3}),)


def chase_keep(cards: Sequence[int], variant: str) -> int:
    """``draw: chase``: with at most a pair and no marker, keep four to a flush, else four cards
    of the highest straight window holding four distinct ranks; otherwise the House rule.
    A keep mask over the positions of ``cards``.

    >>> from poker51.cards import parse_cards
    >>> chase_keep(parse_cards("9h 9d Th Jh Qh"), "standard")   # breaks the nines for the flush
    29
    >>> chase_keep(parse_cards("5c 6d 8h 9s Kd"), "standard")   # the inside straight 5-6-_-8-9
    15
    """
    cards = [int(c) for c in cards]
    if hand_level(cards, variant, before_draw=False) <= LEVELS.index("pair_A") and not (
        variant != "standard" and MARKER_CARD in cards
    ):
        for suit in range(4):
            pos = [i for i, c in enumerate(cards) if c & 3 == suit]
            if len(pos) == 4:
                return sum(1 << i for i in pos)
        for window in _WINDOWS:
            pos, used = [], set()
            for i, c in enumerate(cards):
                if c >> 2 in window and c >> 2 not in used:
                    pos.append(i)
                    used.add(c >> 2)
            if len(pos) == 4:
                return sum(1 << i for i in pos)
    return house_keep(cards, VARIANT_RULES[variant])[0]


# --------------------------------------------------------------------------- players
class HoldoutPlayer:
    """A ``kind: rules`` type in seat H (module docstring)."""

    def __init__(self, htype: HoldoutType, variant: str, seed: int):
        if htype.kind != "rules" or htype.pre is None or htype.post is None:
            raise ValueError(f"{htype.name} is not a rules type")
        self.htype, self.variant, self.seed = htype, variant, int(seed)
        self.hands_started = 0
        self.rng = self._hand_rng(0)

    def _hand_rng(self, n: int) -> np.random.Generator:
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence(self.seed, spawn_key=(n,))))

    def choose_keep(self, view: View) -> int:
        self.rng = self._hand_rng(self.hands_started)
        self.hands_started += 1
        cards = list(view.cards)
        if self.htype.draw == "chase":
            return chase_keep(cards, self.variant)
        return house_keep(cards, VARIANT_RULES[self.variant])[0]

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        rule = self.htype.pre if view.phase == "pre" else self.htype.post
        assert rule is not None
        level = hand_level(view.cards, self.variant, before_draw=view.phase == "pre")
        kinds = {a.kind: a for a in legal}
        if "call" in kinds:
            if level >= rule.raise_ and "raise" in kinds:
                return kinds["raise"]
            return kinds["call"] if level >= rule.call else kinds["fold"]
        bet = _sized_bet(legal, self.htype.size, view.stack)
        if bet is not None and (level >= rule.open or self.rng.random() < self.htype.bluff):
            return bet
        return kinds["check"]


class V05Human:
    """The v0.5 policy in seat H (``kind: v05``; module docstring)."""

    def __init__(self, variant: str, belief: np.ndarray):
        self.variant, self.rule, self.belief = variant, VARIANT_RULES[variant], np.asarray(belief)

    def choose_keep(self, view: View) -> int:
        return house_keep(list(view.cards), self.rule)[0]

    def read(self, view: View) -> float:
        if view.phase == "pre":
            return pre_draw_read(view.cards, 5, self.belief, self.variant)
        return post_draw_read(view.cards, int(view.opp_draw_count or 0), self.belief, self.variant)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        kinds = {a.kind: a for a in legal}
        read = self.read(view)
        bluff = 1.0 if in_bluff_class(view.cards) else 0.0
        pot0 = view.pot - view.round_bet - view.opp_round_bet
        if "call" not in kinds:  # opening: as Riemann answers a check (step 6)
            bet = _sized_bet(legal, RIEMANN_BET, view.stack)
            p = when_checked_to(read, bluff, can_bet=bet is not None)
            return bet if p[1] > p[0] and bet is not None else kinds["check"]
        if view.opp_round_bet > view.round_bet and view.round_bet == 0:  # Riemann bet after the check
            p = respond_to_bet(read, view.to_call, pot0, bluff, can_raise="raise" in kinds)
            return kinds[("fold", "call", "raise")[int(np.argmax(p))]]
        p = respond_to_raise_of_bet(read, view.pot, int(view.opening_bet or RIEMANN_BET))  # Riemann raised
        return kinds[("fold", "call")[int(np.argmax(p))]]


def _sized_bet(legal: Sequence[Action], size: int, stack: int) -> Action | None:
    """The bet of ``size`` when legal; all in when the balance is below it; else the largest below."""
    amounts = {a.amount: a for a in legal if a.kind == "bet"}
    if size in amounts:
        return amounts[size]
    if stack < size and stack in amounts:
        return amounts[stack]
    below = [a for a in amounts if a is not None and a < size]
    return amounts[max(below)] if below else None


def holdout_player(htype: HoldoutType, variant: str, tables: AbstractionTables, seed: int):
    """The seat-H player of a hold-out type on ``variant`` (``tables``: the belief table of v05)."""
    if htype.kind == "v05":
        return V05Human(variant, tables.belief_array())
    return HoldoutPlayer(htype, variant, seed)


__all__ = [
    "HoldoutPlayer", "HoldoutType", "LEVELS", "RoundRule", "V05Human", "chase_keep", "hand_level",
    "holdout_player", "load_holdout",
]  # fmt: skip
