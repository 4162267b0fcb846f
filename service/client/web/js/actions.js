/**
 * What the viewer may do now, as buttons: the betting form while the round takes bets,
 * and each of their boxes' `actions` once the cards are out. Every command is built here
 * and handed to `act`; the server decides, and a refusal comes back as its problem.
 */

import { h } from "./dom.js";
import { money, parseMoney, plainAmount, t } from "./i18n.js";

/**
 * @typedef {object} Bet  the betting form's state
 * @property {number|null} box
 * @property {number} ante
 * @property {number} bonus
 * @property {boolean} dark
 * @property {string} seed
 */

/** Chip values from the table's limits: 1, 5, 25 and 100 times the lowest, if allowed. */
export function chips(low, high) {
  return [1, 5, 25, 100].map((k) => k * low).filter((value) => value <= high);
}

/**
 * @param {any} view
 * @param {string|null} me
 * @param {{bet: Bet, exchange: {box: number|null, cards: Set<string>}, insurance: Map<number, string>}} form
 * @param {{act: (command: object) => void, redraw: () => void, problem: (text: string) => void, busy?: boolean}} on
 *   `busy`: a command is on its way; every action waits for its answer (a click then would
 *   be lost, or act on a form the answer is about to change).
 */
export function actionPanel(view, me, form, on) {
  inFlight = Boolean(on.busy);
  const round = view.round;
  if (!me || !round || !view.seats.includes(me)) return null;
  const mine = round.boxes.filter((box) => box.player === me);
  const parts = [];
  if (round.phase === "betting" && view.status === "open") {
    parts.push(betting(view, me, mine, form.bet, on));
  }
  for (const box of mine) {
    if (box.actions.length) parts.push(decisions(view, box, form, on));
  }
  if (!parts.length) return null;
  return h("section", { class: "actions", "aria-labelledby": "actions-title", "data-testid": "actions" }, h("h2", { id: "actions-title", class: "visually-hidden" }, t("bet.title")), parts);
}

/** Whether the panel being drawn is drawn while a command is on its way (`on.busy`). */
let inFlight = false;

function button(action, label, onclick, extra = {}) {
  return h("button", { type: "button", "data-action": action, "data-key": `${action}-${extra["data-box"] ?? ""}`, onclick, ...extra, disabled: Boolean(extra.disabled) || inFlight }, label);
}

function betting(view, me, mine, bet, on) {
  const rules = view.ruleset;
  const currency = rules.currency;
  const amount = (value) => money(value, currency);
  const anteMax = rules.ante_max;
  const bonusMax = rules.bonus_max ?? anteMax;
  const free = view.free_boxes;
  const ready = view.round.ready.includes(me);
  const seedAllowed = rules.player_seeds;
  const canPlace = bet.box !== null && free.includes(bet.box) && bet.ante >= rules.ante_min && bet.ante <= anteMax && (bet.bonus === 0 || (bet.bonus >= rules.bonus_min && bet.bonus <= bonusMax));
  // What this form shows is what it sends: the values as drawn, not as they may have
  // changed since (a bet placed meanwhile empties the form, and redraws it).
  const shown = { box: bet.box, ante: bet.ante, bonus: bet.bonus };
  const place = () => {
    const command = { type: "PlaceAnte", box: shown.box, ante: shown.ante, bonus: shown.bonus, dark: bet.dark };
    if (seedAllowed && bet.seed) command.client_seed = bet.seed;
    on.act(command);
  };
  const chipRow = (kind, low, high, current) =>
    h(
      "div",
      { class: "chips", role: "group", "aria-label": t(kind === "ante" ? "bet.ante" : "bet.bonus") },
      chips(low, high).map((value) =>
        h(
          "button",
          {
            type: "button",
            class: "chip",
            "data-chip": kind,
            "data-value": value,
            "data-key": `chip-${kind}-${value}`,
            disabled: current + value > high,
            "aria-label": t("bet.chip", { amount: amount(value) }),
            onclick: () => {
              bet[kind] += value;
              on.redraw();
            },
          },
          amount(value),
        ),
      ),
    );
  return h(
    "form",
    { class: "bet-form", "data-testid": "bet-form", onsubmit: (event) => { event.preventDefault(); if (canPlace && !inFlight) place(); } },
    h("h3", {}, t("bet.title")),
    free.length
      ? h(
          "p",
          { class: "bet-box" },
          bet.box !== null && free.includes(bet.box) ? `${t("bet.box")}: ${bet.box}` : t("bet.pick_box"),
        )
      : null,
    h("p", { class: "limits" }, t("bet.limits", { min: amount(rules.ante_min), max: amount(anteMax) })),
    h("p", { class: "pending" }, `${t("bet.ante")}: `, h("output", { "data-testid": "pending-ante", "data-amount": bet.ante }, amount(bet.ante))),
    chipRow("ante", rules.ante_min, anteMax, bet.ante),
    rules.bonus_enabled
      ? [
          h("p", { class: "limits" }, t("bet.bonus_limits", { min: amount(rules.bonus_min), max: amount(bonusMax) })),
          h("p", { class: "pending" }, `${t("bet.bonus")}: `, h("output", { "data-testid": "pending-bonus", "data-amount": bet.bonus }, amount(bet.bonus))),
          chipRow("bonus", rules.bonus_min, bonusMax, bet.bonus),
        ]
      : null,
    h(
      "label",
      { class: "check" },
      h("input", {
        type: "checkbox",
        "data-key": "dark",
        "data-testid": "dark",
        checked: bet.dark,
        onchange: (event) => { bet.dark = event.target.checked; },
      }),
      ` ${t("bet.dark")}`,
    ),
    seedAllowed
      ? h(
          "label",
          { class: "seed-input" },
          t("bet.seed"),
          h("input", {
            type: "text",
            maxlength: 64,
            pattern: "[ -~]{1,64}",
            autocomplete: "off",
            spellcheck: "false",
            "data-key": "seed",
            "data-testid": "client-seed",
            value: bet.seed,
            "aria-describedby": "seed-help",
            oninput: (event) => { bet.seed = event.target.value; },
          }),
          h("small", { id: "seed-help" }, t("bet.seed.help")),
        )
      : null,
    h(
      "div",
      { class: "buttons" },
      button("ClearBet", t("bet.clear"), () => { bet.ante = 0; bet.bonus = 0; on.redraw(); }, { class: "quiet" }),
      h("button", { type: "submit", "data-action": "PlaceAnte", "data-key": "PlaceAnte", disabled: !canPlace || inFlight }, t("action.PlaceAnte")),
      mine.length ? button("CancelBets", t("action.CancelBets"), () => on.act({ type: "CancelBets" }), { class: "quiet" }) : null,
      mine.length === 0 ? button("RepeatBets", t("action.RepeatBets"), () => on.act(seedAllowed && bet.seed ? { type: "RepeatBets", client_seed: bet.seed } : { type: "RepeatBets" })) : null,
      mine.length && !ready ? button("Deal", t("action.Deal"), () => on.act({ type: "Deal" }), { class: "primary" }) : null,
    ),
    ready ? h("p", { class: "notice" }, t("action.waiting_deal")) : null,
  );
}

