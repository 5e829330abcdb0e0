"""The five-seat tables in the engine contract (:mod:`contract`): :class:`poker51.multi.protocol.TableHand`.

Hand ``i`` seats two to five players (people, and from ``i % 3 == 2`` on a Riemann added by
the first person) with buy-ins of 2, 4, 8 or 16 jbits, a button and a seedsequence deck, all
drawn from ``random.Random(i)``, so short stacks, all-ins, side pots, timeouts (three in a
row mark a player away) and leaves all occur.
"""

from __future__ import annotations

import random

from contract import EngineAdapter

from poker51.cards import card_str
from poker51.multi.commit import DECK_CARDS
from poker51.multi.hand import DONE, DRAW
from poker51.multi.law import BUYINS
from poker51.multi.protocol import TableHand
from poker51.table.protocol import TableAction

TURN = "A hand 2: players act in turn"
PHASE = "A hand: antes, betting, the draw, betting, showdown"


class MultiAdapter(EngineAdapter):
    name = "multi"
    n_hands = 40

    def new_hand(self, i: int) -> TableHand:
        rng = random.Random(i)
        n = rng.randint(2, 5)
        chairs = sorted(rng.sample(range(5), n))
        riemann = i % 3 == 2 and n > 2
        seats: list[dict] = [
            {"seat": s, "name": f"p{s}", "buyin": rng.choice(BUYINS)} for s in chairs[: n - 1 if riemann else n]
        ]
        if riemann:
            seats.append({"seat": chairs[-1], "name": "r1", "riemann": True, "added_by": seats[0]["name"]})
        return TableHand.deal(seats, button=rng.choice(chairs), entropy=i, table=f"c{i}")

    def chips(self, state: TableHand) -> int:
        return state.chips()

    def hidden_cards(self, state: TableHand, seat: int) -> set[str]:
        h = state.hand
        known = set(h.dealt.get(seat, ())) | set(h.cards.get(seat, ()))
        if h.phase == DONE:
            known |= {c for cs in h.cards.values() for c in cs}
        return {card_str(c) for c in DECK_CARDS if c not in known}

    def illegal_plays(self, state: TableHand) -> list[tuple[TableAction, str]]:
        seat = state.whose_turn()
        if seat is None:
            return [(TableAction.of(s, "check"), "a hand ends at the showdown or the last fold") for s in state.seats]
        h = state.hand
        other = next(s for s in state.seats if s != seat)
        out = [(TableAction.of(other, "fold"), TURN), (TableAction.of(seat, "dance"), "check, open, call, raise")]
        if h.phase == DRAW:
            foreign = next(c for c in DECK_CARDS if c not in h.cards[seat])
            out += [
                (TableAction.of(seat, "draw", discards=[card_str(foreign)]), "A hand 4: keep any of your own cards"),
                (TableAction.of(seat, "check"), PHASE),
            ]
            return out
        assert h.round is not None
        out.append((TableAction.of(seat, "draw", discards=[]), PHASE))
        if h.round.owing(seat) > 0:
            out.append((TableAction.of(seat, "check"), "check only with no bet to answer"))
            out.append((TableAction.of(seat, "open", 100), "a round has one opening bet"))
        else:
            out.append((TableAction.of(seat, "call"), "call or fold only facing a bet"))
            out.append((TableAction.of(seat, "raise"), "call or fold only facing a bet"))
            if h.round.level == 0:
                odd = 150 if state.table.stack[seat] != 150 else 250  # never an all-in open
                out.append((TableAction.of(seat, "open", odd), "open 1, 2, 4 or 8 jbits"))
        return out

    def replay(self, log: str) -> str:
        return TableHand.from_log(log).hand_log()


ADAPTERS = [MultiAdapter()]
