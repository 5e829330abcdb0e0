"""The card room (kind ``"cardroom"``): one table of the rule book's games (seed 003) on the service.

A :class:`CardRoom` is a :class:`poker51.service.room.Room` driving one
:class:`poker51.rulebook.table.Table`, the rule book's engine, which holds the whole law: seats
(1.1), the button (1.2), blinds and antes (1.3-1.6, 2.6), sitting out (1.7), leaving (1.8), chips
added at the next deal (1.9), the deal from a committed seed with its burns (II, IX), the betting
(III), pots (IV), the showdown and mucks (V), 3 Sets' laying and Random's rotation (VII), time-outs,
three in a row, choices made in advance (VIII) and the rake (X).  Every refusal of the law is the
engine's :class:`~poker51.rulebook.hand.RuleError` (an ``IllegalAction`` naming the article),
passed on unchanged.  The room itself only

* checks a command's shape and who sends it (``FrameError`` ``bad_frame``), and the service's own
  rules (:data:`RULE_SEATED`, the buy-in, VIP games, a suspended or closed account: ``RULE_*``);
* runs the clocks from the ``now`` it is given: :data:`CLOCK_S` (15 s, 8.1) for each decision,
  :data:`LAY_S` (60 s, 7.6) for the laying, a pause between hands; a due clock is the engine's
  ``timeout`` (8.2; a disconnected player's clock runs the same: 8.4);
* deals each hand from a fresh 32-byte seed (``secrets``; a ``SeedSequence`` seed for tests) and,
  for Random, each block's game from its own seed of the same source;
* moves chips between banks and the table (a buy-in, chips added, a cash-out when a player's
  chips leave the table, the rake to the house account: 10.1, the house only takes the rake) as
  :class:`~poker51.service.room.Movement` rows, in the bank's units (one chip = one cent of the
  bank; ``poker51.multi.law.JBIT`` cents make a jbit);
* turns the engine's records into frames per audience: hole cards and layings only to their
  owner until the showdown (2.2, 7.6), burns never (2.3), the seed after the hand (9.3), the
  finished hand's full log archived for the player's history (9.4) and its replay page (9.5);
* takes conduct commands (chat, reports from a seat, disputes by hand id: Article XI) whose
  judgement is :mod:`poker51.service.conduct`'s.

**Replay.**  One journal entry per accepted command or effective tick (``{"op", "account",
"bank", "cmd", "now", "deals", "conduct"}``): the seeds (and suspensions) each deal used, the conduct
answers and the suspensions it applied are recorded, so :meth:`CardRoom.replay` rebuilds the
room exactly.  The journal holds the seed of the hand in progress: the host keeps it private.

Commands, params, frames and the choices made: ``docs/design/service-cardroom.md``.
"""

from __future__ import annotations

import math
import pickle
import secrets
from typing import Any, ClassVar

from poker51.cards import cards_str
from poker51.errors import InputError
from poker51.rulebook.games import ADVANCE_CHOICES, GAMES, RANDOM, RANDOM_BLOCK, RANDOM_SEATS
from poker51.rulebook.table import Table
from poker51.service.conduct import REASONS, VIP_GAMES, Conduct
from poker51.service.protocol import FrameError
from poker51.service.room import Event, Movement, Outcome
from poker51.table.deal import new_seed
from poker51.table.errors import IllegalAction, ReplayError

KIND = "cardroom"
HOUSE = "house"
#: XI.8: the edition of the rule book in force, shown on the page
EDITION = "Rule book (seed 003, fe3086e314374cb1), as implemented by poker51-cardroom/1"
FORMAT = "poker51-cardroom/1"
#: 8.1 fifteen seconds to act; 7.6 sixty seconds to lay; the pause between hands (design choice)
CLOCK_S = 15.0
LAY_S = 60.0
PAUSE_S = 3.0
#: a table's stakes (design choice): big blind 2 units, a buy-in from one to 100 big blinds
BIG_BLIND = 2
MAX_BUYIN_BB = 100
CHAT_MAX = 200
CHAT_KEEP = 50
GAME_NAMES = (*GAMES, RANDOM)

RULE_SEATED = "service: only a player seated at this table plays, chats, reports or leaves"
RULE_SEAT = "1.1 (a Hold'em table seats nine, the others seven, 3 Sets and Random six): take an open seat"
RULE_ONE_SEAT = "service: one seat per account at a table"
RULE_BUYIN = "service: a buy-in is from one to 100 big blinds, and no more than the bank holds"
RULE_VIP = (
    "XI (Omaha (5 Cards), Omaha (3 Cards) and 3 Sets are for VIP members; 3 Sets is open to all in the practice room)"
)
RULE_SUSPENDED = "11.6 (the first strike suspends the account for three days, the second closes it)"
RULE_REPORT = "11.4 (any player may be reported from their seat)"
RULE_DISPUTE = "11.7 (a disputed hand is raised with its identifier, from the player's history)"
RULE_CHAT = "11.4 (chat is for the game): a message of 1 to 200 printable characters"
#: the ``advance`` choice that withdraws the player's pending choice (the page's "Clear")
CLEAR_ADVANCE = "none"
RULE_ADVANCE = "8.5 (a choice made in advance is played when the action reaches the player, only if legal then)"
RULE_TABLE = "service: the table's law refused it"