function decisions(view, box, form, on) {
  const rules = view.ruleset;
  const currency = rules.currency;
  const number = box.box;
  const allowed = new Set(box.actions);
  const picking = form.exchange.box === number;
  const picked = picking ? [...form.exchange.cards] : [];
  const items = [];
  const fee = (antes) => (antes ? ` (${t("action.fee", { amount: money(antes * box.ante, currency) })})` : "");
  const extra = { "data-box": number };
  if (allowed.has("Play")) items.push(button("Play", t("action.Play"), () => on.act({ type: "Play", box: number }), { ...extra, class: "primary" }));
  if (allowed.has("Fold")) items.push(button("Fold", t("action.Fold"), () => on.act({ type: "Fold", box: number }), extra));
  if (allowed.has("BuyCard")) items.push(button("BuyCard", t("action.BuyCard") + fee(rules.sixth_card_fee_antes), () => on.act({ type: "BuyCard", box: number }), extra));
  if (allowed.has("Exchange")) {
    if (!picking) {
      items.push(button("Exchange", t("action.Exchange.pick"), () => { form.exchange.box = number; form.exchange.cards.clear(); on.redraw(); }, { ...extra, "data-key": `Exchange-pick-${number}` }));
    } else {
      const count = picked.length;
      const ok = count >= 1 && count <= rules.max_exchange_cards;
      items.push(
        button("Exchange", t("action.Exchange", { count }) + (ok ? fee(rules.draw_fee_antes[count - 1]) : ""), () => {
          form.exchange.box = null;
          on.act({ type: "Exchange", box: number, cards: picked });
        }, { ...extra, disabled: !ok, "data-key": `Exchange-${number}`, "data-confirm": "true" }),
        button("ExchangeCancel", t("action.Exchange.cancel"), () => { form.exchange.box = null; on.redraw(); }, { ...extra, class: "quiet" }),
      );
    }
  }
  if (allowed.has("Insure") && box.insurance_range) {
    const [low, high] = box.insurance_range;
    const typed = form.insurance.get(number) ?? plainAmount(high, currency);
    const id = `insure-${number}`;
    items.push(
      h(
        "span",
        { class: "insure" },
        h("label", { for: id }, `${t("action.insurance_amount")} (${t("action.insurance_range", { min: money(low, currency), max: money(high, currency) })})`),
        h("input", {
          id,
          type: "text",
          inputmode: "decimal",
          autocomplete: "off",
          value: typed,
          "data-key": id,
          "data-testid": id,
          oninput: (event) => { form.insurance.set(number, event.target.value); },
        }),
        // Sent as typed, even out of range: the server's refusal says what is allowed.
        button("Insure", t("action.Insure"), () => {
          const amount = parseMoney(form.insurance.get(number) ?? typed, currency);
          if (amount === null) return on.problem(t("action.insurance_invalid"));
          on.act({ type: "Insure", box: number, amount });
        }, extra),
      ),
    );
  }
  if (allowed.has("RequestDealerExchange")) items.push(button("RequestDealerExchange", t("action.RequestDealerExchange") + ` (${t("action.fee", { amount: money(box.ante, currency) })})`, () => on.act({ type: "RequestDealerExchange", box: number }), extra));
  if (allowed.has("DeclineDealerExchange")) items.push(button("DeclineDealerExchange", t("action.DeclineDealerExchange"), () => on.act({ type: "DeclineDealerExchange", box: number }), extra));
  return h("div", { class: "decisions", "data-testid": `decisions-${number}`, role: "group", "aria-label": t("box.title", { box: number }) }, h("h3", {}, t("box.title", { box: number })), items);
}
