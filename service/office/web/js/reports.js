/**
 * Reports: the RTP of each table and day against its theoretical RTP and 99 % band (plotted,
 * with the figures as a table), the operator's daily GGR, and — for callers bound to no
 * operator — the reconciliation of the whole books.
 */

import { h, svg } from "/play/static/js/dom.js";
import { t } from "/play/static/js/i18n.js";
import { office, operatorChooser, read, unbound } from "./office.js";

const W = 320;
const H = 160;
const PAD = 28;

/** One table's days: the band (99 %), the theoretical RTP and the actual RTP per day. */
function rtpPlot(tableId, rows) {
  const values = rows.flatMap((r) => [r.main.rtp, r.main.ci99_low, r.main.ci99_high, r.main.theoretical].filter((v) => v !== null).map(Number));
  const low = Math.min(...values, 0.8);
  const high = Math.max(...values, 1.1);
  const y = (v) => H - PAD - ((Number(v) - low) / (high - low)) * (H - 2 * PAD);
  const step = (W - 2 * PAD) / Math.max(rows.length, 1);
  const x = (i) => PAD + step * (i + 0.5);
  const marks = rows.flatMap((r, i) => [
    r.main.ci99_low !== null && r.main.ci99_high !== null
      ? svg("rect", { class: "band", x: x(i) - step / 3, width: (2 * step) / 3, y: y(r.main.ci99_high), height: Math.max(1, y(r.main.ci99_low) - y(r.main.ci99_high)) })
      : null,
    r.main.theoretical !== null ? svg("line", { class: "theory", x1: x(i) - step / 2, x2: x(i) + step / 2, y1: y(r.main.theoretical), y2: y(r.main.theoretical) }) : null,
    svg("circle", { class: r.main.outside_band ? "actual outside" : "actual", cx: x(i), cy: y(r.main.rtp), r: 4, "data-day": r.day, "data-rtp": r.main.rtp }),
  ]);
  return svg(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": `rtp-${tableId}-title`, class: "plot", "data-testid": `rtp-plot-${tableId}` },
    svg("title", { id: `rtp-${tableId}-title` }, t("office.rtp.plot", { table: tableId })),
    svg("line", { class: "axis", x1: PAD, x2: W - PAD, y1: H - PAD, y2: H - PAD }),
    svg("text", { x: 2, y: y(high) + 4, class: "tick" }, high.toFixed(2)),
    svg("text", { x: 2, y: y(low) + 4, class: "tick" }, low.toFixed(2)),
    ...marks,
  );
}

function rtpSection(report) {
  const rows = (report?.rows ?? []).filter((r) => r.main);
  const tables = [...new Set(rows.map((r) => r.table_id))];
  return h(
    "section",
    { "aria-labelledby": "rtp-title", "data-testid": "rtp" },
    h("h3", { id: "rtp-title" }, t("office.rtp.title")),
    h("p", { class: "legend" }, t("office.rtp.legend")),
    tables.length ? null : h("p", {}, t("office.rtp.none")),
    ...tables.map((tableId) => {
      const mine = rows.filter((r) => r.table_id === tableId).sort((a, b) => a.day.localeCompare(b.day));
      return h(
        "figure",
        { class: "rtp" },
        rtpPlot(tableId, mine),
        h(
          "figcaption",
          {},
          h(
            "table",
            { class: "grid small" },
            h("thead", {}, h("tr", {}, ...["day", "rounds", "rtp", "band", "theory"].map((k) => h("th", { scope: "col" }, t(`office.rtp.${k}`))))),
            h(
              "tbody",
              {},
              ...mine.map((r) =>
                h(
                  "tr",
                  { "data-outside": String(Boolean(r.main.outside_band)) },
                  h("td", {}, r.day),
                  h("td", { class: "num" }, String(r.main.rounds)),
                  h("td", { class: "num" }, r.main.rtp),
                  h("td", { class: "num" }, r.main.ci99_low === null ? "—" : `${r.main.ci99_low}–${r.main.ci99_high}`),
                  h("td", { class: "num" }, r.main.theoretical ?? "—"),
                ),
              ),
            ),
          ),
        ),
      );
    }),
  );
}

function ggrSection(report) {
  if (!report) return h("section", { "data-testid": "ggr" }, h("h3", {}, t("office.ggr.title")), h("p", {}, t("office.ggr.choose")));
  return h(
    "section",
    { "aria-labelledby": "ggr-title", "data-testid": "ggr" },
    h("h3", { id: "ggr-title" }, t("office.ggr.title", {})),
    h(
      "table",
      { class: "grid" },
      h("thead", {}, h("tr", {}, ...["day", "currency", "stakes", "wins", "ggr", "rounds", "players"].map((k) => h("th", { scope: "col" }, t(`office.ggr.${k}`))))),
      h(
        "tbody",
        {},
        ...report.days.map((d) =>
          h("tr", { "data-day": d.day ?? "" }, h("td", {}, d.day ?? ""), h("td", {}, d.currency), ...["stakes", "wins", "ggr", "rounds", "players"].map((k) => h("td", { class: "num", "data-figure": k }, String(d[k])))),
        ),
      ),
    ),
  );
}

function reconciliationSection(report) {
  if (!report) return null;
  const clean = report.mismatches.length === 0;
  return h(
    "section",
    { "aria-labelledby": "rec-title", "data-testid": "reconciliation", "data-clean": String(clean) },
    h("h3", { id: "rec-title" }, t("office.rec.title")),
    h("p", { class: clean ? "ok" : "bad" }, t(clean ? "office.rec.clean" : "office.rec.mismatches", { count: report.mismatches.length, wallets: report.wallets, rounds: report.rounds, boxes: report.boxes })),
    clean ? null : h("ul", {}, ...report.mismatches.slice(0, 50).map((m) => h("li", {}, `${m.subject}: ${m.detail}`))),
  );
}

export async function reportsPage(query) {
  const operator = office.me.operator_id ?? query.get("operator") ?? "";
  const rtp = await read("/v1/audit/rtp");
  const ggr = operator ? await read(`/v1/operators/${encodeURIComponent(operator)}/reports/daily`) : null;
  const books = unbound() ? await read("/v1/audit/reconciliation") : null;
  const chooser = operatorChooser("reports", operator);
  return h("section", { "aria-labelledby": "reports-title" }, h("h2", { id: "reports-title" }, t("office.reports.title")), chooser, reconciliationSection(books), ggrSection(ggr), rtpSection(rtp));
}
