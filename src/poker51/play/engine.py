"""Real-card heads-up Poker 51 with the v0.6 rules: stacks, two betting rounds, draw, showdown.

Source: the live rule card v0.6, "A hand · two betting rounds" (points 1–8) and "How
Riemann bets" (points 4–5); SPEC section 7.  Seats are ``"H"`` (the human seat, acts
first in both rounds) and ``"R"`` (Riemann).  Variants: ``standard`` (51 cards, the
marker 2c is not dealt), ``wild`` and ``bug`` (52 cards, the marker read by
:data:`poker51.hands.evaluate.RULE_WILD` / ``RULE_BUG`` at showdown).

The hand, in integer jbits
--------------------------
1. Both ante 1.  The deck is ``shuffled_deck(variant, base_seed, hand_index)``: a
   ``Generator(PCG64(SeedSequence([base_seed, hand_index])))`` permutation of the
   variant's cards in ascending order.  H is dealt ``deck[0:5]``, R ``deck[5:10]``;
   draws come off ``deck[10:]`` in order, H's first.
2. Pre-draw.  H's first action carries its keep mask (locked; the draw count is
   announced).  H checks or bets 1, 2, 4 or 8 (at most its balance; below 8 its whole
   balance is also a bet).  After H's bet ``b``: R folds, calls or raises by ``b``; H
   calls, folds or re-raises by ``b``; R calls or folds.  After H's check: R checks
   back or bets 2; H calls, folds or raises by 2; R calls or folds.
3. A call a player cannot cover is all in for less.  A bet or raise needs an opponent
   with jbits left (for R this is How Riemann bets point 5; the engine applies it to H
   too, since such a raise could only be returned).  A raise must be covered in full.
4. If a player has no jbits left when a round would start, there is no wagering: H's
   first action is then a check that only locks its keep (rule card point 7), the
   post-draw round is skipped, and the cards are drawn and shown.
5. Draw: H's locked mask, then R's keep mask from R's player (this module does not
   implement the House rule).  Post-draw: the same betting without a keep.
6. Settlement.  A fold gives the pot to the other player: the folder loses exactly
   what it contributed.  At showdown each player first gets back its unmatched excess
   ``c - min(c_H, c_R)``; the higher :func:`poker51.hands.pure.pure_strength` takes the
   matched ``2 * min(c_H, c_R)``; equal strengths split it ``min`` each.  In heads-up
   the matched part is always even, so no odd jbit ever arises.  This is the floor's pot
   law (:func:`pot_law` calls :func:`poker51.table.settlement.settle`).  The sum of the
   stacks is checked to be unchanged after every hand.

Player protocol
---------------
A player is any object with::

    choose_keep(view: View) -> int          # keep mask, bit i keeps cards[i]
    act(view: View, legal: Sequence[Action]) -> Action

``choose_keep`` is called for H just before its first pre-draw action (the engine
attaches the mask to that action) and for R at the draw.  ``act`` returns one of the
``legal`` actions (kind and amount).  A :class:`View` holds only public information
and the seat's own cards: ``seat, variant, phase ("pre"|"draw"|"post"), cards,
keep, draw_count, opp_draw_count`` (H's announced count once locked; R's once drawn),
``stack, opp_stack`` (balances left), ``contributed, opp_contributed`` (this hand,
ante included), ``round_bet, opp_round_bet, pot, to_call, opening_bet`` (the round's
raise unit), ``line`` (every betting :class:`ActionRecord` so far, both rounds) and
``opp_can_answer``.

State machine
-------------
PokerKit's habit: for every action ``verify_x`` raises :class:`IllegalAction` (an
:class:`~poker51.errors.InputError`) whose message names the forbidding rule,
``can_x`` returns a bool and ``x`` acts: ``check(keep=None)``, ``bet(amount,
keep=None)``, ``call()``, ``raise_bet()``, ``fold()``, ``draw(keep_r)``.
``legal_actions()`` lists the actor's choices for a UI.  A game server drives a hand
through the table protocol (:mod:`poker51.play.protocol`): ``play(TableAction)``, the
seats' views and the state as JSON, and :meth:`HandState.from_log`.

Log
---
One JSON object per line, compact separators, keys in a fixed order, cards as
strings such as ``"Ts"``: ``hand`` (format, rules, variant, seed ``[base_seed,
hand_index]`` or null for an injected deck, stacks, the whole shuffled deck),
``ante``, ``deal``, one ``action`` per betting action (round, seat, kind, amount put
in, round total, all_in, pot, stacks; H's first one adds keep and draw_count), two
``draw`` (seat, keep, count, discarded, drawn, hand), ``showdown`` (only at a
showdown: hands, strengths, categories, winner) and ``result`` (reason, winner,
contributed, returned, won, net, stacks, both hands: cards are revealed on a fold
too).  :func:`replay` re-runs a hand from its log alone and reproduces the bytes;
:meth:`HandState.from_log` rebuilds a hand in progress from any prefix of its log.  A
:class:`HandResult` builds its log when it is first read.

>>> from poker51.cards import parse_cards
>>> from poker51.play.players import ScriptedPlayer
>>> deck = stacked_deck("standard", parse_cards("Ah Ad Kc 7s 3d  Qh Qd 9c 6s 4h  As Jd 8c 5s 4c"))
>>> res = play_hand({"H": ScriptedPlayer(["bet 2", "call", "check"], keeps=[0b00011]),
...                  "R": ScriptedPlayer(["raise", "check"], keeps=[0b00011])},
...                 stacks={"H": 20, "R": 20}, deck=deck)
>>> res.reason, res.winner, res.net, res.stacks_after
('showdown', 'H', {'H': 5, 'R': -5}, {'H': 25, 'R': 15})
>>> replay(res.log).log == res.log
True
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache, partial
from typing import Any

import numpy as np

from poker51.cards import CARD_NAMES, MARKER, N_CARDS, parse_card
from poker51.errors import InputError
from poker51.hands.pure import CATEGORIES, pure_strength
from poker51.play.actions import (
    DONE,
    DRAW,
    LOG_FORMAT,
    POST,
    PRE,
    RULE_ANTE,
    RULE_CALL_AMOUNT,
    RULE_CHECK_FOLD_AMOUNT,
    RULE_LOCK,
    RULE_ORDER,
    RULE_RAISES,
    RULE_SIZES,
    SEATS,
    Action,
    ActionRecord,
    H,
    HandResult,
    Player,
    R,
    ReplayError,
    illegal,
    log_text,
)
from poker51.play.hand_rules import popcount5
from poker51.play.protocol import STATE_FORMAT, HandProtocol
from poker51.rules import ANTE, VARIANT_RULES
from poker51.table.errors import IllegalAction
from poker51.table.log import log_line, parse_log, read_log
from poker51.table.settlement import check_stacks, settle


# --------------------------------------------------------------------------- decks
@cache
def _variant_deck(variant: str) -> tuple[int, ...]:
    if variant not in VARIANT_RULES:
        raise InputError(f"unknown variant {variant!r}: expected one of {sorted(VARIANT_RULES)}")
    return tuple(c for c in range(N_CARDS) if variant != "standard" or c != MARKER)


@cache
def _variant_array(variant: str) -> np.ndarray:
    cards = np.array(_variant_deck(variant), dtype=np.int64)
    cards.setflags(write=False)
    return cards


def variant_cards(variant: str) -> list[int]:
    """The variant's cards in ascending order: 51 without the marker, or all 52."""
    return list(_variant_deck(variant))


