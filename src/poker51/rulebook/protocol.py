"""The action protocol of a rule book hand (:mod:`poker51.table.protocol`): what a game server
drives, with the rule book's own betting law (:mod:`poker51.rulebook.hand`) unchanged.

:class:`BookHand` is one hand at a :class:`~poker51.rulebook.table.Table`: the seats, the
deal from a committed seed (or a scripted deck), every action to the settlement
(:meth:`~poker51.rulebook.table.Table.finish`, called as soon as the hand waits for no one).
Its plays (:class:`~poker51.table.protocol.TableAction`, seats are ints) use the scenario's
words: ``fold``, ``check``, ``call``, ``bet N`` and ``raise N`` (``amount`` the total of the
round's bet, *to* N), ``allin``, ``lay`` (``sets``: three pairs of card strings, boards A, B,
C), ``show``, ``muck``, ``timeout``, ``leave`` (any seat, at any time) and ``advance`` (any
seat: ``choice`` one of fold, check_fold, check, call; 8.5).  While 3 Sets is laid every
player still in lays, in any order; :meth:`BookHand.whose_turn` names the first who has not.

**The hand's log** (:meth:`BookHand.hand_log`, format :data:`FORMAT`) is the rule book's log
(:func:`poker51.rulebook.log.write_log`: the ``commit`` line before any card, the ``hand``
record when the hand is over, byte for byte) with two kinds of private lines a server keeps
on its disk and never sends: a first ``{"type": "setup", ...}`` line (game, blinds, seats,
button, rake, and the seed or deck) and a ``{"type": "play", ...}`` line per step (the action
as received).  :meth:`BookHand.from_log` rebuilds the hand from any prefix of it; the lines that
follow from the plays (the commit, the hand record) are written again.

>>> h = BookHand.deal("holdem", 2, [(0, "ann", 50), (1, "bob", 50)], seed=bytes(32))
>>> h.whose_turn(), [str(a) for a in h.legal_plays()][:4]
(1, ['1 fold', '1 call', '1 raise 4', '1 raise 5'])
>>> try:
...     h.verify_play(TableAction.of(1, "check"))
... except RuleError as err:  # the floor's IllegalAction
...     print(err.detail); print(err.rule)
bob owes 1: call, raise or fold
3.2 (check only when owing nothing, call only when owing something)
>>> h.play(TableAction.of(1, "fold")); h.finished, BookHand.from_log(h.hand_log()).hand_log() == h.hand_log()
(True, True)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from poker51.cards import parse_card
from poker51.errors import InputError
from poker51.rulebook.games import ADVANCE_CHOICES
from poker51.rulebook.hand import RuleError
from poker51.rulebook.table import Table
from poker51.table.errors import ReplayError
from poker51.table.log import parse_log
from poker51.table.protocol import PlayMixin, TableAction, cards_json, check_rebuilt, replay_plays, state_from_json

#: the format of a hand's log (its first line's ``format``)
FORMAT = "poker51-rulebook-hand/1"
#: the lines a server keeps private (never in the rule book's public log)
PRIVATE = ("setup", "play")
BET_KINDS = ("fold", "check", "call", "bet", "raise", "allin")
KINDS = (*BET_KINDS, "lay", "show", "muck", "timeout", "leave", "advance")


def _line(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, sort_keys=True)


def public_lines(log: str) -> str:
    """The rule book's public log inside a hand's log: every line but the private ones."""
    return "".join(line + "\n" for line in log.splitlines() if line and json.loads(line).get("type") not in PRIVATE)


class BookHand(PlayMixin):
    """One hand of the rule book under the protocol (module docstring)."""

    def __init__(self, table: Table, setup: Mapping[str, Any]) -> None:
        hand = table.hand
        if hand is None:
            raise InputError("a BookHand needs a dealt hand")
        self.table, self.hand, self.setup = table, hand, dict(setup)
        self.seats: tuple[int, ...] = tuple(p.seat for p in hand.players)
        rec = table.record_open
        commit: dict[str, Any] = {"type": "commit", "hand": rec["hand"]}
        if "commitment" in rec:
            commit["commitment"] = rec["commitment"]
        if "rotation" in rec:
            commit["rotation_commitment"] = rec["rotation"]["commitment"]
        self._lines = [_line({"type": "setup", "format": FORMAT, **self.setup}), _line(commit)]
        self._finish()

    # ------------------------------------------------------------------ building
    @classmethod
    def deal(
        cls,
        game: str,
        big_blind: int,
        seats: Sequence[tuple[int, str, int]],
        button: int | None = None,
        seed: bytes | None = None,
        deck: Sequence[int] | None = None,
        rotation_seed: bytes | None = None,
        rake: bool = True,
    ) -> BookHand:
        """Seat ``seats`` (``(seat, name, stack)``) and deal from the committed ``seed`` or a scripted ``deck``."""
        t = Table(game, big_blind, [tuple(s) for s in seats], button=button, rake=rake)  # type: ignore[misc]
        t.start_hand(deck=None if deck is None else list(deck), seed=seed, rotation_seed=rotation_seed)
        setup = {
            "game": game, "big_blind": big_blind, "seats": [list(s) for s in seats], "button": t.button,
            "rake": rake, "seed": None if seed is None else seed.hex(),
            "deck": None if deck is None else cards_json(deck),
            "rotation_seed": None if rotation_seed is None else rotation_seed.hex(),
        }  # fmt: skip
        return cls(t, setup)

    @classmethod
    def from_log(cls, log: Any) -> BookHand:
        """The hand rebuilt from its log or any prefix of it (module docstring); :class:`ReplayError`
        if it is not such a log or the rebuilt lines differ from it."""
        text = log.decode("utf-8") if isinstance(log, (bytes, bytearray)) else str(log)
        if text and not text.endswith("\n"):
            text = text[: text.rfind("\n") + 1]  # a line cut in the middle
        records = parse_log(text) if text else []
        if not records or records[0].get("type") != "setup" or records[0].get("format") != FORMAT:
            raise ReplayError(f"not a {FORMAT} log: the first line is its 'setup' line")
        head = records[0]
        try:
            out = cls.deal(
                head["game"], head["big_blind"], [tuple(s) for s in head["seats"]], head["button"],
                None if head["seed"] is None else bytes.fromhex(head["seed"]),
                None if head["deck"] is None else [parse_card(c) for c in head["deck"]],
                None if head["rotation_seed"] is None else bytes.fromhex(head["rotation_seed"]),
                head["rake"],
            )  # fmt: skip
        except (KeyError, TypeError, ValueError) as exc:
            raise ReplayError(f"the setup line is malformed ({exc!r})") from None
        replay_plays(out, records, "type")
        check_rebuilt(text, out)
        return out

    @classmethod
    def from_state_json(cls, obj: Mapping[str, Any]) -> BookHand:
        """The hand back from :meth:`state_json` (rebuilt from its log, then checked against the state)."""
        return state_from_json(cls, obj, "a rule book hand")  # type: ignore[return-value]

    def _finish(self) -> None:
        t = self.table
        if t.record is None and t.waiting_for is None:
            self._lines.append(_line({"type": "hand", **t.finish()}))

    def hand_log(self) -> str:
        """The hand's log so far (module docstring)."""
        return "".join(line + "\n" for line in self._lines)

    # ------------------------------------------------------------------ state
    @property
    def finished(self) -> bool:
        return self.table.record is not None

    def whose_turn(self) -> int | None:
        h, sd = self.hand, self.table.showdown
        if self.finished:
            return None
        if h.phase == "bet":
            return h.to_act
        if h.phase == "lay":
            return next(p.seat for p in h.live() if p.laid is None)
        return None if sd is None else sd.to_show

    def legal_plays(self) -> list[TableAction]:
        """Every legal play of the seat on turn: its bets (every amount), layings or show/muck;
        a timeout; a leave."""
        seat = self.whose_turn()
        if seat is None:
            return []
        h, out = self.hand, []
        if h.phase == "bet":
            legal = h.legal()
            out = [TableAction.of(seat, k) for k in ("fold", "check", "call") if k in legal]
            for kind in ("bet", "raise"):
                if kind in legal:
                    lo, hi = legal[kind]
                    out += [TableAction.of(seat, kind, x) for x in range(lo, hi + 1)]
        elif h.phase == "lay":
            hole = h.by_seat[seat].hole
            for a in combinations(hole, 2):
                rest = [c for c in hole if c not in a]
                for b in combinations(rest, 2):
                    c = tuple(x for x in rest if x not in b)
                    out.append(TableAction.of(seat, "lay", sets=[cards_json(a), cards_json(b), cards_json(c)]))
        else:
            sd = self.table.showdown
            assert sd is not None
            out = [TableAction.of(seat, "show")] + ([TableAction.of(seat, "muck")] if sd.may_muck(seat) else [])
        leave = [TableAction.of(seat, "leave")] if self.can_play(TableAction.of(seat, "leave")) else []
        return [*out, TableAction.of(seat, "timeout"), *leave]

    def _name(self, a: TableAction) -> str:
        seat = a.seat
        if not isinstance(seat, int) or seat not in self.table.seats:
            raise RuleError(f"seat {seat!r} {a.kind}", "1.1", "no player sits there")
        return self.table.seats[seat].name

    def _arg(self, a: TableAction) -> Any:
        if a.kind == "lay":
            sets = a.get("sets")
            try:
                return [[parse_card(c) for c in pair] for pair in sets]
            except (TypeError, AttributeError, InputError):
                raise RuleError(f"seat {a.seat} lay", "7.6", "a laying is three pairs of card names") from None
        if a.kind == "advance":
            return a.get("choice")
        return a.amount

    def verify_play(self, action: TableAction) -> None:
        """None if ``action`` is legal now, else :class:`IllegalAction` (a :class:`RuleError`
        naming the article)."""
        a, t = action, self.table
        what = f"seat {a.seat!r} {a.kind}"
        if self.finished:
            raise RuleError(what, "2.5", "the hand is over")
        if a.kind not in KINDS:
            raise RuleError(what, "3.1", f"unknown action {a.kind!r} (choose from {', '.join(KINDS)})")
        name = self._name(a)
        if a.kind == "leave":
            if name in t.leaving:
                raise RuleError(f"{name} leave", "1.8", f"{name} is leaving already")
            if self.hand.phase == "showdown" and self.table.showdown is not None and self.table.showdown.decided:
                # the table would judge the pots again without the leaver, and a pot whose
                # other claimants mucked would be left with no hand shown (5.3)
                raise RuleError(f"{name} leave", "5.3", "once a hand is shown or mucked, leave after the settlement")
            return
        if a.kind == "advance":
            if a.get("choice") not in ADVANCE_CHOICES:
                raise RuleError(f"{name} advance", "8.5", f"choose from {', '.join(ADVANCE_CHOICES)}")
            return
        turn = self.whose_turn()
        own = (self.hand.phase == "lay" and a.kind in ("lay", "timeout")) or (
            self.hand.phase == "showdown" and a.kind in ("show", "muck", "timeout")
        )  # the laying (7.6) and the showdown (5.2) judge whose turn themselves
        if a.seat != turn and not own:
            who = "nobody" if turn is None else t.seats[turn].name
            raise RuleError(f"{name} {a.kind}", "3.1", f"it is {who}'s turn")
        t.verify_act(name, a.kind, self._arg(a))

    def apply_play(self, action: TableAction) -> None:
        a, t = action, self.table
        name = self._name(a)
        self._lines.append(_line({"type": "play", "hand": t.hand_number, **a.to_json()}))
        if a.kind in ("leave", "advance"):
            t.table_action(name, a.kind, self._arg(a))
        else:
            t.act(name, a.kind, self._arg(a))
        self._finish()

    def chips(self) -> int:
        """Every chip at the table (:meth:`~poker51.rulebook.table.Table.total_chips`: stacks, pots, rake)."""
        return self.table.total_chips()

    # ------------------------------------------------------------------ views
    def _shows(self) -> list[dict[str, Any]]:
        """The showdown so far, mucked hands without their cards (5.4: recorded, not shown)."""
        shows = (
            self.table.record["shows"]
            if self.table.record
            else (self.table.showdown.shows if self.table.showdown else [])
        )
        return [{k: v for k, v in s.items() if s["shown"] or k in ("player", "shown")} for s in shows]

    def view_json(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees now, as JSON: its own hole cards, the boards, every stack, bet and
        contribution, the pot, whose turn, the shows so far and, when it is its turn, its plays."""
        h, t = self.hand, self.table
        me = h.by_seat.get(seat)
        turn = self.whose_turn()
        out: dict[str, Any] = {
            "game": h.game.name, "hand": t.hand_number, "seat": seat, "name": me.name if me else None,
            "phase": "over" if self.finished else h.phase, "round": h.round_name,
            "hole": cards_json(me.hole) if me else [],
            "laid": [cards_json(s) for s in me.laid] if me and me.laid else None,
            "boards": [cards_json(b) for b in h.boards], "pot": sum(p.contrib for p in h.players),
            "players": [{"seat": p.seat, "name": p.name, "stack": p.stack, "bet": p.bet, "contributed": p.contrib,
                         "folded": p.folded, "laid": p.laid is not None} for p in h.players],
            "to_act": turn, "shows": self._shows(),
            "legal": [a.to_json() for a in self.legal_plays()] if turn == seat else [],
        }  # fmt: skip
        if self.finished:
            rec = t.record
            assert rec is not None
            out["result"] = {k: rec[k] for k in ("pots", "rake", "returned", "payouts", "stacks")}
        return out

    def state_json(self) -> dict[str, Any]:
        """The whole state as JSON (hidden cards included: for the server's disk): the log and a
        snapshot of the hand."""
        h = self.hand
        return {
            "engine": "rulebook",
            "log": self.hand_log().splitlines(),
            "phase": "over" if self.finished else h.phase,
            "to_act": self.whose_turn(),
            "players": [
                {"seat": p.seat, "name": p.name, "stack": p.stack, "bet": p.bet, "contributed": p.contrib,
                 "folded": p.folded, "hole": cards_json(p.hole),
                 "laid": None if p.laid is None else [cards_json(s) for s in p.laid]}
                for p in h.players
            ],
            "boards": [cards_json(b) for b in h.boards], "burns": cards_json(h.burns), "dealt": h.dealt,
            "level": h.level, "pending": list(h.pending),
            "seats": {str(s): st.stack for s, st in sorted(self.table.seats.items())},
        }  # fmt: skip


__all__ = ["FORMAT", "KINDS", "PRIVATE", "BookHand", "public_lines"]
