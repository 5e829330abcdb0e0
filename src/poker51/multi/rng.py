"""Seeded randomness of simulated tables besides the deck: one uniform per population decision.

Decks come from :mod:`poker51.multi.commit` (:func:`poker51.table.deal.shuffle`).  A simulated
player of a population type draws one uniform per decision from a counter-based stream
(design choice M12), so the reference engine and the Numba kernel give the same numbers
without sharing a generator object:

- the hand key ``K`` = the first 8 bytes (little-endian) of
  ``poker51.table.deal.new_seed("seedsequence", entropy, key=(*table_key, hand, 2))``;
- decision ``k`` (0, 1, ...) of seat ``s`` in that hand:
  ``u = (splitmix64(K + 0x9E3779B97F4A7C15 * (64 s + k + 1) mod 2^64) >> 11) / 2^53``,
  ``splitmix64`` the SplitMix64 finaliser (Steele, Lea and Flood 2014).

>>> splitmix64(0)
0
>>> hex(splitmix64(1))
'0x5692161d100b05e5'
>>> 0.0 <= decision_uniform(12345, 2, 0) < 1.0
True
"""

from __future__ import annotations

from collections.abc import Sequence

from poker51.table.deal import new_seed

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1, MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
#: the SeedSequence key slots of a hand: 0 the deck seed, 1 the salt, 2 the decisions
KEY_DECK, KEY_SALT, KEY_DECISIONS = 0, 1, 2


def splitmix64(z: int) -> int:
    """The SplitMix64 finaliser of a 64-bit int."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def hand_key(entropy: int, table_key: Sequence[int], hand: int) -> int:
    """The 64-bit key of a hand's decision stream (module docstring)."""
    seed = new_seed("seedsequence", entropy, key=(*table_key, hand, KEY_DECISIONS))
    return int.from_bytes(seed[:8], "little")


def decision_uniform(key: int, seat: int, k: int) -> float:
    """Uniform in [0, 1) for decision ``k`` of ``seat`` in the hand with key ``key``."""
    z = splitmix64((key + GOLDEN * (64 * seat + k + 1)) & MASK64)
    return (z >> 11) * (1.0 / 9007199254740992.0)


__all__ = ["decision_uniform", "hand_key", "splitmix64"]