def shuffled_deck(variant: str, base_seed: int, hand_index: int) -> list[int]:
    """The hand's deck: a PCG64 permutation seeded by ``SeedSequence([base_seed, hand_index])``."""
    if int(base_seed) < 0 or int(hand_index) < 0:
        raise InputError(f"seeds are non-negative ints, got base_seed={base_seed}, hand_index={hand_index}")
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([int(base_seed), int(hand_index)])))
    return rng.permutation(_variant_array(variant)).tolist()


def stacked_deck(variant: str, top: Sequence[int]) -> list[int]:
    """A deck with ``top`` first, then the variant's other cards ascending (for tests)."""
    rest = [c for c in variant_cards(variant) if c not in set(top)]
    return [int(c) for c in top] + rest


# --------------------------------------------------------------------------- the settlement
@lru_cache(maxsize=1 << 16)
def pot_law(c_h: int, c_r: int, reason: str, winner: str | None) -> tuple[dict[str, int], dict[str, int]]:
    """(returned, won) per seat, as the log reports them, of a hand that ends by ``reason``
    (``fold`` or ``showdown``) with ``winner`` (None: a split) after H put in ``c_h`` and R
    ``c_r``: the shared pot law, :func:`poker51.table.settlement.settle`.  A showdown returns
    each unmatched excess and pays the matched pot to the winner (a split: half each; the
    matched pot is even).  A fold (the folder faced a bet: it put in at most what the other
    did) gives the whole pot to the other player; the log reports its uncalled jbits as won
    (returned 0 each).  It depends only on these four values, so it
    is kept per value (callers copy the dicts).

    >>> pot_law(5, 3, "showdown", "R"), pot_law(5, 1, "fold", "H")
    (({'H': 2, 'R': 0}, {'H': 0, 'R': 6}), ({'H': 0, 'R': 0}, {'H': 6, 'R': 0}))
    """
    c = {H: int(c_h), R: int(c_r)}
    if reason == "fold":
        st = settle(c, live=(winner,), order=SEATS, transfers=False)
        return {H: 0, R: 0}, st.payouts
    strengths = {H: 0, R: 0} if winner is None else {winner: 1, R if winner == H else H: 0}
    st = settle(c, live=SEATS, strengths=strengths, order=SEATS, transfers=False)
    return st.returned, st.won


