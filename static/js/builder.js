// The list builder page: state, list panel, totals and issues from the API, export, storage.
import { actOnChoice, api, ApiError, CHOICE_HINT, counted, debounce, errorBox, formatCost, currencyLabel, h, humanize, keepFocus, saveBlob, slug } from "./util.js";
import { ListStore } from "./store.js";
import { deploymentGroups, groupOf } from "./groups.js";
import { Glossary, RuleTips, ruleList, rulesShown, ruleTexts, statLine, weaponTable, itemList } from "./profile.js";
import { Editor } from "./editor.js";
import { joinersOf } from "./joining.js";
import { optionCost, sectionKind, setRowOrder, takeOption } from "./upgrade_rows.js";
import { Preview } from "./preview.js";
import { initSaved, listIdInAddress } from "./saved.js";
import { describeWork, draftKey, readDraft, writeDraft } from "./drafts.js";

const $ = (id) => document.getElementById(id);
const app = $("app");
const SYSTEM_ID = app.dataset.system;
const BOOK_ID = app.dataset.book;
const FAMILY = app.dataset.family;

let system, book, glossary;
const units = new Map();
const sections = new Map();
let store = null;         // the list and its undo history (store.js)
let saved = null;         // Save, Share and where the list is kept in this browser (saved.js)
let list = null;          // store.list: the list in progress, in the API's list format
let selected = null;      // key of the entry open in the editor
let report = null;        // last validation report
let offlineSince = null;  // no answer from the server (offline): the report is from before then
let validating = 0;       // sequence number of the latest validation request
const bookCache = new Map();

// ------------------------------------------------------------------------------------------
// Start-up

async function start() {
  // The forms only group controls: Enter must not submit them (no inline handlers under our CSP).
  for (const form of document.querySelectorAll("form")) form.addEventListener("submit", (ev) => ev.preventDefault());
  try {
    [system, book] = await Promise.all([api(`/api/v1/systems/${encodeURIComponent(SYSTEM_ID)}`), api(`/api/v1/books/${encodeURIComponent(BOOK_ID)}`)]);
  } catch (err) {
    const box = $("fatal");
    box.replaceChildren(...errorBox(err, "Could not load the army book").childNodes);
    box.hidden = false;
    $("totals").replaceChildren(h("span", { class: "status bad" }, "Not loaded"));
    return;
  }
  bookCache.set(book.id, Promise.resolve(book));
  for (const u of book.units) units.set(u.id, u);
  for (const s of book.upgrades) sections.set(s.id, s);
  setRowOrder((entry, row) => {
    const unit = units.get(entry.unit);
    const si = unit ? unit.upgrades.indexOf(row.section) : -1;
    const section = sections.get(row.section);
    const oi = section ? section.options.findIndex((o) => o.id === row.option) : -1;
    return (si < 0 ? 999 : si) * 1000 + (oi < 0 ? 999 : oi);
  });
  store = new ListStore(restore() || freshList());
  list = store.list;
  store.subscribe(onStoreChange);
  wireHistory();
  wireEditorKeys();
  glossary = new Glossary(system, book);
  new RuleTips($("rule-tip"), glossary);
  buildSettings();
  renderBook();
  wireExport();
  saved = initSaved({ container: $("saved-controls"), bookId: BOOK_ID, bookName: book.name, getList: payload, setList: replaceList,
    canonical: (raw) => payloadOf(normalise(raw)) });
  preview = new Preview({ system, family: FAMILY, book, list: () => list, nameOf, labelOf, payload, bookCache: loadBook });
  renderAll();
  validateNow();
  try {
    preview.init(await systemBooks());
  } catch (err) {
    $("preview-result").replaceChildren(errorBox(err, "Could not list the books to pick a defender from"));
  }
}
let preview = null;

/** The system's listed books (fetched once): where the preview and the efficiency panel pick a target. */
let booksOfSystem = null;
function systemBooks() {
  if (!booksOfSystem) {
    booksOfSystem = api(`/api/v1/books?system=${encodeURIComponent(SYSTEM_ID)}`);
    booksOfSystem.catch(() => { booksOfSystem = null; });
  }
  return booksOfSystem;
}

function loadBook(id) {
  if (!bookCache.has(id)) {
    const p = api(`/api/v1/books/${encodeURIComponent(id)}`);
    p.catch(() => bookCache.delete(id));
    bookCache.set(id, p);
  }
  return bookCache.get(id);
}

const isBudgetSystem = () => Boolean(system.composition && system.composition.currencies);

function freshList() {
  const out = { system: SYSTEM_ID, book: BOOK_ID, name: "", units: [] };
  if (isBudgetSystem()) out.game_mode = system.composition.default_mode || (system.limits.game_modes || [{}])[0].id || null;
  else out.points_limit = (system.composition.points && system.composition.points.default) || 1000;
  if (system.limits && system.limits.force_org_available) out.force_org = Boolean(system.limits.force_org_default);
  return out;
}

/** The list kept in this browser for this address: the book's new list, or a saved list's changes. */
function restore() {
  const draft = readDraft(draftKey(BOOK_ID, listIdInAddress()));
  return draft && draft.list.book === BOOK_ID ? normalise(draft.list) : null;
}

function normalise(raw) {
  const out = { ...freshList(), ...raw, system: SYSTEM_ID, book: BOOK_ID };
  out.units = raw.units.map((e) => ({ key: String(e.key), unit: String(e.unit), name: e.name || "", notes: e.notes || "",
    upgrades: (e.upgrades || []).map((r) => ({ section: r.section, option: r.option, count: r.count ?? 1 })),
    combined_with: e.combined_with || null, joined_to: e.joined_to || null, spells: e.spells || [] }));
  return out;
}

/** Replace the list in progress (a saved list opened from the server, see saved.js). */
function replaceList(data, label = "Open a saved list") {
  selected = null;
  store.replace(normalise(data), label);
}

function persist() {
  if (saved) saved.keepDraft();
}

/** The list in progress as the API takes it. */
const payload = () => payloadOf(list);

