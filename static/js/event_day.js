// The organiser's round page (/events/<id>/day), made for a phone at the venue: check-in and
// the no-shows, start the next round (after a confirmation with its numbers) or undo it while
// nothing is entered, the table board (event_day_board.js: disputes side by side, one tap to
// decide), swaps, withdrawals (a player chosen, then confirmed), penalties and bonuses with a
// reason, and the submissions refused as illegal lists.
//
// The organiser token comes as on the event page: from the fragment (#organiser=<token>, which
// browsers never send) or from this browser's memory (localStorage "listbuilder.events"), or
// typed into the form. Every value shown is set as text, never as HTML.
import { ApiError, api, byId, counted, errorBox, h } from "./util.js";
import { bearer } from "./saved_store.js";
import { updateBoard } from "./event_day_board.js";
import { fixedRow, nameRow, showTables, typedTables } from "./event_day_tables.js";
import { showTimer } from "./event_timer.js";

const root = byId("day");
const id = root.dataset.id || "";
const { scoring } = root.dataset;
const eventUrl = `/api/v1/events/${encodeURIComponent(id)}`;
const KEY = "listbuilder.events";
const status = byId("day-status");
const tokenForm = byId("day-token-form");
const askTimer = showTimer(root, id);
const PANELS = ["day-controls", "day-room", "day-tables-room", "day-players", "day-statistics", "day-handover", "day-refusals"];
const tablesForm = byId("room-form", HTMLFormElement);

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
const handedOver = /^#handover=(.+)$/.exec(location.hash);
if (handedOver) history.replaceState(null, "", location.pathname + location.search);

/**
 * Trade a hand-over code for an organiser token of this device's own, and keep it.
 * @param {string} code
 */
