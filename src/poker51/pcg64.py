"""NumPy's ``SeedSequence`` and ``PCG64`` (``default_rng``) inside Numba kernels, bit for bit,
with a plain twin in Python ints; shared by the local best response (:mod:`poker51.policies.kernels`,
the v0.5 policy's seeded completions) and the five-seat tables (:mod:`poker51.multi.krng`).

Both are reimplemented from their published algorithms and tested against NumPy itself
(``tests/test_pcg64.py``, ``tests/multi/test_kernels.py``):

``SeedSequence(entropy)`` (O'Neill's ``seed_seq`` hashing, NumPy ``bit_generator.pyx``)
    The entropy ints are split into 32-bit words (little-endian; 0 is one word ``[0]``) and
    hashed into a pool of 4 words with ``hashmix`` (``INIT_A = 0x43b0d7e5``,
    ``MULT_A = 0x931e8875``) and ``mix`` (``0xca01f9dd``, ``0x4973f715``), all modulo 2**32,
    xor-shift 16; ``generate_state`` draws words from the pool with ``INIT_B = 0x8b51f9dd``,
    ``MULT_B = 0x58f38ded``.
``PCG64`` (O'Neill's PCG XSL-RR 128/64, NumPy ``pcg64.h``)
    From ``generate_state(4, uint64)``: ``inc = (words 2-3 << 1) | 1``, ``state = 0``, step,
    ``state += words 0-1``, step; a step is ``state = state * M + inc (mod 2**128)`` with
    ``M = 0x2360ed051fc65da44385df649fccf645``.  Output: step, then
    ``rotr64(hi ^ lo, state >> 122)``; a double is ``(next64 >> 11) * 2**-53``.

The 128-bit state is a pair of uint64 words, high first; the 64 x 64 -> 128-bit product is
an LLVM ``i128`` multiply (:func:`mul128`).  Kernels take the entropy as its uint32 words
(:func:`entropy_words`) and return or keep the state ``(state hi, state lo, inc hi, inc lo)``
as a tuple (:func:`pcg64_seed`, :func:`pcg64_step`) or in a uint64[4] array
(:func:`pcg64_state`, :func:`pcg64_next64`, :func:`pcg64_random`).

>>> PCG64Plain(12345).random() == float(__import__("numpy").random.default_rng(12345).random())
True
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

_M32 = 0xFFFFFFFF
_M64 = (1 << 64) - 1
_M128 = (1 << 128) - 1
INIT_A, MULT_A, INIT_B, MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
MIX_MULT_L, MIX_MULT_R = 0xCA01F9DD, 0x4973F715
MULT_HI, MULT_LO = 0x2360ED051FC65DA4, 0x4385DF649FCCF645
_TWO53 = 1.0 / 9007199254740992.0

M32 = np.uint64(_M32)
_INIT_A, _MULT_A = np.uint64(INIT_A), np.uint64(MULT_A)
_INIT_B, _MULT_B = np.uint64(INIT_B), np.uint64(MULT_B)
_MIX_L, _MIX_R = np.uint64(MIX_MULT_L), np.uint64(MIX_MULT_R)
PCG_MULT_HI, PCG_MULT_LO = np.uint64(MULT_HI), np.uint64(MULT_LO)
TWO_M53 = _TWO53


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
def entropy_words(*values: int) -> np.ndarray:
    """uint32 words of SeedSequence entropy ``[v0, v1, ...]``: each int little-endian, at least one word."""
    out: list[int] = []
    for v in values:
        v = int(v)
        if v < 0:
            raise ValueError("SeedSequence entropy is non-negative")
        while True:
            out.append(v & 0xFFFFFFFF)
            v >>= 32
            if v == 0:
                break
    return np.array(out, np.uint64)


@intrinsic
def mul128(typingctx, a, b):
    """(low, high) 64-bit words of the 128-bit product of two uint64."""
    sig = types.UniTuple(types.uint64, 2)(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        i128 = ir.IntType(128)
        p = builder.mul(builder.zext(args[0], i128), builder.zext(args[1], i128))
        lo = builder.trunc(p, ir.IntType(64))
        hi = builder.trunc(builder.lshr(p, ir.Constant(i128, 64)), ir.IntType(64))
        return context.make_tuple(builder, sig.return_type, [lo, hi])

    return sig, codegen


@njit(cache=True, inline="always")
def _hashmix(value, hc):
    value = (value ^ hc) & M32
    hc = (hc * _MULT_A) & M32
    value = (value * hc) & M32
    value ^= value >> np.uint64(16)
    return value, hc


@njit(cache=True, inline="always")
def _mix(x, y):
    r = (_MIX_L * x - _MIX_R * y) & M32
    return r ^ (r >> np.uint64(16))


@njit(cache=True)
def seedseq_state(words, n_words, out):
    """``out[:n_words]`` = SeedSequence(entropy words).generate_state(n_words) (uint32 in uint64)."""
    pool = np.zeros(4, np.uint64)
    hc = _INIT_A
    n = words.shape[0]
    for i in range(4):
        v = words[i] if i < n else np.uint64(0)
        pool[i], hc = _hashmix(v, hc)
    for s in range(4):
        for d in range(4):
            if s != d:
                v, hc = _hashmix(pool[s], hc)
                pool[d] = _mix(pool[d], v)
    for s in range(4, n):
        for d in range(4):
            v, hc = _hashmix(words[s], hc)
            pool[d] = _mix(pool[d], v)
    hb = _INIT_B
    for i in range(n_words):
        v = (pool[i % 4] ^ hb) & M32
        hb = (hb * _MULT_B) & M32
        v = (v * hb) & M32
        out[i] = v ^ (v >> np.uint64(16))


@njit(cache=True, inline="always")
def pcg64_step(shi, slo, ihi, ilo):
    lo, hi = mul128(slo, PCG_MULT_LO)
    hi = hi + slo * PCG_MULT_HI + shi * PCG_MULT_LO
    nlo = lo + ilo
    carry = np.uint64(1) if nlo < lo else np.uint64(0)
    return hi + ihi + carry, nlo


@njit(cache=True, inline="always")
def pcg64_output(shi, slo):
    x = shi ^ slo
    rot = shi >> np.uint64(58)
    return (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63)))


@njit(cache=True)
def pcg64_seed(words):
    """(state hi, state lo, inc hi, inc lo) of ``numpy.random.PCG64(SeedSequence(entropy))``."""
    st = np.empty(8, np.uint64)
    seedseq_state(words, 8, st)
    v0 = st[0] | (st[1] << np.uint64(32))
    v1 = st[2] | (st[3] << np.uint64(32))
    v2 = st[4] | (st[5] << np.uint64(32))
    v3 = st[6] | (st[7] << np.uint64(32))
    ihi = (v2 << np.uint64(1)) | (v3 >> np.uint64(63))
    ilo = (v3 << np.uint64(1)) | np.uint64(1)
    shi, slo = pcg64_step(np.uint64(0), np.uint64(0), ihi, ilo)
    nlo = slo + v1
    carry = np.uint64(1) if nlo < slo else np.uint64(0)
    shi, slo = pcg64_step(shi + v0 + carry, nlo, ihi, ilo)
    return shi, slo, ihi, ilo


@njit(cache=True)
def pcg64_randoms(words, n, out):
    """``out[:n]`` = ``numpy.random.default_rng(SeedSequence(entropy)).random(n)`` (plain twin: NumPy)."""
    shi, slo, ihi, ilo = pcg64_seed(words)
    for i in range(n):
        shi, slo = pcg64_step(shi, slo, ihi, ilo)
        out[i] = (pcg64_output(shi, slo) >> np.uint64(11)) * TWO_M53


# --------------------------------------------------------------------------- a stream in an array
@njit(cache=True)
def pcg64_state(entropy, st):
    """Seed ``st`` (uint64[4]: state hi, state lo, inc hi, inc lo) as
    ``numpy.random.default_rng(entropy)`` for a uint64 ``entropy``."""
    words = np.zeros(2, np.uint64)
    words[0] = entropy & M32
    n = 1
    if (entropy >> np.uint64(32)) > np.uint64(0):
        words[1] = entropy >> np.uint64(32)
        n = 2
    st[0], st[1], st[2], st[3] = pcg64_seed(words[:n])


@njit(cache=True)
def pcg64_next64(st):
    """The next 64-bit output of the stream ``st`` (advanced in place)."""
    st[0], st[1] = pcg64_step(st[0], st[1], st[2], st[3])
    return pcg64_output(st[0], st[1])


@njit(cache=True)
def pcg64_random(st):
    """The next ``Generator.random()`` double of the stream ``st``: ``(next64 >> 11) * 2**-53``."""
    return float(pcg64_next64(st) >> np.uint64(11)) * TWO_M53


__all__ = [
    "PCG64Plain", "entropy_words", "mul128", "pcg64_next64", "pcg64_output", "pcg64_random", "pcg64_randoms",
    "pcg64_seed", "pcg64_state", "pcg64_step", "seed_words", "seedseq_state",
]  # fmt: skip
