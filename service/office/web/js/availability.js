/** The availability log: every opening, closing, reopening and ruleset change of the tables
 * the caller may see, with who did it, why and when. */

import { h } from "/play/static/js/dom.js";
import { t, time } from "/play/static/js/i18n.js";
import { read } from "./office.js";

export async function availabilityPage() {
  const page = await read("/v1/audit/availability?limit=500");
  const items = page ? page.items : [];
  return h(
    "section",
    { "aria-labelledby": "availability-title" },
    h("h2", { id: "availability-title" }, t("office.availability.title")),
    h(
      "table",
      { class: "grid", "data-testid": "availability" },
      h("thead", {}, h("tr", {}, ...["time", "table", "kind", "actor", "reason", "version"].map((k) => h("th", { scope: "col" }, t(`office.availability.${k}`))))),
      h(
        "tbody",
        {},
        ...items.map((c) =>
          h(
            "tr",
            { "data-kind": c.kind },
            h("td", {}, time(c.time)),
            h("td", {}, c.table_id),
            h("td", {}, t(`office.kind.${c.kind}`)),
            h("td", {}, `${c.actor.role} ${c.actor.id}`),
            h("td", {}, c.reason ?? ""),
            h("td", { class: "num" }, String(c.ruleset_version)),
          ),
        ),
      ),
    ),
  );
}
