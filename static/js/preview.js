// Combat preview: a unit of the list against any unit of any book of the same system,
// POST /api/v1/previews, and the answer drawn as an SVG bar chart.
import { UnitPicker } from "./unit_picker.js";
import { api, counted, errorBox, h, humanize, percent, possessive } from "./util.js";

// The situation inputs each rules family's engine reads (docs: the previews schema).
// `when` hides a field (and leaves it out of the request) unless the attack type matches.
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

/** [["slow", "Slow"], ...] from a list of ids (or {id, name}), the default first. */
function pairs(values, first) {
  const out = (values || []).map((v) => (typeof v === "string" ? [v, humanize(v)] : [v.id, v.name || v.id]));
  out.sort((a, b) => (a[0] === first ? -1 : b[0] === first ? 1 : 0));
  return out;
}
const PREFERRED = ["models_killed", "hp_lost", "damage", "damage_results", "wounds", "hits"];

export class Preview {
  constructor(ctx) {
    this.ctx = ctx; // {system, family, book, list(), nameOf(entry), bookCache}
    this.form = document.getElementById("preview-form");
    this.attacker = document.getElementById("pv-attacker");
    this.bookSelect = document.getElementById("pv-book");
    this.defender = document.getElementById("pv-defender");
    this.situation = document.getElementById("pv-situation");
    this.result = document.getElementById("preview-result");
    this.fields = SITUATIONS[ctx.family] || [];
    this.chosen = null;
    this.picker = new UnitPicker({ bookSelect: this.bookSelect, unitSelect: this.defender, bookCache: ctx.bookCache,
      onError: (box) => this.result.replaceChildren(box) });
    this.buildSituation();
    this.form.addEventListener("submit", (e) => { e.preventDefault(); this.run(); });
  }

  /** Offer the defenders of these books (the system's listed books, and the list's own). */
  async init(books) {
    await this.picker.setBooks(books, { current: this.ctx.book.id, own: this.ctx.book });
  }

  refreshAttackers() {
    const entries = this.ctx.list().units;
    const before = this.attacker.value;
    this.attacker.replaceChildren(...(entries.length
      ? entries.map((e) => h("option", { value: e.key, selected: e.key === before }, this.ctx.labelOf(e)))
      : [h("option", { value: "" }, "— add a unit to your list first —")]));
  }

