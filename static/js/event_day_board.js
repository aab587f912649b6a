// The organiser's table board (the round page, event_day.js): one card per table, showing
// open, waiting, disputed (both entries side by side, one tap to count either), confirmed or
// decided, with the inputs to enter or override a result.
//
// The board is updated in place: a card is redrawn only when its table changed, and never while
// the organiser is typing in it (focus inside, or a value typed since it was drawn), so scores
// typed into the next table survive a save of this one. Every value is set as text.
import { h } from "./util.js";

/**
 * A table of the round, as the API sends it.
 * @typedef {{table: number, table_name?: string | null, players: [string, string | null], status: string, scores?: Record<string, {outcome: string, points: number}> | null, result?: Record<string, any> | null, entries?: {by: string, result: Record<string, any>}[]}} Table
 */
/** @typedef {(t: Table, body: Record<string, any>) => void} Record_ */

/**
 * A table as the room knows it: its number, and its name when the organiser gave one.
 * @param {{table: number, table_name?: string | null}} t
 * @param {string} [word]  how the label starts
 * @returns {string}
 */
export function tableLabel(t, word = "Table") {
  return t.table_name ? `${word} ${t.table} · ${t.table_name}` : `${word} ${t.table}`;
}

/**
 * A result in words (players in the table's order).
 * @param {Record<string, any>} result
 * @param {(string | null)[]} order
 * @returns {string}
 */
export function inWords(result, order) {
  const names = /** @type {string[]} */ (order.filter((p) => p !== null));
  if (result.sides) return names.map((p) => `${p} destroyed ${(result.sides[p]?.destroyed || []).join(", ") || "nothing"}; crippled ${(result.sides[p]?.crippled || []).join(", ") || "nothing"}`).join(". ");
  const winner = names.find((p) => result.outcome[p] === "win");
  const second = result.secondary ? ` (secondary ${names.map((p) => `${p} ${result.secondary[p]}`).join(", ")})` : "";
  return (winner ? `${winner} won` : "A draw") + second;
}

/**
 * The result typed into a card, or an error message.
 * @param {Table} t
 * @param {HTMLElement} card
 * @param {string | undefined} scoring
 * @returns {Record<string, any> | string}
 */
function typed(t, card, scoring) {
  const [a, b] = /** @type {[string, string]} */ (t.players);
  /** @type {(selector: string) => HTMLInputElement} */
  const input = (selector) => /** @type {HTMLInputElement} */ (card.querySelector(selector));
  if (scoring === "victory-points") {
    const keys = (/** @type {string} */ name) => input(`[data-side="${CSS.escape(name)}"]`).value.split(",").map((s) => s.trim()).filter(Boolean);
    return { sides: { [a]: { destroyed: keys(`${a}-destroyed`), crippled: keys(`${a}-crippled`) }, [b]: { destroyed: keys(`${b}-destroyed`), crippled: keys(`${b}-crippled`) } } };
  }
  const [sa, sb] = [a, b].map((name) => input(`[data-secondary="${CSS.escape(name)}"]`).value.trim());
  if ((sa === "") !== (sb === "")) return "give both secondary scores, or neither";  // an empty box is never a 0
  return sa === "" ? {} : { secondary: { [a]: Number(sa), [b]: Number(sb) } };
}

/**
 * @param {Table} t
 * @param {string | undefined} scoring
 * @param {Record_} record
 * @param {(text: string) => void} complain
 * @returns {HTMLLIElement}
 */
