// Changes to the list in progress, each one undoable step of the store (store.js). What the page
// does around them (which entry opens, where the focus goes) is list_panel.js's.
import { deploymentGroups, groupOf } from "./groups.js";
import { optionCost, takeOption } from "./upgrade_rows.js";
import { entry, groupName, labelOf, page } from "./builder_state.js";
import { normalise } from "./list_format.js";

/** @typedef {import("./api_shapes.js").ArmyList} ArmyList */
/** @typedef {import("./api_shapes.js").Entry} Entry */

/**
 * Change the list as one undoable step; light edits (typing a name) skip redrawing the editor.
 * @template R
 * @param {string} label  the step's name, as undo and redo say it
 * @param {(list: ArmyList) => R} fn  changes the list in place
 * @param {{merge?: string | null, light?: boolean}} [options]  merge: a field being typed into (see store.js)
 * @returns {R} what fn returned
 */
export function edit(label, fn, { merge = null, light = false } = {}) {
  return page.store.edit(label, fn, { merge, light });
}

/**
 * Replace the list in progress (a saved list opened from the server, see saved.js; a file).
 * @param {any} data  a list in the API's format
 * @param {string} [label]
 * @returns {void}
 */
export function replaceList(data, label = "Open a saved list") {
  page.selected = null;
  page.store.replace(normalise(data), label);
}

/**
 * @param {ArmyList} l
 * @param {Set<string>} [taken]  keys given out in the same step already
 * @returns {string} a key no entry of l has: "u4"
 */
function newKey(l, taken = new Set()) {
  const used = new Set([...l.units.map((e) => e.key), ...taken]);
  let n = l.units.length + 1;
  while (used.has(`u${n}`)) n++;
  return `u${n}`;
}

/**
 * @param {string} key
 * @param {string} unitId
 * @returns {Entry}
 */
const blankEntry = (key, unitId) => ({ key, unit: unitId, name: "", notes: "", upgrades: [], combined_with: null, joined_to: null, spells: [] });

/**
 * @typedef {object} AddOptions
 * @property {number} [count]  copies to add (1 to 20)
 * @property {boolean} [combined]  two copies merged into one unit
 * @property {string | null} [joinTo]  the key of an entry this one joins (a hero)
 * @property {string | null} [hero]  the id of a hero (or attachment) added joined to the new unit
 * @property {{section: string, option: string} | null} [upgrade]  an option the new unit takes at once
 * @property {boolean} [focus]  whether the editor takes the focus once the unit is open in it
 * @property {boolean} [open]  open the new unit in the editor even when nothing was chosen for it
 */

/**
 * Add copies of a unit, as one undoable step.
 * @param {string} unitId
 * @param {AddOptions} [options]
 * @returns {{added: Entry[], label: string, said: string[]}} the new entries (the hero not
 *   included), the step's name, and the sentences saying what was chosen for them
 */
export function addEntries(unitId, { count = 1, combined = false, joinTo = null, hero = null, upgrade = null } = {}) {
  const { units, sections } = page;
  const u = /** @type {import("./api_shapes.js").Unit} */ (units.get(unitId));
  const n = combined ? 2 : Math.max(1, Math.min(20, count));
  const joiner = hero && units.get(hero);
  const section = upgrade && sections.get(upgrade.section);
  const option = upgrade && section && section.options.find((o) => o.id === upgrade.option);
  let label = combined ? `Add a combined pair of ${u.name}`
    : joinTo ? `Add ${u.name} to ${labelOf(/** @type {Entry} */ (entry(joinTo)))}` : `Add ${n > 1 ? `${n}× ` : ""}${u.name}`;
  if (joiner) label += ` with ${joiner.name}`;
  if (option) label += ` with ${option.label}`;
  /** @type {string[]} */
  const chosen = [];  // what takeRequired filled in, in words
  const added = edit(label, (l) => {
    const made = [];
    for (let i = 0; i < n; i++) {
      const e = blankEntry(newKey(l), unitId);
      l.units.push(e);
      made.push(e);
    }
    if (combined) { made[0].combined_with = made[1].key; made[1].combined_with = made[0].key; }
    if (joinTo) made[0].joined_to = joinTo;
    if (section && option) for (const e of made) takeOption(e, section, option, 1, sections);
    if (joiner && hero) {
      const joined = blankEntry(newKey(l), hero);
      joined.joined_to = made[0].key;
      l.units.push(joined);
      chosen.push(...takeRequired(joined));
    }
    for (const e of made) chosen.push(...takeRequired(e));
    return made;
  });
  return { added, label, said: [...new Set(chosen)] };
}

