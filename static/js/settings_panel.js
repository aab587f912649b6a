// The list's settings above the panels: its name, its size (a points limit, or a game mode and
// per-currency budgets), and force organisation where the system has it. A points limit the
// API would refuse is said in words here and never sent.
import { currencyLabel, h } from "./util.js";
import { $, isBudgetSystem, page } from "./builder_state.js";
import { edit } from "./list_edits.js";
import { renderTotals } from "./totals_bar.js";

const POINTS_MAX = 100000; // the API's bound on points_limit (listbuilder/formats/lists.py)

/**
 * Draw the settings from the list in progress and wire them to change it.
 * @returns {void}
 */
export function buildSettings() {
  const { system, book } = page;
  const name = $("list-name", HTMLInputElement);
  name.value = page.list.name || "";
  name.oninput = () => edit("Rename the list", (l) => { l.name = name.value; }, { merge: "list-name", light: true });
  // builder.html serves the box disabled: a name typed before the list was loaded would be
  // overwritten by it (more likely since the page is several modules to fetch).
  name.disabled = false;
  const fields = $("size-fields");
  if (isBudgetSystem()) {
    /** @type {{id: string, name: string, description: string, split?: {points: number, across: string[]}}[]} */
    const modes = system.limits.game_modes || system.composition.game_modes || [];
    const select = h("select", { id: "game-mode" },
      modes.map((m) => h("option", { value: m.id }, m.name)), h("option", { value: "" }, "Custom budget"));
    const budgetBox = h("div", { class: "budget", id: "budget-fields" });
    const describe = h("p", { class: "hint", id: "game-mode-desc" });
    const draw = () => {
      const { list } = page;
      const mode = modes.find((m) => m.id === list.game_mode);
      select.value = mode ? mode.id : "";
      describe.textContent = mode ? mode.description : "Give each currency's budget.";
      const split = mode && mode.split;
      /** @type {string[]} */
      const currencies = mode ? (split ? split.across : []) : system.composition.currencies;
      budgetBox.replaceChildren(...currencies.map((c) => h("label", { class: "field small" }, `${currencyLabel(c)}${split ? " (split)" : ""}`,
        h("input", { id: `budget-${c}`, type: "number", min: 0, max: 1000, inputmode: "numeric", value: (list.budget && list.budget[c]) ?? (mode ? "" : 0),
          oninput: (/** @type {Event} */ e) => {
            const input = /** @type {HTMLInputElement} */ (e.target);
            const v = input.value === "" ? null : Math.max(0, Math.floor(Number(input.value)));
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
        l.budget = select.value ? null : Object.fromEntries(system.composition.currencies.map((/** @type {string} */ c) => [c, 0]));
      }, { light: true });
      draw();
    });
    fields.append(h("label", { class: "field" }, "Game mode", select), describe, budgetBox);
    draw();
  } else {
    const points = system.composition.points || {};
    const input = h("input", { id: "points-limit", type: "number", min: 1, max: POINTS_MAX, step: 1, inputmode: "numeric", list: "points-suggested",
      value: page.list.points_limit ?? "", "aria-describedby": "points-limit-error" });
    const error = h("p", { class: "field-error", id: "points-limit-error", role: "alert", hidden: true });
    // Checked here, in words, before anything is sent: a limit of 0, empty or 1e9 is never taken.
    input.oninput = () => {
      const problem = pointsProblem(input.value);
      page.formProblem = problem;
      error.textContent = problem || "";
      error.hidden = !problem;
      input.setAttribute("aria-invalid", String(Boolean(problem)));
      if (problem) { renderTotals(); return; }
      edit("Change the points limit", (l) => { l.points_limit = Number(input.value); }, { merge: "points-limit", light: true });
    };
    fields.append(h("label", { class: "field" }, `Points limit (${currencyLabel(Object.keys(book.units[0]?.cost || { pts: 0 })[0] || "pts")})`, input),
      h("datalist", { id: "points-suggested" }, (points.suggested || []).map((/** @type {number} */ v) => h("option", { value: v }))), error);
  }
  if (system.limits && system.limits.force_org_available) {
    const box = $("force-org", HTMLInputElement);
    $("force-org-field").hidden = false;
    box.checked = page.list.force_org ?? Boolean(system.limits.force_org_default);
    box.onchange = () => edit(box.checked ? "Switch force organisation on" : "Switch force organisation off", (l) => { l.force_org = box.checked; }, { light: true });
  }
}

/**
 * @param {string} raw  what the points limit field holds
 * @returns {string | null} what is wrong with it, in words, or null for a usable limit
 */
function pointsProblem(raw) {
  const text = String(raw).trim();
  if (text === "") return `Give a points limit: a whole number from 1 to ${POINTS_MAX}.`;
  const v = Number(text);
  if (!Number.isInteger(v) || v < 1 || v > POINTS_MAX) return `${text} is not a points limit: give a whole number from 1 to ${POINTS_MAX}.`;
  return null;
}

/**
 * Draw the settings again (undo, redo or another list: their fields show the list's values).
 * @returns {void}
 */
export function rebuildSettings() {
  page.formProblem = null;
  $("size-fields").replaceChildren();
  buildSettings();
}
