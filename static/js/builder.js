// The list builder page (templates/builder.html loads this module): loads the system and the
// book, restores the list kept in this browser, starts the panels and redraws them after every
// change. The panels are modules of their own:
//   builder_state.js  the page's state and the words for its entries
//   list_format.js    the list in the API's format
//   list_edits.js     changes to the list, each one undoable step
//   list_costs.js     costs and counts (the report's, or counted here offline)
//   list_panel.js     the list panel and the unit editor beside it (editor.js)
//   book_panel.js     the book's units and their Add controls
//   settings_panel.js name, size and force organisation
//   list_checks.js    validation by the API, offline retries
//   totals_bar.js     the totals bar and the list's counts
//   issue_list.js     the issues panel
//   export_panel.js   PDF, text and JSON export, loading a file, a new list
import { api, errorBox, h, keepFocus } from "./util.js";
import { ListStore } from "./store.js";
import { Glossary, RuleTips } from "./profile.js";
import { setRowOrder } from "./upgrade_rows.js";
import { initSaved, listIdInAddress } from "./saved.js";
import { draftKey, readDraft } from "./drafts.js";
import { $, BOOK_ID, SYSTEM_ID, announce, entry, groupName, keepBook, labelOf, loadBook, nameOf, nextTask, page, systemBooks } from "./builder_state.js";
import { freshList, normalise, payload, payloadOf } from "./list_format.js";
import { replaceList } from "./list_edits.js";
import { closeEditor, renderEditor, renderList } from "./list_panel.js";
import { renderBook } from "./book_panel.js";
import { buildSettings, rebuildSettings } from "./settings_panel.js";
import { validateNow, validateSoon } from "./list_checks.js";
import { renderTotals } from "./totals_bar.js";
import { renderIssues } from "./issue_list.js";
import { wireExport } from "./export_panel.js";

/** @typedef {import("./api_shapes.js").ArmyList} ArmyList */

async function start() {
  // The forms only group controls: Enter must not submit them (no inline handlers under our CSP).
  for (const form of document.querySelectorAll("form")) form.addEventListener("submit", (ev) => ev.preventDefault());
  try {
    [page.system, page.book] = await Promise.all([api(`/api/v1/systems/${encodeURIComponent(SYSTEM_ID)}`), api(`/api/v1/books/${encodeURIComponent(BOOK_ID)}`)]);
  } catch (err) {
    const box = $("fatal");
    box.replaceChildren(...errorBox(err, "Could not load the army book").childNodes);
    box.hidden = false;
    $("totals").replaceChildren(h("span", { class: "status bad" }, "Not loaded"));
    return;
  }
  const { system, book, units, sections } = page;
  keepBook(book);
  for (const u of book.units) units.set(u.id, u);
  for (const s of book.upgrades) sections.set(s.id, s);
  setRowOrder((entry, row) => {
    const unit = units.get(entry.unit);
    const si = unit ? unit.upgrades.indexOf(row.section) : -1;
    const section = sections.get(row.section);
    const oi = section ? section.options.findIndex((o) => o.id === row.option) : -1;
    return (si < 0 ? 999 : si) * 1000 + (oi < 0 ? 999 : oi);
  });
  page.store = new ListStore(restore() || freshList());
  page.list = page.store.list;
  page.store.subscribe(onStoreChange);
  wireHistory();
  wireEditorKeys();
  page.glossary = new Glossary(system, book);
  new RuleTips($("rule-tip"), page.glossary);
  buildSettings();
  wireExport();
  page.saved = initSaved({ container: $("saved-controls"), bar: $("save-bar"), bookId: BOOK_ID, bookName: book.name, getList: payload, setList: replaceList,
    canonical: (raw) => payloadOf(normalise(raw)) });
  renderAll();
  validateNow();
  // The rest in tasks of their own, so no one task holds the page up (what a phone feels as a
  // page that does not answer its first tap): the book's cards, then the combat preview.
  await nextTask();
  await renderBook();
  await nextTask();
  await startPreview();
}

/**
 * The combat preview, loaded after the rest of the page (its modules are not needed to build a
 * list); loaded on every visit all the same, so the service worker keeps it for offline use.
 * @returns {Promise<void>}
 */
