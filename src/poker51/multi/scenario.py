"""Scripted tables: the scenario front door of ``poker51 multi run SCENARIO.json`` (``docs/multi.md``).

A scenario is a JSON object::

    {"table": "t1", "seed": 0, "button": 0,
     "seats": [{"seat": 0, "name": "ann", "buyin": 16, "bank": 20},
               {"seat": 2, "name": "r1", "riemann": true, "added_by": "ann"}, ...],
     "hands": [{"deck": ["As", "Kd", ...],
                "actions": [["bob", "open", 2], ["ann", "call"], ["ann", "draw", ["7c", "2d"]],
                            ["bob", "timeout"], ["ann", "leave"], ...]}]}

Seats are taken in the order listed (a Riemann gets abits equal to its adder's stack at
that moment; ``bank`` defaults to the buy-in, both in jbits).  A hand's ``deck`` lists the
deal order (cards dealt one at a time from the seat after the button, then the draws in
turn), completed by the unlisted cards in ascending order; without a deck the hand is
dealt from ``poker51.table.deal`` seeded by ``seed`` (the log says ``seedsequence``; ``"seed": null``
draws seeds and salts from :mod:`secrets`, as a live table does).  Actions:
``check``, ``open N`` (jbits), ``call``, ``fold``, ``raise``, ``allin``, ``draw CARDS`` (the
cards thrown away; ``[]`` stands pat), ``timeout``, ``leave``, ``back``, and ``remove R``
(a person removes a Riemann).  Riemann's turns are played by its policy, never scripted;
``leave``, ``back`` and ``remove`` may come at any point, also after the hand's last action.

:func:`run_scenario` returns ``{"hands": [{"pots": [{"amount_cents", "eligible",
"winners"}], "payouts": {name: cents}}], "final": {name: {"jbits_cents", "held_cents",
"abit_score_cents"[, "abits_cents"]}}, "conserved": bool}``.  Any scripted action that is
illegal at that point raises :class:`poker51.errors.InputError` naming the hand, the action
and the rule.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from poker51.cards import parse_card
from poker51.errors import InputError
from poker51.multi.commit import DeckSource
from poker51.multi.hand import DRAW
from poker51.multi.law import JBIT
from poker51.multi.riemann import RiemannPolicy
from poker51.multi.table import Table
from poker51.validation import load_json, load_schema, scenario_schema
from poker51.validation import validate as check_schema

#: the scenario file's JSON Schema (package data; the shape only, the law stays in the table)
SCHEMA = scenario_schema("multi-scenario")
BET_KINDS = ("check", "call", "fold", "raise")
ANY_TIME = ("leave", "back", "remove")


def load_scenario(path: str | Path) -> dict[str, Any]:
    """The scenario at ``path`` (JSON), checked (:func:`validate`); a missing file, bad JSON or a
    bad key is one :class:`~poker51.errors.ConfigError` line naming the file
    (:func:`poker51.validation.load_json`)."""
    return validate(load_json(path, "scenario file"), str(path))


@functools.cache
def _schema() -> dict[str, Any]:
    return load_schema(SCHEMA)


def validate(scn: Any, source: str = "scenario") -> dict[str, Any]:
    """Check the shape of a scenario against :data:`SCHEMA`; returns it.

    A :class:`~poker51.errors.ConfigError` (an :class:`InputError`) names the file and the key
    in one line (:func:`poker51.validation.validate`):

    >>> validate({"seats": [{"seat": 0, "name": "a", "buyin": 4}]}, "s.json")
    Traceback (most recent call last):
    ...
    poker51.errors.ConfigError: s.json: (top level): missing key 'hands'
    """
    result: dict[str, Any] = check_schema(scn, _schema(), source)
    return result


def _jbits(x: Any, where: str) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise InputError(f"{where}: expected a number of jbits, got {x!r}")
    cents = round(x * JBIT)
    if abs(cents - x * JBIT) > 1e-9:
        raise InputError(f"{where}: {x} jbits is not a whole number of cents")
    return int(cents)


class ScenarioRun:
    """Plays a validated scenario on a :class:`Table` (module docstring)."""

    def __init__(self, scn: Mapping[str, Any], belief: np.ndarray | None = None):
        self.scn = scn
        seed = scn.get("seed", 0)
        source = DeckSource("secrets") if seed is None else DeckSource("seedsequence", int(seed))
        self.table = Table(str(scn.get("table", "scenario")), source, scn.get("button", 0))
        self.belief = belief
        self.policy: RiemannPolicy | None = None
        self.names: list[str] = []
        self.cashed: dict[str, int] = {}
        self.hand_no = 0

    def _riemann(self) -> RiemannPolicy:
        if self.policy is None:
            if self.belief is None:
                from poker51.multi.belief import standard_belief

                self.belief = standard_belief()
            self.policy = RiemannPolicy(self.belief)
        return self.policy

    def seat_all(self) -> None:
        t = self.table
        for i, s in enumerate(self.scn["seats"]):
            try:
                if s.get("riemann"):
                    t.add_riemann(s["added_by"], s["seat"], s["name"])
                else:
                    bank = None if "bank" not in s else _jbits(s["bank"], f"seats[{i}].bank")
                    t.sit(s["name"], s["seat"], s["buyin"], bank)
            except InputError as exc:
                raise InputError(f"seats[{i}]: {exc}") from None
            self.names.append(s["name"])

    def autoplay(self) -> None:
        """Play Riemann's turns (its policy); away players' turns are the table's timeouts."""
        t = self.table
        while t.in_hand and t.hand is not None and t.hand.actor is not None and t.is_riemann(t.hand.actor):
            seat = t.hand.actor
            if t.hand.phase == DRAW:
                t.draw(seat, self._riemann().keep(t.hand.cards[seat]))
            else:
                m = self._riemann().decide(t.spot(seat))
                t.act(seat, m.kind, m.amount)

    def apply(self, a: list[Any]) -> None:
        t = self.table
        name, kind, args = a[0], a[1] if len(a) > 1 else None, a[2:]
        if not isinstance(name, str) or not isinstance(kind, str):
            raise InputError("an action is [name, action, ...]")
        seat = t.seat_of_name(name)
        if t.is_riemann(seat):
            raise InputError(f"{name} is a Riemann: its turns are played by its policy, never scripted")
        if kind == "leave":
            t.leave(name)
            return
        if kind == "back":
            t.back(seat)
            return
        if kind == "remove":
            if len(args) != 1 or not isinstance(args[0], str):
                raise InputError("remove takes the Riemann's name")
            t.remove_riemann(args[0], name)
            return
        if not t.in_hand:
            raise InputError(f"{kind}: the hand is over [A hand: a hand ends at the showdown or the last fold]")
        if kind == "timeout":
            t.timeout(seat)
        elif kind == "draw":
            if len(args) != 1 or not isinstance(args[0], list):
                raise InputError("draw takes the list of cards thrown away")
            t.draw(seat, [parse_card(c) for c in args[0]])
        elif kind == "open":
            if len(args) != 1:
                raise InputError("open takes its size in jbits: open 1, 2, 4 or 8")
            t.act(seat, "open", _jbits(args[0], "open"))
        elif kind == "allin":
            t.act(seat, "allin", None, all_in=True)
        elif kind in BET_KINDS:
            if args:
                raise InputError(f"{kind} takes no amount")
            t.act(seat, kind)
        else:
            raise InputError(f"unknown action {kind!r}")

    def play_hand(self, h: Mapping[str, Any]) -> dict[str, Any]:
        t = self.table
        self.hand_no += 1
        n = self.hand_no
        try:
            deck = None if "deck" not in h else [parse_card(c) for c in h["deck"]]
            t.start_hand(deck)
        except InputError as exc:
            raise InputError(f"hand {n}: {exc}") from None
        hand = t.hand
        assert hand is not None
        names = {s: t.name_of(s) for s in hand.order}
        for a in h["actions"]:
            try:
                self.autoplay()
                self.apply(a)
            except InputError as exc:
                raise InputError(f"hand {n}: action {json.dumps(a)}: {exc}") from None
        self.autoplay()
        if t.in_hand:
            actor = hand.actor
            who = names.get(actor, str(actor)) if actor is not None else "nobody"
            raise InputError(f"hand {n}: the actions end before the hand does ({who} to act)")
        res = hand.result
        assert res is not None
        return {
            "pots": [
                {"amount_cents": p.amount, "eligible": [names[s] for s in p.eligible],
                 "winners": [names[s] for s in p.winners]}
                for p in res.pots
            ],
            "payouts": {names[s]: v for s, v in res.payouts.items()},
        }  # fmt: skip

    def final(self) -> dict[str, Any]:
        t, led = self.table, self.table.ledger
        out: dict[str, Any] = {}
        for name in self.names:
            if name in led.people:
                p = led.people[name]
                jb = t.stack[p.seat] if p.seat is not None else self._last_cashout(name)
                out[name] = {"jbits_cents": jb, "held_cents": led.held_for(name), "abit_score_cents": p.abit_score}
            else:
                r = led.riemanns.get(name)
                out[name] = {
                    "jbits_cents": 0,
                    "held_cents": sum(r.held.values()) if r else 0,
                    "abit_score_cents": 0,
                    "abits_cents": t.stack[r.seat] if r else 0,
                }
        return out

    def _last_cashout(self, name: str) -> int:
        for rec in reversed(self.table.log):
            r = rec.get("receipt")
            if r and r["kind"] == "cashout" and r["player"] == name:
                return int(r["amount_cents"])
        return 0

    def conserved(self) -> bool:
        led = self.table.ledger
        return not self.table.audit_failures and not led.audit()

    def run(self) -> dict[str, Any]:
        self.seat_all()
        hands = [self.play_hand(h) for h in self.scn["hands"]]
        return {"hands": hands, "final": self.final(), "conserved": self.conserved()}


def run_scenario(
    scn: Mapping[str, Any], belief: np.ndarray | None = None, log: str | Path | None = None
) -> dict[str, Any]:
    """Play a scenario (module docstring); ``log`` writes the table's JSON-lines log."""
    run = ScenarioRun(validate(dict(scn)), belief)
    try:
        out = run.run()
    finally:
        if log is not None:
            run.table.save_log(log)
    return out


__all__ = ["ScenarioRun", "load_scenario", "run_scenario", "validate"]
