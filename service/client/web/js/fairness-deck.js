/**
 * The deck of docs/fairness.md, built a second time for the browser: hex and bytes, the deck
 * key, the HMAC-SHA256 word stream, uniform integers, the shuffle, the deal and the draws.
 * fairness.js checks a proof record with it, fairness-vectors.js the published vectors.
 *
 * It is written from the document, not from the service's Python code, and is tested
 * against the same vectors (docs/fairness/vectors.json), so the two implementations check
 * each other. It uses nothing but the browser's Web Crypto API (SHA-256 and HMAC-SHA256),
 * which browsers only offer in a secure context (https, or http from localhost).
 *
 * Every function that needs cryptography is async, because Web Crypto is.
 */

/** The proof record's version (docs/fairness.md §8). */
export const PROOF_FORMAT = "russian-poker/round-proof/v1";

/** The vector file's version (docs/fairness.md §9). */
export const VECTORS_FORMAT = "russian-poker/fairness-vectors/v1";

/** The deck key's domain tag (docs/fairness.md §3): 21 bytes of ASCII. */
export const DECK_DOMAIN = "russian-poker/deck/v1";

/** Bytes in a server seed. */
export const SEED_BYTES = 32;

const SUITS = ["s", "h", "d", "c"];
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];

/** The unshuffled deck, positions 0..51: suits s h d c, ranks 2..A within each suit. */
export const UNSHUFFLED_DECK = Object.freeze(
  SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit)),
);

const TWO_TO_32 = 2 ** 32;

// ---------------------------------------------------------------------------------------
// Bytes and hex

/**
 * The Web Crypto API, or a clear error when the page cannot have it.
 * @returns {SubtleCrypto}
 */
function subtle() {
  const api = globalThis.crypto && globalThis.crypto.subtle;
  if (!api) {
    throw new Error(
      "fairness check: the Web Crypto API (crypto.subtle) is missing; browsers only provide " +
        "it in a secure context, so open the page over https or from localhost",
    );
  }
  return api;
}

/**
 * Bytes as lowercase hex.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Hex (either case) as bytes; throws on anything that is not an even number of hexdigits.
 * @param {string} hex
 * @returns {Uint8Array}
 */
export function fromHex(hex) {
  if (typeof hex !== "string" || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new Error("not hex: expected an even number of hexadecimal digits");
  }
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) {
    bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  }
  return bytes;
}

/**
 * The ASCII bytes of a string whose characters are all below 0x80.
 * @param {string} text
 * @returns {Uint8Array}
 */
function asciiBytes(text) {
  return Uint8Array.from(text, (ch) => ch.charCodeAt(0));
}

/**
 * SHA-256 of some bytes.
 * @param {Uint8Array} bytes
 * @returns {Promise<Uint8Array>}
 */
export async function sha256(bytes) {
  return new Uint8Array(await subtle().digest("SHA-256", bytes));
}

/**
 * An HMAC-SHA256 key for Web Crypto.
 * @param {Uint8Array} key
 * @returns {Promise<CryptoKey>}
 */
