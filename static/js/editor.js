// The unit editor: one control per upgrade section, as the book describes it, plus combining,
// joining and spells. It edits the list entry only; the API says whether the result is legal.
import { actOnChoice, CHOICE_HINT, h, formatCost, ruleName } from "./util.js";
import { ruleList, rulesShown, ruleTexts, statLine, weaponTable, itemList } from "./profile.js";
import { efficiencyPanel } from "./efficiency.js";
import { canHostUnit, joinersOf } from "./joining.js";
import { groupOf } from "./groups.js";
import { sectionControl } from "./section_control.js";

/** @typedef {import("./api_shapes.js").ArmyList} ArmyList */
/** @typedef {import("./api_shapes.js").Entry} Entry */
/** @typedef {import("./api_shapes.js").Group} Group */
/** @typedef {import("./api_shapes.js").Issue} Issue */

/**
 * What the editor reads and may change; the builder gives it (list_panel.js). It edits the list
 * only through update and edit, so every change is one undoable step of the builder's store.
 * @typedef {object} EditorContext
 * @property {import("./api_shapes.js").GameSystem} system
 * @property {import("./api_shapes.js").Book} book
 * @property {Map<string, import("./api_shapes.js").Unit>} units
 * @property {Map<string, import("./api_shapes.js").Section>} sections
 * @property {import("./profile.js").Glossary} glossary
 * @property {() => Promise<any[]>} books  the system's listed books
 * @property {(id: string) => Promise<import("./api_shapes.js").Book>} bookCache
 * @property {() => ArmyList} list
 * @property {(key: string) => Entry | null} entry
 * @property {(entry: Entry) => string} nameOf
 * @property {(entry: Entry) => string} labelOf
 * @property {(group: Group) => string} groupName
 * @property {(fn: (entry: Entry) => void, options: {key: string, light?: boolean, merge?: string | null, label?: string | null}) => void} update
 *   changes one entry, as one step
 * @property {(label: string, fn: (list: ArmyList) => void) => void} edit  changes several entries at once, as one step
 * @property {(unitId: string, options: {joinTo?: string | null}) => unknown} addUnit
 * @property {(keys: string[], label: string) => void} remove
 * @property {() => void} close
 * @property {(key: string) => {cost: import("./api_shapes.js").Cost, profile?: Record<string, any>} | null} priced
 *   the entry as the last report priced it
 * @property {(group: Group) => {cost: string, issues: Issue[], overall: string}} [statusOf]
 */

