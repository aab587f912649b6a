// The unit editor: one control per upgrade section, as the book describes it, plus combining,
// joining and spells. It edits the list entry only; the API says whether the result is legal.
import { h, formatCost, ruleName } from "./util.js";
import { gainsLine, ruleList, statLine, weaponTable, itemList } from "./profile.js";
import { efficiencyPanel } from "./efficiency.js";

const AFFECTS_TEXT = {
  unit: () => "for the unit",
  one: () => "one model",
  all: () => "every model",
  up_to: (s) => `up to ${s.affects_count} model${s.affects_count === 1 ? "" : "s"}`,
  any: () => "any number of models",
};

/** How a section is chosen: "radio" (pick one), "check" (several options), "count" (models per option). */
export function sectionKind(section) {
  if (section.affects === "up_to" || section.affects === "any") return "count";
  return section.pick && section.pick.max === 1 ? "radio" : "check";
}

function pickText(section) {
  const { min, max } = section.pick || { min: 0, max: 1 };
  const parts = [];
  if (max === 1) parts.push("pick one");
  else if (max === null || max === undefined) parts.push("any number of options");
  else parts.push(`up to ${max} options`);
  if (min >= 1) parts.push(min === 1 ? "required" : `at least ${min} required`);
  return parts.join(", ");
}

export const optionCost = (option, unitId) => (option.unit_costs && option.unit_costs[unitId]) || option.cost;

