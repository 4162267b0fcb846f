/**
 * An operator's wallet calls, newest page first, each with a "round details" link for
 * support staff: the round behind a player's transaction, one click away. Operator-bound
 * callers see their own; admins and the game's auditors name the operator.
 */

import { h } from "/play/static/js/dom.js";
import { t, time } from "/play/static/js/i18n.js";
import { office, operatorChooser, read } from "./office.js";
import { roundLink } from "./rounds.js";

export async function transactionsPage(query) {
  const operator = office.me.operator_id ?? query.get("operator") ?? "";
  const form = operatorChooser("transactions", operator);
  let list = null;
  if (operator) {
    const page = await read(`/v1/operators/${encodeURIComponent(operator)}/transactions?limit=200`);
    if (page) {
      list = page.items.length
        ? h(
            "table",
            { class: "grid", "data-testid": "transactions" },
            h("thead", {}, h("tr", {}, ...["time", "transaction", "player", "kind", "amount", "status", "round"].map((k) => h("th", { scope: "col" }, t(`office.tx.${k}`))))),
            h(
              "tbody",
              {},
              ...page.items.map((c) => {
                const at = c.round_id.lastIndexOf(":");
                return h(
                  "tr",
                  { "data-transaction": c.transaction_id },
                  h("td", {}, time(c.created_at)),
                  h("td", {}, c.transaction_id),
                  h("td", {}, c.player_id),
                  h("td", {}, c.kind),
                  h("td", { class: "num" }, `${c.amount} ${c.currency}`),
                  h("td", {}, c.status),
                  h("td", {}, roundLink(c.round_id.slice(0, at), Number(c.round_id.slice(at + 1)))),
                );
              }),
            ),
          )
        : h("p", { "data-testid": "transactions-none" }, t("office.tx.none"));
    }
  }
  return h("section", { "aria-labelledby": "tx-title" }, h("h2", { id: "tx-title" }, t("office.tx.title")), form, list);
}