export class Editor {
  /**
   * @param {HTMLElement} root  the editor's panel, hidden while no entry is open
   * @param {EditorContext} ctx
   */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    /** @type {Group | null} the group drawn last */
    this.group = null;
    /** @type {Set<string> | undefined} ids of the rules disclosures the player opened */
    this.openRules = undefined;
  }

  render(key) {
    const entry = this.ctx.entry(key);
    if (!entry) { this.root.hidden = true; this.root.replaceChildren(); return; }
    const list = this.ctx.list();
    const group = groupOf(list.units, key) || { key, members: [entry], heroes: [], entries: [entry] };
    const prefixOf = (e) => (e.key === key ? "" : `m-${cssId(e.key)}-`);
    const title = h("h3", { id: "editor-title" }, this.ctx.groupName(group));
    const close = h("button", { type: "button", class: "close", onclick: () => this.ctx.close(), "aria-label": "Done: close the unit editor (Escape)" }, "Done");
    const controls = h("div", { class: "editor-controls" });
    const profile = h("div", { class: "editor-profile", id: "editor-profile", "aria-live": "polite" });
    const pair = group.members.length > 1;
    const shared = new Set();
    if (pair) {
      // 000/001/002 "Combined Units": upgrades for all models are bought for both halves, so
      // they are one control here, changing both.
      const unit = this.ctx.units.get(group.members[0].unit);
      const sectionsForAll = /** @type {import("./api_shapes.js").Section[]} */ ((unit ? unit.upgrades : []).map((id) => this.ctx.sections.get(id))
        .filter((s) => s && s.affects === "all"));
      for (const s of sectionsForAll) shared.add(s.id);
      if (unit && sectionsForAll.length) {
        controls.append(h("div", { class: "member shared" }, h("h4", {}, "Both halves"),
          h("p", { class: "hint" }, "Upgrades for every model are bought for both halves of a combined unit."),
          sectionsForAll.map((s) => sectionControl(this.ctx, group.members, unit, s, prefixOf(group.members[0])))));
      }
    }
    for (const member of group.entries) controls.append(this.member(member, group, prefixOf(member), shared));
    controls.append(...this.groupControls(group));
    const upgradeRules = this.upgradeRules(group);
    if (upgradeRules) controls.append(upgradeRules);
    const unit = this.ctx.units.get(entry.unit);
    // Under both columns: its table needs the editor's whole width.
    const efficiency = unit && efficiencyPanel(this.ctx, entry, unit);
    this.group = group;
    this.root.replaceChildren(h("div", { class: "editor-head" }, title, h("span", { id: "editor-status", class: "editor-status", role: "status" }), close),
      h("div", { id: "editor-issues", class: "editor-issues", "aria-live": "polite" }),
      h("div", { class: "editor-body" }, controls, profile, efficiency));
    this.root.hidden = false;
    this.showStatus();
  }

  /** The group's price and its issues, redrawn when a validation answer comes (controls untouched). */
  showStatus() {
    if (this.root.hidden || !this.group || !this.ctx.statusOf) return;
    const { cost, issues, overall } = this.ctx.statusOf(this.group);
    const box = this.root.querySelector("#editor-status");
    const list = this.root.querySelector("#editor-issues");
    if (!box || !list) return;
    box.replaceChildren(h("strong", {}, cost), overall ? ` · ${overall}` : "");
    const profile = this.root.querySelector("#editor-profile");
    if (profile) {
      profile.replaceChildren(h("h4", { class: "profile-title" }, "Profile after upgrades"),
        ...this.group.entries.map((e) => this.profileCard(e, this.ctx.priced(e.key))).filter((card) => card !== null));
    }
    list.replaceChildren(...(issues.length ? [h("ul", {}, issues.map((i) =>
      h("li", { class: `issue ${i.severity}` }, h("span", { class: "message" }, i.message), h("span", { class: "clause" }, ` ${i.clause}`))))] : []));
  }

  /** The entry as it fights after its upgrades (the API's profile), or the book's until that comes. */
  profileCard(entry, live) {
    const unit = this.ctx.units.get(entry.unit);
    if (!unit) return null;
    const p = live ? live.profile : null;
    const models = p ? p.models : unit.size;
    return h("div", { class: "profile-card", dataset: { key: entry.key } },
      h("h4", {}, this.ctx.labelOf(entry), " ", h("span", { class: "meta" }, `${models} model${models === 1 ? "" : "s"}, ${formatCost(live ? live.cost : unit.cost)}`)),
      p ? null : h("p", { class: "hint" }, "As in the book (checking the upgrades…)"),
      statLine(unit, this.ctx.system.stat_formats), weaponTable(p ? p.weapons : unit.weapons), itemList(p ? p.items : unit.items), ruleList(p ? p.rules : unit.rules),
      this.keptOpen(ruleTexts(this.ctx.glossary, rulesShown(p || unit), { whose: this.ctx.labelOf(entry) }), `ed-rules-${cssId(entry.key)}`));
  }

  /**
   * A rules disclosure that stays open (and keeps the focus, by its summary's id) when the
   * profile is redrawn after each validation answer.
   */
  keptOpen(details, id) {
    if (!details) return null;
    const open = this.openRules = this.openRules || new Set();
    /** @type {HTMLElement} */ (details.querySelector("summary")).id = id;  // ruleTexts always makes one
    details.open = open.has(id);
    details.addEventListener("toggle", () => { if (details.open) open.add(id); else open.delete(id); });
    return details;
  }

  /** The rules the group's upgrade options give, explained (their chips are not tab stops). */
  upgradeRules(group) {
    const labels = new Set();
    for (const e of group.entries) {
      for (const sid of this.ctx.units.get(e.unit)?.upgrades || []) {
        for (const o of this.ctx.sections.get(sid)?.options || []) for (const r of rulesShown(o.gains || {})) labels.add(r);
      }
    }
    return this.keptOpen(ruleTexts(this.ctx.glossary, [...labels], { title: "Rules the upgrades give" }), "ed-upgrade-rules");
  }

  /** One entry of the group: its name, sections (those not shared by a pair), links, spells, notes. */
  member(entry, group, p, shared) {
    const unit = this.ctx.units.get(entry.unit);
    const role = group.members.length > 1 && group.members.includes(entry) ? ` (half ${group.members.indexOf(entry) + 1} of the pair)`
      : group.heroes.includes(entry) ? " (joined)" : "";
    const box = h("section", { class: "member", "aria-labelledby": `${p}ed-member-title` },
      h("h4", { id: `${p}ed-member-title` }, this.ctx.labelOf(entry), role));
    box.append(h("label", { class: "field" }, "Name",
      h("input", { id: `${p}ed-name`, type: "text", maxlength: 200, value: entry.name || "", placeholder: unit ? unit.name : entry.unit,
        oninput: (e) => this.ctx.update((en) => { en.name = e.target.value; }, { key: entry.key, light: true, merge: `name-${entry.key}`, label: "Rename a unit" }) })));
    if (!unit) {
      box.append(h("p", { class: "notice error" }, `The book has no unit “${entry.unit}”. Remove this entry.`));
    } else {
      for (const sectionId of unit.upgrades || []) {
        const section = this.ctx.sections.get(sectionId);
        if (section && !shared.has(sectionId)) box.append(sectionControl(this.ctx, [entry], unit, section, p));
      }
      box.append(...this.pairing(entry, unit, p));
      const spells = this.spells(entry, unit, p);
      if (spells) box.append(spells);
    }
    box.append(h("label", { class: "field" }, "Notes",
      h("textarea", { id: `${p}ed-notes`, rows: 2, maxlength: 2000, value: entry.notes || "",
        oninput: (e) => this.ctx.update((en) => { en.notes = e.target.value; }, { key: entry.key, light: true, merge: `notes-${entry.key}`, label: "Edit notes" }) })));
    if (group.entries.length > 1) {
      box.append(h("button", { type: "button", class: "danger remove-member", id: `${p}ed-remove`,
        onclick: () => this.ctx.remove([entry.key], `Remove ${this.ctx.labelOf(entry)}`) }, `Remove ${this.ctx.labelOf(entry)}`));
    }
    return box;
  }

  /** Entries this one could combine with: other copies of the same unit, not yet paired. */
  combinable(entry, unit) {
    const comp = this.ctx.system.composition || {};
    if (!comp.combined || (comp.combined.multi_model_only && unit.size <= 1)) return null;
    const list = this.ctx.list();
    const paired = (e) => e.combined_with || list.units.some((x) => x.combined_with === e.key);
    return list.units.filter((e) => e.key !== entry.key && e.unit === entry.unit && (!paired(e) || e.key === entry.combined_with));
  }

  pairing(entry, unit, p) {
    const out = [];
    const comp = this.ctx.system.composition || {};
    const list = this.ctx.list();
    const others = list.units.filter((e) => e.key !== entry.key);
    const label = (e) => this.ctx.labelOf(e);
    const pointing = list.units.find((x) => x.combined_with === entry.key && x.key !== entry.combined_with);
    const eligible = this.combinable(entry, unit);
    if (eligible && !pointing && !entry.combined_with) {
      out.push(h("div", { class: "field-row" },
        h("button", { type: "button", class: "combine-copy", id: `${p}ed-combine-copy`, onclick: () => this.combineWithCopy(entry) }, "Combine with a new copy"),
        eligible.length ? h("label", { class: "field inline" }, "or with",
          h("select", { id: `${p}ed-combine`, onchange: (e) => this.ctx.update((en) => { en.combined_with = e.target.value || null; }, { key: entry.key, label: "Combine two copies" }) },
            h("option", { value: "" }, "— not combined —"),
            eligible.map((e) => h("option", { value: e.key }, label(e))))) : null));
    } else if (entry.combined_with && !list.units.some((x) => x.key === entry.combined_with)) {
      out.push(h("p", { class: "notice error" }, "Combined with a unit that is no longer in the list. ",
        h("button", { type: "button", onclick: () => this.ctx.update((en) => { en.combined_with = null; }, { key: entry.key, label: "Split a pair" }) }, "Split")));
    }
    const joinsAsHero = comp.heroes_join && unit.is_hero;
    const attachment = comp.attachment_rule && (unit.rules || []).some((r) => ruleName(r) === comp.attachment_rule);
    if (joinsAsHero || attachment) {
      const hosts = others.filter((e) => this.canHost(e, joinsAsHero));
      const current = list.units.find((e) => e.key === entry.joined_to);
      out.push(h("label", { class: "field" }, joinsAsHero ? "Join a unit (hero)" : "Attach to a unit",
        h("select", { id: `${p}ed-join`, onchange: (e) => this.ctx.update((en) => { en.joined_to = e.target.value || null; }, { key: entry.key, label: `${joinsAsHero ? "Join" : "Attach"} ${label(entry)}` }) },
          h("option", { value: "" }, "— on its own —"),
          hosts.map((e) => h("option", { value: e.key, selected: e.key === entry.joined_to }, label(e))),
          entry.joined_to && !(current && hosts.includes(current)) ? h("option", { value: entry.joined_to, selected: true }, current ? `${label(current)} (not eligible)` : "a unit no longer in the list") : null)),
        hosts.length ? null : h("p", { class: "hint" }, "No unit in the list can take it yet."));
    }
    return out.filter(Boolean);  // the caller appends these: a null would print as "null"
  }

  /** Can entry e take a joining hero (heroes) or an attachment? */
  canHost(e, heroes) {
    const u = this.ctx.units.get(e.unit);
    return u !== undefined && canHostUnit(this.ctx.system, u, heroes);
  }

  /** A copy with the same upgrades for every model, combined with this entry, in one step. */
  combineWithCopy(entry) {
    this.ctx.edit(`Combine ${this.ctx.labelOf(entry)} with a copy`, (l) => {
      const used = new Set(l.units.map((e) => e.key));
      let n = l.units.length + 1;
      while (used.has(`u${n}`)) n++;
      const shared = entry.upgrades.filter((r) => this.ctx.sections.get(r.section)?.affects === "all").map((r) => ({ ...r }));
      const copy = { key: `u${n}`, unit: entry.unit, name: "", notes: "", upgrades: shared, combined_with: entry.key, joined_to: null, spells: [] };
      const mine = /** @type {Entry} */ (l.units.find((e) => e.key === entry.key));
      mine.combined_with = copy.key;
      l.units.splice(l.units.indexOf(mine) + 1, 0, copy);
    });
  }

  /** Split a pair, add a hero (or attachment) straight into the unit. */
  groupControls(group) {
    const out = [];
    if (group.members.length > 1) {
      const [a, b] = group.members;
      out.push(h("div", { class: "field-row pairing" },
        h("button", { type: "button", id: "ed-split", onclick: () => this.ctx.edit(`Split ${this.ctx.labelOf(a)}`, (l) => {
          for (const e of l.units) if (e.key === a.key || e.key === b.key) e.combined_with = null;
        }) }, "Split the pair")));
    }
    const host = group.members[0];
    const hostUnit = this.ctx.units.get(host.unit);
    const joiners = hostUnit ? joinersOf(this.ctx.system, this.ctx.book, hostUnit) : null;
    if (joiners && joiners.units.length) {
      const select = h("select", { id: "ed-add-joined", "aria-describedby": "ed-add-joined-hint" },
        h("option", { value: "" }, `— choose ${joiners.a} —`),
        joiners.units.map((u) => h("option", { value: u.id }, `${u.name} (${formatCost(u.cost)})`)));
      actOnChoice(select, (id) => {
        this.ctx.addUnit(id, { joinTo: host.key });
        const again = /** @type {HTMLSelectElement | null} */ (document.getElementById("ed-add-joined"));
        if (again) { again.value = ""; again.focus({ preventScroll: true }); }
      });
      out.push(h("label", { class: "field" }, `Add ${joiners.a} to this unit`, select,
        h("span", { class: "sr-only", id: "ed-add-joined-hint" }, CHOICE_HINT)));
    }
    return out;
  }

  spells(entry, unit, p) {
    const comp = this.ctx.system.composition || {};
    if (!comp.magician_rule) return null;
    const rule = (unit.rules || []).find((r) => ruleName(r) === comp.magician_rule);
    if (!rule) return null;
    const allowed = Number((/\((\d+)\)/.exec(rule) || [])[1] || 0);
    const spells = [...(this.ctx.system.spells || []), ...(this.ctx.book.spells || [])];
    const chosen = new Set(entry.spells || []);
    const roles = new Set((unit.stats && unit.stats.spell_roles) || []);
    const fieldset = h("fieldset", { class: "section check spells", id: `${p}ed-spells` },
      h("legend", {}, "Spells"), h("p", { class: "hint section-hint" }, `${rule}: choose up to ${allowed}, each once (${chosen.size} chosen)`));
    for (const spell of spells) {
      const id = `${p}ed-spell--${spell.id}`;
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
          }, { key: entry.key, label: `Spells of ${this.ctx.labelOf(entry)}` }) }),
        h("label", { for: id }, h("span", { class: "opt-label" }, spell.name), " ", h("span", { class: "cost" }, `value ${spell.value}`)),
        h("div", { class: "opt-detail" }, h("span", {}, spell.text), reasons.length ? h("span", { class: "reason", id: `${id}--why` }, reasons.join("; ")) : null)));
    }
    return fieldset;
  }
}

const cssId = (key) => String(key).replace(/[^a-zA-Z0-9_-]/g, "_");
