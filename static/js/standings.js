// The public standings page (/events/<id>/standings): the rows are rendered by the server and
// refreshed from the API every 30 seconds while the page is visible, so a screen at the venue
// stays current. The search box keeps only the rows whose player or army holds what is typed
// (across refreshes). Every value is set as text, never as HTML.
import { api, byId, h } from "./util.js";
import { showTimer } from "./event_timer.js";

const root = byId("standings-page");
const url = `/api/v1/events/${encodeURIComponent(root.dataset.id || "")}/standings`;
const search = byId("standings-search", HTMLInputElement);
const label = (/** @type {string} */ t) => (t === "sos" ? "SoS" : t.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase()));
const number = (/** @type {number} */ x) => String(Math.round(x * 1000) / 1000);

/**
 * @param {Record<string, any>} s  a standings row
 * @param {string[]} tiebreakers
 * @returns {HTMLTableRowElement}
 */
function row(s, tiebreakers) {
  const cell = (/** @type {string} */ cls, /** @type {string} */ name, /** @type {any[]} */ ...value) => h("td", { class: cls, "data-label": name }, ...value);
  return h("tr", s.withdrawn ? { class: "withdrawn" } : {},
    cell("rank", "Rank", String(s.rank)), cell("player", "Player", s.withdrawn ? `${s.player} (withdrawn)` : s.player), cell("faction", "Faction", s.faction),
    cell("wdl", "W-D-L", `${s.wins + s.byes}-${s.draws}-${s.losses}`),
    cell("score", "Score", number(s.score), s.adjustment ? h("span", { class: "adjusted" }, ` (${s.adjustment > 0 ? "+" : ""}${number(s.adjustment)})`) : ""),
    ...tiebreakers.map((t) => cell("tb", label(t), number(s.tiebreakers[t]))),
    h("td", { class: "tb-line" }, tiebreakers.map((t) => `${label(t)} ${number(s.tiebreakers[t])}`).join(" · ")));
}

/** Show only the rows (and this round's tables) whose player or army holds the search text. */
function filter() {
  const wanted = search.value.trim().toLowerCase();
  for (const card of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#current-tables .table-card"))) {
    card.hidden = Boolean(wanted) && !(card.querySelector(".players")?.textContent || "").toLowerCase().includes(wanted);
  }
  const rows = /** @type {HTMLTableRowElement[]} */ ([...byId("standings-rows").children]);
  let shown = 0;
  for (const tr of rows) {
    const text = `${tr.querySelector(".player")?.textContent} ${tr.querySelector(".faction")?.textContent}`.toLowerCase();
    tr.hidden = Boolean(wanted) && !text.includes(wanted);
    if (!tr.hidden) shown += 1;
  }
  byId("standings-found").textContent = wanted ? `${shown} of ${rows.length} players` : "";
}

async function refresh() {
  if (document.hidden) return;
  try {
    const body = await api(url);
    byId("standings-rows").replaceChildren(...body.standings.map((/** @type {Record<string, any>} */ s) => row(s, body.tiebreakers)));
    byId("standings-meta").textContent = `${body.rounds ? `After round ${body.rounds}` : "No round played yet"} · updated ${new Date().toLocaleTimeString()}`;
    filter();
  } catch { /* offline for a moment: the last rows stay */ }
}

search.addEventListener("input", filter);
showTimer(root, root.dataset.id || "");
setInterval(refresh, 30000);
