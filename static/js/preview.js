// Combat preview: a unit of the list against any unit of any book of the same system,
// POST /api/v1/previews, and the answer drawn as an SVG bar chart.
import { OWN_LIST, UnitPicker } from "./unit_picker.js";
import { deploymentGroups } from "./groups.js";
import { api, byId, errorBox, h, humanize, percent, possessive } from "./util.js";
import { atLeastTable, barChart, fmt, headlineOdds, matchup, otherFigures, sentences } from "./preview_answer.js";

/** @typedef {import("./api_shapes.js").Book} Book */
/** @typedef {import("./api_shapes.js").Entry} Entry */

/**
 * What the preview reads from the builder.
 * @typedef {object} PreviewContext
 * @property {import("./api_shapes.js").GameSystem} system  its preview: the situation form and whether there are previews
 * @property {Book} book
 * @property {() => import("./api_shapes.js").ArmyList} list
 * @property {(entry: Entry) => string} nameOf
 * @property {(entry: Entry) => string} labelOf
 * @property {(group: import("./api_shapes.js").Group) => string} groupName  a unit as it stands on the table
 * @property {() => Record<string, any>} payload  the list as the API takes it
 * @property {(id: string) => Promise<Book>} bookCache
 */

const PREFERRED = ["models_killed", "hp_lost", "damage", "damage_results", "wounds", "hits"];

export class Preview {
  /** @param {PreviewContext} ctx */
  constructor(ctx) {
    this.ctx = ctx;
    this.form = byId("preview-form", HTMLFormElement);
    this.attacker = byId("pv-attacker", HTMLSelectElement);
    this.bookSelect = byId("pv-book", HTMLSelectElement);
    this.defender = byId("pv-defender", HTMLSelectElement);
    this.situation = byId("pv-situation", HTMLFieldSetElement);
    this.result = byId("preview-result");
    // The situation inputs the system's rules family reads (its situation schema, served with
    // the system). A system answer kept offline from before the server sent them has none: the
    // JSON box alone then.
    const form = ctx.system.preview;
    this.available = !form || form.available;
    this.fields = form ? form.inputs : [];
    this.attackInput = form ? form.attack_input : null;
    /** @type {string | null} the result charted last, charted again for the next answer */
    this.chosen = null;
    this.picker = new UnitPicker({ bookSelect: this.bookSelect, unitSelect: this.defender, bookCache: ctx.bookCache,
      onError: (box) => this.result.replaceChildren(box), ownList: () => this.tableUnits() });
    this.buildSituation();
    this.form.addEventListener("submit", (e) => { e.preventDefault(); this.run(); });
    if (!this.available) {
      this.form.hidden = true;
      this.result.replaceChildren(h("p", { class: "notice" }, "This game system has no combat previews."));
    }
  }

  /**
   * Offer the defenders of these books (the system's listed books, and the list's own).
   * @param {{id: string, name: string}[]} books
   * @returns {Promise<void>}
   */
  async init(books) {
    await this.picker.setBooks(books, { current: this.ctx.book.id, own: this.ctx.book });
  }

  /**
   * The list's units as they stand on the table: a combined pair with the heroes who joined it
   * is one choice (the API previews the whole of it from any of its keys).
   * @returns {{value: string, label: string}[]}
   */
  tableUnits() {
    return deploymentGroups(this.ctx.list().units).map((g) => ({ value: g.key, label: this.ctx.groupName(g) }));
  }

  /**
   * The attacker choice from the list's units (the one chosen stays chosen), and the defender's
   * when it is picked from the list too.
   * @returns {void}
   */
  refreshAttackers() {
    const units = this.tableUnits();
    const before = this.attacker.value;
    this.attacker.replaceChildren(...(units.length
      ? units.map((u) => h("option", { value: u.value, selected: u.value === before }, u.label))
      : [h("option", { value: "" }, "— add a unit to your list first —")]));
    if (this.bookSelect.value === OWN_LIST) this.picker.showOwn();
  }

  buildSituation() {
    const legend = /** @type {HTMLLegendElement} */ (this.situation.querySelector("legend"));  // builder.html has it
    const controls = this.fields.map((f) => {
      const id = `pv-s-${f.name}`;
      let input;
      if (f.kind === "select") input = h("select", { id, name: f.name }, f.choices.map((c) => h("option", { value: c.value, selected: c.value === f.initial }, c.label)));
      else if (f.kind === "text") input = h("input", { id, name: f.name, type: "text", maxlength: f.max_length, value: typeof f.initial === "string" ? f.initial : null });
      else if (f.kind === "checkbox") input = h("input", { id, name: f.name, type: "checkbox", checked: Boolean(f.initial) });
      else input = h("input", { id, name: f.name, type: "number", min: f.min, max: f.max, value: f.initial, inputmode: "numeric" });
      const wrap = f.kind === "checkbox"
        ? h("label", { class: "field check", dataset: { when: f.when || "" } }, input, ` ${f.label}`)
        : h("label", { class: "field", dataset: { when: f.when || "" } }, f.label, input);
      return wrap;
    });
    const extra = h("details", { class: "extra-situation" }, h("summary", {}, "More situation keys (JSON)"),
      h("label", { class: "field" }, h("span", { class: "sr-only" }, "Extra situation keys as a JSON object"),
        h("textarea", { id: "pv-extra", rows: 3, placeholder: this.fields.length ? '{"cover": true}' : '{"attack": "…"}' })));
    this.situation.replaceChildren(legend, ...controls, extra);
    this.situation.addEventListener("change", () => this.showRelevant());
    this.showRelevant();
  }

