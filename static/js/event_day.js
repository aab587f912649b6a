// The organiser's round page (/events/<id>/day), made for a phone at the venue: start the next
// round, see every table, enter or override a result with one tap, swap two players before
// their games start, withdraw or reinstate a player.
//
// The organiser token comes as on the event page: from the fragment (#organiser=<token>, which
// browsers never send) or from this browser's memory (localStorage "listbuilder.events"), or
// typed into the form. Every value shown is set as text, never as HTML.
import { ApiError, api, byId, errorBox, h } from "./util.js";
import { bearer } from "./saved_store.js";

const root = byId("day");
const id = root.dataset.id || "";
const { scoring } = root.dataset;
const eventUrl = `/api/v1/events/${encodeURIComponent(id)}`;
const KEY = "listbuilder.events";
const status = byId("day-status");
const controls = byId("day-controls");
const tokenForm = byId("day-token-form");

/**
 * A table of the round, as the API sends it.
 * @typedef {{table: number, players: [string, string | null], status: string, scores?: Record<string, {outcome: string, points: number}>, result?: Record<string, any>}} Table
 */

/** @returns {Record<string, {organiser?: string | null, players?: unknown}>} what this browser keeps per event (see event.js) */
function memory() {
  try { const all = JSON.parse(localStorage.getItem(KEY) || "{}"); return all && typeof all === "object" ? all : {}; } catch { return {}; }
}
/** @param {string | null} token */
function keep(token) {
  const all = memory();
  all[id] = { players: {}, ...(all[id] || {}), organiser: token };
  try { localStorage.setItem(KEY, JSON.stringify(all)); } catch { /* private mode */ }
}
const token = () => (memory()[id] || {}).organiser;

const hash = /^#organiser=(.+)$/.exec(location.hash);
if (hash) {
  history.replaceState(null, "", location.pathname + location.search);  // the token leaves the address bar
  keep(decodeURIComponent(hash[1]));
}

/**
 * The API, with the organiser token (open() asks for one before anything calls this).
 * @param {string} path  under the event's URL
 * @param {{method?: string, body?: unknown}} [options]
 * @returns {Promise<any>}
 */
async function call(path, options = {}) {
  return api(`${eventUrl}${path}`, { ...options, headers: bearer(/** @type {string} */ (token())) });
}

/** @param {string} text */
function say(text) { status.replaceChildren(h("p", {}, text)); }

/**
 * A played table's result as typed into its card.
 * @param {Table} t
 * @param {HTMLElement} card
 * @returns {Record<string, any>}
 */
function resultBody(t, card) {
  const [a, b] = /** @type {[string, string]} */ (t.players);  // a bye has no result to enter
  /** @type {(selector: string) => HTMLInputElement} */
  const input = (selector) => /** @type {HTMLInputElement} */ (card.querySelector(selector));
  if (scoring === "victory-points") {
    const keys = (/** @type {string} */ name) => input(`[data-side="${name}"]`).value.split(",").map((s) => s.trim()).filter(Boolean);
    return { sides: { [a]: { destroyed: keys(`${a}-destroyed`), crippled: keys(`${a}-crippled`) }, [b]: { destroyed: keys(`${b}-destroyed`), crippled: keys(`${b}-crippled`) } } };
  }
  const second = (/** @type {string} */ name) => Number(input(`[data-secondary="${name}"]`).value || 0);
  return { secondary: { [a]: second(a), [b]: second(b) } };
}

/**
 * @param {Table} t
 * @param {HTMLElement} card
 * @returns {HTMLDivElement}
 */
function outcomeButtons(t, card) {
  const [a, b] = /** @type {[string, string]} */ (t.players);
  const send = (/** @type {Record<string, string>} */ outcome) => async () => {
    await record(t, { ...resultBody(t, card), outcome });
  };
  return h("div", { class: "choices" },
    h("button", { type: "button", onclick: send({ [a]: "win", [b]: "loss" }) }, `${a} won`),
    h("button", { type: "button", onclick: send({ [a]: "draw", [b]: "draw" }) }, "Draw"),
    h("button", { type: "button", onclick: send({ [a]: "loss", [b]: "win" }) }, `${b} won`));
}

/**
 * @param {Table} t
 * @returns {HTMLDivElement}
 */
function hexInputs(t) {
  return h("div", { class: "sides" }, t.players.flatMap((name) => [
    h("label", {}, `${name} destroyed (unit keys, commas)`, h("input", { "data-side": `${name}-destroyed`, autocomplete: "off" })),
    h("label", {}, `${name} crippled`, h("input", { "data-side": `${name}-crippled`, autocomplete: "off" })),
  ]));
}

/**
 * @param {Table} t
 * @returns {HTMLLIElement}
 */
