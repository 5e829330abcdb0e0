"""The rule book's games in the engine contract (:mod:`contract`): :class:`poker51.rulebook.protocol.BookHand`.

Hand ``i`` plays game ``i`` of the six (Random draws among them, so it adds nothing here) with
two to six players of 1 to 40 big blinds, seeded by ``i``: blinds and antes that put players
all in, side pots, rake, 3 Sets' laying, shows and mucks, timeouts and leaves all occur.
"""

from __future__ import annotations

import random

from contract import EngineAdapter

from poker51.cards import card_str
from poker51.rulebook.games import GAMES
from poker51.rulebook.protocol import BookHand
from poker51.table.deal import new_seed
from poker51.table.protocol import TableAction

GAME_NAMES = list(GAMES)


class RulebookAdapter(EngineAdapter):
    name = "rulebook"
    n_hands = 36

    def new_hand(self, i: int) -> BookHand:
        rng = random.Random(i)
        game = GAME_NAMES[i % len(GAME_NAMES)]
        n = rng.randint(2, min(6, GAMES[game].seats))
        chairs = sorted(rng.sample(range(GAMES[game].seats), n))
        seats = [(s, f"p{s}", 2 * rng.randint(1, 40)) for s in chairs]
        return BookHand.deal(game, 2, seats, button=rng.choice(chairs), seed=new_seed("seedsequence", i, key=(0, 1)))

    def chips(self, state: BookHand) -> int:
        return state.chips()

    def hidden_cards(self, state: BookHand, seat: int) -> set[str]:
        h = state.hand
        known = {card_str(c) for b in h.boards for c in b}
        if seat in h.by_seat:
            known |= {card_str(c) for c in h.by_seat[seat].hole}
        for show in state.view_json(seat)["shows"]:
            known |= set(show.get("cards", []))
        return {card_str(c) for c in range(52)} - known

    def illegal_plays(self, state: BookHand) -> list[tuple[TableAction, str]]:
        seat = state.whose_turn()
        if seat is None:
            return [(TableAction.of(s, "check"), "2.5") for s in state.seats]
        h = state.hand
        other = next(s for s in state.seats if s != seat and not h.by_seat[s].folded)
        out = [(TableAction.of(seat, "dance"), "3.1"), (TableAction.of(seat, "advance", choice="raise"), "8.5")]
        if h.phase == "bet":
            out.append((TableAction.of(other, "fold"), "3.1"))
            out.append((TableAction.of(seat, "show"), "5.1"))
            legal = h.legal()
            if "check" not in legal:
                out.append((TableAction.of(seat, "check"), "3.2"))
            else:
                out.append((TableAction.of(seat, "call"), "3.2"))
            if h.level > 0:
                out.append((TableAction.of(seat, "bet", h.level + 2 * h.bb), "3.3"))
            p = h.by_seat[seat]
            out.append((TableAction.of(seat, "raise" if h.level else "bet", p.bet + p.stack + 1), "3.6"))
        elif h.phase == "lay":
            hole = [card_str(c) for c in h.by_seat[seat].hole]
            out.append((TableAction.of(seat, "lay", sets=[hole[:2], hole[:2], hole[4:]]), "7.6"))
            out.append((TableAction.of(seat, "check"), "3.1"))
        else:
            out.append((TableAction.of(seat, "check"), "3.1"))
            out.append((TableAction.of(other, "show"), "5.2"))
        return out

    def replay(self, log: str) -> str:
        return BookHand.from_log(log).hand_log()


ADAPTERS = [RulebookAdapter()]
