// One upgrade section of the unit editor (editor.js) as a fieldset: a radio button, checkbox
// or model count per option as the book describes the section, each with its cost, what it
// requires and, when it cannot be taken, why.
import { formatCost, h } from "./util.js";
import { gainsLine } from "./profile.js";
import { optionCost, sectionKind, takeOption } from "./upgrade_rows.js";

/** @typedef {import("./api_shapes.js").Entry} Entry */
/** @typedef {import("./api_shapes.js").ArmyList} ArmyList */
/** @typedef {import("./api_shapes.js").Section} Section */
/** @typedef {import("./api_shapes.js").Unit} Unit */

/**
 * What a section control needs of the unit editor's context (editor.js's EditorContext).
 * @typedef {object} SectionContext
 * @property {Map<string, Section>} sections  the book's, by id
 * @property {(entry: Entry) => string} labelOf
 * @property {(fn: (entry: Entry) => void, options: {key: string, label?: string | null, merge?: string | null}) => void} update  changes one entry, as one step (merge: a box being typed into)
 * @property {(label: string, fn: (list: ArmyList) => void) => void} edit  changes several entries at once, as one step
 */

/** @type {Record<string, (s: import("./api_shapes.js").Section) => string>} */
const AFFECTS_TEXT = {
  unit: () => "for the unit",
  one: () => "one model",
  all: () => "every model",
  up_to: (s) => `up to ${s.affects_count} model${s.affects_count === 1 ? "" : "s"}`,
  any: () => "any number of models",
};

/**
 * @param {import("./api_shapes.js").Section} section
 * @returns {string} how many options may be picked, in words
 */
function pickText(section) {
  const { min, max } = section.pick || { min: 0, max: 1 };
  const parts = [];
  if (max === 1) parts.push("pick one");
  else if (max === null || max === undefined) parts.push("any number of options");
  else parts.push(`up to ${max} options`);
  if (min >= 1) parts.push(min === 1 ? "required" : `at least ${min} required`);
  return parts.join(", ");
}

/**
 * The cap on models for a count section, from the book: section size and gear to replace.
 * @param {Section} section
 * @param {Unit} unit
 * @returns {number}
 */
function modelCap(section, unit) {
  let cap = section.affects === "up_to" ? Math.min(section.affects_count || 1, unit.size) : unit.size;
  if (section.variant === "replace" && section.affects === "any" && section.replaces.length) {
    const have = section.replaces.map((name) => {
      const w = [...(unit.weapons || []), ...(unit.items || [])].find((x) => x.name === name);
      return w ? w.count : Infinity;
    });
    const least = Math.min(...have);
    if (Number.isFinite(least)) cap = Math.min(cap, least);
  }
  return cap;
}

/**
 * Change the same thing on several entries (both halves of a pair) as one step.
 * @param {SectionContext} ctx
 * @param {Entry[]} entries
 * @param {(entry: Entry) => void} fn
 * @param {string} label
 * @param {string | null} [merge]  a box being typed into: its changes are one step (store.js)
 */
function apply(ctx, entries, fn, label, merge = null) {
  if (entries.length === 1) { ctx.update(fn, { key: entries[0].key, label, merge }); return; }
  const keys = new Set(entries.map((e) => e.key));
  ctx.edit(label, (l) => { for (const e of l.units) if (keys.has(e.key)) fn(e); });
}

/**
 * One upgrade section of the book as the editor's fieldset for these entries (both halves of a
 * pair change together).
 * @param {SectionContext} ctx
 * @param {Entry[]} entries  the entry, or both halves of a pair
 * @param {Unit} unit
 * @param {Section} section
 * @param {string} p  the id prefix of the group member it is drawn for
 * @returns {HTMLFieldSetElement}
 */