async function claim(code) {
  try {
    const body = await api(`${eventUrl}/handover/claim`, { method: "POST", body: { code } });
    keep(body.organiser_token);
  } catch (err) { status.replaceChildren(errorBox(err, "The code did not work")); }
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

/** @type {(() => Promise<void>) | null} what "Yes" does */
let pending = null;
/**
 * Ask before a big step: *question* with a "Yes" labelled *yes*; nothing happens until it is pressed.
 * @param {string} question
 * @param {string} yes
 * @param {() => Promise<void>} act
 */
function askFirst(question, yes, act) {
  byId("day-confirm-text").textContent = question;
  byId("day-confirm-yes").textContent = yes;
  byId("day-confirm").hidden = false;
  pending = act;
  byId("day-confirm-yes").focus();
}
function closeAsk() { byId("day-confirm").hidden = true; pending = null; }
byId("day-confirm-no").addEventListener("click", closeAsk);
byId("day-confirm-yes").addEventListener("click", async () => {
  const act = pending;
  closeAsk();
  if (act) await act();
});

/**
 * @param {import("./event_day_board.js").Table} t
 * @param {Record<string, any>} body
 */
async function record(t, body) {
  say(`Saving table ${t.table}…`);
  try {
    await call(`/rounds/${currentRound().number}/results`, { method: "POST", body: { table: t.table, ...body } });
    say(`Table ${t.table} saved.`);
    await load();
  } catch (err) { status.replaceChildren(errorBox(err, `Table ${t.table} not saved (send it again: it is never recorded twice)`)); }
}

/** @typedef {{number: number, pairings: import("./event_day_board.js").Table[], notes: string[]}} Round */
/** @type {Round | null} the latest round */
let current = null;
/** @returns {Round} the latest round, where there is one */
const currentRound = () => /** @type {Round} */ (current);
/** @type {{player: string, checked_in: boolean, withdrawn: boolean, no_show: boolean}[]} */
let roll = [];

/**
 * Fill a select with *names*, first an empty choice (a withdrawal never defaults to someone),
 * keeping what was chosen.
 * @param {string} selectId
 * @param {string[]} names
 * @param {string} prompt
 */
function fill(selectId, names, prompt) {
  const select = byId(selectId, HTMLSelectElement);
  const chosen = select.value;
  select.replaceChildren(h("option", { value: "" }, prompt), ...names.map((name) => h("option", { value: name }, name)));
  if (names.includes(chosen)) select.value = chosen;
}

async function load() {
  const [rounds, called, adjustments, refusals, statistics, room] = await Promise.all(
    [call("/rounds"), call("/checkins"), call("/adjustments"), call("/refusals"), call("/statistics"), call("/tables")]);
  byId("statistics-state").textContent = statistics.public ? "Everyone can read the statistics page." : "Only you can read the statistics until you open them.";
  byId("statistics-open").textContent = statistics.public ? "Close the statistics again" : "Open the statistics to everyone";
  byId("statistics-open").dataset.public = statistics.public ? "1" : "";
  current = rounds.rounds.at(-1) || null;
  roll = called.players;
  for (const panel of PANELS) byId(panel).hidden = false;
  tokenForm.hidden = true;
  byId("round-title").textContent = current ? `Round ${current.number}` : "No round yet";
  const played = current ? current.pairings.filter((/** @type {{status: string}} */ t) => t.status !== "bye") : [];
  const done = current ? current.pairings.filter((/** @type {{status: string}} */ t) => ["confirmed", "decided", "bye"].includes(t.status)).length : 0;
  const disputed = played.filter((/** @type {{status: string}} */ t) => t.status === "disputed").length;
  byId("round-summary").textContent = current
    ? `${done} of ${current.pairings.length} tables have a result.` + (disputed ? ` ${counted(disputed, "table")} disputed.` : "")
    : `${counted(roll.filter((p) => !p.withdrawn).length, "player")} still in.`;
  const complete = !current || done === current.pairings.length;
  byId("start-round").hidden = !complete;  // during a round the big button is not there to be pressed by mistake
  byId("undo-round").hidden = !current || played.some((/** @type {{status: string}} */ t) => t.status !== "open");
  byId("undo-round").textContent = current ? `Undo round ${current.number}` : "Undo";
  byId("timer-form").hidden = !current;
  byId("round-notes").replaceChildren(...(current ? current.notes : []).map((/** @type {string} */ note) => h("li", { class: "note" }, `${note}.`)));
  showTables(tablesForm, room, roll.map((p) => p.player));
  updateBoard(byId("day-tables"), current ? current.number : 0, current ? current.pairings : [], { scoring, record, complain: (text) => say(text) });
  for (const [linkId, sheet] of [["print-pairings", "pairings"], ["print-find", "find-your-table"], ["print-slips", "slips"]]) {
    const link = byId(linkId, HTMLAnchorElement);
    link.hidden = !current;
    if (current) link.href = `${eventUrl}/rounds/${current.number}/${sheet}.pdf`;
  }
  const playing = roll.filter((p) => !p.withdrawn).map((p) => p.player);
  const withdrawn = roll.filter((p) => p.withdrawn).map((p) => p.player);
  fill("withdraw-player", playing, "Choose a player");
  fill("reinstate-player", withdrawn, "Choose a player");
  fill("adjust-player", roll.map((p) => p.player), "Choose a player");
  byId("reinstate-form").hidden = withdrawn.length === 0;
  const seated = current ? current.pairings.flatMap((/** @type {{players: (string | null)[]}} */ t) => t.players).filter((/** @type {string | null} */ p) => p !== null) : [];
  byId("swap-form").hidden = seated.length < 4;
  fill("swap-first", seated, "Choose a player");
  fill("swap-second", seated, "Choose a player");
  showRoom(adjustments.adjustments, refusals.refusals);
}

/**
 * @param {{player: string, points: number, reason: string, round: number}[]} adjustments
 * @param {{player: string, list_id: string, problems: string[], at: string}[]} refusals
 */
function showRoom(adjustments, refusals) {
  const missing = roll.filter((p) => !p.checked_in && !p.withdrawn);
  byId("checkin-summary").textContent = `${roll.filter((p) => p.checked_in).length} of ${counted(roll.length, "player")} checked in.`;
  byId("checkin-missing").replaceChildren(...missing.map((p) => h("li", {}, `${p.player} `,
    h("button", { type: "button", onclick: () => act("/checkins", { player: p.player }, `${p.player} is checked in.`) }, `Check in ${p.player}`))));
  const late = roll.filter((p) => p.no_show && !p.checked_in);
  byId("checkin-late").replaceChildren(...late.map((p) => h("li", {}, `${p.player} (withdrawn as a no-show) `,
    h("button", { type: "button", onclick: () => act("/checkins", { player: p.player }, `${p.player} is back from the next round.`) }, `Check in ${p.player}: missed rounds count nothing`),
    " ",
    h("button", { type: "button", onclick: () => act("/checkins", { player: p.player, missed: "loss" }, `${p.player} is back; each missed round is a loss.`) }, `Check in ${p.player}: a loss per missed round`))));
  const sweep = byId("withdraw-no-shows");
  sweep.hidden = missing.length === 0;
  sweep.textContent = `Withdraw the ${counted(missing.length, "player")} not checked in…`;
  byId("adjustments").replaceChildren(...adjustments.map((a) => h("li", {}, `${a.player}: ${a.points > 0 ? "+" : ""}${a.points} (${a.reason}; after round ${a.round})`)));
  byId("day-refusals").hidden = refusals.length === 0;
  byId("refusals").replaceChildren(...refusals.map((r) => h("li", {}, h("strong", {}, r.player), ` · ${new Date(r.at).toLocaleTimeString()} · `,
    h("a", { href: `/l/${encodeURIComponent(r.list_id)}` }, "the list"), h("ul", { class: "entry-notes" }, r.problems.map((p) => h("li", { class: "note error" }, p))))));
}

/**
 * POST *body* to *path*, say *done*, reload.
 * @param {string} path
 * @param {unknown} body
 * @param {string} done
 */
async function act(path, body, done) {
  try {
    await call(path, { method: "POST", body });
    say(done);
    await load();
  } catch (err) { status.replaceChildren(errorBox(err, "Not done")); }
}

const value = (/** @type {string} */ selectId) => byId(selectId, HTMLSelectElement).value;
/**
 * @param {string} formId
 * @param {(ev: Event) => void} handle
 */
const onSubmit = (formId, handle) => byId(formId).addEventListener("submit", (ev) => { ev.preventDefault(); handle(ev); });

onSubmit("withdraw-form", () => {
  const player = value("withdraw-player");
  askFirst(`Withdraw ${player} from the rounds still to come? Their games so far stay.`, `Withdraw ${player}`,
    () => act("/withdrawals", { player }, `${player} is withdrawn from later rounds.`));
});
onSubmit("reinstate-form", () => act("/reinstatements", { player: value("reinstate-player") }, "Reinstated: paired again from the next round."));
onSubmit("swap-form", () => act(`/rounds/${currentRound().number}/swaps`, { players: [value("swap-first"), value("swap-second")] }, "Swapped."));
onSubmit("adjust-form", () => {
  const points = Number(byId("adjust-points", HTMLInputElement).value);
  const reason = byId("adjust-reason", HTMLInputElement).value.trim();
  act("/adjustments", { player: value("adjust-player"), points, reason }, `Recorded: ${value("adjust-player")} ${points > 0 ? "+" : ""}${points}.`)
    .then(() => { byId("adjust-points", HTMLInputElement).value = ""; byId("adjust-reason", HTMLInputElement).value = ""; });
});

tablesForm.addEventListener("input", () => { tablesForm.dataset.dirty = "1"; });
byId("room-add-name").addEventListener("click", () => { tablesForm.dataset.dirty = "1"; byId("room-names").append(nameRow({})); });
byId("room-add-fixed").addEventListener("click", () => { tablesForm.dataset.dirty = "1"; byId("room-fixed").append(fixedRow({}, roll.map((p) => p.player))); });
onSubmit("room-form", async () => {
  const body = typedTables(tablesForm);
  if (typeof body === "string") { say(`Not saved: ${body}.`); return; }
  try {
    await call("", { method: "PATCH", body });
    delete tablesForm.dataset.dirty;
    say("Tables saved: the next round paired seats the fixed players at their tables.");
    await load();
  } catch (err) { status.replaceChildren(errorBox(err, "The tables were not saved")); }
});

byId("withdraw-no-shows").addEventListener("click", () => {
  const missing = roll.filter((p) => !p.checked_in && !p.withdrawn).map((p) => p.player);
  askFirst(`Withdraw ${missing.join(", ")}? A player who checks in later is back from the next round.`, `Withdraw ${counted(missing.length, "player")}`,
    () => act("/no-shows", undefined, `${counted(missing.length, "player")} withdrawn.`));
});

byId("start-round").addEventListener("click", () => {
  const still = roll.filter((p) => !p.withdrawn).length;
  const next = current ? current.number + 1 : 1;
  askFirst(`Start round ${next}: ${counted(still, "player")}, ${counted(Math.floor(still / 2), "table")}, ${counted(still % 2, "bye")}?`, `Start round ${next}`, async () => {
    say("Pairing the next round…");
    try {
      const body = await call("/rounds", { method: "POST", body: {} });
      say(`Round ${body.number} paired: ${counted(body.pairings.length, "table")}.`);
      await load();
    } catch (err) { status.replaceChildren(errorBox(err, "The round did not start")); }
  });
});

byId("undo-round").addEventListener("click", () => {
  const number = currentRound().number;
  askFirst(`Undo round ${number}? Its pairings go; starting it again pairs anew.`, `Undo round ${number}`, async () => {
    try {
      await api(`${eventUrl}/rounds/${number}`, { method: "DELETE", headers: bearer(/** @type {string} */ (token())), });
      say(`Round ${number} undone.`);
      await load();
    } catch (err) { status.replaceChildren(errorBox(err, "Not undone")); }
  });
});

onSubmit("timer-form", async () => {
  const minutes = Number(byId("timer-minutes", HTMLInputElement).value);
  try {
    await call("/timer", { method: "PUT", body: { minutes } });
    say(`The round ends in ${counted(minutes, "minute")}.`);
    await askTimer();
  } catch (err) { status.replaceChildren(errorBox(err, "The timer did not start")); }
});
byId("timer-stop").addEventListener("click", async () => {
  try {
    await call("/timer", { method: "PUT", body: { minutes: null } });
    say("The timer is stopped.");
    await askTimer();
  } catch (err) { status.replaceChildren(errorBox(err, "The timer did not stop")); }
});

byId("handover-offer").addEventListener("click", async () => {
  try {
    const body = await call("/handover", { method: "POST" });
    const until = new Date(body.expires_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    byId("handover-code").replaceChildren(
      h("p", {}, "On the other device, open this page and type ", h("strong", { class: "verification-code" }, body.code), ` (until ${until}), or open the link:`),
      h("p", { class: "button-row" }, h("button", { type: "button", onclick: async () => { await navigator.clipboard?.writeText(body.url); say("Link copied."); } }, "Copy the link")));
  } catch (err) { status.replaceChildren(errorBox(err, "No code")); }
});
byId("day-code-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  await claim(byId("day-code", HTMLInputElement).value);
  await open();
});

byId("statistics-open").addEventListener("click", async () => {
  try {
    const open = !byId("statistics-open").dataset.public;
    await call("/statistics", { method: "PUT", body: { public: open } });
    say(open ? "The statistics are open to everyone." : "The statistics are closed.");
    await load();
  } catch (err) { status.replaceChildren(errorBox(err, "Not done")); }
});

tokenForm.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  keep(byId("day-token", HTMLInputElement).value.trim());
  await open();
});

async function open() {
  byId("day-code-form").hidden = true;
  if (!token()) { tokenForm.hidden = false; byId("day-code-form").hidden = false; return; }
  try {
    await call("/log");  // checks the token before anything is shown
    await load();
    status.replaceChildren();
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) keep(null);
    tokenForm.hidden = false;
    byId("day-code-form").hidden = false;
    for (const panel of PANELS) byId(panel).hidden = true;
    status.replaceChildren(errorBox(err, "Could not open the rounds"));
  }
}

if (handedOver) await claim(decodeURIComponent(handedOver[1]));
await open();
// Results come in from the players' pages: the board follows (updateBoard leaves a card being typed in alone).
setInterval(() => { if (token() && tokenForm.hidden) load().catch(() => { /* offline for now: the next one tries again */ }); }, 15000);
