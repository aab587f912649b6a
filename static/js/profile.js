// Unit profiles as the book gives them (stats, weapons, items, rules) and the rule tooltip.
import { h, humanize } from "./util.js";

/** @typedef {{name: string, text?: string, param?: unknown, kind?: string}} Rule  a glossary entry */

const HIDDEN_STATS = new Set(["move_first", "move_total", "spell_roles", "keyword", "damage_tables"]);

/**
 * A stat value in a few words: 5/4/4/3, "still, slow, fast", "dice 4/3/3/2 · hit 5".
 * @param {any} value
 * @returns {string}
 */
function statText(value) {
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== "object")) return value.join("/");
    return value.map((v) => v.speed || v.name || v.id || "").filter(Boolean).join(", ");
  }
  if (value && typeof value === "object") {
    return Object.entries(value)
      .filter(([, v]) => v !== null && v !== "" && !(Array.isArray(v) && !v.length) && (typeof v !== "object" || Array.isArray(v)))
      .map(([k, v]) => `${k.replace(/_/g, " ")} ${statText(v)}`).join(" · ");
  }
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

export class Glossary {
  /**
   * The rules' texts: the system's glossary, then the book's rules and army rule over it.
   * @param {{glossary?: Rule[]}} system
   * @param {{rules?: Rule[], extra?: Record<string, any>}} book
   */
  constructor(system, book) {
    /** @type {Map<string, Rule>} */
    this.rules = new Map();
    for (const r of system.glossary || []) this.rules.set(r.name.toLowerCase(), r);
    for (const r of book.rules || []) this.rules.set(r.name.toLowerCase(), r);
    const armyRule = book.extra && book.extra.army_rule;
    if (armyRule && armyRule.name) this.rules.set(armyRule.name.toLowerCase(), { kind: "army", ...armyRule });
  }
  /**
   * @param {unknown} label  "Tough(3)" or "Tough"
   * @returns {Rule | null}
   */
  find(label) {
    const text = String(label);
    return this.rules.get(text.replace(/\s*\(.*\)\s*$/, "").trim().toLowerCase()) || this.rules.get(text.toLowerCase()) || null;
  }
}

/**
 * A rule label as a button: hover, focus or tap shows its text (see RuleTips).
 * @param {string} label
 * @returns {HTMLButtonElement}
 */
export function ruleButton(label) {
  // Not a tab stop (a unit card holds a dozen): hover, tap or click shows the text.
  return h("button", { type: "button", class: "rule", tabindex: -1, dataset: { rule: label } }, label);
}

/**
 * @param {string[] | null | undefined} labels
 * @returns {HTMLSpanElement | null} the labels as rule buttons, or null for none
 */
export function ruleList(labels) {
  if (!labels || !labels.length) return null;
  return h("span", { class: "rules" }, labels.map((l) => ruleButton(l)));
}

/**
 * @param {{stats?: Record<string, unknown>}} unit
 * @param {Record<string, string>} [formats]  how the system's stats read, by stat ("{value}+": the system's stat_formats)
 * @returns {HTMLDListElement | null} the unit's stats, or null when it shows none
 */
export function statLine(unit, formats = {}) {
  const items = [];
  for (const [key, value] of Object.entries(unit.stats || {})) {
    if (HIDDEN_STATS.has(key) || value === null || value === undefined || value === "") continue;
    const shown = formats[key] ? formats[key].replace("{value}", String(value)) : statText(value);
    if (!shown) continue;
    items.push(h("div", { class: "stat" }, h("dt", {}, humanize(key)), h("dd", {}, String(shown))));
  }
  return items.length ? h("dl", { class: "stats" }, items) : null;
}

/**
 * @param {any[] | null | undefined} weapons  {name, count, range, attacks, rules}
 * @returns {HTMLTableElement | null}
 */