export class Editor {
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx; // {system, book, family, units, sections, list(), entry(key), update(fn, opts), close(), nameOf(entry)}
  }

  /** The cap on models for a count section, from the book: section size and gear to replace. */
  modelCap(section, unit) {
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

  render(key) {
    const entry = this.ctx.entry(key);
    if (!entry) { this.root.hidden = true; this.root.replaceChildren(); return; }
    const unit = this.ctx.units.get(entry.unit);
    const title = h("h3", { id: "editor-title" }, "Editing ", h("span", {}, this.ctx.nameOf(entry)));
    const close = h("button", { type: "button", class: "close", onclick: () => this.ctx.close(), "aria-label": "Close the unit editor" }, "Done");
    const body = [h("div", { class: "editor-head" }, title, close)];
    body.push(h("label", { class: "field" }, "Name",
      h("input", { id: "ed-name", type: "text", maxlength: 200, value: entry.name || "", placeholder: unit ? unit.name : entry.unit,
        oninput: (e) => this.ctx.update((en) => { en.name = e.target.value; }, { key, editor: false }) })));
    if (!unit) {
      body.push(h("p", { class: "notice error" }, `The book has no unit “${entry.unit}”. Remove this entry.`));
      this.root.replaceChildren(...body);
      this.root.hidden = false;
      return;
    }
    body.push(h("details", { class: "base-profile" }, h("summary", {}, `Base profile: ${unit.size} model${unit.size === 1 ? "" : "s"}, ${formatCost(unit.cost)}`),
      statLine(unit, this.ctx.family), weaponTable(unit.weapons), itemList(unit.items), ruleList(unit.rules)));
    for (const sectionId of unit.upgrades || []) {
      const section = this.ctx.sections.get(sectionId);
      if (section) body.push(this.section(entry, unit, section));
    }
    body.push(...this.pairing(entry, unit));
    const spells = this.spells(entry, unit);
    if (spells) body.push(spells);
    const efficiency = efficiencyPanel(this.ctx, entry, unit);
    if (efficiency) body.push(efficiency);
    body.push(h("label", { class: "field" }, "Notes",
      h("textarea", { id: "ed-notes", rows: 2, maxlength: 2000, value: entry.notes || "",
        oninput: (e) => this.ctx.update((en) => { en.notes = e.target.value; }, { key, editor: false }) })));
    this.root.replaceChildren(...body);
    this.root.hidden = false;
  }

  section(entry, unit, section) {
    const kind = sectionKind(section);
    const rows = entry.upgrades.filter((r) => r.section === section.id);
    const taken = new Set(entry.upgrades.map((r) => `${r.section}/${r.option}`));
    const labelOf = (ref) => {
      const [sid, oid] = ref.split("/");
      const s = this.ctx.sections.get(sid);
      const o = s && s.options.find((x) => x.id === oid);
      return o ? `${o.label} (${s.label})` : ref;
    };
    const hint = [AFFECTS_TEXT[section.affects] ? AFFECTS_TEXT[section.affects](section) : section.affects, pickText(section)];
    if (section.variant === "replace" && section.replaces.length) hint.unshift(`replaces ${section.replaces.join(", ")}`);
    const fieldset = h("fieldset", { class: `section ${kind}`, id: `ed-section-${section.id}`, dataset: { section: section.id } },
      h("legend", {}, section.label), h("p", { class: "hint section-hint" }, hint.join("; ")));
    const perModel = kind === "count";
    const distinct = new Set(rows.map((r) => r.option));
    const max = section.pick ? section.pick.max : null;
    const cap = perModel ? this.modelCap(section, unit) : 1;
    const totalCap = perModel ? cap * (max ?? section.options.length) : null;
    const used = rows.reduce((n, r) => n + r.count, 0);

    if (kind === "radio" && !(section.pick && section.pick.min >= 1)) {
      const id = `ed-${section.id}--none`;
      fieldset.append(h("div", { class: "option" },
        h("input", { type: "radio", id, name: `ed-${section.id}`, checked: rows.length === 0,
          onchange: () => this.ctx.update((en) => setSection(en, section.id, null), { key: entry.key }) }),
        h("label", { for: id }, "None")));
    }
    for (const option of section.options) {
      const id = `ed-${section.id}--${option.id}`;
      const row = rows.find((r) => r.option === option.id);
      const has = Boolean(row);
      const reasons = [];
      const missing = (option.requires || []).filter((ref) => !taken.has(ref));
      if (missing.length) reasons.push(`needs ${missing.map(labelOf).join(" and ")}`);
      if (!has && kind === "check" && max !== null && max !== undefined && distinct.size >= max) reasons.push(`section full: ${max} option${max === 1 ? "" : "s"} at most`);
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
      const detail = h("div", { class: "opt-detail" }, gainsLine(option.gains),
        reasons.length ? h("span", { class: "reason", id: reasonId }, reasons.join("; ")) : null);
      let control;
      if (kind === "radio") {
        control = h("input", { type: "radio", id, name: `ed-${section.id}`, checked: has, disabled,
          "aria-describedby": reasons.length ? reasonId : null,
          onchange: () => this.ctx.update((en) => setSection(en, section.id, option.id), { key: entry.key }) });
      } else if (kind === "check") {
        control = h("input", { type: "checkbox", id, checked: has, disabled,
          "aria-describedby": reasons.length ? reasonId : null,
          onchange: (e) => this.ctx.update((en) => setOption(en, section.id, option.id, e.target.checked ? 1 : 0), { key: entry.key }) });
      } else {
        const room = totalCap === null ? cap : Math.min(cap, (row ? row.count : 0) + Math.max(0, totalCap - used));
        control = h("input", { type: "number", id, min: 0, max: room, step: 1, value: row ? row.count : 0, disabled, inputmode: "numeric",
          "aria-describedby": reasons.length ? reasonId : null,
          onchange: (e) => {
            const n = Math.max(0, Math.floor(Number(e.target.value) || 0));
            this.ctx.update((en) => setOption(en, section.id, option.id, n), { key: entry.key });
          } });
        labelBits.push(h("span", { class: "hint" }, ` (0–${room} models)`));
      }
      fieldset.append(h("div", { class: `option${disabled ? " disabled" : ""}` }, control, h("label", { for: id }, labelBits), detail));
    }
    return fieldset;
  }

  pairing(entry, unit) {
    const out = [];
    const comp = this.ctx.system.composition || {};
    const list = this.ctx.list();
    const others = list.units.filter((e) => e.key !== entry.key);
    const label = (e) => `${this.ctx.nameOf(e)} (${e.key})`;
    if (comp.combined) {
      const partnerOf = (e) => e.combined_with || (list.units.find((x) => x.combined_with === e.key) || {}).key || null;
      const pointing = list.units.find((x) => x.combined_with === entry.key);
      if (pointing) {
        out.push(h("p", { class: "pairing" }, `Combined with ${label(pointing)}; change it on that unit. `,
          h("button", { type: "button", onclick: () => this.ctx.update((l) => { l.combined_with = null; }, { key: pointing.key, render: entry.key }) }, "Split the pair")));
      } else {
        const eligible = others.filter((e) => e.unit === entry.unit && (!partnerOf(e) || e.key === entry.combined_with));
        const multi = !(comp.combined.multi_model_only && unit.size <= 1);
        if (multi && (eligible.length || entry.combined_with)) {
          out.push(h("label", { class: "field" }, "Combine with another copy",
            h("select", { id: "ed-combine", onchange: (e) => this.ctx.update((en) => { en.combined_with = e.target.value || null; }, { key: entry.key }) },
              h("option", { value: "" }, "— not combined —"),
              eligible.map((e) => h("option", { value: e.key, selected: e.key === entry.combined_with }, label(e))),
              entry.combined_with && !eligible.some((e) => e.key === entry.combined_with) ? h("option", { value: entry.combined_with, selected: true }, `${entry.combined_with} (not in the list)`) : null)));
        }
      }
    }
    const joinsAsHero = comp.heroes_join && unit.is_hero;
    const attachment = comp.attachment_rule && (unit.rules || []).some((r) => ruleName(r) === comp.attachment_rule);
    if (joinsAsHero || attachment) {
      const advance = new Set(comp.advance_rules || []);
      const eligible = others.filter((e) => {
        const u = this.ctx.units.get(e.unit);
        if (!u) return false;
        if (joinsAsHero) return !u.is_hero && !(comp.heroes_join.multi_model_only && u.size <= 1);
        return (u.rules || []).some((r) => advance.has(ruleName(r))) && !(u.rules || []).some((r) => ruleName(r) === comp.attachment_rule);
      });
      out.push(h("label", { class: "field" }, joinsAsHero ? "Join a unit (hero)" : "Attach to a unit",
        h("select", { id: "ed-join", onchange: (e) => this.ctx.update((en) => { en.joined_to = e.target.value || null; }, { key: entry.key }) },
          h("option", { value: "" }, "— on its own —"),
          eligible.map((e) => h("option", { value: e.key, selected: e.key === entry.joined_to }, label(e))),
          entry.joined_to && !eligible.some((e) => e.key === entry.joined_to) ? h("option", { value: entry.joined_to, selected: true }, `${entry.joined_to} (not eligible)`) : null)),
        eligible.length ? null : h("p", { class: "hint" }, "No unit in the list can take it yet."));
    }
    const joiners = list.units.filter((e) => e.joined_to === entry.key);
    if (joiners.length) out.push(h("p", { class: "pairing" }, `Joined by ${joiners.map(label).join(", ")}.`));
    return out;
  }

  spells(entry, unit) {
    const comp = this.ctx.system.composition || {};
    if (!comp.magician_rule) return null;
    const rule = (unit.rules || []).find((r) => ruleName(r) === comp.magician_rule);
    if (!rule) return null;
    const allowed = Number((/\((\d+)\)/.exec(rule) || [])[1] || 0);
    const spells = [...(this.ctx.system.spells || []), ...(this.ctx.book.spells || [])];
    const chosen = new Set(entry.spells || []);
    const roles = new Set((unit.stats && unit.stats.spell_roles) || []);
    const fieldset = h("fieldset", { class: "section check spells", id: "ed-spells" },
      h("legend", {}, "Spells"), h("p", { class: "hint section-hint" }, `${rule}: choose up to ${allowed}, each once (${chosen.size} chosen)`));
    for (const spell of spells) {
      const id = `ed-spell--${spell.id}`;
      const has = chosen.has(spell.id);
      const reasons = [];
      if (spell.limited_to && spell.limited_to.length && !spell.limited_to.some((r) => roles.has(r))) reasons.push(`only for ${spell.limited_to.join(", ")}`);
      if (!has && chosen.size >= allowed) reasons.push(`${allowed} spell${allowed === 1 ? "" : "s"} already chosen`);
      const disabled = !has && reasons.length > 0;
      fieldset.append(h("div", { class: `option${disabled ? " disabled" : ""}` },
        h("input", { type: "checkbox", id, checked: has, disabled, "aria-describedby": reasons.length ? `${id}--why` : null,
          onchange: (e) => this.ctx.update((en) => {
            const set = new Set(en.spells || []);
            if (e.target.checked) set.add(spell.id); else set.delete(spell.id);
            en.spells = spells.map((s) => s.id).filter((sid) => set.has(sid));
          }, { key: entry.key }) }),
        h("label", { for: id }, h("span", { class: "opt-label" }, spell.name), " ", h("span", { class: "cost" }, `value ${spell.value}`)),
        h("div", { class: "opt-detail" }, h("span", {}, spell.text), reasons.length ? h("span", { class: "reason", id: `${id}--why` }, reasons.join("; ")) : null)));
    }
    return fieldset;
  }
}

// -- list edits (the rows keep the unit's section order so replacements come before additions)

let ORDER = () => 0;
export function setRowOrder(fn) { ORDER = fn; }

function sortRows(entry) {
  entry.upgrades.sort((a, b) => ORDER(entry, a) - ORDER(entry, b));
}

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
