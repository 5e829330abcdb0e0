"""The heads-up room (kind ``"headsup"``): one person in seat H against Riemann (rule card v0.6, seed 001).

The room drives :class:`poker51.play.engine.HandState` through its table protocol
(``verify_play``/``play``, ``view_json``) and adds no rule: every refusal is the engine's
:class:`~poker51.table.errors.IllegalAction`, naming its rule, except the room's own three
(:data:`RULE_OWNER`, :data:`RULE_NO_HAND`, :data:`RULE_POLICY`).

A hand
    ``deal`` buys in ``min(bank // 100, STACK_CAP)`` whole jbits from the owner's bank (the host's
    banks and movements are cents, 1 jbit = 100: a ``buyin`` movement
    with its receipt) and stakes :data:`HOUSE_STAKE` jbits of the house account as Riemann's
    stack (the most a hand can cost is 1 + 8 + 8 + 8 + 8 + 8 + 8 = 49, so neither cap ever
    changes a rule); the deck is ``table.deal.shuffle(seed, variant cards)`` of a fresh 32-byte
    seed (``secrets``, or a ``SeedSequence`` seed when the room's params give ``entropy``), its
    SHA-256 published at the deal and the seed when the hand ends.  ``act`` is H's betting
    action (its first carries the keep mask, locked and announced); Riemann answers at once
    (its actions are part of the same journal entry).  ``draw`` (the Draw / Stand pat button)
    draws H's locked keep, then Riemann's House-rule keep.  At the end the owner's stack comes
    back (``cashout``, with its receipt) and the house's stake with Riemann's net
    (``house_settle``); the hand's log is archived for the history.
Versions
    Every hand records its rules version (``v0.6``: Riemann's exported table; ``v0.5``: our v0.5
    reconstruction, :class:`poker51.policies.v05.V05Player`, on the v0.2 belief table) and the
    table's SHA-256 when there is one.  A restart replays the journal: H's actions and
    Riemann's recorded answers are played again on the same deck, so the hand resumes exactly
    under the version it was dealt with whatever the server loads now (Riemann's later decisions
    need that version's policy: a v0.6 hand needs its variant's table, a v0.5 hand the belief
    table).  The rules themselves are the same from v0.5 on; versions before v0.5 had no check
    (a v0.2-v0.4 hand would need the engine's older betting rules, which the engine does not
    keep: such a hand cannot be dealt here).
Riemann's words
    :func:`riemann_words`: our own lines, at the moments of the rule card (Riemann folds,
    calls at showdown, bets or raises, and the result once public), chosen by an FNV-1a hash
    of the public hand id, the moment and the public history (:func:`public_history`: the
    betting line and the draw counts).  No hidden card is ever read.
The draw-odds panel
    :func:`draw_odds`: for the selected keep, the exact category counts over every replacement
    of the discards from the cards H has not seen (46 in standard): the census kernel when all
    five are drawn, the strength kernel over every combination otherwise.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import combinations
from math import comb
from typing import Any, ClassVar

import numpy as np

from poker51.cards import MARKER
from poker51.fnv import fnv1a_64
from poker51.play.actions import DONE, DRAW, POST, PRE, RULE_ANTE, RULE_ORDER, H, R
from poker51.play.engine import HandState, variant_cards
from poker51.policies.riemann import riemann_keep
from poker51.rules import ANTE, CATEGORIES, VARIANT_RULES
from poker51.service.protocol import FrameError
from poker51.service.room import Event, Movement, Outcome
from poker51.table.deal import new_seed, seed_commitment, shuffle
from poker51.table.errors import IllegalAction, illegal
from poker51.table.protocol import TableAction

HOUSE = "house"
#: the host counts cents (1 jbit = 100 cents): banks, movements, chips and nets; the hand is whole jbits
from poker51.multi.law import JBIT  # noqa: E402  (cents per jbit: the tables' law is its one home)

#: the most of the owner's bank one hand buys in, and the house's stake for Riemann (jbits)
STACK_CAP = 64
HOUSE_STAKE = 64
RULES_VERSIONS = ("v0.6", "v0.5")
DEFAULT_RULES = "v0.6"

RULE_OWNER = "service: the room's owner plays seat H; anyone else with the link watches"
RULE_NO_HAND = "service: deal first; a hand is dealt with deal and ends at its showdown or fold"
RULE_IN_HAND = "rule card, A hand: one hand at a time; the next is dealt when this one has ended"
RULE_POLICY = "service: Riemann's policy of the hand's rules version must be loaded to play it"
RULE_ODDS = "the draw-odds panel: for a keep mask 0..31 of H's dealt cards, before the draw"

#: the room's commands and the fields each takes (besides ``type``)
COMMANDS = {"deal": (), "act": ("kind", "amount", "keep"), "draw": ()}


# --------------------------------------------------------------------------- Riemann's words
#: our own lines, in the rule card's restrained voice (not its lines); moment -> pool
WORDS: dict[str, tuple[str, ...]] = {
    "fold": (
        "Not this one. I leave the question open.",
        "The evidence does not carry me further.",
        "I withdraw, for the present.",
    ),
    "call": (
        "Then let us compare.",
        "I will follow the argument to its end.",
        "Show me; I should like to see it.",
    ),
    "raise": (
        "Let us test the estimate a little further.",
        "A stronger assumption, then.",
        "I would push the bound.",
    ),
    "win": (
        "The estimate held, this time.",
        "So it appears.",
    ),
    "loss": (
        "You were right to press. Instructive.",
        "I stand corrected.",
    ),
    "split": (
        "Equal, to the last card.",
        "Neither of us gains; both of us learn.",
    ),
}


def public_history(state: HandState) -> str:
    """Everything public about a hand so far: the betting line (round, seat, kind, amount) and
    the announced draw counts.  It reads no card."""
    parts = [f"{r.round}:{r.seat}:{r.kind}:{r.amount}" for r in state.records]
    counts = state.draw_counts
    if state.keeps[H] is not None:
        parts.append(f"hd:{5 - bin(int(state.keeps[H] or 0)).count('1')}")
    if counts[R] is not None:
        parts.append(f"rd:{counts[R]}")
    return ",".join(parts)


def riemann_words(hand_id: str, moment: str, history: str) -> str:
    """The line Riemann says at ``moment``, from the public hand id and history only."""
    pool = WORDS[moment]
    return pool[fnv1a_64(f"poker51-words/1|{hand_id}|{moment}|{history}".encode()) % len(pool)]


# --------------------------------------------------------------------------- the draw-odds panel
def unseen_cards(variant: str, dealt: Sequence[int]) -> list[int]:
    """The variant's cards H has not seen: every card but its five (46 standard, 47 wild/bug)."""
    mine = {int(c) for c in dealt}
    return [c for c in variant_cards(variant) if c not in mine]


