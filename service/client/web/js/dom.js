/**
 * A tiny DOM builder. Every text goes in as a text node, never as HTML, so nothing a
 * player can name (a player id, a client seed) can inject markup into another's page.
 */

/**
 * h("button", {class: "x", onclick: fn, "aria-pressed": "true"}, "text", child, ...)
 * Attributes whose value is null, undefined or false are left out; `true` sets them empty.
 * @param {string} tag
 * @param {Record<string, unknown>} [props]
 * @param {...(Node|string|number|null|undefined|false|Array)} children
 * @returns {HTMLElement}
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    } else if (name === "value") {
      /** @type {HTMLInputElement} */ (element).value = String(value);
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

/** SVG elements need their namespace. */
export function svg(tag, props = {}, ...children) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(props)) {
    if (value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * Replace the contents of `target` with `content`, keeping keyboard focus on the element
 * with the same `data-key` if there is one: the table is redrawn on every state, and a
 * keyboard user must not be thrown back to the top of the page each time.
 * @param {HTMLElement} target
 * @param {Node[]} content
 */
export function replace(target, content) {
  const focused = /** @type {HTMLElement|null} */ (document.activeElement);
  const key = focused && target.contains(focused) ? focused.dataset.key : undefined;
  const typed =
    focused instanceof HTMLInputElement ? { value: focused.value, start: focused.selectionStart } : null;
  // Disclosures the player opened stay open (the paytables, say) however often it redraws.
  const open = new Set([...target.querySelectorAll("details[open][data-key]")].map((d) => /** @type {HTMLElement} */ (d).dataset.key));
  target.replaceChildren(...content.flat(Infinity).filter((node) => node !== null && node !== undefined && node !== false));
  for (const details of target.querySelectorAll("details[data-key]")) {
    if (open.has(/** @type {HTMLElement} */ (details).dataset.key)) details.setAttribute("open", "");
  }
  if (!key) return;
  const again = /** @type {HTMLElement|null} */ (target.querySelector(`[data-key="${CSS.escape(key)}"]`));
  again?.focus({ preventScroll: true });
  if (!again || document.activeElement !== again) {
    // Gone, or disabled now (the bet just placed): stay in the region redrawn (main has a
    // tabindex), not thrown back to the top of the page.
    if (target.hasAttribute("tabindex")) target.focus({ preventScroll: true });
    return;
  }
  if (typed && again instanceof HTMLInputElement && again.type === "text") {
    again.value = typed.value;
    if (typed.start !== null) again.setSelectionRange(typed.start, typed.start);
  }
}
