// A player's own page for an event (/events/<id>/me): their list, check-in, this round's table
// and opponent, their result to enter, confirm or dispute, and their standing.
//
// The player token comes from the fragment (#player=<token>: the link for another device, which
// browsers never send) or from this browser's memory (localStorage "listbuilder.events", where
// the event page keeps the token of a first submission), or is pasted into the form. The page
// asks again every 20 seconds; a section is redrawn only when what it shows changed, and the
// result form never while something is typed in it. Every value is set as text, never as HTML,
// but for the opponent's unit cards, which the server renders (escaped) from list_cards.html.
import { ApiError, api, byId, errorBox, h } from "./util.js";
import { bearer, copyText } from "./saved_store.js";
import { showTimer } from "./event_timer.js";
import { tableLabel } from "./event_day_board.js";

const root = byId("me");
const id = root.dataset.id || "";
const { scoring } = root.dataset;
const eventUrl = `/api/v1/events/${encodeURIComponent(id)}`;
const KEY = "listbuilder.events";
const status = byId("me-status");
const REFRESH_MS = 20000;
showTimer(root, id);

/** @typedef {{player: string, token: string}} KeptPlayer */
/** @typedef {{organiser?: string | null, players: Record<string, KeptPlayer>, me?: string}} Kept */

/** @returns {Record<string, Kept>} */
function memory() {
  try { const all = JSON.parse(localStorage.getItem(KEY) || "{}"); return all && typeof all === "object" ? all : {}; } catch { return {}; }
}
/** @returns {Kept} */
const known = () => ({ ...(memory()[id] || {}), players: (memory()[id] || {}).players || {} });
/** @param {Partial<Kept>} change */
function keep(change) {
  const all = memory();
  all[id] = { ...known(), ...change };
  try { localStorage.setItem(KEY, JSON.stringify(all)); } catch { /* private mode: the link still works */ }
}
const playerKey = (/** @type {string} */ name) => name.normalize("NFKC").replace(/\s+/g, " ").trim().toLowerCase();

/** @type {string | null} the token this page acts with */
let token = null;

/**
 * @param {string} path  under the event's URL
 * @param {{method?: string, body?: unknown}} [options]
 * @returns {Promise<any>}
 */
const call = (path, options = {}) => api(`${eventUrl}${path}`, { ...options, headers: bearer(/** @type {string} */ (token)) });

/** @param {string} text */
const say = (text) => status.replaceChildren(h("p", {}, text));

// ---- drawing ------------------------------------------------------------------------------

/** @type {Record<string, string>} what each section was last drawn from */
const drawn = {};
/**
 * Redraw section *name* only when its data changed.
 * @param {string} name
 * @param {unknown} data
 * @param {() => void} draw
 */
function redraw(name, data, draw) {
  const text = JSON.stringify(data);
  if (drawn[name] === text) return;
  drawn[name] = text;
  draw();
}

/** @param {Record<string, any>} entry */
function drawEntry(entry) {
  const legal = entry.valid ? h("span", { class: "badge ok" }, "Legal") : h("span", { class: "badge bad" }, "Not legal");
  byId("me-entry").replaceChildren(
    h("p", {}, legal, " ", h("a", { href: `/l/${encodeURIComponent(entry.list_id)}?version=${entry.list_version}` }, "Open my list"), ` · ${entry.points}`),
    h("p", {}, "Verification code ", h("code", { class: "verification-code" }, entry.verification_code)),
    entry.problems.length ? h("ul", { class: "entry-notes" }, entry.problems.map((/** @type {string} */ p) => h("li", { class: "note error" }, p))) : "");
}

/**
 * A result in words, its players by name and armour-hex units by name.
 * @param {Record<string, any>} result
 * @param {Record<string, string>} names  unit key -> name, of both lists
 * @param {string[]} order  the table's players, in its order
 * @returns {string}
 */
