// What deploys together, as the page shows and edits it: a combined pair once, joined heroes
// inside their unit. The same drawing rules as listbuilder/resolve/deployment.py (only links that can be
// drawn are drawn; whether they are legal is the validator's answer), so the list panel groups
// exactly what the API's "activations" count.

/** @typedef {import("./api_shapes.js").Entry} Entry */
/** @typedef {import("./api_shapes.js").Group} Group */

/**
 * list entries -> [{key, members: [entry, entry?], heroes: [entry...], entries: [...]}] in list order.
 * @param {Entry[]} entries
 * @returns {Group[]}
 */
export function deploymentGroups(entries) {
  const byKey = new Map(entries.map((e) => [e.key, e]));
  const partner = new Map();
  for (const e of entries) {
    const other = byKey.get(e.combined_with || "");
    if (!other || other.key === e.key || other.unit !== e.unit || partner.has(e.key) || partner.has(other.key)) continue;
    partner.set(e.key, other.key);
    partner.set(other.key, e.key);
  }
  const host = new Map();
  for (const e of entries) {
    const target = byKey.get(e.joined_to || "");
    if (!target || target.key === e.key || byKey.has(target.joined_to || "") || partner.has(e.key)) continue;
    host.set(e.key, target.key);
  }
  const groups = [];
  const placed = new Set();
  for (const e of entries) {
    if (placed.has(e.key) || host.has(e.key)) continue;
    const members = partner.has(e.key) ? [e, /** @type {Entry} */ (byKey.get(partner.get(e.key)))] : [e];
    const memberKeys = new Set(members.map((m) => m.key));
    const heroes = entries.filter((x) => memberKeys.has(host.get(x.key)));
    for (const m of members) placed.add(m.key);
    groups.push({ key: e.key, members, heroes, entries: [...members, ...heroes] });
  }
  return groups;
}

/**
 * The group an entry belongs to (its own one-entry group when it is linked to nothing).
 * @param {Entry[]} entries
 * @param {string} key
 * @returns {Group | null} null when no entry has that key
 */
export function groupOf(entries, key) {
  return deploymentGroups(entries).find((g) => g.entries.some((e) => e.key === key)) || null;
}
