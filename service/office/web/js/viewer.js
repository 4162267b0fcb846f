/**
 * The round viewer: a settled round event by event, with the round after each step (every
 * box's stakes, cards, decisions and results, the dealer's cards), the money it moved
 * (the regulator's record for auditors; the operator's wallet calls with their statuses),
 * and two checks run in this page: the fairness proof (every card from the seeds, by the
 * table client's own implementation) and the round's inclusion in a signed checkpoint.
 */

import { h, replace } from "/play/static/js/dom.js";
import { t, time } from "/play/static/js/i18n.js";
import { verifyProof } from "/play/static/js/fairness.js";
import { verifyInclusion } from "./inclusion.js";
import { office, read } from "./office.js";

const cards = (list) => h("span", { class: "cards", "data-cards": (list ?? []).join(" ") }, (list ?? []).join(" ") || "—");

function boxesTable(round) {
  return h(
    "table",
    { class: "grid", "data-testid": "step-boxes" },
    h("thead", {}, h("tr", {}, ...["box", "player", "ante", "bet", "cards", "decision", "result"].map((k) => h("th", { scope: "col" }, t(`office.box.${k}`))))),
    h(
      "tbody",
      {},
      ...round.boxes.map((b) =>
        h(
          "tr",
          { "data-box": String(b.box) },
          h("td", {}, String(b.box)),
          h("td", {}, b.player),
          h("td", { class: "num" }, String(b.ante)),
          h("td", { class: "num" }, String(b.bet)),
          h("td", { "data-testid": `box-cards-${b.box}` }, cards(b.cards)),
          h("td", {}, b.decision ? t(`office.decision.${b.decision}`) : ""),
          h("td", { "data-testid": `box-result-${b.box}` }, b.outcome ? `${t(`office.outcome.${b.outcome}`)} (${b.returned + b.won + b.bonus_won})` : ""),
        ),
      ),
    ),
  );
}

function stepView(steps, index, redraw) {
  const step = steps[index];
  const go = (to) => () => redraw(Math.max(0, Math.min(steps.length - 1, to)));
  return h(
    "div",
    { class: "steps" },
    h(
      "ol",
      { class: "step-list", "aria-label": t("office.steps.list") },
      ...steps.map((s, i) =>
        h(
          "li",
          {},
          h("button", { type: "button", "data-testid": `step-${i}`, "data-key": `step-${i}`, "aria-current": i === index ? "step" : null, onclick: go(i) }, `${i + 1}. ${s.event_type}`),
        ),
      ),
    ),
    h(
      "div",
      { class: "step", "data-testid": "step", "data-index": String(index), "data-event": step.event_type },
      h(
        "p",
        { class: "step-nav" },
        h("button", { type: "button", "data-testid": "step-previous", "data-key": "step-previous", disabled: index === 0, onclick: go(index - 1) }, t("office.steps.previous")),
        h("span", {}, t("office.steps.at", { n: index + 1, of: steps.length })),
        h("button", { type: "button", "data-testid": "step-next", "data-key": "step-next", disabled: index === steps.length - 1, onclick: go(index + 1) }, t("office.steps.next")),
      ),
      h("h3", {}, step.event_type),
      h("p", {}, time(step.recorded_at), step.actor ? ` — ${step.actor.role ?? ""} ${step.actor.id ?? ""}` : ""),
      h("p", { "data-testid": "step-phase" }, t("office.steps.phase", { phase: step.round.phase })),
      h("p", {}, t("office.steps.dealer"), " ", h("span", { "data-testid": "step-dealer" }, cards(step.round.dealer))),
      boxesTable(step.round),
      h("details", {}, h("summary", {}, t("office.steps.data")), h("pre", { "data-testid": "step-data" }, JSON.stringify(step.data, null, 2))),
    ),
  );
}

function callsTable(calls) {
  if (!calls.length) return h("p", { "data-testid": "calls-none" }, t("office.calls.none"));
  return h(
    "table",
    { class: "grid", "data-testid": "calls" },
    h("thead", {}, h("tr", {}, ...["transaction", "kind", "reason", "amount", "status", "attempts"].map((k) => h("th", { scope: "col" }, t(`office.calls.${k}`))))),
    h(
      "tbody",
      {},
      ...calls.map((c) =>
        h(
          "tr",
          { "data-transaction": c.transaction_id },
          h("td", {}, c.transaction_id),
          h("td", {}, c.kind),
          h("td", {}, c.reason),
          h("td", { class: "num" }, `${c.amount} ${c.currency}`),
          h("td", { "data-testid": "call-status" }, c.status),
          h("td", { class: "num" }, String(c.attempts)),
        ),
      ),
    ),
  );
}

