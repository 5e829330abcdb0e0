// "Check the deck": the commitments of poker51.table.deal recomputed in the browser.
//
// Five-seat tables publish deckCommitment(deck, salt) before the hand:
//   SHA-256 of  "poker51-deck/1\n" + the deck's card names joined by "," + "\n" + the salt in hex.
// The heads-up table and the card room publish seedCommitment(seed) = SHA-256 of the seed's 32
// bytes; the deck is shuffle(seed, cards) (heads-up: the variant's cards; the card room: all 52,
// dealt from the top in the rule book's order): Fisher-Yates from the top over the words of
// HMAC-SHA256(key = seed, msg = "poker51-deal/1" || 8-byte big-endian counter), each read as four
// big-endian 64-bit words, with rejection so that no index is biased.
//
// The hash is Web Crypto's (crypto.subtle.digest) where the browser offers it (a secure context:
// https, or http on loopback); elsewhere, and always for the HMAC stream, the small SHA-256 below
// (FIPS 180-4, written for this page).  The browser tests check that both agree with Python.

const enc = new TextEncoder();

export const hex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

export function unhex(s) {
  if (typeof s !== "string" || s.length % 2 || /[^0-9a-f]/i.test(s)) throw new Error("not a hex string");
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 of a Uint8Array, synchronously (the page's own implementation). */
export function sha256Sync(data) {
  const n = data.length;
  const padded = new Uint8Array(((n + 9 + 63) >> 6) << 6);
  padded.set(data);
  padded[n] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(n / 0x20000000));
  view.setUint32(padded.length - 4, (n << 3) >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rot = (x, r) => (x >>> r) | (x << (32 - r));
  for (let off = 0; off < padded.length; off += 64) {
    for (let t = 0; t < 16; t += 1) w[t] = view.getUint32(off + 4 * t);
    for (let t = 16; t < 64; t += 1) {
      const s0 = rot(w[t - 15], 7) ^ rot(w[t - 15], 18) ^ (w[t - 15] >>> 3);
      const s1 = rot(w[t - 2], 17) ^ rot(w[t - 2], 19) ^ (w[t - 2] >>> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    let [a, b, c, d, e, f, g, k] = h;
    for (let t = 0; t < 64; t += 1) {
      const t1 = (k + (rot(e, 6) ^ rot(e, 11) ^ rot(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) >>> 0;
      const t2 = ((rot(a, 2) ^ rot(a, 13) ^ rot(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      k = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  h.forEach((x, i) => ov.setUint32(4 * i, x));
  return out;
}

/** Whether this page can use Web Crypto's digest (secure contexts only). */
export const webCrypto = () => Boolean(globalThis.crypto && crypto.subtle && globalThis.isSecureContext);

/** {hex, by}: the SHA-256 of bytes, by "Web Crypto" when available, else by "the page's SHA-256". */
export async function sha256Hex(bytes) {
  if (webCrypto()) return { hex: hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))), by: "Web Crypto" };
  return { hex: hex(sha256Sync(bytes)), by: "the page's SHA-256" };
}

/** The canonical bytes of a five-seat deck commitment (poker51.table.deal.deck_bytes). */
export const deckBytes = (deck, saltHex) => enc.encode("poker51-deck/1\n" + deck.join(",") + "\n" + saltHex.toLowerCase());

function hmacSha256(key, msg) {
  let k = key.length > 64 ? sha256Sync(key) : key;
  const block = new Uint8Array(64);
  block.set(k);
  const inner = new Uint8Array(64 + msg.length), outer = new Uint8Array(96);
  for (let i = 0; i < 64; i += 1) { inner[i] = block[i] ^ 0x36; outer[i] = block[i] ^ 0x5c; }
  inner.set(msg, 64);
  outer.set(sha256Sync(inner), 64);
  k = sha256Sync(outer);
  return k;
}

const RANKS = "23456789TJQKA", SUITS = "cdhs";
export const cardName = (i) => RANKS[i >> 2] + SUITS[i & 3];
/** The variant's cards in ascending order (play.engine.variant_cards): 51 without 2c, or 52. */
export const variantCards = (variant) => [...Array(52).keys()].filter((c) => variant !== "standard" || c !== 0);

/** shuffle(seed, items) of poker51.table.deal: the items (any values) in the seed's order. */
export function permute(seed, items) {
  const deck = items.slice();
  const domain = enc.encode("poker51-deal/1");
  let counter = 0n, words = [];
  const next = () => {
    if (!words.length) {
      const msg = new Uint8Array(domain.length + 8);
      msg.set(domain);
      new DataView(msg.buffer).setBigUint64(domain.length, counter);
      const v = new DataView(hmacSha256(seed, msg).buffer);
      words = [0, 8, 16, 24].map((o) => v.getBigUint64(o));
      counter += 1n;
    }
    return words.shift();
  };
  const two64 = 1n << 64n;
  for (let i = deck.length - 1; i > 0; i -= 1) {
    const n = BigInt(i + 1), limit = two64 - (two64 % n);
    let x = next();
    while (x >= limit) x = next();
    const j = Number(x % n);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** shuffle(seed, cards) of poker51.table.deal, as card names. */
export const shuffle = (seed, cards) => permute(seed, cards).map(cardName);

/** Check a five-seat hand: {ok, computed, published, by}. */
export async function checkDeck(deck, saltHex, commitment) {
  const { hex: computed, by } = await sha256Hex(deckBytes(deck, saltHex));
  return { ok: computed === String(commitment).toLowerCase(), computed, published: commitment, by };
}

async function seedCheck(seedHex, commitment, cards) {
  const seed = unhex(seedHex);
  const { hex: computed, by } = await sha256Hex(seed);
  return { ok: computed === String(commitment).toLowerCase(), computed, published: commitment, by,
           deck: shuffle(seed, cards) };
}

/** Check a heads-up hand: the seed's hash against the commitment, and the deck the seed deals. */
export const checkSeed = (seedHex, commitment, variant) => seedCheck(seedHex, commitment, variantCards(variant));

/** Check a card-room hand (the rule book's deck, poker51.rulebook.log: shuffle(seed, range(52))):
 * the seed's hash against the commitment, and the 52-card deck the seed deals. */
export const checkBookSeed = (seedHex, commitment) => seedCheck(seedHex, commitment, [...Array(52).keys()]);