@functools.lru_cache(maxsize=256)
def _odds(variant: str, kept: tuple[int, ...], unseen: tuple[int, ...]) -> tuple[int, ...]:
    n = 5 - len(kept)
    rule = VARIANT_RULES[variant]
    if n == 5:  # every five of the unseen cards: the census kernel
        from poker51.census.count import census
        from poker51.census.decks import Deck

        removed = tuple(c for c in range(52) if c not in set(unseen))
        marker_rule = {"standard": "ordinary"}.get(variant, variant)
        if MARKER not in unseen:
            marker_rule = "ordinary"
        counts = census(Deck(f"odds-{variant}", removed=removed, rule=marker_rule)).category_counts()
        return tuple(int(x) for x in counts)
    from poker51.hands.evaluate import strengths

    if n == 0:  # stand pat: the one hand kept
        combos = np.zeros((1, 0), np.int64)
    else:
        combos = np.fromiter(
            (c for combo in combinations(unseen, n) for c in combo), dtype=np.int64, count=comb(len(unseen), n) * n
        ).reshape(-1, n)
    hands = np.concatenate([np.broadcast_to(np.array(kept, np.int64), (combos.shape[0], len(kept))), combos], axis=1)
    cats = strengths(hands, rule, MARKER) >> 20
    return tuple(int(x) for x in np.bincount(cats, minlength=len(CATEGORIES)))


