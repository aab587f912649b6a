// The organiser's tables (the round page, event_day.js): names for tables ("Forest board") and
// players fixed to a table (a wheelchair user at the step-free table, a player who runs a stall).
// Saved with the event's day settings (PATCH /api/v1/events/<id>: table_names, fixed_tables),
// which seat every round paired after; GET /tables reads them back. A player is chosen from
// the event's players; the server keeps them by their key, so a rename keeps the table.
//
// The rows are redrawn from the server only while the organiser has typed nothing since they
// were drawn (the page reloads every 15 seconds). Every value is set as text.
import { h } from "./util.js";

/** @typedef {{names: {table: number, name: string}[], fixed: {player: string, table: number}[]}} Room */

/**
 * @param {string} value
 * @param {string} label
 * @returns {HTMLLabelElement}
 */
function tableInput(value, label) {
  return h("label", {}, label, " ", h("input", { class: "room-table", type: "number", min: "1", max: "9999", inputmode: "numeric", value }));
}

/**
 * @param {HTMLElement} row
 * @param {string} what  what the row is, for the button's name
 * @returns {HTMLButtonElement}
 */
function removeButton(row, what) {
  return h("button", { type: "button", class: "room-remove", "aria-label": `Remove ${what}`, onclick: () => { row.closest("form")?.setAttribute("data-dirty", "1"); row.remove(); } }, "Remove");
}

/**
 * A row naming a table.
 * @param {{table?: number, name?: string}} named
 * @returns {HTMLLIElement}
 */
export function nameRow(named) {
  const row = h("li", { class: "room-row" });
  row.append(tableInput(named.table ? String(named.table) : "", "Table"), " ",
    h("label", {}, "Name ", h("input", { class: "room-name", maxlength: "60", value: named.name || "" })), " ",
    removeButton(row, named.table ? `table ${named.table}’s name` : "this table name"));
  return row;
}

/**
 * A row fixing a player to a table.
 * @param {{player?: string, table?: number}} fixed
 * @param {string[]} players  every player of the event, by the name shown
 * @returns {HTMLLIElement}
 */
export function fixedRow(fixed, players) {
  const choices = fixed.player && !players.includes(fixed.player) ? [fixed.player, ...players] : players;
  const select = h("select", { class: "room-player" }, h("option", { value: "" }, "Choose a player"),
    ...choices.map((p) => h("option", { value: p }, p)));
  select.value = fixed.player || "";
  const row = h("li", { class: "room-row" });
  row.append(h("label", {}, "Player ", select), " ", tableInput(fixed.table ? String(fixed.table) : "", "Table"), " ",
    removeButton(row, fixed.player ? `${fixed.player}’s fixed table` : "this fixed table"));
  return row;
}

/**
 * Draw the tables as set into *form*, unless the organiser has typed in it since it was drawn.
 * @param {HTMLFormElement} form  holds #room-names and #room-fixed
 * @param {Room} room
 * @param {string[]} players
 * @returns {void}
 */
export function showTables(form, room, players) {
  const drawn = JSON.stringify([room, players]);
  if (form.dataset.dirty || form.dataset.drawn === drawn) return;
  form.dataset.drawn = drawn;
  /** @type {HTMLElement} */ (form.querySelector("#room-names")).replaceChildren(...room.names.map(nameRow));
  /** @type {HTMLElement} */ (form.querySelector("#room-fixed")).replaceChildren(...room.fixed.map((f) => fixedRow(f, players)));
}

/**
 * The day settings the form holds (rows left empty are skipped), or an error message.
 * @param {HTMLFormElement} form
 * @returns {{table_names: Record<string, string>, fixed_tables: Record<string, number>} | string}
 */
export function typedTables(form) {
  /** @type {Record<string, string>} */
  const names = {};
  /** @type {Record<string, number>} */
  const fixed = {};
  const value = (/** @type {Element} */ row, /** @type {string} */ selector) => /** @type {HTMLInputElement} */ (row.querySelector(selector)).value.trim();
  for (const row of form.querySelectorAll("#room-names .room-row")) {
    const [table, name] = [value(row, ".room-table"), value(row, ".room-name")];
    if (!table && !name) continue;
    if (!table || !name) return "give each named table its number and its name";
    if (names[table]) return `table ${table} is named twice`;
    names[table] = name;
  }
  const seen = new Set();
  for (const row of form.querySelectorAll("#room-fixed .room-row")) {
    const [player, table] = [value(row, ".room-player"), value(row, ".room-table")];
    if (!player && !table) continue;
    if (!player || !table) return "give each fixed player a table";
    if (seen.has(table)) return `table ${table} is given to two players: a table seats one fixed player`;
    seen.add(table);
    fixed[player] = Number(table);
  }
  return { table_names: names, fixed_tables: fixed };
}
