"""Numba twin of the committed deal (:func:`poker51.table.deal.shuffle`): HMAC-SHA256 counter stream
and Fisher-Yates with rejection, bit for bit.

The stream is ``HMAC-SHA256(key=seed, msg=b"poker51-deal/1" || counter)`` (8-byte big-endian
counter) read as big-endian 64-bit words; Fisher-Yates from the top draws ``j`` in ``0..i``
from a word ``x`` only when ``x < 2**64 - 2**64 mod (i+1)``.  SHA-256 is FIPS 180-4; the
HMAC key (32 bytes) fits one block, so its inner and outer states are computed once per
deck and each stream block costs two compressions.  :func:`shuffle_kernel` takes the seed
as the 8 little-endian uint32 words that :func:`poker51.table.deal.new_seed` turns into bytes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

K256 = np.array([
    0x428A2F98, 0x71374491, 0xB5C0FBCF, 0xE9B5DBA5, 0x3956C25B, 0x59F111F1, 0x923F82A4, 0xAB1C5ED5,
    0xD807AA98, 0x12835B01, 0x243185BE, 0x550C7DC3, 0x72BE5D74, 0x80DEB1FE, 0x9BDC06A7, 0xC19BF174,
    0xE49B69C1, 0xEFBE4786, 0x0FC19DC6, 0x240CA1CC, 0x2DE92C6F, 0x4A7484AA, 0x5CB0A9DC, 0x76F988DA,
    0x983E5152, 0xA831C66D, 0xB00327C8, 0xBF597FC7, 0xC6E00BF3, 0xD5A79147, 0x06CA6351, 0x14292967,
    0x27B70A85, 0x2E1B2138, 0x4D2C6DFC, 0x53380D13, 0x650A7354, 0x766A0ABB, 0x81C2C92E, 0x92722C85,
    0xA2BFE8A1, 0xA81A664B, 0xC24B8B70, 0xC76C51A3, 0xD192E819, 0xD6990624, 0xF40E3585, 0x106AA070,
    0x19A4C116, 0x1E376C08, 0x2748774C, 0x34B0BCB5, 0x391C0CB3, 0x4ED8AA4A, 0x5B9CCA4F, 0x682E6FF3,
    0x748F82EE, 0x78A5636F, 0x84C87814, 0x8CC70208, 0x90BEFFFA, 0xA4506CEB, 0xBEF9A3F7, 0xC67178F2,
], np.uint32)  # fmt: skip
H256 = np.array([0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19],
                np.uint32)  # fmt: skip
DOMAIN = np.frombuffer(b"poker51-deal/1", np.uint8).copy()
U64_MAX = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True, inline="always")
def _rotr(x, n):
    return (x >> np.uint32(n)) | (x << np.uint32(32 - n))


@njit(cache=True)
def sha256_compress(state, block, w):
    """One SHA-256 compression of the 16 big-endian words ``block`` into ``state`` (8 words)."""
    for i in range(16):
        w[i] = block[i]
    for i in range(16, 64):
        x, y = w[i - 15], w[i - 2]
        s0 = _rotr(x, 7) ^ _rotr(x, 18) ^ (x >> np.uint32(3))
        s1 = _rotr(y, 17) ^ _rotr(y, 19) ^ (y >> np.uint32(10))
        w[i] = np.uint32(w[i - 16] + s0 + w[i - 7] + s1)
    a, b, c, d, e, f, g, h = state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
    for i in range(64):
        t1 = np.uint32(h + (_rotr(e, 6) ^ _rotr(e, 11) ^ _rotr(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i])
        t2 = np.uint32((_rotr(a, 2) ^ _rotr(a, 13) ^ _rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c)))
        h, g, f, e, d, c, b, a = g, f, e, np.uint32(d + t1), c, b, a, np.uint32(t1 + t2)
    state[0] += a
    state[1] += b
    state[2] += c
    state[3] += d
    state[4] += e
    state[5] += f
    state[6] += g
    state[7] += h


@njit(cache=True)
def _hmac_block(ist, ost, counter, blk, w, st, out):
    """The four 64-bit words of HMAC block ``counter`` into ``out``."""
    # message block: DOMAIN (14 bytes) || counter (8 bytes) || 0x80 || zeros || bit length (64 + 22) * 8
    for i in range(16):
        blk[i] = 0
    for i in range(14):
        blk[i >> 2] |= np.uint32(DOMAIN[i]) << np.uint32(24 - 8 * (i & 3))
    for j in range(8):
        i = 14 + j
        byte = (counter >> (8 * (7 - j))) & 0xFF
        blk[i >> 2] |= np.uint32(byte) << np.uint32(24 - 8 * (i & 3))
    blk[22 >> 2] |= np.uint32(0x80) << np.uint32(24 - 8 * (22 & 3))
    blk[15] = np.uint32((64 + 22) * 8)
    st[:] = ist
    sha256_compress(st, blk, w)
    for i in range(8):
        blk[i] = st[i]
    blk[8] = np.uint32(0x80000000)
    for i in range(9, 15):
        blk[i] = 0
    blk[15] = np.uint32((64 + 32) * 8)
    st[:] = ost
    sha256_compress(st, blk, w)
    for k in range(4):
        out[k] = (np.uint64(st[2 * k]) << np.uint64(32)) | np.uint64(st[2 * k + 1])


@njit(cache=True)
def shuffle_kernel(seed_words, cards, deck):
    """``deck[:] = poker51.table.deal.shuffle(seed bytes, cards)``; ``seed_words`` the 8 uint32 words
    whose little-endian bytes are the seed."""
    w = np.empty(64, np.uint32)
    blk = np.empty(16, np.uint32)
    st = np.empty(8, np.uint32)
    ist = H256.copy()
    ost = H256.copy()
    for i in range(8):  # key bytes: words little-endian; SHA words big-endian
        v = np.uint32(seed_words[i])
        blk[i] = ((v & np.uint32(0xFF)) << np.uint32(24)) | ((v & np.uint32(0xFF00)) << np.uint32(8)) | (
            (v >> np.uint32(8)) & np.uint32(0xFF00)) | (v >> np.uint32(24))  # fmt: skip
    for i in range(8, 16):
        blk[i] = 0
    for i in range(16):
        blk[i] ^= np.uint32(0x36363636)
    sha256_compress(ist, blk, w)
    for i in range(16):
        blk[i] ^= np.uint32(0x36363636 ^ 0x5C5C5C5C)
    sha256_compress(ost, blk, w)
    n = cards.shape[0]
    for i in range(n):
        deck[i] = cards[i]
    words = np.empty(4, np.uint64)
    counter = 0
    k = 4
    for i in range(n - 1, 0, -1):
        m = np.uint64(i + 1)
        limit = U64_MAX - ((U64_MAX % m) + np.uint64(1)) % m  # 2**64 - 2**64 mod m, minus 1
        while True:
            if k == 4:
                _hmac_block(ist, ost, counter, blk, w, st, words)
                counter += 1
                k = 0
            x = words[k]
            k += 1
            if x <= limit:
                break
        j = x % m
        deck[i], deck[j] = deck[j], deck[i]


__all__ = ["sha256_compress", "shuffle_kernel"]
