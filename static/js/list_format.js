// The builder's list in the API's list format: a new list for the book, any list read back (a
// draft, a file, a saved list) with every field the panels expect, and the body the API takes.
import { BOOK_ID, SYSTEM_ID, isBudgetSystem, page } from "./builder_state.js";

/** @typedef {import("./api_shapes.js").ArmyList} ArmyList */

/**
 * A new, empty list of the book, sized as the system suggests.
 * @returns {ArmyList}
 */
export function freshList() {
  const { system } = page;
  /** @type {ArmyList} */
  const out = { system: SYSTEM_ID, book: BOOK_ID, name: "", units: [] };
  if (isBudgetSystem()) out.game_mode = system.composition.default_mode || (system.limits.game_modes || [{}])[0].id || null;
  else out.points_limit = (system.composition.points && system.composition.points.default) || 1000;
  if (system.limits && system.limits.force_org_available) out.force_org = Boolean(system.limits.force_org_default);
  return out;
}

/**
 * A list read back, with every field of every entry present (the panels never test for them).
 * @param {any} raw  a list in the API's format, possibly with optional fields left out
 * @returns {ArmyList}
 */
export function normalise(raw) {
  const out = { ...freshList(), ...raw, system: SYSTEM_ID, book: BOOK_ID };
  out.units = raw.units.map((/** @type {any} */ e) => ({ key: String(e.key), unit: String(e.unit), name: e.name || "", notes: e.notes || "",
    upgrades: (e.upgrades || []).map((/** @type {any} */ r) => ({ section: r.section, option: r.option, count: r.count ?? 1 })),
    combined_with: e.combined_with || null, joined_to: e.joined_to || null, spells: e.spells || [] }));
  return out;
}

/**
 * The list in progress as the API takes it.
 * @returns {Record<string, any>}
 */
export const payload = () => payloadOf(page.list);

/**
 * A list as the API takes it: empty optional fields left out.
 * @param {ArmyList} list
 * @returns {Record<string, any>}
 */
export function payloadOf(list) {
  /** @type {Record<string, any>} */
  const out = { system: list.system, book: list.book, name: list.name || "" };
  if (isBudgetSystem()) {
    if (list.game_mode) out.game_mode = list.game_mode;
    if (list.budget) out.budget = list.budget;
  } else if (list.points_limit) out.points_limit = list.points_limit;
  if (typeof list.force_org === "boolean" && page.system.limits.force_org_available) out.force_org = list.force_org;
  out.units = list.units.map((e) => {
    /** @type {Record<string, any>} */
    const u = { key: e.key, unit: e.unit };
    if (e.name) u.name = e.name;
    if (e.notes) u.notes = e.notes;
    u.upgrades = e.upgrades.map((r) => ({ ...r }));
    if (e.combined_with) u.combined_with = e.combined_with;
    if (e.joined_to) u.joined_to = e.joined_to;
    if (e.spells && e.spells.length) u.spells = [...e.spells];
    return u;
  });
  return out;
}
