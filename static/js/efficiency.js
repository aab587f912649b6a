// Points efficiency in the unit editor: the unit as chosen and each one-option change of its
// pick-one and pick-several sections, against a target from any book of the system, as
// expected wounds per 100 points (POST /api/v1/previews/compare answers; this module only asks
// and draws).
import { h, api, errorBox } from "./util.js";
import { sectionKind, setOption, setSection } from "./upgrade_rows.js";
import { UnitPicker } from "./unit_picker.js";

/** @typedef {import("./api_shapes.js").Book} Book */
/** @typedef {import("./api_shapes.js").Entry} Entry */
/** @typedef {import("./api_shapes.js").Section} Section */
/** @typedef {import("./api_shapes.js").Unit} Unit */
/** @typedef {import("./api_shapes.js").UpgradeRow} UpgradeRow */

/**
 * What the panel needs of the unit editor's context (editor.js's EditorContext).
 * @typedef {object} EfficiencyContext
 * @property {import("./api_shapes.js").GameSystem} system
 * @property {Book} book
 * @property {Map<string, Section>} sections
 * @property {() => Promise<any[]>} books  the system's listed books
 * @property {(id: string) => Promise<Book>} bookCache
 */

const MAX_OPTIONS = 8; // the API compares 2 to 8 loadouts at once

// Kept across editor re-renders (the editor is rebuilt on every change of the entry); attack
// is the label of the comparison's attack (null: the first the system offers).
/** @type {{book: string | null, target: string | null, attack: string | null}} */
const chosen = { book: null, target: null, attack: null };

/**
 * Loadouts to compare: the entry as it is, then the entry with each option it has not taken
 * (a pick-one section's choice swapped, a pick-several option added), options whose
 * requirements are met only, at most MAX_OPTIONS in all.
 * @param {Entry} entry
 * @param {Unit} unit
 * @param {Map<string, Section>} sections
 * @returns {{label: string, upgrades: UpgradeRow[]}[]}
 */
export function loadouts(entry, unit, sections) {
  const copy = () => ({ upgrades: entry.upgrades.map((r) => ({ ...r })) });
  const out = [{ label: "As chosen", upgrades: copy().upgrades }];
  for (const sectionId of unit.upgrades || []) {
    const section = sections.get(sectionId);
    const kind = section ? sectionKind(section) : "count";
    if (!section || kind === "count") continue; // per-model counts have no single "option" to weigh
    for (const option of section.options) {
      if (out.length >= MAX_OPTIONS) return out;
      if (entry.upgrades.some((r) => r.section === sectionId && r.option === option.id)) continue;
      const trial = copy();
      if (kind === "radio") setSection(trial, sectionId, option.id);
      else setOption(trial, sectionId, option.id, 1);
      const taken = new Set(trial.upgrades.map((r) => `${r.section}/${r.option}`));
      if ((option.requires || []).some((ref) => !taken.has(ref))) continue;
      out.push({ label: `${kind === "radio" ? "" : "+ "}${option.label}`, upgrades: trial.upgrades });
    }
  }
  return out;
}

/**
 * @param {Record<string, any>} answer  POST /api/v1/previews/compare's
 * @returns {HTMLTableElement}
 */
function resultTable(answer) {
  const pct = (p) => `${(100 * p).toFixed(p > 0 && p < 0.001 ? 2 : 1)}%`;
  return h("table", { class: "expected efficiency-table" },
    h("caption", {}, `Expected wounds against ${answer.defender.name}`),
    h("thead", {}, h("tr", {}, ["Option", "Pts", "Wounds", "Destroys", "Per 100 pts"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, answer.options.map((o, i) => h("tr", { class: i === answer.best ? "best" : null },
      h("th", { scope: "row" }, o.label, i === answer.best ? h("span", { class: "tag" }, "best") : null),
      h("td", {}, String(o.points)),
      h("td", {}, o.expected_wounds.toFixed(2)),
      h("td", {}, pct(o.p_destroyed)),
      h("td", {}, o.wounds_per_100_points === null ? "—" : o.wounds_per_100_points.toFixed(2))))));
}

/**
 * A target is a book unit as it comes: units that must take an upgrade cannot stand bare.
 * @param {Unit} unit
 * @param {Book} book
 * @returns {boolean}
 */
function standsBare(unit, book) {
  const mustTake = (/** @type {string} */ id) => ((book.upgrades || []).find((s) => s.id === id)?.pick?.min ?? 0) >= 1;
  return !(unit.upgrades || []).some(mustTake);
}

/**
 * The panel (a closed <details>), or null when the unit has nothing to compare.
 * @param {EfficiencyContext} ctx
 * @param {Entry} entry
 * @param {Unit} unit
 * @returns {HTMLDetailsElement | null}
 */
export function efficiencyPanel(ctx, entry, unit) {
  // Only where previews count wounds, with the attacks the system's rules family offers for it.
  const form = ctx.system.preview;
  if (!form || !form.available || !form.counts_wounds || !form.comparisons.length) return null;
  const attacks = form.comparisons;
  const options = loadouts(entry, unit, ctx.sections);
  if (options.length < 2) return null;
  const out = h("div", { class: "efficiency-out", "aria-live": "polite" });
  const book = h("select", { id: "eff-book" });
  const target = h("select", { id: "eff-target" });
  // Any listed book of the system (and the list's own), as the combat preview's defender.
  const picker = new UnitPicker({ bookSelect: book, unitSelect: target, bookCache: ctx.bookCache, keep: standsBare,
    onError: (box) => out.replaceChildren(box),
    onChange: (v) => { chosen.book = v.book; chosen.target = v.unit; } });
  ctx.books().catch(() => []).then((books) => picker.setBooks(books, { current: chosen.book || ctx.book.id, own: ctx.book, unit: chosen.target }));
  const attack = h("select", { id: "eff-attack", onchange: (e) => { chosen.attack = e.target.value; } },
    attacks.map((a) => h("option", { value: a.label, selected: a.label === chosen.attack }, a.label)));
  const run = async (/** @type {HTMLButtonElement} */ button) => {
    const defender = picker.value;
    if (!defender.unit) { out.replaceChildren(h("p", { class: "notice" }, "Pick a target unit.")); return; }
    button.disabled = true;
    out.replaceChildren(h("p", { class: "hint" }, "Working out the odds…"));
    const how = attacks.find((a) => a.label === chosen.attack) || attacks[0];
    /** @type {Record<string, unknown>} */
    const situation = {};
    if (form.attack_input) situation[form.attack_input] = how.attack;
    for (const flag of how.flags) situation[flag] = true;
    const body = { system: ctx.system.id, attacker: { book: ctx.book.id, unit: unit.id }, options, defender, situation };
    try {
      out.replaceChildren(resultTable(await api("/api/v1/previews/compare", { method: "POST", body })));
    } catch (err) {
      out.replaceChildren(errorBox(err, "No comparison"));
    } finally {
      button.disabled = false;
    }
  };
  const go = h("button", { type: "button", id: "eff-run", onclick: (e) => run(e.currentTarget) }, "Compare options");
  return h("details", { class: "efficiency", id: "ed-efficiency" },
    h("summary", {}, `Points efficiency of ${options.length - 1} option${options.length === 2 ? "" : "s"}`),
    h("p", { class: "hint" }, "Expected wounds per 100 points of each option against one target, exact odds."),
    h("div", { class: "button-row" },
      h("label", { class: "field" }, "Target's book ", book),
      h("label", { class: "field" }, "Target ", target),
      h("label", { class: "field" }, "Attack ", attack), go),
    out);
}
