/**
 * The published test vectors (docs/fairness/vectors.json) checked field by field, and the
 * card comparisons the proof check shares.
 */

import { DECK_DOMAIN, SEED_BYTES, UNSHUFFLED_DECK, VECTORS_FORMAT, WordStream, deal, deckKey, deckKeyMessage, drawTop, fromHex, playOrder, reinsert, sha256, shuffledDeck, streamWords, toHex } from "./fairness-deck.js";

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
export function firstDifference(where, verb, recorded, derived) {
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
