// Combat preview: a unit of the list against any unit of any book of the same system,
// POST /api/v1/previews, and the answer drawn as an SVG bar chart.
import { UnitPicker } from "./unit_picker.js";
import { api, byId, errorBox, h, humanize, percent, possessive } from "./util.js";
import { atLeastTable, barChart, fmt, headlineOdds, matchup, otherFigures, sentences } from "./preview_answer.js";

/** @typedef {import("./api_shapes.js").Book} Book */
/** @typedef {import("./api_shapes.js").Entry} Entry */

/**
 * What the preview reads from the builder.
 * @typedef {object} PreviewContext
 * @property {import("./api_shapes.js").GameSystem} system
 * @property {string} family  the system's rules family: which situation fields it has
 * @property {Book} book
 * @property {() => import("./api_shapes.js").ArmyList} list
 * @property {(entry: Entry) => string} nameOf
 * @property {(entry: Entry) => string} labelOf
 * @property {() => Record<string, any>} payload  the list as the API takes it
 * @property {(id: string) => Promise<Book>} bookCache
 */

// The situation inputs each rules family's engine reads (docs: the previews schema).
// `when` hides a field (and leaves it out of the request) unless the attack type matches.
/**
 * @typedef {object} SituationField
 * @property {string} name
 * @property {string} type  "select", "number", "checkbox" or "text"
 * @property {string} label
 * @property {[string, string][] | ((system: any) => [string, string][])} [choices]
 * @property {number} [min]
 * @property {number} [max]
 * @property {number | boolean} [value]
 * @property {string} [when]
 */
/** @type {Record<string, SituationField[]>} */
const SITUATIONS = {
  opr: [
    { name: "attack", type: "select", label: "Attack", choices: [["shooting", "Shooting"], ["melee", "Melee"]] },
    { name: "range", type: "number", label: "Range (inches)", min: 0, max: 1000, value: 12, when: "shooting" },
    { name: "hold", type: "checkbox", label: "Attacker held still", value: true, when: "shooting" },
    { name: "charging", type: "checkbox", label: "Attacker charged", value: true, when: "melee" },
    { name: "strike_back", type: "checkbox", label: "Defender strikes back", value: true, when: "melee" },
    { name: "cover", type: "checkbox", label: "Defender in cover", value: false },
    { name: "shaken", type: "checkbox", label: "Defender shaken", value: false },
    { name: "fatigued", type: "checkbox", label: "Defender fatigued", value: false, when: "melee" },
    { name: "models_lost", type: "number", label: "Defender models already lost", min: 0, max: 10000, value: 0 },
    { name: "wounds_taken", type: "number", label: "Wounds already on the defender", min: 0, max: 10000, value: 0 },
  ],
  "ancients-hex": [
    { name: "attack", type: "select", label: "Attack", choices: [["melee", "Close combat"], ["shooting", "Missile fire"]] },
    { name: "range", type: "number", label: "Range (hexes)", min: 2, max: 100, value: 2, when: "shooting" },
    { name: "moved", type: "checkbox", label: "Attacker moved first", value: false, when: "shooting" },
    { name: "charging", type: "checkbox", label: "Attacker charged", value: false, when: "melee" },
    { name: "defender_action", type: "select", label: "Defender", when: "melee", choices: [["defend", "Defends"], ["evade", "Evades"], ["fight_back", "Fights back"]] },
    { name: "fight_back_with", type: "select", label: "Fights back with", when: "melee", choices: [["defence", "Defence dice"], ["missile", "Missile dice"]] },
    { name: "attacker_support", type: "number", label: "Attacker support", min: 0, max: 6, value: 0 },
    { name: "defender_support", type: "number", label: "Defender support", min: 0, max: 6, value: 0 },
    { name: "attacker_disadvantage", type: "number", label: "Attacker disadvantages", min: 0, max: 5, value: 0 },
    { name: "defender_disadvantage", type: "number", label: "Defender disadvantages", min: 0, max: 5, value: 0 },
    { name: "defender_hp_lost", type: "number", label: "Defender hit points lost", min: 0, max: 100, value: 0 },
    { name: "attacker_hp_lost", type: "number", label: "Attacker hit points lost", min: 0, max: 100, value: 0 },
    { name: "retreat_blocked", type: "number", label: "Retreat hexes blocked", min: 0, max: 3, value: 0 },
    { name: "terror", type: "checkbox", label: "Terror tests", value: true },
    { name: "defender_activated", type: "checkbox", label: "Defender already activated", value: false },
  ],
  "armour-hex": [
    { name: "attack", type: "select", label: "Attack", choices: [["shooting", "Fire"], ["assault", "Assault"]] },
    { name: "range", type: "number", label: "Range (hexes)", min: 1, max: 1000, value: 3, when: "shooting" },
    { name: "weapon", type: "text", label: "Weapon (name; empty: the first that can)", when: "shooting" },
    { name: "attacker_speed", type: "select", label: "Attacker speed", choices: (sys) => pairs(sys.composition.speeds, "slow") },
    { name: "defender_speed", type: "select", label: "Defender speed", choices: (sys) => pairs(sys.composition.speeds, "slow") },
    { name: "defender_terrain", type: "select", label: "Defender terrain", choices: (sys) => pairs(sys.composition.terrain, "clear") },
    { name: "facing", type: "select", label: "Facing hit", choices: [["front", "Front"], ["front_side", "Front side"], ["back_side", "Back side"], ["back", "Back"]] },
    { name: "aim", type: "checkbox", label: "Aimed", value: false, when: "shooting" },
    { name: "attacker_in_smoke", type: "checkbox", label: "Attacker in smoke", value: false },
    { name: "defender_in_smoke", type: "checkbox", label: "Defender in smoke", value: false },
    { name: "to_hit_modifier", type: "number", label: "Other to-hit modifier", min: -10, max: 10, value: 0 },
    { name: "future_damage", type: "number", label: "Damage already on the defender", min: 0, max: 100, value: 0 },
    { name: "models_lost", type: "number", label: "Defender models lost", min: 0, max: 100, value: 0 },
  ],
};

