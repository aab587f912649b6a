// Combat preview: a unit of the list against any unit of any book of the same system,
// POST /api/v1/previews, and the answer drawn as an SVG bar chart.
import { api, errorBox, h, humanize, percent } from "./util.js";

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
    this.buildSituation();
    this.bookSelect.addEventListener("change", () => this.loadDefenders());
    this.form.addEventListener("submit", (e) => { e.preventDefault(); this.run(); });
  }

  async init(books) {
    this.bookSelect.replaceChildren(...books.map((b) => h("option", { value: b.id, selected: b.id === this.ctx.book.id }, b.name)));
    await this.loadDefenders();
  }

  async loadDefenders() {
    const id = this.bookSelect.value;
    // Disabled while the book loads, so nobody (and no test) can pick the placeholder.
    this.defender.disabled = true;
    this.defender.replaceChildren(h("option", { value: "" }, "Loading…"));
    try {
      const book = await this.ctx.bookCache(id);
      if (id !== this.bookSelect.value) return; // another book was picked meanwhile
      this.defender.replaceChildren(...book.units.map((u) => h("option", { value: u.id }, u.name)));
      this.defender.disabled = false;
    } catch (err) {
      this.defender.replaceChildren();
      this.result.replaceChildren(errorBox(err, "Could not load that army book"));
    }
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
    const names = Object.keys(answer.distributions || {});
    const first = this.chosen && names.includes(this.chosen) ? this.chosen : PREFERRED.find((n) => names.includes(n)) || names[0];
    const chartBox = h("div", { class: "chart-box" });
    const draw = (name) => { this.chosen = name; chartBox.replaceChildren(barChart(name, answer.distributions[name])); };
    const picker = names.length > 1 ? h("div", { class: "dist-picker", role: "radiogroup", "aria-label": "Distribution to chart" },
      names.map((n) => {
        const id = `pv-dist-${n}`;
        return h("span", { class: "seg" },
          h("input", { type: "radio", name: "pv-dist", id, value: n, checked: n === first, onchange: () => draw(n) }),
          h("label", { for: id }, humanize(n)));
      })) : null;
    const headline = h("div", { class: "headline" },
      h("div", { class: "big" }, h("span", { class: "num", id: "pv-destroyed" }, percent(answer.p_destroyed ?? 0)), h("span", {}, "chance to destroy")),
      ...routLines(answer.consequences));
    const expected = h("table", { class: "expected" }, h("caption", {}, "Expected values"),
      h("tbody", {}, Object.entries(answer.expected || {}).map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, humanize(k)), h("td", {}, fmt(v))))));
    const consequences = consequenceList(answer.consequences || {});
    const notes = (answer.notes || []).length ? h("details", { class: "notes" }, h("summary", {}, "How the engine read it"), h("ul", {}, answer.notes.map((n) => h("li", {}, n)))) : null;
    this.result.replaceChildren(
      h("p", { class: "matchup" }, `${answer.attacker.name} (${answer.attacker.models}) → ${answer.defender.name} (${answer.defender.models})`),
      headline, picker, chartBox, expected, consequences, notes);
    if (first) draw(first);
  }
}

const fmt = (v) => (typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : String(v));

/** Headline probabilities from the consequences: anything about routing, morale or retreat. */
function routLines(consequences) {
  const out = [];
  walk(consequences || {}, [], (path, value) => {
    const key = path[path.length - 1];
    if (typeof value === "number" && key.startsWith("p_") && /rout|morale|retreat|shaken|wavering/.test(path.join("."))) {
      const words = path.join(" ").replace(/\bp_/g, "").replace(/_/g, " ");
      out.push([/rout/.test(words) ? 0 : 1, h("div", { class: "big secondary" }, h("span", { class: "num" }, percent(value)), h("span", {}, `chance of ${words}`))]);
    }
  });
  return out.sort((a, b) => a[0] - b[0]).slice(0, 3).map(([, el]) => el);
}

function walk(value, path, visit) {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) walk(v, [...path, k], visit);
  } else if (path.length) visit(path, value);
}

function consequenceList(consequences) {
  const rows = [];
  walk(consequences, [], (path, value) => {
    const key = path[path.length - 1];
    const shown = typeof value === "number" && key.startsWith("p_") ? percent(value) : typeof value === "number" ? fmt(value) : Array.isArray(value) ? value.join(", ") : String(value);
    rows.push(h("tr", {}, h("th", { scope: "row" }, humanize(path.join(" · ").replace(/\bp_/g, "chance of "))), h("td", {}, shown)));
  });
  return rows.length ? h("table", { class: "consequences" }, h("caption", {}, "Consequences"), h("tbody", {}, rows)) : null;
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
  svg.append(s("title", { id: "chart-title" }, `${humanize(name)}: probability of each outcome`));
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
    rect.append(s("title", {}, `${humanize(name)} ${k}: ${percent(p)} (at least ${k}: ${percent(atLeast[String(k)] ?? 0)})`));
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
  return h("figure", { class: "chart-figure" }, svg, h("figcaption", {}, `${humanize(name)} — probability of each result (mean ${fmt(dist.mean ?? 0)})`));
}