def draw_odds(variant: str, dealt: Sequence[int], keep: int) -> dict[str, Any]:
    """The draw-odds panel for keep mask ``keep`` of the five ``dealt`` cards (module docstring):
    ``{"keep", "draw", "total", "counts": {category: count}}`` (every category, zeros included)."""
    if not isinstance(keep, int) or isinstance(keep, bool) or not 0 <= keep <= 31:
        raise illegal(RULE_ODDS, f"a keep mask is an int 0..31, got {keep!r}")
    kept = tuple(int(c) for i, c in enumerate(dealt) if keep >> i & 1)
    unseen = tuple(unseen_cards(variant, dealt))
    counts = _odds(variant, kept, unseen)
    n = 5 - len(kept)
    total = comb(len(unseen), n)
    if sum(counts) != total:  # the two counts are independent: a kernel fault would show here
        raise RuntimeError(f"draw odds: {sum(counts)} hands counted, C({len(unseen)}, {n}) = {total}")
    return {"keep": keep, "draw": n, "total": total, "counts": dict(zip(CATEGORIES, counts))}


# --------------------------------------------------------------------------- the room
def _receipt(kind: str, player: str, jbits: int, room: str, hand: int, **extra: Any) -> dict[str, Any]:
    from poker51.multi.table import receipt

    return receipt(kind, player, jbits * 100, room, hand, 0, jbits=jbits, **extra)


def check_params(params: Any) -> dict[str, Any]:
    """The room's params, checked: ``owner`` (set by the host), ``variant``, ``rules``,
    ``entropy`` (tests and benchmarks: seeded decks)."""
    if not isinstance(params, dict):
        raise FrameError("bad_frame", "a room's params are a JSON object")
    extra = sorted(set(params) - {"owner", "variant", "rules", "entropy", "kind"})
    if extra:
        raise FrameError("bad_frame", f"a heads-up room has no param {extra[0]!r}")
    variant = params.get("variant", "standard")
    if variant not in VARIANT_RULES:
        raise FrameError("bad_frame", f"unknown variant {variant!r}; expected one of {sorted(VARIANT_RULES)}")
    rules = params.get("rules", DEFAULT_RULES)
    if rules not in RULES_VERSIONS:
        raise FrameError("bad_frame", f"rules {rules!r}: a hand is dealt under {' or '.join(RULES_VERSIONS)}")
    entropy = params.get("entropy")
    if entropy is not None and (not isinstance(entropy, int) or isinstance(entropy, bool) or entropy < 0):
        raise FrameError("bad_frame", f"entropy is an int >= 0, got {entropy!r}")
    owner = params.get("owner")
    if not isinstance(owner, str):
        raise FrameError("bad_frame", "a heads-up room has an owner")
    return {"owner": owner, "variant": variant, "rules": rules, "entropy": entropy}