/** A list as the API takes it: empty optional fields left out. */
function payloadOf(list) {
  const out = { system: list.system, book: list.book, name: list.name || "" };
  if (isBudgetSystem()) {
    if (list.game_mode) out.game_mode = list.game_mode;
    if (list.budget) out.budget = list.budget;
  } else if (list.points_limit) out.points_limit = list.points_limit;
  if (typeof list.force_org === "boolean" && system.limits.force_org_available) out.force_org = list.force_org;
  out.units = list.units.map((e) => {
    const u = { key: e.key, unit: e.unit };
    if (e.name) u.name = e.name;
    if (e.notes) u.notes = e.notes;
    u.upgrades = e.upgrades.map((r) => ({ ...r }));
    if (e.combined_with) u.combined_with = e.combined_with;
    if (e.joined_to) u.joined_to = e.joined_to;
    if (e.spells && e.spells.length) u.spells = [...e.spells];
    return u;
  });
  return out;
}

// ------------------------------------------------------------------------------------------
// Changes: every edit goes through the store (one undoable step), then the page is redrawn
// with the focus kept on the control that made the change.

/** Change the list as one undoable step; light edits (typing a name) skip redrawing the editor. */
function edit(label, fn, { merge = null, light = false } = {}) {
  return store.edit(label, fn, { merge, light });
}

function onStoreChange(next, { label, kind, light }) {
  list = next;
  if (kind !== "edit") {
    if (selected && !entry(selected)) selected = null;
    keepFocus(rebuildSettings);
    announce(`${kind === "undo" ? "Undone" : kind === "redo" ? "Redone" : "Done"}: ${label}.`);
  }
  changed({ editor: !light });
}

function changed({ editor = true, listPanel = true } = {}) {
  persist();
  keepFocus(() => {
    if (listPanel) renderList();
    if (editor) renderEditor();
  });
  renderHistory();
  preview && preview.refreshAttackers();
  validateSoon();
}

function renderHistory() {
  const undo = $("undo"), redo = $("redo");
  undo.disabled = !store.canUndo;
  redo.disabled = !store.canRedo;
  undo.title = store.canUndo ? `Undo: ${store.undoLabel} (Ctrl+Z)` : "Nothing to undo";
  redo.title = store.canRedo ? `Redo: ${store.redoLabel} (Ctrl+Shift+Z)` : "Nothing to redo";
}

function wireHistory() {
  $("undo").addEventListener("click", () => store.undo());
  $("redo").addEventListener("click", () => store.redo());
  document.addEventListener("keydown", (ev) => {
    if (!(ev.ctrlKey || ev.metaKey) || ev.altKey) return;
    const key = ev.key.toLowerCase();
    if (key !== "z" && key !== "y") return;
    // Text fields keep their own undo (the letters typed); everywhere else it is the list's.
    const t = ev.target;
    if (t && (t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && ["text", "search"].includes(t.type)))) return;
    ev.preventDefault();
    if (key === "y" || ev.shiftKey) store.redo(); else store.undo();
  });
}

function entry(key) { return list.units.find((e) => e.key === key) || null; }

function nameOf(e) {
  const u = units.get(e.unit);
  return e.name || (u ? u.name : e.unit);
}

/** A name that tells copies apart without internal keys: "Huscarls", "Huscarls #2". */
function labelOf(e) {
  const name = nameOf(e);
  const same = list.units.filter((x) => nameOf(x) === name);
  return same.length > 1 ? `${name} #${same.indexOf(e) + 1}` : name;
}

function newKey(l = list, taken = new Set()) {
  const used = new Set([...l.units.map((e) => e.key), ...taken]);
  let n = l.units.length + 1;
  while (used.has(`u${n}`)) n++;
  return `u${n}`;
}

const blankEntry = (key, unitId) => ({ key, unit: unitId, name: "", notes: "", upgrades: [], combined_with: null, joined_to: null, spells: [] });

/**
 * Add count copies of a unit, as one undoable step. combined: two copies merged into one unit;
 * joinTo: the key of an entry this one joins (a hero); hero: the id of a hero (or attachment)
 * added joined to the new unit; upgrade: {section, option} the new unit takes at once.
 */
function addUnit(unitId, { count = 1, combined = false, joinTo = null, hero = null, upgrade = null, focus = true } = {}) {
  const u = units.get(unitId);
  const n = combined ? 2 : Math.max(1, Math.min(20, count));
  const joiner = hero && units.get(hero);
  const section = upgrade && sections.get(upgrade.section);
  const option = section && section.options.find((o) => o.id === upgrade.option);
  let label = combined ? `Add a combined pair of ${u.name}` : joinTo ? `Add ${u.name} to ${labelOf(entry(joinTo))}` : `Add ${n > 1 ? `${n}× ` : ""}${u.name}`;
  if (joiner) label += ` with ${joiner.name}`;
  if (option) label += ` with ${option.label}`;
  const chosen = [];  // what takeRequired filled in, in words
  const added = edit(label, (l) => {
    const made = [];
    for (let i = 0; i < n; i++) {
      const e = blankEntry(newKey(l), unitId);
      l.units.push(e);
      made.push(e);
    }
    if (combined) { made[0].combined_with = made[1].key; made[1].combined_with = made[0].key; }
    if (joinTo) made[0].joined_to = joinTo;
    if (option) for (const e of made) takeOption(e, section, option, 1, sections);
    if (joiner) {
      const joined = blankEntry(newKey(l), hero);
      joined.joined_to = made[0].key;
      l.units.push(joined);
      chosen.push(...takeRequired(joined));
    }
    for (const e of made) chosen.push(...takeRequired(e));
    return made;
  });
  const said = [...new Set(chosen)];
  announce(`${label}: done.${said.length ? ` ${said.join(" ")}` : ""}`);
  if (!joinTo) select(added[0].key, { focus });
  // Said in the editor too (until its next redraw), beside the choice it explains.
  const head = said.length && !$("editor").hidden && $("editor").querySelector(".editor-head");
  if (head) head.after(h("p", { class: "notice", id: "preselected" }, said.join(" ")));
  return added;
}

/**
 * A section the unit must choose from is filled at once with its cheapest option (the free
 * one, when there is one), so a unit is never an error the moment it is added. Returns the
 * sentences that say what was chosen, for the player to read.
 */