function moneyTable(record) {
  const wallets = Object.entries(record.record.wallets ?? {});
  return h(
    "table",
    { class: "grid", "data-testid": "wallets" },
    h("thead", {}, h("tr", {}, ...["wallet", "debited", "credited", "after"].map((k) => h("th", { scope: "col" }, t(`office.money.${k}`))))),
    h(
      "tbody",
      {},
      ...wallets.map(([id, w]) =>
        h("tr", {}, h("td", {}, id), h("td", { class: "num" }, String(w.debited)), h("td", { class: "num" }, String(w.credited)), h("td", { class: "num" }, w.after === null ? "—" : String(w.after))),
      ),
    ),
  );
}

/** The operators whose wallets the round's boxes played from (seamless players are `op:player`). */
function operatorsOf(steps) {
  const ids = new Set();
  for (const box of steps[steps.length - 1].round.boxes) {
    if (box.player.includes(":")) ids.add(box.player.split(":")[0]);
  }
  if (office.me.operator_id) return [office.me.operator_id];
  return [...ids];
}

function checkButton(name, run) {
  const slot = h("p", { role: "status", "data-testid": `${name}-result` });
  const button = h("button", { type: "button", "data-testid": `${name}-check`, "data-key": `${name}-check` }, t(`office.check.${name}`));
  button.addEventListener("click", async () => {
    slot.dataset.ok = "";
    slot.textContent = t("office.check.checking");
    const { ok, text } = await run();
    slot.dataset.ok = String(ok);
    slot.className = ok ? "ok" : "bad";
    slot.textContent = text;
  });
  return h("div", { class: "check" }, button, slot);
}

async function fairness(tableId, number) {
  const proof = await read(`/v1/tables/${encodeURIComponent(tableId)}/rounds/${number}/proof`);
  if (!proof) return { ok: false, text: t("office.check.unavailable") };
  if (proof.stacked_deck) return { ok: false, text: t("office.fair.stacked") };
  const outcome = await verifyProof(proof);
  if (!outcome.commitment_ok) return { ok: false, text: t("office.fair.commitment_bad") };
  if (!outcome.ok) return { ok: false, text: t("office.fair.cards_bad", { detail: outcome.first_mismatch ?? "" }) };
  return { ok: true, text: t("office.fair.ok", { cards: outcome.cards_checked ?? "" }) };
}

async function inclusion(tableId, number) {
  const proof = await read(`/v1/audit/rounds/${encodeURIComponent(tableId)}/${number}/inclusion`);
  const key = await read("/v1/audit/checkpoints/public-key");
  if (!proof || !key) return { ok: false, text: t("office.check.unavailable") };
  const verdict = await verifyInclusion(proof, key.public_key);
  if (verdict.ok) return { ok: true, text: t("office.inclusion.ok", { seq: proof.checkpoint.seq }) };
  return { ok: false, text: t(`office.inclusion.${verdict.step}`, { version: verdict.detail ?? "" }) };
}

export async function viewerPage(tableId, number) {
  const found = await read(`/v1/audit/rounds/${encodeURIComponent(tableId)}/${number}/steps`);
  if (!found) return h("p", { "data-testid": "no-round" }, t("office.round.missing", { table: tableId, round: number }));
  const steps = found.steps;
  const audits = office.me.role === "auditor" || office.me.role === "admin";
  const record = audits ? await read(`/v1/audit/rounds/${encodeURIComponent(tableId)}/${number}`) : null;
  const calls = [];
  for (const operator of operatorsOf(steps)) {
    const page = await read(`/v1/operators/${encodeURIComponent(operator)}/transactions?round_id=${encodeURIComponent(`${tableId}:${number}`)}&limit=1000`);
    if (page) calls.push(...page.items);
  }
  const holder = h("div", { "data-testid": "steps" });
  const redraw = (index) => replace(holder, [stepView(steps, index, redraw)]);
  redraw(0);
  return h(
    "section",
    { class: "viewer", "aria-labelledby": "round-title", "data-round": `${tableId}:${number}` },
    h("h2", { id: "round-title" }, t("office.round.title", { table: tableId, round: number })),
    h("div", { class: "checks" }, checkButton("fairness", () => fairness(tableId, number)), checkButton("inclusion", () => inclusion(tableId, number))),
    holder,
    h("h3", {}, t("office.calls.title")),
    callsTable(calls),
    record ? h("div", {}, h("h3", {}, t("office.money.title")), moneyTable(record), h("p", { "data-testid": "totals" }, t("office.money.totals", record.record.totals))) : null,
  );
}
