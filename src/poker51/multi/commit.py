"""A fair deal you can check: one committed deck per hand, and the check of a table log.

Rule card v1, "A fair deal you can check".  Before each hand the table fixes the deck
order and a 32-byte random salt and publishes ``SHA-256(deck bytes)``
(:func:`poker51.table.deal.deck_commitment`: the canonical byte string
``b"poker51-deck/1\\n" + ",".join(card names in deal order) + b"\\n" + salt hex``).  When
the hand ends the log shows the deck, the salt and the dealt cards.

Where decks come from (:class:`DeckSource`; the log names the source):

- ``secrets``: a 32-byte seed and the salt from :mod:`secrets` (live play, the default);
- ``seedsequence``: in simulations and tests, ``poker51.table.deal.new_seed("seedsequence",
  entropy, key=(*table_key, hand, 0))`` for the seed and ``(..., hand, 1)`` for the salt;
- ``scripted``: a scenario's deck (its cards in deal order, completed by the cards not
  listed in ascending order); the salt comes from the seedsequence rule.

The deck is ``poker51.table.deal.shuffle(seed, 1..51)`` (the 51 cards: the marker 2c is out of
the deal).  :func:`check_log` recomputes every commitment of a log, the shuffle of every
revealed seed, and the dealt and drawn cards against the deck order; the log is read by the
floor's reader (:func:`poker51.table.log.read_log`, format ``poker51-multi-log/1``).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from poker51.cards import MARKER, card_str, parse_card
from poker51.errors import InputError
from poker51.io import canonical_json
from poker51.table.deal import deck_commitment, new_seed, shuffle
from poker51.table.log import MULTI, read_log

#: the 51 cards in play: every card but the marker 2c
DECK_CARDS: tuple[int, ...] = tuple(c for c in range(52) if c != MARKER)
SOURCES = ("secrets", "seedsequence", "scripted")
#: the format of the tables' log (one of the floor's, :mod:`poker51.table.log`)
LOG_FORMAT = MULTI


@dataclass(frozen=True)
class CommittedDeck:
    """A deck with its salt, commitment and provenance (``seed`` None for a scripted deck)."""

    deck: tuple[int, ...]
    salt: bytes
    commitment: str
    source: str
    seed: bytes | None


@dataclass(frozen=True)
class DeckSource:
    """Where a table's decks come from (module docstring)."""

    source: str = "secrets"
    entropy: int | None = None
    table_key: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.source not in ("secrets", "seedsequence"):
            raise InputError(f"deck source {self.source!r}: expected secrets or seedsequence")
        if self.source == "seedsequence" and self.entropy is None:
            raise InputError("a seedsequence deck source needs its entropy (the seed)")

    def _bytes(self, hand: int, which: int) -> bytes:
        if self.source == "secrets":
            return secrets.token_bytes(32)
        return new_seed("seedsequence", self.entropy, key=(*self.table_key, hand, which))

    def deck(self, hand: int, scripted: Sequence[int] | None = None) -> CommittedDeck:
        """The committed deck of hand number ``hand`` (a scripted one when given)."""
        salt = self._bytes(hand, 1)
        if scripted is not None:
            deck = complete_deck(scripted)
            return CommittedDeck(deck, salt, deck_commitment(deck, salt), "scripted", None)
        seed = self._bytes(hand, 0)
        deck = tuple(shuffle(seed, DECK_CARDS))
        return CommittedDeck(deck, salt, deck_commitment(deck, salt), self.source, seed)


def complete_deck(cards: Sequence[int]) -> tuple[int, ...]:
    """A scripted deck: its cards in order, then every other card of the 51 in ascending order."""
    listed = [int(c) for c in cards]
    if MARKER in listed:
        raise InputError("deck: 2c is the marker and is outside the deal (51-card deck)")
    seen: set[int] = set()
    for c in listed:
        if c in seen:
            raise InputError(f"deck: card {card_str(c)} is listed twice")
        seen.add(c)
    return tuple(listed + [c for c in DECK_CARDS if c not in seen])