function hmacKey(key) {
  return subtle().importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/**
 * HMAC-SHA256(key, message).
 * @param {Uint8Array|CryptoKey} key
 * @param {Uint8Array} message
 * @returns {Promise<Uint8Array>}
 */
export async function hmacSha256(key, message) {
  const cryptoKey = key instanceof Uint8Array ? await hmacKey(key) : key;
  return new Uint8Array(await subtle().sign("HMAC", cryptoKey, message));
}

// ---------------------------------------------------------------------------------------
// §1 and §3: the commitment and the deck key

/**
 * Whether SHA-256 of the server seed is the commitment (both hex, either case).
 * @param {string} seedHex the revealed server seed
 * @param {string} commitmentHex the commitment published when the round opened
 * @returns {Promise<boolean>}
 */
export async function commitmentMatches(seedHex, commitmentHex) {
  const digest = toHex(await sha256(fromHex(seedHex)));
  return digest === String(commitmentHex).toLowerCase();
}

/**
 * Why a client seed is not a valid one (docs/fairness.md §2), or null if it is.
 * @param {unknown} seed
 * @returns {string|null}
 */
export function clientSeedProblem(seed) {
  if (typeof seed !== "string") {
    return "not a string";
  }
  if (seed.length < 1 || seed.length > 64) {
    return `${seed.length} characters, not 1 to 64`;
  }
  for (const ch of seed) {
    const code = ch.codePointAt(0);
    if (code < 0x20 || code > 0x7e) {
      return `character U+${code.toString(16).padStart(4, "0")} is not printable ASCII`;
    }
  }
  return null;
}

/**
 * The boxes that carry a client seed, in increasing box number.
 * @param {{box: number, seed?: string|null, client_seed?: string|null}[]} clientSeeds
 * @returns {{box: number, seed: string}[]}
 */
export function seededBoxes(clientSeeds) {
  const seeded = clientSeeds
    .map((entry) => ({ box: entry.box, seed: entry.seed ?? entry.client_seed ?? null }))
    .filter((entry) => entry.seed !== null);
  seeded.sort((a, b) => a.box - b.box);
  return seeded;
}

/**
 * The HMAC message of the deck key, or null when no box has a client seed (§3).
 * Accepts entries as `{box, seed}` or `{box, client_seed}`; entries without a seed are
 * skipped. Throws on an invalid seed, a box outside 1..10 or a box named twice.
 * @param {{box: number, seed?: string|null, client_seed?: string|null}[]} clientSeeds
 * @returns {Uint8Array|null}
 */
export function deckKeyMessage(clientSeeds) {
  const seeded = seededBoxes(clientSeeds);
  if (seeded.length === 0) {
    return null;
  }
  const parts = [...asciiBytes(DECK_DOMAIN)];
  let previous = 0;
  for (const { box, seed } of seeded) {
    if (!Number.isInteger(box) || box < 1 || box > 10) {
      throw new Error(`box ${box}: a box number is 1 to 10`);
    }
    if (box === previous) {
      throw new Error(`box ${box} has two client seeds`);
    }
    const problem = clientSeedProblem(seed);
    if (problem !== null) {
      throw new Error(`box ${box} client seed: ${problem}`);
    }
    parts.push(box, seed.length, ...asciiBytes(seed));
    previous = box;
  }
  return Uint8Array.from(parts);
}

/**
 * The deck key (§3): the server seed itself when no box has a client seed, else
 * HMAC-SHA256(server seed, message).
 * @param {Uint8Array} serverSeed 32 bytes
 * @param {{box: number, seed?: string|null, client_seed?: string|null}[]} clientSeeds
 * @returns {Promise<Uint8Array>}
 */
export async function deckKey(serverSeed, clientSeeds) {
  const message = deckKeyMessage(clientSeeds);
  if (message === null) {
    return Uint8Array.from(serverSeed);
  }
  return hmacSha256(serverSeed, message);
}

// ---------------------------------------------------------------------------------------
// §4: the stream, below(n) and the shuffle

/**
 * The key's stream of 32-bit words (§4), read from a cursor that only grows.
 * Block b is HMAC-SHA256(key, b as 8 bytes big-endian); word i is bytes 4(i mod 8)..+3
 * of block floor(i / 8), big-endian.
 */
export class WordStream {
  /**
   * @param {Uint8Array} key the deck key (or the server seed)
   * @param {number} [cursor] words already read
   */
  constructor(key, cursor = 0) {
    this.key = Uint8Array.from(key);
    this.cursor = cursor;
    /** @type {Map<number, Uint8Array>} */
    this.blocks = new Map();
    /** @type {Promise<CryptoKey>|null} */
    this.cryptoKey = null;
  }

  /**
   * Block `b` of the stream, computed once.
   * @param {number} b
   * @returns {Promise<Uint8Array>}
   */
  async block(b) {
    if (!this.blocks.has(b)) {
      if (this.cryptoKey === null) {
        this.cryptoKey = hmacKey(this.key);
      }
      const counter = new Uint8Array(8);
      new DataView(counter.buffer).setBigUint64(0, BigInt(b), false);
      this.blocks.set(b, await hmacSha256(await this.cryptoKey, counter));
    }
    return this.blocks.get(b);
  }

  /**
   * Word `i` of the stream, without moving the cursor.
   * @param {number} i
   * @returns {Promise<number>}
   */
  async word(i) {
    const block = await this.block(Math.floor(i / 8));
    const offset = 4 * (i % 8);
    return new DataView(block.buffer, block.byteOffset).getUint32(offset, false);
  }

  /**
   * The next word; the cursor moves past it.
   * @returns {Promise<number>}
   */
  async next() {
    const value = await this.word(this.cursor);
    this.cursor += 1;
    return value;
  }

  /**
   * A uniform integer in [0, n): rejects words at or above 2^32 - (2^32 mod n).
   * @param {number} n
   * @returns {Promise<number>}
   */
  async below(n) {
    if (!Number.isInteger(n) || n < 1 || n > TWO_TO_32) {
      throw new Error(`below(${n}): n must be an integer from 1 to 2^32`);
    }
    const limit = TWO_TO_32 - (TWO_TO_32 % n);
    for (;;) {
      const w = await this.next();
      if (w < limit) {
        return w % n;
      }
    }
  }
}

/**
 * The first `count` words of a key's stream.
 * @param {Uint8Array} key
 * @param {number} count
 * @returns {Promise<number[]>}
 */
export async function streamWords(key, count) {
  const stream = new WordStream(key);
  const words = [];
  for (let i = 0; i < count; i += 1) {
    words.push(await stream.next());
  }
  return words;
}

/**
 * The deck at the deal (§4): the unshuffled deck shuffled by Fisher–Yates, i from 51 down
 * to 1, j = below(i + 1). Returns the deck (top first), the cursor after the shuffle, and
 * the stream, which the round's later draws continue.
 * @param {Uint8Array} key the deck key
 * @returns {Promise<{deck: string[], cursor: number, stream: WordStream}>}
 */
export async function shuffledDeck(key) {
  const stream = new WordStream(key);
  const cards = [...UNSHUFFLED_DECK];
  for (let i = cards.length - 1; i >= 1; i -= 1) {
    const j = await stream.below(i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return { deck: cards, cursor: stream.cursor, stream };
}

// ---------------------------------------------------------------------------------------
// §5 and §6: the deal and the draws

/**
 * The play order (§5): larger ante first, equal antes in box-number order.
 * @param {{box: number, ante: number}[]} boxes
 * @returns {number[]}
 */
export function playOrder(boxes) {
  return [...boxes].sort((a, b) => b.ante - a.ante || a.box - b.box).map((b) => b.box);
}

/**
 * The deal (§5): card k of the deck goes to seat k mod (n + 1), the dealer's seat last.
 * @param {string[]} deck the deck at the deal, top first
 * @param {number[]} order the boxes in play order
 * @returns {{hands: {box: number, cards: string[]}[], dealer: string[], undealt: string[]}}
 */
export function deal(deck, order) {
  const seats = order.length + 1;
  const dealtCount = 5 * seats;
  if (deck.length < dealtCount) {
    throw new Error(`${order.length} boxes need ${dealtCount} cards, the deck has ${deck.length}`);
  }
  const bySeat = Array.from({ length: seats }, () => []);
  for (let k = 0; k < dealtCount; k += 1) {
    bySeat[k % seats].push(deck[k]);
  }
  return {
    hands: order.map((box, seat) => ({ box, cards: bySeat[seat] })),
    dealer: bySeat[seats - 1],
    undealt: deck.slice(dealtCount),
  };
}

/**
 * Put each discard back into the undealt deck, in turn, at p = below(L + 1), L being the
 * deck's length just before it goes in (§6; 0 is the top). Changes `undealt` in place.
 * @param {string[]} undealt the undealt deck, top first
 * @param {string[]} discards in the order they go back
 * @param {WordStream} stream the round's stream, at its cursor
 * @returns {Promise<number[]>} the positions drawn
 */
export async function reinsert(undealt, discards, stream) {
  const positions = [];
  for (const card of discards) {
    const position = await stream.below(undealt.length + 1);
    undealt.splice(position, 0, card);
    positions.push(position);
  }
  return positions;
}

/**
 * Take the top `count` cards off the undealt deck (changes it in place).
 * @param {string[]} undealt
 * @param {number} count
 * @returns {string[]}
 */
export function drawTop(undealt, count) {
  if (count > undealt.length) {
    throw new Error(`cannot draw ${count} cards from ${undealt.length}`);
  }
  return undealt.splice(0, count);
}

/**
 * The rank of a card, 0 (a two) to 12 (an ace).
 * @param {string} card
 * @returns {number}
 */
export function rankOf(card) {
  return RANKS.indexOf(card[0]);
}

/**
 * The dealer's highest card: the first of the highest rank, in hand order (§6).
 * @param {string[]} hand
 * @returns {string}
 */
export function highestCard(hand) {
  return hand.reduce((best, card) => (rankOf(card) > rankOf(best) ? card : best));
}