#: command -> {field: (type, required)}
COMMANDS: dict[str, dict[str, tuple[type, bool]]] = {
    "sit": {"seat": (int, True), "buyin": (int, True)},
    "leave": {},
    "sit_out": {},
    "sit_in": {},
    "add": {"amount": (int, True)},
    "act": {"kind": (str, True), "amount": (int, False)},
    "lay": {"sets": (list, True)},
    "show": {},
    "muck": {},
    "advance": {"choice": (str, True)},
    "chat": {"text": (str, True)},
    "report": {"seat": (int, True), "reason": (str, True)},
    "dispute": {"hand": (str, True), "text": (str, True)},
}
ACT_KINDS = ("fold", "check", "call", "bet", "raise", "allin")
ENVELOPE = ("type", "id", "turn")
PARAMS = ("game", "big_blind", "clock_s", "lay_s", "pause_s", "practice", "deck", "entropy", "owner", "start_players")
_SCRATCH = frozenset({"conduct", "_context", "_entry", "_live", "_events", "_moves", "_deal_i"})


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_params(params: Any) -> dict[str, Any]:
    """The table's params with their defaults; a bad one is a ``bad_frame`` :class:`FrameError`."""
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise FrameError("bad_frame", "a card room's params are an object")
    unknown = sorted(set(params) - set(PARAMS) - {"kind"})
    if unknown:
        raise FrameError("bad_frame", f"a card room has no param {str(unknown[0])[:40]!r} ({', '.join(PARAMS)})")
    game = params.get("game", "holdem")
    if game not in GAME_NAMES:
        raise FrameError("bad_frame", f"game {str(game)[:20]!r}: one of {', '.join(GAME_NAMES)}")
    bb = params.get("big_blind", BIG_BLIND)
    if not _is_int(bb) or bb < 2 or bb % 2 or bb > 10_000:
        raise FrameError("bad_frame", f"big_blind {bb!r}: an even whole number from 2 to 10000 (1.4)")
    out: dict[str, Any] = {"game": game, "big_blind": bb}
    for name, default, lo, hi in (("clock_s", CLOCK_S, 0.5, 600.0), ("lay_s", LAY_S, 0.5, 600.0),
                                  ("pause_s", PAUSE_S, 0.0, 600.0)):  # fmt: skip
        v = params.get(name, default)
        if not (_is_int(v) or isinstance(v, float)) or not math.isfinite(v) or not lo <= v <= hi:
            raise FrameError("bad_frame", f"{name} {v!r}: seconds from {lo:g} to {hi:g}")
        out[name] = float(v)
    practice = params.get("practice", False)
    if not isinstance(practice, bool):
        raise FrameError("bad_frame", "practice is true or false")
    out["practice"] = practice
    deck = params.get("deck", "secrets")
    entropy = params.get("entropy")
    if deck not in ("secrets", "seedsequence"):
        raise FrameError("bad_frame", f"deck {str(deck)[:20]!r}: secrets, or seedsequence with entropy (tests)")
    if (deck == "seedsequence") != (entropy is not None) or (
        entropy is not None and not (_is_int(entropy) and entropy >= 0)
    ):
        raise FrameError("bad_frame", "entropy: a non-negative int, given exactly with deck seedsequence")
    out["deck"], out["entropy"] = deck, entropy
    owner = params.get("owner")
    if owner is not None and not isinstance(owner, str):
        raise FrameError("bad_frame", "owner is an account id")
    out["owner"] = owner
    # design choice: the table's first hand waits for this many players ready (afterwards two suffice)
    n_seats = RANDOM_SEATS if game == RANDOM else GAMES[game].seats
    start = params.get("start_players", 2)
    if not _is_int(start) or not 2 <= start <= n_seats:
        raise FrameError("bad_frame", f"start_players {start!r}: a whole number from 2 to {n_seats} (the seats)")
    out["start_players"] = start
    return out


def check_command(cmd: Any) -> dict[str, Any]:
    """A command's shape, normalised (``bad_frame`` / ``unknown_type`` otherwise); the law is the table's."""
    if not isinstance(cmd, dict):
        raise FrameError("bad_frame", "a command is an object with a type")
    kind = cmd.get("type")
    if not isinstance(kind, str) or kind not in COMMANDS:
        raise FrameError("unknown_type", f"a card room has no command {str(kind)[:32]!r} ({', '.join(COMMANDS)})")
    spec = COMMANDS[kind]
    out: dict[str, Any] = {"type": kind}
    for key, value in cmd.items():
        if key in ENVELOPE:
            continue
        if key not in spec:
            raise FrameError("bad_frame", f"{kind} has no field {str(key)[:40]!r}")
        want = spec[key][0]
        if not (_is_int(value) if want is int else isinstance(value, want)):
            raise FrameError("bad_frame", f"{kind}: {key} is {want.__name__}, not {type(value).__name__}")
        out[key] = value
    for key, (_, required) in spec.items():
        if required and key not in out:
            raise FrameError("bad_frame", f"{kind} needs its field {key!r}")
    if kind == "act":
        if out["kind"] not in ACT_KINDS:
            raise FrameError("bad_frame", f"act: kind {out['kind'][:20]!r} is one of {', '.join(ACT_KINDS)}")
        if ("amount" in out) != (out["kind"] in ("bet", "raise")):
            raise FrameError(
                "bad_frame", "act: bet and raise carry their amount (the round's total), no other act does"
            )
    if kind == "advance" and out["choice"] not in (*ADVANCE_CHOICES, CLEAR_ADVANCE):
        choices = ", ".join((*ADVANCE_CHOICES, CLEAR_ADVANCE))
        raise FrameError("bad_frame", f"advance: choice is one of {choices} (8.5)")
    if kind == "report" and out["reason"] not in REASONS:
        raise FrameError("bad_frame", f"report: reason is one of {', '.join(REASONS)} (11.4)")
    if kind == "lay":
        sets = out["sets"]
        if not all(isinstance(p, list) and all(isinstance(c, str) and len(c) <= 3 for c in p) for p in sets):
            raise FrameError("bad_frame", 'lay: sets is a list of pairs of card names ([["As", "Kd"], ...])')
    if kind in ("chat", "dispute"):
        text = out["text"]
        if not 0 < len(text.strip()) <= CHAT_MAX or not text.isprintable():
            raise FrameError("bad_frame", f"{kind}: text of 1 to {CHAT_MAX} printable characters")
    if kind == "dispute" and not 0 < len(out["hand"]) <= 80:
        raise FrameError("bad_frame", "dispute: hand is a hand id from the history")
    return out


