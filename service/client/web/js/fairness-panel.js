/**
 * The fairness check of a settled round, in the page: the revealed seed against the
 * commitment this client saw before the round's bets (not the one the proof repeats), then
 * the round's every card re-derived from the seeds by fairness.js, a second implementation
 * of docs/fairness.md that shares nothing with the server.
 */

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { verifyProof } from "./fairness.js";

/**
 * @param {any} app  the client's state: api, tableId, commitments, fairness
 * @param {any} round  the settled round (the view's previous_round)
 * @param {() => void} redraw
 */
export function fairnessPanel(app, round, redraw) {
  const done = app.fairness.get(round.number);
  const run = async () => {
    app.fairness.set(round.number, { state: "checking" });
    redraw();
    app.fairness.set(round.number, await check(app, round));
    redraw();
  };
  return h(
    "div",
    { class: "fairness", "data-testid": "fairness" },
    h("h3", {}, t("fair.title")),
    round.seed ? h("p", {}, `${t("fair.seed")}: `, h("code", { "data-testid": "revealed-seed" }, round.seed)) : null,
    h("button", { type: "button", "data-testid": "fairness-check", "data-key": `fair-${round.number}`, onclick: run, disabled: done?.state === "checking" }, t("fair.check")),
    done
      ? h(
          "p",
          { role: "status", class: `fair-result ${done.ok ? "ok" : "bad"}`, "data-testid": "fairness-result", "data-ok": done.state === "checking" ? "" : String(done.ok), "data-round": round.number },
          done.state === "checking" ? t("fair.checking") : done.text,
        )
      : null,
  );
}

async function check(app, round) {
  try {
    const proof = await app.api.get(`/v1/tables/${encodeURIComponent(app.tableId)}/rounds/${round.number}/proof`);
    // The commitment this page saw while the round took bets; a page opened later never
    // saw it, and must not say it did.
    const before = app.commitments.get(round.number);
    const seen = before ?? round.commitment;
    if (seen !== proof.commitment) {
      return { ok: false, text: t("fair.commitment_changed", { seen, proof: proof.commitment }) };
    }
    if (proof.stacked_deck) return { ok: false, text: t("fair.stacked") };
    const outcome = await verifyProof(proof);
    if (!outcome.commitment_ok) return { ok: false, text: t("fair.commitment_bad") };
    if (!outcome.ok) return { ok: false, text: t("fair.cards_bad", { detail: outcome.first_mismatch ?? "" }) };
    return { ok: true, text: t(before === undefined ? "fair.ok_unseen" : "fair.ok") };
  } catch (error) {
    return { ok: false, text: t("fair.error", { detail: error instanceof Error ? error.message : String(error) }) };
  }
}
