/**
 * Checking a round's fairness in the browser: docs/fairness.md, implemented a second time.
 *
 * This module re-derives a round's deck from its revealed server seed and its players'
 * client seeds, then plays the recorded round through that deck and compares every card.
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
function seededBoxes(clientSeeds) {
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
function rankOf(card) {
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

// ---------------------------------------------------------------------------------------
// Comparing cards

/**
 * The first difference between recorded and derived cards, as a message, or null.
 * @param {string} where e.g. "box 2" or "dealer"
 * @param {string} verb what happened to the recorded cards, e.g. "dealt" or "received"
 * @param {string[]} recorded
 * @param {string[]} derived
 * @returns {string|null}
 */
function firstDifference(where, verb, recorded, derived) {
  const count = Math.min(recorded.length, derived.length);
  for (let i = 0; i < count; i += 1) {
    if (recorded[i] !== derived[i]) {
      const card = recorded.length === 1 && derived.length === 1 ? "" : ` card ${i + 1}`;
      return `${where}${card}: ${verb} ${recorded[i]}, derived ${derived[i]}`;
    }
  }
  if (recorded.length !== derived.length) {
    return `${where}: ${recorded.length} card(s) ${verb}, ${derived.length} derived`;
  }
  return null;
}

/**
 * The first difference between two lists of numbers, as a message, or null.
 * @param {string} what e.g. "stream word"
 * @param {number[]} recorded
 * @param {number[]} derived
 * @returns {string|null}
 */
