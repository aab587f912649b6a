// The book panel: every unit of the book as a compact card with its Add controls (how many, a
// combined pair, "Add with…" a hero or an upgrade), its details on demand, and the filter.
import { actOnChoice, CHOICE_HINT, counted, formatCost, h } from "./util.js";
import { ruleList, rulesShown, ruleTexts, statLine, weaponTable, itemList } from "./profile.js";
import { joinersOf } from "./joining.js";
import { optionCost, sectionKind } from "./upgrade_rows.js";
import { $, nextTask, page } from "./builder_state.js";
import { addUnit } from "./list_panel.js";

/** @typedef {import("./api_shapes.js").Unit} Unit */

const DETAILED_KEY = "listbuilder.book-detailed";

/**
 * Draw the book's units and wire the panel's filter and "every unit's details" toggle. The cards
 * are drawn a few at a time, each few in a task of its own, so a big book never holds the page
 * up (a tap on a phone is answered between two of them).
 * @returns {Promise<void>} resolved once every card is drawn
 */
export async function renderBook() {
  const { book } = page;
  const ul = $("book-units");
  const open = detailed();
  wireBookPanel(ul, open);
  ul.replaceChildren();
  for (let i = 0; i < book.units.length; i += CARDS_AT_ONCE) {
    if (i) await nextTask();
    ul.append(...book.units.slice(i, i + CARDS_AT_ONCE).map((u) => unitCard(u, open)));
  }
}

/** How many book cards one task draws. */
const CARDS_AT_ONCE = 4;

/**
 * A book card: name, size, cost and Add at a glance (many units on one screen); the profile,
 * weapons and rules open on demand, one unit or all at once.
 * @param {Unit} u
 * @param {boolean} open  whether its details start open
 * @returns {HTMLLIElement}
 */
function unitCard(u, open) {
  return h("li", { class: "unit-card", id: `book-${u.id}`, dataset: { name: u.name.toLowerCase(), unit: u.id } },
    h("div", { class: "card-head" },
      h("h3", {}, u.name),
      h("span", { class: "meta size" }, `${counted(u.size, "model")}${u.is_hero ? " · hero" : ""}`),
      h("span", { class: "cost" }, formatCost(u.cost)),
      addControls(u)),
    unitDetails(u, open));
}

/**
 * The panel's own controls: the details toggle, the army rule and the filter.
 * @param {HTMLElement} ul  the cards' list
 * @param {boolean} open  whether every unit's details are shown
 * @returns {void}
 */
function wireBookPanel(ul, open) {
  const { book } = page;
  const toggle = $("book-detailed", HTMLInputElement);
  toggle.checked = open;
  toggle.addEventListener("change", () => {
    try { localStorage.setItem(DETAILED_KEY, toggle.checked ? "1" : "0"); } catch { /* this page only */ }
    for (const d of ul.querySelectorAll("details.unit-details")) /** @type {HTMLDetailsElement} */ (d).open = toggle.checked;
  });
  const armyRule = book.extra && book.extra.army_rule;
  if (armyRule) ul.before(h("p", { class: "army-rule" }, "Army rule: ", ruleList([armyRule.name])));
  const filter = $("unit-filter", HTMLInputElement);
  const none = h("p", { class: "notice filter-none", id: "filter-none", role: "status", hidden: true });
  ul.after(none);
  /** @type {Map<string, string>} what each card is searched by, worked out at the first search */
  const searched = new Map();
  filter.addEventListener("input", () => {
    // Every word must match the unit's name, weapons, rules or upgrades: "flamer", "tough hero".
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const li of /** @type {HTMLCollectionOf<HTMLElement>} */ (ul.children)) {
      const id = li.dataset.unit || "";
      const unit = page.units.get(id);
      if (!searched.has(id)) searched.set(id, unit ? searchText(unit) : "");
      li.hidden = !words.every((w) => (searched.get(id) || "").includes(w));
      if (!li.hidden) shown++;
    }
    none.hidden = shown > 0;
    none.textContent = shown ? "" : `Nothing in ${page.book.name} matches “${filter.value.trim()}” (names, weapons, rules and upgrades are searched).`;
  });
}

/**
 * A card's details (profile, weapons, rules and their texts), drawn the first time they open:
 * closed, they cost the page's start-up nothing, and most cards are never opened.
 * @param {Unit} u
 * @param {boolean} open  whether they start open (the player asked for every unit's details)
 * @returns {HTMLDetailsElement}
 */
