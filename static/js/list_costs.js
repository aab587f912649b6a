// What the list panel, the editor and the totals bar count: an entry's cost (the last
// validation report's, or counted here while offline), issues by entry, units and models.
import { deploymentGroups } from "./groups.js";
import { optionCost } from "./upgrade_rows.js";
import { page } from "./builder_state.js";

/** @typedef {import("./api_shapes.js").Cost} Cost */
/** @typedef {import("./api_shapes.js").Entry} Entry */
/** @typedef {import("./api_shapes.js").Issue} Issue */

/**
 * The entry's cost after upgrades, as the last validation report priced it (offline: counted here).
 * @param {Entry} e
 * @returns {Cost | null} null until a report prices it
 */
export function entryCost(e) {
  if (page.offlineSince) return localCost(e);
  const { report } = page;
  const line = report && report.entries && report.entries[e.key];
  return line ? line.cost : null;
}

/**
 * The entry's cost counted in the browser, for when the server cannot be asked (offline): the
 * unit's cost plus each row's option cost, once for unit/all sections and per model otherwise,
 * as listbuilder/resolve.py prices it. Rules are not checked here: that stays the server's.
 * @param {Entry} e
 * @returns {Cost | null} null for a unit the book does not have
 */
export function localCost(e) {
  const u = page.units.get(e.unit);
  if (!u) return null;
  const parts = [u.cost];
  for (const r of e.upgrades) {
    const s = page.sections.get(r.section);
    const o = s && s.options.find((x) => x.id === r.option);
    if (!s || !o) continue;
    const times = s.affects === "unit" || s.affects === "all" ? 1 : r.count;
    parts.push(Object.fromEntries(Object.entries(optionCost(o, u.id) || {}).map(([c, v]) => [c, v * times])));
  }
  return sumCosts(parts);
}

/**
 * Costs added currency by currency.
 * @param {Cost[]} costs
 * @returns {Cost}
 */
export function sumCosts(costs) {
  /** @type {Cost} */
  const out = {};
  for (const c of costs) for (const [k, v] of Object.entries(c)) out[k] = (out[k] || 0) + v;
  return out;
}

/**
 * The last report's issues about single entries, by entry key (from their paths, "units[2]...").
 * @returns {Map<string, Issue[]>}
 */
export function issuesByEntry() {
  /** @type {Map<string, Issue[]>} */
  const map = new Map();
  const { report, list } = page;
  for (const issue of (report && report.issues) || []) {
    const m = /^units\[(\d+)\]/.exec(issue.path || "");
    if (!m) continue;
    const e = list.units[Number(m[1])];
    if (e) map.set(e.key, [...(map.get(e.key) || []), issue]);
  }
  return map;
}

/**
 * units, activations and models as the list panel draws them (offline: the server's are stale).
 * @returns {{units: number, activations: number, models: number}}
 */
export function localCounts() {
  const { list, units } = page;
  return { units: list.units.length, activations: deploymentGroups(list.units).length,
    models: list.units.reduce((n, e) => n + (units.get(e.unit)?.size || 0), 0) };
}
