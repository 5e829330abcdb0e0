"""The five-seat room: one Poker 51 table of the service (rule card "Poker 51 tables" v1, seed 000).

A :class:`FiveSeatRoom` is a :class:`poker51.service.room.Room`: synchronous, free of I/O, given
the time by its host.  It adds no rule of its own: the table's law, the ledger (banks, stacks,
jbits held by Riemann, abits, abit scores), the receipts and the commitments are
:mod:`poker51.multi`'s (:class:`poker51.multi.table.Table`); the room only

- checks a command's shape and who sends it (a one-line :class:`IllegalAction` naming the
  rule, with no change: the room's state is restored if the engine refuses half-way);
- runs the clocks from the ``now`` it is given: the 45-second decision clock (a time-out is the
  table's :meth:`~poker51.multi.table.Table.timeout`: check, else fold, stand pat at the draw;
  three in a row mark a player away), the pause before the next hand, the close after two
  idle hours (every stack paid out) and the 30 days a closed table keeps its cash-outs;
- plays Riemann's turns at once with the policy it is given (:class:`RiemannLike`, normally
  :class:`poker51.multi.riemann.RiemannPolicy` over the pipeline's v0.2 belief table);
- deals each hand from a fresh seed and salt (:mod:`secrets`, or a seeded source for tests),
  shuffled and committed by :mod:`poker51.table.deal`;
- turns the table's log records into per-audience :class:`Event` frames (cards only in the
  owner's ``account:<id>`` frames until the hand's ``reveal``) and its receipts into
  :class:`Movement` rows (cents: ``-buy-in`` with the buy-in receipt, ``+cash-out`` with the
  cash-out receipt).

**Replay.**  The room's state is a deterministic function of its parameters and its journal:
every accepted command or clock step is one journal entry holding the command, the bank the
host passed, ``now``, the seed and salt of every hand it dealt, and every move Riemann made in
it.  :meth:`FiveSeatRoom.replay` re-applies an entry with those recorded deals and moves (the
policy is not consulted again, so a restart with another belief table resumes exactly).  The
journal holds the seeds and salts of hands not yet revealed: the host keeps it private.

The commands, the parameters and the event payloads are in ``docs/design/service-fiveseat.md``.
"""

from __future__ import annotations

import math
import pickle
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from poker51.cards import card_str, parse_card
from poker51.errors import InputError
from poker51.multi.commit import DECK_CARDS, CommittedDeck, DeckSource
from poker51.multi.hand import DRAW
from poker51.multi.law import ANTE, AWAY_AFTER, BUYINS, HAND_SIZE, JBIT, N_SEATS, OPEN_SIZES, RULES_ID, Move
from poker51.multi.ledger import PERSON
from poker51.multi.table import Table, receipt
from poker51.multi.view import Spot
from poker51.service.protocol import FrameError
from poker51.service.room import Event, Movement, Outcome
from poker51.table.deal import deck_commitment, new_seed, shuffle
from poker51.table.errors import IllegalAction, ReplayError

KIND = "fiveseat"
#: the decision clock (Time: "Each decision has 45 seconds")
CLOCK_S = 45.0
#: the pause between the end of a hand and the next deal (design choice: the result stays on screen)
PAUSE_S = 4.0
#: a table with no command and no hand for this long closes (Limits: two idle hours)
IDLE_CLOSE_S = 2 * 3600.0
#: a closed table keeps its cash-outs this long, then they are deleted (Limits: 30 days)
KEEP_CASHOUTS_S = 30 * 86400.0
#: a Riemann's name at the room (a space: never an account id, see :func:`_account`)
RIEMANN_NAME = "Riemann {}"
DECKS = ("secrets", "seedsequence")
#: a room's attributes that are not its state: the policy, and one step's scratch
_SCRATCH = frozenset({"_policy", "_context", "_entry", "_live", "_events", "_moves", "_deal_i", "_move_i"})

