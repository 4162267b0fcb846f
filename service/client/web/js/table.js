/**
 * The table, drawn from one view (`TableView`): header, seats, dealer, boxes, timers,
 * the last round's results and the paytables. Only drawing: what a click does is the
 * app's (`actions` are callbacks), and what may be clicked comes from the view's own
 * `actions`, `free_boxes` and `seats` — the client never second-guesses the rules.
 */

import { h } from "./dom.js";
import { card, hand } from "./cards.js";
import { cardName, handName, money, t } from "./i18n.js";

/**
 * @typedef {object} Scene  what the drawing needs besides the view
 * @property {any} view        the table view
 * @property {string|null} me  the viewing player's id
 * @property {{box: number|null, cards: Set<string>}} exchange  cards picked for an exchange
 * @property {(box: number, card: string) => void} toggleCard
 */

/** The owner of `box` this round, as a label: "you" for the viewer. */
function owner(player, me) {
  return player === me ? `${player} (${t("table.you")})` : player;
}

export function header(view) {
  const round = view.round;
  return h(
    "div",
    { class: "table-head" },
    h("h1", { id: "table-title" }, view.name || view.table_id),
    h(
      "p",
      { class: "table-game" },
      t(`game.${view.ruleset.game}`),
      " · ",
      t(`status.${view.status}`),
      " · ",
      h(
        "span",
        { "data-testid": "round-phase", "data-round": round?.number ?? "", "data-phase": round?.phase ?? "" },
        round ? t("table.round", { round: round.number, phase: t(`phase.${round.phase}`) }) : t("phase.none"),
      ),
    ),
    round
      ? h(
          "p",
          { class: "commitment", title: t("table.commitment.help") },
          h("span", {}, `${t("table.commitment")}: `),
          h("code", { "data-testid": "commitment", "data-round": round.number }, round.commitment),
        )
      : null,
    view.status === "closed" ? h("p", { class: "notice", role: "status" }, t("table.closed")) : null,
  );
}

export function seats(view, me, act) {
  const mine = view.seats.indexOf(me) + 1;
  return h(
    "section",
    { class: "seats", "aria-labelledby": "seats-title" },
    h("h2", { id: "seats-title" }, t("table.seats")),
    h(
      "ol",
      {},
      view.seats.map((player, index) =>
        h(
          "li",
          { "data-testid": `seat-${index + 1}`, "data-player": player ?? "" },
          `${t("table.seat", { seat: index + 1 })}: `,
          player ? owner(player, me) : t("table.seat.free"),
        ),
      ),
    ),
    me && !mine && view.seats.includes(null) && view.status === "open"
      ? h("button", { type: "button", "data-action": "SitDown", "data-key": "sit", onclick: () => act({ type: "SitDown" }) }, t("action.SitDown"))
      : null,
    mine
      ? h("button", { type: "button", class: "quiet", "data-action": "LeaveTable", "data-key": "leave", onclick: () => act({ type: "LeaveTable" }) }, t("action.LeaveTable"))
      : null,
  );
}

export function dealer(round) {
  const shown = round?.dealer;
  const cards = shown?.cards ?? null;
  const dealt = Boolean(shown?.upcard);
  return h(
    "section",
    { class: "dealer", "aria-labelledby": "dealer-title", "data-testid": "dealer" },
    h("h2", { id: "dealer-title" }, t("dealer.title")),
    round?.phase === "betting" ? h("p", { class: "waiting" }, t("dealer.bets_please")) : null,
    h(
      "div",
      { class: "cards", "data-testid": "dealer-cards", "data-cards": (cards ?? []).join(" "), "data-upcard": shown?.upcard ?? "" },
      cards ? cards.map(card) : dealt ? [...hand(null, 4), card(shown.upcard)] : [],
    ),
    shown?.hand ? h("p", { class: "hand-name", "data-testid": "dealer-hand", "data-hand": shown.hand }, handName(shown.hand)) : null,
    shown?.qualifies === false ? h("p", { class: "notice" }, t("dealer.no_game")) : null,
  );
}

