"""One hand under the rule book's betting law (Articles II, III and VIII): a state machine.

A :class:`Hand` is created by :class:`poker51.rulebook.table.Table` with the players dealt in
(clockwise from the seat left of the button), the big blind and a deck (card ints in deal
order).  It posts the blinds or antes, deals, runs the betting rounds and the 3 Sets laying,
and stops at the showdown (:mod:`poker51.rulebook.showdown` settles it) or when one player
remains (2.5).

Rounds and dealing (2.3-2.6, 7.5, 7.6)
    Blind games: hole cards one at a time from the seat left of the button; a round before
    the flop (from the seat left of the big blind); burn and flop, round; burn and turn,
    round; burn and river, round (each from the first player left of the button).
    Open Flop: everyone antes the big blind; hole cards, burn and flop at once; no round
    before the flop.  3 Sets: antes; six hole cards each; flops of A, B and C (three each,
    no burns); rounds after the flop, the turn (A, B, C) and the river (A, B, C); then each
    player lays two cards on each board (:meth:`Hand.lay`); one more round.
Actions (3.1-3.9)
    On a player's turn: ``fold`` (always), ``check`` only when owing nothing, ``call`` only
    when owing something (for less puts the player all in), ``bet N`` only when nobody has
    bet this round (blinds are bets, 1.5; antes are not), at least one big blind, ``raise N``
    (raise *to* N) only when somebody has, by at least the largest full bet or raise of the
    round (never less than a big blind), ``allin``.  A bet or raise is offered only when
    another player still in could put in more than the current bet.  A player who has acted
    may raise again only after a full bet or raise by someone else: an all-in for less does
    not reopen (3.5; each all-in is judged alone).  Uncalled chips go back at the end (3.9,
    :func:`poker51.table.pots.return_uncalled`).
Timeouts and choices made in advance (VIII) are handled by the table; the hand offers
:meth:`Hand.timeout` (check if free, else fold; at the laying the default laying).

Illegal actions raise :class:`RuleError` naming the action and the article.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from poker51.cards import card_str, cards_str
from poker51.errors import InputError
from poker51.rulebook.games import ARTICLES, Game
from poker51.table.errors import IllegalAction

__all__ = ["Hand", "Player", "RuleError"]


class RuleError(IllegalAction):
    """An action the rule book does not allow: the floor's :class:`~poker51.table.errors.IllegalAction`
    whose message names the action and the article, ``"{action} breaks {article} ({title}): {detail}"``;
    ``.rule`` is ``"{article} ({title})"``, ``.action`` and ``.article`` what they say."""

    def __init__(self, action: str, article: str, detail: str) -> None:
        rule = f"{article} ({ARTICLES.get(article, 'the rule book')})"
        super().__init__(detail, rule, message=f"{action} breaks {rule}: {detail}")
        self.action, self.article = action, article


@dataclass
class Player:
    """A player dealt into the hand: chips behind (``stack``), this round's bet, the whole
    hand's contribution (antes, blinds, bets) and whether they folded."""

    seat: int
    name: str
    stack: int
    hole: list[int] = field(default_factory=list)
    bet: int = 0
    contrib: int = 0
    folded: bool = False
    acted_at: int = -1  # the round's full-raise count at this player's last action (-1: not yet)
    laid: tuple[tuple[int, int], ...] | None = None

    @property
    def all_in(self) -> bool:
        return self.stack == 0 and not self.folded

    @property
    def active(self) -> bool:
        """Still in the hand and able to act."""
        return not self.folded and self.stack > 0


