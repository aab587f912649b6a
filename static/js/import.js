// The import page: Army Forge book and list files (picked or pasted) sent to the API.
// A book comes back with its new id and warnings, and is remembered in this browser so the
// list form can offer it; a list comes back in our format and opens in the builder as its
// draft (the builder restores drafts from localStorage, see builder.js).
import { api, byId, errorBox, formatCost, h } from "./util.js";
import { describeWork, draftKey, readDraft, writeDraft } from "./drafts.js";

const $ = byId;
const BOOKS_KEY = "listbuilder.imported-books";

/** @typedef {{id: string, name: string, system: string, version?: string}} ImportedBook */

/** @returns {ImportedBook[]} the books imported in this browser, newest first */
function rememberedBooks() {
  try {
    const data = JSON.parse(localStorage.getItem(BOOKS_KEY) || "[]");
    return Array.isArray(data) ? data.filter((/** @type {any} */ b) => b && typeof b.id === "string") : [];
  } catch { return []; }
}

/** @param {ImportedBook} book */
function rememberBook(book) {
  const books = [{ id: book.id, name: book.name, system: book.system, version: book.version }, ...rememberedBooks().filter((b) => b.id !== book.id)];
  try { localStorage.setItem(BOOKS_KEY, JSON.stringify(books.slice(0, 50))); } catch { /* storage off: the id is still shown */ }
}

/**
 * The JSON of the picked file, else of the pasted text; an Error naming the problem.
 * @param {HTMLInputElement} fileInput
 * @param {HTMLTextAreaElement} textArea
 * @param {string} what  "book" or "list"
 * @returns {Promise<any>}
 */