  buildSituation() {
    const legend = this.situation.querySelector("legend");
    const controls = this.fields.map((f) => {
      const id = `pv-s-${f.name}`;
      let input;
      const choices = typeof f.choices === "function" ? f.choices(this.ctx.system) : f.choices;
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
    const el = this.situation.querySelector('[name="attack"]');
    return el ? el.value : "";
  }

  showRelevant() {
    const attack = this.attackType();
    for (const label of this.situation.querySelectorAll("[data-when]")) {
      label.hidden = Boolean(label.dataset.when) && label.dataset.when !== attack;
    }
  }

  situationValue() {
    const attack = this.attackType();
    const out = {};
    for (const f of this.fields) {
      if (f.when && f.when !== attack) continue;
      const el = document.getElementById(`pv-s-${f.name}`);
      if (f.type === "checkbox") out[f.name] = el.checked;
      else if (f.type === "number") { if (el.value !== "") out[f.name] = Math.floor(Number(el.value)); }
      else if (f.type === "text") { if (el.value.trim()) out[f.name] = el.value.trim(); }
      else out[f.name] = el.value;
    }
    const extra = document.getElementById("pv-extra").value.trim();
    if (extra) {
      let parsed;
      try { parsed = JSON.parse(extra); } catch (err) { throw new Error(`The extra situation keys are not valid JSON: ${err.message}`); }
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("The extra situation keys must be a JSON object, like {\"cover\": true}.");
      Object.assign(out, parsed);
    }
    return out;
  }

  async run() {
    const key = this.attacker.value;
    const button = document.getElementById("pv-run");
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
    const draw = (id) => {
      this.chosen = id;
      const chart = charts.find((x) => x.id === id);
      // replaceChildren would print a missing table as the word "null": only what exists goes in.
      chartBox.replaceChildren(...[barChart(chart.label, chart.dist), atLeastTable(chart.label, chart.dist)].filter(Boolean));
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
      picker, chartBox, expected, otherFigures(c), notes].filter(Boolean));
    if (first) draw(first);
  }
}

/** "Ash Wardens (10 models) with Ember Priest (hero) attack Bloom Herald (1 model)": a joined hero is named, not counted as a model of the unit. */
function matchup(answer) {
  const side = (x) => {
    const heroes = (x.heroes || []).map((hh) => `${hh.name} (hero${hh.models > 1 ? `, ${counted(hh.models, "model")}` : ""})`);
    return `${x.name} (${counted(x.models, "model")})${heroes.length ? ` with ${heroes.join(" and ")}` : ""}`;
  };
  return `${side(answer.attacker)} attack ${side(answer.defender)}`;
}

const fmt = (v) => (typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : String(v));
const avg = (v) => (typeof v === "number" ? v.toFixed(1) : "?");

/** The odds a player asks about first: routing, morale, retreat, the melee's winner. */
function headlineOdds(c, att, dfn) {
  const out = [];
  const big = (p, text) => h("div", { class: "big secondary" }, h("span", { class: "num" }, percent(p)), h("span", {}, text));
  const m = c.morale || {};
  if (m.defender && typeof m.defender.p_rout === "number") out.push(big(m.defender.p_rout, `${dfn} routed`));
  else if (typeof m.p_test === "number") out.push(big(m.p_test, `${dfn} tests morale`));
  if (m.attacker && typeof m.attacker.p_rout === "number") out.push(big(m.attacker.p_rout, `${att} routed`));
  if (c.retreat && typeof c.retreat.p_retreat === "number") out.push(big(c.retreat.p_retreat, `${dfn} retreats`));
  if (c.retreat && typeof c.retreat.p_defender_retreats === "number") out.push(big(c.retreat.p_defender_retreats, `${dfn} retreats`));
  return out.slice(0, 3);
}

/** The answer in plain sentences, both sides of a melee included. */
export function sentences(answer) {
  const att = answer.attacker.name, dfn = answer.defender.name;
  const e = answer.expected || {};
  const c = answer.consequences || {};
  const out = [];
  out.push(`${att} destroy ${dfn} in ${percent(answer.p_destroyed ?? 0)} of fights.`);
  const losses = [];
  if (e.wounds !== undefined) losses.push(`${avg(e.wounds)} wounds`);
  if (e.hp_lost !== undefined) losses.push(`${avg(e.hp_lost)} hit points`);
  if (e.models_killed !== undefined) losses.push(`${avg(e.models_killed)} models killed`);
  if (e.hits !== undefined) losses.unshift(`${avg(e.hits)} hits`);
  if (losses.length) out.push(`On average ${att} score ${losses.join(", ")}.`);
  const back = c.strike_back;
  if (back && back.expected) {
    const b = back.expected;
    out.push(`${dfn} strike back: on average ${avg(b.hits)} hits, ${avg(b.wounds)} wounds, ${avg(b.models_killed)} models killed; ${att} are wiped out in ${percent(back.p_destroyed ?? 0)}.`);
  }
  if (c.last_gasp) out.push(`${dfn} fight back with ${c.last_gasp.with || "what they have"}: ${avg(c.last_gasp.expected_damage_to_attacker)} damage to ${att} on average; ${att} destroyed in ${percent(c.last_gasp.p_attacker_destroyed ?? 0)}.`);
  if (c.melee) out.push(`Melee result: ${att} win ${percent(c.melee.p_attacker_wins)}, ${dfn} win ${percent(c.melee.p_defender_wins)}, a tie ${percent(c.melee.p_tie)}.`);
  if (c.advantage) out.push(`Assault advantage: ${att} ${percent(c.advantage.p_attacker)}, ${dfn} ${percent(c.advantage.p_defender)}, a tie ${percent(c.advantage.p_tie)}.`);
  const m = c.morale || {};
  const moraleLine = (who, x) => {
    const fail = Object.entries(x).find(([k, v]) => k.startsWith("p_") && !["p_test", "p_rout"].includes(k) && typeof v === "number");
    return `${who} take a morale test in ${percent(x.p_test ?? 0)} of fights${fail ? `: ${fail[0].slice(2)} ${percent(fail[1])}` : ""}, rout ${percent(x.p_rout ?? 0)}.`;
  };
  if (typeof m.p_test === "number") out.push(moraleLine(dfn, m));
  if (m.defender) out.push(moraleLine(dfn, m.defender));
  if (m.attacker) out.push(moraleLine(att, m.attacker));
  if (c.retreat) {
    const r = c.retreat;
    if (typeof r.p_retreat === "number") out.push(r.defender_stands ? `Retreat: ${dfn} stand their ground.` : `Retreat: ${dfn} must retreat in ${percent(r.p_retreat)}${r.p_extra_hit ? `, and take an extra hit in ${percent(r.p_extra_hit)}` : ""}.`);
    if (typeof r.p_defender_retreats === "number") out.push(`Retreat: ${dfn} fall back in ${percent(r.p_defender_retreats)}, ${att} in ${percent(r.p_attacker_retreats ?? 0)}${r.fight_again ? "; both stubborn, they fight again" : ""}.`);
  }
  if (c.terror && (c.terror.p_attacker_fails || c.terror.p_defender_fails)) out.push(`Terror: ${att} fail in ${percent(c.terror.p_attacker_fails)}, ${dfn} in ${percent(c.terror.p_defender_fails)}.`);
  if (c.pick && c.pick.name) out.push(`${c.pick.name} ${c.pick.hero ? "(a hero) " : ""}is hit first and dies in ${percent(c.pick.p_killed ?? 0)}.`);
  if (typeof c.p_shaken === "number") out.push(`${dfn} are shaken in ${percent(c.p_shaken)}.`);
  return out;
}

/** Whatever else the engine reports, as labelled figures (never distributions or raw objects). */
function otherFigures(c) {
  const handled = new Set(["strike_back", "melee", "morale", "retreat", "terror", "pick", "last_gasp", "advantage", "p_shaken"]);
  const rows = [];
  const visit = (path, value) => {
    if (value === null || value === undefined) return;
    if (typeof value === "object" && !Array.isArray(value)) {
      if ("pmf" in value) return; // a distribution: charted, not listed
      for (const [k, v] of Object.entries(value)) visit([...path, k], v);
      return;
    }
    const key = path[path.length - 1];
    const shown = typeof value === "number" && key.startsWith("p_") ? percent(value)
      : typeof value === "boolean" ? (value ? "yes" : "no")
      : Array.isArray(value) ? value.map((x) => (typeof x === "object" ? Object.values(x).join(" ") : x)).join(", ")
      : typeof value === "number" ? fmt(value) : String(value);
    const label = path.map((p) => p.replace(/^p_/, "chance ").replace(/_/g, " ")).join(", ");
    rows.push(h("tr", {}, h("th", { scope: "row" }, label.replace(/^./, (x) => x.toUpperCase())), h("td", {}, shown)));
  };
  for (const [k, v] of Object.entries(c)) if (!handled.has(k)) visit([k], v);
  return rows.length ? h("details", { class: "more-figures" }, h("summary", {}, "More figures"), h("table", { class: "consequences" }, h("tbody", {}, rows))) : null;
}

/** "At least N" for every N, readable without hovering the chart. */
function atLeastTable(label, dist) {
  const entries = Object.entries(dist.at_least || {}).map(([k, p]) => [Number(k), p]).filter(([k, p]) => k > 0 && p >= 0.0005).sort((a, b) => a[0] - b[0]);
  if (!entries.length) return null;
  return h("table", { class: "at-least" }, h("caption", {}, `${label}: chance of at least…`),
    h("thead", {}, h("tr", {}, h("th", { scope: "row" }, "At least"), entries.map(([k]) => h("th", { scope: "col" }, String(k))))),
    h("tbody", {}, h("tr", {}, h("th", { scope: "row" }, "Chance"), entries.map(([, p]) => h("td", {}, percent(p, p < 0.1 ? 1 : 0))))));
}

const SVG = "http://www.w3.org/2000/svg";
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/** An inline SVG bar chart of one distribution: outcome on x, probability on y. */
export function barChart(name, dist) {
  const entries = Object.entries(dist.pmf || {}).map(([k, p]) => [Number(k), p]).sort((a, b) => a[0] - b[0]);
  const atLeast = dist.at_least || {};
  const W = 360, H = 200, left = 34, bottom = 26, top = 18, right = 6;
  const width = W - left - right, height = H - top - bottom;
  const maxP = Math.max(...entries.map(([, p]) => p), 0.0001);
  const tick = [0.01, 0.02, 0.05, 0.1, 0.2, 0.25].find((t) => maxP / t <= 5) || 0.25;
  const ticks = Math.max(1, Math.ceil(maxP / tick - 1e-9));
  const niceMax = tick * ticks;
  const step = width / Math.max(1, entries.length);
  const bar = Math.max(2, Math.min(step * 0.75, 56));
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-labelledby": "chart-title chart-desc", id: "preview-chart" });
  svg.append(s("title", { id: "chart-title" }, `${name}: probability of each outcome`));
  svg.append(s("desc", { id: "chart-desc" }, entries.map(([k, p]) => `${k}: ${percent(p)}`).join("; ")));
  for (let i = 0; i <= ticks; i++) {
    const v = tick * i;
    const y = top + height - (v / niceMax) * height;
    svg.append(s("line", { x1: left, x2: W - right, y1: y, y2: y, class: "grid" }));
    svg.append(s("text", { x: left - 4, y: y + 3, class: "axis", "text-anchor": "end" }, `${+(v * 100).toFixed(1)}%`));
  }
  const labelEvery = Math.ceil(entries.length / 16);
  entries.forEach(([k, p], i) => {
    const x = left + i * step + (step - bar) / 2;
    const hgt = (p / niceMax) * height;
    const y = top + height - hgt;
    const rect = s("rect", { x, y, width: bar, height: Math.max(hgt, p > 0 ? 1 : 0), class: "bar" });
    rect.append(s("title", {}, `${name} ${k}: ${percent(p)} (at least ${k}: ${percent(atLeast[String(k)] ?? 0)})`));
    svg.append(rect);
    if (i % labelEvery === 0) svg.append(s("text", { x: x + bar / 2, y: H - bottom + 14, class: "axis", "text-anchor": "middle" }, k));
    if (entries.length <= 12 && p >= 0.005) svg.append(s("text", { x: x + bar / 2, y: y - 3, class: "val", "text-anchor": "middle" }, `${Math.round(p * 100)}%`));
  });
  if (dist.mean !== undefined && entries.length) {
    const lo = entries[0][0];
    const x = left + (dist.mean - lo) * step + step / 2;
    svg.append(s("line", { x1: x, x2: x, y1: top - 4, y2: top + height, class: "mean" }));
    svg.append(s("text", { x: Math.min(W - right - 2, x + 3), y: top - 6, class: "mean-label", "text-anchor": x > W - 60 ? "end" : "start" }, `mean ${fmt(dist.mean)}`));
  }
  return h("figure", { class: "chart-figure" }, svg, h("figcaption", {}, `${name}: probability of each result (mean ${fmt(dist.mean ?? 0)})`));
}