function takeRequired(e) {
  const unit = units.get(e.unit);
  const out = [];
  for (const sid of (unit && unit.upgrades) || []) {
    const section = sections.get(sid);
    const need = (section && section.pick && section.pick.min) || 0;
    const taken = new Set(e.upgrades.filter((r) => r.section === sid).map((r) => r.option));
    if (taken.size >= need) continue;
    const price = (o) => Object.values(optionCost(o, unit.id) || {}).reduce((a, b) => a + b, 0);
    const cheapest = section.options.filter((o) => !taken.has(o.id)).sort((a, b) => price(a) - price(b)).slice(0, need - taken.size);
    for (const o of cheapest) takeOption(e, section, o, 1, sections);
    const names = cheapest.map((o) => `“${o.label}”`).join(" and ");
    const free = cheapest.every((o) => price(o) === 0);
    if (names) out.push(`${unit.name} must choose from “${section.label}”: ${free ? "the free" : "the cheapest"} ${names} is chosen; change it in the editor.`);
  }
  return out;
}

/** Copy a whole group (pair and heroes), its links redrawn between the copies. */
function duplicate(key) {
  const group = groupOf(list.units, key);
  const label = `Duplicate ${groupName(group)}`;
  const first = edit(label, (l) => {
    const fresh = new Map();
    for (const e of group.entries) fresh.set(e.key, newKey(l, new Set(fresh.values())));
    const copies = group.entries.map((e) => ({ ...structuredClone(e), key: fresh.get(e.key),
      combined_with: fresh.get(e.combined_with) || null, joined_to: fresh.get(e.joined_to) || null }));
    const last = Math.max(...group.entries.map((e) => l.units.findIndex((x) => x.key === e.key)));
    l.units.splice(last + 1, 0, ...copies);
    return copies[0];
  });
  announce(`${label}: done.`);
  select(first.key, { focus: false });
}

/** Move a group before the previous group or after the next one. */
function move(key, step) {
  const groups = deploymentGroups(list.units);
  const i = groups.findIndex((g) => g.entries.some((e) => e.key === key));
  const j = i + step;
  if (i < 0 || j < 0 || j >= groups.length) return;
  edit(`Move ${groupName(groups[i])} ${step < 0 ? "up" : "down"}`, (l) => {
    [groups[i], groups[j]] = [groups[j], groups[i]];
    const order = groups.flatMap((g) => g.entries.map((e) => e.key));
    const at = new Map(order.map((k, n) => [k, n]));
    l.units.sort((a, b) => at.get(a.key) - at.get(b.key));
  });
  // The row moved with the focus on its button; at the top or bottom that button is disabled,
  // so the focus goes to the one that still moves it.
  const row = `entry-${cssId(groups[j].key)}`;
  const button = $(`${row}-${step < 0 ? "up" : "down"}`);
  (button && !button.disabled ? button : $(`${row}-${step < 0 ? "down" : "up"}`))?.focus({ preventScroll: true });
}

/** Remove entries (a group, or one member); links to them go with them. */
function remove(keys, label) {
  const gone = new Set(keys);
  const index = list.units.findIndex((e) => gone.has(e.key));
  edit(label, (l) => {
    l.units = l.units.filter((e) => !gone.has(e.key));
    for (const other of l.units) {
      if (gone.has(other.combined_with)) other.combined_with = null;
      if (gone.has(other.joined_to)) other.joined_to = null;
    }
  });
  if (gone.has(selected)) selected = null;
  renderEditor();
  announce(`${label}: done.`);
  const next = list.units[Math.min(index, list.units.length - 1)];
  const group = next && groupOf(list.units, next.key);
  (group ? document.querySelector(`#entry-${cssId(group.key)} .edit`) : $("unit-filter"))?.focus({ preventScroll: true });
}

/** "2× Ash Wardens + Pyre Marshal": the group as the table sees one unit. */
function groupName(group) {
  const main = group.members.length > 1 ? `2× ${nameOf(group.members[0])}` : labelOf(group.members[0]);
  return group.heroes.length ? `${main} with ${group.heroes.map(nameOf).join(" and ")}` : main;
}

const cssId = (key) => key.replace(/[^a-zA-Z0-9_-]/g, "_");

function announce(text) { $("export-status").textContent = text; }

// ------------------------------------------------------------------------------------------
// Settings

function buildSettings() {
  const name = $("list-name");
  name.value = list.name || "";
  name.oninput = () => edit("Rename the list", (l) => { l.name = name.value; }, { merge: "list-name", light: true });
  const fields = $("size-fields");
  if (isBudgetSystem()) {
    const modes = system.limits.game_modes || system.composition.game_modes || [];
    const select = h("select", { id: "game-mode" },
      modes.map((m) => h("option", { value: m.id }, m.name)), h("option", { value: "" }, "Custom budget"));
    const budgetBox = h("div", { class: "budget", id: "budget-fields" });
    const describe = h("p", { class: "hint", id: "game-mode-desc" });
    const draw = () => {
      const mode = modes.find((m) => m.id === list.game_mode);
      select.value = mode ? mode.id : "";
      describe.textContent = mode ? mode.description : "Give each currency's budget.";
      const split = mode && mode.split;
      const currencies = mode ? (split ? split.across : []) : system.composition.currencies;
      budgetBox.replaceChildren(...currencies.map((c) => h("label", { class: "field small" }, `${currencyLabel(c)}${split ? " (split)" : ""}`,
        h("input", { id: `budget-${c}`, type: "number", min: 0, max: 1000, inputmode: "numeric", value: (list.budget && list.budget[c]) ?? (mode ? "" : 0),
          oninput: (e) => {
            const v = e.target.value === "" ? null : Math.max(0, Math.floor(Number(e.target.value)));
            edit(`Set the ${currencyLabel(c)} budget`, (l) => {
              l.budget = { ...(l.budget || {}) };
              if (v === null) delete l.budget[c]; else l.budget[c] = v;
              if (!Object.keys(l.budget).length) l.budget = null;
            }, { merge: `budget-${c}`, light: true });
          } }))));
      if (split) budgetBox.prepend(h("p", { class: "hint" }, `Optional: divide ${split.points} points over ${split.across.map(currencyLabel).join(", ")}.`));
    };
    select.addEventListener("change", () => {
      edit("Change the game mode", (l) => {
        l.game_mode = select.value || null;
        l.budget = select.value ? null : Object.fromEntries(system.composition.currencies.map((c) => [c, 0]));
      }, { light: true });
      draw();
    });
    fields.append(h("label", { class: "field" }, "Game mode", select), describe, budgetBox);
    draw();
  } else {
    const points = system.composition.points || {};
    const input = h("input", { id: "points-limit", type: "number", min: 1, max: POINTS_MAX, step: 1, inputmode: "numeric", list: "points-suggested",
      value: list.points_limit ?? "", "aria-describedby": "points-limit-error" });
    const error = h("p", { class: "field-error", id: "points-limit-error", role: "alert", hidden: true });
    // Checked here, in words, before anything is sent: a limit of 0, empty or 1e9 is never taken.
    input.oninput = () => {
      const problem = pointsProblem(input.value);
      formProblem = problem;
      error.textContent = problem || "";
      error.hidden = !problem;
      input.setAttribute("aria-invalid", String(Boolean(problem)));
      if (problem) { renderTotals(); return; }
      edit("Change the points limit", (l) => { l.points_limit = Number(input.value); }, { merge: "points-limit", light: true });
    };
    fields.append(h("label", { class: "field" }, `Points limit (${currencyLabel(Object.keys(book.units[0]?.cost || { pts: 0 })[0] || "pts")})`, input),
      h("datalist", { id: "points-suggested" }, (points.suggested || []).map((v) => h("option", { value: v }))), error);
  }
  if (system.limits && system.limits.force_org_available) {
    const box = $("force-org");
    $("force-org-field").hidden = false;
    box.checked = list.force_org ?? Boolean(system.limits.force_org_default);
    box.onchange = () => edit(box.checked ? "Switch force organisation on" : "Switch force organisation off", (l) => { l.force_org = box.checked; }, { light: true });
  }
}