# The rules an IllegalAction of the room names (the card's sections; "service" for the frame's shape).
RULE_COMMAND = "service: a five-seat command is sit, leave, back, act, draw, add_riemann or remove_riemann"
RULE_FIELDS = "service: a command carries exactly its fields, each of its type"
RULE_ACCOUNT = "service: an account id is a non-empty string of at most 64 characters without spaces"
RULE_PARAMS = (
    "service: a table's parameters are clock_s, pause_s, idle_close_s, keep_cashouts_s, button, deck, entropy, owner"
)
RULE_SEAT = "A table 1: there are five seats, 0 to 4; take an open seat"
RULE_ONE_SEAT = "A table 1: a player takes one seat at a table"
RULE_SEATED = "A table 1: only a seated player plays, leaves, or adds Riemann"
RULE_BUYIN = "A table 2: a buy-in of 2, 4, 8 or 16 jbits"
RULE_BANK = "A table 2: a buy-in is no more than your bank holds"
RULE_LEAVING = "Time: leaving during a hand folds it at once; the stack is paid when that hand ends"
RULE_AWAY = "Time: after three timeouts in a row you sit out until you press I'm back"
RULE_BACK = "Time: I'm back is for a player marked away"
RULE_HAND = "A hand: act only during a hand, on your turn"
RULE_CARD = "a card is a rank 2-9, T, J, Q, K, A and a suit c, d, h, s (As, Td)"
RULE_RIEMANN = "Riemann and abits: any seated player adds Riemann to an open seat, with abits equal to their stack"
RULE_REMOVE = "Riemann and abits: a seated player removes a Riemann"
RULE_CLOSED = "Limits: tables close after two idle hours"

COMMANDS: dict[str, dict[str, type]] = {
    "sit": {"seat": int, "buyin": int},
    "leave": {},
    "back": {},
    "act": {"kind": str, "amount": int},
    "draw": {"discard": list},
    "add_riemann": {"seat": int},
    "remove_riemann": {"seat": int},
}
#: fields a command must carry (the others in :data:`COMMANDS` are optional)
REQUIRED = {"sit": ("seat", "buyin"), "act": ("kind",), "draw": ("discard",), "add_riemann": ("seat",),
            "remove_riemann": ("seat",)}  # fmt: skip
#: envelope fields the host may leave in a command: ignored here (the host checks them)
ENVELOPE = ("type", "id", "turn")
ACT_KINDS = ("check", "call", "fold", "raise", "open", "allin")

PARAMS: dict[str, tuple[float, float, float]] = {  # name: (default, least, most)
    "clock_s": (CLOCK_S, 1.0, 3600.0),
    "pause_s": (PAUSE_S, 0.0, 600.0),
    "idle_close_s": (IDLE_CLOSE_S, 1.0, 30 * 86400.0),
    "keep_cashouts_s": (KEEP_CASHOUTS_S, 0.0, 366 * 86400.0),
}


class RiemannLike(Protocol):
    """What the room asks of Riemann's policy (:class:`poker51.multi.riemann.RiemannPolicy`)."""

    def keep(self, cards: Sequence[int]) -> list[int]: ...

    def decide(self, spot: Spot) -> Move: ...


def default_riemann() -> RiemannLike:
    """Riemann over the standard deck's v0.2 belief table rebuilt from seed 51 (as ``poker51 multi``
    does without ``--belief``; seconds to build).  The host passes its own, read from the
    pipeline's ``belief.parquet`` (:func:`poker51.multi.belief.read_belief`)."""
    from poker51.multi.belief import standard_belief
    from poker51.multi.riemann import RiemannPolicy

    return RiemannPolicy(standard_belief())


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _account(account: Any) -> str:
    if not isinstance(account, str) or not 0 < len(account) <= 64 or any(c.isspace() for c in account):
        raise IllegalAction(f"account {str(account)[:70]!r} is not an account id", RULE_ACCOUNT)
    return account


def check_params(params: Any) -> dict[str, Any]:
    """The table's parameters with their defaults, or :class:`IllegalAction` naming the bad one."""
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise IllegalAction("the table's parameters are an object", RULE_PARAMS)
    unknown = sorted(set(params) - set(PARAMS) - {"button", "deck", "entropy", "owner"})
    if unknown:
        raise IllegalAction(f"unknown table parameter {unknown[0]!r}", RULE_PARAMS)
    out: dict[str, Any] = {}
    for name, (default, lo, hi) in PARAMS.items():
        v = params.get(name, default)
        if not (_is_int(v) or isinstance(v, float)) or not math.isfinite(v) or not lo <= v <= hi:
            raise IllegalAction(f"{name} {v!r}: a number of seconds from {lo:g} to {hi:g}", RULE_PARAMS)
        out[name] = float(v)
    button = params.get("button", 0)
    if not _is_int(button) or not 0 <= button < N_SEATS:
        raise IllegalAction(f"button {button!r}: a seat 0 to {N_SEATS - 1}", RULE_PARAMS)
    out["button"] = button
    deck = params.get("deck", "secrets")
    if deck not in DECKS:
        raise IllegalAction(f"deck {deck!r}: secrets, or seedsequence for tests", RULE_PARAMS)
    out["deck"] = deck
    entropy = params.get("entropy")
    bad = entropy is not None and not (_is_int(entropy) and entropy >= 0)
    if bad or (deck == "seedsequence") != (entropy is not None):
        raise IllegalAction("entropy: a non-negative integer, given exactly with deck seedsequence", RULE_PARAMS)
    out["entropy"] = entropy
    owner = params.get("owner")
    if owner is not None and not isinstance(owner, str):
        raise IllegalAction(f"owner {owner!r}: the account id the host opened the table for", RULE_PARAMS)
    out["owner"] = owner
    return out


