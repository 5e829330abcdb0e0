"""Numba twins of the random streams the tables use: SeedSequence, PCG64, SplitMix64, FNV-1a.

Each kernel reproduces a reference bit for bit (``tests/multi/test_kernels.py``):

- :func:`seedseq_state` is ``numpy.random.SeedSequence(entropy).generate_state(n)``
  (uint32 words; entropy given as its uint32 words, see :func:`entropy_words`): the
  hash-mix of O'Neill's ``seed_seq`` as NumPy implements it (pool of 4 words, ``INIT_A =
  0x43b0d7e5``, ``MULT_A = 0x931e8875``, ``INIT_B = 0x8b51f9dd``, ``MULT_B = 0x58f38ded``,
  mix constants ``0xca01f9dd``, ``0x4973f715``, shifts of 16);
- :func:`pcg64_seed` / :func:`pcg64_next` are ``numpy.random.PCG64(seed)``: a 128-bit LCG
  (multiplier ``2549297995355413924 * 2**64 + 4865540595714422341``) with the XSL-RR
  output; state and increment from ``generate_state(4, uint64)`` (seed = words 0-1, high
  word first; increment = words 2-3, shifted left and odd), one step before and after
  adding the seed.  ``Generator.random()`` is ``(next >> 11) / 2**53``;
- :func:`splitmix64` and :func:`decision_uniform_k` are :mod:`poker51.multi.rng`'s;
- :func:`fnv1a_k` is :func:`poker51.fnv.fnv1a_64`.

The 64 x 64 -> 128-bit product is an LLVM ``i128`` multiply (:func:`mul128`), so a PCG64
step costs a few cycles as in NumPy's C code.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

M32 = np.uint64(0xFFFFFFFF)
INIT_A, MULT_A = np.uint64(0x43B0D7E5), np.uint64(0x931E8875)
INIT_B, MULT_B = np.uint64(0x8B51F9DD), np.uint64(0x58F38DED)
MIX_L, MIX_R = np.uint64(0xCA01F9DD), np.uint64(0x4973F715)
PCG_MULT_HI, PCG_MULT_LO = np.uint64(2549297995355413924), np.uint64(4865540595714422341)
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
SM1, SM2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
FNV_OFFSET, FNV_PRIME = np.uint64(0xCBF29CE484222325), np.uint64(0x100000001B3)
TWO_M53 = 1.0 / 9007199254740992.0


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
    hc = (hc * MULT_A) & M32
    value = (value * hc) & M32
    value ^= value >> np.uint64(16)
    return value, hc


@njit(cache=True, inline="always")
def _mix(x, y):
    r = (MIX_L * x - MIX_R * y) & M32
    return r ^ (r >> np.uint64(16))


@njit(cache=True)
def seedseq_state(words, n_words, out):
    """``out[:n_words]`` = SeedSequence(entropy words).generate_state(n_words) (uint32 in uint64)."""
    pool = np.zeros(4, np.uint64)
    hc = INIT_A
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
    hb = INIT_B
    for i in range(n_words):
        v = (pool[i % 4] ^ hb) & M32
        hb = (hb * MULT_B) & M32
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


@njit(cache=True, inline="always")
def splitmix64(z):
    z = (z ^ (z >> np.uint64(30))) * SM1
    z = (z ^ (z >> np.uint64(27))) * SM2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def decision_uniform_k(key, seat, k):
    """:func:`poker51.multi.rng.decision_uniform` (key a uint64)."""
    z = splitmix64(key + GOLDEN * np.uint64(64 * seat + k + 1))
    return (z >> np.uint64(11)) * TWO_M53


@njit(cache=True)
def fnv1a_k(prefix, data):
    """FNV-1a-64 of the bytes ``prefix`` then ``data`` (uint8 arrays)."""
    h = FNV_OFFSET
    for b in prefix:
        h = (h ^ np.uint64(b)) * FNV_PRIME
    for b in data:
        h = (h ^ np.uint64(b)) * FNV_PRIME
    return h


@njit(cache=True)
def hand_seed_words(base, hand, which, out):
    """``out`` (8 words) = SeedSequence([*base words, hand, which]).generate_state(8): the key of
    :func:`poker51.deal.new_seed` ``("seedsequence", entropy, key=(*table_key, hand, which))``."""
    n = base.shape[0]
    words = np.empty(n + 2, np.uint64)
    words[:n] = base
    words[n] = np.uint64(hand)
    words[n + 1] = np.uint64(which)
    seedseq_state(words, 8, out)


__all__ = [
    "decision_uniform_k", "entropy_words", "fnv1a_k", "hand_seed_words", "mul128", "pcg64_randoms", "pcg64_seed",
    "pcg64_step", "pcg64_output", "seedseq_state", "splitmix64",
]  # fmt: skip
