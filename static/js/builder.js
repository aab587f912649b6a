// The list builder page: state, list panel, totals and issues from the API, export, storage.
import { api, ApiError, debounce, DRAFT_PREFIX, errorBox, formatCost, currencyLabel, h, humanize, saveBlob, slug } from "./util.js";
import { Glossary, RuleTips, ruleList, statLine, weaponTable, itemList } from "./profile.js";
import { Editor, setRowOrder } from "./editor.js";
import { Preview } from "./preview.js";
import { initSaved } from "./saved.js";

const $ = (id) => document.getElementById(id);
const app = $("app");
const SYSTEM_ID = app.dataset.system;
const BOOK_ID = app.dataset.book;
const FAMILY = app.dataset.family;
const STORAGE_KEY = DRAFT_PREFIX + BOOK_ID;

let system, book;
const units = new Map();
const sections = new Map();
let list = null;          // the list in progress, in the API's list format
let selected = null;      // key of the entry open in the editor
let report = null;        // last validation report
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
  list = restore() || freshList();
  new RuleTips($("rule-tip"), new Glossary(system, book));
  buildSettings();
  renderBook();
  wireExport();
  initSaved({ container: $("saved-controls"), bookId: BOOK_ID, getList: payload, setList: replaceList });
  preview = new Preview({ system, family: FAMILY, book, list: () => list, nameOf, payload, bookCache: loadBook });
  renderAll();
  validateNow();
  try {
    preview.init(await api(`/api/v1/books?system=${encodeURIComponent(SYSTEM_ID)}`));
  } catch (err) {
    $("preview-result").replaceChildren(errorBox(err, "Could not list the books to pick a defender from"));
  }
}
let preview = null;

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

function restore() {
  try {
    const draft = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null");
    if (draft && draft.list && draft.list.book === BOOK_ID && Array.isArray(draft.list.units)) return normalise(draft.list);
  } catch { /* a corrupt draft is dropped */ }
  return null;
}

function normalise(raw) {
  const out = { ...freshList(), ...raw, system: SYSTEM_ID, book: BOOK_ID };
  out.units = raw.units.map((e) => ({ key: String(e.key), unit: String(e.unit), name: e.name || "", notes: e.notes || "",
    upgrades: (e.upgrades || []).map((r) => ({ section: r.section, option: r.option, count: r.count ?? 1 })),
    combined_with: e.combined_with || null, joined_to: e.joined_to || null, spells: e.spells || [] }));
  return out;
}

/** Replace the list in progress (a saved list opened from the server, see saved.js). */
function replaceList(data) {
  list = normalise(data);
  selected = null;
  $("list-name").value = list.name || "";
  $("size-fields").replaceChildren();
  buildSettings();
  changed();
}

function persist() {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ list, savedAt: Date.now(), bookName: book.name }));
  } catch { /* storage full or disabled: the list still works in this tab */ }
}