def check_command(cmd: Any) -> dict[str, Any]:
    """A command's shape (:data:`COMMANDS`), normalised: ``{"type": ..., fields...}``; the law is
    the table's."""
    if not isinstance(cmd, dict):
        raise IllegalAction("a command is an object with a type", RULE_FIELDS)
    kind = cmd.get("type")
    if not isinstance(kind, str) or kind not in COMMANDS:
        raise IllegalAction(f"unknown command {str(kind)[:40]!r}", RULE_COMMAND)
    spec = COMMANDS[kind]
    out: dict[str, Any] = {"type": kind}
    for key, value in cmd.items():
        if key in ENVELOPE:
            continue
        if key not in spec:
            raise IllegalAction(f"{kind}: unexpected field {str(key)[:40]!r}", RULE_FIELDS)
        want = spec[key]
        if not (_is_int(value) if want is int else isinstance(value, want)):
            raise IllegalAction(f"{kind}: {key} is {want.__name__}, got {type(value).__name__}", RULE_FIELDS)
        out[key] = value
    for key in REQUIRED.get(kind, ()):
        if key not in out:
            raise IllegalAction(f"{kind}: missing field {key!r}", RULE_FIELDS)
    if kind == "act":
        if out["kind"] not in ACT_KINDS:
            raise IllegalAction(f"act: kind {out['kind'][:20]!r} is not one of {', '.join(ACT_KINDS)}", RULE_FIELDS)
        if ("amount" in out) != (out["kind"] == "open"):
            raise IllegalAction("act: an open carries its amount in jbits (1, 2, 4, 8), no other act does", RULE_FIELDS)
    if kind == "draw":
        d = out["discard"]
        if len(d) > HAND_SIZE or not all(isinstance(c, str) for c in d):
            raise IllegalAction("draw: discard is a list of at most five cards", RULE_FIELDS)
        try:
            out["discard"] = [card_str(parse_card(c)) for c in d]
        except InputError as exc:
            raise IllegalAction(f"draw: {exc}", RULE_CARD) from None
    if "seat" in out and not 0 <= out["seat"] < N_SEATS:
        raise IllegalAction(f"seat {out['seat']}: seats are 0 to {N_SEATS - 1}", RULE_SEAT)
    return out


@dataclass(frozen=True)
class _Deals(DeckSource):
    """The table's deck source: hands dealt from the seed and salt the room puts in ``queue``."""

    queue: list[tuple[str, bytes, bytes]] = field(default_factory=list)

    def deck(self, hand: int, scripted: Sequence[int] | None = None) -> CommittedDeck:
        if scripted is not None or not self.queue:
            raise ReplayError(f"hand {hand}: the room deals from a recorded seed and salt only")
        source, seed, salt = self.queue.pop(0)
        deck = tuple(shuffle(seed, DECK_CARDS))
        return CommittedDeck(deck, salt, deck_commitment(deck, salt), source, seed)