/**
 * A section the unit must choose from is filled at once with its cheapest option (the free
 * one, when there is one), so a unit is never an error the moment it is added.
 * @param {Entry} e
 * @returns {string[]} the sentences that say what was chosen, for the player to read
 */
function takeRequired(e) {
  const { units, sections } = page;
  const unit = units.get(e.unit);
  /** @type {string[]} */
  const out = [];
  for (const sid of (unit && unit.upgrades) || []) {
    const section = sections.get(sid);
    const need = (section && section.pick && section.pick.min) || 0;
    const taken = new Set(e.upgrades.filter((r) => r.section === sid).map((r) => r.option));
    if (!unit || !section || taken.size >= need) continue;
    const price = (/** @type {import("./api_shapes.js").Option} */ o) => Object.values(optionCost(o, unit.id) || {}).reduce((a, b) => a + b, 0);
    const cheapest = section.options.filter((o) => !taken.has(o.id)).sort((a, b) => price(a) - price(b)).slice(0, need - taken.size);
    for (const o of cheapest) takeOption(e, section, o, 1, sections);
    const names = cheapest.map((o) => `“${o.label}”`).join(" and ");
    const free = cheapest.every((o) => price(o) === 0);
    if (names) out.push(`${unit.name} must choose from “${section.label}”: ${free ? "the free" : "the cheapest"} ${names} is chosen; change it in the editor.`);
  }
  return out;
}

/**
 * Copy a whole group (pair and heroes), its links redrawn between the copies.
 * @param {string} key  any entry of the group
 * @returns {{first: Entry, label: string}} the copy of the group's first entry, and the step's name
 */
export function duplicateGroup(key) {
  const group = /** @type {import("./api_shapes.js").Group} */ (groupOf(page.list.units, key));
  const label = `Duplicate ${groupName(group)}`;
  const first = edit(label, (l) => {
    /** @type {Map<string | null, string>} */
    const fresh = new Map();
    for (const e of group.entries) fresh.set(e.key, newKey(l, new Set(fresh.values())));
    const copies = group.entries.map((e) => ({ ...structuredClone(e), key: /** @type {string} */ (fresh.get(e.key)),
      combined_with: fresh.get(e.combined_with) || null, joined_to: fresh.get(e.joined_to) || null }));
    const last = Math.max(...group.entries.map((e) => l.units.findIndex((x) => x.key === e.key)));
    l.units.splice(last + 1, 0, ...copies);
    return copies[0];
  });
  return { first, label };
}

/**
 * Move a group before the previous group or after the next one.
 * @param {string} key  any entry of the group
 * @param {number} step  -1 up, 1 down
 * @returns {string | null} the moved group's key, or null when it cannot move that way
 */
export function moveGroup(key, step) {
  const groups = deploymentGroups(page.list.units);
  const i = groups.findIndex((g) => g.entries.some((e) => e.key === key));
  const j = i + step;
  if (i < 0 || j < 0 || j >= groups.length) return null;
  edit(`Move ${groupName(groups[i])} ${step < 0 ? "up" : "down"}`, (l) => {
    [groups[i], groups[j]] = [groups[j], groups[i]];
    const order = groups.flatMap((g) => g.entries.map((e) => e.key));
    const at = new Map(order.map((k, n) => [k, n]));
    l.units.sort((a, b) => /** @type {number} */ (at.get(a.key)) - /** @type {number} */ (at.get(b.key)));
  });
  return groups[j].key;
}

/**
 * Remove entries (a group, or one member); links to them go with them.
 * @param {string[]} keys
 * @param {string} label  the step's name
 * @returns {number} where the first of them was in the list
 */
export function removeEntries(keys, label) {
  const gone = new Set(keys);
  const index = page.list.units.findIndex((e) => gone.has(e.key));
  edit(label, (l) => {
    l.units = l.units.filter((e) => !gone.has(e.key));
    for (const other of l.units) {
      if (other.combined_with !== null && gone.has(other.combined_with)) other.combined_with = null;
      if (other.joined_to !== null && gone.has(other.joined_to)) other.joined_to = null;
    }
  });
  if (page.selected !== null && gone.has(page.selected)) page.selected = null;
  return index;
}