# --------------------------------------------------------------------------- the state
class HandState(HandProtocol):
    """One hand from the ante to the settlement; antes and deals on construction.  The table
    protocol (:mod:`poker51.play.protocol`): ``whose_turn``, ``legal_plays``,
    ``verify_play``/``can_play``/``play``, ``view_json``, ``state_json``, ``hand_log``, and
    :meth:`from_log` / :meth:`from_state_json` to resume a hand."""

    def __init__(
        self,
        variant: str,
        stacks: Mapping[str, int],
        deck: Sequence[int],
        seed: tuple[int, int] | None = None,
        hand_index: int = 0,
    ) -> None:
        cards = _variant_deck(variant)
        deck = [int(c) for c in deck]
        if tuple(sorted(deck)) != cards:
            raise InputError(f"the deck is not a permutation of the {variant} deck's {len(cards)} cards")
        for s in SEATS:
            v = stacks.get(s)
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < ANTE:
                raise illegal(RULE_ANTE, f"seat {s} has balance {v!r}: it needs at least {ANTE} jbit to ante")
        self.variant, self.seed, self.hand_index, self.deck = variant, seed, int(hand_index), deck
        self.rule = VARIANT_RULES[variant]
        self.stacks_before = {s: int(stacks[s]) for s in SEATS}
        self.stacks = dict(self.stacks_before)
        self.contrib = {H: 0, R: 0}
        self.hands = {H: deck[0:5], R: deck[5:10]}
        self._next = 10
        self.keeps: dict[str, int | None] = {H: None, R: None}
        self.draw_counts: dict[str, int | None] = {H: None, R: None}
        self.records: list[ActionRecord] = []
        self.events: list[dict] = []
        self.phase: str = PRE
        self.reason: str | None = None
        self.winner: str | None = None
        self._log(
            {
                "event": "hand",
                "format": LOG_FORMAT,
                "rules": "v0.6",
                "variant": variant,
                "seed": None if seed is None else [int(seed[0]), int(seed[1])],
                "stacks": dict(self.stacks),
                "deck": [CARD_NAMES[c] for c in deck],
            }
        )
        for s in SEATS:
            self.stacks[s] -= ANTE
            self.contrib[s] += ANTE
        self._log({"event": "ante", "amount": ANTE, "stacks": dict(self.stacks), "pot": self.pot})
        self._log(
            {"event": "deal", H: [CARD_NAMES[c] for c in self.hands[H]], R: [CARD_NAMES[c] for c in self.hands[R]]}
        )
        self._start_round(PRE)

    # ------------------------------------------------------------------ act
    def check(self, keep: int | None = None) -> None:
        self.verify_check(keep)
        seat = self.seat_to_act()
        self._lock(keep)
        self._record(seat, "check", 0, keep)
        self._line += ("check",)
        if not self._open or self._line == ("check", "check"):
            self._end_round()

    def bet(self, amount: int, keep: int | None = None) -> None:
        self.verify_bet(amount, keep)
        seat = self.seat_to_act()
        self._lock(keep)
        self._put(seat, int(amount))
        self._unit = int(amount)
        self._record(seat, "bet", int(amount), keep)
        self._line += ("bet",)

    def call(self) -> None:
        self.verify_call()
        seat, amount = self.seat_to_act(), self._call_amount()
        self._put(seat, amount)
        self._record(seat, "call", amount, None)
        self._line += ("call",)
        self._end_round()

    def raise_bet(self) -> None:
        self.verify_raise_bet()
        seat, amount = self.seat_to_act(), self._raise_amount()
        self._put(seat, amount)
        self._record(seat, "raise", amount, None)
        self._line += ("raise",)

    def fold(self) -> None:
        self.verify_fold()
        seat = self.seat_to_act()
        self._record(seat, "fold", 0, None)
        self._line += ("fold",)
        self._settle(reason="fold", winner=self._opp(seat))

    def apply(self, action: Action, keep: int | None = None) -> None:
        """Apply ``action``; a given amount must equal the one the rules fix (bets: the size)."""
        kind, amount = action.kind, action.amount
        if kind == "bet":
            if amount is None:
                raise illegal(RULE_SIZES, "a bet names its amount")
            self.bet(amount, keep)
            return
        if kind not in ("check", "fold", "call", "raise"):
            raise InputError(f"unknown action kind {kind!r}")
        if amount is not None and self.actor is not None:
            fixed = self._call_amount() if kind == "call" else self._raise_amount() if kind == "raise" else 0
            if amount != fixed:
                rule = {"raise": RULE_RAISES, "call": RULE_CALL_AMOUNT}.get(kind, RULE_CHECK_FOLD_AMOUNT)
                raise illegal(rule, f"{kind} puts in {fixed} jbits, not {amount}")
        if kind == "check":
            self.check(keep)
        else:
            if keep is not None:
                self._verify_betting(keep)  # raises: the keep belongs to a check or bet
            {"fold": self.fold, "call": self.call, "raise": self.raise_bet}[kind]()

    def draw(self, keep_r: int) -> None:
        """H draws by its locked mask, then R by ``keep_r``; both counts become public."""
        self.verify_draw(keep_r)
        self.keeps[R] = int(keep_r)
        for s in SEATS:
            keep = self.keeps[s]
            if keep is None:
                raise illegal(RULE_LOCK, f"{s} has no keep selection at the draw")
            kept = [c for i, c in enumerate(self.hands[s]) if keep >> i & 1]
            discarded = [c for i, c in enumerate(self.hands[s]) if not keep >> i & 1]
            n = 5 - len(kept)
            drawn = self.deck[self._next : self._next + n]
            self._next += n
            self.hands[s] = kept + drawn
            self.draw_counts[s] = n
            self._log(
                {
                    "event": "draw",
                    "seat": s,
                    "keep": keep,
                    "count": n,
                    "discarded": [CARD_NAMES[c] for c in discarded],
                    "drawn": [CARD_NAMES[c] for c in drawn],
                    "hand": [CARD_NAMES[c] for c in self.hands[s]],
                }
            )
        if self.stacks[H] > 0 and self.stacks[R] > 0:
            self._start_round(POST)
        else:
            self._showdown()

    def result(self) -> HandResult:
        if self.phase != DONE:
            raise illegal(RULE_ORDER, "the hand is not over")
        return HandResult(
            self.hand_index,
            self.seed,
            self.variant,
            str(self.reason),
            self.winner,
            dict(self.stacks_before),
            dict(self.stacks),
            {s: self.stacks[s] - self.stacks_before[s] for s in SEATS},
            partial(log_text, self.events),  # the JSON log, built when first read
        )

    # ------------------------------------------------------------------ resume
    @classmethod
    def from_log(cls, log: str | bytes | os.PathLike | Sequence[Mapping[str, Any]], check: bool = True) -> HandState:
        """The state rebuilt from a log or any prefix of it (a hand in progress resumes after a
        restart): text, bytes, a path, or the events.

        The ``hand`` event rebuilds the deal; the logged actions and R's draw are played again
        (every other line follows from them).  The state is the one after the last complete
        step: lines of a step cut short (H's ``draw`` without R's) are dropped, and lines that
        follow from the log alone (ante, deal, showdown, result) are written again, so its
        log is a prefix of the hand's.  With ``check`` every line the state has in common
        with the given log must be equal byte for byte, and a seeded deck must be its seed's
        shuffle; otherwise :class:`ReplayError` naming the line.
        """
        if isinstance(log, (str, bytes, bytearray)):
            text = log.decode("utf-8") if isinstance(log, (bytes, bytearray)) else log
            events = parse_log(text)
            lines = [line for line in text.splitlines() if line.strip()]
        elif isinstance(log, os.PathLike):
            events = read_log(log)
            lines = [log_line(e) for e in events]
        else:
            events = [dict(e) for e in log]
            lines = [log_line(e) for e in events]
        if not events or events[0].get("event") != "hand" or events[0].get("format") != LOG_FORMAT:
            raise ReplayError(f"not a {LOG_FORMAT} log: the first line must be its 'hand' event")
        head = events[0]
        try:
            deck = [parse_card(c) for c in head["deck"]]
            seed = None if head["seed"] is None else (int(head["seed"][0]), int(head["seed"][1]))
            variant, stacks = head["variant"], head["stacks"]
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ReplayError(f"log line 1: a bad 'hand' event ({exc})") from None
        if check and seed is not None and deck != shuffled_deck(variant, *seed):
            raise ReplayError(f"the logged deck is not the shuffle of seed {list(seed)}")
        state = cls(variant, stacks, deck, seed=seed, hand_index=seed[1] if seed else 0)
        for k, e in enumerate(events[1:], 2):
            try:
                if e.get("event") == "action":
                    state.apply(Action(e["kind"], e["amount"]), keep=e.get("keep"))
                elif e.get("event") == "draw" and e.get("seat") == R:
                    state.draw(e["keep"])
            except (IllegalAction, KeyError, TypeError) as exc:
                raise ReplayError(f"log line {k}: the logged {e.get('event')} does not replay ({exc})") from None
        if check:
            n = min(len(state.events), len(lines))
            for k in range(n):
                if log_line(state.events[k]) != lines[k]:
                    raise ReplayError(f"replay differs from the log at line {k + 1}")
        return state

    @classmethod
    def from_state_json(cls, obj: Mapping[str, Any]) -> HandState:
        """The state back from :meth:`state_json`'s output (its log replayed; every other field
        must agree with it, else :class:`ReplayError`)."""
        if not isinstance(obj, Mapping) or obj.get("format") != STATE_FORMAT or not isinstance(obj.get("log"), list):
            raise ReplayError(f"not a {STATE_FORMAT} state: an object with its format and log")
        state = cls.from_log(obj["log"])
        mine = state.state_json()
        bad = next((k for k in mine if mine[k] != obj.get(k)), None)
        if bad is not None or set(obj) != set(mine):
            raise ReplayError(f"the state's {bad or 'keys'} differ from its log's replay")
        return state

    # ------------------------------------------------------------------ internals

    def _log(self, event: dict) -> None:
        self.events.append(event)

    def _start_round(self, rnd: str) -> None:
        self.phase = rnd
        self._line: tuple[str, ...] = ()
        self._rc = {H: 0, R: 0}
        self._unit: int | None = None
        self._open = self.stacks[H] > 0 and self.stacks[R] > 0

    def _end_round(self) -> None:
        if self.phase == PRE:
            self.phase = DRAW
        else:
            self._showdown()

    def _lock(self, keep) -> None:
        if keep is not None:
            self.keeps[H] = int(keep)

    def _put(self, seat: str, amount: int) -> None:
        self.stacks[seat] -= amount
        self.contrib[seat] += amount
        self._rc[seat] += amount

    def _record(self, seat: str, kind: str, amount: int, keep) -> None:
        all_in = amount > 0 and self.stacks[seat] == 0
        self.records.append(ActionRecord(self.phase, seat, kind, amount, all_in))
        event = {
            "event": "action",
            "round": self.phase,
            "seat": seat,
            "kind": kind,
            "amount": amount,
            "to": self._rc[seat],
            "all_in": all_in,
            "pot": self.pot,
            "stacks": dict(self.stacks),
        }
        if keep is not None:
            event["keep"] = int(keep)
            event["draw_count"] = 5 - popcount5(int(keep))
        self._log(event)

    def _showdown(self) -> None:
        st = {s: pure_strength([int(c) for c in self.hands[s]], self.rule) for s in SEATS}
        winner = H if st[H] > st[R] else R if st[R] > st[H] else None
        self._log(
            {
                "event": "showdown",
                **{
                    s: {
                        "hand": [CARD_NAMES[c] for c in self.hands[s]],
                        "strength": st[s],
                        "category": CATEGORIES[st[s] >> 20],
                    }
                    for s in SEATS
                },
                "winner": winner or "split",
            }
        )
        self._settle(reason="showdown", winner=winner)

    def _settle(self, reason: str, winner: str | None) -> None:
        """Settle by the pot law (:func:`pot_law`)."""
        returned, won = pot_law(self.contrib[H], self.contrib[R], reason, winner)
        c = dict(self.contrib)
        returned, won = dict(returned), dict(won)
        for s in SEATS:
            self.stacks[s] += returned[s] + won[s]
        check_stacks(self.stacks_before, self.stacks)
        self.phase, self.reason, self.winner = DONE, reason, winner
        self._log(
            {
                "event": "result",
                "reason": reason,
                "winner": winner,
                "contributed": c,
                "returned": returned,
                "won": won,
                "net": {s: self.stacks[s] - self.stacks_before[s] for s in SEATS},
                "stacks": dict(self.stacks),
                "hands": {s: [CARD_NAMES[x] for x in self.hands[s]] for s in SEATS},
            }
        )


