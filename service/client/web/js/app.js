/**
 * The reference table client. It starts from the address (`/play/` is the lobby,
 * `/play/{table}` a table) and a token (the launch URL's fragment `#token=…&lang=…`, kept
 * for the tab in sessionStorage and taken off the address bar), then:
 *   - reads who it is (`GET /v1/me`) and the table (`GET /v1/tables/{id}`),
 *   - follows the live stream for every new state (stream.js),
 *   - sends what the player clicks as commands (api.js), showing refusals as problems.
 * The newest view wins: a command's answer and the stream's event of the same version are
 * the same state, and whichever comes second changes nothing (but its deadlines).
 */

import { Api, Problem } from "./api.js";
import { h, replace } from "./dom.js";
import { LANGUAGES, currentLanguage, has, money, setLanguage, t } from "./i18n.js";
import { TableStream } from "./stream.js";
import { boxes, dealer, header, lastRound, paytables, seats, tick, timers } from "./table.js";
import { actionPanel } from "./actions.js";
import { lobby } from "./lobby.js";
import { showHistory } from "./recall.js";
import { fairnessPanel } from "./fairness-panel.js";

const TOKEN_KEY = "russian-poker.token";
const LANGUAGE_KEY = "russian-poker.language";

const app = {
  /** @type {Api|null} */ api: null,
  /** @type {any} */ me: null,
  /** @type {string|null} */ tableId: null,
  /** @type {any} */ view: null,
  /** @type {any[]} */ deadlines: [],
  /** @type {TableStream|null} */ stream: null,
  connection: "connecting",
  /** Commitments as this client saw them while their round took bets: round → hex. */
  commitments: new Map(),
  bet: { box: /** @type {number|null} */ (null), ante: 0, bonus: 0, dark: false, seed: "" },
  exchange: { box: /** @type {number|null} */ (null), cards: new Set() },
  insurance: new Map(),
  /** Fairness checks done: round → result (see fairness-panel.js). */
  fairness: new Map(),
  busy: false,
};

const $ = (selector) => /** @type {HTMLElement} */ (document.querySelector(selector));

function readFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get("token");
  const lang = fragment.get("lang");
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  if (lang) localStorage.setItem(LANGUAGE_KEY, lang);
  // The token must not stay in the address bar, a bookmark or a screenshot.
  if (token || lang) history.replaceState(null, "", location.pathname + location.search);
}

function wantedLanguage() {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  if (stored) return stored;
  return navigator.language.toLowerCase().startsWith("ru") ? "ru" : "en";
}

async function main() {
  readFragment();
  await setLanguage(wantedLanguage());
  drawChrome();
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) return askForToken();
  app.api = new Api(token, {
    onRetry: (ms) => showStatus(t("conn.retrying", { seconds: Math.ceil(ms / 1000) })),
    onRecovered: () => showStatus(""),
  });
  try {
    app.me = await app.api.get("/v1/me");
  } catch (error) {
    if (error instanceof Problem && error.status === 401) {
      sessionStorage.removeItem(TOKEN_KEY);
      return askForToken(error.detail);
    }
    throw error;
  }
  if (!localStorage.getItem(LANGUAGE_KEY) && app.me.language && LANGUAGES.includes(app.me.language)) {
    await setLanguage(app.me.language);
  }
  drawChrome();
  const path = location.pathname.replace(/\/+$/, "");
  const table = path.startsWith("/play/") ? decodeURIComponent(path.slice("/play/".length)) : "";
  if (table) await openTable(table);
  else await openLobby();
  drawBalance();
}

/** The parts of the page outside the table: language switch, balance, history. */
function drawChrome() {
  document.title = t("app.title");
  $("#skip").textContent = t("app.skip");
  const select = h(
    "select",
    { id: "language", "data-testid": "language", "aria-label": t("app.language"), onchange: async (event) => {
      localStorage.setItem(LANGUAGE_KEY, event.target.value);
      await setLanguage(event.target.value);
      drawChrome();
      draw();
      drawBalance();
    } },
    LANGUAGES.map((lang) => h("option", { value: lang, selected: lang === currentLanguage() }, lang === "en" ? "English" : "Русский")),
  );
  replace($("#language-slot"), [h("label", { for: "language", class: "visually-hidden" }, t("app.language")), select]);
  replace($("#nav"), [
    h("a", { href: "/play/", "data-testid": "to-lobby" }, t("app.lobby")),
    app.me?.player_id
      ? h("button", { type: "button", class: "quiet", "data-testid": "history-open", onclick: openHistory }, t("app.history"))
      : null,
  ]);
  $("#history-title").textContent = t("history.title");
  $("#history-close").textContent = t("history.close");
  drawConnection();
}

