// The book panel: every unit of the book as a compact card with its Add controls (how many, a
// combined pair, "Add with…" a hero or an upgrade), its details on demand, and the filter.
import { actOnChoice, CHOICE_HINT, counted, formatCost, h } from "./util.js";
import { ruleList, rulesShown, ruleTexts, statLine, weaponTable, itemList } from "./profile.js";
import { joinersOf } from "./joining.js";
import { optionCost, sectionKind } from "./upgrade_rows.js";
import { $, page } from "./builder_state.js";
import { addUnit } from "./list_panel.js";

/** @typedef {import("./api_shapes.js").Unit} Unit */

const DETAILED_KEY = "listbuilder.book-detailed";

/**
 * Draw the book's units and wire the panel's filter and "every unit's details" toggle.
 * @returns {void}
 */
export function renderBook() {
  const { book, glossary } = page;
  const ul = $("book-units");
  // Compact: name, size, cost and Add at a glance (many units on one screen); the profile,
  // weapons and rules open on demand, one unit or all at once.
  ul.replaceChildren(...book.units.map((u) => h("li", { class: "unit-card", id: `book-${u.id}`, dataset: { name: u.name.toLowerCase(), search: searchText(u) } },
    h("div", { class: "card-head" },
      h("h3", {}, u.name),
      h("span", { class: "meta size" }, `${counted(u.size, "model")}${u.is_hero ? " · hero" : ""}`),
      h("span", { class: "cost" }, formatCost(u.cost)),
      addControls(u)),
    h("details", { class: "unit-details", open: detailed() },
      h("summary", {}, "Details", h("span", { class: "sr-only" }, ` of ${u.name}`)),
      u.upgrades.length ? h("p", { class: "meta" }, counted(u.upgrades.length, "upgrade section")) : null,
      bookMarks(u), statLine(u, page.system.stat_formats), weaponTable(u.weapons), itemList(u.items), ruleList(u.rules),
      u.description ? h("p", { class: "desc" }, u.description) : null,
      ruleTexts(glossary, rulesShown(u), { whose: u.name })))));
  const toggle = $("book-detailed", HTMLInputElement);
  toggle.checked = detailed();
  toggle.addEventListener("change", () => {
    try { localStorage.setItem(DETAILED_KEY, toggle.checked ? "1" : "0"); } catch { /* this page only */ }
    for (const d of ul.querySelectorAll("details.unit-details")) /** @type {HTMLDetailsElement} */ (d).open = toggle.checked;
  });
  const armyRule = book.extra && book.extra.army_rule;
  if (armyRule) ul.before(h("p", { class: "army-rule" }, "Army rule: ", ruleList([armyRule.name])));
  const filter = $("unit-filter", HTMLInputElement);
  const none = h("p", { class: "notice filter-none", id: "filter-none", role: "status", hidden: true });
  ul.after(none);
  filter.addEventListener("input", () => {
    // Every word must match the unit's name, weapons, rules or upgrades: "flamer", "tough hero".
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const li of /** @type {HTMLCollectionOf<HTMLElement>} */ (ul.children)) {
      li.hidden = !words.every((w) => (li.dataset.search || "").includes(w));
      if (!li.hidden) shown++;
    }
    none.hidden = shown > 0;
    none.textContent = shown ? "" : `Nothing in ${page.book.name} matches “${filter.value.trim()}” (names, weapons, rules and upgrades are searched).`;
  });
}

/**
 * What the unit filter searches: the unit's name, weapons, rules, items and upgrade options.
 * @param {Unit} u
 * @returns {string}
 */
function searchText(u) {
  const words = [u.name, ...(u.rules || [])];
  for (const w of u.weapons || []) words.push(w.name, ...(w.rules || []));
  for (const it of u.items || []) words.push(it.name, ...(it.rules || []));
  for (const sid of u.upgrades || []) {
    for (const o of page.sections.get(sid)?.options || []) {
      words.push(o.label, ...(o.gains?.rules || []), ...(o.gains?.weapons || []).flatMap((w) => [w.name, ...(w.rules || [])]));
    }
  }
  return words.join(" ").toLowerCase();
}

/** @returns {boolean} whether the player asked to see every unit's details in the book panel (kept in this browser) */
function detailed() {
  try { return localStorage.getItem(DETAILED_KEY) === "1"; } catch { return false; }
}