/** The boxes of the round: those in play drawn in full, free ones as places to bet. */
export function boxes(view, scene, pickBox, selectedBox) {
  const round = view.round;
  const inPlay = new Map((round?.boxes ?? []).map((box) => [box.box, box]));
  const free = new Set(view.free_boxes);
  const seated = scene.me !== null && view.seats.includes(scene.me);
  const items = [];
  for (let number = 1; number <= view.ruleset.boxes; number += 1) {
    const box = inPlay.get(number);
    if (box) {
      items.push(boxInPlay(box, round, view.ruleset.currency, scene));
    } else if (free.has(number) && seated) {
      items.push(
        h(
          "button",
          {
            type: "button",
            class: `box free${selectedBox === number ? " selected" : ""}`,
            "data-testid": `free-box-${number}`,
            "data-key": `free-box-${number}`,
            "aria-pressed": selectedBox === number ? "true" : "false",
            onclick: () => pickBox(number),
          },
          t("box.choose", { box: number }),
        ),
      );
    } else {
      items.push(h("div", { class: "box empty", "data-testid": `box-${number}` }, t("box.title", { box: number }), " · ", t("box.free")));
    }
  }
  return h("section", { class: "boxes", "aria-label": t("box.title", { box: "" }).trim() }, items);
}

function boxInPlay(box, round, currency, scene) {
  const turn = round.awaiting.includes(box.box);
  const picking = scene.exchange.box === box.box;
  const amount = (value) => money(value, currency);
  const classes = ["box", box.dark ? "dark" : "light", box.yours ? "yours" : "", turn ? "turn" : ""].filter(Boolean);
  return h(
    "article",
    { class: classes.join(" "), "data-testid": `box-${box.box}`, "data-player": box.player, "aria-labelledby": `box-${box.box}-title` },
    h(
      "header",
      {},
      h("h3", { id: `box-${box.box}-title` }, t("box.title", { box: box.box })),
      h("span", { class: "tag" }, t(box.dark ? "box.dark" : "box.light")),
      turn ? h("span", { class: "tag turn-tag", "data-testid": `turn-${box.box}` }, t(box.yours ? "box.your_turn" : "box.acting")) : null,
    ),
    h("p", { class: "owner" }, owner(box.player, scene.me)),
    h(
      "div",
      {
        class: "cards",
        role: picking ? "group" : null,
        "aria-label": t("box.cards", { box: box.box }),
        "data-testid": `cards-${box.box}`,
        "data-cards": (box.cards ?? []).join(" "),
        "data-count": box.card_count,
      },
      picking && box.cards
        ? box.cards.map((c) =>
            h(
              "button",
              {
                type: "button",
                class: "card-pick",
                "aria-pressed": scene.exchange.cards.has(c) ? "true" : "false",
                "aria-label": t("action.select_card", { card: cardName(c) }),
                "data-key": `pick-${box.box}-${c}`,
                "data-pick": c,
                onclick: () => scene.toggleCard(box.box, c),
              },
              card(c),
            ),
          )
        : hand(box.cards, box.cards ? box.cards.length : box.card_count),
    ),
    h(
      "dl",
      { class: "stakes" },
      stake(t("box.ante"), amount(box.ante), "ante", box.ante),
      box.bonus ? stake(t("box.bonus"), amount(box.bonus), "bonus", box.bonus) : null,
      box.bet ? stake(t("box.bet"), amount(box.bet), "bet", box.bet) : null,
      box.insurance ? stake(t("box.insurance"), amount(box.insurance), "insurance", box.insurance) : null,
    ),
    box.client_seed !== null && box.client_seed !== undefined
      ? h("p", { class: "seed" }, `${t("box.seed")}: `, h("code", { "data-testid": `seed-${box.box}` }, box.client_seed))
      : null,
    box.decision ? h("p", { class: "decision" }, t(`box.decision.${box.decision}`)) : null,
    box.result ? result(box, currency) : null,
  );
}

function stake(label, text, name, value) {
  return h("div", { "data-stake": name, "data-amount": value }, h("dt", {}, label), h("dd", {}, text));
}