const POINTS_MAX = 100000; // the API's bound on points_limit (listbuilder/schemas/lists.py)
let formProblem = null;     // a settings field that holds no usable value, in words

function pointsProblem(raw) {
  const text = String(raw).trim();
  if (text === "") return `Give a points limit: a whole number from 1 to ${POINTS_MAX}.`;
  const v = Number(text);
  if (!Number.isInteger(v) || v < 1 || v > POINTS_MAX) return `${text} is not a points limit: give a whole number from 1 to ${POINTS_MAX}.`;
  return null;
}

function rebuildSettings() {
  formProblem = null;
  $("size-fields").replaceChildren();
  buildSettings();
}

// ------------------------------------------------------------------------------------------
// Book panel

function renderBook() {
  const ul = $("book-units");
  // Compact: name, size, cost and Add at a glance (many units on one screen); the profile,
  // weapons and rules open on demand, one unit or all at once.
  ul.replaceChildren(...book.units.map((u) => h("li", { class: "unit-card", id: `book-${u.id}`, dataset: { name: u.name.toLowerCase() } },
    h("div", { class: "card-head" },
      h("h3", {}, u.name),
      h("span", { class: "meta size" }, `${counted(u.size, "model")}${u.is_hero ? " · hero" : ""}`),
      h("span", { class: "cost" }, formatCost(u.cost)),
      addControls(u)),
    h("details", { class: "unit-details", open: detailed() },
      h("summary", {}, "Details", h("span", { class: "sr-only" }, ` of ${u.name}`)),
      u.upgrades.length ? h("p", { class: "meta" }, counted(u.upgrades.length, "upgrade section")) : null,
      bookMarks(u), statLine(u, FAMILY), weaponTable(u.weapons), itemList(u.items), ruleList(u.rules),
      u.description ? h("p", { class: "desc" }, u.description) : null,
      ruleTexts(glossary, rulesShown(u), { whose: u.name })))));
  const toggle = $("book-detailed");
  toggle.checked = detailed();
  toggle.addEventListener("change", () => {
    try { localStorage.setItem(DETAILED_KEY, toggle.checked ? "1" : "0"); } catch { /* this page only */ }
    for (const d of ul.querySelectorAll("details.unit-details")) d.open = toggle.checked;
  });
  const armyRule = book.extra && book.extra.army_rule;
  if (armyRule) ul.before(h("p", { class: "army-rule" }, "Army rule: ", ruleList([armyRule.name])));
  $("unit-filter").addEventListener("input", (e) => {
    const q = e.target.value.trim().toLowerCase();
    for (const li of ul.children) li.hidden = Boolean(q) && !li.dataset.name.includes(q);
  });
}

const DETAILED_KEY = "listbuilder.book-detailed";
/** Whether the player asked to see every unit's details in the book panel (kept in this browser). */
function detailed() {
  try { return localStorage.getItem(DETAILED_KEY) === "1"; } catch { return false; }
}

/**
 * Add (with how many copies) and, where units combine, add a combined pair in one press; "Add
 * with…" adds the unit (or a pair) with a hero joined, or with one upgrade taken, in one choice.
 */
function addControls(u) {
  const count = h("select", { class: "add-count", id: `book-${u.id}-count`, "aria-label": `How many ${u.name} to add` },
    [1, 2, 3, 4, 5].map((n) => h("option", { value: n }, `${n}×`)));
  const comp = system.composition || {};
  const combines = comp.combined && !(comp.combined.multi_model_only && u.size <= 1);
  return h("span", { class: "add-controls" }, count,
    h("button", { type: "button", class: "add primary", "aria-label": `Add ${u.name}`, onclick: () => { addUnit(u.id, { count: Number(count.value) }); count.value = "1"; } }, "Add"),
    combines ? h("button", { type: "button", class: "add-pair", "aria-label": `Add pair: a combined pair of ${u.name}`, onclick: () => addUnit(u.id, { combined: true }) }, "Add pair") : null,
    addWithControl(u, combines));
}

/** The "Add with…" choice of a book card: a hero joined (to one copy or a pair), or one upgrade. */
function addWithControl(u, combines) {
  const groups = [];
  const joiners = joinersOf(system, book, u);
  if (joiners && joiners.units.length) {
    const cost = (x) => `+${formatCost(x.cost)}`;
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
      addUnit(u.id, { upgrade: { section, option }, focus: false });
    } else addUnit(u.id, { combined: kind === "pair", hero: rest, focus: false });
    select.value = "";
  });
  return [select, h("span", { class: "sr-only", id: hint }, CHOICE_HINT)];
}

// ------------------------------------------------------------------------------------------
// List panel

