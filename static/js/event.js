// An event's page (/events/<id>): players submit a list this browser can edit; the organiser
// opens the report with the organiser token.
//
// The organiser link is this page with the token in the fragment (#organiser=<token>):
// browsers never send a fragment, so the token reaches no server log. This script keeps it in
// the browser (beside the player tokens handed out with first submissions) and removes it from
// the address bar at once. Every value shown is set as text, never as HTML.
import { ApiError, api, byId, counted, errorBox, formatCost, h } from "./util.js";
import { bearer, builderLink, remember as rememberList, savedLists } from "./saved_store.js";
import { showTimer } from "./event_timer.js";

const root = byId("event");
const id = root.dataset.id || "";
const { system } = root.dataset;
const books = new Set((root.dataset.books || "").split(" "));
const eventUrl = `/api/v1/events/${encodeURIComponent(id)}`;
const KEY = "listbuilder.events";
showTimer(root, id);

/**
 * What this browser keeps per event: the organiser token, and the player tokens handed out
 * with first submissions (by player name).
 * @typedef {{organiser?: string | null, players: Record<string, {player: string, token: string}>}} Kept
 */

/** @returns {Record<string, Kept>} */
function memory() {
  try {
    const all = JSON.parse(localStorage.getItem(KEY) || "{}");
    return (all && typeof all === "object" ? all : {});
  } catch { return {}; }
}

/** @param {(kept: Kept) => Partial<Kept>} change */
function remember(change) {
  const all = memory();
  all[id] = { players: {}, .../** @type {Partial<Kept>} */ (all[id] || {}), ...change(all[id] || { players: {} }) };
  try { localStorage.setItem(KEY, JSON.stringify(all)); } catch { /* private mode: the token is shown once */ }
}

/** @returns {Kept} */
const known = () => memory()[id] || { players: {} };
const playerKey = (/** @type {string} */ name) => name.normalize("NFKC").replace(/\s+/g, " ").trim().toLowerCase();

// ---- submitting ---------------------------------------------------------------------------

// Only an open event has the form (and the fields in it).
const form = /** @type {HTMLFormElement | null} */ (document.getElementById("submit-form"));
const submitStatus = byId("submit-status");
const submitButton = () => /** @type {HTMLButtonElement} */ (byId("submit-form").querySelector("button[type=submit]"));

function fillLists() {
  const select = byId("submit-list");
  const mine = savedLists().filter((l) => l.token && l.system === system && l.book !== undefined && books.has(l.book));
  select.replaceChildren(...mine.map((l) => h("option", { value: l.id }, `${l.name || "Unnamed list"} (${l.book}, version ${l.version})`)));
  byId("no-lists").hidden = mine.length > 0;
  submitButton().disabled = mine.length === 0;
  if (mine.length) precheck();
}

/** The chosen list's points and whether the event would take it, under the picker (nothing is locked). */
async function precheck() {
  const listId = byId("submit-list", HTMLSelectElement).value;
  const place = byId("submit-check");
  place.replaceChildren(h("p", { class: "meta" }, "Checking the list against the event’s rules…"));
  try {
    const found = await api(`${eventUrl}/precheck`, { method: "POST", body: { list_id: listId } });
    if (byId("submit-list", HTMLSelectElement).value !== listId) return;  // another list was chosen meanwhile
    const totals = found.report ? found.report.totals : null;
    const cost = totals ? formatCost(Object.fromEntries(Object.entries(totals).filter(([, v]) => typeof v === "number"))) : "";
    place.replaceChildren(h("p", {}, found.legal ? h("span", { class: "badge ok" }, "Legal") : h("span", { class: "badge bad" }, "Not legal"),
      cost ? ` ${cost}` : "", found.legal ? "" : ` · ${counted(found.reasons.length, "problem")}`));
    if (!found.legal) place.append(problems(found.reasons.map((/** @type {string} */ r) => r.replace(/^[\w.]+: /, "")), listId));
  } catch (err) { place.replaceChildren(errorBox(err, "Could not check the list")); }
}

/**
 * What makes a list illegal, in words, with a link to open it in the builder.
 * @param {string[]} lines
 * @param {string} listId
 * @returns {HTMLDivElement}
 */
function problems(lines, listId) {
  const list = savedLists().find((l) => l.id === listId);
  return h("div", { class: "notice" }, h("ul", {}, lines.map((line) => h("li", {}, line))),
    list && list.book ? h("p", {}, h("a", { href: builderLink(list.book, listId) }, "Open the list to fix it")) : null);
}

