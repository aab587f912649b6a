// The list panel (one row per deployment group, with its actions) and the unit editor beside it:
// which entry is open, and where the focus goes after a change made from either.
import { formatCost, h, keepFocus } from "./util.js";
import { deploymentGroups, groupOf } from "./groups.js";
import { Editor } from "./editor.js";
import { $, app, announce, cssId, entry, groupName, labelOf, loadBook, nameOf, page, systemBooks } from "./builder_state.js";
import { addEntries, duplicateGroup, edit, moveGroup, removeEntries } from "./list_edits.js";
import { entryCost, issuesByEntry, sumCosts } from "./list_costs.js";

/** @typedef {import("./api_shapes.js").Entry} Entry */
/** @typedef {import("./api_shapes.js").Group} Group */

/**
 * Draw the list's rows from page.list and the last report.
 * @returns {void}
 */
export function renderList() {
  const { list, selected } = page;
  const ol = $("entries");
  const byEntry = issuesByEntry();
  $("empty-list").hidden = list.units.length > 0;
  const groups = deploymentGroups(list.units);
  ol.replaceChildren(...groups.map((group, index) => {
    const problems = group.entries.flatMap((e) => byEntry.get(e.key) || []);
    const errors = problems.filter((i) => i.severity === "error").length;
    const costs = group.entries.map(entryCost);
    const cost = costs.every(Boolean) ? sumCosts(/** @type {import("./api_shapes.js").Cost[]} */ (costs)) : null;
    const models = group.entries.reduce((n, e) => n + (page.units.get(e.unit)?.size || 0), 0);
    const open = group.entries.some((e) => e.key === selected);
    const name = groupName(group);
    const id = `entry-${cssId(group.key)}`;
    const shown = (/** @type {string} */ label) => [label, h("span", { class: "sr-only" }, ` ${name}`)];
    return h("li", { id, class: `entry${open ? " selected" : ""}${errors ? " has-errors" : problems.length ? " has-warnings" : ""}`, dataset: { key: group.key } },
      h("div", { class: "entry-head" },
        h("span", { class: "entry-name" }, name),
        h("span", { class: "cost" }, cost ? formatCost(cost) : "?"),
        problems.length ? h("span", { class: `badge ${errors ? "bad" : "warn"}`, title: problems.map((i) => i.message).join("\n") }, `${problems.length} issue${problems.length === 1 ? "" : "s"}`) : null),
      h("p", { class: "meta" }, [
        `${models} model${models === 1 ? "" : "s"}`,
        group.members.length > 1 ? "combined pair" : null,
        ...group.heroes.map((x) => `${nameOf(x)} joined`),
      ].filter(Boolean).join(" · "), " ", group.entries.flatMap(marksOf)),
      group.entries.map((e) => {
        const lines = upgradeWords(e);
        return lines.length ? h("p", { class: "entry-upgrades" }, group.entries.length > 1 ? h("span", { class: "member-name" }, `${labelOf(e)}: `) : null, lines.join(", ")) : null;
      }),
      h("div", { class: "entry-actions" },
        h("button", { type: "button", id: `${id}-edit`, class: "edit", "aria-expanded": String(open), "aria-controls": "editor", onclick: () => select(group.key) }, ...shown(open ? "Editing" : "Edit")),
        h("button", { type: "button", id: `${id}-dup`, class: "dup", onclick: () => duplicate(group.key) }, ...shown("Duplicate")),
        h("button", { type: "button", id: `${id}-up`, class: "move", disabled: index === 0, onclick: () => move(group.key, -1) }, "↑", h("span", { class: "sr-only" }, ` Move ${name} up`)),
        h("button", { type: "button", id: `${id}-down`, class: "move", disabled: index === groups.length - 1, onclick: () => move(group.key, 1) }, "↓", h("span", { class: "sr-only" }, ` Move ${name} down`)),
        h("button", { type: "button", id: `${id}-remove`, class: "remove danger", onclick: () => remove(group.entries.map((e) => e.key), `Remove ${name}`) }, ...shown("Remove"))));
  }));
}

/**
 * @param {Entry} e
 * @returns {string[]} the entry's upgrades in words: "2× Spears", "1 spell"
 */
function upgradeWords(e) {
  const words = e.upgrades.map((r) => {
    const s = page.sections.get(r.section);
    const o = s && s.options.find((x) => x.id === r.option);
    return (r.count > 1 ? `${r.count}× ` : "") + (o ? o.label : r.option);
  });
  if (e.spells && e.spells.length) words.push(`${e.spells.length} spell${e.spells.length === 1 ? "" : "s"}`);
  return words;
}

/**
 * Marks the player looks for: keyword troops (ancients-hex) and elites (armour-hex) in a list entry.
 * @param {Entry} e
 * @returns {HTMLElement[]}
 */
function marksOf(e) {
  const u = page.units.get(e.unit);
  if (!u) return [];
  const marks = [];
  if (u.stats && u.stats.keyword) marks.push(h("span", { class: "mark keyword" }, "Keyword troops"));
  const elites = e.upgrades.filter((r) => eliteOption(r.section, r.option)).reduce((n, r) => n + r.count, 0);
  if (elites) marks.push(h("span", { class: "mark elite" }, `${elites} elite${elites === 1 ? "" : "s"}`));
  return marks;
}

const eliteOption = (/** @type {string} */ sid, /** @type {string} */ oid) => Boolean(page.sections.get(sid)?.options.find((o) => o.id === oid)?.elite);

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
 * Add copies of a unit (see list_edits.js), say what was done and open it in the editor (a
 * unit joined to another stays where the player is).
 * @param {string} unitId
 * @param {import("./list_edits.js").AddOptions} [options]
 * @returns {Entry[]} the new entries
 */
export function addUnit(unitId, options = {}) {
  const { added, label, said } = addEntries(unitId, options);
  announce(`${label}: done.${said.length ? ` ${said.join(" ")}` : ""}`);
  if (!options.joinTo) select(added[0].key, { focus: options.focus ?? true });
  // Said in the editor too (until its next redraw), beside the choice it explains.
  const head = said.length && !$("editor").hidden && $("editor").querySelector(".editor-head");
  if (head) head.after(h("p", { class: "notice", id: "preselected" }, said.join(" ")));
  return added;
}

/** @param {string} key */
function duplicate(key) {
  const { first, label } = duplicateGroup(key);
  announce(`${label}: done.`);
  select(first.key, { focus: false });
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