/** The entry's cost after upgrades, as the last validation report priced it (offline: counted here). */
function entryCost(e) {
  if (offlineSince) return localCost(e);
  const line = report && report.entries && report.entries[e.key];
  return line ? line.cost : null;
}

/**
 * The entry's cost counted in the browser, for when the server cannot be asked (offline): the
 * unit's cost plus each row's option cost, once for unit/all sections and per model otherwise,
 * as listbuilder/resolve.py prices it. Rules are not checked here: that stays the server's.
 */
function localCost(e) {
  const u = units.get(e.unit);
  if (!u) return null;
  const parts = [u.cost];
  for (const r of e.upgrades) {
    const s = sections.get(r.section);
    const o = s && s.options.find((x) => x.id === r.option);
    if (!o) continue;
    const times = s.affects === "unit" || s.affects === "all" ? 1 : r.count;
    parts.push(Object.fromEntries(Object.entries(optionCost(o, u.id) || {}).map(([c, v]) => [c, v * times])));
  }
  return sumCosts(parts);
}

function issuesByEntry() {
  const map = new Map();
  for (const issue of (report && report.issues) || []) {
    const m = /^units\[(\d+)\]/.exec(issue.path || "");
    if (!m) continue;
    const e = list.units[Number(m[1])];
    if (e) map.set(e.key, [...(map.get(e.key) || []), issue]);
  }
  return map;
}

function renderList() {
  const ol = $("entries");
  const byEntry = issuesByEntry();
  $("empty-list").hidden = list.units.length > 0;
  const groups = deploymentGroups(list.units);
  ol.replaceChildren(...groups.map((group, index) => {
    const problems = group.entries.flatMap((e) => byEntry.get(e.key) || []);
    const errors = problems.filter((i) => i.severity === "error").length;
    const costs = group.entries.map(entryCost);
    const cost = costs.every(Boolean) ? sumCosts(costs) : null;
    const models = group.entries.reduce((n, e) => n + (units.get(e.unit)?.size || 0), 0);
    const open = group.entries.some((e) => e.key === selected);
    const name = groupName(group);
    const id = `entry-${cssId(group.key)}`;
    const shown = (label) => [label, h("span", { class: "sr-only" }, ` ${name}`)];
    return h("li", { id, class: `entry${open ? " selected" : ""}${errors ? " has-errors" : problems.length ? " has-warnings" : ""}`, dataset: { key: group.key } },
      h("div", { class: "entry-head" },
        h("span", { class: "entry-name" }, name),
        h("span", { class: "cost" }, cost ? formatCost(cost) : "?"),
        problems.length ? h("span", { class: `badge ${errors ? "bad" : "warn"}`, title: problems.map((i) => i.message).join("\n") }, `${problems.length} issue${problems.length === 1 ? "" : "s"}`) : null),
      h("p", { class: "meta" }, [
        `${models} model${models === 1 ? "" : "s"}`,
        group.members.length > 1 ? "combined pair" : null,
        ...group.heroes.map((x) => `${nameOf(x)} joined`),
      ].filter(Boolean).join(" · "), " ", group.entries.flatMap(marksOf)),
      group.entries.map((e) => {
        const lines = upgradeWords(e);
        return lines.length ? h("p", { class: "entry-upgrades" }, group.entries.length > 1 ? h("span", { class: "member-name" }, `${labelOf(e)}: `) : null, lines.join(", ")) : null;
      }),
      h("div", { class: "entry-actions" },
        h("button", { type: "button", id: `${id}-edit`, class: "edit", "aria-expanded": String(open), "aria-controls": "editor", onclick: () => select(group.key) }, ...shown(open ? "Editing" : "Edit")),
        h("button", { type: "button", id: `${id}-dup`, class: "dup", onclick: () => duplicate(group.key) }, ...shown("Duplicate")),
        h("button", { type: "button", id: `${id}-up`, class: "move", disabled: index === 0, onclick: () => move(group.key, -1) }, "↑", h("span", { class: "sr-only" }, ` Move ${name} up`)),
        h("button", { type: "button", id: `${id}-down`, class: "move", disabled: index === groups.length - 1, onclick: () => move(group.key, 1) }, "↓", h("span", { class: "sr-only" }, ` Move ${name} down`)),
        h("button", { type: "button", id: `${id}-remove`, class: "remove danger", onclick: () => remove(group.entries.map((e) => e.key), `Remove ${name}`) }, ...shown("Remove"))));
  }));
}

function upgradeWords(e) {
  const words = e.upgrades.map((r) => {
    const s = sections.get(r.section);
    const o = s && s.options.find((x) => x.id === r.option);
    return (r.count > 1 ? `${r.count}× ` : "") + (o ? o.label : r.option);
  });
  if (e.spells && e.spells.length) words.push(`${e.spells.length} spell${e.spells.length === 1 ? "" : "s"}`);
  return words;
}

function sumCosts(costs) {
  const out = {};
  for (const c of costs) for (const [k, v] of Object.entries(c)) out[k] = (out[k] || 0) + v;
  return out;
}

/** Marks the player looks for: keyword troops (ancients-hex) and elites (armour-hex) in a list entry. */
function marksOf(e) {
  const u = units.get(e.unit);
  if (!u) return [];
  const marks = [];
  if (u.stats && u.stats.keyword) marks.push(h("span", { class: "mark keyword" }, "Keyword troops"));
  const elites = e.upgrades.filter((r) => eliteOption(r.section, r.option)).reduce((n, r) => n + r.count, 0);
  if (elites) marks.push(h("span", { class: "mark elite" }, `${elites} elite${elites === 1 ? "" : "s"}`));
  return marks;
}

const eliteOption = (sid, oid) => Boolean(sections.get(sid)?.options.find((o) => o.id === oid)?.elite);

/** The same marks on a book card: keyword troops, and units that can field elites. */
function bookMarks(u) {
  const marks = [];
  if (u.stats && u.stats.keyword) marks.push(h("span", { class: "mark keyword" }, "Keyword troops"));
  if ((u.upgrades || []).some((sid) => (sections.get(sid)?.options || []).some((o) => o.elite))) marks.push(h("span", { class: "mark elite" }, "Elites available"));
  return marks.length ? h("p", { class: "marks" }, marks) : null;
}