class Hand:
    """The state of one hand; see the module docstring for the law it enforces."""

    def __init__(
        self,
        game: Game,
        players: list[tuple[int, str, int]],
        big_blind: int,
        deck: list[int],
        button: int,
        n_seats: int | None = None,
    ) -> None:
        if len(players) < 2:
            raise ValueError("a hand needs two players")
        self.game = game
        self.bb = int(big_blind)
        self.button = button
        self.n_seats = n_seats if n_seats is not None else max(max(s for s, _, _ in players), button) + 1
        self.players = [Player(s, n, int(c)) for s, n, c in players]  # clockwise from left of the button
        self.by_seat = {p.seat: p for p in self.players}
        self.deck = list(deck)
        self.dealt = 0
        self.burns: list[int] = []
        self.boards: list[list[int]] = [[] for _ in range(game.boards)]
        self.events: list[dict[str, Any]] = []
        self.rounds = ["flop", "turn", "river"] if game.ante else ["preflop", "flop", "turn", "river"]
        if game.boards == 3:
            self.rounds.append("final")
        self.round_index = -1
        self.phase = "deal"  # deal, bet, lay, showdown, over
        self.level = 0
        self.full_size = self.bb
        self.raises = 0
        self.aggressor: int | None = None
        self.last_round_aggressor: int | None = None
        self.pending: list[int] = []
        self.to_act: int | None = None
        self.flop_dealt = False
        self.ran_out = False  # streets were dealt after the betting ended (3.8)
        self._start()

    # ------------------------------------------------------------------ dealing
    def _card(self, what: str) -> int:
        if self.dealt >= len(self.deck):
            raise InputError(f"the deck runs out dealing {what} ({len(self.deck)} cards given)")
        c = self.deck[self.dealt]
        self.dealt += 1
        return c

    def _burn(self) -> None:
        if self.game.burns:
            self.burns.append(self._card("a burn card"))

    def _deal_street(self, name: str) -> None:
        n = 3 if name == "flop" else 1
        self._burn()
        for b in range(self.game.boards):
            cards = [self._card(f"the {name}") for _ in range(n)]
            self.boards[b].extend(cards)
            self.events.append({"event": "board", "street": name, "board": b, "cards": cards_str(cards).split()})
        if name == "flop":
            self.flop_dealt = True

    def _post(self, p: Player, amount: int, kind: str) -> None:
        x = min(amount, p.stack)
        p.stack -= x
        p.contrib += x
        if kind != "ante":
            p.bet += x
        self.events.append({"event": kind, "player": p.name, "amount": x, "all_in": p.stack == 0})

    def _start(self) -> None:
        if self.game.ante:
            for p in self.players:
                self._post(p, self.bb, "ante")  # II.6, 7.5, 7.6: every player antes the big blind
        else:
            self._post(self.players[0], self.bb // 2, "small_blind")  # 1.3, 1.4, 1.6
            self._post(self.players[1], self.bb, "big_blind")
        for _ in range(self.game.hole):
            for p in self.players:
                p.hole.append(self._card("hole cards"))
        for p in self.players:
            self.events.append({"event": "hole", "player": p.name, "cards": cards_str(p.hole).split()})
        if self.game.ante:
            self._deal_street("flop")  # the flop at once (II.6, 7.6)
        self._next_round()

    # ------------------------------------------------------------------ rounds
    def live(self) -> list[Player]:
        """Players still in the hand (not folded), clockwise from left of the button."""
        return [p for p in self.players if not p.folded]

    def _next_round(self) -> None:
        while True:
            if len(self.live()) == 1:
                self._over()
                return
            self.round_index += 1
            if self.round_index >= len(self.rounds):
                self.phase = "showdown"
                self.to_act = None
                return
            name = self.rounds[self.round_index]
            if name in ("turn", "river"):
                self._deal_street(name)
            elif name == "flop" and not self.flop_dealt:
                self._deal_street("flop")
            elif name == "final" and any(p.laid is None for p in self.live()):
                self.round_index -= 1
                self.phase = "lay"
                self.to_act = None
                return
            if self._open_round(name):
                return

    def _open_round(self, name: str) -> bool:
        """Start a betting round; False if nobody needs to act (3.7, 3.8)."""
        if name != "preflop":
            for p in self.players:
                p.bet = 0
        for p in self.players:
            p.acted_at = -1
        self.level = max(p.bet for p in self.players)
        self.full_size = self.bb
        self.raises = 0
        self.aggressor = None
        n = len(self.players)
        start = 2 % n if name == "preflop" else 0  # left of the big blind, else left of the button
        order = [self.players[(start + k) % n] for k in range(n)]
        # 3.7 at the start of a round: a player who owes nothing and whose bet nobody else could
        # answer (everyone else all in) has nothing to decide
        self.pending = [p.seat for p in order if p.active and not (self.owed(p) == 0 and not self._answerable(p))]
        if not self.pending:
            self.last_round_aggressor = None
            self.ran_out = True
            return False
        self.phase = "bet"
        self.to_act = self.pending[0]
        self.events.append({"event": "round", "round": name})
        return True

    def _next_pending(self, after: int) -> int:
        idx = {p.seat: k for k, p in enumerate(self.players)}
        n = len(self.players)
        return min(self.pending, key=lambda s: (idx[s] - idx[after] - 1) % n)

    def _advance(self, after: int) -> None:
        """Next player to act after seat ``after``, or close the round."""
        if len(self.live()) == 1:
            self._over()
            return
        if not self.pending:
            self.last_round_aggressor = self.aggressor
            self._next_round()
            return
        self.to_act = self._next_pending(after)

    def _over(self) -> None:
        self.phase = "over"
        self.to_act = None
        self.pending = []

    # ------------------------------------------------------------------ queries
    @property
    def round_name(self) -> str:
        return self.rounds[self.round_index] if 0 <= self.round_index < len(self.rounds) else ""

    def owed(self, p: Player) -> int:
        return max(self.level - p.bet, 0)

    def _answerable(self, p: Player) -> bool:
        """Could another player still in put in more than the current bet (a bet or raise is offered)?"""
        return any(q is not p and not q.folded and q.stack + q.bet > self.level for q in self.players)

    def can_raise(self, p: Player) -> bool:
        """A bet or raise is open to ``p`` (3.3, 3.5, 3.6)."""
        reopened = p.acted_at < 0 or p.acted_at < self.raises
        return reopened and p.stack > self.owed(p) and self._answerable(p)

    def min_raise_to(self) -> int:
        return self.level + self.full_size if self.level > 0 else self.bb

    def legal(self) -> dict[str, Any]:
        """The actions open to the player to act: ``{"fold", "check", "call": owed, "bet"/"raise": (min, max)}``."""
        if self.phase != "bet" or self.to_act is None:
            return {}
        p = self.by_seat[self.to_act]
        out: dict[str, Any] = {"fold": True}
        owed = self.owed(p)
        if owed == 0:
            out["check"] = True
        else:
            out["call"] = min(owed, p.stack)
        if self.can_raise(p):
            top = p.bet + p.stack
            out["bet" if self.level == 0 else "raise"] = (min(self.min_raise_to(), top), top)
        out["allin"] = (0 < owed and p.stack <= owed) or self.can_raise(p)
        return out

    # ------------------------------------------------------------------ actions
    def _need_turn(self, seat: int, what: str) -> Player:
        p = self.by_seat.get(seat)
        if self.phase == "over":
            raise RuleError(what, "2.5", "the hand is over")
        if p is None:
            raise RuleError(what, "1.7", "the player is not dealt into this hand")
        if self.phase != "bet":
            raise RuleError(what, "3.1", f"no betting now (the hand is at its {self.phase})")
        if self.to_act != seat:
            raise RuleError(what, "3.1", f"it is {self.by_seat[self.to_act].name}'s turn")  # type: ignore[index]
        return p

    def _record(self, p: Player, action: str, **extra: Any) -> None:
        """Log an action: ``chips`` put in by it and ``to``, the player's bet this round after it."""
        ev: dict[str, Any] = {"event": "action", "round": self.round_name, "player": p.name, "action": action}
        ev.update(extra)
        if p.stack == 0 and action in ("call", "bet", "raise"):
            ev["all_in"] = True
        self.events.append(ev)

    def _pay(self, p: Player, to: int) -> int:
        x = to - p.bet
        p.stack -= x
        p.bet = to
        p.contrib += x
        return x

    def verify(self, seat: int, kind: str, amount: int | None = None) -> tuple[str, int | None]:
        """The action ``kind`` (fold, check, call, bet, raise, allin) of ``seat`` as it would be
        played, ``(kind, amount)`` (``allin`` becomes the call, bet or raise it is), or
        :class:`RuleError` naming the article it breaks; the hand is not changed."""
        what = f"{self.by_seat[seat].name if seat in self.by_seat else seat} {kind}" + (
            f" {amount}" if amount is not None else ""
        )
        p = self._need_turn(seat, what)
        owed = self.owed(p)
        if kind == "allin":
            top = p.bet + p.stack
            if top <= self.level:
                kind, amount = "call", None
            else:
                kind, amount = ("bet" if self.level == 0 else "raise"), top
        if kind == "check" and owed:
            raise RuleError(what, "3.2", f"{p.name} owes {owed}: call, raise or fold")
        if kind == "call" and not owed:
            raise RuleError(what, "3.2", f"{p.name} owes nothing: check or bet")
        if kind in ("bet", "raise"):
            self._verify_bet_or_raise(p, kind, amount, what)
        elif kind not in ("fold", "check", "call"):
            raise RuleError(what, "3.1", f"unknown action {kind!r}")
        return kind, amount

    def act(self, seat: int, kind: str, amount: int | None = None, timeout: bool = False) -> str:
        """Play ``kind`` (fold, check, call, bet, raise, allin) for ``seat``; returns the action as played.

        ``amount``: the total of this round's bet for ``bet N`` and ``raise N`` (raise *to* N).
        Illegal actions raise :class:`RuleError` (:meth:`verify`) before anything changes.
        """
        kind, amount = self.verify(seat, kind, amount)
        p = self.by_seat[seat]
        owed = self.owed(p)
        extra = {"timeout": True} if timeout else {}
        if kind == "fold":
            p.folded = True
            self._record(p, "fold", **extra)
        elif kind == "check":
            self._record(p, "check", **extra)
        elif kind == "call":
            x = self._pay(p, p.bet + min(owed, p.stack))
            self._record(p, "call", chips=x, to=p.bet)
        else:
            assert amount is not None
            self._bet_or_raise(p, kind, amount)
        p.acted_at = self.raises
        if p.seat in self.pending:
            self.pending.remove(p.seat)
        self._advance(p.seat)
        return kind

    def _verify_bet_or_raise(self, p: Player, kind: str, amount: int | None, what: str) -> None:
        if amount is None or not isinstance(amount, int) or isinstance(amount, bool):
            raise RuleError(what, "3.4", f"{kind} needs a whole number of chips")
        if kind == "bet" and self.level > 0:
            raise RuleError(what, "3.3", f"somebody has bet {self.level} this round: raise instead")
        if kind == "raise" and self.level == 0:
            raise RuleError(what, "3.3", "nobody has bet this round: bet instead")
        top = p.bet + p.stack
        if amount > top:
            raise RuleError(what, "3.6", f"{p.name} has {top} in all this round")
        if amount <= self.level:
            raise RuleError(what, "3.4", f"{amount} is not above the current bet of {self.level}")
        if p.acted_at >= 0 and p.acted_at >= self.raises:
            raise RuleError(what, "3.5", f"{p.name} has acted and no full raise has come since: call or fold")
        if not self._answerable(p):
            raise RuleError(what, "3.1", "no other player could answer a bet or raise: call, check or fold")
        if amount < self.min_raise_to() and amount != top:
            low = "bet is one big blind" if kind == "bet" else "raise is to"
            raise RuleError(what, "3.4", f"the smallest {low} {self.min_raise_to()}")

    def _bet_or_raise(self, p: Player, kind: str, amount: int) -> None:
        increment = amount - self.level
        x = self._pay(p, amount)
        full = increment >= self.full_size
        if full:
            self.full_size = increment
            self.raises += 1
        self.level = amount
        self.aggressor = p.seat
        self._record(p, kind, chips=x, to=amount, full=full)
        self.pending = [q.seat for q in self._after(p) if q.active]

    def _after(self, p: Player) -> list[Player]:
        k = self.players.index(p)
        n = len(self.players)
        return [self.players[(k + j) % n] for j in range(1, n)]

    def verify_timeout(self, seat: int) -> None:
        """None if ``seat`` may time out now (its turn to bet, or its laying), else :class:`RuleError`."""
        what = f"{self.by_seat[seat].name if seat in self.by_seat else seat} timeout"
        if self.phase == "lay":
            p = self.by_seat.get(seat)
            if p is None or p.folded or p.laid is not None:
                raise RuleError(what, "7.6", "the player has no laying to make")
            return
        self._need_turn(seat, what)

    def timeout(self, seat: int) -> str:
        """8.2: check if that is free, fold if the player owes chips (never call); at the laying,
        the default laying (7.6).  Returns what was played."""
        if self.phase == "lay":
            p = self.by_seat[seat]
            h = p.hole
            self.lay(seat, ((h[0], h[1]), (h[2], h[3]), (h[4], h[5])), timeout=True)
            return "lay"
        p = self._need_turn(seat, f"{self.by_seat[seat].name if seat in self.by_seat else seat} timeout")
        return self.act(seat, "check" if self.owed(p) == 0 else "fold", timeout=True)

    def fold_out(self, seat: int) -> None:
        """A player leaving the table (1.8) gives up the hand at once, in turn or not."""
        p = self.by_seat[seat]
        if p.folded or self.phase == "over":
            return
        p.folded = True
        self.events.append({"event": "leave", "player": p.name})
        if p.seat in self.pending:
            self.pending.remove(p.seat)
        if self.phase == "bet" and self.to_act == seat:
            self._advance(seat)
        elif len(self.live()) == 1:
            self._over()
        elif self.phase == "lay" and all(q.laid is not None for q in self.live()):
            self._next_round()

    # ------------------------------------------------------------------ 3 Sets
    def lay(self, seat: int, layings, timeout: bool = False) -> None:
        """3 Sets (7.6): two of the player's six cards on each of A, B and C, all six, no card twice."""
        sets = self.verify_lay(seat, layings)
        p = self.by_seat[seat]
        name = p.name
        p.laid = sets  # type: ignore[assignment]
        self.events.append(
            {"event": "lay", "player": name, "timeout": timeout, "sets": [cards_str(s).split() for s in sets]}
        )
        if all(q.laid is not None for q in self.live()):
            self._next_round()

    def verify_lay(self, seat: int, layings) -> tuple[tuple[int, ...], ...]:
        """The laying as three pairs of card ints, or :class:`RuleError` (7.6); the hand is not changed."""
        p = self.by_seat.get(seat)
        name = p.name if p else str(seat)
        what = f"{name} lay"
        if self.phase != "lay":
            raise RuleError(what, "7.6", f"no laying now (the hand is at its {self.phase})")
        if p is None or p.folded:
            raise RuleError(what, "7.6", f"{name} is not in the hand")
        if p.laid is not None:
            raise RuleError(what, "7.6", f"{name} has already laid")
        try:
            sets = tuple(tuple(int(c) for c in pair) for pair in layings)
        except (TypeError, ValueError):
            raise RuleError(what, "7.6", "a laying is three pairs of cards") from None
        if len(sets) != 3 or any(len(s) != 2 for s in sets):
            raise RuleError(what, "7.6", "a laying is three pairs of cards, one pair per board")
        flat = [c for s in sets for c in s]
        if len(set(flat)) != 6:
            raise RuleError(what, "7.6", "no card may be laid twice")
        if sorted(flat) != sorted(p.hole):
            foreign = [card_str(c) for c in flat if c not in p.hole]
            raise RuleError(what, "7.6", f"{name} does not hold {' '.join(foreign)}")
        return sets