function unitDetails(u, open) {
  // The marks (keyword troops, elites) are few and cheap: drawn at once, first.
  const details = h("details", { class: "unit-details" }, h("summary", {}, "Details", h("span", { class: "sr-only" }, ` of ${u.name}`)), bookMarks(u));
  const fill = () => {
    if (details.dataset.drawn) return;
    details.dataset.drawn = "1";
    details.append(...[
      u.upgrades.length ? h("p", { class: "meta" }, counted(u.upgrades.length, "upgrade section")) : null,
      statLine(u, page.system.stat_formats), weaponTable(u.weapons), itemList(u.items), ruleList(u.rules),
      u.description ? h("p", { class: "desc" }, u.description) : null,
      ruleTexts(page.glossary, rulesShown(u), { whose: u.name }),
    ].filter((x) => x !== null));
  };
  // Drawn as the summary is pressed (before the details open, so a keyboard's next Tab finds
  // what they hold), and on any other opening (every unit's details shown at once).
  details.querySelector("summary")?.addEventListener("click", fill);
  details.addEventListener("toggle", () => { if (details.open) fill(); });
  if (open) { fill(); details.open = true; }
  return details;
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
 * Each goes straight into the list with an Undo toast; the editor opens only to show a choice
 * the unit must make that was filled in for the player (list_panel.js addUnit).
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
    combines ? h("button", { type: "button", class: "add-pair", "aria-label": `Add pair: a combined pair of ${u.name}`, onclick: () => addUnit(u.id, { combined: true }) }, "Add pair") : null,
    addWithControl(u, combines));
}

/**
 * What "Add with…" offers a unit, under the headings it shows them: "pair+<hero>", "one+<hero>"
 * or "opt:<section>/<option>", each with its words and price.
 * @param {Unit} u
 * @param {boolean} combines  whether the unit can be added as a combined pair
 * @returns {{heading: string, choices: {value: string, text: string}[]}[]}
 */
function addWithChoices(u, combines) {
  const { system, book, sections } = page;
  const out = [];
  const joiners = joinersOf(system, book, u);
  if (joiners && joiners.units.length) {
    const cost = (/** @type {Unit} */ x) => `+${formatCost(x.cost)}`;
    if (combines) out.push({ heading: `A combined pair with ${joiners.a}`, choices: joiners.units.map((x) => ({ value: `pair+${x.id}`, text: `Pair with ${x.name} (${cost(x)})` })) });
    out.push({ heading: `With ${joiners.a}`, choices: joiners.units.map((x) => ({ value: `one+${x.id}`, text: `With ${x.name} (${cost(x)})` })) });
  }
  for (const sid of u.upgrades || []) {
    const s = sections.get(sid);
    if (!s) continue;
    const perModel = sectionKind(s) === "count";
    out.push({ heading: s.label, choices: s.options.map((o) => {
      const cost = formatCost(optionCost(o, u.id));
      return { value: `opt:${s.id}/${o.id}`, text: `${perModel ? "One model with " : "With "}${o.label} (${cost === "free" ? cost : `+${cost}`})` };
    }) });
  }
  return out.filter((g) => g.choices.length);
}

/**
 * The "Add with…" control of a book card: a hero joined (to one copy or a pair), or one upgrade.
 * One thing to add with is one button; more are a small picker, whose choice adds at once.
 * @param {Unit} u
 * @param {boolean} combines  whether the unit can be added as a combined pair
 * @returns {HTMLElement[] | HTMLElement | null} the control (and its hint), or null when there is nothing to add with
 */
function addWithControl(u, combines) {
  const groups = addWithChoices(u, combines);
  if (!groups.length) return null;
  const add = (/** @type {string} */ value) => {
    const [kind, rest] = value.startsWith("opt:") ? ["opt", value.slice(4)] : value.split("+");
    if (kind === "opt") {
      const [section, option] = rest.split("/");
      addUnit(u.id, { upgrade: { section, option }, focus: false });
    } else addUnit(u.id, { combined: kind === "pair", hero: rest, focus: false });
  };
  const every = groups.flatMap((g) => g.choices);
  if (every.length === 1) {
    const only = every[0];
    const words = only.text.replace(/^With /, "with ").replace(/^(Pair|One model) with /, (m) => m.toLowerCase());
    return h("button", { type: "button", class: "add-with-one", id: `book-${u.id}-with`, onclick: () => add(only.value) },
      "Add", h("span", { class: "sr-only" }, ` ${u.name}`), ` ${words}`);
  }
  const hint = `book-${u.id}-with-hint`;
  const joiners = joinersOf(page.system, page.book, u);
  const what = [joiners && joiners.units.length ? joiners.a : null, (u.upgrades || []).length ? "an upgrade" : null].filter(Boolean).join(" or ");
  const select = h("select", { class: "add-with", id: `book-${u.id}-with`, "aria-label": `Add ${u.name} with ${what}`, "aria-describedby": hint },
    h("option", { value: "" }, "Add with…"),
    groups.map((g) => h("optgroup", { label: g.heading }, g.choices.map((c) => h("option", { value: c.value }, c.text)))));
  actOnChoice(select, (value) => { add(value); select.value = ""; });
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