let editor = null;
function renderEditor() {
  if (!editor) {
    editor = new Editor($("editor"), {
      system, book, family: FAMILY, units, sections, glossary, books: systemBooks, bookCache: loadBook,
      list: () => list, entry, nameOf, labelOf, groupName,
      /** fn(entry) changes one entry of the list, as one undoable step. */
      update: (fn, { key, light = false, merge = null, label = null } = {}) => {
        if (!entry(key)) return;
        edit(label || `Change ${labelOf(entry(key))}`, (l) => fn(l.units.find((e) => e.key === key)), { light, merge });
        if (light) { const t = document.querySelector("#editor-title"); if (t) t.textContent = groupName(groupOf(list.units, selected)); }
      },
      /** fn(list) changes several entries at once (both halves of a pair), as one step. */
      edit: (label, fn) => edit(label, fn),
      addUnit: (unitId, opts) => addUnit(unitId, { ...opts, focus: false }),
      remove: (keys, label) => remove(keys, label),
      close: () => closeEditor(),
      priced: (key) => (report && report.entries && report.entries[key]) || null,
      statusOf: (group) => {
        const byEntry = issuesByEntry();
        const costs = group.entries.map(entryCost);
        const issues = group.entries.flatMap((e) => byEntry.get(e.key) || []);
        const t = report && report.totals;
        const overall = t && t.pts !== undefined && t.limit && t.limit.pts ? `${t.pts} / ${t.limit.pts} pts in the list` : "";
        return { cost: costs.every(Boolean) ? formatCost(sumCosts(costs)) : "…", issues, overall };
      },
    });
  }
  editor.render(selected);
  app.classList.toggle("editing", !$("editor").hidden);
}

function closeEditor() {
  const key = selected;
  if (!key) return;
  selected = null;
  renderList();
  renderEditor();
  const group = groupOf(list.units, key);
  (group && $(`entry-${cssId(group.key)}-edit`))?.focus({ preventScroll: true });
}

/** Open a unit's group in the editor (a panel beside the list: the page does not scroll). */
function select(key, { focus = true } = {}) {
  selected = key;
  keepFocus(() => { renderList(); renderEditor(); });
  if (focus) $("editor").focus({ preventScroll: true });
}

function renderAll() {
  renderList();
  renderEditor();
  preview.refreshAttackers();
  renderTotals();
  renderIssues();
}

// ------------------------------------------------------------------------------------------
// Validation: debounced POST after every change; stale answers are dropped

const validateSoon = debounce(() => validateNow(), 300);

async function validateNow() {
  const mine = ++validating;
  $("totals").classList.add("checking");
  try {
    const answer = await api("/api/v1/lists/validate?profiles=true", { method: "POST", body: payload() });
    if (mine !== validating) return;
    report = answer;
    offlineSince = null;
    keepFocus(renderList);
    renderListCounts();
    editor && editor.showStatus();
    renderTotals();
    renderIssues();
  } catch (err) {
    if (mine !== validating) return;
    // Offline: the last report stays, marked as not checked since; any other failure drops it.
    if (offline(err)) {
      offlineSince = offlineSince || new Date();
      retryLater();
    } else report = null;
    keepFocus(renderList);
    renderListCounts();
    renderTotals(err);
    renderIssues(err);
  } finally {
    if (mine === validating) $("totals").classList.remove("checking");
  }
}

/**
 * Offline, the check runs again when the browser says it is back online; this also tries every
 * 30 s, for a server that was unreachable while the browser thought it was online.
 */
let retry = null;
function retryLater() {
  if (retry) return;
  retry = setTimeout(() => { retry = null; if (offlineSince) validateNow(); }, 30000);
}

function renderTotals(err) {
  const box = $("totals");
  if (formProblem) {
    box.replaceChildren(h("span", { class: "status bad", id: "validity" }, "Not checked: fix the points limit"));
    return;
  }
  if (offline(err)) {
    box.replaceChildren(...offlineTotals());
    return;
  }
  if (err || !report) {
    box.replaceChildren(h("span", { class: `status ${err ? "bad" : "empty"}` }, err ? "Not checked" : "Checking…"));
    return;
  }
  const t = report.totals || {};
  const limit = t.limit || t.budget || {}; // OPR and ancients-hex say limit, armour-hex budget
  const left = t.left || {};
  const currencies = Object.keys(limit).length ? Object.keys(limit) : Object.keys(t).filter((k) => ["pts", "vp", "ip", "mp", "cp", "xp"].includes(k));
  const errors = report.issues.filter((i) => i.severity === "error").length;
  const warnings = report.issues.length - errors;
  // An empty list is "Empty" in every system: calling it legal tells the player nothing, and a
  // minimum it cannot meet yet (ancients-hex keyword troops) is no error of theirs so far.
  const empty = !list.units.length;
  const verdict = empty ? "Empty" : !report.valid ? counted(errors, "error") : warnings ? `Legal (${counted(warnings, "warning")})` : "Legal";
  const chips = [h("span", { class: `status ${empty ? "empty" : !report.valid ? "bad" : "ok"}`, id: "validity" }, verdict)];
  for (const c of currencies) {
    const over = (left[c] ?? 0) < 0;
    chips.push(h("span", { class: `chip currency${over ? " over" : ""}`, dataset: { currency: c } },
      h("strong", {}, `${t[c] ?? 0}`), limit[c] !== undefined ? ` / ${limit[c]}` : "", ` ${currencyLabel(c)}`,
      left[c] !== undefined ? h("span", { class: "left" }, over ? ` · ${-left[c]} over` : ` · ${left[c]} left`) : null));
  }
  chips.push(...countChips(t));
  if (t.keyword && typeof t.keyword === "object") {
    // 003 §1.0: keyword troops have a minimum; the spend is shown beside it.
    const spent = Object.entries(t.keyword).find(([k]) => k !== "required");
    const short = spent && t.keyword.required !== undefined && spent[1] < t.keyword.required;
    chips.push(h("span", { class: `chip keyword${short ? " over" : ""}`, dataset: { total: "keyword" } },
      "Keyword troops ", h("strong", {}, String(spent ? spent[1] : 0)), ` / ${t.keyword.required} ${currencyLabel(spent ? spent[0] : "vp")} minimum`));
  }
  const shown = new Set([...currencies, "limit", "budget", "left", "units", "activations", "models", "keyword"]);
  const more = Object.entries(t).filter(([k]) => !shown.has(k)).map(([k, v]) => `${humanize(k)}: ${describe(v)}`);
  if (more.length) chips.push(h("span", { class: "chip more" }, more.join(" · ")));
  box.replaceChildren(...chips);
}

