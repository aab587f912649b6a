// Small helpers shared by the pages: DOM building, API calls with readable errors, formatting.

/**
 * Something h() can append: text, an element, nothing (null, undefined, false are skipped), or
 * an array of them.
 * @typedef {Node | string | number | boolean | null | undefined | Child[]} Child
 */

/**
 * h("button", {class: "x", onclick: fn}, "text", child) -> element. null/false children are skipped.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any> | null} [attrs]  attributes; on* functions become listeners,
 *   class, dataset and non-string values of the element's own properties are set as properties
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  const props = /** @type {Record<string, any>} */ (el);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") el.addEventListener(name.slice(2), value);
    else if (name === "class") el.className = value;
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (name in el && typeof value !== "string") props[name] = value;
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * The element with this id, which the page's template always has: a missing one fails here, by
 * its id, instead of as "null has no properties" further on.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {new () => T} [kind]  the element's class, to use what only that kind has (a select's value)
 * @returns {T}
 */
export function byId(id, kind) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`The page has no #${id}.`);
  if (kind && !(el instanceof kind)) throw new Error(`#${id} is not a ${kind.name}.`);
  return /** @type {T} */ (el);
}

/** An error from the API, in its one shape {code, status, message, errors}. */
export class ApiError extends Error {
  /**
   * @param {number} status  the HTTP status; 0 when no answer came at all (offline)
   * @param {Record<string, any> | null} body  the answer's JSON
   */
  constructor(status, body) {
    super((body && body.message) || `the server answered ${status}`);
    this.status = status;
    this.body = body || {};
  }
  /** @returns {string[]} field -> messages, flattened to lines like "units[2].count: not a count" */
  get details() {
    const out = [];
    for (const [field, messages] of Object.entries(this.body.errors || {})) {
      const list = Array.isArray(messages) ? messages : [messages];
      for (const m of list) out.push(`${field}: ${typeof m === "string" ? m : JSON.stringify(m)}`);
    }
    return out;
  }
}

/**
 * fetch() wrapper: JSON in, JSON (or text/blob) out, ApiError with words on any failure.
 * @param {string} path
 * @param {{method?: string, body?: unknown, as?: "json" | "text" | "blob", headers?: Record<string, string>}} [options]
 *   body: sent as JSON; as: how the answer is read
 * @returns {Promise<any>} the answer (JSON, text or a Blob), null for 204
 */
export async function api(path, { method = "GET", body, as = "json", headers = {} } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: { ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    // The browser knows when it has no network: say that, not that the server may be down.
    throw new ApiError(0, { message: navigator.onLine === false
      ? "You are offline: this needs the server. Try again when the connection is back."
      : `Could not reach the server (${/** @type {Error} */ (err).message}). Is it still running?` });
  }
  if (!response.ok) {
    /** @type {any} */
    let data = null;
    try { data = await response.json(); } catch { /* not our JSON shape */ }
    if (!data || typeof data !== "object") data = { message: `The server answered ${response.status} ${response.statusText}.` };
    throw new ApiError(response.status, data);
  }
  if (response.status === 204) return null;
  if (as === "blob") return response.blob();
  if (as === "text") {
    const type = response.headers.get("Content-Type") || "";
    if (type.includes("json")) {
      const data = await response.json();
      return typeof data === "string" ? data : data.text ?? JSON.stringify(data, null, 2);
    }
    return response.text();
  }
  return response.json();
}

/**
 * A paragraph (or list) telling the player what went wrong, in words.
 * @param {unknown} err
 * @param {string} [prefix]  what could not be done: "No PDF"
 * @returns {HTMLDivElement}
 */
export function errorBox(err, prefix = "") {
  const message = err instanceof ApiError ? err.message : /** @type {{message?: string} | null | undefined} */ (err)?.message || String(err);
  const details = err instanceof ApiError ? err.details : [];
  return h("div", { class: "notice error", role: "alert" },
    h("p", {}, prefix ? `${prefix}: ${message}` : message),
    details.length ? h("ul", {}, details.map((d) => h("li", {}, d))) : null);
}

/** @type {Record<string, string>} */
const CURRENCY_LABELS = { pts: "pts", vp: "VP", ip: "IP", mp: "MP", cp: "CP", xp: "XP" };
/**
 * @param {string} c  a currency id: "pts", "ip"
 * @returns {string} as the page writes it: "pts", "IP"
 */
export const currencyLabel = (c) => CURRENCY_LABELS[c] || c.toUpperCase();

/**
 * {pts: 5} -> "5 pts"; {ip: 1, cp: 2} -> "1 IP + 2 CP"; zero parts dropped.
 * @param {Record<string, number> | null | undefined} cost
 * @returns {string} "free" for no cost
 */