/**
 * [["slow", "Slow"], ...] from a list of ids (or {id, name}), the default first.
 * @param {(string | {id: string, name?: string})[] | undefined} values
 * @param {string} first
 * @returns {[string, string][]}
 */
function pairs(values, first) {
  const out = (values || []).map((v) => /** @type {[string, string]} */ (typeof v === "string" ? [v, humanize(v)] : [v.id, v.name || v.id]));
  out.sort((a, b) => (a[0] === first ? -1 : b[0] === first ? 1 : 0));
  return out;
}
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
    this.fields = SITUATIONS[ctx.family] || [];
    /** @type {string | null} the result charted last, charted again for the next answer */
    this.chosen = null;
    this.picker = new UnitPicker({ bookSelect: this.bookSelect, unitSelect: this.defender, bookCache: ctx.bookCache,
      onError: (box) => this.result.replaceChildren(box) });
    this.buildSituation();
    this.form.addEventListener("submit", (e) => { e.preventDefault(); this.run(); });
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
   * The attacker choice from the list's units (the one chosen stays chosen).
   * @returns {void}
   */
  refreshAttackers() {
    const entries = this.ctx.list().units;
    const before = this.attacker.value;
    this.attacker.replaceChildren(...(entries.length
      ? entries.map((e) => h("option", { value: e.key, selected: e.key === before }, this.ctx.labelOf(e)))
      : [h("option", { value: "" }, "— add a unit to your list first —")]));
  }

  buildSituation() {
    const legend = /** @type {HTMLLegendElement} */ (this.situation.querySelector("legend"));  // builder.html has it
    const controls = this.fields.map((f) => {
      const id = `pv-s-${f.name}`;
      let input;
      const choices = (typeof f.choices === "function" ? f.choices(this.ctx.system) : f.choices) || [];
      if (f.type === "select") input = h("select", { id, name: f.name }, choices.map(([v, t]) => h("option", { value: v }, t)));
      else if (f.type === "text") input = h("input", { id, name: f.name, type: "text", maxlength: 100 });
      else if (f.type === "checkbox") input = h("input", { id, name: f.name, type: "checkbox", checked: Boolean(f.value) });
      else input = h("input", { id, name: f.name, type: "number", min: f.min, max: f.max, value: f.value, inputmode: "numeric" });
      const wrap = f.type === "checkbox"
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

  attackType() {
    const el = /** @type {HTMLSelectElement | null} */ (this.situation.querySelector('[name="attack"]'));
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
      if (f.type === "checkbox") out[f.name] = el.checked;
      else if (f.type === "number") { if (el.value !== "") out[f.name] = Math.floor(Number(el.value)); }
      else if (f.type === "text") { if (el.value.trim()) out[f.name] = el.value.trim(); }
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
        defender: { book: this.bookSelect.value, unit: this.defender.value },
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
      ...headlineOdds(c, att, dfn));
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