/** The list as the API takes it: empty optional fields left out. */
function payload() {
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
// Changes

function changed({ editor = true, listPanel = true } = {}) {
  persist();
  if (listPanel) renderList();
  if (editor) renderEditor();
  preview && preview.refreshAttackers();
  validateSoon();
}

function entry(key) { return list.units.find((e) => e.key === key) || null; }

function nameOf(e) {
  const u = units.get(e.unit);
  return e.name || (u ? u.name : e.unit);
}

function newKey() {
  const used = new Set(list.units.map((e) => e.key));
  let n = list.units.length + 1;
  while (used.has(`u${n}`)) n++;
  return `u${n}`;
}

function addUnit(unitId) {
  const e = { key: newKey(), unit: unitId, name: "", notes: "", upgrades: [], combined_with: null, joined_to: null, spells: [] };
  list.units.push(e);
  changed({ editor: false });
  select(e.key);
  announce(`${nameOf(e)} added to the list.`);
}

function duplicate(key) {
  const src = entry(key);
  const copy = { ...structuredClone(src), key: newKey(), combined_with: null, joined_to: null };
  list.units.splice(list.units.indexOf(src) + 1, 0, copy);
  changed({ editor: false });
  select(copy.key);
  announce(`${nameOf(copy)} duplicated.`);
}

function remove(key) {
  const e = entry(key);
  const index = list.units.indexOf(e);
  list.units.splice(index, 1);
  for (const other of list.units) {
    if (other.combined_with === key) other.combined_with = null;
    if (other.joined_to === key) other.joined_to = null;
  }
  if (selected === key) selected = null;
  changed();
  announce(`${nameOf(e)} removed.`);
  const next = list.units[Math.min(index, list.units.length - 1)];
  (next ? document.querySelector(`#entry-${cssId(next.key)} .edit`) : $("unit-filter"))?.focus();
}

const cssId = (key) => key.replace(/[^a-zA-Z0-9_-]/g, "_");

function announce(text) { $("export-status").textContent = text; }

// ------------------------------------------------------------------------------------------
// Settings

function buildSettings() {
  const name = $("list-name");
  name.value = list.name || "";
  name.oninput = () => { list.name = name.value; changed({ editor: false, listPanel: false }); };
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
            list.budget = { ...(list.budget || {}) };
            if (v === null) delete list.budget[c]; else list.budget[c] = v;
            if (!Object.keys(list.budget).length) list.budget = null;
            changed({ editor: false, listPanel: false });
          } }))));
      if (split) budgetBox.prepend(h("p", { class: "hint" }, `Optional: divide ${split.points} points over ${split.across.map(currencyLabel).join(", ")}.`));
    };
    select.addEventListener("change", () => {
      list.game_mode = select.value || null;
      list.budget = select.value ? null : Object.fromEntries(system.composition.currencies.map((c) => [c, 0]));
      draw();
      changed({ editor: false, listPanel: false });
    });
    fields.append(h("label", { class: "field" }, "Game mode", select), describe, budgetBox);
    draw();
  } else {
    const points = system.composition.points || {};
    const input = h("input", { id: "points-limit", type: "number", min: 1, max: 100000, step: 1, inputmode: "numeric", list: "points-suggested", value: list.points_limit ?? "" });
    input.oninput = () => {
      const v = Math.floor(Number(input.value));
      list.points_limit = v > 0 ? v : null;
      changed({ editor: false, listPanel: false });
    };
    fields.append(h("label", { class: "field" }, `Points limit (${currencyLabel(Object.keys(book.units[0]?.cost || { pts: 0 })[0] || "pts")})`, input),
      h("datalist", { id: "points-suggested" }, (points.suggested || []).map((v) => h("option", { value: v }))));
  }
  if (system.limits && system.limits.force_org_available) {
    const box = $("force-org");
    $("force-org-field").hidden = false;
    box.checked = list.force_org ?? Boolean(system.limits.force_org_default);
    box.onchange = () => { list.force_org = box.checked; changed({ editor: false, listPanel: false }); };
  }
}

// ------------------------------------------------------------------------------------------
// Book panel

function renderBook() {
  const ul = $("book-units");
  ul.replaceChildren(...book.units.map((u) => h("li", { class: "unit-card", id: `book-${u.id}`, dataset: { name: u.name.toLowerCase() } },
    h("div", { class: "card-head" },
      h("h3", {}, u.name),
      h("span", { class: "cost" }, formatCost(u.cost)),
      h("button", { type: "button", class: "add primary", "aria-label": `Add ${u.name}`, onclick: () => addUnit(u.id) }, "Add")),
    h("p", { class: "meta" }, `${u.size} model${u.size === 1 ? "" : "s"}${u.is_hero ? " · hero" : ""}${u.upgrades.length ? ` · ${u.upgrades.length} upgrade section${u.upgrades.length === 1 ? "" : "s"}` : ""}`),
    statLine(u, FAMILY), weaponTable(u.weapons), itemList(u.items), ruleList(u.rules),
    u.description ? h("p", { class: "desc" }, u.description) : null)));
  const armyRule = book.extra && book.extra.army_rule;
  if (armyRule) ul.before(h("p", { class: "army-rule" }, "Army rule: ", ruleList([armyRule.name])));
  $("unit-filter").addEventListener("input", (e) => {
    const q = e.target.value.trim().toLowerCase();
    for (const li of ul.children) li.hidden = Boolean(q) && !li.dataset.name.includes(q);
  });
}

// ------------------------------------------------------------------------------------------
// List panel