/**
 * @param {Record<string, any>} body  the API's answer to a submission
 * @returns {HTMLDivElement}
 */
function describeSubmission(body) {
  const verdict = body.valid ? h("span", { class: "badge ok" }, "Legal") : h("span", { class: "badge bad" }, "Not legal: flagged for the organiser");
  /** @type {import("./api_shapes.js").Issue[]} */
  const issues = body.report.issues.filter((/** @type {import("./api_shapes.js").Issue} */ i) => i.severity === "error");
  return h("div", { class: body.valid ? "notice ok" : "notice" },
    h("p", {}, verdict, ` Submitted as ${body.player} (submission ${body.number}); the list is now locked. Verification code `,
      h("code", { class: "verification-code small" }, body.verification_code)),
    issues.length ? h("ul", {}, issues.map((i) => h("li", {}, i.message))) : null);
}

form?.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const listId = byId("submit-list", HTMLSelectElement).value;
  const player = byId("submit-player", HTMLInputElement).value.trim();
  const list = savedLists().find((l) => l.id === listId);
  if (!list || !list.token || !player) return;  // fillLists offers lists with a token only
  const button = submitButton();
  button.disabled = true;
  submitStatus.replaceChildren(h("p", {}, "Checking and submitting…"));
  try {
    const stored = known().players[playerKey(player)];
    const body = await api(`${eventUrl}/submissions`, {
      method: "POST", headers: bearer(list.token),
      body: { list_id: listId, player, player_token: stored ? stored.token : null },
    });
    if (body.player_token) remember((e) => ({ players: { ...e.players, [playerKey(player)]: { player, token: body.player_token } } }));
    // The list is locked now: My lists and the builder name the event that holds it.
    rememberList({ id: listId, event: { id, name: root.querySelector("h1")?.textContent || "an event" } });
    submitStatus.replaceChildren(describeSubmission(body),
      h("p", {}, h("a", { class: "button", href: `/events/${encodeURIComponent(id)}/me` }, "My day: check in, your table, your results")));
  } catch (err) {
    if (err instanceof ApiError && err.status === 422 && Object.keys(err.body.errors || {}).some((k) => k === "list" || k.startsWith("list."))) {
      // each problem in words (the rule's message, not its path in the list), and a way to the list
      const lines = Object.values(err.body.errors || {}).flat().map((m) => String(m).replace(/^[\w.]+: /, ""));
      submitStatus.replaceChildren(h("div", { class: "notice error", role: "alert" },
        h("p", {}, "Not submitted: this list is not legal under the event’s rules, and the organiser does not accept illegal lists.")),
      problems(lines, listId));
    } else submitStatus.replaceChildren(errorBox(err, "Not submitted"));
  } finally {
    button.disabled = false;
  }
});

// ---- the organiser's report ---------------------------------------------------------------

const organiserStatus = byId("organiser-status");
const organiserForm = byId("organiser-form");

function takeOrganiserLink() {
  const match = /^#organiser=(.+)$/.exec(location.hash);
  if (!match) return;
  history.replaceState(null, "", location.pathname + location.search);  // the token leaves the address bar
  remember(() => ({ organiser: decodeURIComponent(match[1]) }));
}

/**
 * @param {Record<string, any>} entry  a player's entry of the report
 * @returns {HTMLTableRowElement}
 */
function entryRow(entry) {
  const notes = [];
  for (const issue of entry.issues) notes.push(h("li", { class: `note ${issue.severity}` }, `${issue.severity}: ${issue.message}`));
  if (entry.changes) {
    notes.push(h("li", { class: "changes-head" }, `Changed since submission ${entry.earlier.number}:`));
    for (const line of entry.changes) notes.push(h("li", { class: "change" }, line));
  }
  if (entry.changed_since_submission) notes.push(h("li", { class: "note warning" }, "Re-validation differs from the check at submission."));
  return h("tr", { class: entry.valid ? "legal" : "illegal" },
    h("td", { "data-label": "#" }, String(entry.number)),
    h("td", { "data-label": "Player" }, h("strong", {}, entry.player)),
    h("td", { "data-label": "Faction" }, h("a", { href: `/l/${encodeURIComponent(entry.list_id)}?version=${entry.list_version}` }, entry.faction)),
    h("td", { "data-label": "Points" }, entry.points),
    h("td", { "data-label": "Legal" }, entry.valid ? h("span", { class: "badge ok" }, "Legal") : h("span", { class: "badge bad" }, "Illegal")),
    h("td", { "data-label": "Code" }, h("code", { class: "verification-code small" }, entry.verification_code)),
    h("td", { "data-label": "Notes" }, notes.length ? h("ul", { class: "entry-notes" }, notes) : h("span", { class: "muted" }, "–")));
}