function tableCard(t) {
  const [a, b] = t.players;
  const card = h("li", { class: "table-card" },
    h("span", { class: "table-no" }, `Table ${t.table}`),
    h("span", { class: "players" }, a, h("span", { class: "versus" }, " v "), b ?? "bye"),
    h("span", { class: `badge status-${t.status}` }, t.status));
  if (t.scores) card.append(h("span", { class: "meta" }, Object.entries(t.scores).map(([p, s]) => `${p}: ${s.outcome}, ${s.points}`).join(" · ")));
  if (b === null) return card;
  if (scoring === "victory-points") {
    card.append(hexInputs(t), h("button", { type: "button", class: "primary", onclick: () => record(t, resultBody(t, card)) }, t.status === "open" ? "Enter result" : "Override result"));
  } else {
    card.append(h("div", { class: "secondary" }, /** @type {string[]} */ (t.players).map((name) => h("label", {}, `${name} secondary`, h("input", { type: "number", inputmode: "decimal", "data-secondary": name, value: t.result?.secondary?.[name] ?? "" })))), outcomeButtons(t, card));
  }
  return card;
}

/**
 * @param {Table} t
 * @param {Record<string, any>} body
 */
async function record(t, body) {
  say(`Saving table ${t.table}…`);
  try {
    await call(`/rounds/${currentRound().number}/results`, { method: "POST", body: { table: t.table, ...body } });
    say(`Table ${t.table} saved.`);
    await load();
  } catch (err) { status.replaceChildren(errorBox(err, `Table ${t.table} not saved`)); }
}

/** @type {{number: number, pairings: Table[]} | null} the latest round */
let current = null;
/** @returns {{number: number, pairings: Table[]}} the latest round, where there is one (its tables are on the page) */
const currentRound = () => /** @type {{number: number, pairings: Table[]}} */ (current);

async function load() {
  const [rounds, standings] = await Promise.all([call("/rounds"), call("/standings")]);
  current = rounds.rounds.at(-1) || null;
  controls.hidden = false;
  tokenForm.hidden = true;
  byId("round-title").textContent = current ? `Round ${current.number}` : "No round yet";
  const done = current ? current.pairings.filter((t) => ["confirmed", "decided", "bye"].includes(t.status)).length : 0;
  byId("round-summary").textContent = current ? `${done} of ${current.pairings.length} tables have a result.` : `${standings.standings.length} players.`;
  byId("day-tables").replaceChildren(...(current ? current.pairings.map(tableCard) : []));
  const print = byId("print-pairings", HTMLAnchorElement);
  print.hidden = !current;
  if (current) print.href = `${eventUrl}/rounds/${current.number}/pairings.pdf`;
  const options = (/** @type {string[]} */ names) => names.map((name) => h("option", { value: name }, name));
  /** @type {{player: string, withdrawn?: boolean}[]} */
  const rows = standings.standings;
  const playing = rows.filter((s) => !s.withdrawn).map((s) => s.player);
  const withdrawn = rows.filter((s) => s.withdrawn).map((s) => s.player);
  byId("withdraw-player").replaceChildren(...options(playing));
  byId("reinstate-player").replaceChildren(...options(withdrawn));
  byId("reinstate-form").hidden = withdrawn.length === 0;
  const seated = current ? current.pairings.flatMap((t) => t.players).filter((p) => p !== null) : [];
  byId("swap-form").hidden = seated.length < 4;
  byId("swap-first").replaceChildren(...options(seated));
  byId("swap-second").replaceChildren(...options(seated));
}

/**
 * A form whose submit posts {player} (or what *body* builds) to *path*, then reloads the round.
 * @param {string} formId
 * @param {() => string} path
 * @param {() => Record<string, unknown>} body
 * @param {() => string} done  what to say once done
 */
function action(formId, path, body, done) {
  byId(formId).addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await call(path(), { method: "POST", body: body() });
      say(done());
      await load();
    } catch (err) { status.replaceChildren(errorBox(err, "Not done")); }
  });
}

const value = (/** @type {string} */ id) => byId(id, HTMLSelectElement).value;
action("withdraw-form", () => "/withdrawals", () => ({ player: value("withdraw-player") }), () => `${value("withdraw-player")} is withdrawn from later rounds.`);
action("reinstate-form", () => "/reinstatements", () => ({ player: value("reinstate-player") }), () => "Reinstated: paired again from the next round.");
action("swap-form", () => `/rounds/${currentRound().number}/swaps`, () => ({ players: [value("swap-first"), value("swap-second")] }), () => "Swapped.");

byId("start-round").addEventListener("click", async () => {
  say("Pairing the next round…");
  try {
    const body = await call("/rounds", { method: "POST", body: {} });
    say(`Round ${body.number} paired: ${body.pairings.length} tables.`);
    await load();
  } catch (err) { status.replaceChildren(errorBox(err, "The round did not start")); }
});

tokenForm.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  keep(byId("day-token", HTMLInputElement).value.trim());
  await open();
});

async function open() {
  if (!token()) { tokenForm.hidden = false; return; }
  try {
    await call("/log");  // checks the token before anything is shown
    await load();
    status.replaceChildren();
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) keep(null);
    tokenForm.hidden = false;
    controls.hidden = true;
    status.replaceChildren(errorBox(err, "Could not open the rounds"));
  }
}

open();