export function weaponTable(weapons) {
  if (!weapons || !weapons.length) return null;
  return h("table", { class: "weapons" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Weapon"), h("th", { scope: "col" }, h("abbr", { title: "Range" }, "Rng")), h("th", { scope: "col" }, h("abbr", { title: "Attacks" }, "Atk")), h("th", { scope: "col" }, "Rules"))),
    h("tbody", {}, weapons.map((w) => h("tr", {},
      h("td", {}, w.count > 1 ? `${w.count}× ${w.name}` : w.name),
      h("td", {}, w.range ? `${w.range}` : "melee"),
      h("td", {}, `A${w.attacks}`),
      h("td", {}, ruleList(w.rules) || "–")))));
}

/**
 * @param {any[] | null | undefined} items  {name, count, rules}
 * @returns {HTMLUListElement | null}
 */
export function itemList(items) {
  if (!items || !items.length) return null;
  return h("ul", { class: "items" }, items.map((it) => h("li", {}, it.count > 1 ? `${it.count}× ${it.name}` : it.name, " ", ruleList(it.rules))));
}

/**
 * Weapons, items and rules an option gives, in one line of text and rule buttons.
 * @param {Record<string, any> | null | undefined} gains
 * @returns {HTMLSpanElement | null}
 */
export function gainsLine(gains) {
  if (!gains) return null;
  const parts = [];
  for (const w of gains.weapons || []) parts.push(h("span", { class: "gain" }, w.label || w.name));
  for (const it of gains.items || []) parts.push(h("span", { class: "gain" }, it.name, it.rules && it.rules.length ? [" (", ruleList(it.rules), ")"] : null));
  for (const r of gains.rules || []) parts.push(ruleButton(r));
  return parts.length ? h("span", { class: "gains" }, "gains ", parts) : null;
}

/**
 * Every rule label a unit (a live profile, an option's gains) shows: its own, its weapons' and its items', once each.
 * @param {{rules?: string[], weapons?: any[], items?: any[]}} unit
 * @returns {string[]}
 */
export function rulesShown(unit) {
  const labels = [...(unit.rules || [])];
  for (const w of unit.weapons || []) labels.push(...(w.rules || []));
  for (const it of unit.items || []) labels.push(...(it.rules || []));
  return [...new Set(labels)];
}

/**
 * The text of each rule in a disclosure: one tab stop per unit where the rule chips are none
 * (they are taken out of the tab order, see ruleButton), so a keyboard user reads them here.
 * @param {Glossary | null | undefined} glossary
 * @param {string[]} labels
 * @param {{whose?: string | null, title?: string}} [options]  whose: the unit, for screen readers
 * @returns {HTMLDetailsElement | null} null when there is nothing to explain
 */
export function ruleTexts(glossary, labels, { whose = null, title = "Rules explained" } = {}) {
  if (!glossary || !labels.length) return null;
  return h("details", { class: "rule-texts" },
    h("summary", {}, `${title} (${labels.length})`, whose ? h("span", { class: "sr-only" }, ` for ${whose}`) : null),
    h("dl", {}, labels.map((label) => {
      const rule = glossary.find(label);
      return [h("dt", {}, label), h("dd", {}, rule ? rule.text : "No description in the book or the system glossary.")];
    })));
}

/** One tooltip element for every rule button on the page. */
export class RuleTips {
  /**
   * @param {HTMLElement} tip  the page's one tooltip element
   * @param {Glossary} glossary
   */
  constructor(tip, glossary) {
    this.tip = tip;
    this.glossary = glossary;
    /** @type {HTMLElement | null} a rule clicked or tapped: its tip stays until the next click */
    this.pinned = null;
    /** @type {HTMLElement | null} */
    this.current = null;
    tip.id = tip.id || "rule-tip";
    // Events also come from the document and text nodes, which have no closest().
    const near = (/** @type {Event} */ e, /** @type {string} */ selector) =>
      (e.target instanceof Element ? /** @type {HTMLElement | null} */ (e.target.closest(selector)) : null);
    document.addEventListener("mouseover", (e) => { const b = near(e, ".rule"); if (b && !this.pinned) this.show(b); });
    document.addEventListener("mouseout", (e) => { const b = near(e, ".rule"); if (b && !this.pinned && b === this.current) this.hide(); });
    document.addEventListener("focusin", (e) => { const b = near(e, ".rule"); if (b) { this.pinned = null; this.show(b); } });
    document.addEventListener("focusout", (e) => { const b = near(e, ".rule"); if (b && b === this.current) this.hide(); });
    document.addEventListener("click", (e) => {
      const b = near(e, ".rule");
      if (b) { e.preventDefault(); if (this.pinned === b) { this.hide(); } else { this.show(b); this.pinned = b; } }
      else if (this.pinned && !near(e, ".rule-tip")) this.hide();
    });
    document.addEventListener("keydown", (e) => { if (e.key === "Escape" && this.current) this.hide(); });
    window.addEventListener("scroll", () => { if (this.current && !this.pinned) this.hide(); }, { passive: true });
  }
  /**
   * @param {HTMLElement} button  a rule button (data-rule: its label)
   * @returns {void}
   */
  show(button) {
    const label = button.dataset.rule;
    const rule = this.glossary.find(label);
    this.tip.replaceChildren(
      h("strong", {}, rule ? (rule.param ? `${rule.name}(${rule.param})` : rule.name) : label),
      h("p", {}, rule ? rule.text : "No description in the book or the system glossary."));
    this.tip.hidden = false;
    if (this.current && this.current !== button) this.current.removeAttribute("aria-describedby");
    this.current = button;
    button.setAttribute("aria-describedby", this.tip.id);
    const r = button.getBoundingClientRect();
    const width = Math.min(320, window.innerWidth - 16);
    this.tip.style.maxWidth = `${width}px`;
    const left = Math.max(8, Math.min(r.left + window.scrollX, window.scrollX + window.innerWidth - width - 8));
    this.tip.style.left = `${left}px`;
    this.tip.style.top = `${r.bottom + window.scrollY + 6}px`;
  }
  /** @returns {void} */
  hide() {
    this.tip.hidden = true;
    if (this.current) this.current.removeAttribute("aria-describedby");
    this.current = null;
    this.pinned = null;
  }
}