/**
 * @param {Record<string, any>} body  the report
 * @param {boolean} [revalidated]
 */
function showReport(body, revalidated = false) {
  byId("report").hidden = false;
  organiserForm.hidden = true;
  const illegal = body.entries.filter((/** @type {{valid: boolean}} */ e) => !e.valid).length;
  byId("report-summary").textContent =
    `${counted(body.entries.length, "player")}, ${illegal} illegal; ${counted(body.submissions, "submission")} in all` + (revalidated ? "; re-validated just now." : ".");
  byId("entries").replaceChildren(...body.entries.map(entryRow));
}

async function loadReport() {
  const token = known().organiser;
  if (!token) return;
  organiserStatus.replaceChildren(h("p", {}, "Loading the report…"));
  try {
    showReport(await api(`${eventUrl}/report`, { headers: bearer(token) }));
    organiserStatus.replaceChildren();
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) remember(() => ({ organiser: null }));
    organiserForm.hidden = false;
    organiserStatus.replaceChildren(errorBox(err, "Could not open the report"));
  }
}

/**
 * @param {Blob} file
 * @param {string} name
 */
function save(file, name) {
  const link = h("a", { href: URL.createObjectURL(file), download: name, hidden: true });
  document.body.append(link);
  link.click();
  setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
}

/**
 * Fetch a download with the organiser token (a plain link could not carry it) and save it.
 * @param {string} path
 * @param {string} name
 * @param {"blob" | "json"} as
 */
async function download(path, name, as) {
  organiserStatus.replaceChildren(h("p", {}, "Preparing the download…"));
  try {
    // The report, and so its buttons, shows only once there is an organiser token.
    const blob = await api(`${eventUrl}/${path}`, { headers: bearer(/** @type {string} */ (known().organiser)), as });
    save(blob instanceof Blob ? blob : new Blob([JSON.stringify(blob, null, 2)], { type: "application/json" }), name);
    organiserStatus.replaceChildren();
  } catch (err) {
    organiserStatus.replaceChildren(errorBox(err, "Download failed"));
  }
}

/** The roster pack: while rosters are still being rendered the server answers 202 with how
 * many are done (each request renders a few seconds' worth); ask again until the PDF comes. */
async function downloadPack() {
  const progress = h("progress", { max: "1", value: "0", "aria-label": "Rosters rendered" });
  const words = h("span", {}, "Preparing the roster pack…");
  organiserStatus.replaceChildren(h("p", {}, words, " ", progress));
  try {
    for (;;) {
      const blob = await api(`${eventUrl}/roster-pack.pdf`, { headers: bearer(/** @type {string} */ (known().organiser)), as: "blob" });
      if (!blob.type.includes("json")) { save(blob, `${slug} rosters.pdf`); break; }
      const done = JSON.parse(await blob.text());
      progress.max = done.players;
      progress.value = done.rendered;
      words.textContent = `Rendering rosters: ${done.rendered} of ${done.players}`;
    }
    organiserStatus.replaceChildren();
  } catch (err) {
    organiserStatus.replaceChildren(errorBox(err, "Download failed"));
  }
}

organiserForm.addEventListener("submit", (ev) => {
  ev.preventDefault();
  remember(() => ({ organiser: byId("organiser-token", HTMLInputElement).value.trim() }));
  loadReport();
});

byId("revalidate").addEventListener("click", async () => {
  organiserStatus.replaceChildren(h("p", {}, "Re-validating every entry…"));
  try {
    showReport(await api(`${eventUrl}/revalidate`, { method: "POST", headers: bearer(/** @type {string} */ (known().organiser)) }), true);
    organiserStatus.replaceChildren();
  } catch (err) {
    organiserStatus.replaceChildren(errorBox(err, "Could not re-validate"));
  }
});

const slug = (root.querySelector("h1")?.textContent || "event").trim();
byId("download-csv").addEventListener("click", () => download("report.csv", `${slug} lists.csv`, "blob"));
byId("download-json").addEventListener("click", () => download("report", `${slug} lists.json`, "json"));
byId("download-pack").addEventListener("click", downloadPack);

if (form) {
  fillLists();
  byId("submit-list").addEventListener("change", precheck);
}
takeOrganiserLink();
await loadReport();