export function formatCost(cost) {
  const parts = Object.entries(cost || {}).filter(([, v]) => v).map(([c, v]) => `${v} ${currencyLabel(c)}`);
  return parts.length ? parts.join(" + ") : "free";
}

/**
 * "Tough(3)" -> "Tough"; the glossary is keyed by the rule's name.
 * @param {unknown} label
 * @returns {string}
 */
export const ruleName = (label) => String(label).replace(/\s*\(.*\)\s*$/, "").trim();

/**
 * "models_killed" -> "Models killed".
 * @param {unknown} key
 * @returns {string}
 */
export const humanize = (key) => String(key).replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

/**
 * 0.125 -> "12.5%".
 * @param {number} p  a probability
 * @param {number} [digits]
 * @returns {string}
 */
export const percent = (p, digits = 1) => `${(100 * p).toFixed(digits)}%`;

/**
 * fn, called once calls stop coming for ms milliseconds (with the last call's arguments);
 * flush() calls it at once.
 * @template {unknown[]} A
 * @param {(...args: A) => void} fn
 * @param {number} ms
 * @returns {((...args: A) => void) & {flush: (...args: A) => void}}
 */
export function debounce(fn, ms) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer = undefined;
  const wrapped = (/** @type {A} */ ...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
  wrapped.flush = (/** @type {A} */ ...args) => { clearTimeout(timer); fn(...args); };
  return wrapped;
}

/**
 * "Ash Wardens, 500!" -> "ash-wardens-500": a file name from a list's name.
 * @param {string | null | undefined} text
 * @returns {string}
 */
export function slug(text) {
  return String(text || "list").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "list";
}

/**
 * Save a Blob as a file through a temporary link (works for object URLs in every browser).
 * @param {Blob} blob
 * @param {string} filename
 * @returns {void}
 */
export function saveBlob(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: filename, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/**
 * Run fn (which redraws part of the page), then put the focus back on the control that had it:
 * same id, same caret. Redrawing from the list keeps the page simple; this keeps it usable.
 * @param {() => void} fn
 * @returns {void}
 */
export function keepFocus(fn) {
  // Any focusable element: only those with a caret (inputs, textareas) have selectionStart.
  const before = /** @type {(HTMLInputElement & Element) | null} */ (document.activeElement);
  const id = before && before !== document.body ? before.id : "";
  const caret = before && typeof before.selectionStart === "number" ? [before.selectionStart, before.selectionEnd] : null;
  fn();
  if (!id || !before || document.activeElement === before && before.isConnected) return;
  const now = /** @type {HTMLInputElement | null} */ (document.getElementById(id));
  if (!now || now.disabled) return;
  now.focus({ preventScroll: true });
  if (caret && typeof now.setSelectionRange === "function") {
    try { now.setSelectionRange(caret[0], caret[1]); } catch { /* not a text field */ }
  }
}

/** Read to screen readers beside a select that acts on a choice (see actOnChoice). */
export const CHOICE_HINT = "Choosing with the mouse or a tap acts at once; with the arrow keys, press Enter to act.";

/**
 * A select that acts as soon as a choice is made (one click instead of choose-then-press).
 * Arrow keys on a closed select also fire "change" in Chromium and Firefox, so a choice made
 * from the keyboard waits for Enter: browsing the options never acts by accident.
 * @param {HTMLSelectElement} select
 * @param {(value: string) => void} act  called with the chosen option's value (never "")
 * @returns {void}
 */
export function actOnChoice(select, act) {
  let browsing = false;
  const NAVIGATION = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End"]);
  select.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") {
      ev.preventDefault();
      browsing = false;
      if (select.value) act(select.value);
    } else if (NAVIGATION.has(ev.key) || (ev.key.length === 1 && !ev.ctrlKey && !ev.metaKey && ev.key !== " ")) browsing = true;
  });
  select.addEventListener("pointerdown", () => { browsing = false; });
  select.addEventListener("blur", () => { browsing = false; });
  select.addEventListener("change", () => { if (!browsing && select.value) act(select.value); });
}

/**
 * counted(1, "option") is "1 option", counted(2, "option") "2 options": never "option(s)".
 * @param {number} n
 * @param {string} one
 * @param {string} [many]
 * @returns {string}
 */
export const counted = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * "Ash Wardens’ attack", "Ember Priest’s attack": a name ending in s takes the apostrophe alone.
 * @param {string} name
 * @returns {string}
 */
export const possessive = (name) => (/s$/i.test(name) ? `${name}’` : `${name}’s`);