class HeadsUpRoom:
    """One person against Riemann, hand after hand (module docstring).  A :class:`~poker51.service.room.Room`."""

    kind: ClassVar[str] = "headsup"
    turnless: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, room_id: str, params: dict[str, Any], now: float, context: Any = None) -> None:
        p = check_params(params)
        self.id, self.owner, self.variant = room_id, p["owner"], p["variant"]
        self.rules, self.entropy, self.context = p["rules"], p["entropy"], context
        self.created = float(now)
        self.hand: HandState | None = None
        self.meta: dict[str, Any] = {}
        self.hands_dealt = 0
        self.said: list[dict[str, str]] = []

    @classmethod
    def check_params(cls, params: Any) -> dict[str, Any]:
        return check_params(params)

    # ------------------------------------------------------------------ policies
    def policy(self, rules: str) -> Any:
        ctx = self.context
        player = None if ctx is None else ctx.policy(rules, self.variant)
        if player is None:
            raise illegal(RULE_POLICY, f"no {rules} policy for the {self.variant} table is loaded")
        return player

    def table_sha(self, rules: str) -> str | None:
        try:
            return getattr(self.policy(rules), "sha256", None) or getattr(self.policy(rules), "name", None)
        except IllegalAction:
            return None

    # ------------------------------------------------------------------ the contract
    def apply(self, account: str, bank: int, cmd: dict[str, Any], now: float) -> Outcome:
        kind = cmd.get("type")
        if kind not in COMMANDS:
            raise FrameError("unknown_type", f"a heads-up room takes {', '.join(COMMANDS)}, not {kind!r}")
        extra = sorted(set(cmd) - {"type", *COMMANDS[kind]})
        if extra:
            raise FrameError("bad_frame", f"{kind} has no field {extra[0]!r}")
        if account != self.owner:
            raise illegal(RULE_OWNER, "this seat is the room owner's")
        if kind == "deal":
            return self._deal_command(bank, now)
        if self.hand is None or self.hand.phase == DONE:
            raise illegal(RULE_NO_HAND, f"no hand in progress to {kind}")
        if kind == "draw":
            if self.hand.phase != DRAW:
                raise illegal(
                    RULE_ORDER, f"the draw comes after the betting before it; the hand is in {self.hand.phase}"
                )
            entry: dict[str, Any] = {"type": "draw", "now": now}
        else:
            if self.hand.whose_turn() != H or self.hand.phase not in (PRE, POST):
                raise illegal(RULE_ORDER, f"it is not H's betting turn (phase {self.hand.phase})")
            a_kind, amount, keep = cmd.get("kind"), cmd.get("amount"), cmd.get("keep")
            if not isinstance(a_kind, str):
                raise FrameError("bad_frame", "act names its kind: check, bet, call, raise or fold")
            if amount is not None and (not isinstance(amount, int) or isinstance(amount, bool)):
                raise FrameError("bad_frame", f"act's amount is an int or null, got {amount!r}")
            if keep is not None and (not isinstance(keep, int) or isinstance(keep, bool)):
                raise FrameError("bad_frame", f"act's keep is a mask 0..31, got {keep!r}")
            play = TableAction.of(H, a_kind, amount, keep=keep)
            self.hand.verify_play(play)  # raises IllegalAction: nothing changed
            entry = {"type": "act", "play": play.to_json(), "now": now}
        self.policy(self.meta["rules"])  # Riemann must be able to answer before anything changes
        return self._step(entry, live=True)

    def tick(self, now: float) -> Outcome:
        return Outcome()

    def next_deadline(self) -> float | None:
        return None

    def chips(self) -> dict[str, int]:
        if self.hand is None or self.hand.phase == DONE:
            return {}
        return {
            self.owner: int(self.hand.stacks[H] + self.hand.contrib[H]) * JBIT,
            HOUSE: int(self.hand.stacks[R] + self.hand.contrib[R]) * JBIT,
        }

    def seated(self, account: str | None) -> bool:
        return account is not None and account == self.owner

    def account_at(self, seat: str) -> str | None:
        return self.owner if seat == H else None

    def replay(self, entry: dict[str, Any]) -> None:
        if entry.get("type") == "deal":
            self._deal(entry)
        else:
            self._step(entry, live=False)

    def query(self, account: str | None, cmd: dict[str, Any]) -> dict[str, Any]:
        if cmd.get("what") != "odds":
            raise FrameError("unknown_type", f"a heads-up room answers the query 'odds', not {cmd.get('what')!r}")
        extra = sorted(set(cmd) - {"type", "what", "keep"})
        if extra:
            raise FrameError("bad_frame", f"the odds query has no field {extra[0]!r}")
        if account != self.owner:
            raise illegal(RULE_OWNER, "the draw odds are computed from the owner's cards")
        if self.hand is None or self.hand.phase not in (PRE, DRAW):
            raise illegal(RULE_ODDS, "no dealt hand before its draw")
        keep = cmd.get("keep")
        if not isinstance(keep, int):
            raise illegal(RULE_ODDS, f"a keep mask is an int 0..31, got {keep!r}")
        return {"what": "odds", **draw_odds(self.variant, self.hand.hands[H], keep)}

    # ------------------------------------------------------------------ views
    def view(self, account: str | None) -> dict[str, Any]:
        return self._view(account is not None and account == self.owner, None)

    def _view(self, mine: bool, seat_view: dict[str, Any] | None) -> dict[str, Any]:
        """The owner's view (``mine``) or anyone else's; ``seat_view``: the hand's
        ``view_json(H)`` when the caller has it (one computed for both views of a command)."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "room": self.id,
            "variant": self.variant,
            "rules": self.rules,
            "seat": H if mine else None,
            "hands_dealt": self.hands_dealt,
            "hand": None,
            "can_deal": mine and (self.hand is None or self.hand.phase == DONE),
        }
        if self.hand is None:
            return out
        done = self.hand.phase == DONE
        v = self.hand.view_json(H) if seat_view is None else seat_view
        if not mine and not done:
            v = {**v, "cards": None, "keep": None, "legal": [], "needs_keep": False}
        if not mine and done:
            v = {**v, "legal": [], "needs_keep": False}
        out["hand"] = {
            "id": self.meta["id"],
            "rules": self.meta["rules"],
            "table": self.meta.get("table"),
            "commitment": self.meta["commitment"],
            "seed": self.meta["seed"] if done else None,
            "buyin": self.meta["buyin"],
            "can_draw": mine and self.hand.phase == DRAW,
            "view": v,
            "said": list(self.said),
        }
        return out

    # ------------------------------------------------------------------ internals
    def _deal_command(self, bank: int, now: float) -> Outcome:
        if self.hand is not None and self.hand.phase != DONE:
            raise illegal(RULE_IN_HAND, "the hand in progress has not ended")
        if bank < ANTE * JBIT:
            raise illegal(
                RULE_ANTE, f"your bank holds {bank / JBIT:g} jbits: a hand needs at least {ANTE} jbit to ante"
            )
        self.policy(self.rules)
        n = self.hands_dealt
        if self.entropy is None:
            seed = new_seed("secrets")
        else:
            seed = new_seed("seedsequence", self.entropy, key=(fnv1a_64(self.id.encode()) >> 33, n))
        entry = {
            "type": "deal",
            "hand": n,
            "rules": self.rules,
            "table": self.table_sha(self.rules),
            "seed": seed.hex(),
            "source": "secrets" if self.entropy is None else "seedsequence",
            "buyin": int(min(bank // JBIT, STACK_CAP)),
            "now": now,
        }
        self._deal(entry)
        m = self.meta
        movements = [
            Movement(
                self.owner,
                -m["buyin"] * JBIT,
                "buyin",
                _receipt("buyin", self.owner, m["buyin"], self.id, n, commitment=m["commitment"]),
            ),
            Movement(HOUSE, -HOUSE_STAKE * JBIT, "house_stake"),
        ]
        return Outcome([entry], movements, self._events())

    def _deal(self, entry: dict[str, Any]) -> None:
        seed = bytes.fromhex(entry["seed"])
        deck = shuffle(seed, variant_cards(self.variant))
        n = int(entry["hand"])
        self.hand = HandState(self.variant, {H: int(entry["buyin"]), R: HOUSE_STAKE}, deck, seed=None, hand_index=n)
        self.hands_dealt = n + 1
        self.meta = {
            "id": f"{self.id}-{n}",
            "n": n,
            "rules": entry["rules"],
            "table": entry.get("table"),
            "seed": entry["seed"],
            "commitment": seed_commitment(seed),
            "buyin": int(entry["buyin"]),
        }
        self.said = []

    def _step(self, entry: dict[str, Any], live: bool) -> Outcome:
        """Play H's command and Riemann's answers; ``live``: Riemann decides (and the entry records
        its plays), else the entry's recorded plays are played again (a restart)."""
        hand = self.hand
        assert hand is not None
        said: list[dict[str, str]] = []
        if entry["type"] == "act":
            hand.play(TableAction.from_json(entry["play"]))
        else:
            keep_r = riemann_keep(self.variant, hand.hands[R])
            if live:
                entry["r_keep"] = keep_r
            hand.play(TableAction.of(R, "draw", None, keep=int(entry["r_keep"])))
        recorded = list(entry.get("riemann", [])) if not live else []
        plays: list[dict[str, Any]] = []
        while hand.phase in (PRE, POST) and hand.whose_turn() == R:
            if live:
                player = self.policy(self.meta["rules"])
                a = player.act(hand.view(R), hand.legal_actions())
                play = TableAction.of(R, a.kind, a.amount)
            else:
                play = TableAction.from_json(recorded.pop(0))
            before = public_history(hand)
            street_post = hand.phase == POST
            hand.play(play)
            plays.append(play.to_json())
            if play.kind == "fold":
                said.append({"moment": "fold", "text": riemann_words(self.meta["id"], "fold", before)})
            elif play.kind in ("bet", "raise"):
                said.append({"moment": "raise", "text": riemann_words(self.meta["id"], "raise", before)})
            elif play.kind == "call" and (
                street_post or hand.phase == DONE or hand.stacks[H] == 0 or hand.stacks[R] == 0
            ):
                said.append({"moment": "call", "text": riemann_words(self.meta["id"], "call", before)})
        if live:
            entry["riemann"] = plays
        movements: list[Movement] = []
        if hand.phase == DONE:
            net_r = hand.stacks[R] - hand.stacks_before[R]
            moment = "split" if hand.winner is None else ("win" if hand.winner == R else "loss")
            said.append({"moment": moment, "text": riemann_words(self.meta["id"], moment, public_history(hand))})
            m = self.meta
            movements = [
                Movement(
                    self.owner,
                    int(hand.stacks[H]) * JBIT,
                    "cashout",
                    _receipt(
                        "cashout",
                        self.owner,
                        int(hand.stacks[H]),
                        self.id,
                        m["n"],
                        net=-net_r,
                        commitment=m["commitment"],
                    ),
                ),
                Movement(HOUSE, int(hand.stacks[R]) * JBIT, "house_settle"),
            ]
        self.said = said
        if not live:
            return Outcome()
        events = self._events()
        if hand.phase == DONE:
            events.append(
                Event(
                    "archive",
                    {
                        "hand": self.meta["id"],
                        "kind": self.kind,
                        "rules": self.meta["rules"],
                        "accounts": {self.owner: int(hand.stacks[H] - hand.stacks_before[H]) * JBIT},
                        "log": {
                            "seed": self.meta["seed"],
                            "commitment": self.meta["commitment"],
                            "table": self.meta.get("table"),
                            "text": hand.hand_log(),
                        },
                    },
                )
            )
        return Outcome([entry], movements, events)

    def _events(self) -> list[Event]:
        v = None if self.hand is None else self.hand.view_json(H)  # the views below only read it
        return [
            Event(f"account:{self.owner}", {"type": "state", "view": self._view(True, v)}),
            Event("watchers", {"type": "state", "view": self._view(False, v)}),
        ]


__all__ = ["HOUSE", "HOUSE_STAKE", "STACK_CAP", "WORDS", "HeadsUpRoom", "draw_odds", "public_history", "riemann_words"]
