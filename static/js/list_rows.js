// The list panel's rows: one compact row per deployment group (name, cost, issues, a one-line
// summary; its actions under a menu button on a phone), and identical copies of a unit, wherever
// they stand in the list, shown as one row "3× Ash Wardens" that opens into a row per copy.
import { counted, formatCost, h } from "./util.js";
import { deploymentGroups } from "./groups.js";
import { $, cssId, groupName, labelOf, nameOf, page } from "./builder_state.js";
import { entryCost, issuesByEntry, sumCosts } from "./list_costs.js";

/** @typedef {import("./api_shapes.js").Entry} Entry */
/** @typedef {import("./api_shapes.js").Group} Group */

/**
 * What a row's buttons do (list_panel.js).
 * @typedef {object} RowActions
 * @property {(key: string) => void} select  open the group in the editor
 * @property {(key: string) => void} duplicate
 * @property {(key: string, step: number) => void} move
 * @property {(keys: string[], label: string) => void} remove
 */

/** The stacks of copies the player opened (or edited a copy of), by what the copies are. */
const opened = new Set();
/** @type {string | null} the row whose action menu is open (phone) */
let menuOf = null;

/**
 * Draw the list's rows from page.list and the last report.
 * @param {RowActions} actions
 * @returns {void}
 */
export function drawRows(actions) {
  const { list, selected } = page;
  $("empty-list").hidden = list.units.length > 0;
  const groups = deploymentGroups(list.units);
  const index = new Map(groups.map((g, i) => [g.key, i]));
  /** @type {HTMLElement[]} */
  const rows = [];
  for (const run of runs(groups)) {
    const row = (/** @type {Group} */ g) => groupRow(g, /** @type {number} */ (index.get(g.key)), groups.length, actions);
    if (run.length === 1) { rows.push(row(run[0])); continue; }
    const sig = signature(run[0]);
    if (run.some((g) => g.key === selected || g.key === menuOf)) opened.add(sig);
    rows.push(stackRow(run, opened.has(sig), actions, row));
  }
  $("entries").replaceChildren(...rows);
}

/**
 * Groups in list order, with copies that are the same in every way (one entry each, same unit,
 * name, notes, upgrades and spells) taken together wherever they stand in the list: the stack
 * takes the first copy's place, and its copies keep their list order, so "#1, #2" and the
 * printed cards' 6a, 6b name the same units (listbuilder/printing/rosters.py numbers them so).
 * @param {Group[]} groups
 * @returns {Group[][]}
 */
function runs(groups) {
  /** @type {Group[][]} */
  const out = [];
  /** @type {Map<string, Group[]>} */
  const bySignature = new Map();
  for (const g of groups) {
    const sig = signature(g);
    const run = sig ? bySignature.get(sig) : undefined;
    if (run) { run.push(g); continue; }
    const fresh = [g];
    out.push(fresh);
    if (sig) bySignature.set(sig, fresh);
  }
  return out;
}

/**
 * @param {Group} g
 * @returns {string} what makes two copies the same ("" for a pair or a unit with a hero: never stacked)
 */
function signature(g) {
  if (g.entries.length !== 1) return "";
  const e = g.entries[0];
  const ups = e.upgrades.map((r) => `${r.section}/${r.option}×${r.count}`).sort();
  return JSON.stringify([e.unit, e.name, e.notes, ups, [...(e.spells || [])].sort()]);
}

/**
 * @param {Group} group
 * @returns {{problems: import("./api_shapes.js").Issue[], errors: number, cost: import("./api_shapes.js").Cost | null, models: number}}
 */
function facts(group) {
  const byEntry = issuesByEntry();
  const problems = group.entries.flatMap((e) => byEntry.get(e.key) || []);
  const costs = group.entries.map(entryCost);
  return {
    problems,
    errors: problems.filter((i) => i.severity === "error").length,
    cost: costs.every(Boolean) ? sumCosts(/** @type {import("./api_shapes.js").Cost[]} */ (costs)) : null,
    models: group.entries.reduce((n, e) => n + (page.units.get(e.unit)?.size || 0), 0),
  };
}

/**
 * @param {import("./api_shapes.js").Issue[]} problems
 * @param {number} errors
 * @returns {HTMLElement | null}
 */
const badge = (problems, errors) => (problems.length
  ? h("span", { class: `badge ${errors ? "bad" : "warn"}`, title: problems.map((i) => i.message).join("\n") }, counted(problems.length, "issue"))
  : null);

/**
 * The menu button of a row (shown on a phone; the actions stand in the row on wider screens).
 * @param {string} id  the row's element id
 * @param {string} key  the group's key
 * @param {string} name
 * @returns {HTMLElement}
 */
function menuButton(id, key, name) {
  const open = menuOf === key;
  return h("button", { type: "button", class: "entry-more", id: `${id}-more`, "aria-expanded": String(open), "aria-controls": `${id}-actions`, "aria-label": `Actions for ${name}`,
    onclick: () => {
      menuOf = open ? null : key;
      const row = document.getElementById(id);
      row?.classList.toggle("menu-open", !open);
      document.getElementById(`${id}-more`)?.setAttribute("aria-expanded", String(!open));
    } }, "⋯");
}

/**
 * @param {Group} group
 * @param {number} index  its place among the list's groups
 * @param {number} count  how many groups the list has
 * @param {RowActions} actions
 * @returns {HTMLElement}
 */