function askForToken(detail) {
  replace($("#main"), [
    h(
      "form",
      { class: "token-form", onsubmit: (event) => {
        event.preventDefault();
        const value = /** @type {HTMLInputElement} */ ($("#token")).value.trim();
        if (!value) return;
        sessionStorage.setItem(TOKEN_KEY, value);
        location.reload();
      } },
      h("h1", {}, t("token.title")),
      h("p", {}, t("token.help")),
      detail ? h("p", { role: "alert", class: "problem" }, detail) : null,
      h("label", { for: "token" }, t("token.label")),
      h("input", { id: "token", type: "password", autocomplete: "off", required: true }),
      h("button", { type: "submit" }, t("token.submit")),
    ),
  ]);
}

async function openLobby() {
  const tables = await app.api.get("/v1/tables");
  replace($("#main"), lobby(tables));
}

async function openTable(tableId) {
  app.tableId = tableId;
  try {
    accept(await app.api.get(`/v1/tables/${encodeURIComponent(tableId)}`));
  } catch (error) {
    replace($("#main"), [h("p", { role: "alert", class: "problem" }, describe(error))]);
    return;
  }
  app.stream = new TableStream(app.api, tableId, {
    onView: (view, kind) => accept(view, kind === "reset"),
    onStatus: (status) => { app.connection = status; drawConnection(); },
    onFatal: (error) => showProblem(describe(error)),
  });
  app.stream.start();
  setInterval(() => tick($("#main"), app.api.now()), 250);
}

/** Take a view if it is newer than the one shown (or the same with its deadlines). */
function accept(view, reset = false) {
  const shown = app.view;
  const newer = !shown || reset || view.version > shown.version;
  const deadlines = Array.isArray(view.deadlines);
  if (!newer && !(view.version === shown.version && deadlines)) return;
  // Money moves at the deal (a bonus pays on the first five cards) and at settlement, and
  // by the player's own commands (drawn after their answers): the balance is read again
  // then, not on every state.
  const moved = !shown || shown.round?.number !== view.round?.number || shown.round?.phase !== view.round?.phase;
  if (newer) app.view = view;
  // A command's answer has no deadlines (the stream's event of its version brings them):
  // until then the waits that go on keep their countdowns, and those that ended lose them.
  if (deadlines) app.deadlines = view.deadlines;
  else if (newer) app.deadlines = app.deadlines.filter((deadline) => stillWaiting(deadline, view, shown));
  const round = app.view.round;
  if (round && round.phase === "betting" && !app.commitments.has(round.number)) {
    app.commitments.set(round.number, round.commitment);
  }
  if (app.exchange.box !== null && !round?.boxes.find((b) => b.box === app.exchange.box)?.actions.includes("Exchange")) {
    app.exchange.box = null;
  }
  draw();
  if (newer && moved) drawBalance();
}

/** Whether `view` still waits for what `deadline` (given with `before`) counted down to. */
function stillWaiting(deadline, view, before) {
  const round = view.round;
  if (!round || round.number !== before?.round?.number) return false;
  if (deadline.wait === "betting") return round.phase === "betting";
  const phase = deadline.wait === "decision" ? "decisions" : "dealer_draw";
  return round.phase === phase && round.awaiting.includes(deadline.box);
}