/** Offline: the points counted in this browser and the counts, under a "not checked" verdict. */
function offlineTotals() {
  const costs = list.units.map(localCost).filter(Boolean);
  const total = sumCosts(costs);
  const limit = !isBudgetSystem() && list.points_limit ? list.points_limit : null;
  const chips = [h("span", { class: "status empty", id: "validity", title: "The server checks the rules; it cannot be reached" }, "Not checked — offline")];
  const currencies = Object.keys(total).length ? Object.keys(total) : Object.keys(book.units[0]?.cost || { pts: 0 });
  for (const c of currencies) {
    const over = limit !== null && currencies.length === 1 && (total[c] ?? 0) > limit;
    chips.push(h("span", { class: `chip currency${over ? " over" : ""}`, dataset: { currency: c } },
      h("strong", {}, `${total[c] ?? 0}`), limit !== null && currencies.length === 1 ? ` / ${limit}` : "", ` ${currencyLabel(c)}`,
      limit !== null && currencies.length === 1 ? h("span", { class: "left" }, over ? ` · ${total[c] - limit} over` : ` · ${limit - (total[c] ?? 0)} left`) : null,
      h("span", { class: "left" }, " (counted here)")));
  }
  chips.push(...countChips(localCounts()));
  return chips;
}

/** units, activations and models as the list panel draws them (offline: the server's are stale). */
function localCounts() {
  return { units: list.units.length, activations: deploymentGroups(list.units).length,
    models: list.units.reduce((n, e) => n + (units.get(e.unit)?.size || 0), 0) };
}

/** units, activations, models: one vocabulary in the bar, the list and the PDF (listbuilder/lists/deployment.py). */
const COUNT_WORDS = { units: ["unit", "units"], activations: ["activation", "activations"], models: ["model", "models"] };
function countChips(t) {
  return Object.entries(COUNT_WORDS).filter(([k]) => t[k] !== undefined)
    .map(([k, [one, many]]) => h("span", { class: "chip", dataset: { total: k } }, h("strong", {}, String(t[k])), ` ${t[k] === 1 ? one : many}`));
}

function renderListCounts() {
  const t = offlineSince ? localCounts() : report && report.totals;
  $("list-counts").replaceChildren(...(t && list.units.length ? countChips(t) : []));
}

function describe(v) {
  if (v && typeof v === "object" && !Array.isArray(v)) return Object.entries(v).map(([k, x]) => `${currencyLabel(k) === k.toUpperCase() && k.length <= 3 ? currencyLabel(k) : k} ${describe(x)}`).join(", ");
  if (Array.isArray(v)) return v.length ? v.join(", ") : "none";
  if (typeof v === "boolean") return v ? "on" : "off";
  return String(v);
}

const offline = (err) => err instanceof ApiError && err.status === 0;

function renderIssues(err) {
  const box = $("issues");
  if (offline(err)) {
    const last = report && report.issues;
    box.replaceChildren(...[h("p", { class: "notice", id: "offline-note" },
      "Offline: the rules are checked by the server, so this list is not checked since your last change. It is kept in this browser and checked again as soon as the connection is back; the points above are counted here."),
      last && last.length ? h("div", { class: "stale-issues", id: "stale-issues" },
        h("p", { class: "muted" }, `The last check, from before ${offlineSince.toLocaleTimeString()}, found:`),
        h("ul", { class: "issue-list" }, last.map((issue) => h("li", { class: `issue ${issue.severity}` },
          h("span", { class: `badge ${issue.severity === "error" ? "bad" : "warn"}` }, issue.severity), " ",
          h("span", { class: "message" }, issue.message))))) : null].filter(Boolean));
    return;
  }
  if (err) {
    box.replaceChildren(errorBox(err, err instanceof ApiError && err.status ? "The server could not check the list" : "Not checked"));
    return;
  }
  if (!report) { box.replaceChildren(h("p", { class: "muted" }, "Checking…")); return; }
  if (!report.issues.length) {
    box.replaceChildren(list.units.length ? h("p", { class: "notice ok", id: "no-issues" }, "The list is legal.")
      : h("p", { class: "notice", id: "no-issues" }, "The list is empty: add units from the book."));
    return;
  }
  box.replaceChildren(h("ul", { class: "issue-list" }, report.issues.map((issue) => {
    const m = /^units\[(\d+)\]/.exec(issue.path || "");
    const target = m ? list.units[Number(m[1])] : null;
    return h("li", { class: `issue ${issue.severity}`, dataset: { code: issue.code } },
      h("span", { class: `badge ${issue.severity === "error" ? "bad" : "warn"}` }, issue.severity),
      " ",
      h("span", { class: "message" }, issue.message),
      h("span", { class: "clause" }, ` ${issue.clause}`),
      target ? h("button", { type: "button", class: "link goto", onclick: () => goTo(issue, target) }, `Go to ${nameOf(target)}`)
        : settingsTarget(issue) ? h("button", { type: "button", class: "link goto", onclick: () => settingsTarget(issue).focus() }, "Go to the list settings") : null,
      ...issueLinks(issue));
  })));
}

/**
 * A list-wide issue that names units (the ancients-hex keyword-troop minimum) links to each:
 * data.entries are paths of the entries that count, data.book_units the book's units to add.
 */
function issueLinks(issue) {
  const data = issue.data || {};
  const out = [];
  for (const path of data.entries || []) {
    const m = /^units\[(\d+)\]$/.exec(path);
    const target = m && list.units[Number(m[1])];
    if (target) out.push(h("button", { type: "button", class: "link goto", onclick: () => goTo({ path }, target) }, `Go to ${nameOf(target)}`));
  }
  for (const id of data.book_units || []) {
    const u = units.get(id);
    if (u) out.push(h("button", { type: "button", class: "link goto add-suggested", onclick: () => addUnit(id) }, `Add ${u.name} to the list`));
  }
  return out;
}

