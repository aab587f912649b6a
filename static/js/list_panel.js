// The list panel (its rows are list_rows.js's) and the unit editor beside it: which entry is
// open, and where the focus goes after a change made from either. A unit added or copied with
// nothing to choose goes straight into the list, with an Undo toast; the editor opens on demand.
import { formatCost, h, keepFocus } from "./util.js";
import { groupOf } from "./groups.js";
import { Editor } from "./editor.js";
import { $, app, announce, cssId, entry, groupName, labelOf, loadBook, nameOf, page, systemBooks } from "./builder_state.js";
import { addEntries, duplicateGroup, edit, moveGroup, removeEntries } from "./list_edits.js";
import { entryCost, issuesByEntry, sumCosts } from "./list_costs.js";
import { drawRows } from "./list_rows.js";
import { hideToast, toast } from "./toast.js";

/** @typedef {import("./api_shapes.js").Entry} Entry */
/** @typedef {import("./api_shapes.js").Group} Group */

/**
 * Draw the list's rows from page.list and the last report (list_rows.js).
 * @returns {void}
 */
export function renderList() {
  drawRows({ select, duplicate, move, remove });
}

/**
 * Draw the unit editor for the selected entry (made once, with what it may change).
 * @returns {void}
 */
export function renderEditor() {
  if (!page.editor) {
    const { system, book, units, sections, glossary } = page;
    page.editor = new Editor($("editor"), {
      system, book, units, sections, glossary, books: systemBooks, bookCache: loadBook,
      list: () => page.list, entry, nameOf, labelOf, groupName,
      /** fn(entry) changes one entry of the list, as one undoable step. */
      update: (fn, { key, light = false, merge = null, label = null }) => {
        const target = entry(key);
        if (!target) return;
        edit(label || `Change ${labelOf(target)}`, (l) => fn(/** @type {Entry} */ (l.units.find((e) => e.key === key))), { light, merge });
        if (light) {
          const t = document.querySelector("#editor-title");
          if (t) t.textContent = groupName(/** @type {Group} */ (groupOf(page.list.units, /** @type {string} */ (page.selected))));
        }
      },
      /** fn(list) changes several entries at once (both halves of a pair), as one step. */
      edit: (label, fn) => edit(label, fn),
      addUnit: (unitId, opts) => addUnit(unitId, { ...opts, focus: false }),
      remove: (keys, label) => remove(keys, label),
      close: () => closeEditor(),
      priced: (key) => (page.report && page.report.entries && page.report.entries[key]) || null,
      statusOf: (group) => {
        const { report } = page;
        const byEntry = issuesByEntry();
        const costs = group.entries.map(entryCost);
        const issues = group.entries.flatMap((e) => byEntry.get(e.key) || []);
        const t = report && report.totals;
        const overall = t && t.pts !== undefined && t.limit && t.limit.pts ? `${t.pts} / ${t.limit.pts} pts in the list` : "";
        return { cost: costs.every(Boolean) ? formatCost(sumCosts(/** @type {import("./api_shapes.js").Cost[]} */ (costs))) : "…", issues, overall };
      },
    });
  }
  page.editor.render(page.selected);
  app.classList.toggle("editing", !$("editor").hidden);
}

/**
 * Close the editor; the focus goes back to the Edit button of the group it showed.
 * @returns {void}
 */
export function closeEditor() {
  const key = page.selected;
  if (!key) return;
  page.selected = null;
  renderList();
  renderEditor();
  const group = groupOf(page.list.units, key);
  (group && document.getElementById(`entry-${cssId(group.key)}-edit`))?.focus({ preventScroll: true });
}

/**
 * Open a unit's group in the editor (a panel beside the list: the page does not scroll).
 * @param {string} key
 * @param {{focus?: boolean}} [options]  focus: whether the editor takes the focus
 * @returns {void}
 */
export function select(key, { focus = true } = {}) {
  page.selected = key;
  keepFocus(() => { renderList(); renderEditor(); });
  if (focus) $("editor").focus({ preventScroll: true });
}

/**
 * Add copies of a unit (see list_edits.js) and say what was done. The editor opens only when a
 * choice the unit must make was filled in for the player (to show it), or follows the new unit
 * when it is open already; otherwise the unit is added in one tap, with Undo and Edit in a toast.
 * @param {string} unitId
 * @param {import("./list_edits.js").AddOptions} [options]
 * @returns {Entry[]} the new entries
 */
export function addUnit(unitId, options = {}) {
  const { added, label, said } = addEntries(unitId, options);
  announce(`${label}: done.${said.length ? ` ${said.join(" ")}` : ""}`);
  if (options.joinTo) return added;
  // An editor already open follows the new unit (it was opened on demand, and stays so).
  if (said.length || options.open || page.selected) {
    hideToast();
    select(added[0].key, { focus: options.focus ?? true });
    // Said in the editor too (until its next redraw), beside the choice it explains.
    const head = said.length && !$("editor").hidden && $("editor").querySelector(".editor-head");
    if (head) head.after(h("p", { class: "notice", id: "preselected" }, said.join(" ")));
  } else {
    undoToast(`${label.replace(/^Add/, "Added")}.`, label, added[0].key);
  }
  return added;
}

/**
 * The toast after a one-tap change: Undo (while it is still the last step) and Edit.
 * @param {string} text
 * @param {string} label  the step's name in the undo history
 * @param {string} key  the entry Edit opens
 */
function undoToast(text, label, key) {
  toast(text, [
    { id: "toast-undo", label: "Undo", action: () => { if (page.store.undoLabel === label) page.store.undo(); } },
    { id: "toast-edit", label: "Edit", action: () => { if (entry(key)) select(key); } },
  ]);
}

/** @param {string} key */
function duplicate(key) {
  const { first, label } = duplicateGroup(key);
  announce(`${label}: done.`);
  undoToast(`${label.replace(/^Duplicate/, "Copied")}.`, label, first.key);
}

/**
 * @param {string} key
 * @param {number} step
 */
function move(key, step) {
  const moved = moveGroup(key, step);
  if (moved === null) return;
  // The row moved with the focus on its button; at the top or bottom that button is disabled,
  // so the focus goes to the one that still moves it.
  const row = `entry-${cssId(moved)}`;
  const button = /** @type {HTMLButtonElement | null} */ (document.getElementById(`${row}-${step < 0 ? "up" : "down"}`));
  (button && !button.disabled ? button : document.getElementById(`${row}-${step < 0 ? "down" : "up"}`))?.focus({ preventScroll: true });
}

/**
 * Remove entries; the focus goes to the row now in their place, or to the book's filter.
 * @param {string[]} keys
 * @param {string} label
 * @returns {void}
 */
export function remove(keys, label) {
  const index = removeEntries(keys, label);
  renderEditor();
  announce(`${label}: done.`);
  const { list } = page;
  const next = list.units[Math.min(index, list.units.length - 1)];
  const group = next && groupOf(list.units, next.key);
  (group ? /** @type {HTMLElement | null} */ (document.querySelector(`#entry-${cssId(group.key)} .edit`)) : $("unit-filter"))?.focus({ preventScroll: true });
}
