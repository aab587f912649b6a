// A list entry's upgrade rows and the book's sections they come from: how a section is chosen,
// what an option costs, and taking or dropping options with what they require. Shared by the
// unit editor, the efficiency panel and the builder's list edits (none of them owns the rows).

/** How a section is chosen: "radio" (pick one), "check" (several options), "count" (models per option). */
export function sectionKind(section) {
  if (section.affects === "up_to" || section.affects === "any") return "count";
  return section.pick && section.pick.max === 1 ? "radio" : "check";
}

export const optionCost = (option, unitId) => (option.unit_costs && option.unit_costs[unitId]) || option.cost;

// Rows keep the unit's section order, so replacements come before additions.
let ORDER = () => 0;
export function setRowOrder(fn) { ORDER = fn; }

function sortRows(entry) {
  entry.upgrades.sort((a, b) => ORDER(entry, a) - ORDER(entry, b));
}

/** Pick one option of a pick-one section (null: none); used by the efficiency panel's trials. */
export function setSection(entry, sectionId, optionId) {
  entry.upgrades = entry.upgrades.filter((r) => r.section !== sectionId);
  if (optionId) entry.upgrades.push({ section: sectionId, option: optionId, count: 1 });
  sortRows(entry);
}

export function setOption(entry, sectionId, optionId, count) {
  entry.upgrades = entry.upgrades.filter((r) => !(r.section === sectionId && r.option === optionId));
  if (count > 0) entry.upgrades.push({ section: sectionId, option: optionId, count });
  sortRows(entry);
}

/** Take (count > 0) or drop an option; what it needs comes with it, what needs it goes with it. */
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
