/**
 * Checking a round's fairness in the browser: a settled round's proof record
 * (`GET /v1/tables/{id}/rounds/{n}/proof`) against docs/fairness.md, implemented a
 * second time. The deck itself is built in fairness-deck.js, the published vectors are
 * checked in fairness-vectors.js; this module re-exports both, so a page imports one file.
 */

import { PROOF_FORMAT, SEED_BYTES, WordStream, clientSeedProblem, deal, deckKey, drawTop, fromHex, highestCard, playOrder, rankOf, reinsert, seededBoxes, sha256, shuffledDeck, toHex } from "./fairness-deck.js";
import { firstDifference } from "./fairness-vectors.js";

export * from "./fairness-deck.js";
export { checkVector, checkVectorFile } from "./fairness-vectors.js";

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