export function sectionControl(ctx, entries, unit, section, p) {
  /** @type {(en: Entry, option: {id: string, requires?: string[]}, count: number) => void} */
  const take = (en, option, count) => takeOption(en, section, option, count, ctx.sections);
  const entry = entries[0];
  const kind = sectionKind(section);
  const rows = entry.upgrades.filter((r) => r.section === section.id);
  const taken = new Set(entry.upgrades.map((r) => `${r.section}/${r.option}`));
  const labelOf = (ref) => {
    const [sid, oid] = ref.split("/");
    const s = ctx.sections.get(sid);
    const o = s && s.options.find((x) => x.id === oid);
    return o ? o.label : ref;
  };
  const hint = [AFFECTS_TEXT[section.affects] ? AFFECTS_TEXT[section.affects](section) : section.affects, pickText(section)];
  if (section.variant === "replace" && section.replaces.length) hint.unshift(`replaces ${section.replaces.join(", ")}`);
  const fieldset = h("fieldset", { class: `section ${kind}`, id: `${p}ed-section-${section.id}`, dataset: { section: section.id } },
    h("legend", {}, section.label), h("p", { class: "hint section-hint" }, hint.join("; ")));
  const perModel = kind === "count";
  const distinct = new Set(rows.map((r) => r.option));
  const max = section.pick ? section.pick.max : null;
  const cap = perModel ? modelCap(section, unit) : 1;
  const totalCap = perModel ? cap * (max ?? section.options.length) : null;
  const used = rows.reduce((n, r) => n + r.count, 0);
  const label = `${section.label}: ${ctx.labelOf(entry)}${entries.length > 1 ? " (both halves)" : ""}`;

  if (kind === "radio" && !(section.pick && section.pick.min >= 1)) {
    const id = `${p}ed-${section.id}--none`;
    fieldset.append(h("div", { class: "option" },
      h("input", { type: "radio", id, name: `${p}ed-${section.id}`, checked: rows.length === 0,
        onchange: () => apply(ctx, entries, (en) => { for (const r of en.upgrades.filter((x) => x.section === section.id)) take(en, { id: r.option }, 0); }, label) }),
      h("label", { for: id }, "None")));
  }
  for (const option of section.options) {
    const id = `${p}ed-${section.id}--${option.id}`;
    const row = rows.find((r) => r.option === option.id);
    const has = Boolean(row);
    const reasons = [];
    const notes = [];
    const missing = (option.requires || []).filter((ref) => !taken.has(ref));
    const missingHere = missing.filter((ref) => ref.startsWith(`${section.id}/`)).length;
    if (missing.length) notes.push(`also takes ${missing.map(labelOf).join(" and ")}`);
    if (!has && kind === "check" && max !== null && max !== undefined && distinct.size + 1 + missingHere > max) reasons.push(`section full: ${max} option${max === 1 ? "" : "s"} at most`);
    if (!has && perModel && totalCap !== null && used >= totalCap) reasons.push(`section full: ${totalCap} in all`);
    const disabled = !has && reasons.length > 0;
    const cost = optionCost(option, unit.id);
    const free = !Object.values(cost || {}).some(Boolean);
    const costText = free ? "free" : `+${formatCost(cost)}${perModel ? " per model" : ""}`;
    const reasonId = `${id}--why`;
    const extras = [];
    if (option.command) extras.push(h("span", { class: "tag" }, option.command));
    if (option.elite_only) extras.push(h("span", { class: "tag" }, "elite only"));
    const labelBits = [h("span", { class: "opt-label" }, option.label), " ", h("span", { class: "cost" }, costText), ...extras];
    const why = [...reasons, ...(has ? [] : notes)];
    const detail = h("div", { class: "opt-detail" }, gainsLine(option.gains),
      why.length ? h("span", { class: reasons.length ? "reason" : "hint", id: reasonId }, why.join("; ")) : null);
    const described = why.length ? reasonId : null;
    let control;
    if (kind === "radio") {
      control = h("input", { type: "radio", id, name: `${p}ed-${section.id}`, checked: has, disabled, "aria-describedby": described,
        onchange: () => apply(ctx, entries, (en) => {
          for (const r of en.upgrades.filter((x) => x.section === section.id && x.option !== option.id)) take(en, { id: r.option }, 0);
          take(en, option, 1);
        }, label) });
    } else if (kind === "check") {
      control = h("input", { type: "checkbox", id, checked: has, disabled, "aria-describedby": described,
        onchange: (e) => apply(ctx, entries, (en) => take(en, option, e.target.checked ? 1 : 0), label) });
    } else {
      const room = totalCap === null ? cap : Math.min(cap, (row ? row.count : 0) + Math.max(0, totalCap - used));
      control = h("input", { type: "number", id, min: 0, max: room, step: 1, value: row ? row.count : 0, disabled, inputmode: "numeric", "aria-describedby": described,
        // Points follow each digit typed (not only when the box loses the focus); an emptied
        // box waits for a number, and the digits of one count are one undoable step.
        oninput: (e) => {
          if (e.target.value === "") return;
          const n = Math.max(0, Math.floor(Number(e.target.value) || 0));
          apply(ctx, entries, (en) => take(en, option, n), label, `count-${entries[0].key}-${section.id}-${option.id}`);
        } });
      labelBits.push(h("span", { class: "hint" }, ` (0–${room} models)`));
    }
    fieldset.append(h("div", { class: `option${disabled ? " disabled" : ""}` }, control, h("label", { for: id }, labelBits), detail));
  }
  return fieldset;
}
