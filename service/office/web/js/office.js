/**
 * The back office: one page, its view chosen by the fragment (#/rounds, #/round/t1/42,
 * #/transactions, #/reports, #/availability). The token arrives once in the fragment
 * (#token=…, never sent to a server), is kept for the tab's session, and every read goes to
 * the API with it: what a role may see is the server's decision, the page only leaves out
 * what the server would refuse. Texts come from this page's own catalogues, in English or
 * Russian.
 */

import { h, replace } from "/play/static/js/dom.js";
import { Api, Problem } from "/play/static/js/api.js";
import { LANGUAGES, currentLanguage, setLanguage, t, useCatalogues } from "/play/static/js/i18n.js";
import { roundsPage } from "./rounds.js";
import { viewerPage } from "./viewer.js";
import { transactionsPage } from "./transactions.js";
import { reportsPage } from "./reports.js";
import { availabilityPage } from "./availability.js";

const TOKEN = "office-token";
const LANGUAGE = "office-language";

/** What every page is given: the API, who is looking, and how to show a problem. */
export const office = {
  /** @type {Api|null} */ api: null,
  /** @type {{role: string, operator_id: string|null}} */ me: { role: "", operator_id: null },
  /** The pages' own state (forms keep what was typed when the language changes). */
  state: /** @type {Record<string, any>} */ ({}),
};

/** Callers bound to no operator: admins and the game's own auditors see every operator. */
export function unbound() {
  return office.me.operator_id === null;
}

export function showProblem(error) {
  const box = /** @type {HTMLElement} */ (document.getElementById("problem"));
  if (!error) {
    box.hidden = true;
    box.replaceChildren();
    box.dataset.code = "";
    return;
  }
  const problem = error instanceof Problem ? error : null;
  box.dataset.code = problem ? problem.code : "network";
  box.replaceChildren(h("p", {}, problem ? problem.detail || problem.title : t("office.error.network")));
  box.hidden = false;
}

/**
 * For callers bound to no operator, a form naming the operator a page is about (its value
 * goes to `#/{page}?operator=`); nothing for an operator's own staff.
 * @param {string} page
 * @param {string} operator  the one named now
 */
export function operatorChooser(page, operator) {
  if (!unbound()) return null;
  const id = `${page}-operator`;
  return h(
    "form",
    {
      class: "search",
      onsubmit: (event) => {
        event.preventDefault();
        const value = String(new FormData(/** @type {HTMLFormElement} */ (event.target)).get("operator") ?? "").trim();
        location.hash = `#/${page}?operator=${encodeURIComponent(value)}`;
      },
    },
    h("label", { for: id }, t("office.search.operator"), h("input", { id, name: "operator", value: operator, "data-testid": id })),
    h("button", { type: "submit", "data-testid": `${page}-go` }, t("office.search.go")),
  );
}

/** Read a route's data, showing a refusal as the problem and answering null. */
export async function read(path) {
  try {
    return await /** @type {Api} */ (office.api).get(path);
  } catch (error) {
    showProblem(error);
    return null;
  }
}

const PAGES = [
  ["rounds", "office.nav.rounds"],
  ["transactions", "office.nav.transactions"],
  ["reports", "office.nav.reports"],
  ["availability", "office.nav.availability"],
];

function route() {
  const parts = location.hash.replace(/^#\/?/, "").split("?")[0].split("/").map(decodeURIComponent);
  const query = new URLSearchParams(location.hash.split("?")[1] || "");
  return { page: parts[0] || "rounds", args: parts.slice(1), query };
}

async function draw() {
  const { page, args, query } = route();
  showProblem(null);
  replace(
    /** @type {HTMLElement} */ (document.getElementById("nav")),
    PAGES.map(([name, key]) =>
      h("a", { href: `#/${name}`, "data-testid": `nav-${name}`, "aria-current": page === name || (page === "round" && name === "rounds") ? "page" : null }, t(key)),
    ),
  );
  const main = /** @type {HTMLElement} */ (document.getElementById("main"));
  main.dataset.page = page;
  const build =
    page === "round" ? () => viewerPage(args[0], Number(args[1])) :
    page === "transactions" ? () => transactionsPage(query) :
    page === "reports" ? () => reportsPage(query) :
    page === "availability" ? () => availabilityPage(query) :
    () => roundsPage(query);
  replace(main, [h("p", { class: "loading" }, t("office.loading"))]);
  const content = await build();
  replace(main, [content]);
  main.dataset.ready = "true";
}

function drawChrome() {
  document.title = t("office.title");
  /** @type {HTMLElement} */ (document.getElementById("title")).textContent = t("office.title");
  const me = office.me;
  const who = /** @type {HTMLElement} */ (document.getElementById("who"));
  who.textContent = t("office.who", { role: t(`office.role.${me.role}`), operator: me.operator_id ?? t("office.every_operator") });
  who.dataset.role = me.role;
  const select = h(
    "select",
    {
      id: "language",
      "aria-label": t("office.language"),
      "data-testid": "language",
      onchange: async (event) => {
        const lang = /** @type {HTMLSelectElement} */ (event.target).value;
        sessionStorage.setItem(LANGUAGE, lang);
        await setLanguage(lang);
        drawChrome();
        await draw();
      },
    },
    ...LANGUAGES.map((lang) => h("option", { value: lang, selected: lang === currentLanguage() }, t(`office.lang.${lang}`))),
  );
  replace(/** @type {HTMLElement} */ (document.getElementById("language-slot")), [select]);
}

/** A page with nothing to navigate: a message in place of the sections. */
function only(message) {
  const main = /** @type {HTMLElement} */ (document.getElementById("main"));
  replace(main, [message]);
  main.dataset.ready = "true";
}

async function start() {
  useCatalogues("/office/static/i18n");
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
  if (fragment.has("token")) {
    sessionStorage.setItem(TOKEN, fragment.get("token") || "");
    if (fragment.has("lang")) sessionStorage.setItem(LANGUAGE, fragment.get("lang") || "en");
    history.replaceState(null, "", `${location.pathname}#/rounds`);
  }
  await setLanguage(sessionStorage.getItem(LANGUAGE) || navigator.language.slice(0, 2));
  const token = sessionStorage.getItem(TOKEN);
  if (!token) {
    only(h("p", { "data-testid": "no-token" }, t("office.no_token")));
    return;
  }
  office.api = new Api(token);
  const me = await read("/v1/me");
  if (!me) return;
  office.me = { role: me.role, operator_id: me.every_operator ? null : me.operator_id };
  drawChrome();
  if (me.role === "player") {
    only(h("p", { "data-testid": "not-for-players" }, t("office.not_for_players")));
    return;
  }
  addEventListener("hashchange", () => void draw());
  await draw();
}

void start();
