"""A table of the rule book: seats, the button, sit-outs, chips, timeouts, choices made in
advance, committed deals and the Random rotation (Articles I, II, VII, VIII, IX).

``Table(game, big_blind, seats, button)`` holds players by seat (0 .. seats - 1).  Each hand:

* chips added since the last deal arrive (1.9); players sitting out (1.7), or with no chips,
  are dealt out; the button is where it was left (the first hand: ``button``) and moves one
  occupied seat clockwise ("to the left") after every hand (1.2);
* Random (7.7): before hands 1, 4, 7, ... the game is drawn from the Omahas and 3 Sets,
  never the one just played, from a committed seed (:func:`draw_game`);
* the deck is :func:`poker51.table.deal.shuffle` of the 52 cards by the hand's seed, whose
  SHA-256 is logged before any card (Article IX), or a scripted deck;
* every action goes through :meth:`Table.act`: betting actions to the hand
  (:class:`~poker51.rulebook.hand.Hand`), ``show``/``muck`` to the showdown
  (:class:`~poker51.rulebook.showdown.Showdown`), ``lay`` in 3 Sets, and ``timeout``
  (8.2: check if free, else fold, never call; at the laying, the default laying; at the
  showdown, show).  Three timeouts in a row sit the player out from the next deal (8.3).
  A choice made in advance (``fold``, ``check_fold``, ``check``, ``call``) is played when the
  action reaches the player, only if legal then, otherwise discarded (8.5);
* a player who leaves (1.8) folds at once if in the hand and takes their chips to their
  balance when the hand ends.

:meth:`Table.finish` settles the hand and returns its record (the hand's log, 9.5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from poker51.cards import cards_str
from poker51.errors import InputError
from poker51.rulebook.games import (
    ADVANCE_CHOICES,
    GAMES,
    RAKE_CAP_BIG_BLINDS,
    RAKE_PERCENT,
    RANDOM,
    RANDOM_BLOCK,
    RANDOM_GAMES,
    RANDOM_SEATS,
    TIMEOUTS_TO_SIT_OUT,
)
from poker51.rulebook.hand import Hand, RuleError
from poker51.rulebook.showdown import Showdown
from poker51.table.deal import seed_commitment, shuffle

__all__ = ["Seat", "Table", "draw_game"]


def draw_game(seed: bytes, previous: str | None) -> tuple[str, list[str]]:
    """7.7: the next game of a Random table and the candidates it was drawn from.

    The candidates are :data:`~poker51.rulebook.games.RANDOM_GAMES` without ``previous``;
    the game is the first of them after :func:`poker51.table.deal.shuffle` by ``seed`` (uniform,
    like the deck).

    >>> draw_game(bytes(32), None)[0] in RANDOM_GAMES, draw_game(bytes(32), "omaha")[1][0]
    (True, 'omaha5')
    """
    candidates = [g for g in RANDOM_GAMES if g != previous]
    return candidates[shuffle(seed, range(len(candidates)))[0]], candidates


@dataclass
class Seat:
    """A seated player: chips at the table, chips added but not yet arrived, sit-out and timeouts."""

    name: str
    stack: int
    pending: int = 0
    sitting_out: bool = False
    timeouts: int = 0


class Table:
    """A table of one game (or ``"random"``); see the module docstring."""

    def __init__(
        self,
        game: str,
        big_blind: int,
        seats: list[tuple[int, str, int]],
        button: int | None = None,
        n_seats: int | None = None,
        rake: bool = True,
    ) -> None:
        if game != RANDOM and game not in GAMES:
            raise InputError(f"unknown game {game!r} (choose from {', '.join([*GAMES, RANDOM])})")
        if not isinstance(big_blind, int) or isinstance(big_blind, bool) or big_blind < 2 or big_blind % 2:
            raise InputError(f"big blind {big_blind!r}: an even number of chips of at least 2 (1.4: the small is half)")
        self.game_name = game
        self.n_seats = n_seats or (RANDOM_SEATS if game == RANDOM else GAMES[game].seats)
        self.bb = big_blind
        self.rake = rake
        self.seats: dict[int, Seat] = {}
        for seat, name, stack in seats:
            self.sit(seat, name, stack)
        if len(self.seats) < 2:
            raise InputError("a table needs at least two players")
        self.button = min(self.seats) if button is None else button
        if self.button not in self.seats:
            raise InputError(f"the button must be at an occupied seat, not seat {self.button}")
        self.balances: dict[str, int] = {}
        self.advance: dict[str, str] = {}
        self.hand_number = 0
        self.current: str | None = None if game == RANDOM else game
        self.previous: str | None = None
        self.rake_total = 0
        self.hand: Hand | None = None
        self.showdown: Showdown | None = None
        self.record: dict[str, Any] | None = None
        self.leaving: set[str] = set()
        self.record_open: dict[str, Any] = {}
        self._seed: bytes | None = None

    # ------------------------------------------------------------------ seats
    def sit(self, seat: int, name: str, stack: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.n_seats:
            raise InputError(f"seat {seat!r}: this table has seats 0..{self.n_seats - 1} (1.1)")
        if seat in self.seats:
            raise InputError(f"seat {seat} is taken by {self.seats[seat].name}")
        if not name or any(s.name == name for s in self.seats.values()):
            raise InputError(f"player name {name!r} is empty or taken")
        if not isinstance(stack, int) or isinstance(stack, bool) or stack < 0:
            raise InputError(f"{name}: a stack is a whole number of chips, got {stack!r}")
        self.seats[seat] = Seat(name, stack)

    def seat_of(self, name: str) -> int:
        for s, st in self.seats.items():
            if st.name == name:
                return s
        raise InputError(f"no player {name!r} at the table")

    def total_chips(self) -> int:
        """Chips at the table, chips added and not yet arrived, balances of players who left, and the rake."""
        in_hand = 0
        if self.hand is not None and self.record is None:
            in_hand = sum(p.stack + p.contrib for p in self.hand.players)
            dealt = {p.seat for p in self.hand.players}
        else:
            dealt = set()
        seated = sum(st.stack for s, st in self.seats.items() if s not in dealt)
        pending = sum(st.pending for st in self.seats.values())
        return in_hand + seated + pending + sum(self.balances.values()) + self.rake_total

    # ------------------------------------------------------------------ table actions
    def table_action(self, name: str, kind: str, arg: Any = None) -> None:
        """``sit_out``, ``sit_in``, ``add N`` (1.9), ``leave`` (1.8), ``advance CHOICE`` (8.5)."""
        seat = self.seat_of(name)
        st = self.seats[seat]
        if kind == "sit_out":
            st.sitting_out = True
        elif kind == "sit_in":
            st.sitting_out = False
            st.timeouts = 0
        elif kind == "add":
            if not isinstance(arg, int) or isinstance(arg, bool) or arg <= 0:
                raise InputError(f"{name} add {arg!r}: chips added are a positive whole number")
            st.pending += arg
        elif kind == "leave":
            self.leaving.add(name)
            if self.hand is not None and self.record is None and seat in self.hand.by_seat:
                self.hand.fold_out(seat)
                if self.showdown is not None:  # the pots are judged again without the leaver
                    old = self.showdown
                    self.showdown = Showdown(self.hand, rake=self.rake)
                    live = {p.seat for p in self.hand.live()}
                    self.showdown.decided = {s: v for s, v in old.decided.items() if s in live}
                    self.showdown.shows = old.shows
                self._auto()
            else:
                self._remove(name)
        elif kind == "advance":
            if arg not in ADVANCE_CHOICES:
                raise InputError(f"{name} advance {arg!r}: choose from {', '.join(ADVANCE_CHOICES)} (8.5)")
            self.advance[name] = arg
            self._auto()
        else:
            raise InputError(f"unknown table action {kind!r}")

    def _remove(self, name: str) -> None:
        seat = self.seat_of(name)
        st = self.seats.pop(seat)
        self.balances[name] = self.balances.get(name, 0) + st.stack + st.pending
        self.leaving.discard(name)
        self.advance.pop(name, None)

    def _next_occupied(self, seat: int, skip: set[str] | frozenset[str] = frozenset()) -> int:
        """The next occupied seat clockwise after ``seat`` (players in ``skip`` do not count)."""
        for k in range(1, self.n_seats + 1):
            s = (seat + k) % self.n_seats
            if s in self.seats and self.seats[s].name not in skip:
                return s
        return seat

    # ------------------------------------------------------------------ hands
    def dealt_in(self) -> list[int]:
        """Seats dealt into the next hand, clockwise from the seat left of the button."""
        order = [(self.button + k) % self.n_seats for k in range(1, self.n_seats + 1)]
        return [s for s in order if s in self.seats and not self.seats[s].sitting_out and self.seats[s].stack > 0]

    def start_hand(
        self, deck: list[int] | None = None, seed: bytes | None = None, rotation_seed: bytes | None = None
    ) -> Hand:
        """Deal a new hand from ``seed`` (committed) or a scripted ``deck``; returns the hand."""
        if self.hand is not None and self.record is None:
            raise InputError(f"hand {self.hand_number} is not over")
        for st in self.seats.values():  # 1.9: chips added arrive at the next deal
            st.stack += st.pending
            st.pending = 0
        seats = self.dealt_in()
        if len(seats) < 2:
            raise InputError(f"hand {self.hand_number + 1}: fewer than two players can be dealt in")
        self.hand_number += 1
        record: dict[str, Any] = {"hand": self.hand_number}
        if self.game_name == RANDOM:
            if len(self.seats) > RANDOM_SEATS:
                raise InputError(f"a Random table seats {RANDOM_SEATS}")
            block, pos = divmod(self.hand_number - 1, RANDOM_BLOCK)
            if pos == 0:
                if rotation_seed is None:
                    raise InputError(f"hand {self.hand_number}: a Random block needs its committed seed")
                self.previous = self.current
                self.current, candidates = draw_game(rotation_seed, self.previous)
                record["rotation"] = {
                    "block": block + 1,
                    "commitment": seed_commitment(rotation_seed),
                    "seed": rotation_seed.hex(),
                    "candidates": candidates,
                    "game": self.current,
                }
            record["block_hand"] = pos + 1
        assert self.current is not None
        game = GAMES[self.current]
        if len(seats) > game.seats:
            raise InputError(f"{game.title} seats {game.seats} players (1.1), {len(seats)} are dealt in")
        if (deck is None) == (seed is None):
            raise InputError(f"hand {self.hand_number}: give either a deck or a seed")
        if seed is not None:
            record["commitment"] = seed_commitment(seed)  # 9.2: published before any card
            deck = shuffle(seed, range(52))
            record["deck_source"] = "seed"
        else:
            record["deck_source"] = "scripted"
        assert deck is not None
        record.update(
            game=game.name,
            button=self.seats[self.button].name if self.button in self.seats else None,
            big_blind=self.bb,
            seats=[{"seat": s, "name": self.seats[s].name, "stack": self.seats[s].stack} for s in seats],
        )
        self.record_open = record
        self._seed = seed
        self.hand = Hand(
            game,
            [(s, self.seats[s].name, self.seats[s].stack) for s in seats],
            self.bb,
            deck,
            self.button,
            self.n_seats,
        )
        self.record = None
        self.showdown = None
        self._auto()
        return self.hand

    # ------------------------------------------------------------------ in-hand actions
    def _player_turn(self) -> str | None:
        h = self.hand
        if h is None or self.record is not None:
            return None
        if h.phase == "bet" and h.to_act is not None:
            return h.by_seat[h.to_act].name
        return None

    def _auto(self) -> None:
        """Open the showdown when it comes; play or discard choices made in advance (8.5)."""
        h = self.hand
        if h is None or self.record is not None:
            return
        while True:
            if h.phase in ("showdown", "over") and self.showdown is None:
                self.showdown = Showdown(h, rake=self.rake)
            name = self._player_turn()
            if name is None or name not in self.advance:
                return
            choice = self.advance.pop(name)
            legal = h.legal()
            kind = {"fold": "fold", "check_fold": "check" if "check" in legal else "fold"}.get(choice, choice)
            if kind not in legal:
                h.events.append({"event": "advance_discarded", "player": name, "choice": choice})
                return
            first = len(h.events)
            h.act(h.to_act, kind)  # type: ignore[arg-type]
            h.events[first]["advance"] = choice
            self.seats[self.seat_of(name)].timeouts = 0

    def verify_act(self, name: str, kind: str, arg: Any = None) -> None:
        """None if :meth:`act` would accept the action now, else :class:`RuleError` naming the
        article; the table is not changed."""
        h = self.hand
        if h is None or self.record is not None:
            raise RuleError(f"{name} {kind}", "2.5", "no hand is in play")
        seat = self.seat_of(name)
        if kind == "timeout":
            if self.showdown is not None and h.phase == "showdown":
                self.showdown.verify_decide(seat, True)
            else:
                h.verify_timeout(seat)
        elif kind in ("show", "muck"):
            if self.showdown is None or h.phase != "showdown":
                raise RuleError(f"{name} {kind}", "5.1", "there is no showdown now")
            self.showdown.verify_decide(seat, kind == "show")
        elif kind == "lay":
            h.verify_lay(seat, arg)
        else:
            h.verify(seat, kind, arg)

    def act(self, name: str, kind: str, arg: Any = None) -> None:
        """A scripted or live action of ``name`` in the current hand."""
        h = self.hand
        if h is None or self.record is not None:
            raise RuleError(f"{name} {kind}", "2.5", "no hand is in play")
        seat = self.seat_of(name)
        st = self.seats[seat]
        if kind == "timeout":
            if self.showdown is not None and h.phase == "showdown":
                self.showdown.decide(seat, True, timeout=True)
            else:
                h.timeout(seat)
            st.timeouts += 1
            if st.timeouts >= TIMEOUTS_TO_SIT_OUT:  # 8.3
                st.sitting_out = True
                h.events.append({"event": "sit_out", "player": name, "reason": "three timeouts"})
        elif kind in ("show", "muck"):
            if self.showdown is None or h.phase != "showdown":
                raise RuleError(f"{name} {kind}", "5.1", "there is no showdown now")
            self.showdown.decide(seat, kind == "show")
            st.timeouts = 0
        elif kind == "lay":
            h.lay(seat, arg)
            st.timeouts = 0
        else:
            h.act(seat, kind, arg)
            st.timeouts = 0
        self._auto()

    @property
    def waiting_for(self) -> str | None:
        """Who the hand waits for: ``"name"`` to act or show, ``"laying"``, or None when it can finish."""
        h = self.hand
        if h is None or self.record is not None:
            return None
        if h.phase == "bet":
            return self._player_turn()
        if h.phase == "lay":
            return "laying"
        if h.phase == "showdown" and self.showdown is not None and self.showdown.to_show is not None:
            return h.by_seat[self.showdown.to_show].name
        return None

    def finish(self) -> dict[str, Any]:
        """Settle the hand (showing every undecided hand), update the seats, move the button;
        returns the hand's record."""
        h = self.hand
        if h is None or self.record is not None:
            raise InputError("no hand to finish")
        if h.phase in ("bet", "lay"):
            raise InputError(f"hand {self.hand_number} is not over: waiting for {self.waiting_for}")
        sd = self.showdown or Showdown(h, rake=self.rake)
        while sd.to_show is not None:
            sd.decide(sd.to_show, True)
        result = sd.settle()
        start = sum(p.stack + p.contrib for p in h.players)
        for p in h.players:
            if p.seat in self.seats:
                self.seats[p.seat].stack = result.stacks[p.seat]
        self.rake_total += result.rake
        names = {p.seat: p.name for p in h.players}
        rec = dict(self.record_open)
        rec.update(
            hole={p.name: cards_str(p.hole).split() for p in h.players},
            burns=cards_str(h.burns).split(),
            boards=[cards_str(b).split() for b in h.boards],
            cards_dealt=h.dealt,
            events=h.events,
            shows=result.shows,
            pots=[
                {
                    "amount": pr.amount,
                    "eligible": [names[s] for s in pr.eligible],
                    "winners": [names[s] for s in pr.winners],
                    "rake": pr.rake,
                    "shares": {names[s]: v for s, v in pr.shares.items()},
                }
                for pr in result.pot_results
            ],
            rake=result.rake,
            rake_rule={"percent": RAKE_PERCENT, "cap": RAKE_CAP_BIG_BLINDS * self.bb, "per": "pot"}
            if self.rake
            else None,
            contributions={p.name: p.contrib for p in h.players},
            returned={names[s]: v for s, v in result.returned.items() if v},
            payouts={names[s]: v for s, v in result.won.items() if v},
            stacks={names[s]: v for s, v in result.stacks.items()},
            conserved=start == sum(result.stacks.values()) + result.rake,
        )
        if self._seed is not None:
            rec["seed"] = self._seed.hex()  # 9.3: published when the hand is over
        self.record = rec
        self.advance.clear()
        button = self._next_occupied(self.button, skip=self.leaving)  # 1.2
        for name in sorted(self.leaving):
            self._remove(name)
        self.button = button
        return rec
