/**
 * Game recall: the player's last rounds, every step of each (RULES: what was bet, dealt,
 * drawn and decided, the dealer's hand and what was paid). The recall endpoint gives the
 * round as settled; each round's proof record adds the deal and the draws in order.
 */

import { h, replace } from "./dom.js";
import { handName, money, t, time } from "./i18n.js";
import { card } from "./cards.js";

const cardsText = (cards) => cards.join(" ");

/**
 * Open the history dialog with the player's last `limit` rounds.
 * @param {import("./api.js").Api} api
 * @param {string} player
 * @param {HTMLDialogElement} dialog
 * @param {(table: string) => string} currencyOf  the currency of a table, "" if unknown
 */
export async function showHistory(api, player, dialog, currencyOf, limit = 10) {
  const page = await api.get(`/v1/players/${encodeURIComponent(player)}/rounds?limit=${limit}`);
  const body = /** @type {HTMLElement} */ (dialog.querySelector(".history-body"));
  replace(body, [
    page.items.length
      ? h("ol", { class: "history", "data-testid": "history" }, page.items.map((round) => entry(api, round, player, currencyOf(round.table_id))))
      : h("p", {}, t("history.empty")),
  ]);
  if (!dialog.open) dialog.showModal();
}

function entry(api, round, player, currency) {
  const mine = round.boxes.filter((box) => box.player === player);
  const net = mine.reduce((sum, box) => sum + box.paid_back - box.staked, 0);
  const steps = h("ol", { class: "steps", "data-testid": `steps-${round.table_id}-${round.round}` });
  const details = h(
    "details",
    {
      "data-testid": `history-${round.table_id}-${round.round}`,
      "data-net": net,
      ontoggle: async () => {
        if (!details.open || steps.childElementCount) return;
        const proof = await api.get(`/v1/tables/${encodeURIComponent(round.table_id)}/rounds/${round.round}/proof`).catch(() => null);
        replace(steps, stepsOf(round, proof, (value) => amount(value, currency)));
      },
    },
    h(
      "summary",
      {},
      t("history.round", { table: round.table_id, round: round.round }),
      " · ",
      t("history.settled", { time: time(round.settled_at) }),
      " · ",
      t("history.net", { amount: amount(net, currency) }),
    ),
    steps,
  );
  return h("li", {}, details);
}

/** Money of a recalled round: in its currency when the record names one. */
function amount(value, currency) {
  return currency ? money(value, currency) : String(value);
}

/** Every step of a round, in the order it happened. */
export function stepsOf(round, proof, amount) {
  const steps = [];
  const step = (text, cards) => steps.push(h("li", {}, text, cards ? h("span", { class: "cards small" }, cards.map(card)) : null));
  for (const box of round.boxes) {
    let text = t("history.step.bet", { box: box.box, ante: amount(box.ante), bonus: amount(box.bonus) });
    if (box.client_seed) text += `, ${t("history.step.seed", { seed: box.client_seed })}`;
    step(text);
  }
  if (proof) {
    for (const dealt of proof.dealt) step(t("history.step.dealt", { box: dealt.box, cards: cardsText(dealt.cards) }), dealt.cards);
    if (proof.dealer.length) step(t("history.step.dealer_dealt", { cards: cardsText(proof.dealer), upcard: proof.dealer.at(-1) }), proof.dealer);
    for (const draw of proof.draws) {
      if (draw.kind === "exchange") step(t("history.step.exchange", { box: draw.box, discarded: cardsText(draw.discarded), received: cardsText(draw.received) }));
      else step(t("history.step.sixth_card", { box: draw.box, received: cardsText(draw.received) }));
    }
  }
  for (const box of round.boxes) {
    if (box.decision) step(t("history.step.decision", { box: box.box, decision: t(`box.decision.${box.decision}`) }));
    if (box.insurance) step(t("history.step.insurance", { box: box.box, amount: amount(box.insurance) }));
    if (box.dealer_draw) step(t("history.step.dealer_draw", { box: box.box, answer: t(`history.${box.dealer_draw}`) }));
  }
  for (const replacement of proof?.dealer_replacements ?? []) step(t("history.step.dealer_replaced", replacement));
  if (round.dealer_cards.length) step(t("history.step.dealer_final", { cards: cardsText(round.dealer_cards), hand: handName(round.dealer_hand) }), round.dealer_cards);
  for (const box of round.boxes) {
    step(
      t("history.step.result", { box: box.box, outcome: box.outcome ? t(`result.${box.outcome}`) : "", staked: amount(box.staked), paid_back: amount(box.paid_back) }),
      box.cards,
    );
  }
  if (round.abandoned) step(t("history.step.abandoned", { reason: round.abandoned }));
  return steps;
}