def vip_game(game: str, practice: bool) -> bool:
    """Whether sitting at ``game`` needs VIP (7.3, 7.4, 7.6; Random can deal them)."""
    if game == "three_sets" and practice:
        return False
    return game in VIP_GAMES or game == RANDOM


class CardRoom:
    """One card-room table (module docstring)."""

    kind: ClassVar[str] = KIND
    #: commands not checked against the room's turn (their effect does not depend on a state the
    #: sender may not have seen yet: a choice in advance is judged when the action comes)
    turnless: ClassVar[frozenset[str]] = frozenset(
        {"chat", "report", "dispute", "advance", "sit_out", "sit_in", "add", "leave"}
    )

    def __init__(self, room_id: str, params: dict[str, Any] | None, now: float, context: Any = None) -> None:
        self.id = str(room_id)
        self.params = check_params(params)
        self.game = self.params["game"]
        self.practice = self.params["practice"]
        self.conduct: Conduct = getattr(context, "conduct", None) or Conduct()
        self._context = context  # the host's display names (frames only: never in the room's state)
        self.table = Table(self.game, self.params["big_blind"], [(0, "\x00a", 0), (1, "\x00b", 0)], button=0)
        self.table.seats.clear()  # the engine starts with two players; the room starts empty
        self.created = self.now = float(now)
        self.entries = 0
        self.turn_since = self.now
        self._key: tuple[Any, ...] = ()
        self.last_end: float | None = None
        self.paid: dict[str, int] = {}  # account -> what the table's balances have paid back so far
        self.rake_paid = 0
        self.last: dict[str, Any] | None = None  # the last finished hand (its public result)
        self.chat: list[dict[str, Any]] = []
        self.hands_of: dict[str, list[str]] = {}  # account -> the hand ids it played here
        self._seen = 0  # engine events already turned into frames
        self._shown = 0  # showdown decisions already turned into frames
        self._entry: dict[str, Any] = {}
        self._live = True
        self._events: list[Event] = []
        self._moves: list[Movement] = []
        self._deal_i = 0

    @classmethod
    def check_params(cls, params: Any) -> dict[str, Any]:
        return check_params(params)

    @property
    def rules(self) -> str:
        return ("practice:" if self.practice else "rb1:") + self.game

    # ------------------------------------------------------------------ the Room protocol
    def apply(self, account: str, bank: int, cmd: dict[str, Any], now: float) -> Outcome:
        c = check_command(cmd)
        if not isinstance(account, str) or not account or not _is_int(bank) or bank < 0:
            raise FrameError("bad_frame", "a command comes from an account with a bank")
        entry = {"op": "cmd", "account": account, "bank": bank, "cmd": c, "now": float(now), "deals": [],
                 "conduct": None}  # fmt: skip
        return self._run(entry, live=True)

    def tick(self, now: float) -> Outcome:
        entry = {"op": "tick", "now": float(now), "deals": [], "conduct": None}
        return self._run(entry, live=True, keep_empty=False)

    def replay(self, entry: dict[str, Any]) -> None:
        if not isinstance(entry, dict) or entry.get("op") not in ("cmd", "tick"):
            raise ReplayError(f"room {self.id}: entry {self.entries + 1} is not a card-room journal entry")
        try:
            self._run(entry, live=False)
        except (InputError, FrameError) as exc:
            raise ReplayError(f"room {self.id}: entry {self.entries + 1} does not replay: {exc}") from None
        if self._deal_i != len(entry["deals"]):
            raise ReplayError(f"room {self.id}: entry {self.entries} left recorded deals unused")

    def next_deadline(self) -> float | None:
        t = self.table
        if self._in_hand():
            phase = t.hand.phase if t.hand else ""
            return self.turn_since + (self.params["lay_s"] if phase == "lay" else self.params["clock_s"])
        if self._can_deal():
            return self.now if self.last_end is None else self.last_end + self.params["pause_s"]
        return None

    def chips(self) -> dict[str, int]:
        """Per seated account, its chips at the table (stack, chips in the pot, chips added not yet
        arrived); none in a practice room (its chips are not the bank's)."""
        if self.practice:
            return {}
        t = self.table
        out: dict[str, int] = {}
        h = t.hand if self._in_hand() else None
        for s, st in t.seats.items():
            p = h.by_seat.get(s) if h is not None else None
            out[st.name] = (p.stack + p.contrib if p is not None else st.stack) + st.pending
        return dict(sorted(out.items()))

    def display_name(self, account: str) -> str:
        """The name the table shows for ``account`` (the host's, through its context)."""
        f = getattr(self._context, "display_name", None)
        return str(f(account)) if f is not None else f"Player {account[1:5]}"

    def names(self, accounts: Any) -> dict[str, str]:
        """``{account: display name}`` of ``accounts`` (ids, sorted)."""
        return {a: self.display_name(a) for a in sorted(set(accounts))}

    def seated(self, account: str | None) -> bool:
        return account is not None and any(st.name == account for st in self.table.seats.values())

    def account_at(self, seat: str) -> str | None:
        try:
            st = self.table.seats.get(int(seat))
        except ValueError:
            return None
        return None if st is None else st.name

    # ------------------------------------------------------------------ one step
    def _in_hand(self) -> bool:
        return self.table.hand is not None and self.table.record is None

    def _can_deal(self) -> bool:
        t = self.table
        if self._in_hand():
            return False
        ready = [s for s, st in t.seats.items() if not st.sitting_out and st.stack + st.pending > 0]
        return len(ready) >= (self.params["start_players"] if t.hand_number == 0 else 2)

    def _state(self) -> bytes:
        return pickle.dumps({k: v for k, v in self.__dict__.items() if k not in _SCRATCH}, pickle.HIGHEST_PROTOCOL)

    def _run(self, entry: dict[str, Any], live: bool, keep_empty: bool = True) -> Outcome:
        saved = self._state()
        self._entry, self._live = entry, live
        self._events, self._moves = [], []
        self._deal_i = 0
        try:
            self.now = now = max(float(entry["now"]), self.now)  # time never runs back
            self._settle(now)
            if entry["op"] == "cmd":
                self._command(entry["account"], entry["bank"], entry["cmd"], now)
                self._settle(now)
        except InputError as exc:
            self.__dict__.update(pickle.loads(saved))
            if isinstance(exc, (IllegalAction, FrameError)):
                raise
            raise IllegalAction(str(exc), RULE_TABLE) from None
        except BaseException:
            self.__dict__.update(pickle.loads(saved))
            raise
        if not self._events and not keep_empty:
            self.__dict__.update(pickle.loads(saved))
            return Outcome()
        self.entries += 1
        self._events += self._states()
        return Outcome([entry], self._moves, self._events)

    def _states(self) -> list[Event]:
        """The frame of every seated account and the watchers' frame, last in every outcome."""
        out = [Event(f"account:{st.name}", {"type": "state", "view": self.view(st.name)})
               for _, st in sorted(self.table.seats.items())]  # fmt: skip
        out.append(Event("watchers", {"type": "state", "view": self.view(None)}))
        return out

    def _settle(self, now: float) -> None:
        """What needs no one's decision: due clocks, the settlement, the next deal."""
        t = self.table
        for _ in range(1000):
            self._clock(now)
            if self._in_hand():
                h = t.hand
                assert h is not None
                if t.waiting_for is None:
                    self._finish()
                    continue
                limit = self.params["lay_s"] if h.phase == "lay" else self.params["clock_s"]
                if now < self.turn_since + limit:
                    return
                if h.phase == "lay":
                    for p in list(h.live()):
                        if p.laid is None and self._in_hand() and h.phase == "lay":
                            t.act(p.name, "timeout")  # 7.6: the default laying
                else:
                    t.act(str(t.waiting_for), "timeout")  # 8.2 (at the showdown: shows)
                self._flush()
                continue
            if self._can_deal() and (self.last_end is None or now >= self.last_end + self.params["pause_s"]):
                self._deal(now)
                continue
            return
        raise RuntimeError(f"room {self.id}: the table does not settle")  # pragma: no cover

    def _clock(self, now: float) -> None:
        """The decision clock starts when the decision changes hands (a step, a deal, the laying)."""
        t, h = self.table, self.table.hand
        if not self._in_hand() or h is None:
            key: tuple[Any, ...] = ()
        elif h.phase == "lay":
            key = (t.hand_number, "lay")
        else:
            sd = t.showdown
            key = (t.hand_number, h.phase, t.waiting_for, len(h.events), len(sd.shows) if sd else 0)
        if key != self._key:
            self._key, self.turn_since = key, now

    def _deal(self, now: float) -> None:
        t = self.table
        number = t.hand_number + 1
        rotation = t.game_name == RANDOM and (number - 1) % RANDOM_BLOCK == 0
        if self._live:
            # 11.6: a suspended or closed account is dealt out (recorded: the replay does not ask)
            out = [st.name for _, st in sorted(t.seats.items())
                   if not st.sitting_out and self.conduct.status(st.name, now)["state"] != "ok"]  # fmt: skip
            mode, ent = self.params["deck"], self.params["entropy"]
            if mode == "secrets":
                seed, rot = secrets.token_bytes(32), secrets.token_bytes(32) if rotation else None
            else:
                seed = new_seed(mode, ent, key=(0, number))
                rot = new_seed(mode, ent, key=(1, (number - 1) // RANDOM_BLOCK + 1)) if rotation else None
            self._entry["deals"].append({"hand": number, "seed": seed.hex(), "sat_out": out,
                                         "rotation_seed": rot.hex() if rot else None})  # fmt: skip
        deals = self._entry["deals"]
        if self._deal_i >= len(deals) or deals[self._deal_i].get("hand") != number:
            raise ReplayError(f"hand {number}: no recorded deal")
        d = deals[self._deal_i]
        self._deal_i += 1
        for name in d.get("sat_out", []):
            t.table_action(name, "sit_out")
            self._events.append(Event("all", {"type": "sit_out", "account": name, "reason": "suspended"}))
        if not self._can_deal():  # the suspensions left fewer than two players
            return
        if t.hand_number == 0 and t.button not in t.seats:
            t.button = min(t.seats)
        rot_seed = bytes.fromhex(d["rotation_seed"]) if d.get("rotation_seed") else None
        t.start_hand(seed=bytes.fromhex(d["seed"]), rotation_seed=rot_seed)
        self._seen = self._shown = 0
        rec = t.record_open
        h = t.hand
        assert h is not None
        hand_id = f"{self.id}:{number}"
        for p in h.players:
            self.hands_of.setdefault(p.name, []).append(hand_id)
        frame: dict[str, Any] = {
            "type": "hand", "hand": number, "id": hand_id, "game": rec["game"], "title": GAMES[rec["game"]].title,
            "commitment": rec["commitment"], "button": t.button, "big_blind": t.bb,
            "seats": [{**s, "display_name": self.display_name(s["name"])} for s in rec["seats"]],
        }  # fmt: skip
        if "block_hand" in rec:
            frame["block"] = {"block": (number - 1) // RANDOM_BLOCK + 1, "hand": rec["block_hand"]}
        if "rotation" in rec:
            frame["rotation"] = {k: rec["rotation"][k] for k in ("block", "commitment", "candidates", "game")}
        self._events.append(Event("all", frame))
        self._flush()

    def _finish(self) -> None:
        t = self.table
        h = t.hand
        assert h is not None
        self._flush()
        rec = t.finish()
        number = rec["hand"]
        hand_id = f"{self.id}:{number}"
        public_shows = [{k: v for k, v in s.items() if s["shown"] or k in ("player", "shown")} for s in rec["shows"]]
        result = {
            "type": "result", "hand": number, "id": hand_id, "game": rec["game"], "boards": rec["boards"],
            "pots": [{k: p[k] for k in ("amount", "eligible", "winners", "rake", "shares")} for p in rec["pots"]],
            "rake": rec["rake"], "returned": rec["returned"], "payouts": rec["payouts"], "stacks": rec["stacks"],
            "shows": public_shows, "commitment": rec["commitment"], "seed": rec["seed"],
            "conserved": rec["conserved"], "rotation_seed": rec.get("rotation", {}).get("seed"),
        }  # fmt: skip
        self.last = result
        self.last_end = self.now
        self._events.append(Event("all", {**result, "names": self.names(s["name"] for s in rec["seats"])}))
        start = {s["name"]: s["stack"] for s in rec["seats"]}
        commit: dict[str, Any] = {"type": "commit", "hand": number, "commitment": rec["commitment"]}
        if "rotation" in rec:
            commit["rotation_commitment"] = rec["rotation"]["commitment"]
        log = {"format": FORMAT, "room": self.id, "edition": EDITION, "practice": self.practice,
               "commit": commit, "record": rec}  # fmt: skip
        self._events.append(Event("archive", {
            "hand": hand_id, "kind": KIND, "rules": self.rules, "log": log,
            "accounts": {n: rec["stacks"][n] - start[n] for n in start},
        }))  # fmt: skip
        if not self.practice and t.rake_total > self.rake_paid:  # 10.2: the rake to the house
            self._moves.append(Movement(HOUSE, t.rake_total - self.rake_paid, "rake"))
            self.rake_paid = t.rake_total
        self._pay()

    def _pay(self) -> None:
        """Chips the table has moved to a leaver's balance (1.8) go to the bank."""
        for name, total in sorted(self.table.balances.items()):
            due = total - self.paid.get(name, 0)
            if due:
                self.paid[name] = total
                if not self.practice:
                    self._moves.append(Movement(name, due, "cashout", {"kind": "cashout", "room": self.id,
                                                                       "player": name, "amount": due}))  # fmt: skip
                self._events.append(Event("all", {"type": "cashout", "account": name, "amount": due}))

    # ------------------------------------------------------------------ commands
    def _seat_of(self, account: str) -> int | None:
        return next((s for s, st in self.table.seats.items() if st.name == account), None)

    def _command(self, account: str, bank: int, c: dict[str, Any], now: float) -> None:
        t = self.table
        kind = c["type"]
        status = self.conduct.status(account, now)
        if status["state"] == "closed" and kind != "leave":
            raise IllegalAction(f"account {account} is closed", RULE_SUSPENDED)
        if status["state"] == "suspended" and kind in ("sit", "sit_in", "add", "chat", "report", "dispute"):
            raise IllegalAction(f"account {account} is suspended until {status['suspended_until']:.0f}", RULE_SUSPENDED)
        if kind == "sit":
            self._sit(account, bank, c["seat"], c["buyin"], now)
            return
        seat = self._seat_of(account)
        if seat is None:
            raise IllegalAction(f"{kind}: {account} has no seat at this table", RULE_SEATED)
        if kind == "chat":
            msg = {"account": account, "seat": seat, "text": c["text"].strip(), "at": now}
            self.chat = [*self.chat, msg][-CHAT_KEEP:]
            self._events.append(Event("all", {"type": "chat", **msg, "display_name": self.display_name(account)}))
        elif kind == "report":
            self._report(account, c["seat"], c["reason"], now)
        elif kind == "dispute":
            if c["hand"] not in self.hands_of.get(account, []) or c["hand"] == self._current_id():
                raise IllegalAction(f"{c['hand'][:80]!r} is not a finished hand of yours at this table", RULE_DISPUTE)
            d = {"type": "dispute", "account": account, "hand": c["hand"], "text": c["text"].strip(), "at": now}
            self._events.append(Event("conduct", d))
            self._events.append(Event(f"account:{account}", {**d, "type": "dispute_recorded"}))
        elif kind == "add":
            amount = c["amount"]
            top = MAX_BUYIN_BB * t.bb
            st = t.seats[seat]
            if amount <= 0 or (not self.practice and amount > bank) or st.stack + st.pending + amount > top:
                raise IllegalAction(f"add {amount}: at most the bank ({bank}) and {top} chips at the table", RULE_BUYIN)
            t.table_action(account, "add", amount)  # 1.9: arrives at the next deal
            if not self.practice:
                rec = {"kind": "add", "room": self.id, "player": account, "amount": amount}
                self._moves.append(Movement(account, -amount, "buyin", rec))
            self._events.append(Event("all", {"type": "add", "account": account, "seat": seat, "amount": amount}))
        elif kind in ("sit_out", "sit_in", "leave"):
            if kind == "leave" and account in t.leaving:
                raise IllegalAction(f"{account} is leaving already", "1.8 (a player who leaves takes their chips)")
            sd = t.showdown
            if (
                kind == "leave"
                and self._in_hand()
                and sd is not None
                and sd.decided
                and t.hand is not None
                and t.hand.phase == "showdown"
            ):  # as the engine's protocol: BookHand.verify_play
                raise IllegalAction(
                    "once a hand is shown or mucked, leave after the settlement",
                    "5.3 (the player claiming a pot must show)",
                )
            t.table_action(account, kind)
            self._events.append(Event("all", {"type": kind, "account": account, "seat": seat}))
            self._flush()
            self._pay()
        elif kind == "advance":
            self._advance(account, seat, c["choice"])
        else:
            self._play(account, seat, c)

    def _current_id(self) -> str | None:
        return f"{self.id}:{self.table.hand_number}" if self._in_hand() else None

    def _sit(self, account: str, bank: int, seat: int, buyin: int, now: float) -> None:
        t = self.table
        if vip_game(self.game, self.practice) and not self.conduct.vip(account, now):
            raise IllegalAction(f"{GAMES.get(self.game).title if self.game in GAMES else 'Random'} needs VIP", RULE_VIP)  # type: ignore[union-attr]
        if not 0 <= seat < t.n_seats:
            raise IllegalAction(f"seat {seat}: this table has seats 0 to {t.n_seats - 1}", RULE_SEAT)
        if seat in t.seats:
            raise IllegalAction(f"seat {seat} is taken", RULE_SEAT)
        if self._seat_of(account) is not None:
            raise IllegalAction(f"{account} sits at seat {self._seat_of(account)} already", RULE_ONE_SEAT)
        if not t.bb <= buyin <= MAX_BUYIN_BB * t.bb or (not self.practice and buyin > bank):
            raise IllegalAction(f"buy-in {buyin}: from {t.bb} to {MAX_BUYIN_BB * t.bb}, bank {bank}", RULE_BUYIN)
        t.sit(seat, account, buyin)
        if not self.practice:
            self._moves.append(Movement(account, -buyin, "buyin", {"kind": "buyin", "room": self.id,
                                                                   "player": account, "amount": buyin}))  # fmt: skip
        self._events.append(Event("all", {"type": "seat", "seat": seat, "account": account, "stack": buyin,
                                          "display_name": self.display_name(account)}))  # fmt: skip

    def _report(self, reporter: str, seat: int, reason: str, now: float) -> None:
        t = self.table
        st = t.seats.get(seat)
        if st is None or st.name == reporter:
            raise IllegalAction(f"seat {seat}: report another player seated at this table", RULE_REPORT)
        reported = st.name
        if self._live:
            res = self.conduct.book.peek(reporter, reported, now)
            self._entry["conduct"] = {"counted": res.counted, "strike": res.strike.to_json() if res.strike else None}
        judged = self._entry["conduct"]
        if not isinstance(judged, dict):
            raise ReplayError("a report without its recorded judgement")
        payload = {"type": "report", "reporter": reporter, "reported": reported, "reason": reason, "at": now,
                   "hand": self._current_id() or (f"{self.id}:{t.hand_number}" if t.hand_number else None),
                   "counted": judged["counted"], "strike": judged["strike"]}  # fmt: skip
        self._events.append(Event("conduct", payload))
        self._events.append(Event(f"account:{reporter}", {"type": "report_recorded", "reported": reported,
                                                          "seat": seat, "counted": judged["counted"]}))  # fmt: skip
        strike = judged["strike"]
        if strike:
            self._events.append(Event("all", {"type": "strike", "account": reported, "number": strike["number"],
                                              "suspended_until": strike.get("suspended_until"),
                                              "closed": bool(strike.get("closed"))}))  # fmt: skip
            # 11.6 at this table: suspended, dealt out from the next hand; closed, the chips go home
            t.table_action(reported, "leave" if strike.get("closed") else "sit_out")
            self._flush()
            self._pay()

    def _advance(self, account: str, seat: int, choice: str) -> None:
        t, h = self.table, self.table.hand
        if not self._in_hand() or h is None or seat not in h.by_seat or h.by_seat[seat].folded:
            raise IllegalAction(f"advance {choice}: {account} has no hand in play", RULE_ADVANCE)
        if choice == CLEAR_ADVANCE:  # withdrawn: nothing of the law to check, nothing played
            if account not in t.advance:
                raise IllegalAction(f"advance {choice}: {account} has no choice made in advance", RULE_ADVANCE)
            del t.advance[account]
            self._events.append(Event(f"account:{account}", {"type": "advance_set", "choice": None}))
            self._flush()
            return
        if h.phase != "bet":
            raise IllegalAction(f"advance {choice}: there is no betting now ({h.phase})", RULE_ADVANCE)
        if h.to_act == seat:
            legal = h.legal()
            kind = {"check_fold": "check" if "check" in legal else "fold"}.get(choice, choice)
            if kind not in legal:
                raise IllegalAction(f"advance {choice}: it is your turn and {kind} is not legal now", RULE_ADVANCE)
        t.table_action(account, "advance", choice)
        self._events.append(Event(f"account:{account}", {"type": "advance_set", "choice": choice}))
        self._flush()

    def _play(self, account: str, seat: int, c: dict[str, Any]) -> None:
        t = self.table
        if not self._in_hand():
            raise IllegalAction(f"{c['type']}: no hand is in play", "2.5 (the hand is over)")
        kind = c["type"]
        if kind == "act":
            kind, arg = c["kind"], c.get("amount")
        elif kind == "lay":
            try:
                from poker51.cards import parse_card

                arg = [[parse_card(x) for x in pair] for pair in c["sets"]]
            except InputError as exc:
                raise IllegalAction(
                    f"lay: {exc}", "7.6 (each player lays two of their six cards on each board)"
                ) from None
        else:
            arg = None
        if account in t.leaving:
            raise IllegalAction(f"{kind}: {account} left this hand", "1.8 (a player who leaves folds at once)")
        t.verify_act(account, kind, arg)
        h = t.hand
        assert h is not None
        if kind not in ("lay", "show", "muck") and h.to_act != seat:
            raise IllegalAction(f"it is not {account}'s turn", "3.1 (on a player's turn)")
        t.act(account, kind, arg)
        self._flush()

    # ------------------------------------------------------------------ frames
    def _flush(self) -> None:
        """The engine's new records as frames (module docstring)."""
        t = self.table
        h = t.hand
        if h is None:
            return
        number = t.hand_number
        for ev in h.events[self._seen :]:
            e = dict(ev)
            kind = e.pop("event")
            if kind in ("small_blind", "big_blind", "ante"):
                self._events.append(Event("all", {"type": "post", "hand": number, "kind": kind, **e}))
            elif kind == "hole":
                self._events.append(Event(f"account:{e['player']}", {"type": "hole", "hand": number, **e}))
            elif kind == "lay":
                self._events.append(Event(f"account:{e['player']}", {"type": "lay", "hand": number, **e}))
                self._events.append(Event("all", {"type": "laid", "hand": number, "player": e["player"],
                                                  "timeout": e["timeout"]}))  # fmt: skip
            elif kind == "advance_discarded":
                self._events.append(Event(f"account:{e['player']}", {"type": kind, "hand": number, **e}))
            elif kind in ("board", "round", "action", "sit_out", "leave"):
                self._events.append(
                    Event("all", {"type": "fold_out" if kind == "leave" else kind, "hand": number, **e})
                )
            else:  # pragma: no cover - an engine record this room does not know is a bug, never silent
                raise RuntimeError(f"room {self.id}: unknown engine record {kind!r}")
        self._seen = len(h.events)
        sd = t.showdown
        if sd is not None:
            for s in sd.shows[self._shown :]:
                pub = {k: v for k, v in s.items() if s["shown"] or k in ("player", "shown", "timeout")}
                self._events.append(Event("all", {"type": "show", "hand": number, **pub}))
            self._shown = len(sd.shows)

    def legal(self, account: str | None) -> list[dict[str, Any]]:
        """What ``account`` may do now in the hand, each with the command that does it."""
        t, h = self.table, self.table.hand
        seat = self._seat_of(account) if account else None
        if seat is None or not self._in_hand() or h is None or account in t.leaving:
            return []
        if h.phase == "bet" and h.to_act == seat:
            out: list[dict[str, Any]] = []
            for kind, v in h.legal().items():
                if kind in ("fold", "check"):
                    out.append({"kind": kind, "cmd": {"type": "act", "kind": kind}})
                elif kind == "call":
                    out.append({"kind": "call", "amount": v, "cmd": {"type": "act", "kind": "call"}})
                elif kind in ("bet", "raise"):
                    out.append(
                        {"kind": kind, "min": v[0], "max": v[1], "cmd": {"type": "act", "kind": kind, "amount": v[0]}}
                    )
                elif kind == "allin" and v:
                    p = h.by_seat[seat]
                    out.append({"kind": "allin", "amount": p.bet + p.stack, "cmd": {"type": "act", "kind": "allin"}})
            return out
        if h.phase == "lay":
            q = h.by_seat.get(seat)
            if q is not None and not q.folded and q.laid is None:
                sets = [cards_str(q.hole[i : i + 2]).split() for i in (0, 2, 4)]
                return [{"kind": "lay", "cmd": {"type": "lay", "sets": sets}}]
        if h.phase == "showdown" and t.showdown is not None and t.showdown.to_show == seat:
            out = [{"kind": "show", "cmd": {"type": "show"}}]
            if t.showdown.may_muck(seat):
                out.append({"kind": "muck", "cmd": {"type": "muck"}})
            return out
        return []

    def view(self, account: str | None) -> dict[str, Any]:
        """The table as ``account`` (None: a watcher) may see it now."""
        t = self.table
        h = t.hand if self._in_hand() else None
        seats: dict[str, Any] = {}
        for s, st in sorted(t.seats.items()):
            p = h.by_seat.get(s) if h is not None else None
            seats[str(s)] = {
                "account": st.name, "stack": p.stack if p is not None else st.stack, "pending": st.pending,
                "sitting_out": st.sitting_out, "timeouts": st.timeouts, "leaving": st.name in t.leaving,
                "in_hand": p is not None, "bet": p.bet if p else 0, "contributed": p.contrib if p else 0,
                "folded": bool(p and p.folded), "all_in": bool(p and p.all_in), "laid": bool(p and p.laid is not None),
                "display_name": self.display_name(st.name),
            }  # fmt: skip
        current = t.current or self.game
        out: dict[str, Any] = {
            "type": "view", "kind": KIND, "room": self.id, "edition": EDITION, "game": self.game,
            "current_game": current, "title": GAMES[current].title if current in GAMES else "Random",
            "practice": self.practice, "vip_game": vip_game(self.game, self.practice), "big_blind": t.bb,
            "small_blind": t.bb // 2, "n_seats": t.n_seats, "button": t.button, "hands": t.hand_number,
            "params": {k: self.params[k] for k in ("clock_s", "lay_s", "pause_s")}, "seats": seats,
            "rake_total": t.rake_total, "hand": None, "legal": self.legal(account), "last": self.last,
            "chat": [{**m, "display_name": self.display_name(m["account"])} for m in self.chat],
            "now": self.now, "next_deadline": self.next_deadline(), "you": None,
            "block": None, "names": {}, "advance_choices": [*ADVANCE_CHOICES, CLEAR_ADVANCE],
        }  # fmt: skip
        if t.game_name == RANDOM and t.hand_number:
            out["block"] = {"block": (t.hand_number - 1) // RANDOM_BLOCK + 1,
                            "hand": (t.hand_number - 1) % RANDOM_BLOCK + 1, "of": RANDOM_BLOCK,
                            "seats": RANDOM_SEATS}  # fmt: skip
        if h is not None:
            sd = t.showdown
            shows = [
                {k: v for k, v in s.items() if s["shown"] or k in ("player", "shown")} for s in (sd.shows if sd else [])
            ]
            to_act = t.waiting_for
            out["hand"] = {
                "hand": t.hand_number, "id": f"{self.id}:{t.hand_number}", "game": h.game.name,
                "phase": h.phase, "round": h.round_name, "boards": [cards_str(b).split() for b in h.boards],
                "pot": sum(p.contrib for p in h.players), "to_act": None if to_act == "laying" else to_act,
                "laying": [p.name for p in h.live() if p.laid is None] if h.phase == "lay" else [],
                "deadline": self.next_deadline(), "commitment": t.record_open.get("commitment"),
                "rotation_commitment": t.record_open.get("rotation", {}).get("commitment"), "shows": shows,
                "button": t.button, "players": [p.name for p in h.players],
                # the blinds and antes posted (public; a page opened after the deal names them)
                "posts": [{"player": e["player"], "kind": e["event"], "amount": e["amount"], "all_in": e["all_in"]}
                          for e in h.events if e["event"] in ("small_blind", "big_blind", "ante")],
            }  # fmt: skip
        # every account this frame names (seats, the hand's players, the last hand's): its display name
        named = [st.name for st in t.seats.values()]
        if h is not None:
            named += [p.name for p in h.players]
        if self.last is not None:
            named += list(self.last["stacks"])
        out["names"] = self.names(named)
        if account is not None:
            seat = self._seat_of(account)
            me = h.by_seat.get(seat) if h is not None and seat is not None else None
            cs = self.conduct.status(account, self.now)
            out["you"] = {
                "account": account, "display_name": self.display_name(account), "seat": seat,
                "hole": cards_str(me.hole).split() if me else [],
                "laid": [cards_str(x).split() for x in me.laid] if me and me.laid else None,
                "advance": t.advance.get(account), "vip": cs["vip"], "status": cs["state"], "strikes": cs["strikes"],
                "suspended_until": cs["suspended_until"], "hands": cs["hands"],
                "history": list(self.hands_of.get(account, []))[-20:],
            }  # fmt: skip
        return out


ROOM = CardRoom

__all__ = ["CLOCK_S", "EDITION", "KIND", "LAY_S", "CardRoom", "check_command", "check_params", "vip_game"]
