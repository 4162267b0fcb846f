/** The lobby: the tables this token may see, with their game, limits and free seats. */

import { h } from "./dom.js";
import { money, t } from "./i18n.js";

/** @param {any[]} tables  `GET /v1/tables` */
export function lobby(tables) {
  if (!tables.length) return [h("h1", {}, t("lobby.title")), h("p", {}, t("lobby.empty"))];
  return [
    h("h1", {}, t("lobby.title")),
    h(
      "table",
      { class: "lobby", "data-testid": "lobby" },
      h(
        "thead",
        {},
        h("tr", {}, ["lobby.open", "lobby.game", "lobby.limits", "lobby.seats", "lobby.status"].map((key) => h("th", { scope: "col" }, t(key, { table: "" }).trim()))),
      ),
      h(
        "tbody",
        {},
        tables.map((table) =>
          h(
            "tr",
            { "data-table": table.table_id },
            h("td", {}, h("a", { href: `/play/${encodeURIComponent(table.table_id)}`, "data-testid": `open-${table.table_id}` }, table.name || table.table_id)),
            h("td", {}, t(`game.${table.game}`)),
            h("td", {}, `${money(table.ante_min, table.currency)} – ${money(table.ante_max, table.currency)}`),
            h("td", {}, `${table.free_seats} / ${table.seats}`),
            h("td", {}, `${t(`status.${table.status}`)}${table.phase ? ` · ${t(`phase.${table.phase}`)}` : ""}`),
          ),
        ),
      ),
    ),
  ];
}