function settingsTarget(issue) {
  const p = issue.path || "";
  if (p.startsWith("points_limit")) return $("points-limit");
  const budget = /^budget\.(\w+)/.exec(p);
  if (budget && $(`budget-${budget[1]}`)) return $(`budget-${budget[1]}`);
  if (p.startsWith("budget") || p.startsWith("game_mode")) return $("game-mode");
  if (p.startsWith("force_org")) return $("force-org");
  return null;
}

/** Open the unit an issue concerns and focus the control its path names. */
function goTo(issue, target) {
  select(target.key, { focus: false });
  const rest = issue.path.replace(/^units\[\d+\]\.?/, "");
  let focus = null;
  const row = /^upgrades\[(\d+)\]/.exec(rest);
  if (row) {
    const r = target.upgrades[Number(row[1])];
    if (r) focus = $(`ed-${r.section}--${r.option}`) || document.querySelector(`#ed-section-${r.section} input:not([disabled])`);
  } else if (rest.startsWith("spells")) focus = document.querySelector("#ed-spells input:not([disabled])");
  else if (rest.startsWith("joined_to")) focus = $("ed-join");
  else if (rest.startsWith("combined_with")) focus = $("ed-combine");
  else if (rest.startsWith("upgrades")) {
    const unit = units.get(target.unit);
    const sid = issue.data && issue.data.section;
    focus = document.querySelector(`#ed-section-${sid || (unit && unit.upgrades[0])} input:not([disabled])`);
  }
  (focus || $("editor")).focus();
}

// ------------------------------------------------------------------------------------------
// Export, save, load

function wireExport() {
  const status = $("export-status");
  $("download-pdf").addEventListener("click", async (ev) => {
    const button = ev.currentTarget;
    const paper = $("paper").value;
    button.disabled = true;
    status.textContent = "Printing the roster…";
    try {
      const layout = $("layout").value;
      const blob = await api(`/api/v1/rosters/pdf?paper=${paper}&layout=${layout}`, { method: "POST", body: payload(), as: "blob" });
      saveBlob(blob, `${slug(list.name || book.name)}-${layout === "cards" ? "cards-" : ""}${paper}.pdf`);
      status.textContent = `PDF roster downloaded (${paper === "a4" ? "A4" : "Letter"}).`;
    } catch (err) {
      status.replaceChildren(errorBox(err, "No PDF"));
    } finally {
      button.disabled = false;
    }
  });
  $("copy-text").addEventListener("click", async () => {
    status.textContent = "Writing the text export…";
    let text;
    try {
      text = await api("/api/v1/rosters/text", { method: "POST", body: payload(), as: "text" });
    } catch (err) {
      status.replaceChildren(errorBox(err, "No text export"));
      return;
    }
    const area = $("text-export");
    area.value = text;
    $("text-export-field").hidden = false;
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = "Text export copied to the clipboard.";
    } catch {
      area.focus();
      area.select();
      status.textContent = "Copying is blocked here: the text is selected below, press Ctrl+C (or ⌘C).";
    }
  });
  $("save-json").addEventListener("click", () => {
    saveBlob(new Blob([JSON.stringify(payload(), null, 2) + "\n"], { type: "application/json" }), `${slug(list.name || book.name)}.json`);
    status.textContent = "List saved as a JSON file.";
  });
  $("load-json").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    ev.target.value = "";
    if (!file) return;
    let data;
    try {
      data = JSON.parse(await file.text());
    } catch (err) {
      status.replaceChildren(errorBox(new Error(`${file.name} is not a JSON file: ${err.message}`)));
      return;
    }
    if (data && data.list && !data.units) data = data.list; // golden-list files wrap the list
    if (!data || typeof data !== "object" || !Array.isArray(data.units) || !data.book) {
      status.replaceChildren(errorBox(new Error(`${file.name} is not an army list (it needs "book" and "units").`)));
      return;
    }
    if (data.book !== BOOK_ID) {
      let other;
      try {
        other = await loadBook(data.book);
      } catch (err) {
        status.replaceChildren(errorBox(err, `${file.name} is for a book this server does not have`));
        return;
      }
      const kept = readDraft(draftKey(other.id));
      if (kept && kept.list.units.length && !window.confirm(`${file.name} is a ${other.name} list. This browser keeps an unsaved `
        + `${other.name} list, ${describeWork(kept.list)}, which it would replace. Replace it?`)) {
        status.textContent = `Not loaded: the ${other.name} list kept in this browser is unchanged.`;
        return;
      }
      writeDraft(draftKey(other.id), { list: data, bookName: other.name });
      window.location.assign(`/build/${encodeURIComponent(other.id)}`);
      return;
    }
    startNewList(data, `Load ${file.name}`, `Loaded ${file.name} as a new list.`);
  });
  $("clear-list").addEventListener("click", () => startNewList(freshList(), "New list", "New list started."));
}

/**
 * Start a new list (empty, or from a file) in the book's new-list slot: the saved list being
 * edited is left as it is (its unsaved changes stay kept as its draft), so the next Save makes
 * another list. Asks first when that would replace a list not saved anywhere else.
 */
function startNewList(next, label, done) {
  const status = $("export-status");
  const unsaved = saved.listId ? readDraft(draftKey(BOOK_ID))?.list : list;
  if (unsaved && unsaved.units.length && !window.confirm(`${label} replaces ${describeWork(unsaved)}, `
    + `${saved.listId ? "the new list kept in this browser, " : ""}which is not saved on the server. Continue?`)) {
    status.textContent = "Nothing replaced.";
    return;
  }
  const left = saved.detach();
  replaceList(next, label);
  status.textContent = done + (left === null ? "" : ` Your unsaved changes to ${left ? `“${left}”` : "the saved list"} stay kept in this browser: open it again to save or discard them.`);
}

/** Escape closes the unit editor (a rule's tooltip first, when one is open). */
window.addEventListener("online", () => { if (store) validateNow(); });

function wireEditorKeys() {
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape" || !selected || ev.defaultPrevented) return;
    if (!$("rule-tip").hidden) return;
    ev.preventDefault();
    closeEditor();
  });
}

window.addEventListener("error", (ev) => {
  const box = $("fatal");
  box.replaceChildren(h("p", {}, `Something went wrong in the page: ${ev.message}. Your list is kept in this browser; reload to continue.`));
  box.hidden = false;
});

start();
