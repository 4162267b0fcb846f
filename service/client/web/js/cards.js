/**
 * Cards as vector images: an SVG per card, with its name as the text alternative
 * ("Queen of hearts"), and a plain back for a card this viewer may not see.
 */

import { svg } from "./dom.js";
import { cardName, t } from "./i18n.js";

const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const RED = new Set(["h", "d"]);

/** "T" is shown as "10", as on a real card. */
const face = (rank) => (rank === "T" ? "10" : rank);

/**
 * One card face, e.g. card("Qh").
 * @param {string} card  rank + suit in text notation
 */
export function card(card) {
  const [rank, suit] = card;
  const colour = RED.has(suit) ? "red" : "black";
  const label = cardName(card);
  return svg(
    "svg",
    { class: `card ${colour}`, viewBox: "0 0 60 84", role: "img", "aria-label": label, "data-card": card },
    svg("title", {}, label),
    svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-face" }),
    svg("text", { x: 6, y: 18, class: "card-rank" }, face(rank)),
    svg("text", { x: 6, y: 32, class: "card-pip" }, SUITS[suit]),
    svg("text", { x: 30, y: 58, class: "card-suit", "text-anchor": "middle" }, SUITS[suit]),
    svg("text", { x: 54, y: 78, class: "card-rank", "text-anchor": "end" }, face(rank)),
  );
}

/** A face-down card. */
export function back() {
  const label = t("card.hidden");
  return svg(
    "svg",
    { class: "card back", viewBox: "0 0 60 84", role: "img", "aria-label": label, "data-card": "hidden" },
    svg("title", {}, label),
    svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-back" }),
    svg("rect", { x: 7, y: 7, width: 46, height: 70, rx: 3, class: "card-back-inner" }),
  );
}

/** A row of cards, or `count` backs where the cards are hidden (null). */
export function hand(cards, count) {
  return cards ? cards.map(card) : Array.from({ length: count }, back);
}
