// Drawing a combat preview's answer (POST /api/v1/previews): the matchup, the headline odds,
// the answer in sentences, the figures and an SVG bar chart of each distribution.
import { counted, h, percent } from "./util.js";

/** @typedef {Record<string, any>} Answer  POST /api/v1/previews's answer */
/**
 * One result's distribution: probability of each outcome, and of at least each.
 * @typedef {{pmf?: Record<string, number>, at_least?: Record<string, number>, mean?: number}} Distribution
 */

/**
 * "Ash Wardens (10 models) with Ember Priest (hero) attack Bloom Herald (1 model)": a joined hero is named, not counted as a model of the unit.
 * @param {Answer} answer
 * @returns {string}
 */
export function matchup(answer) {
  const side = (/** @type {Record<string, any>} */ x) => {
    const heroes = (x.heroes || []).map((hh) => `${hh.name} (hero${hh.models > 1 ? `, ${counted(hh.models, "model")}` : ""})`);
    return `${x.name} (${counted(x.models, "model")})${heroes.length ? ` with ${heroes.join(" and ")}` : ""}`;
  };
  return `${side(answer.attacker)} ${verb(answer.attacker, "attack")} ${side(answer.defender)}`;
}

/**
 * A figure as the tables write it: whole numbers as they are, others to two places.
 * @param {unknown} v
 * @returns {string}
 */
export const fmt = (v) => (typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : String(v));
/** @param {unknown} v */
const avg = (v) => (typeof v === "number" ? v.toFixed(1) : "?");

/**
 * The verb that agrees with a side: "Ash Wardens destroy", "Anvil Battle Tank destroys". One
 * model fighting alone is one; a unit of several models (or with a hero) is many.
 * @param {Record<string, any>} side  the answer's attacker or defender
 * @param {string} many  the verb for a unit of several: "destroy"
 * @param {string} [one]  for one model alone (default: many + "s")
 * @returns {string}
 */
export const verb = (side, many, one = `${many}s`) => (side && side.models === 1 && !(side.heroes || []).length ? one : many);

/**
 * The odds a player asks about first: routing, morale, retreat, the melee's winner.
 * @param {Record<string, any>} c  the answer's consequences
 * @param {string} att  the attacker's name
 * @param {string} dfn  the defender's name
 * @param {Record<string, any>} [defender]  the answer's defender, for the verb's number
 * @returns {HTMLElement[]} at most three
 */
export function headlineOdds(c, att, dfn, defender = {}) {
  const out = [];
  const big = (/** @type {number} */ p, /** @type {string} */ text) => h("div", { class: "big secondary" }, h("span", { class: "num" }, percent(p)), h("span", {}, text));
  const m = c.morale || {};
  if (m.defender && typeof m.defender.p_rout === "number") out.push(big(m.defender.p_rout, `${dfn} routed`));
  else if (typeof m.p_test === "number") out.push(big(m.p_test, `${dfn} tests morale`));
  if (m.attacker && typeof m.attacker.p_rout === "number") out.push(big(m.attacker.p_rout, `${att} routed`));
  if (c.retreat && typeof c.retreat.p_retreat === "number") out.push(big(c.retreat.p_retreat, `${dfn} ${verb(defender, "retreat")}`));
  if (c.retreat && typeof c.retreat.p_defender_retreats === "number") out.push(big(c.retreat.p_defender_retreats, `${dfn} ${verb(defender, "retreat")}`));
  return out.slice(0, 3);
}

/**
 * The answer in plain sentences, both sides of a melee included.
 * @param {Answer} answer
 * @returns {string[]}
 */