# --------------------------------------------------------------------------- running hands
def run_hand(state: HandState, players: Mapping[str, Player]) -> HandResult:
    """Drive ``state`` to the end, asking ``players`` for keeps and actions."""
    while state.phase != DONE:
        if state.phase == DRAW:
            state.draw(players[R].choose_keep(state.view(R)))
            continue
        seat = state.seat_to_act()
        view = state.view(seat)  # with a keep to choose, the actor is H (its first action): one view for both
        keep = players[H].choose_keep(view) if state.keep_required else None
        state.apply(players[seat].act(view, state.legal_actions()), keep=keep)
    return state.result()


def play_hand(
    players: Mapping[str, Player],
    *,
    stacks: Mapping[str, int],
    variant: str = "standard",
    base_seed: int | None = None,
    hand_index: int = 0,
    deck: Sequence[int] | None = None,
) -> HandResult:
    """Play one hand on the seeded deck, or on an injected ``deck`` (logged with seed null)."""
    if (deck is None) == (base_seed is None):
        raise InputError("give exactly one of base_seed (a seeded shuffle) and deck (an injected deck)")
    seed = None
    if deck is None:
        assert base_seed is not None  # checked above: exactly one of the two
        seed = (int(base_seed), int(hand_index))
        deck = shuffled_deck(variant, *seed)
    return run_hand(HandState(variant, stacks, deck, seed=seed, hand_index=hand_index), players)


