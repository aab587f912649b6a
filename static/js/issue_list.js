// The issues panel: the last validation report's issues, each with a way to the control it is
// about (the unit in the editor, a settings field, a unit of the book to add); offline, the
// last issues found, marked as from before.
import { ApiError, errorBox, h } from "./util.js";
import { $, nameOf, offline, page } from "./builder_state.js";
import { addUnit, select } from "./list_panel.js";

/** @typedef {import("./api_shapes.js").Entry} Entry */
/** @typedef {import("./api_shapes.js").Issue} Issue */

/**
 * Draw the issues panel.
 * @param {unknown} [err]  why the last check failed, if it did
 * @returns {void}
 */
export function renderIssues(err) {
  const { report, list } = page;
  const box = $("issues");
  if (offline(err)) {
    const last = report && report.issues;
    box.replaceChildren(...[h("p", { class: "notice", id: "offline-note" },
      "Offline: the rules are checked by the server, so this list is not checked since your last change. It is kept in this browser and checked again as soon as the connection is back; the points above are counted here."),
      last && last.length ? h("div", { class: "stale-issues", id: "stale-issues" },
        h("p", { class: "muted" }, `The last check, from before ${page.offlineSince?.toLocaleTimeString()}, found:`),
        h("ul", { class: "issue-list" }, last.map((issue) => h("li", { class: `issue ${issue.severity}` },
          h("span", { class: `badge ${issue.severity === "error" ? "bad" : "warn"}` }, issue.severity), " ",
          h("span", { class: "message" }, issue.message))))) : null].filter((x) => x !== null));
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
    const setting = settingsTarget(issue);
    return h("li", { class: `issue ${issue.severity}`, dataset: { code: issue.code } },
      h("span", { class: `badge ${issue.severity === "error" ? "bad" : "warn"}` }, issue.severity),
      " ",
      h("span", { class: "message" }, issue.message),
      h("span", { class: "clause" }, ` ${issue.clause}`),
      target ? h("button", { type: "button", class: "link goto", onclick: () => goTo(issue, target) }, `Go to ${nameOf(target)}`)
        : setting ? h("button", { type: "button", class: "link goto", onclick: () => settingsTarget(issue)?.focus() }, "Go to the list settings") : null,
      ...issueLinks(issue));
  })));
}

/**
 * A list-wide issue that names units (the ancients-hex keyword-troop minimum) links to each:
 * data.entries are paths of the entries that count, data.book_units the book's units to add.
 * @param {Issue} issue
 * @returns {HTMLElement[]}
 */
function issueLinks(issue) {
  const data = issue.data || {};
  const out = [];
  for (const path of data.entries || []) {
    const m = /^units\[(\d+)\]$/.exec(path);
    const target = m && page.list.units[Number(m[1])];
    if (target) out.push(h("button", { type: "button", class: "link goto", onclick: () => goTo({ path }, target) }, `Go to ${nameOf(target)}`));
  }
  for (const id of data.book_units || []) {
    const u = page.units.get(id);
    if (u) out.push(h("button", { type: "button", class: "link goto add-suggested", onclick: () => addUnit(id) }, `Add ${u.name} to the list`));
  }
  return out;
}

/**
 * @param {Issue} issue
 * @returns {HTMLElement | null} the settings field a list-wide issue is about, when the page has it
 */
function settingsTarget(issue) {
  const p = issue.path || "";
  const field = (/** @type {string} */ id) => document.getElementById(id);
  if (p.startsWith("points_limit")) return field("points-limit");
  const budget = /^budget\.(\w+)/.exec(p);
  if (budget && field(`budget-${budget[1]}`)) return field(`budget-${budget[1]}`);
  if (p.startsWith("budget") || p.startsWith("game_mode")) return field("game-mode");
  if (p.startsWith("force_org")) return field("force-org");
  return null;
}

/**
 * Open the unit an issue concerns and focus the control its path names.
 * @param {{path?: string, data?: Record<string, any>}} issue
 * @param {Entry} target
 * @returns {void}
 */
function goTo(issue, target) {
  select(target.key, { focus: false });
  const rest = (issue.path || "").replace(/^units\[\d+\]\.?/, "");
  /** @type {HTMLElement | null} */
  let focus = null;
  const row = /^upgrades\[(\d+)\]/.exec(rest);
  if (row) {
    const r = target.upgrades[Number(row[1])];
    if (r) focus = document.getElementById(`ed-${r.section}--${r.option}`) || document.querySelector(`#ed-section-${r.section} input:not([disabled])`);
  } else if (rest.startsWith("spells")) focus = document.querySelector("#ed-spells input:not([disabled])");
  else if (rest.startsWith("joined_to")) focus = document.getElementById("ed-join");
  else if (rest.startsWith("combined_with")) focus = document.getElementById("ed-combine");
  else if (rest.startsWith("upgrades")) {
    const unit = page.units.get(target.unit);
    const sid = issue.data && issue.data.section;
    focus = document.querySelector(`#ed-section-${sid || (unit && unit.upgrades[0])} input:not([disabled])`);
  }
  (focus || $("editor")).focus();
}