function groupRow(group, index, count, actions) {
  const { selected } = page;
  const { problems, errors, cost, models } = facts(group);
  const open = group.entries.some((e) => e.key === selected);
  const name = groupName(group);
  const id = `entry-${cssId(group.key)}`;
  const shown = (/** @type {string} */ label) => [label, h("span", { class: "sr-only" }, ` ${name}`)];
  const act = (/** @type {() => void} */ fn) => () => { menuOf = null; fn(); };
  return h("li", { id, class: `entry${open ? " selected" : ""}${menuOf === group.key ? " menu-open" : ""}${errors ? " has-errors" : problems.length ? " has-warnings" : ""}`, dataset: { key: group.key } },
    h("div", { class: "entry-main" },
      h("div", { class: "entry-head" },
        h("span", { class: "entry-name" }, name),
        h("span", { class: "cost" }, cost ? formatCost(cost) : "?"),
        badge(problems, errors)),
      h("div", { class: "entry-sum" },
        h("p", { class: "meta" }, [
          counted(models, "model"),
          group.members.length > 1 ? "combined pair" : null,
          ...group.heroes.map((x) => `${nameOf(x)} joined`),
        ].filter(Boolean).join(" · "), " ", group.entries.flatMap(marksOf)),
        group.entries.map((e) => {
          const lines = upgradeWords(e);
          return lines.length ? h("p", { class: "entry-upgrades" }, group.entries.length > 1 ? h("span", { class: "member-name" }, `${labelOf(e)}: `) : null, lines.join(", ")) : null;
        }))),
    menuButton(id, group.key, name),
    h("div", { class: "entry-actions", id: `${id}-actions` },
      h("button", { type: "button", id: `${id}-edit`, class: "edit", "aria-expanded": String(open), "aria-controls": "editor", onclick: act(() => actions.select(group.key)) }, ...shown(open ? "Editing" : "Edit")),
      h("button", { type: "button", id: `${id}-dup`, class: "dup", onclick: act(() => actions.duplicate(group.key)) }, ...shown("Duplicate")),
      h("button", { type: "button", id: `${id}-up`, class: "move", disabled: index === 0, onclick: () => actions.move(group.key, -1) }, "↑", h("span", { class: "sr-only" }, ` Move ${name} up`)),
      h("button", { type: "button", id: `${id}-down`, class: "move", disabled: index === count - 1, onclick: () => actions.move(group.key, 1) }, "↓", h("span", { class: "sr-only" }, ` Move ${name} down`)),
      h("button", { type: "button", id: `${id}-remove`, class: "remove danger", onclick: act(() => actions.remove(group.entries.map((e) => e.key), `Remove ${name}`)) }, ...shown("Remove"))));
}

/**
 * Identical copies as one row "N× name", opening into a row per copy.
 * @param {Group[]} run  the copies' groups (one entry each)
 * @param {boolean} open  whether the copies are shown
 * @param {RowActions} actions
 * @param {(g: Group) => HTMLElement} row  a copy's own row
 * @returns {HTMLElement}
 */
function stackRow(run, open, actions, row) {
  const first = run[0];
  const name = nameOf(first.entries[0]);
  const all = run.map(facts);
  const problems = all.flatMap((f) => f.problems);
  const errors = all.reduce((n, f) => n + f.errors, 0);
  const cost = all.every((f) => f.cost) ? sumCosts(/** @type {import("./api_shapes.js").Cost[]} */ (all.map((f) => f.cost))) : null;
  const id = `stack-${cssId(first.key)}`;
  const words = upgradeWords(first.entries[0]);
  const last = run[run.length - 1];
  const act = (/** @type {() => void} */ fn) => () => { menuOf = null; fn(); };
  return h("li", { id, class: `entry stack${open ? " open" : ""}${menuOf === first.key ? " menu-open" : ""}${errors ? " has-errors" : problems.length ? " has-warnings" : ""}`, dataset: { key: first.key, copies: String(run.length) } },
    h("div", { class: "entry-main" },
      h("div", { class: "entry-head" },
        h("span", { class: "entry-name" }, `${run.length}× ${name}`),
        h("span", { class: "cost" }, cost ? formatCost(cost) : "?"),
        badge(problems, errors)),
      h("div", { class: "entry-sum" },
        h("p", { class: "meta" }, `${run.length} identical units · ${counted(all[0].models, "model")} each`, " ", marksOf(first.entries[0])),
        words.length ? h("p", { class: "entry-upgrades" }, words.join(", ")) : null)),
    menuButton(id, first.key, `${run.length}× ${name}`),
    h("div", { class: "entry-actions", id: `${id}-actions` },
      h("button", { type: "button", id: `${id}-toggle`, class: "stack-toggle", "aria-expanded": String(open), "aria-controls": `${id}-copies`,
        onclick: act(() => { const sig = signature(first); if (open) opened.delete(sig); else opened.add(sig); drawRows(actions); }) },
      open ? "Hide copies" : "Show each", h("span", { class: "sr-only" }, ` of ${run.length}× ${name}`)),
      h("button", { type: "button", id: `${id}-dup`, class: "dup", onclick: act(() => actions.duplicate(last.key)) }, "Add one more", h("span", { class: "sr-only" }, ` ${name}`)),
      h("button", { type: "button", id: `${id}-remove`, class: "remove danger", onclick: act(() => actions.remove([last.key], `Remove one ${name}`)) }, "Remove one", h("span", { class: "sr-only" }, ` ${name}`))),
    open ? h("ol", { class: "entries copies", id: `${id}-copies` }, run.map(row)) : null);
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
  if (e.spells && e.spells.length) words.push(counted(e.spells.length, "spell"));
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
  if (elites) marks.push(h("span", { class: "mark elite" }, counted(elites, "elite")));
  return marks;
}

const eliteOption = (/** @type {string} */ sid, /** @type {string} */ oid) => Boolean(page.sections.get(sid)?.options.find((o) => o.id === oid)?.elite);