def play_match(
    players: Mapping[str, Player],
    n_hands: int,
    base_seed: int,
    variant: str = "standard",
    stacks: Mapping[str, int] | None = None,
    carry_stacks: bool = False,
) -> list[HandResult]:
    """Hands ``0 .. n_hands-1`` on decks seeded ``[base_seed, i]``.

    Each hand starts from ``stacks`` (default 100 each: deep enough that no v0.6 line
    reaches an all-in) unless ``carry_stacks``, when balances carry over and the match
    stops early once a player cannot ante.  ``result.net`` is each hand's net jbits.
    """
    start = {s: int(v) for s, v in (stacks or {H: 100, R: 100}).items()}
    current, out = dict(start), []
    for i in range(int(n_hands)):
        if carry_stacks and min(current.values()) < ANTE:
            break
        res = play_hand(
            players, stacks=current if carry_stacks else start, variant=variant, base_seed=base_seed, hand_index=i
        )
        out.append(res)
        current = dict(res.stacks_after)
    return out


def replay(log: str | bytes, check: bool = True) -> HandResult:
    """Re-run a hand from its log alone (deck, stacks, logged actions and keeps).

    With ``check`` the new log must equal the given one byte for byte, and a seeded
    log's deck must be its seed's shuffle; otherwise :class:`ReplayError`.
    """
    text = log.decode("utf-8") if isinstance(log, (bytes, bytearray)) else str(log)
    state = HandState.from_log(text, check=check)
    if state.phase != DONE:
        raise ReplayError("the log ends before the hand does")
    res = state.result()
    if check and res.log != text:
        old, new = text.splitlines(), res.log.splitlines()
        k = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
        raise ReplayError(f"replay differs from the log at line {k + 1}")
    return res