function inWords(result, names, order) {
  if (result.sides) {
    const list = (/** @type {string[]} */ keys) => keys.map((k) => names[k] || k).join(", ") || "nothing";
    return order.map((p) => `${p} destroyed ${list(result.sides[p].destroyed)}; crippled ${list(result.sides[p].crippled)}`).join(". ");
  }
  const outcome = Object.entries(result.outcome);
  const winner = outcome.find(([, o]) => o === "win");
  const second = result.secondary ? ` (secondary ${order.map((p) => `${p} ${result.secondary[p]}`).join(", ")})` : "";
  return (winner ? `${winner[0]} won` : "A draw") + second;
}

/** Set once the player types into the result form: the refresh then leaves the form alone. */
let typing = false;

/**
 * The form to enter (or dispute with) a result.
 * @param {Record<string, any>} body  the /me answer
 * @returns {HTMLFormElement}
 */
function resultForm(body) {
  const t = body.table;
  const me = body.player;
  const them = t.opponent;
  const form = h("form", { class: "event-form result-form" });
  form.addEventListener("input", () => { typing = true; });
  if (scoring === "victory-points") {
    /** @param {{key: string, name: string}[]} units @param {string} side @param {string} legend */
    const ticks = (units, side, legend) => h("fieldset", {}, h("legend", {}, legend), units.map((u) =>
      h("label", { class: "tick" }, `${u.name} `, h("select", { "data-side": side, "data-key": u.key, "aria-label": `${u.name}: what happened to it` },
        h("option", { value: "" }, "untouched"), h("option", { value: "crippled" }, "crippled"), h("option", { value: "destroyed" }, "destroyed")))));
    form.append(ticks(t.opponent_list ? t.opponent_list.units : [], me, `${them}’s units: what you did to them`),
      ticks(body.entry.units, them, `Your units: what ${them} did to them`));
  } else {
    form.append(h("fieldset", {}, h("legend", {}, "Result"),
      ...[["win", "I won"], ["draw", "Draw"], ["loss", "I lost"]].map(([value, label]) =>
        h("label", { class: "choice" }, h("input", { type: "radio", name: "outcome", value, required: true }), ` ${label}`))),
    h("div", { class: "secondary" },
      h("label", {}, "My secondary score", h("input", { type: "number", inputmode: "decimal", name: "mine", required: true })),
      h("label", {}, `${them}’s secondary score`, h("input", { type: "number", inputmode: "decimal", name: "theirs", required: true }))));
  }
  form.append(h("button", { class: "primary", type: "submit" }, "Send my result"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    send(t, resultOf(form, me, them));
  });
  return form;
}

/**
 * @param {HTMLFormElement} form
 * @param {string} me
 * @param {string} them
 * @returns {Record<string, any>}
 */
function resultOf(form, me, them) {
  if (scoring === "victory-points") {
    /** @type {Record<string, {destroyed: string[], crippled: string[]}>} */
    const sides = { [me]: { destroyed: [], crippled: [] }, [them]: { destroyed: [], crippled: [] } };
    for (const select of /** @type {NodeListOf<HTMLSelectElement>} */ (form.querySelectorAll("select[data-side]"))) {
      const value = /** @type {"destroyed" | "crippled" | ""} */ (select.value);
      if (value) sides[select.dataset.side || ""][value].push(select.dataset.key || "");
    }
    return { sides };
  }
  const data = new FormData(form);
  const mine = String(data.get("outcome"));
  const other = { win: "loss", loss: "win", draw: "draw" }[mine] || "draw";
  return { outcome: { [me]: mine, [them]: other }, secondary: { [me]: Number(data.get("mine")), [them]: Number(data.get("theirs")) } };
}

/** @type {Map<string, Promise<string>>} each list's cards, fetched once a page */
const cardsOf = new Map();

/**
 * Put a locked list as the share page's unit cards into *place*: the server renders them
 * (list_cards.html, every value escaped there), so the cards are one markup for both pages.
 * A list whose cards cannot be had keeps only its link.
 * @param {HTMLElement} place
 * @param {{list_id: string, list_version: number}} list
 */
