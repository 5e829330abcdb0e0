"""What each party sees: a deciding seat's spot, a seat's view, and the end-of-hand log records.

Rule card v1, "Who sees what": the table service holds every hand; each seat receives only
its own cards until the hand ends, then every hand is shown.  :class:`Spot` is what a
policy may use (its own cards and the public state); :func:`seat_view` what a seat's screen
shows; :func:`result_record` and :func:`reveal_record` the log records written when a hand
ends, the only ones with cards (the reveal holds the deck and salt of the commitment).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from poker51.cards import card_str
from poker51.multi.commit import CommittedDeck
from poker51.multi.hand import DONE, Hand, HandResult
from poker51.multi.law import Move
from poker51.table.errors import IllegalAction


@dataclass(frozen=True)
class Spot:
    """What a seat deciding a betting move may use: its own cards and the public state."""

    seat: int
    cards: tuple[int, ...]
    round: str
    stack: int
    to_call: int
    pot: int
    opening: int
    raises: int
    aggressed: bool
    opponents: int
    can_answer: bool
    min_draw: int
    legal: tuple[Move, ...]


def spot_of(hand: Hand, stack: dict[int, int], seat: int) -> Spot:
    """The spot of ``seat``, on turn in a betting round of ``hand``."""
    rnd = hand.round
    if rnd is None or rnd.turn != seat:
        raise IllegalAction(f"spot: seat {seat} is not on turn in a betting round")
    opp = hand.opponents_in(seat)
    draws = [hand.draws[s] for s in opp if s in hand.draws]
    return Spot(
        seat, tuple(hand.cards[seat]), rnd.name, stack[seat], max(rnd.owing(seat), 0), hand.pot(), rnd.opening,
        rnd.raises, seat in rnd.aggressors, len(opp), rnd.can_answer(seat), min(draws) if draws else 5,
        tuple(rnd.legal(seat)),
    )  # fmt: skip


def seat_view(
    table: str, seat: int, name: str, seats: dict[int, tuple[str, str, int, bool]], hand: Hand | None
) -> dict[str, Any]:
    """The public table (``seats``: seat -> name, kind, stack, away) and the seat's own cards;
    every hand once the hand is over."""
    out: dict[str, Any] = {
        "table": table,
        "seat": seat,
        "name": name,
        "seats": {
            str(s): {"name": n, "kind": k, "stack_cents": st, "away": away} for s, (n, k, st, away) in seats.items()
        },
        "cards": [],
        "shown": {},
    }
    if hand is not None:
        out["hand"] = hand.public()
        if seat in hand.cards:
            out["cards"] = [card_str(c) for c in hand.cards[seat]]
        if hand.phase == DONE:
            out["shown"] = {str(s): [card_str(c) for c in cs] for s, cs in hand.cards.items()}
    return out


def result_record(hand: Hand, res: HandResult, names: dict[int, str]) -> dict[str, Any]:
    """The ``result`` log record: pots, transfers, payouts, every hand shown."""
    return {
        "event": "result", "hand": hand.number, "showdown": res.showdown,
        "pots": [{"amount_cents": p.amount, "eligible": list(p.eligible), "winners": list(p.winners)}
                 for p in res.pots],
        "transfers": [list(t) for t in res.transfers],
        "payouts": {str(s): v for s, v in res.payouts.items()},
        "hands": {str(s): [card_str(c) for c in hand.cards[s]] for s in hand.order},
        "strengths": {str(s): v for s, v in res.strengths.items()},
        "names": {str(s): n for s, n in names.items()},
    }  # fmt: skip


def reveal_record(hand: Hand, cd: CommittedDeck) -> dict[str, Any]:
    """The ``reveal`` log record: deck, salt, seed, dealt hands, discards, final hands."""
    return {
        "event": "reveal", "hand": hand.number, "deck": [card_str(c) for c in cd.deck], "salt": cd.salt.hex(),
        "seed": None if cd.seed is None else cd.seed.hex(), "source": cd.source,
        "dealt": {str(s): [card_str(c) for c in hand.dealt[s]] for s in hand.order},
        "draws": [[s, [card_str(c) for c in d]] for s, d in hand.discards],
        "final": {str(s): [card_str(c) for c in hand.cards[s]] for s in hand.order},
    }  # fmt: skip


__all__ = ["Spot", "result_record", "reveal_record", "seat_view", "spot_of"]
