/**
 * Texts, card names and money in the player's language. Every text of the client comes from
 * one catalogue per language (../i18n/<language>.json); a key missing from a catalogue shows
 * as the English text, never as nothing.
 */

export const LANGUAGES = ["en", "ru"];

let catalogue = /** @type {Record<string, string>} */ ({});
let fallback = /** @type {Record<string, string>} */ ({});
let language = "en";
let catalogues = "/play/static/i18n";

/** Where the catalogues are: the table client's by default; the back office has its own. */
export function useCatalogues(path) {
  catalogues = path;
}

async function fetchCatalogue(lang) {
  const response = await fetch(`${catalogues}/${lang}.json`);
  if (!response.ok) throw new Error(`catalogue ${lang}: HTTP ${response.status}`);
  return response.json();
}

/** Load a language (and English, the fallback); sets <html lang>. */
export async function setLanguage(lang) {
  const wanted = LANGUAGES.includes(lang) ? lang : "en";
  if (!Object.keys(fallback).length) fallback = await fetchCatalogue("en");
  catalogue = wanted === "en" ? fallback : await fetchCatalogue(wanted);
  language = wanted;
  document.documentElement.lang = wanted;
  return wanted;
}

export function currentLanguage() {
  return language;
}

/**
 * The text for `key`, with `{name}` placeholders filled from `params`.
 * @param {string} key
 * @param {Record<string, string|number>} [params]
 */
export function t(key, params = {}) {
  const text = catalogue[key] ?? fallback[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Whether the catalogue has a text for `key` (problem codes are optional). */
export function has(key) {
  return key in catalogue || key in fallback;
}

/** "Ace of spades" for "As". */
export function cardName(card) {
  return t("card.name", { rank: t(`rank.${card[0]}`), suit: t(`suit.${card[1]}`) });
}

/** A hand category's name ("straight flush"). */
export function handName(hand) {
  return hand ? t(`hand.${hand}`) : "";
}

const digitsOf = new Map();

/** How many minor-unit digits `currency` has (2 for EUR, 0 for JPY). */
export function minorDigits(currency) {
  if (!digitsOf.has(currency)) {
    digitsOf.set(
      currency,
      new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2,
    );
  }
  return digitsOf.get(currency);
}

/**
 * An amount typed by the player ("12.50" or "12,50") as integer minor units, exactly (the
 * digits are read as text, never through a float); null when it is not an amount.
 * @param {string} text
 * @param {string} currency
 */
export function parseMoney(text, currency) {
  const digits = minorDigits(currency);
  const found = text.trim().match(digits ? new RegExp(`^(\\d+)(?:[.,](\\d{0,${digits}}))?$`) : /^(\d+)$/);
  if (!found) return null;
  const whole = found[1];
  const fraction = (found[2] ?? "").padEnd(digits, "0");
  return Number(whole + fraction);
}

/** Minor units as the plain decimal a player types ("12.50"): no symbol, no grouping. */
export function plainAmount(amount, currency) {
  const digits = minorDigits(currency);
  const text = String(amount).padStart(digits + 1, "0");
  return digits ? `${text.slice(0, -digits)}.${text.slice(-digits)}` : text;
}

/**
 * An amount of minor units as money, exactly: the integer is split into whole and fraction
 * digits as text and formatted from that decimal string, so no float ever holds it.
 * @param {number} amount  integer minor units
 * @param {string} currency ISO 4217
 */
export function money(amount, currency) {
  const sign = amount < 0 ? "-" : "";
  return new Intl.NumberFormat(language, { style: "currency", currency }).format(`${sign}${plainAmount(Math.abs(amount), currency)}`);
}

/** A time in the player's language. */
export function time(iso) {
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "medium" }).format(new Date(iso));
}