def _move_cmd(m: Move) -> dict[str, Any]:
    """The ``act`` command that plays the legal move ``m``."""
    if m.kind == "open" and not (m.all_in and m.amount not in OPEN_SIZES):
        return {"type": "act", "kind": "open", "amount": m.amount // JBIT}
    if m.incomplete or (m.kind == "open" and m.all_in):
        return {"type": "act", "kind": "allin"}
    return {"type": "act", "kind": m.kind}


def _str_keys(d: dict[Any, Any]) -> dict[str, Any]:
    return {str(k): v for k, v in sorted(d.items())}


class FiveSeatRoom:
    """One five-seat table (module docstring).  ``riemann`` plays Riemann's seats (built with
    :func:`default_riemann` the first time a Riemann acts, when not given)."""

    kind: ClassVar[str] = KIND
    #: commands the host does not check against ``turn``: taking or leaving a seat, I'm back and
    #: Riemann's seats answer no game state (a bet or a draw does)
    turnless: ClassVar[frozenset[str]] = frozenset({"sit", "leave", "back", "add_riemann", "remove_riemann"})

    def __init__(
        self,
        room_id: str,
        params: dict[str, Any] | None,
        now: float,
        riemann: RiemannLike | None = None,
        context: Any = None,
    ):
        self.id = str(room_id)
        self.params = check_params(params)
        self._policy = riemann
        self._context = context
        self.table = Table(self.id, _Deals(), button=self.params["button"])
        self.table.log.clear()
        self.created = self.now = float(now)
        self.turn = 0  # game steps so far: deals, bets, draws, fold-outs (what an action answers)
        self.turn_since = self.now  # when the player on turn got the decision
        self._clock_key: tuple[int, int] = (0, 0)
        self.last_end: float | None = None  # when the last hand ended
        self.last_active = self.now  # the last command or hand end (the idle clock)
        self.closed_at: float | None = None
        self.purged = False
        self.riemanns_added = 0
        self.receipts: dict[str, list[dict[str, Any]]] = {}  # account -> its receipts at this table
        self.last: dict[str, Any] | None = None  # the last finished hand: result and reveal records
        self._people_in: dict[int, str] = {}  # the people dealt in the current hand, by seat
        self._names: dict[str, str] = {}  # every seat dealt in the current hand: its name at the deal
        self.entries = 0
        # per step (not state)
        self._entry: dict[str, Any] = {}
        self._live = True
        self._events: list[Event] = []
        self._moves: list[Movement] = []
        self._deal_i = self._move_i = 0

    # ------------------------------------------------------------------ the Room protocol
    def apply(self, account: str, bank: int, cmd: dict[str, Any], now: float) -> Outcome:
        """Apply one command of ``account`` (``bank``: the cents the host lets the room draw on)."""
        account = _account(account)
        c = check_command(cmd)
        if not _is_int(bank) or bank < 0:
            raise IllegalAction(f"bank {bank!r}: whole cents, not negative", RULE_FIELDS)
        entry = {"op": "cmd", "account": account, "bank": bank, "cmd": c, "now": self._time(now), "deals": [],
                 "riemann": []}  # fmt: skip
        return self._run(entry, live=True, keep_empty=True)

    def tick(self, now: float) -> Outcome:
        """Run the clocks to ``now``: time-outs, the next deal, the idle close, the purge."""
        entry = {"op": "tick", "now": self._time(now), "deals": [], "riemann": []}
        return self._run(entry, live=True, keep_empty=False)

    def replay(self, entry: dict[str, Any]) -> None:
        """Re-apply one journal entry (restore): its recorded deals and Riemann's recorded moves."""
        if not isinstance(entry, dict) or entry.get("op") not in ("cmd", "tick"):
            raise ReplayError(f"room {self.id}: entry {self.entries + 1} is not a five-seat journal entry")
        try:
            self._run(entry, live=False, keep_empty=True)
        except InputError as exc:
            raise ReplayError(f"room {self.id}: entry {self.entries + 1} does not replay: {exc}") from None
        if self._deal_i != len(entry["deals"]) or self._move_i != len(entry["riemann"]):
            raise ReplayError(f"room {self.id}: entry {self.entries} left recorded deals or moves unused")

    def next_deadline(self) -> float | None:
        """When :meth:`tick` next has something to do (None: never, the table is gone)."""
        t = self.table
        if self.purged:
            return None
        if self.closed_at is not None:
            return self.closed_at + self.params["keep_cashouts_s"]
        if t.in_hand:
            return self.turn_since + self.params["clock_s"]
        times = [self.last_active + self.params["idle_close_s"]]
        if len(t.can_start()) >= 2 and self.last_end is not None:
            times.append(self.last_end + self.params["pause_s"])
        return min(times)

    @classmethod
    def check_params(cls, params: Any) -> dict[str, Any]:
        """The host's check of ``POST /api/rooms``'s params (``owner`` is the creating account):
        a bad one is a ``bad_frame`` :class:`FrameError` naming it."""
        if isinstance(params, dict):
            params = {k: v for k, v in params.items() if k != "kind"}
        try:
            return check_params(params)
        except IllegalAction as exc:
            raise FrameError("bad_frame", exc.detail) from None

    def seated(self, account: str | None) -> bool:
        """Whether ``account`` holds a seat (not a watcher)."""
        p = self.table.ledger.people.get(account) if account is not None else None
        return p is not None and p.seat is not None

    def display_name(self, account: str) -> str:
        """The name the table shows for ``account`` (the host's, through its context)."""
        f = getattr(self._context, "display_name", None)
        return str(f(account)) if f is not None else f"Player {account[1:5]}"

    def chips(self) -> dict[str, int]:
        """Per account (every person the table has seen): its stack, its chips in the pot and the
        jbits Riemann holds for it, in cents.  ``bank + chips`` moves only by the net against people."""
        t = self.table
        in_pot = t.hand.committed if t.in_hand and t.hand is not None else {}
        led = t.ledger
        return {n: led.person_total(p, in_pot) - p.bank for n, p in sorted(led.people.items())}

    def net(self) -> dict[str, int]:
        """Per account: its net result against the other people at this table (cents)."""
        return {n: p.net_people for n, p in sorted(self.table.ledger.people.items())}

    @property
    def audit_failures(self) -> list[str]:
        """The ledger's conservation audit failures (empty unless the engine is wrong)."""
        return list(self.table.audit_failures)

    # ------------------------------------------------------------------ one step
    def _time(self, now: Any) -> float:
        if not (_is_int(now) or isinstance(now, float)) or not math.isfinite(now):
            raise IllegalAction(f"now {now!r}: seconds", RULE_FIELDS)
        return float(now)

    def _state(self) -> bytes:
        """The room's state (not its policy, not the step's scratch), as a restorable copy."""
        return pickle.dumps({k: v for k, v in self.__dict__.items() if k not in _SCRATCH}, pickle.HIGHEST_PROTOCOL)

    def _restore(self, saved: bytes) -> None:
        self.__dict__.update(pickle.loads(saved))

    def _run(self, entry: dict[str, Any], live: bool, keep_empty: bool) -> Outcome:
        saved = self._state()
        self._entry, self._live = entry, live
        self._events, self._moves = [], []
        self._deal_i = self._move_i = 0
        banks = {n: p.bank for n, p in self.table.ledger.people.items()}
        try:
            # time never runs back: a step at an earlier time is taken at the last one's
            self.now = now = max(float(entry["now"]), self.now)
            self._settle(now)
            if entry["op"] == "cmd":
                banks[entry["account"]] = self._command(entry["account"], entry["bank"], entry["cmd"], now)
                self.last_active = now
                self._settle(now)
            self._check_banks(banks)
        except InputError as exc:
            self._restore(saved)
            raise exc if isinstance(exc, IllegalAction) else IllegalAction(str(exc)) from None
        except BaseException:
            self._restore(saved)
            raise
        if not self._events and not keep_empty:
            self._restore(saved)
            return Outcome()
        self.entries += 1
        self._events.append(Event("all", {**self.view(None), "type": "state"}))
        return Outcome([entry], self._moves, self._events)

    def _check_banks(self, before: dict[str, int]) -> None:
        """Every change of a person's bank inside the table is a movement; a change no receipt
        explains (none is known) is paid as a ``return`` with its own receipt, never lost."""
        moved: dict[str, int] = {}
        for m in self._moves:
            moved[m.account] = moved.get(m.account, 0) + m.delta
        for name, p in sorted(self.table.ledger.people.items()):
            rest = p.bank - before.get(name, p.bank) - moved.get(name, 0)
            if rest:
                rec = receipt("return", name, rest, self.id, self.table.hands_started, -1)
                self._moves.append(Movement(name, rest, "return", rec))

    def _settle(self, now: float) -> None:
        """Play what needs no one's decision: Riemann's turns, due time-outs, the due deal, the
        idle close, the purge."""
        t = self.table
        p = self.params
        for _ in range(10_000):
            self._sync(now)
            if self.closed_at is not None:
                if not self.purged and now >= self.closed_at + p["keep_cashouts_s"]:
                    self._purge()
                return
            if t.in_hand and t.hand is not None:
                actor = t.hand.actor
                assert actor is not None
                if t.is_riemann(actor):
                    self._riemann_move(actor)
                elif now >= self.turn_since + p["clock_s"]:
                    t.timeout(actor)
                    self._flush()
                else:
                    return
                continue
            if len(t.can_start()) >= 2 and (self.last_end is None or now >= self.last_end + p["pause_s"]):
                self._deal()
                continue
            if now >= self.last_active + p["idle_close_s"]:
                t.close()
                self.closed_at = now
                self._flush()
                continue
            return
        raise RuntimeError(f"room {self.id}: the table does not settle")  # pragma: no cover

    def _sync(self, now: float) -> None:
        key = (self.table.hands_started, self.turn)
        if key != self._clock_key:
            self._clock_key, self.turn_since = key, now

    def _deal(self) -> None:
        t = self.table
        number = t.hands_started + 1
        if self._live:
            mode, ent = self.params["deck"], self.params["entropy"]
            if mode == "secrets":
                seed, salt = secrets.token_bytes(32), secrets.token_bytes(32)
            else:
                seed, salt = new_seed(mode, ent, key=(number, 0)), new_seed(mode, ent, key=(number, 1))
            self._entry["deals"].append({"hand": number, "source": mode, "seed": seed.hex(), "salt": salt.hex()})
        else:
            deals = self._entry["deals"]
            if self._deal_i >= len(deals) or deals[self._deal_i].get("hand") != number:
                raise ReplayError(f"hand {number}: no recorded deal")
        d = self._entry["deals"][self._deal_i]
        self._deal_i += 1
        assert isinstance(t.source, _Deals)
        t.source.queue.append((d["source"], bytes.fromhex(d["seed"]), bytes.fromhex(d["salt"])))
        t.start_hand()
        self._flush()

    def _riemann_move(self, seat: int) -> None:
        t = self.table
        hand = t.hand
        assert hand is not None
        if self._live:
            if self._policy is None:
                made = getattr(self._context, "table_riemann", None)
                self._policy = (made() if made is not None else None) or default_riemann()
            rec: dict[str, Any] = {"seat": seat}
            if hand.phase == DRAW:
                rec["draw"] = [card_str(c) for c in self._policy.keep(hand.cards[seat])]
            else:
                m = self._policy.decide(t.spot(seat))
                rec.update(kind=m.kind, amount_cents=m.amount, incomplete=m.incomplete)
            self._entry["riemann"].append(rec)
        else:
            moves = self._entry["riemann"]
            if self._move_i >= len(moves) or moves[self._move_i].get("seat") != seat:
                raise ReplayError(f"hand {hand.number}: no recorded move of Riemann at seat {seat}")
        rec = self._entry["riemann"][self._move_i]
        self._move_i += 1
        if "draw" in rec:
            t.draw(seat, [parse_card(c) for c in rec["draw"]])
        else:
            t.act(seat, rec["kind"], rec["amount_cents"], all_in=rec["incomplete"])
        self._flush()

    def _purge(self) -> None:
        gone = sorted(r["sha256"] for rs in self.receipts.values() for r in rs)
        self.receipts = {}
        self.purged = True
        self._events.append(Event("all", {"type": "purge", "table": self.id, "receipts": gone}))

    # ------------------------------------------------------------------ commands
    def _command(self, account: str, bank: int, c: dict[str, Any], now: float) -> int:
        """Play one checked command; returns the account's table-side bank before it (for the
        movement check)."""
        t = self.table
        led = t.ledger
        kind = c["type"]
        if self.closed_at is not None:
            raise IllegalAction(f"table {self.id} is closed", RULE_CLOSED)
        person = led.people.get(account)
        bank_before = person.bank if person is not None else bank
        seat = person.seat if person is not None else None
        if kind == "sit":
            self._sit(account, bank, c["seat"], c["buyin"])
            return bank
        if seat is None:
            raise IllegalAction(f"{kind}: {account} is not seated at table {self.id}", RULE_SEATED)
        leaving = account in t.pending_leave
        if kind == "leave":
            if leaving:
                raise IllegalAction(f"{account} is leaving already", RULE_LEAVING)
            t.leave(account)
        elif kind == "back":
            if seat not in t.away:
                raise IllegalAction(f"{account} is not marked away", RULE_BACK)
            t.back(seat)
        elif kind in ("act", "draw"):
            self._play(account, seat, c, leaving)
        elif kind == "add_riemann":
            if leaving:
                raise IllegalAction(f"{account} is leaving", RULE_RIEMANN)
            if c["seat"] in led.owner:
                raise IllegalAction(f"seat {c['seat']} is taken by {led.name(c['seat'])}", RULE_SEAT)
            if t.stack[seat] < ANTE:
                raise IllegalAction(f"{account} holds {t.stack[seat]} cents, less than one ante", RULE_RIEMANN)
            self.riemanns_added += 1
            t.add_riemann(account, c["seat"], RIEMANN_NAME.format(self.riemanns_added))
        else:  # remove_riemann
            s = c["seat"]
            if s not in led.owner or led.kind(s) == PERSON:
                raise IllegalAction(f"seat {s} holds no Riemann", RULE_REMOVE)
            if led.name(s) in t.pending_remove:
                raise IllegalAction(f"{led.name(s)} is leaving already", RULE_REMOVE)
            t.remove_riemann(led.name(s), account)
        self._flush()
        return bank_before

    def _sit(self, account: str, bank: int, seat: int, buyin: int) -> None:
        t = self.table
        led = t.ledger
        if buyin not in BUYINS:
            raise IllegalAction(f"buy-in {buyin} jbits", RULE_BUYIN)
        if seat in led.owner:
            raise IllegalAction(f"seat {seat} is taken by {led.name(seat)}", RULE_SEAT)
        p = led.people.get(account)
        if p is not None and p.seat is not None:
            raise IllegalAction(f"{account} sits at seat {p.seat} already", RULE_ONE_SEAT)
        if buyin * JBIT > bank:
            raise IllegalAction(f"buy-in {buyin} jbits is above the bank of {bank} cents", RULE_BANK)
        if p is None:
            t.sit(account, seat, buyin, bank)
        else:  # the bank moved outside this table since: the ledger follows it (its audit too)
            d = bank - p.bank
            p.bank += d
            p.initial += d
            t.sit(account, seat, buyin, None)
        self._flush()

    def _play(self, account: str, seat: int, c: dict[str, Any], leaving: bool) -> None:
        t = self.table
        what = c.get("kind", "draw")
        if leaving:
            raise IllegalAction(f"{what}: {account} left this hand", RULE_LEAVING)
        if seat in t.away:
            raise IllegalAction(f"{what}: {account} is away", RULE_AWAY)
        if not t.in_hand:
            raise IllegalAction(f"{what}: no hand in progress", RULE_HAND)
        if c["type"] == "draw":
            hand = t.hand_for(seat, "draw")
            t.draw(seat, hand.check_draw(seat, [parse_card(x) for x in c["discard"]]))
        elif c["kind"] == "allin":
            t.act(seat, "allin", None, all_in=True)
        elif c["kind"] == "open":
            t.act(seat, "open", c["amount"] * JBIT)
        else:
            t.act(seat, c["kind"])

    # ------------------------------------------------------------------ events
    def _flush(self) -> None:
        """The table's new log records as frames and movements (module docstring)."""
        t = self.table
        recs, t.log[:] = list(t.log), []
        pub = self._events
        for rec in recs:
            ev = rec["event"]
            body = {k: v for k, v in rec.items() if k != "event"}
            if ev == "sit":
                r = rec["receipt"]
                self._receipt(r)
                self._moves.append(Movement(r["player"], -r["amount_cents"], "buyin", r))
                pub.append(Event("all", {"type": "sit", "seat": r["seat"], "account": r["player"],
                                         "stack_cents": r["amount_cents"]}))  # fmt: skip
            elif ev == "leave" and "receipt" in rec:
                r = rec["receipt"]
                self._receipt(r)
                self._moves.append(Movement(r["player"], r["amount_cents"], "cashout", r))
                pub.append(Event("all", {"type": "cashout", "seat": r["seat"], "account": r["player"],
                                         "amount_cents": r["amount_cents"],
                                         "held_returned_cents": r["held_returned_cents"]}))  # fmt: skip
            elif ev == "leave":
                pub.append(Event("all", {"type": "leave", "seat": rec["seat"], "account": rec["name"],
                                         "hand": rec["during_hand"]}))  # fmt: skip
            elif ev == "hand":
                self.turn += 1
                pub.append(Event("all", {"type": "hand", **body}))
                hand = t.hand
                assert hand is not None
                # who holds each hand's cards, fixed at the deal (a seat may empty before a flush)
                self._names = dict(rec["names"])
                self._people_in = {s: t.name_of(s) for s in hand.order if not t.is_riemann(s)}
                for s, owner in self._people_in.items():
                    pub.append(self._cards(owner, s, hand.number, hand.dealt[s]))
            elif ev in ("action", "draw", "fold_out"):
                self.turn += 1
                pub.append(Event("all", {"type": ev, **body}))
                drawer = self._people_in.get(rec["seat"])
                if ev == "draw" and drawer is not None and t.hand is not None:
                    pub.append(self._cards(drawer, rec["seat"], rec["hand"], t.hand.cards[rec["seat"]]))
            elif ev == "result":
                self.last = {"result": body}
                self.last_end = self.last_active = self.now
                pub.append(Event("all", {"type": "result", **body}))
            elif ev == "reveal":
                assert self.last is not None
                self.last["reveal"] = body
                pub.append(Event("all", {"type": "reveal", **body}))
            elif ev in ("away", "back", "riemann_add", "riemann_leave", "close"):
                pub.append(Event("all", {"type": ev, **body}))
            else:  # pragma: no cover - a record this room does not know is a bug, never silent
                raise RuntimeError(f"room {self.id}: unknown table record {ev!r}")

    def _cards(self, owner: str, seat: int, hand: int, cards: Sequence[int]) -> Event:
        return Event(f"account:{owner}", {"type": "cards", "hand": hand, "seat": seat,
                                          "cards": [card_str(c) for c in cards]})  # fmt: skip

    def _receipt(self, r: dict[str, Any]) -> None:
        self.receipts.setdefault(r["player"], []).append(r)
        self._events.append(Event(f"account:{r['player']}", {"type": "receipt", "receipt": r}))

    # ------------------------------------------------------------------ views
    def legal(self) -> list[dict[str, Any]]:
        """The legal moves of the person on turn (public: they follow from stacks and bets), each
        with the command that plays it."""
        t = self.table
        if not t.in_hand or t.hand is None or t.hand.actor is None or t.is_riemann(t.hand.actor):
            return []
        hand, seat = t.hand, t.hand.actor
        if hand.phase == DRAW:
            return [{"kind": "draw", "cmd": {"type": "draw", "discard": []}}]
        return [{"kind": m.kind, "amount_cents": m.amount, "all_in": m.all_in, "cmd": _move_cmd(m)}
                for m in hand.legal(seat)]  # fmt: skip

    def view(self, account: str | None) -> dict[str, Any]:
        """The whole frame for ``account`` (None: a watcher): the public table, and the viewer's
        own cards, receipts and results."""
        t = self.table
        led = t.ledger
        hand = t.hand if t.in_hand else None
        in_pot = hand.committed if hand is not None else {}
        seats: dict[str, Any] = {}
        for s, (k, n) in sorted(led.owner.items()):
            if k == PERSON:
                p = led.people[n]
                seats[str(s)] = {"kind": k, "account": n, "stack_cents": t.stack[s], "in_pot_cents": in_pot.get(s, 0),
                                 "away": s in t.away, "timeouts": t.timeouts.get(s, 0),
                                 "leaving": n in t.pending_leave, "held_cents": led.held_for(n),
                                 "abit_score_cents": p.abit_score, "net_cents": p.net_people}  # fmt: skip
            else:
                r = led.riemanns[n]
                seats[str(s)] = {"kind": k, "name": n, "added_by": r.adder, "abits_cents": t.stack[s],
                                 "in_pot_cents": in_pot.get(s, 0), "held_cents": _str_keys(r.held),
                                 "leaving": n in t.pending_remove}  # fmt: skip
        out: dict[str, Any] = {
            "type": "view", "kind": KIND, "table": self.id, "rules": RULES_ID, "turn": self.turn,
            "now": self.now, "params": {k: self.params[k] for k in PARAMS}, "button": t.button,
            "hands": t.hands_started, "seats": seats, "hand": None, "legal": self.legal(), "last": self.last,
            "closed": self.closed_at is not None, "purged": self.purged, "next_deadline": self.next_deadline(),
            "people": {n: self.display_name(n) for n in sorted(led.people)}, "you": None,
        }  # fmt: skip
        if hand is not None:
            pub = hand.public()
            assert t.deck is not None
            pub.update(round_cents=_str_keys(pub["round_cents"]), draws=_str_keys(pub["draws"]),
                       commitment=t.deck.commitment, deadline=self.turn_since + self.params["clock_s"],
                       names=dict(self._names))  # fmt: skip
            out["hand"] = pub
        me = led.people.get(account) if account is not None else None
        if me is not None and account is not None:
            seat = me.seat
            cards = hand.cards.get(seat, []) if hand is not None and seat is not None else []
            out["you"] = {
                "account": account, "seat": seat, "away": seat is not None and seat in t.away,
                "cards": [card_str(c) for c in cards],
                "net_cents": me.net_people, "abit_score_cents": me.abit_score, "held_cents": led.held_for(account),
                "receipts": list(self.receipts.get(account, [])),
            }  # fmt: skip
        return out


ROOM = FiveSeatRoom

__all__ = [
    "AWAY_AFTER", "CLOCK_S", "COMMANDS", "IDLE_CLOSE_S", "KEEP_CASHOUTS_S", "KIND", "PAUSE_S", "FiveSeatRoom",
    "RiemannLike", "check_command", "check_params", "default_riemann",
]  # fmt: skip