function draw() {
  const view = app.view;
  if (!view) return;
  const me = app.me?.player_id ?? null;
  if (app.bet.box !== null && !view.free_boxes.includes(app.bet.box)) app.bet.box = null;
  if (app.bet.box === null && view.free_boxes.length) app.bet.box = view.free_boxes[0];
  const scene = {
    me,
    exchange: app.exchange,
    toggleCard: (box, card) => {
      const picked = app.exchange.cards;
      if (picked.has(card)) picked.delete(card);
      else picked.add(card);
      draw();
    },
  };
  const previous = view.previous_round;
  replace($("#main"), [
    header(view),
    h(
      "div",
      { class: "felt" },
      dealer(view.round),
      timers(app.deadlines),
      boxes(view, scene, (number) => { app.bet.box = number; draw(); }, app.bet.box),
    ),
    actionPanel(view, me, { bet: app.bet, exchange: app.exchange, insurance: app.insurance }, { act, redraw: draw, problem: (text) => showProblem(text, "invalid_amount"), busy: app.busy }),
    seats(view, me, act),
    lastRound(previous, view.ruleset.currency, me, previous ? fairnessPanel(app, previous, draw) : null),
    paytables(view.ruleset),
  ]);
  $("#main").dataset.version = String(view.version);
  drawWho();
  tick($("#main"), app.api.now());
}

/** Send a command; its answer is drawn at once, a refusal shown as the problem says. */
async function act(command) {
  if (app.busy) return;
  app.busy = true;
  draw(); // the actions wait for this answer
  showProblem("");
  try {
    const answer = await app.api.command(app.tableId, command);
    accept(answer.table);
    if (command.type === "PlaceAnte") {
      // The stream's state of this version may have been drawn before the answer came,
      // with the bet still in the form: draw the emptied form whatever accept() did.
      app.bet.ante = 0;
      app.bet.bonus = 0;
      draw();
    }
    drawBalance();
  } catch (error) {
    showProblem(describe(error), error instanceof Problem ? error.code : "network");
  } finally {
    app.busy = false;
    draw();
  }
}

/** A refusal in the player's words: the catalogue's text for its code, else the server's. */
function describe(error) {
  if (error instanceof Problem) {
    return has(`problem.${error.code}`) && currentLanguage() !== "en"
      ? t(`problem.${error.code}`)
      : error.detail || error.title;
  }
  return t("error.network");
}

function showProblem(text, code = "") {
  const box = $("#problem");
  box.dataset.code = code;
  replace(box, text ? [h("p", { "data-testid": "problem" }, text), h("button", { type: "button", class: "quiet", onclick: () => showProblem("") }, t("error.dismiss"))] : []);
  box.hidden = !text;
}

function showStatus(text) {
  const status = $("#retry-status");
  status.textContent = text;
  status.hidden = !text;
}

function drawConnection() {
  const el = $("#connection");
  el.dataset.state = app.tableId ? app.connection : "";
  el.textContent = app.tableId ? t(`conn.${app.connection}`) : "";
}

let balanceReads = 0;

async function drawBalance() {
  if (!app.api || !app.me?.player_id) return;
  const read = ++balanceReads;
  let me;
  try {
    me = await app.api.get("/v1/me");
  } catch {
    return; // the last balance stays; the next state tries again
  }
  if (read !== balanceReads) return; // a later read is under way: an older answer must not win
  app.me = me;
  const balance = app.me.balance;
  const el = $("#balance");
  el.dataset.amount = balance === null || balance === undefined ? "" : String(balance);
  el.textContent = `${t("app.balance")}: ${balance === null || balance === undefined ? t("app.balance.unknown") : money(balance, app.me.balance_currency)}`;
  drawWho();
}

/** Who the page is for, in the player's own name (without their operator's prefix): a
 * player with a seat here plays, anyone else watches. */
function drawWho() {
  const id = app.me?.player_id;
  if (!id) return;
  const name = id.slice(id.indexOf(":") + 1);
  const seated = Boolean(app.view?.seats.includes(id));
  $("#who").textContent = t(seated ? "app.player" : "app.watching", { player: name });
  $("#who").dataset.seated = String(seated);
}

async function openHistory() {
  const dialog = /** @type {HTMLDialogElement} */ ($("#history"));
  const currencyOf = (table) => (table === app.view?.table_id ? app.view.ruleset.currency : app.me?.currency ?? "");
  try {
    await showHistory(app.api, app.me.player_id, dialog, currencyOf);
  } catch (error) {
    showProblem(describe(error));
  }
}

$("#history-close").addEventListener("click", () => /** @type {HTMLDialogElement} */ ($("#history")).close());

main().catch((error) => {
  replace($("#main"), [h("p", { role: "alert", class: "problem" }, describe(error))]);
});
