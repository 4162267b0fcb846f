/**
 * Round search: by table and round (straight to the viewer), by a wallet transaction id
 * (the operator's call, to the round behind it), by player, or a table's rounds settled in a
 * time window. Each round found links to its viewer.
 */

import { h } from "/play/static/js/dom.js";
import { t, time } from "/play/static/js/i18n.js";
import { office, read, unbound } from "./office.js";

const FIELDS = ["table", "round", "player", "transaction", "operator", "from", "to"];

function field(name, value, type = "text") {
  const id = `search-${name}`;
  return h(
    "label",
    { for: id },
    t(`office.search.${name}`),
    h("input", { id, name, type, value: value ?? "", "data-testid": id, "data-key": id, autocomplete: "off" }),
  );
}

/** `2026-12-01T10:00` (a datetime-local field, the browser's zone) as ISO 8601 in UTC. */
function iso(local) {
  return local ? new Date(local).toISOString() : "";
}

export function roundLink(tableId, number) {
  return h(
    "a",
    { href: `#/round/${encodeURIComponent(tableId)}/${number}`, "data-testid": `round-link-${tableId}-${number}` },
    t("office.round.details", { table: tableId, round: number }),
  );
}

export function roundsTable(items) {
  if (!items.length) return h("p", { "data-testid": "no-rounds" }, t("office.rounds.none"));
  return h(
    "table",
    { class: "grid", "data-testid": "rounds" },
    h("thead", {}, h("tr", {}, ...["table", "round", "settled", "staked", "paid", "open"].map((k) => h("th", { scope: "col" }, t(`office.rounds.${k}`))))),
    h(
      "tbody",
      {},
      ...items.map((r) =>
        h(
          "tr",
          { "data-round": `${r.table_id}:${r.round}` },
          h("td", {}, r.table_id),
          h("td", {}, String(r.round)),
          h("td", {}, r.settled_at ? time(r.settled_at) : ""),
          h("td", { class: "num" }, String(r.staked)),
          h("td", { class: "num" }, String(r.paid_back)),
          h("td", {}, roundLink(r.table_id, r.round)),
        ),
      ),
    ),
  );
}

async function search(values) {
  const { table, round, player, transaction, from, to } = values;
  const operator = values.operator || office.me.operator_id;
  if (table && round) {
    location.hash = `#/round/${encodeURIComponent(table)}/${Number(round)}`;
    return null;
  }
  if (transaction) {
    if (!operator) return h("p", { "data-testid": "need-operator" }, t("office.search.need_operator"));
    const page = await read(`/v1/operators/${encodeURIComponent(operator)}/transactions?transaction_id=${encodeURIComponent(transaction)}`);
    if (!page) return null;
    if (!page.items.length) return h("p", { "data-testid": "no-rounds" }, t("office.rounds.no_transaction", { id: transaction }));
    const call = page.items[0];
    const [tableId, number] = [call.round_id.slice(0, call.round_id.lastIndexOf(":")), Number(call.round_id.split(":").pop())];
    return h("p", { "data-testid": "transaction-round" }, t("office.rounds.transaction", { id: transaction, kind: call.kind, status: call.status }), " ", roundLink(tableId, number));
  }
  const window = new URLSearchParams();
  if (from) window.set("from", iso(from));
  if (to) window.set("to", iso(to));
  if (player) {
    // A player's recall takes no window: the window is applied to its rounds here.
    const page = await read(`/v1/players/${encodeURIComponent(player)}/rounds?limit=100`);
    const after = from ? Date.parse(iso(from)) : -Infinity;
    const before = to ? Date.parse(iso(to)) : Infinity;
    const within = (r) => r.settled_at && Date.parse(r.settled_at) >= after && Date.parse(r.settled_at) < before;
    return page ? roundsTable(page.items.filter(within)) : null;
  }
  if (table) window.set("table_id", table);
  window.set("limit", "100");
  const page = await read(`/v1/reports/rounds?${window}`);
  return page ? roundsTable(page.items) : null;
}

export async function roundsPage(query) {
  const values = Object.fromEntries(FIELDS.map((name) => [name, query.get(name) ?? ""]));
  const results = FIELDS.some((name) => values[name]) ? await search(values) : null;
  const form = h(
    "form",
    {
      class: "search",
      "data-testid": "search",
      onsubmit: (event) => {
        event.preventDefault();
        const data = new FormData(/** @type {HTMLFormElement} */ (event.target));
        const next = new URLSearchParams();
        for (const name of FIELDS) {
          const value = String(data.get(name) ?? "").trim();
          if (value) next.set(name, value);
        }
        location.hash = `#/rounds?${next}`;
      },
    },
    h("h2", { id: "rounds-title" }, t("office.rounds.title")),
    h(
      "div",
      { class: "fields" },
      field("table", values.table),
      field("round", values.round, "number"),
      field("player", values.player),
      field("transaction", values.transaction),
      unbound() ? field("operator", values.operator) : null,
      field("from", values.from, "datetime-local"),
      field("to", values.to, "datetime-local"),
    ),
    h("button", { type: "submit", "data-testid": "search-go" }, t("office.search.go")),
  );
  return h("section", { "aria-labelledby": "rounds-title" }, form, h("div", { id: "results", "data-testid": "results" }, results));
}
