"""FNV-1a, 64-bit: the public hash Riemann uses to pick an action from a table row.

Fowler–Noll–Vo, variant 1a (xor the byte, then multiply), 64-bit parameters from
the FNV reference (IETF draft-eastlake-fnv): offset basis ``0xcbf29ce484222325``,
prime ``0x100000001b3``, arithmetic modulo ``2**64``.  The rule card (How Riemann
bets, point 3) picks the table's action with this hash of Riemann's own cards and
the spot, so the same cards in the same spot always give the same action.

The reference test vectors pin the implementation:

>>> hex(fnv1a_64(b""))
'0xcbf29ce484222325'
>>> hex(fnv1a_64(b"a"))
'0xaf63dc4c8601ec8c'
>>> hex(fnv1a_64(b"foobar"))
'0x85944171f73967e8'
>>> fnv1a_64("a")
Traceback (most recent call last):
...
TypeError: fnv1a_64 hashes bytes, got str
"""

from __future__ import annotations

FNV64_OFFSET_BASIS = 0xCBF29CE484222325
FNV64_PRIME = 0x100000001B3
_MASK64 = (1 << 64) - 1


def fnv1a_64(data: bytes) -> int:
    """The 64-bit FNV-1a hash of ``data`` as an unsigned int in ``0 .. 2**64 - 1``."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"fnv1a_64 hashes bytes, got {type(data).__name__}")
    h = FNV64_OFFSET_BASIS
    for byte in bytes(data):
        h = ((h ^ byte) * FNV64_PRIME) & _MASK64
    return h