async function startPreview() {
  const { system, book } = page;
  let preview;
  try {
    const { Preview } = await import("./preview.js");
    preview = new Preview({ system, book, list: () => page.list, nameOf, labelOf, groupName, payload, bookCache: loadBook });
  } catch (err) {
    $("preview-result").replaceChildren(errorBox(err, "Could not load the combat preview (reload the page to try again)"));
    return;
  }
  page.preview = preview;
  preview.refreshAttackers();
  await nextTask();
  try {
    await preview.init(await systemBooks());
  } catch (err) {
    $("preview-result").replaceChildren(errorBox(err, "Could not list the books to pick a defender from"));
  }
}

/**
 * The list kept in this browser for this address: the book's new list, or a saved list's changes.
 * @returns {ArmyList | null}
 */
function restore() {
  const draft = readDraft(draftKey(BOOK_ID, listIdInAddress()));
  return draft && draft.list.book === BOOK_ID ? normalise(draft.list) : null;
}

function persist() {
  if (page.saved) page.saved.keepDraft();
}

// Changes: every edit goes through the store (one undoable step), then the page is redrawn
// with the focus kept on the control that made the change.

/**
 * @param {ArmyList} next
 * @param {{label: string, kind: string, light?: boolean}} change
 */
function onStoreChange(next, { label, kind, light }) {
  page.list = next;
  if (kind !== "edit") {
    if (page.selected && !entry(page.selected)) page.selected = null;
    keepFocus(rebuildSettings);
    announce(`${kind === "undo" ? "Undone" : kind === "redo" ? "Redone" : "Done"}: ${label}.`);
  }
  changed({ editor: !light });
}

/** @param {{editor?: boolean, listPanel?: boolean}} [what]  the panels to redraw */
function changed({ editor = true, listPanel = true } = {}) {
  persist();
  keepFocus(() => {
    if (listPanel) renderList();
    if (editor) renderEditor();
  });
  renderHistory();
  page.preview && page.preview.refreshAttackers();
  validateSoon();
}

function renderHistory() {
  const { store } = page;
  const undo = $("undo", HTMLButtonElement), redo = $("redo", HTMLButtonElement);
  undo.disabled = !store.canUndo;
  redo.disabled = !store.canRedo;
  undo.title = store.canUndo ? `Undo: ${store.undoLabel} (Ctrl+Z)` : "Nothing to undo";
  redo.title = store.canRedo ? `Redo: ${store.redoLabel} (Ctrl+Shift+Z)` : "Nothing to redo";
}

function wireHistory() {
  $("undo").addEventListener("click", () => page.store.undo());
  $("redo").addEventListener("click", () => page.store.redo());
  document.addEventListener("keydown", (ev) => {
    if (!(ev.ctrlKey || ev.metaKey) || ev.altKey) return;
    const key = ev.key.toLowerCase();
    if (key !== "z" && key !== "y") return;
    // Text fields keep their own undo (the letters typed); everywhere else it is the list's.
    const t = ev.target;
    if (t instanceof HTMLTextAreaElement || (t instanceof HTMLInputElement && ["text", "search"].includes(t.type))) return;
    ev.preventDefault();
    if (key === "y" || ev.shiftKey) page.store.redo(); else page.store.undo();
  });
}

function renderAll() {
  renderList();
  renderEditor();
  page.preview?.refreshAttackers();
  renderTotals();
  renderIssues();
}

window.addEventListener("online", () => { if (page.store) validateNow(); });

// The sticky bar's height, for what must start below it (the editor beside the list, scrolling
// to a unit): it grows when the totals wrap.
new ResizeObserver(([seen]) => document.documentElement.style.setProperty("--bar-height", `${Math.ceil(seen.target.getBoundingClientRect().height)}px`))
  .observe($("state-bar"));

/** Escape closes the unit editor (a rule's tooltip first, when one is open). */
function wireEditorKeys() {
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape" || !page.selected || ev.defaultPrevented) return;
    if (!$("rule-tip").hidden) return;
    ev.preventDefault();
    closeEditor();
  });
}

window.addEventListener("error", (ev) => {
  const box = $("fatal");
  box.replaceChildren(h("p", {}, `Something went wrong in the page: ${ev.message}. Your list is kept in this browser; reload to continue.`));
  box.hidden = false;
});

start();
