"""NumPy's ``default_rng(seed).random()`` inside Numba kernels, bit for bit.

The v0.5 policy seeds its 128 pre-draw completions with
``numpy.random.default_rng(fnv1a_64(...))`` (:func:`poker51.play.v05.completion_strengths`).
To evaluate that policy on thousands of candidate hands per second (the local best
response's posterior, :mod:`poker51.play.lbr_kernels`) the same stream is needed in a kernel.
This module reimplements the two pieces NumPy uses, from their published algorithms:

``SeedSequence(entropy)`` (O'Neill's seed_seq hashing, NumPy ``bit_generator.pyx``)
    The entropy int is split into 32-bit words (little-endian; 0 is one word ``[0]``) and
    hashed into a pool of 4 words with ``hashmix`` (constants ``INIT_A = 0x43b0d7e5``,
    ``MULT_A = 0x931e8875``) and ``mix`` (``MIX_MULT_L = 0xca01f9dd``, ``MIX_MULT_R =
    0x4973f715``), all modulo 2**32, xor-shift 16.  ``generate_state(4, uint64)`` draws 8
    words from the pool with ``INIT_B = 0x8b51f9dd``, ``MULT_B = 0x58f38ded`` and pairs them
    little-endian into four 64-bit words ``s_hi, s_lo, i_hi, i_lo``.

``PCG64`` (O'Neill's PCG XSL-RR 128/64, NumPy ``pcg64.h``)
    Seeding: ``inc = (i << 1) | 1``, ``state = 0``, step, ``state += s``, step; a step is
    ``state = state * M + inc (mod 2**128)`` with ``M = 0x2360ed051fc65da44385df649fccf645``.
    Output: step, then ``rotr64(hi ^ lo, state >> 122)``.  A double is
    ``(next64 >> 11) * 2**-53``.

The 128-bit state is a pair of uint64 words, high first.  :class:`PCG64Plain` is the plain
twin in Python ints; the tests compare both with NumPy itself.

>>> PCG64Plain(12345).random() == float(__import__("numpy").random.default_rng(12345).random())
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

_M32 = 0xFFFFFFFF
_M64 = (1 << 64) - 1
_M128 = (1 << 128) - 1
INIT_A, MULT_A, INIT_B, MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
MIX_MULT_L, MIX_MULT_R = 0xCA01F9DD, 0x4973F715
MULT_HI, MULT_LO = 0x2360ED051FC65DA4, 0x4385DF649FCCF645
_TWO53 = 1.0 / 9007199254740992.0


# --------------------------------------------------------------------------- plain twin
def seed_words(entropy: int) -> list[int]:
    """The four 64-bit words ``generate_state(4, uint64)`` of ``SeedSequence(entropy)``."""
    x = int(entropy)
    if x < 0:
        raise ValueError("SeedSequence entropy is a non-negative int")
    ent = []
    while x > 0:
        ent.append(x & _M32)
        x >>= 32
    ent = ent or [0]
    h = INIT_A

    def hashmix(v: int) -> int:
        nonlocal h
        v = (v ^ h) & _M32
        h = (h * MULT_A) & _M32
        v = (v * h) & _M32
        return v ^ (v >> 16)

    def mix(x: int, y: int) -> int:
        r = (MIX_MULT_L * x - MIX_MULT_R * y) & _M32
        return r ^ (r >> 16)

    pool = [hashmix(ent[i] if i < len(ent) else 0) for i in range(4)]
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    for src in range(4, len(ent)):
        for dst in range(4):
            pool[dst] = mix(pool[dst], hashmix(ent[src]))
    hb, words = INIT_B, []
    for i in range(8):
        v = pool[i % 4] ^ hb
        hb = (hb * MULT_B) & _M32
        v = (v * hb) & _M32
        words.append(v ^ (v >> 16))
    return [words[2 * i] | (words[2 * i + 1] << 32) for i in range(4)]


class PCG64Plain:
    """``numpy.random.default_rng(entropy)`` for :meth:`random` doubles, in Python ints."""

    def __init__(self, entropy: int):
        s_hi, s_lo, i_hi, i_lo = seed_words(entropy)
        self.inc = ((((i_hi << 64) | i_lo) << 1) | 1) & _M128
        self.state = 0
        self._step()
        self.state = (self.state + ((s_hi << 64) | s_lo)) & _M128
        self._step()

    def _step(self) -> None:
        self.state = (self.state * ((MULT_HI << 64) | MULT_LO) + self.inc) & _M128

    def next64(self) -> int:
        self._step()
        hi, lo = self.state >> 64, self.state & _M64
        x, r = hi ^ lo, self.state >> 122
        return ((x >> r) | (x << ((64 - r) & 63))) & _M64

    def random(self) -> float:
        return (self.next64() >> 11) * _TWO53


# --------------------------------------------------------------------------- kernels
_U32 = np.uint64(_M32)
_S16 = np.uint64(16)
_S32 = np.uint64(32)


@njit(cache=True)
def _hashmix(v, h):
    """(hashed value, next hash constant); every value below 2**32 in a uint64."""
    v = (v ^ h) & _U32
    h = (h * np.uint64(MULT_A)) & _U32
    v = (v * h) & _U32
    return v ^ (v >> _S16), h


@njit(cache=True)
def _mix(x, y):
    r = (np.uint64(MIX_MULT_L) * x - np.uint64(MIX_MULT_R) * y) & _U32
    return r ^ (r >> _S16)


@njit(cache=True)
def _mulhi(a, b):
    """High 64 bits of the 128-bit product of two uint64."""
    a0, a1 = a & _U32, a >> _S32
    b0, b1 = b & _U32, b >> _S32
    p00, p01, p10, p11 = a0 * b0, a0 * b1, a1 * b0, a1 * b1
    mid = (p00 >> _S32) + (p01 & _U32) + (p10 & _U32)
    return p11 + (p01 >> _S32) + (p10 >> _S32) + (mid >> _S32)


@njit(cache=True)
def _step(st):
    """One PCG64 step on ``st = [state_hi, state_lo, inc_hi, inc_lo]`` (uint64, in place)."""
    hi, lo = st[0], st[1]
    m_hi, m_lo = np.uint64(MULT_HI), np.uint64(MULT_LO)
    new_lo = lo * m_lo
    new_hi = _mulhi(lo, m_lo) + hi * m_lo + lo * m_hi
    s_lo = new_lo + st[3]
    carry = np.uint64(1) if s_lo < new_lo else np.uint64(0)
    st[0] = new_hi + st[2] + carry
    st[1] = s_lo


@njit(cache=True)
def pcg64_seed(entropy, st):
    """Seed ``st`` (uint64[4]) as ``numpy.random.default_rng(entropy)`` for a uint64 entropy."""
    ent = np.zeros(2, np.uint64)
    n_ent = 1
    ent[0] = entropy & _U32
    if (entropy >> _S32) > np.uint64(0):
        ent[1] = entropy >> _S32
        n_ent = 2
    h = np.uint64(INIT_A)
    pool = np.zeros(4, np.uint64)
    for i in range(4):
        v = ent[i] if i < n_ent else np.uint64(0)
        pool[i], h = _hashmix(v, h)
    for src in range(4):
        for dst in range(4):
            if src != dst:
                hv, h = _hashmix(pool[src], h)
                pool[dst] = _mix(pool[dst], hv)
    hb = np.uint64(INIT_B)
    words = np.zeros(8, np.uint64)
    for i in range(8):
        v = pool[i % 4] ^ hb
        hb = (hb * np.uint64(MULT_B)) & _U32
        v = (v * hb) & _U32
        words[i] = v ^ (v >> _S16)
    s_hi, s_lo = words[0] | (words[1] << _S32), words[2] | (words[3] << _S32)
    i_hi, i_lo = words[4] | (words[5] << _S32), words[6] | (words[7] << _S32)
    st[2] = (i_hi << np.uint64(1)) | (i_lo >> np.uint64(63))
    st[3] = (i_lo << np.uint64(1)) | np.uint64(1)
    st[0] = np.uint64(0)
    st[1] = np.uint64(0)
    _step(st)
    lo = st[1] + s_lo
    carry = np.uint64(1) if lo < st[1] else np.uint64(0)
    st[0] = st[0] + s_hi + carry
    st[1] = lo
    _step(st)


@njit(cache=True)
def pcg64_next64(st):
    """The next 64-bit output of the stream ``st`` (advanced in place)."""
    _step(st)
    x = st[0] ^ st[1]
    r = st[0] >> np.uint64(58)
    return (x >> r) | (x << ((np.uint64(64) - r) & np.uint64(63)))


@njit(cache=True)
def pcg64_random(st):
    """The next ``Generator.random()`` double of the stream ``st``: ``(next64 >> 11) * 2**-53``."""
    return float(pcg64_next64(st) >> np.uint64(11)) * _TWO53


__all__ = ["PCG64Plain", "pcg64_next64", "pcg64_random", "pcg64_seed", "seed_words"]
