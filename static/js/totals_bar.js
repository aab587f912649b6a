// The totals bar above the panels (the verdict, each currency against its limit, the counts)
// and the counts under the list's title, from the last validation report or, offline, as
// counted in this browser.
import { counted, currencyLabel, h, humanize } from "./util.js";
import { $, isBudgetSystem, offline, page } from "./builder_state.js";
import { localCost, localCounts, sumCosts } from "./list_costs.js";

/**
 * Draw the totals bar.
 * @param {unknown} [err]  why the last check failed, if it did
 * @returns {void}
 */
export function renderTotals(err) {
  const { report, list } = page;
  const box = $("totals");
  if (page.formProblem) {
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

/**
 * Offline: the points counted in this browser and the counts, under a "not checked" verdict.
 * @returns {HTMLElement[]}
 */
function offlineTotals() {
  const { list, book } = page;
  const costs = /** @type {import("./api_shapes.js").Cost[]} */ (list.units.map(localCost).filter(Boolean));
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

/** units, activations, models: one vocabulary in the bar, the list and the PDF (listbuilder/resolve/deployment.py). */
const COUNT_WORDS = { units: ["unit", "units"], activations: ["activation", "activations"], models: ["model", "models"] };

/**
 * @param {Record<string, any>} t  totals with units, activations and models (some may be missing)
 * @returns {HTMLElement[]}
 */
function countChips(t) {
  return Object.entries(COUNT_WORDS).filter(([k]) => t[k] !== undefined)
    .map(([k, [one, many]]) => h("span", { class: "chip", dataset: { total: k } }, h("strong", {}, String(t[k])), ` ${t[k] === 1 ? one : many}`));
}

/**
 * Draw the counts under the list's title.
 * @returns {void}
 */
export function renderListCounts() {
  const { report, list } = page;
  const t = page.offlineSince ? localCounts() : report && report.totals;
  $("list-counts").replaceChildren(...(t && list.units.length ? countChips(t) : []));
}

/**
 * A total the bar has no chip for, in words.
 * @param {unknown} v
 * @returns {string}
 */
function describe(v) {
  if (v && typeof v === "object" && !Array.isArray(v)) return Object.entries(v).map(([k, x]) => `${currencyLabel(k) === k.toUpperCase() && k.length <= 3 ? currencyLabel(k) : k} ${describe(x)}`).join(", ");
  if (Array.isArray(v)) return v.length ? v.join(", ") : "none";
  if (typeof v === "boolean") return v ? "on" : "off";
  return String(v);
}