/**
 * Add (with how many copies) and, where units combine, add a combined pair in one press; "Add
 * with…" adds the unit (or a pair) with a hero joined, or with one upgrade taken, in one choice.
 * @param {Unit} u
 * @returns {HTMLElement}
 */
function addControls(u) {
  const count = h("select", { class: "add-count", id: `book-${u.id}-count`, "aria-label": `How many ${u.name} to add` },
    [1, 2, 3, 4, 5].map((n) => h("option", { value: n }, `${n}×`)));
  const comp = page.system.composition || {};
  const combines = comp.combined && !(comp.combined.multi_model_only && u.size <= 1);
  return h("span", { class: "add-controls" }, count,
    h("button", { type: "button", class: "add primary", "aria-label": `Add ${u.name}`, onclick: () => { addUnit(u.id, { count: Number(count.value) }); count.value = "1"; } }, "Add"),
    combines ? h("button", { type: "button", class: "add-pair", "aria-label": `Add pair: a combined pair of ${u.name}`, onclick: () => addUnit(u.id, { combined: true, open: true }) }, "Add pair") : null,
    addWithControl(u, combines));
}

/**
 * The "Add with…" choice of a book card: a hero joined (to one copy or a pair), or one upgrade.
 * @param {Unit} u
 * @param {boolean} combines  whether the unit can be added as a combined pair
 * @returns {HTMLElement[] | null} the select and its hint, or null when there is nothing to add with
 */
function addWithControl(u, combines) {
  const { system, book, sections } = page;
  const groups = [];
  const joiners = joinersOf(system, book, u);
  if (joiners && joiners.units.length) {
    const cost = (/** @type {Unit} */ x) => `+${formatCost(x.cost)}`;
    if (combines) groups.push(h("optgroup", { label: `A combined pair with ${joiners.a}` },
      joiners.units.map((x) => h("option", { value: `pair+${x.id}` }, `Pair with ${x.name} (${cost(x)})`))));
    groups.push(h("optgroup", { label: `With ${joiners.a}` },
      joiners.units.map((x) => h("option", { value: `one+${x.id}` }, `With ${x.name} (${cost(x)})`))));
  }
  for (const sid of u.upgrades || []) {
    const s = sections.get(sid);
    if (!s) continue;
    const perModel = sectionKind(s) === "count";
    groups.push(h("optgroup", { label: s.label }, s.options.map((o) => {
      const cost = formatCost(optionCost(o, u.id));
      return h("option", { value: `opt:${s.id}/${o.id}` }, `${perModel ? "One model with " : "With "}${o.label} (${cost === "free" ? cost : `+${cost}`})`);
    })));
  }
  if (!groups.length) return null;
  const hint = `book-${u.id}-with-hint`;
  const what = [joiners && joiners.units.length ? joiners.a : null, (u.upgrades || []).length ? "an upgrade" : null].filter(Boolean).join(" or ");
  const select = h("select", { class: "add-with", id: `book-${u.id}-with`, "aria-label": `Add ${u.name} with ${what}`, "aria-describedby": hint },
    h("option", { value: "" }, "Add with…"), groups);
  actOnChoice(select, (value) => {
    const [kind, rest] = value.startsWith("opt:") ? ["opt", value.slice(4)] : value.split("+");
    if (kind === "opt") {
      const [section, option] = rest.split("/");
      addUnit(u.id, { upgrade: { section, option }, focus: false, open: true });
    } else addUnit(u.id, { combined: kind === "pair", hero: rest, focus: false, open: true });
    select.value = "";
  });
  return [select, h("span", { class: "sr-only", id: hint }, CHOICE_HINT)];
}

/**
 * The marks of list entries on a book card: keyword troops, and units that can field elites.
 * @param {Unit} u
 * @returns {HTMLElement | null}
 */
function bookMarks(u) {
  const marks = [];
  if (u.stats && u.stats.keyword) marks.push(h("span", { class: "mark keyword" }, "Keyword troops"));
  if ((u.upgrades || []).some((sid) => (page.sections.get(sid)?.options || []).some((o) => o.elite))) marks.push(h("span", { class: "mark elite" }, "Elites available"));
  return marks.length ? h("p", { class: "marks" }, marks) : null;
}