async function showCards(place, list) {
  const url = `/events/${encodeURIComponent(id)}/cards/${encodeURIComponent(list.list_id)}/${list.list_version}`;
  if (!cardsOf.has(url)) cardsOf.set(url, fetch(url).then((r) => (r.ok ? r.text() : "")).catch(() => ""));
  const html = await /** @type {Promise<string>} */ (cardsOf.get(url));
  if (!html) { cardsOf.delete(url); return; }  // asked again at the next redraw
  place.replaceChildren(...new DOMParser().parseFromString(html, "text/html").body.childNodes);
}

/** @param {Record<string, any>} body  the /me answer */
function drawTable(body) {
  const place = byId("me-table");
  const t = body.table;
  if (!t) {
    place.replaceChildren(h("p", {}, body.rounds ? "You are not seated this round." : "No round has started yet."));
    return;
  }
  if (t.opponent === null) {
    place.replaceChildren(h("p", {}, `Round ${t.round}: you have the bye (a win).`));
    return;
  }
  /** @type {Record<string, string>} */
  const names = {};
  for (const u of [...body.entry.units, ...(t.opponent_list ? t.opponent_list.units : [])]) names[u.key] = u.name;
  const other = t.opponent_list;
  /** @type {(HTMLElement | string)[]} */
  const parts = [
    h("p", { class: "players" }, h("strong", {}, `Round ${t.round}, ${tableLabel(t, "table")}: `), `you v ${t.opponent} `, h("span", { class: `badge status-${t.status}` }, t.status)),
    other ? h("p", { class: "meta" }, `${t.opponent}’s list: `, h("a", { href: `/l/${encodeURIComponent(other.list_id)}?version=${other.list_version}` }, "open it on its own page"),
      ` · ${other.points} · code `, h("code", { class: "verification-code small" }, other.verification_code)) : "",
  ];
  if (other) {
    const cards = h("div", { class: "opponent-cards-place" });
    parts.push(cards);
    showCards(cards, other);
  }
  const me = body.player;
  if (t.status === "confirmed" || t.status === "decided") {
    parts.push(h("p", {}, `${t.status === "decided" ? "The organiser decided" : "Agreed"}: ${inWords(t.result, names, t.players)}.`));
  } else if (t.status === "disputed") {
    parts.push(h("p", { class: "notice" }, "You and your opponent entered different results: the organiser decides. Or agree with theirs:"),
      h("ul", {}, t.entries.map((/** @type {{by: string, result: Record<string, any>}} */ e) => h("li", {}, `${e.by}: ${inWords(e.result, names, t.players)}`))),
      h("p", { class: "button-row" }, h("button", { type: "button", onclick: () => confirm(t) }, `Accept ${t.opponent}’s result`)),
      h("details", {}, h("summary", {}, "Enter mine again"), resultForm(body)));
  } else if (t.status === "waiting" && t.entered_by !== me) {
    parts.push(h("p", {}, `${t.entered_by} entered: ${inWords(t.result, names, t.players)}.`),
      h("p", { class: "button-row" }, h("button", { class: "primary", type: "button", onclick: () => confirm(t) }, "Confirm")),
      h("details", {}, h("summary", {}, "That is not what happened"), resultForm(body)));
  } else if (t.status === "waiting") {
    parts.push(h("p", {}, `You entered: ${inWords(t.result, names, t.players)}. Waiting for ${t.opponent} to confirm.`),
      h("details", {}, h("summary", {}, "Change it"), resultForm(body)));
  } else {
    parts.push(resultForm(body));
  }
  typing = false;
  place.replaceChildren(...parts);
}

/** @param {Record<string, any> | null} standing */
function drawStanding(standing) {
  byId("me-standing").textContent = standing
    ? `Rank ${standing.rank}: ${standing.score} points (${standing.wins} won, ${standing.draws} drawn, ${standing.losses} lost)` +
      (standing.adjustment ? `, adjustments ${standing.adjustment > 0 ? "+" : ""}${standing.adjustment}` : "")
    : "Not ranked.";
}

