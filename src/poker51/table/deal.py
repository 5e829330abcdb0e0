"""Committed deals: a deck that is a function of a secret seed, and the hashes published
before the first card (tables rule card "A fair deal you can check"; rule book Article IX).

The shuffle (:func:`shuffle`)
    A byte stream ``HMAC-SHA256(key=seed, msg=b"poker51-deal/1" || counter)`` for
    ``counter = 0, 1, 2, ...`` (8-byte big-endian), read as big-endian unsigned 64-bit
    words.  Fisher-Yates from the top: for ``i = n-1 .. 1`` draw ``j`` uniform in
    ``0..i`` by rejection (a word ``x`` is used only if ``x < 2**64 - 2**64 mod (i+1)``,
    then ``j = x mod (i+1)``: no modulo bias), and swap positions ``i`` and ``j``.  The
    deck is the result read from position 0; cards are dealt from the front.
Commitments
    :func:`seed_commitment` (rule book 9.2): the SHA-256 of the seed's bytes.
    :func:`deck_commitment` (tables): the SHA-256 of the canonical byte string
    ``b"poker51-deck/1\\n" + ",".join(card names in deal order) + b"\\n" + salt hex``.
Seeds (:func:`new_seed`)
    32 bytes from :mod:`secrets` (live play), or, in simulations and tests, the first
    32 bytes of ``numpy.random.SeedSequence([entropy, *key]).generate_state(8, uint32)``
    (little-endian words); logs name which (``"secrets"`` or ``"seedsequence"``).

>>> seed = bytes(range(32))
>>> from poker51.cards import cards_str
>>> cards_str(shuffle(seed, range(52))[:5])
'5c Jh Th Ks Kd'
>>> seed_commitment(seed)[:16]
'630dcd2966c43366'
>>> shuffle(seed, range(52)) == shuffle(seed, range(52))
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence

import numpy as np

from poker51.cards import card_str

DOMAIN = b"poker51-deal/1"
DECK_FORMAT = b"poker51-deck/1"
SEED_BYTES = 32
SOURCES = ("secrets", "seedsequence")


def _words(seed: bytes) -> Iterator[int]:
    counter = 0
    while True:
        block = hmac.new(seed, DOMAIN + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        for k in range(0, 32, 8):
            yield int.from_bytes(block[k : k + 8], "big")
        counter += 1


def shuffle(seed: bytes, cards: Sequence[int] | range) -> list[int]:
    """The deck order of ``cards`` for ``seed`` (module docstring)."""
    if not isinstance(seed, (bytes, bytearray)) or len(seed) == 0:
        raise ValueError("a seed is a non-empty byte string")
    deck = [int(c) for c in cards]
    words = _words(bytes(seed))
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = (1 << 64) - (1 << 64) % n
        x = next(words)
        while x >= limit:
            x = next(words)
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def seed_commitment(seed: bytes) -> str:
    """SHA-256 hex digest of the seed (published before any card is dealt)."""
    return hashlib.sha256(bytes(seed)).hexdigest()


def deck_bytes(deck: Sequence[int], salt: bytes) -> bytes:
    """The canonical byte string a table's deck commitment hashes."""
    return (
        DECK_FORMAT + b"\n" + ",".join(card_str(c) for c in deck).encode("ascii") + b"\n" + bytes(salt).hex().encode()
    )


def deck_commitment(deck: Sequence[int], salt: bytes) -> str:
    """SHA-256 hex digest of :func:`deck_bytes`."""
    return hashlib.sha256(deck_bytes(deck, salt)).hexdigest()


def new_seed(source: str = "secrets", entropy: int | None = None, key: Sequence[int] = ()) -> bytes:
    """32 secret bytes: from :mod:`secrets`, or from a ``SeedSequence`` (module docstring)."""
    if source == "secrets":
        return secrets.token_bytes(SEED_BYTES)
    if source == "seedsequence":
        if entropy is None:
            raise ValueError("a seedsequence seed needs its entropy")
        state = np.random.SeedSequence([int(entropy), *(int(k) for k in key)]).generate_state(8, np.uint32)
        return state.astype("<u4").tobytes()
    raise ValueError(f"unknown seed source {source!r}; expected one of {', '.join(SOURCES)}")


__all__ = ["deck_bytes", "deck_commitment", "new_seed", "seed_commitment", "shuffle"]