export function sentences(answer) {
  const att = answer.attacker.name, dfn = answer.defender.name;
  const A = answer.attacker, D = answer.defender;
  const e = answer.expected || {};
  const c = answer.consequences || {};
  const out = [];
  out.push(`${att} ${verb(A, "destroy")} ${dfn} in ${percent(answer.p_destroyed ?? 0)} of fights.`);
  const losses = [];
  if (e.wounds !== undefined) losses.push(`${avg(e.wounds)} wounds`);
  if (e.hp_lost !== undefined) losses.push(`${avg(e.hp_lost)} hit points`);
  if (e.models_killed !== undefined) losses.push(`${avg(e.models_killed)} models killed`);
  if (e.hits !== undefined) losses.unshift(`${avg(e.hits)} hits`);
  if (losses.length) out.push(`On average ${att} ${verb(A, "score")} ${losses.join(", ")}.`);
  const back = c.strike_back;
  if (back && back.expected) {
    const b = back.expected;
    out.push(`${dfn} ${verb(D, "strike")} back: on average ${avg(b.hits)} hits, ${avg(b.wounds)} wounds, ${avg(b.models_killed)} models killed; ${att} ${verb(A, "are", "is")} wiped out in ${percent(back.p_destroyed ?? 0)}.`);
  }
  if (c.last_gasp) out.push(`${dfn} ${verb(D, "fight")} back with ${c.last_gasp.with || "what they have"}: ${avg(c.last_gasp.expected_damage_to_attacker)} damage to ${att} on average; ${att} destroyed in ${percent(c.last_gasp.p_attacker_destroyed ?? 0)}.`);
  if (c.melee) out.push(`Melee result: ${att} ${verb(A, "win")} ${percent(c.melee.p_attacker_wins)}, ${dfn} ${verb(D, "win")} ${percent(c.melee.p_defender_wins)}, a tie ${percent(c.melee.p_tie)}.`);
  if (c.advantage) out.push(`Assault advantage: ${att} ${percent(c.advantage.p_attacker)}, ${dfn} ${percent(c.advantage.p_defender)}, a tie ${percent(c.advantage.p_tie)}.`);
  const m = c.morale || {};
  const moraleLine = (/** @type {string} */ who, /** @type {Record<string, any>} */ x, /** @type {Record<string, any>} */ side) => {
    const fail = Object.entries(x).find(([k, v]) => k.startsWith("p_") && !["p_test", "p_rout"].includes(k) && typeof v === "number");
    return `${who} ${verb(side, "take")} a morale test in ${percent(x.p_test ?? 0)} of fights${fail ? `: ${fail[0].slice(2)} ${percent(fail[1])}` : ""}, rout ${percent(x.p_rout ?? 0)}.`;
  };
  if (typeof m.p_test === "number") out.push(moraleLine(dfn, m, D));
  if (m.defender) out.push(moraleLine(dfn, m.defender, D));
  if (m.attacker) out.push(moraleLine(att, m.attacker, A));
  if (c.retreat) {
    const r = c.retreat;
    if (typeof r.p_retreat === "number") out.push(r.defender_stands ? `Retreat: ${dfn} ${verb(D, "stand their", "stands its")} ground.` : `Retreat: ${dfn} must retreat in ${percent(r.p_retreat)}${r.p_extra_hit ? `, and take an extra hit in ${percent(r.p_extra_hit)}` : ""}.`);
    if (typeof r.p_defender_retreats === "number") out.push(`Retreat: ${dfn} ${verb(D, "fall")} back in ${percent(r.p_defender_retreats)}, ${att} in ${percent(r.p_attacker_retreats ?? 0)}${r.fight_again ? "; both stubborn, they fight again" : ""}.`);
  }
  if (c.terror && (c.terror.p_attacker_fails || c.terror.p_defender_fails)) out.push(`Terror: ${att} ${verb(A, "fail")} in ${percent(c.terror.p_attacker_fails)}, ${dfn} in ${percent(c.terror.p_defender_fails)}.`);
  if (c.pick && c.pick.name) out.push(`${c.pick.name} ${c.pick.hero ? "(a hero) " : ""}is hit first and dies in ${percent(c.pick.p_killed ?? 0)}.`);
  if (typeof c.p_shaken === "number") out.push(`${dfn} ${verb(D, "are", "is")} shaken in ${percent(c.p_shaken)}.`);
  return out;
}

/**
 * Whatever else the engine reports, as labelled figures (never distributions or raw objects).
 * @param {Record<string, any>} c  the answer's consequences
 * @returns {HTMLDetailsElement | null} null when there is nothing else
 */
export function otherFigures(c) {
  const handled = new Set(["strike_back", "melee", "morale", "retreat", "terror", "pick", "last_gasp", "advantage", "p_shaken"]);
  const rows = [];
  /** @type {(path: string[], value: unknown) => void} */
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

/**
 * "At least N" for every N, readable without hovering the chart.
 * @param {string} label
 * @param {Distribution} dist
 * @returns {HTMLTableElement | null} null when no outcome above 0 is likely enough to show
 */
export function atLeastTable(label, dist) {
  const entries = Object.entries(dist.at_least || {}).map(([k, p]) => [Number(k), p]).filter(([k, p]) => k > 0 && p >= 0.0005).sort((a, b) => a[0] - b[0]);
  if (!entries.length) return null;
  return h("table", { class: "at-least" }, h("caption", {}, `${label}: chance of at least…`),
    h("thead", {}, h("tr", {}, h("th", { scope: "row" }, "At least"), entries.map(([k]) => h("th", { scope: "col" }, String(k))))),
    h("tbody", {}, h("tr", {}, h("th", { scope: "row" }, "Chance"), entries.map(([, p]) => h("td", {}, percent(p, p < 0.1 ? 1 : 0))))));
}

const SVG = "http://www.w3.org/2000/svg";
/**
 * h() for SVG elements.
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {...(Node | string | number)} children
 * @returns {SVGElement}
 */
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/**
 * An inline SVG bar chart of one distribution: outcome on x, probability on y.
 * @param {string} name  what is counted: "Wounds"
 * @param {Distribution} dist
 * @returns {HTMLElement} a figure with the chart and its caption
 */
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