/** The entry's cost after upgrades, as the last validation report priced it. */
function entryCost(e) {
  const line = report && report.entries && report.entries[e.key];
  return line ? line.cost : null;
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
  ol.replaceChildren(...list.units.map((e) => {
    const u = units.get(e.unit);
    const problems = byEntry.get(e.key) || [];
    const errors = problems.filter((i) => i.severity === "error").length;
    const links = [];
    if (e.combined_with) links.push(`combined with ${nameOf(entry(e.combined_with) || { unit: e.combined_with })}`);
    if (e.joined_to) links.push(`joins ${nameOf(entry(e.joined_to) || { unit: e.joined_to })}`);
    const upgrades = e.upgrades.map((r) => {
      const s = sections.get(r.section);
      const o = s && s.options.find((x) => x.id === r.option);
      return (r.count > 1 ? `${r.count}× ` : "") + (o ? o.label : r.option);
    });
    if (e.spells && e.spells.length) upgrades.push(`spells: ${e.spells.length}`);
    const cost = entryCost(e);
    return h("li", { id: `entry-${cssId(e.key)}`, class: `entry${e.key === selected ? " selected" : ""}${errors ? " has-errors" : problems.length ? " has-warnings" : ""}`, tabindex: -1, dataset: { key: e.key } },
      h("div", { class: "entry-head" },
        h("span", { class: "entry-name" }, nameOf(e)),
        e.name && u ? h("span", { class: "meta" }, ` ${u.name}`) : null,
        h("span", { class: "cost" }, cost ? formatCost(cost) : "?"),
        problems.length ? h("span", { class: `badge ${errors ? "bad" : "warn"}`, title: problems.map((i) => i.message).join("\n") }, `${problems.length} issue${problems.length === 1 ? "" : "s"}`) : null),
      h("p", { class: "meta" }, `${u ? u.size : "?"} model${u && u.size === 1 ? "" : "s"}${links.length ? ` · ${links.join(" · ")}` : ""}`),
      upgrades.length ? h("p", { class: "entry-upgrades" }, upgrades.join(", ")) : null,
      h("div", { class: "entry-actions" },
        h("button", { type: "button", class: "edit", "aria-expanded": String(e.key === selected), "aria-controls": "editor", onclick: () => select(e.key) }, e.key === selected ? "Editing" : "Edit", h("span", { class: "sr-only" }, ` ${nameOf(e)}`)),
        h("button", { type: "button", class: "dup", onclick: () => duplicate(e.key) }, "Duplicate", h("span", { class: "sr-only" }, ` ${nameOf(e)}`)),
        h("button", { type: "button", class: "remove danger", onclick: () => remove(e.key) }, "Remove", h("span", { class: "sr-only" }, ` ${nameOf(e)}`))));
  }));
}

let editor = null;
function renderEditor() {
  if (!editor) {
    editor = new Editor($("editor"), {
      system, book, family: FAMILY, units, sections,
      list: () => list, entry, nameOf,
      update: (fn, { key, editor: redraw = true } = {}) => {
        const e = entry(key);
        if (!e) return;
        fn(e);
        changed({ editor: redraw });
        if (!redraw) { const t = document.querySelector("#editor-title span"); if (t) t.textContent = nameOf(entry(selected) || e); }
      },
      close: () => { const key = selected; selected = null; changed({ listPanel: true }); document.querySelector(`#entry-${cssId(key)} .edit`)?.focus(); },
    });
  }
  const focused = document.activeElement && document.activeElement.id;
  const box = $("editor");
  const scroll = box.scrollTop;
  editor.render(selected);
  box.scrollTop = scroll;
  if (focused && $(focused) && box.contains($(focused))) $(focused).focus();
}

function select(key) {
  selected = key;
  renderList();
  renderEditor();
  $("editor").focus();
  $("editor").scrollIntoView({ block: "nearest" });
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
    const answer = await api("/api/v1/lists/validate", { method: "POST", body: payload() });
    if (mine !== validating) return;
    report = answer;
    renderList();
    renderTotals();
    renderIssues();
  } catch (err) {
    if (mine !== validating) return;
    report = null;
    renderList();
    renderTotals(err);
    renderIssues(err);
  } finally {
    if (mine === validating) $("totals").classList.remove("checking");
  }
}