function tableCard(t, scoring, record, complain) {
  const [a, b] = t.players;
  const card = h("li", { class: `table-card status-${t.status}`, dataset: { table: String(t.table) } },
    h("span", { class: "table-no" }, tableLabel(t)),
    h("span", { class: "players" }, a, h("span", { class: "versus" }, " v "), b ?? "bye"),
    h("span", { class: `badge status-${t.status}` }, t.status));
  card.addEventListener("input", () => { card.dataset.dirty = "1"; });
  /** @param {Record<string, any>} body  sent from this card: it may be redrawn with the answer */
  const go = (body) => {
    delete card.dataset.dirty;
    if (document.activeElement instanceof HTMLElement && card.contains(document.activeElement)) document.activeElement.blur();
    record(t, body);
  };
  if (t.scores) card.append(h("span", { class: "meta" }, Object.entries(t.scores).map(([p, s]) => `${p}: ${s.outcome}, ${s.points}`).join(" · ")));
  if (b === null) return card;
  if (t.status === "disputed" && t.entries) {
    card.append(h("div", { class: "entries" }, t.entries.map((e) => h("div", { class: "entry" },
      h("p", {}, h("strong", {}, `${e.by}: `), inWords(e.result, t.players)),
      h("button", { type: "button", class: "primary", onclick: () => go(e.result) }, `Count ${e.by}’s`)))));
  } else if (t.status === "waiting" && t.result) {
    card.append(h("p", { class: "meta" }, `Entered: ${inWords(t.result, t.players)}`));
  }
  const send = (/** @type {Record<string, string> | null} */ outcome) => () => {
    const body = typed(t, card, scoring);
    if (typeof body === "string") { complain(`Table ${t.table}: ${body}.`); return; }
    go(outcome ? { ...body, outcome } : body);
  };
  if (scoring === "victory-points") {
    card.append(h("div", { class: "sides" }, t.players.flatMap((name) => [
      h("label", {}, `${name} destroyed (unit keys, commas)`, h("input", { "data-side": `${name}-destroyed`, autocomplete: "off" })),
      h("label", {}, `${name} crippled`, h("input", { "data-side": `${name}-crippled`, autocomplete: "off" })),
    ])), h("button", { type: "button", class: "primary", onclick: send(null) }, t.status === "open" ? "Enter result" : "Override result"));
  } else {
    card.append(h("div", { class: "secondary" }, [a, b].map((name) => h("label", {}, `${name} secondary`,
      h("input", { type: "number", inputmode: "decimal", "data-secondary": name, value: t.result?.secondary?.[/** @type {string} */ (name)] ?? "" })))),
    h("div", { class: "choices" },
      h("button", { type: "button", onclick: send({ [a]: "win", [b]: "loss" }) }, `${a} won`),
      h("button", { type: "button", onclick: send({ [a]: "draw", [b]: "draw" }) }, "Draw"),
      h("button", { type: "button", onclick: send({ [a]: "loss", [b]: "win" }) }, `${b} won`)));
  }
  return card;
}

/**
 * Bring the board in *list* up to *tables*, redrawing only the cards whose table changed and
 * leaving alone a card being typed in (it is marked as changed elsewhere instead).
 * @param {HTMLElement} list
 * @param {number} round
 * @param {Table[]} tables
 * @param {{scoring: string | undefined, record: Record_, complain: (text: string) => void}} how
 * @returns {void}
 */
export function updateBoard(list, round, tables, how) {
  /** @type {Map<string, HTMLElement>} */
  const shown = new Map([...list.children].map((el) => [/** @type {HTMLElement} */ (el).dataset.key || "", /** @type {HTMLElement} */ (el)]));
  const keys = tables.map((t) => `${round}:${t.table}`);
  const fresh = tables.map((t, i) => {
    const text = JSON.stringify(t);
    const old = shown.get(keys[i]);
    if (old && old.dataset.drawn === text) return old;
    if (old && (old.dataset.dirty === "1" || old.contains(document.activeElement))) {
      if (!old.querySelector(".stale")) old.append(h("p", { class: "stale notice" }, "This table changed meanwhile: what you send still counts, or reload."));
      return old;
    }
    const card = tableCard(t, how.scoring, how.record, how.complain);
    Object.assign(card.dataset, { key: keys[i], drawn: text });
    if (old) old.replaceWith(card);
    return card;
  });
  const same = keys.length === shown.size && keys.every((k) => shown.has(k));
  if (!same) list.replaceChildren(...fresh);
}
