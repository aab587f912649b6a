// The organiser's round page (/events/<id>/day), made for a phone at the venue: start the next
// round, see every table, enter or override a result with one tap, swap two players before
// their games start, withdraw or reinstate a player.
//
// The organiser token comes as on the event page: from the fragment (#organiser=<token>, which
// browsers never send) or from this browser's memory (localStorage "listbuilder.events"), or
// typed into the form. Every value shown is set as text, never as HTML.
import { ApiError, api, errorBox, h } from "./util.js";
import { bearer } from "./saved_store.js";

const root = document.getElementById("day");
const { id, scoring } = root.dataset;
const eventUrl = `/api/v1/events/${encodeURIComponent(id)}`;
const KEY = "listbuilder.events";
const status = document.getElementById("day-status");
const controls = document.getElementById("day-controls");
const tokenForm = document.getElementById("day-token-form");

function memory() {
  try { const all = JSON.parse(localStorage.getItem(KEY) || "{}"); return all && typeof all === "object" ? all : {}; } catch { return {}; }
}
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

async function call(path, options = {}) {
  return api(`${eventUrl}${path}`, { ...options, headers: bearer(token()) });
}

function say(text) { status.replaceChildren(h("p", {}, text)); }

function resultBody(t, card) {
  const [a, b] = t.players;
  if (scoring === "victory-points") {
    const keys = (name) => card.querySelector(`[data-side="${name}"]`).value.split(",").map((s) => s.trim()).filter(Boolean);
    return { sides: { [a]: { destroyed: keys(`${a}-destroyed`), crippled: keys(`${a}-crippled`) }, [b]: { destroyed: keys(`${b}-destroyed`), crippled: keys(`${b}-crippled`) } } };
  }
  const second = (name) => Number(card.querySelector(`[data-secondary="${name}"]`).value || 0);
  return { secondary: { [a]: second(a), [b]: second(b) } };
}

function outcomeButtons(t, card) {
  const [a, b] = t.players;
  const send = (outcome) => async () => {
    await record(t, { ...resultBody(t, card), outcome });
  };
  return h("div", { class: "choices" },
    h("button", { type: "button", onclick: send({ [a]: "win", [b]: "loss" }) }, `${a} won`),
    h("button", { type: "button", onclick: send({ [a]: "draw", [b]: "draw" }) }, "Draw"),
    h("button", { type: "button", onclick: send({ [a]: "loss", [b]: "win" }) }, `${b} won`));
}

function hexInputs(t) {
  return h("div", { class: "sides" }, t.players.flatMap((name) => [
    h("label", {}, `${name} destroyed (unit keys, commas)`, h("input", { "data-side": `${name}-destroyed`, autocomplete: "off" })),
    h("label", {}, `${name} crippled`, h("input", { "data-side": `${name}-crippled`, autocomplete: "off" })),
  ]));
}

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
    card.append(h("div", { class: "secondary" }, t.players.map((name) => h("label", {}, `${name} secondary`, h("input", { type: "number", inputmode: "decimal", "data-secondary": name, value: t.result?.secondary?.[name] ?? "" })))), outcomeButtons(t, card));
  }
  return card;
}

async function record(t, body) {
  say(`Saving table ${t.table}…`);
  try {
    await call(`/rounds/${current.number}/results`, { method: "POST", body: { table: t.table, ...body } });
    say(`Table ${t.table} saved.`);
    await load();
  } catch (err) { status.replaceChildren(errorBox(err, `Table ${t.table} not saved`)); }
}

let current = null;

async function load() {
  const [rounds, standings] = await Promise.all([call("/rounds"), call("/standings")]);
  current = rounds.rounds.at(-1) || null;
  controls.hidden = false;
  tokenForm.hidden = true;
  document.getElementById("round-title").textContent = current ? `Round ${current.number}` : "No round yet";
  const done = current ? current.pairings.filter((t) => ["confirmed", "decided", "bye"].includes(t.status)).length : 0;
  document.getElementById("round-summary").textContent = current ? `${done} of ${current.pairings.length} tables have a result.` : `${standings.standings.length} players.`;
  document.getElementById("day-tables").replaceChildren(...(current ? current.pairings.map(tableCard) : []));
  const print = document.getElementById("print-pairings");
  print.hidden = !current;
  if (current) print.href = `${eventUrl}/rounds/${current.number}/pairings.pdf`;
  const options = (names) => names.map((name) => h("option", { value: name }, name));
  const playing = standings.standings.filter((s) => !s.withdrawn).map((s) => s.player);
  const withdrawn = standings.standings.filter((s) => s.withdrawn).map((s) => s.player);
  document.getElementById("withdraw-player").replaceChildren(...options(playing));
  document.getElementById("reinstate-player").replaceChildren(...options(withdrawn));
  document.getElementById("reinstate-form").hidden = withdrawn.length === 0;
  const seated = current ? current.pairings.flatMap((t) => t.players).filter((p) => p !== null) : [];
  document.getElementById("swap-form").hidden = seated.length < 4;
  document.getElementById("swap-first").replaceChildren(...options(seated));
  document.getElementById("swap-second").replaceChildren(...options(seated));
}

/** A form whose submit posts {player} (or what *body* builds) to *path*, then reloads the round. */
function action(formId, path, body, done) {
  document.getElementById(formId).addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await call(path(), { method: "POST", body: body() });
      say(done());
      await load();
    } catch (err) { status.replaceChildren(errorBox(err, "Not done")); }
  });
}

const value = (id) => document.getElementById(id).value;
action("withdraw-form", () => "/withdrawals", () => ({ player: value("withdraw-player") }), () => `${value("withdraw-player")} is withdrawn from later rounds.`);
action("reinstate-form", () => "/reinstatements", () => ({ player: value("reinstate-player") }), () => "Reinstated: paired again from the next round.");
action("swap-form", () => `/rounds/${current.number}/swaps`, () => ({ players: [value("swap-first"), value("swap-second")] }), () => "Swapped.");

document.getElementById("start-round").addEventListener("click", async () => {
  say("Pairing the next round…");
  try {
    const body = await call("/rounds", { method: "POST", body: {} });
    say(`Round ${body.number} paired: ${body.pairings.length} tables.`);
    await load();
  } catch (err) { status.replaceChildren(errorBox(err, "The round did not start")); }
});

tokenForm.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  keep(document.getElementById("day-token").value.trim());
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
