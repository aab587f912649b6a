// The list builder page's state, shared by its panels (builder.js starts them), and the words
// every panel uses for a list entry. The panels read and set `page`; only builder.js swaps
// page.list when the store changes.
import { api, ApiError, byId } from "./util.js";

/** @typedef {import("./api_shapes.js").ArmyList} ArmyList */
/** @typedef {import("./api_shapes.js").Book} Book */
/** @typedef {import("./api_shapes.js").Entry} Entry */
/** @typedef {import("./api_shapes.js").GameSystem} GameSystem */
/** @typedef {import("./api_shapes.js").Group} Group */
/** @typedef {import("./api_shapes.js").Report} Report */
/** @typedef {import("./api_shapes.js").Section} Section */
/** @typedef {import("./api_shapes.js").Unit} Unit */

/**
 * @typedef {object} BuilderPage
 * @property {GameSystem} system
 * @property {Book} book
 * @property {import("./profile.js").Glossary} glossary
 * @property {Map<string, Unit>} units  the book's units by id
 * @property {Map<string, Section>} sections  the book's upgrade sections by id
 * @property {import("./store.js").ListStore} store  the list and its undo history
 * @property {ArmyList} list  store.list: the list in progress, in the API's list format
 * @property {ReturnType<typeof import("./saved.js").initSaved>} saved  Save, Share and where the list is kept in this browser
 * @property {import("./preview.js").Preview | null} preview
 * @property {import("./editor.js").Editor | null} editor
 * @property {string | null} selected  key of the entry open in the editor
 * @property {Report | null} report  the last validation report
 * @property {Date | null} offlineSince  no answer from the server (offline): the report is from before then
 * @property {string | null} formProblem  a settings field that holds no usable value, in words
 */

export const app = byId("app");
export const SYSTEM_ID = app.dataset.system || "";
export const BOOK_ID = app.dataset.book || "";

/**
 * The page's state. system, book, glossary, store and list are set by builder.js's start()
 * before any panel draws, so the panels take them as there (the cast says so once, here).
 * @type {BuilderPage}
 */
export const page = /** @type {BuilderPage} */ (/** @type {unknown} */ ({
  units: new Map(), sections: new Map(), saved: null, preview: null, editor: null,
  selected: null, report: null, offlineSince: null, formProblem: null,
}));

/**
 * The element with this id, which builder.html always has.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {new () => T} [kind]  the element's class, to use what only that kind has (a select's value)
 * @returns {T}
 */
export const $ = (id, kind) => byId(id, kind);

/** @returns {boolean} whether the system prices lists against per-currency budgets (armour-hex) rather than a points limit */
export const isBudgetSystem = () => Boolean(page.system.composition && page.system.composition.currencies);

/**
 * @param {string | null} key
 * @returns {Entry | null} the list's entry with that key
 */
export function entry(key) { return page.list.units.find((e) => e.key === key) || null; }

/**
 * @param {Entry} e
 * @returns {string} the name the player gave the entry, else its unit's
 */
export function nameOf(e) {
  const u = page.units.get(e.unit);
  return e.name || (u ? u.name : e.unit);
}

/**
 * A name that tells copies apart without internal keys: "Huscarls", "Huscarls #2".
 * @param {Entry} e
 * @returns {string}
 */
export function labelOf(e) {
  const name = nameOf(e);
  const same = page.list.units.filter((x) => nameOf(x) === name);
  return same.length > 1 ? `${name} #${same.indexOf(e) + 1}` : name;
}

/**
 * "2× Ash Wardens + Pyre Marshal": the group as the table sees one unit.
 * @param {Group} group
 * @returns {string}
 */
export function groupName(group) {
  const main = group.members.length > 1 ? `2× ${nameOf(group.members[0])}` : labelOf(group.members[0]);
  return group.heroes.length ? `${main} with ${group.heroes.map(nameOf).join(" and ")}` : main;
}

/**
 * A list key made safe for an element id.
 * @param {string} key
 * @returns {string}
 */
export const cssId = (key) => key.replace(/[^a-zA-Z0-9_-]/g, "_");

/**
 * Wait for a task of its own: long work split in pieces lets the page answer a tap between them.
 * @returns {Promise<void>} resolved after what the browser has waiting
 */
export const nextTask = () => new Promise((resolve) => { setTimeout(resolve, 0); });

/**
 * Say what was done, in the status line screen readers announce.
 * @param {string} text
 * @returns {void}
 */
export function announce(text) { $("export-status").textContent = text; }

/**
 * @param {unknown} err
 * @returns {boolean} whether the failure is "no answer at all" (offline), not an answer saying no
 */
export const offline = (err) => err instanceof ApiError && err.status === 0;

/** @type {Promise<any[]> | null} */
let booksOfSystem = null;
/**
 * The system's listed books (fetched once): where the preview and the efficiency panel pick a target.
 * @returns {Promise<any[]>}
 */
export function systemBooks() {
  if (!booksOfSystem) {
    booksOfSystem = api(`/api/v1/books?system=${encodeURIComponent(SYSTEM_ID)}`);
    booksOfSystem.catch(() => { booksOfSystem = null; });
  }
  return booksOfSystem;
}

/** @type {Map<string, Promise<Book>>} */
const bookCache = new Map();
/**
 * A book by id, fetched once (a failed fetch is tried again next time).
 * @param {string} id
 * @returns {Promise<Book>}
 */
export function loadBook(id) {
  let p = bookCache.get(id);
  if (!p) {
    p = api(`/api/v1/books/${encodeURIComponent(id)}`);
    p.catch(() => bookCache.delete(id));
    bookCache.set(id, p);
  }
  return p;
}

/**
 * The book this page loaded, kept so loadBook does not fetch it again.
 * @param {Book} book
 * @returns {void}
 */
export function keepBook(book) { bookCache.set(book.id, Promise.resolve(book)); }
