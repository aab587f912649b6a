// A list entry's upgrade rows and the book's sections they come from: how a section is chosen,
// what an option costs, and taking or dropping options with what they require. Shared by the
// unit editor, the efficiency panel and the builder's list edits (none of them owns the rows).

/** @typedef {import("./api_shapes.js").Cost} Cost */
/** @typedef {import("./api_shapes.js").Option} Option */
/** @typedef {import("./api_shapes.js").Section} Section */
/** @typedef {import("./api_shapes.js").UpgradeRow} UpgradeRow */
/** @typedef {{upgrades: UpgradeRow[]}} HasRows  a list entry, or a trial loadout of one */

/**
 * How a section is chosen: "radio" (pick one), "check" (several options), "count" (models per option).
 * @param {Section} section
 * @returns {"radio" | "check" | "count"}
 */
export function sectionKind(section) {
  if (section.affects === "up_to" || section.affects === "any") return "count";
  return section.pick && section.pick.max === 1 ? "radio" : "check";
}

/**
 * @param {Option} option
 * @param {string} unitId
 * @returns {Cost | undefined} what the option costs that unit (some books price it per unit)
 */
export const optionCost = (option, unitId) => (option.unit_costs && option.unit_costs[unitId]) || option.cost;

// Rows keep the unit's section order, so replacements come before additions.
/** @type {(entry: any, row: UpgradeRow) => number} */
let ORDER = () => 0;
/**
 * How rows are ordered: the builder knows the book (its units' section order).
 * @param {(entry: any, row: UpgradeRow) => number} fn  a row's rank in its entry
 * @returns {void}
 */
export function setRowOrder(fn) { ORDER = fn; }

/** @param {HasRows} entry */
function sortRows(entry) {
  entry.upgrades.sort((a, b) => ORDER(entry, a) - ORDER(entry, b));
}

/**
 * Pick one option of a pick-one section (null: none); used by the efficiency panel's trials.
 * @param {HasRows} entry
 * @param {string} sectionId
 * @param {string | null} optionId
 * @returns {void}
 */
export function setSection(entry, sectionId, optionId) {
  entry.upgrades = entry.upgrades.filter((r) => r.section !== sectionId);
  if (optionId) entry.upgrades.push({ section: sectionId, option: optionId, count: 1 });
  sortRows(entry);
}

/**
 * Set how many of an option an entry takes (0: none), its requirements left as they are.
 * @param {HasRows} entry
 * @param {string} sectionId
 * @param {string} optionId
 * @param {number} count
 * @returns {void}
 */
export function setOption(entry, sectionId, optionId, count) {
  entry.upgrades = entry.upgrades.filter((r) => !(r.section === sectionId && r.option === optionId));
  if (count > 0) entry.upgrades.push({ section: sectionId, option: optionId, count });
  sortRows(entry);
}

/**
 * Take (count > 0) or drop an option; what it needs comes with it, what needs it goes with it.
 * @param {HasRows} entry
 * @param {{id: string}} section
 * @param {{id: string, requires?: string[]}} option  (dropping needs the id only)
 * @param {number} count
 * @param {Map<string, Section>} sections  the book's, by id
 * @returns {void}
 */
export function takeOption(entry, section, option, count, sections) {
  setOption(entry, section.id, option.id, count);
  if (count > 0) {
    for (const ref of option.requires || []) {
      const [sid, oid] = ref.split("/");
      if (!entry.upgrades.some((r) => r.section === sid && r.option === oid)) setOption(entry, sid, oid, 1);
    }
  } else {
    const gone = `${section.id}/${option.id}`;
    for (const r of [...entry.upgrades]) {
      const s = sections.get(r.section);
      const o = s && s.options.find((x) => x.id === r.option);
      if (o && (o.requires || []).includes(gone)) takeOption(entry, s, o, 0, sections);
    }
  }
}