# --------------------------------------------------------------------------- check
def _cards(x: Any, where: str) -> list[int]:
    if not isinstance(x, list):
        raise InputError(f"{where}: expected a list of cards")
    return [parse_card(c) for c in x]


def check_reveal(hand: dict[str, Any], reveal: dict[str, Any]) -> list[str]:
    """Problems of one hand: commitment, seed, dealt and drawn cards (empty if it checks)."""
    n = hand["hand"]
    where = f"hand {n}"
    deck = _cards(reveal.get("deck"), f"{where} deck")
    try:
        salt = bytes.fromhex(str(reveal.get("salt")))
    except ValueError:
        raise InputError(f"{where}: the salt is not hex") from None
    bad = []
    if sorted(deck) != list(DECK_CARDS):
        bad.append(f"{where}: the deck is not the 51 cards")
    if deck_commitment(deck, salt) != hand.get("commitment"):
        bad.append(f"{where}: SHA-256 of the deck and salt does not match the commitment")
    if reveal.get("seed") is not None and shuffle(bytes.fromhex(reveal["seed"]), DECK_CARDS) != deck:
        bad.append(f"{where}: the deck is not the shuffle of its seed")
    order = [int(s) for s in hand["order"]]
    dealt = {int(s): _cards(c, f"{where} dealt") for s, c in reveal["dealt"].items()}
    k = len(order)
    for i, s in enumerate(order):
        if dealt.get(s) != [deck[j * k + i] for j in range(5)]:
            bad.append(f"{where}: seat {s} was not dealt its cards from the deck")
    pos = 5 * k
    for s, d in reveal.get("draws", []):
        thrown = _cards(d, f"{where} discards")
        final = _cards(reveal["final"][str(s)], f"{where} final")
        expect = [c for c in dealt[int(s)] if c not in thrown] + deck[pos : pos + len(thrown)]
        pos += len(thrown)
        if final != expect:
            bad.append(f"{where}: seat {s}'s draw is not the next cards of the deck")
    return bad


def check_log(path: str | Path) -> dict[str, Any]:
    """Recompute every commitment of a table log, and the SHA-256 of every buy-in and cash-out
    receipt: ``{"hands", "checked", "receipts", "failures", "problems"}`` (a problem names the
    receipt: its kind, player and hand)."""
    records = read_log(path, expect=LOG_FORMAT)
    hands: dict[int, dict[str, Any]] = {}
    problems: list[str] = []
    checked = receipts = 0
    for rec in records:
        try:
            if isinstance(rec.get("receipt"), dict):
                receipts += 1
                problems += _check_receipt(rec["receipt"])
            if rec["event"] == "hand":
                hands[int(rec["hand"])] = rec
            elif rec["event"] == "reveal":
                n = int(rec["hand"])
                if n not in hands:
                    problems.append(f"hand {n}: revealed but never committed")
                    continue
                problems += check_reveal(hands[n], rec)
                checked += 1
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{path}: a {rec.get('event')} record is malformed ({exc!r})") from None
    for n in hands:
        if not any(r["event"] == "reveal" and int(r.get("hand", -1)) == n for r in records):
            problems.append(f"hand {n}: committed but never revealed")
    return {"hands": len(hands), "checked": checked, "receipts": receipts, "failures": len(problems),
            "problems": problems}  # fmt: skip


def _check_receipt(r: dict[str, Any]) -> list[str]:
    """The receipt's ``sha256`` recomputed over the rest (``multi.table.receipt``)."""
    body = {k: v for k, v in r.items() if k != "sha256"}
    want = hashlib.sha256(canonical_json(body).encode()).hexdigest()
    if r.get("sha256") == want:
        return []
    what = (
        f"{r.get('kind', '?')} receipt of {r.get('player', '?')} (hand {r.get('hand', '?')}, seat {r.get('seat', '?')})"
    )
    return [f"{what}: SHA-256 {r.get('sha256')} is not that of its content ({want})"]


__all__ = ["DECK_CARDS", "LOG_FORMAT", "SOURCES", "CommittedDeck", "DeckSource", "check_log", "complete_deck"]