function result(box, currency) {
  const r = box.result;
  return h(
    "div",
    {
      class: `result ${r.net > 0 ? "up" : r.net < 0 ? "down" : "even"}`,
      "data-testid": `result-${box.box}`,
      "data-outcome": r.outcome,
      "data-paid-back": r.paid_back,
      "data-net": r.net,
    },
    h("strong", {}, t(`result.${r.outcome}`)),
    r.hand ? ` · ${handName(r.hand)}` : "",
    r.dealer_draw ? ` · ${t("result.dealer_draw")}` : "",
    h("br"),
    `${t("result.paid_back")}: ${money(r.paid_back, currency)} · ${t("result.net")}: ${money(r.net, currency)}`,
    r.bonus ? h("span", { class: "bonus-result" }, ` · ${t("result.bonus")}: ${t(`result.${r.bonus.outcome}`)}`) : null,
    r.capped || r.bonus?.capped ? h("span", { class: "capped" }, ` · ${t("result.capped")}`) : null,
  );
}

/** The countdowns of the waits the table is in; their text is refreshed every second. */
export function timers(deadlines) {
  return h(
    "div",
    { class: "timers", "aria-live": "off" },
    (deadlines ?? []).map((d) =>
      h("p", { class: "timer", "data-due": d.due_at, "data-wait": d.wait, "data-box": d.box ?? "", "data-testid": `timer-${d.wait}${d.box ? `-${d.box}` : ""}` }),
    ),
  );
}

/** Set the countdowns' texts for the time `now` (milliseconds, the server's clock). */
export function tick(root, now) {
  for (const element of root.querySelectorAll(".timer")) {
    const el = /** @type {HTMLElement} */ (element);
    const seconds = Math.max(0, Math.round((Date.parse(el.dataset.due ?? "") - now) / 1000));
    el.dataset.seconds = String(seconds);
    el.textContent = t(`timer.${el.dataset.wait}`, { seconds, box: el.dataset.box ?? "" });
  }
}

/** The previous round: the dealer's cards and every box's result. */
export function lastRound(round, currency, me, fairness) {
  if (!round) return null;
  return h(
    "section",
    { class: "last-round", "aria-labelledby": "last-title", "data-testid": "last-round", "data-round": round.number },
    h("h2", { id: "last-title" }, t("result.title", { round: round.number })),
    h(
      "div",
      { class: "last-dealer" },
      h("span", {}, `${t("dealer.title")}: `),
      h("span", { class: "cards small", "data-testid": "last-dealer-cards", "data-cards": (round.dealer.cards ?? []).join(" ") }, (round.dealer.cards ?? []).map(card)),
      round.dealer.hand ? h("span", { class: "hand-name" }, ` ${handName(round.dealer.hand)}`) : null,
    ),
    h(
      "ul",
      { class: "last-boxes" },
      round.boxes.map((box) =>
        h(
          "li",
          { "data-testid": `last-box-${box.box}`, "data-player": box.player },
          h("strong", {}, `${t("box.title", { box: box.box })} · ${owner(box.player, me)}: `),
          h("span", { class: "cards small", "data-cards": (box.cards ?? []).join(" ") }, hand(box.cards, box.card_count)),
          box.result ? result(box, currency) : null,
        ),
      ),
    ),
    fairness,
  );
}

export function paytables(ruleset) {
  const rows = (table) =>
    Object.entries(table)
      .filter(([, pays]) => pays > 0)
      .map(([hand, pays]) => h("tr", {}, h("th", { scope: "row" }, handName(hand)), h("td", {}, `${pays}:1`)));
  const table = (caption, entries) =>
    h("table", {}, h("caption", {}, caption), h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("paytable.hand")), h("th", { scope: "col" }, t("paytable.pays")))), h("tbody", {}, rows(entries)));
  return h(
    "details",
    { class: "paytables", "data-testid": "paytables", "data-key": "paytables-open" },
    h("summary", { "data-key": "paytables" }, t("paytable.title")),
    table(t("paytable.bet"), ruleset.bet_paytable),
    ruleset.bonus_enabled ? table(t("paytable.bonus"), ruleset.bonus_paytable) : null,
    ruleset.max_payout ? h("p", {}, t("paytable.max_payout", { amount: money(ruleset.max_payout, ruleset.currency) })) : null,
  );
}