function firstNumberDifference(what, recorded, derived) {
  const count = Math.min(recorded.length, derived.length);
  for (let i = 0; i < count; i += 1) {
    if (recorded[i] !== derived[i]) {
      return `${what} ${i + 1}: recorded ${recorded[i]}, derived ${derived[i]}`;
    }
  }
  if (recorded.length !== derived.length) {
    return `${what}s: ${recorded.length} recorded, ${derived.length} derived`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------
// Test vectors (docs/fairness/vectors.json)

/**
 * Check one vector of docs/fairness/vectors.json: every field it has, derived from its
 * server seed and boxes alone.
 * @param {object} vector one entry of the file's `vectors`
 * @returns {Promise<{ok: boolean, mismatches: string[]}>}
 */
export async function checkVector(vector) {
  const mismatches = [];
  const note = (message) => {
    if (message !== null) {
      mismatches.push(message);
    }
  };
  const seed = fromHex(vector.server_seed);
  if (seed.length !== SEED_BYTES) {
    note(`server_seed: ${seed.length} bytes, not ${SEED_BYTES}`);
  }
  const commitment = toHex(await sha256(seed));
  if (commitment !== vector.commitment) {
    note(`commitment: recorded ${vector.commitment}, derived ${commitment}`);
  }

  const message = deckKeyMessage(vector.boxes);
  const messageHex = message === null ? null : toHex(message);
  if (messageHex !== vector.deck_key_message) {
    note(`deck_key_message: recorded ${vector.deck_key_message}, derived ${messageHex}`);
  }
  const key = await deckKey(seed, vector.boxes);
  if (toHex(key) !== vector.deck_key) {
    note(`deck_key: recorded ${vector.deck_key}, derived ${toHex(key)}`);
  }
  note(
    firstNumberDifference(
      "stream word",
      vector.stream_words,
      await streamWords(key, vector.stream_words.length),
    ),
  );

  const { deck, cursor, stream } = await shuffledDeck(key);
  if (cursor !== vector.cursor_after_shuffle) {
    note(`cursor_after_shuffle: recorded ${vector.cursor_after_shuffle}, derived ${cursor}`);
  }
  note(firstDifference("deck", "recorded", vector.deck, deck));

  const order = playOrder(vector.boxes);
  note(firstNumberDifference("play order box", vector.deal.order, order));
  const dealt = deal(deck, order);
  checkHands(vector.deal.hands, dealt.hands, note);
  note(firstDifference("dealer", "dealt", vector.deal.dealer, dealt.dealer));

  await checkVectorExchange(vector.exchange, dealt, stream, note);
  return { ok: mismatches.length === 0, mismatches };
}

/**
 * Compare recorded hands with derived ones, box by box, in play order.
 * @param {{box: number, cards: string[]}[]} recorded
 * @param {{box: number, cards: string[]}[]} derived
 * @param {(message: string|null) => void} note
 */
function checkHands(recorded, derived, note) {
  note(
    firstNumberDifference(
      "hand box",
      recorded.map((h) => h.box),
      derived.map((h) => h.box),
    ),
  );
  for (const hand of recorded) {
    const mine = derived.find((h) => h.box === hand.box);
    if (mine !== undefined) {
      note(firstDifference(`box ${hand.box}`, "dealt", hand.cards, mine.cards));
    }
  }
}

/**
 * A vector's exchange: the first box in play order gives back its first two dealt cards.
 * @param {object} exchange the vector's `exchange`
 * @param {{hands: {box: number, cards: string[]}[], undealt: string[]}} dealt
 * @param {WordStream} stream at the shuffle's cursor
 * @param {(message: string|null) => void} note
 */
async function checkVectorExchange(exchange, dealt, stream, note) {
  const first = dealt.hands[0];
  if (exchange.box !== first.box) {
    note(`exchange box: recorded ${exchange.box}, derived ${first.box}`);
  }
  const discards = first.cards.slice(0, 2);
  note(firstDifference("exchange discards", "recorded", exchange.discards, discards));
  const undealt = [...dealt.undealt];
  note(firstDifference("exchange undealt_before", "recorded", exchange.undealt_before, undealt));
  const positions = await reinsert(undealt, discards, stream);
  note(firstNumberDifference("exchange position", exchange.positions, positions));
  note(
    firstDifference(
      "exchange undealt_after_reinsertion",
      "recorded",
      exchange.undealt_after_reinsertion,
      undealt,
    ),
  );
  const received = drawTop(undealt, discards.length);
  note(firstDifference("exchange", "received", exchange.received, received));
  if (stream.cursor !== exchange.cursor_after) {
    note(`exchange cursor_after: recorded ${exchange.cursor_after}, derived ${stream.cursor}`);
  }
}

/**
 * Check a whole vector file: its format, unshuffled deck, domain tag and every vector.
 * @param {object} file the parsed docs/fairness/vectors.json
 * @returns {Promise<{ok: boolean, mismatches: string[]}>} mismatches prefixed by vector name
 */
export async function checkVectorFile(file) {
  const mismatches = [];
  if (file.format !== VECTORS_FORMAT) {
    mismatches.push(`format: ${file.format} is not ${VECTORS_FORMAT}`);
  }
  if (file.deck_domain !== DECK_DOMAIN) {
    mismatches.push(`deck_domain: recorded ${file.deck_domain}, this module uses ${DECK_DOMAIN}`);
  }
  const unshuffled = firstDifference(
    "unshuffled_deck",
    "recorded",
    file.unshuffled_deck,
    UNSHUFFLED_DECK,
  );
  if (unshuffled !== null) {
    mismatches.push(unshuffled);
  }
  for (const vector of file.vectors) {
    const result = await checkVector(vector);
    mismatches.push(...result.mismatches.map((m) => `${vector.name}: ${m}`));
  }
  return { ok: mismatches.length === 0, mismatches };
}

// ---------------------------------------------------------------------------------------
// Proof records (GET /v1/tables/{id}/rounds/{n}/proof)

/** A card that does not match: stops the check of the round's cards. */
class Mismatch extends Error {}

/**
 * The verdict under construction: every step's outcome, in order.
 */
class Verdict {
  constructor() {
    this.ok = true;
    this.verifiable = true;
    this.commitment_ok = false;
    /** @type {{step: string, ok: boolean, detail: string}[]} */
    this.checks = [];
    /** @type {string|null} */
    this.first_mismatch = null;
    /** @type {string|null} */
    this.deck_key = null;
    /** @type {string[]} */
    this.deck = [];
    this.cards_checked = 0;
  }

  /**
   * A step that passed.
   * @param {string} step
   * @param {string} detail
   */
  pass(step, detail) {
    this.checks.push({ step, ok: true, detail });
  }

  /**
   * A step that failed: the verdict is not ok, and the first failure is kept.
   * @param {string} step
   * @param {string} detail
   */
  fail(step, detail) {
    this.ok = false;
    this.checks.push({ step, ok: false, detail });
    if (this.first_mismatch === null) {
      this.first_mismatch = detail;
    }
  }

  /** The plain object the caller gets. */
  result() {
    return {
      ok: this.ok,
      verifiable: this.verifiable,
      commitment_ok: this.commitment_ok,
      checks: this.checks,
      first_mismatch: this.first_mismatch,
      deck_key: this.deck_key,
      deck: this.deck,
      cards_checked: this.cards_checked,
    };
  }
}

/**
 * Check a settled round's proof record end to end (docs/fairness.md §8): the server seed
 * and the commitment, the client seeds, the deck key and the deck, the play order, every
 * dealt card, every draw in the order made (discards put back first when the rule says so)
 * and every dealer replacement. The cards are checked even when the commitment fails, so
 * the verdict shows both; they stop at the first card that differs, which is named.
 *
 * A deck stacked in test mode is not ordered by the seeds: such a round comes out
 * `ok: false, verifiable: false`, with the reason.
 *
 * @param {object} proof the record's JSON
 * @returns {Promise<{ok: boolean, verifiable: boolean, commitment_ok: boolean,
 *   checks: {step: string, ok: boolean, detail: string}[], first_mismatch: string|null,
 *   deck_key: string|null, deck: string[], cards_checked: number}>}
 */
export async function verifyProof(proof) {
  const verdict = new Verdict();
  if (proof === null || typeof proof !== "object") {
    verdict.verifiable = false;
    verdict.fail("format", "the proof is not a JSON object");
    return verdict.result();
  }
  if (proof.format !== PROOF_FORMAT) {
    verdict.verifiable = false;
    verdict.fail("format", `format ${JSON.stringify(proof.format)} is not ${PROOF_FORMAT}`);
    return verdict.result();
  }
  const seed = await checkCommitment(proof, verdict);
  if (seed === null) {
    return verdict.result();
  }
  if (proof.stacked_deck !== null && proof.stacked_deck !== undefined) {
    verdict.verifiable = false;
    verdict.fail(
      "deck",
      "not verifiable: the deck was stacked in test mode (a scripted order), so the seeds " +
        "do not order it",
    );
    return verdict.result();
  }
  const boxes = Array.isArray(proof.boxes) ? proof.boxes : [];
  for (const box of boxes) {
    if (box.client_seed !== null && box.client_seed !== undefined) {
      const problem = clientSeedProblem(box.client_seed);
      if (problem !== null) {
        verdict.fail("client seeds", `box ${box.box} client seed: ${problem}`);
        return verdict.result();
      }
    }
  }
  let key;
  try {
    key = await deckKey(seed, boxes);
  } catch (error) {
    verdict.fail("client seeds", `client seeds: ${error.message}`);
    return verdict.result();
  }
  verdict.deck_key = toHex(key);
  const seeded = seededBoxes(boxes).map((b) => `box ${b.box}`);
  verdict.pass(
    "deck key",
    `deck key ${verdict.deck_key} (client seeds: ${seeded.join(", ") || "none"})`,
  );
  const { deck, stream } = await shuffledDeck(key);
  verdict.deck = deck;
  try {
    await playRound(proof, boxes, deck, stream, verdict);
  } catch (error) {
    // A record missing a field (cards not a list, say) is reported, not thrown.
    const malformed = !(error instanceof Mismatch);
    verdict.fail("cards", malformed ? `malformed record: ${error.message}` : error.message);
    return verdict.result();
  }
  if (verdict.ok) {
    verdict.pass(
      "verified",
      `VERIFIED: round ${proof.table_id}:${proof.round}, ${verdict.cards_checked} card(s) ` +
        "match the deck the seeds make",
    );
  }
  return verdict.result();
}

/**
 * The server seed's bytes, after checking it is 32 bytes of hex and hashes to the
 * commitment (a failed commitment is recorded, and the seed still returned). Null when the
 * seed cannot be read at all.
 * @param {object} proof
 * @param {Verdict} verdict
 * @returns {Promise<Uint8Array|null>}
 */
async function checkCommitment(proof, verdict) {
  let seed;
  try {
    seed = fromHex(proof.server_seed);
  } catch {
    verdict.verifiable = false;
    verdict.fail("server seed", "server_seed is not hex");
    return null;
  }
  if (seed.length !== SEED_BYTES) {
    verdict.verifiable = false;
    verdict.fail("server seed", `server_seed is ${seed.length} bytes, not ${SEED_BYTES}`);
    return null;
  }
  const digest = toHex(await sha256(seed));
  const committed = String(proof.commitment).toLowerCase();
  verdict.commitment_ok = digest === committed;
  if (verdict.commitment_ok) {
    verdict.pass("commitment", `commitment ${committed} = SHA-256(server seed): ok`);
  } else {
    verdict.fail(
      "commitment",
      `commitment: SHA-256 of the server seed is ${digest}, the round committed to ${committed}`,
    );
  }
  return seed;
}

/**
 * Throw a Mismatch if the recorded cards differ from the derived ones; count them if not.
 * @param {Verdict} verdict
 * @param {string} where
 * @param {string} verb
 * @param {string[]} recorded
 * @param {string[]} derived
 */
function compareCards(verdict, where, verb, recorded, derived) {
  const difference = firstDifference(where, verb, recorded, derived);
  if (difference !== null) {
    throw new Mismatch(difference);
  }
  verdict.cards_checked += derived.length;
}

/**
 * Play the recorded round through the derived deck: the deal, the draws, the dealer draw.
 * @param {object} proof
 * @param {{box: number, ante: number}[]} boxes
 * @param {string[]} deck the deck at the deal
 * @param {WordStream} stream at the shuffle's cursor
 * @param {Verdict} verdict
 */
async function playRound(proof, boxes, deck, stream, verdict) {
  const recordedHands = Array.isArray(proof.dealt) ? proof.dealt : [];
  if (recordedHands.length === 0) {
    verdict.pass("deal", "no deal: nothing but the commitment to check");
    return;
  }
  const order = playOrder(boxes);
  const recordedOrder = recordedHands.map((h) => h.box);
  if (recordedOrder.join(",") !== order.join(",")) {
    throw new Mismatch(
      `deal order: boxes ${order.join(", ")} by ante and box number, recorded ` +
        recordedOrder.join(", "),
    );
  }
  const dealt = deal(deck, order);
  for (const [seat, hand] of recordedHands.entries()) {
    compareCards(verdict, `box ${hand.box}`, "dealt", hand.cards, dealt.hands[seat].cards);
  }
  compareCards(verdict, "dealer", "dealt", proof.dealer ?? [], dealt.dealer);
  const dealtCount = 5 * (order.length + 1);
  verdict.pass("deal", `deal: ${dealtCount} cards to ${order.length} box(es) and the dealer: ok`);

  const held = new Map(dealt.hands.map((h) => [h.box, [...h.cards]]));
  const undealt = dealt.undealt;
  for (const draw of proof.draws ?? []) {
    await checkDraw(proof, draw, held, undealt, stream, verdict);
  }
  checkDealerDraw(proof.dealer_replacements ?? [], dealt.dealer, undealt, verdict);
}

/**
 * One box's draw: a sixth card, or an exchange (discards back into the deck first when
 * `discards_return_to_deck` is on).
 * @param {object} proof
 * @param {{box: number, kind: string, discarded: string[], received: string[]}} draw
 * @param {Map<number, string[]>} held the cards each box has had, dealt or drawn
 * @param {string[]} undealt
 * @param {WordStream} stream
 * @param {Verdict} verdict
 */
async function checkDraw(proof, draw, held, undealt, stream, verdict) {
  const cards = held.get(draw.box);
  if (cards === undefined) {
    throw new Mismatch(`box ${draw.box} draws, but was not dealt`);
  }
  const discarded = draw.discarded ?? [];
  const recorded = draw.received ?? [];
  let what;
  if (draw.kind === "sixth_card") {
    what = "sixth card";
    if (discarded.length !== 0 || recorded.length !== 1) {
      throw new Mismatch(`box ${draw.box} sixth card: one card received and none given back`);
    }
  } else if (draw.kind === "exchange") {
    what = "exchange";
    for (const card of discarded) {
      if (!cards.includes(card)) {
        throw new Mismatch(`box ${draw.box} exchange: gives back ${card}, which it never held`);
      }
    }
    if (recorded.length !== discarded.length) {
      throw new Mismatch(
        `box ${draw.box} exchange: ${discarded.length} card(s) given back, ` +
          `${recorded.length} received`,
      );
    }
    if (proof.discards_return_to_deck) {
      await reinsert(undealt, discarded, stream);
    }
  } else {
    throw new Mismatch(`box ${draw.box}: unknown draw kind ${JSON.stringify(draw.kind)}`);
  }
  if (recorded.length > undealt.length) {
    throw new Mismatch(
      `box ${draw.box} ${what}: ${recorded.length} card(s) received, ` +
        `the deck has ${undealt.length}`,
    );
  }
  const received = drawTop(undealt, recorded.length);
  compareCards(verdict, `box ${draw.box} ${what}`, "received", recorded, received);
  cards.push(...received);
  verdict.pass(`box ${draw.box} ${what}`, `box ${draw.box} ${what}: ${received.join(" ")}: ok`);
}

/**
 * The dealer draw: the first replacement sets aside the dealer's highest card; each free
 * redraw replaces the card just drawn, of the same rank. Each new card is the top card.
 * @param {{replaced: string, card: string, free: boolean}[]} replacements
 * @param {string[]} dealerHand the dealer's five cards as dealt
 * @param {string[]} undealt
 * @param {Verdict} verdict
 */
function checkDealerDraw(replacements, dealerHand, undealt, verdict) {
  let expectedReplaced = highestCard(dealerHand);
  for (const [index, replacement] of replacements.entries()) {
    const where = `dealer replacement ${index + 1}`;
    const free = index > 0;
    if (replacement.replaced !== expectedReplaced) {
      throw new Mismatch(
        `${where}: set aside ${replacement.replaced}, derived ${expectedReplaced}`,
      );
    }
    if (Boolean(replacement.free) !== free) {
      const recorded = replacement.free ? "free" : "paid";
      throw new Mismatch(`${where}: recorded ${recorded}, derived ${free ? "free" : "paid"}`);
    }
    if (free && rankOf(replacement.replaced) !== rankOf(replacements[index - 1].replaced)) {
      throw new Mismatch(`${where}: a free redraw after a card of another rank`);
    }
    if (undealt.length === 0) {
      throw new Mismatch(`${where}: the deck is empty`);
    }
    const [card] = drawTop(undealt, 1);
    compareCards(verdict, where, "drew", [replacement.card], [card]);
    verdict.pass(where, `${where}: ${replacement.replaced} -> ${card}: ok`);
    expectedReplaced = card;
  }
}