function renderTotals(err) {
  const box = $("totals");
  if (err || !report) {
    box.replaceChildren(h("span", { class: "status bad" }, err ? "Not checked" : "Checking…"));
    return;
  }
  const t = report.totals || {};
  const limit = t.limit || t.budget || {}; // OPR and ancients-hex say limit, armour-hex budget
  const left = t.left || {};
  const currencies = Object.keys(limit).length ? Object.keys(limit) : Object.keys(t).filter((k) => ["pts", "vp", "ip", "mp", "cp", "xp"].includes(k));
  const errors = report.issues.filter((i) => i.severity === "error").length;
  const warnings = report.issues.length - errors;
  const chips = [h("span", { class: `status ${report.valid ? "ok" : "bad"}`, id: "validity" }, report.valid ? (warnings ? `Legal (${warnings} warning${warnings === 1 ? "" : "s"})` : "Legal") : `${errors} error${errors === 1 ? "" : "s"}`)];
  for (const c of currencies) {
    const over = (left[c] ?? 0) < 0;
    chips.push(h("span", { class: `chip currency${over ? " over" : ""}`, dataset: { currency: c } },
      h("strong", {}, `${t[c] ?? 0}`), limit[c] !== undefined ? ` / ${limit[c]}` : "", ` ${currencyLabel(c)}`,
      left[c] !== undefined ? h("span", { class: "left" }, over ? ` · ${-left[c]} over` : ` · ${left[c]} left`) : null));
  }
  for (const k of ["units", "activations", "models"]) if (t[k] !== undefined) chips.push(h("span", { class: "chip", dataset: { total: k } }, h("strong", {}, String(t[k])), ` ${k}`));
  const shown = new Set([...currencies, "limit", "budget", "left", "units", "activations", "models"]);
  const more = Object.entries(t).filter(([k]) => !shown.has(k)).map(([k, v]) => `${humanize(k)}: ${describe(v)}`);
  if (more.length) chips.push(h("span", { class: "chip more" }, more.join(" · ")));
  box.replaceChildren(...chips);
}

function describe(v) {
  if (v && typeof v === "object" && !Array.isArray(v)) return Object.entries(v).map(([k, x]) => `${currencyLabel(k) === k.toUpperCase() && k.length <= 3 ? currencyLabel(k) : k} ${describe(x)}`).join(", ");
  if (Array.isArray(v)) return v.length ? v.join(", ") : "none";
  if (typeof v === "boolean") return v ? "on" : "off";
  return String(v);
}

function renderIssues(err) {
  const box = $("issues");
  if (err) {
    box.replaceChildren(errorBox(err, err instanceof ApiError && err.status ? "The server could not check the list" : "Not checked"));
    return;
  }
  if (!report) { box.replaceChildren(h("p", { class: "muted" }, "Checking…")); return; }
  if (!report.issues.length) {
    box.replaceChildren(h("p", { class: "notice ok", id: "no-issues" }, list.units.length ? "The list is legal." : "No issues. Add units to build your list."));
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
        : settingsTarget(issue) ? h("button", { type: "button", class: "link goto", onclick: () => settingsTarget(issue).focus() }, "Go to the list settings") : null);
  })));
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
  selected = target.key;
  renderList();
  renderEditor();
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
  const li = $(`entry-${cssId(target.key)}`);
  li?.scrollIntoView({ block: "nearest" });
  (focus || $("editor")).focus();
  (focus || $("editor")).scrollIntoView({ block: "center" });
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
      try {
        const other = await loadBook(data.book);
        localStorage.setItem(DRAFT_PREFIX + other.id, JSON.stringify({ list: data, savedAt: Date.now(), bookName: other.name }));
        window.location.assign(`/build/${encodeURIComponent(other.id)}`);
      } catch (err) {
        status.replaceChildren(errorBox(err, `${file.name} is for a book this server does not have`));
      }
      return;
    }
    list = normalise(data);
    selected = null;
    $("list-name").value = list.name || "";
    $("size-fields").replaceChildren();
    buildSettings();
    changed();
    status.textContent = `Loaded ${file.name}.`;
  });
  $("clear-list").addEventListener("click", () => {
    if (list.units.length && !window.confirm("Remove every unit and start a new list?")) return;
    list = freshList();
    selected = null;
    $("list-name").value = "";
    $("size-fields").replaceChildren();
    buildSettings();
    changed();
    status.textContent = "New list started.";
  });
}

window.addEventListener("error", (ev) => {
  const box = $("fatal");
  box.replaceChildren(h("p", {}, `Something went wrong in the page: ${ev.message}. Your list is kept in this browser; reload to continue.`));
  box.hidden = false;
});

start();