async function readSource(fileInput, textArea, what) {
  const file = fileInput.files && fileInput.files[0];
  const text = file ? await file.text() : textArea.value.trim();
  if (!text) throw new Error(`Pick the ${what} file or paste its text.`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${file ? file.name : "The pasted text"} is not JSON: ${/** @type {Error} */ (err).message}`, { cause: err });
  }
}

/**
 * @param {HTMLButtonElement} button
 * @param {boolean} on
 */
function busy(button, on) {
  button.disabled = on;
  button.setAttribute("aria-busy", on ? "true" : "false");
}

// ------------------------------------------------------------------------------------------
// Books

/** @param {SubmitEvent} ev */
async function importBook(ev) {
  ev.preventDefault();
  const out = $("book-result");
  const button = $("book-submit", HTMLButtonElement);
  busy(button, true);
  out.replaceChildren(h("p", { class: "muted" }, "Importing…"));
  try {
    const data = await readSource($("book-file", HTMLInputElement), $("book-text", HTMLTextAreaElement), "book");
    const made = await api("/api/v1/books/import", { method: "POST", body: data });
    rememberBook(made.book);
    fillBooks(made.id);
    out.replaceChildren(bookSummary(made));
  } catch (err) {
    out.replaceChildren(errorBox(err, "The book was not imported"));
  } finally {
    busy(button, false);
  }
}

/**
 * @param {Record<string, any>} made  the API's answer to a book import
 * @returns {HTMLDivElement}
 */
function bookSummary(made) {
  const book = made.book;
  const builder = new URL(made.builder_url).pathname;
  return h("div", { class: "notice ok import-done" },
    h("p", {}, h("strong", {}, book.name), ` (${book.faction}, version ${book.version}): ${book.unit_count} units imported.`),
    h("p", {}, "Book id: ", h("code", { id: "imported-id" }, made.id), h("span", { class: "hint" }, " — keep it to build with this book again or share it.")),
    made.edition && made.edition.other_edition ? h("p", { class: "import-edition" }, `${made.edition.summary} `,
      h("a", { href: `/systems/${encodeURIComponent(book.system)}/rules-edition` }, "What works differently")) : null,
    ...playerWarnings(made),
    h("p", {}, h("a", { class: "button primary", id: "open-builder", href: builder }, `Build a list with ${book.name}`)));
}

/**
 * What a player should know about an imported book, in a player's words; the importer's own
 * messages (with their places in the file) stay under Details for whoever keeps the book.
 * @param {Record<string, any>} made  the API's answer to a book import
 * @returns {HTMLElement[]}
 */
function playerWarnings(made) {
  /** @type {string[]} */
  const rules = made.undefined_rules || [];
  /** @type {string[]} */
  const warnings = made.warnings || [];
  /** @type {string[]} */
  const notes = made.notes || [];
  const said = [];
  if (rules.length) {
    const one = rules.length === 1;
    said.push(h("p", { class: "import-warnings", id: "unexplained-rules" },
      `${one ? "One rule" : `${rules.length} rules`} of this book ${one ? "is" : "are"} not explained in the file or in our rulebook: ${rules.join(", ")}. `
      + `You can still take the units that have ${one ? "it" : "them"}; the builder reminds you, and fight previews leave ${one ? "it" : "them"} out.`));
  } else if (warnings.length) {
    said.push(h("p", { class: "import-warnings" }, `${warnings.length === 1 ? "One thing" : `${warnings.length} things`} to know before you build: see the details below.`));
  }
  if (notes.length) {
    const one = notes.length === 1;
    said.push(h("p", { id: "left-out" },
      `${one ? "One part" : `${notes.length} parts`} of the file could not be used as written and ${one ? "was" : "were"} left out or adjusted `
      + "(usually an upgrade choice that does not fit a unit); the rest of the book is here."));
  }
  if (warnings.length || notes.length) {
    said.push(h("details", { class: "import-details", id: "import-details" },
      h("summary", {}, "Details (the importer’s notes, with their place in the file)"),
      h("ul", {}, [...warnings, ...notes].map((n) => h("li", {}, n)))));
  }
  return said;
}

// ------------------------------------------------------------------------------------------
// Lists

/** @param {string | null} selected  the id of the book to choose */
function fillBooks(selected) {
  const select = $("list-book", HTMLSelectElement);
  const books = rememberedBooks();
  select.replaceChildren(h("option", { value: "" }, books.length ? "Choose an imported book…" : "No book imported in this browser yet"),
    ...books.map((b) => h("option", { value: b.id }, `${b.name} (${b.version || "?"}) · ${b.id}`)));
  if (selected) select.value = selected;
}

/** @param {SubmitEvent} ev */
async function importList(ev) {
  ev.preventDefault();
  const out = $("list-result");
  const button = $("list-submit", HTMLButtonElement);
  const bookId = $("list-book-id", HTMLInputElement).value.trim() || $("list-book", HTMLSelectElement).value;
  busy(button, true);
  out.replaceChildren(h("p", { class: "muted" }, "Importing…"));
  try {
    if (!bookId) throw new Error("Choose the imported book the list is for, or give its id.");
    const data = await readSource($("list-file", HTMLInputElement), $("list-text", HTMLTextAreaElement), "list");
    const made = await api("/api/v1/lists/import", { method: "POST", body: { book: bookId, list: data } });
    const book = await api(`/api/v1/books/${encodeURIComponent(made.list.book)}`);
    const kept = readDraft(draftKey(book.id));
    if (kept && kept.list.units.length && !window.confirm(`This browser keeps an unsaved ${book.name} list, ${describeWork(kept.list)}. Replace it with the imported one?`)) {
      out.replaceChildren(h("p", {}, "Kept the list in progress; nothing was replaced."));
      return;
    }
    writeDraft(draftKey(book.id), { list: made.list, bookName: book.name });
    const href = `/build/${encodeURIComponent(book.id)}`;
    if (made.points_match !== false && !made.notes.length) {
      window.location.assign(href);
      return;
    }
    out.replaceChildren(listSummary(made, href));
  } catch (err) {
    out.replaceChildren(errorBox(err, "The list was not imported"));
  } finally {
    busy(button, false);
  }
}

/**
 * Shown instead of going straight to the builder when something needs reading first.
 * @param {Record<string, any>} made  the API's answer to a list import
 * @param {string} href  the builder with the list
 * @returns {HTMLDivElement}
 */
function listSummary(made, href) {
  const ours = formatCost({ pts: made.report.totals.pts });
  return h("div", { class: "notice import-done" },
    made.points_match === false ? h("p", {}, `Army Forge says ${made.army_forge_points} pts; this list comes to ${ours} here.`) : null,
    made.notes.length ? h("p", { id: "list-left-out" },
      `${made.notes.length === 1 ? "One part" : `${made.notes.length} parts`} of the list could not be carried over as Army Forge saved ${made.notes.length === 1 ? "it" : "them"}; `
      + "check the list in the builder before you play it.") : null,
    made.notes.length ? h("details", { class: "import-details", id: "list-import-details" },
      h("summary", {}, "Details (the importer’s notes, with their place in the file)"),
      h("ul", {}, made.notes.map((/** @type {string} */ n) => h("li", {}, n)))) : null,
    h("p", {}, h("a", { class: "button primary", id: "open-list", href }, "Open the list in the builder")));
}

fillBooks(new URLSearchParams(window.location.search).get("book"));
$("book-form").addEventListener("submit", importBook);
$("list-form").addEventListener("submit", importList);