// ---- acting -------------------------------------------------------------------------------

/**
 * @param {Record<string, any>} t  the table
 * @param {Record<string, any>} body  the result
 */
async function send(t, body) {
  say("Sending your result…");
  try {
    const done = await call(`/rounds/${t.round}/results`, { method: "POST", body: { table: t.table, ...body } });
    say(done.status === "disputed" ? "Sent: it differs from your opponent’s, so the organiser decides." : "Sent.");
    typing = false;
    await load(true);
  } catch (err) { status.replaceChildren(errorBox(err, "Not sent (send again: it is never recorded twice)")); }
}

/** @param {Record<string, any>} t */
async function confirm(t) {
  say("Confirming…");
  try {
    await call(`/rounds/${t.round}/confirmations`, { method: "POST", body: { table: t.table } });
    say("Confirmed.");
    await load(true);
  } catch (err) { status.replaceChildren(errorBox(err, "Not confirmed")); }
}

/** @type {Record<string, any> | null} */
let last = null;

/** @param {boolean} [force]  redraw the table even while its form has typing */
async function load(force = false) {
  const body = await call("/me");
  last = body;
  keep({ players: { ...known().players, [playerKey(body.player)]: { player: body.player, token: /** @type {string} */ (token) } }, me: playerKey(body.player) });
  byId("me-body").hidden = false;
  byId("me-token-form").hidden = true;
  byId("me-pick-form").hidden = true;
  byId("entry-title").textContent = `${body.player}: my list`;
  redraw("entry", body.entry, () => drawEntry(body.entry));
  byId("me-checkin").hidden = body.checked_in;
  byId("me-checked").textContent = body.checked_in ? (body.withdrawn ? "Checked in; the organiser has you out of the next round." : "Checked in.") : "Not checked in yet.";
  if (force) delete drawn.table;
  if (force || !typing) redraw("table", body.table && { ...body.table, rounds: body.rounds }, () => drawTable(body));
  redraw("standing", body.standing, () => drawStanding(body.standing));
}

byId("me-checkin").addEventListener("click", async () => {
  say("Checking in…");
  try {
    await call("/checkins", { method: "POST", body: { player: last ? last.player : "" } });
    say("Checked in.");
    await load();
  } catch (err) { status.replaceChildren(errorBox(err, "Not checked in")); }
});

byId("me-copy-link").addEventListener("click", async () => {
  await copyText(`${location.origin}${location.pathname}#player=${encodeURIComponent(/** @type {string} */ (token))}`);
  say("Link copied.");
});

/** @param {string} given */
async function open(given) {
  token = given;
  try {
    await load(true);
    status.replaceChildren();
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) token = null;
    byId("me-token-form").hidden = false;
    status.replaceChildren(errorBox(err, "Could not open your day"));
  }
}

byId("me-token-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  open(byId("me-token", HTMLInputElement).value.trim());
});
byId("me-pick-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const chosen = known().players[byId("me-pick", HTMLSelectElement).value];
  if (chosen) open(chosen.token);
});

const fragment = /^#player=(.+)$/.exec(location.hash);
if (fragment) history.replaceState(null, "", location.pathname + location.search);  // the token leaves the address bar
const kept = known();
const mine = Object.entries(kept.players);
if (fragment) await open(decodeURIComponent(fragment[1]));
else if (kept.me && kept.players[kept.me]) await open(kept.players[kept.me].token);
else if (mine.length === 1) await open(mine[0][1].token);
else if (mine.length > 1) {
  byId("me-pick").replaceChildren(...mine.map(([key, p]) => h("option", { value: key }, p.player)));
  byId("me-pick-form").hidden = false;
} else byId("me-token-form").hidden = false;

setInterval(() => { if (token) load().catch(() => { /* offline for now: the next refresh tries again */ }); }, REFRESH_MS);