  /** @returns {string} the kind of attack chosen, which a field's `when` names ("" when the form has no such input) */
  attackType() {
    if (!this.attackInput) return "";
    const el = /** @type {HTMLSelectElement | null} */ (this.situation.querySelector(`[name="${this.attackInput}"]`));
    return el ? el.value : "";
  }

  showRelevant() {
    const attack = this.attackType();
    for (const label of /** @type {NodeListOf<HTMLElement>} */ (this.situation.querySelectorAll("[data-when]"))) {
      label.hidden = Boolean(label.dataset.when) && label.dataset.when !== attack;
    }
  }

  situationValue() {
    const attack = this.attackType();
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const f of this.fields) {
      if (f.when && f.when !== attack) continue;
      // An input, or a select (read by its value alone).
      const el = /** @type {HTMLInputElement} */ (byId(`pv-s-${f.name}`));
      if (f.kind === "checkbox") out[f.name] = el.checked;
      else if (f.kind === "number") { if (el.value !== "") out[f.name] = Math.floor(Number(el.value)); }
      else if (f.kind === "text") { if (el.value.trim()) out[f.name] = el.value.trim(); }
      else out[f.name] = el.value;
    }
    const extra = byId("pv-extra", HTMLTextAreaElement).value.trim();
    if (extra) {
      let parsed;
      try { parsed = JSON.parse(extra); } catch (err) { throw new Error(`The extra situation keys are not valid JSON: ${/** @type {Error} */ (err).message}`, { cause: err }); }
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("The extra situation keys must be a JSON object, like {\"cover\": true}.");
      Object.assign(out, parsed);
    }
    return out;
  }

  async run() {
    const key = this.attacker.value;
    const button = byId("pv-run", HTMLButtonElement);
    if (!key) { this.result.replaceChildren(h("p", { class: "notice" }, "Add a unit to your list to pick an attacker.")); return; }
    if (!this.defender.value) { this.result.replaceChildren(h("p", { class: "notice" }, "Pick a defender.")); return; }
    let body;
    try {
      body = {
        system: this.ctx.system.id,
        attacker: { list: this.ctx.payload(), key },
        defender: this.bookSelect.value === OWN_LIST ? { list: this.ctx.payload(), key: this.defender.value }
          : { book: this.bookSelect.value, unit: this.defender.value },
        situation: this.situationValue(),
      };
    } catch (err) {
      this.result.replaceChildren(errorBox(err));
      return;
    }
    button.disabled = true;
    this.result.replaceChildren(h("p", { class: "muted" }, "Working out the odds…"));
    try {
      const answer = await api("/api/v1/previews", { method: "POST", body });
      this.show(answer);
    } catch (err) {
      this.result.replaceChildren(errorBox(err, "No preview"));
    } finally {
      button.disabled = false;
    }
  }

  /** @param {Record<string, any>} answer  POST /api/v1/previews's */
  show(answer) {
    const att = answer.attacker.name, dfn = answer.defender.name;
    const c = answer.consequences || {};
    const back = c.strike_back || null;
    // Both sides of a fight: the attacker's results, then what the defender does back.
    const charts = Object.entries(answer.distributions || {}).map(([n, d]) => ({ id: n, label: humanize(n), side: att, dist: d }));
    for (const [n, d] of Object.entries((back && back.distributions) || {})) charts.push({ id: `back-${n}`, label: `Strike back: ${humanize(n).toLowerCase()}`, side: dfn, dist: d });
    const ids = charts.map((x) => x.id);
    const first = this.chosen && ids.includes(this.chosen) ? this.chosen : PREFERRED.find((n) => ids.includes(n)) || ids[0];
    const chartBox = h("div", { class: "chart-box" });
    const draw = (/** @type {string} */ id) => {
      this.chosen = id;
      const chart = /** @type {typeof charts[number]} */ (charts.find((x) => x.id === id));  // id is one of charts'
      // replaceChildren would print a missing table as the word "null": only what exists goes in.
      chartBox.replaceChildren(...[barChart(chart.label, chart.dist), atLeastTable(chart.label, chart.dist)].filter((x) => x !== null));
    };
    const picker = charts.length > 1 ? h("div", { class: "dist-picker", role: "radiogroup", "aria-label": "Result to chart" },
      charts.map((x) => {
        const id = `pv-dist-${x.id}`;
        return h("span", { class: "seg" },
          h("input", { type: "radio", name: "pv-dist", id, value: x.id, checked: x.id === first, onchange: () => draw(x.id) }),
          h("label", { for: id }, x.label));
      })) : null;
    const headline = h("div", { class: "headline" },
      h("div", { class: "big" }, h("span", { class: "num", id: "pv-destroyed" }, percent(answer.p_destroyed ?? 0)), h("span", {}, `chance to destroy ${dfn}`)),
      ...headlineOdds(c, att, dfn, answer.defender));
    const expected = h("table", { class: "expected" }, h("caption", {}, `Expected results of ${possessive(att)} attack (averages)`),
      h("tbody", {}, Object.entries(answer.expected || {}).map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, humanize(k)), h("td", {}, fmt(v))))));
    const notes = (answer.notes || []).length ? h("details", { class: "notes" }, h("summary", {}, "How the engine read it"), h("ul", {}, answer.notes.map((n) => h("li", {}, n)))) : null;
    this.result.replaceChildren(...[
      h("p", { class: "matchup", id: "pv-matchup" }, matchup(answer)),
      headline, h("ul", { class: "summary", id: "pv-summary" }, sentences(answer).map((t) => h("li", {}, t))),
      picker, chartBox, expected, otherFigures(c), notes].filter((x) => x !== null));
    if (first) draw(first);
  }
}
