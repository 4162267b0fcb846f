/**
 * Texts, card names and money in the player's language. Every text of the client comes from
 * one catalogue per language (../i18n/<language>.json); a key missing from a catalogue shows
 * as the English text, never as nothing.
 */

export const LANGUAGES = ["en", "ru"];

let catalogue = /** @type {Record<string, string>} */ ({});
let fallback = /** @type {Record<string, string>} */ ({});
let language = "en";

async function fetchCatalogue(lang) {
  const response = await fetch(`/play/static/i18n/${lang}.json`);
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

/**
 * An amount of minor units as money, exactly: the integer is split into whole and fraction
 * digits as text and formatted from that decimal string, so no float ever holds it.
 * @param {number} amount  integer minor units
 * @param {string} currency ISO 4217
 */
export function money(amount, currency) {
  if (!digitsOf.has(currency)) {
    digitsOf.set(
      currency,
      new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2,
    );
  }
  const digits = digitsOf.get(currency);
  const sign = amount < 0 ? "-" : "";
  const text = String(Math.abs(amount)).padStart(digits + 1, "0");
  const decimal = digits ? `${text.slice(0, -digits)}.${text.slice(-digits)}` : text;
  return new Intl.NumberFormat(language, { style: "currency", currency }).format(`${sign}${decimal}`);
}

/** A time in the player's language. */
export function time(iso) {
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "medium" }).format(new Date(iso));
}
