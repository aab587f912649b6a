// The public standings page (/events/<id>/standings): the rows are rendered by the server and
// refreshed from the API every 30 seconds while the page is visible, so a screen at the venue
// stays current. Every value is set as text, never as HTML.
import { api, byId, h } from "./util.js";

const root = byId("standings-page");
const url = `/api/v1/events/${encodeURIComponent(root.dataset.id || "")}/standings`;
const label = (t) => (t === "sos" ? "SoS" : t.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase()));
const number = (x) => String(Math.round(x * 1000) / 1000);

function row(s, tiebreakers) {
  const cell = (name, value) => h("td", { "data-label": name }, value);
  return h("tr", s.withdrawn ? { class: "withdrawn" } : {},
    cell("Rank", String(s.rank)), cell("Player", s.withdrawn ? `${s.player} (withdrawn)` : s.player), cell("Faction", s.faction),
    cell("W-D-L", `${s.wins + s.byes}-${s.draws}-${s.losses}`), cell("Score", number(s.score)),
    ...tiebreakers.map((t) => cell(label(t), number(s.tiebreakers[t]))));
}

async function refresh() {
  if (document.hidden) return;
  try {
    const body = await api(url);
    byId("standings-rows").replaceChildren(...body.standings.map((s) => row(s, body.tiebreakers)));
    byId("standings-meta").textContent = `${body.rounds ? `After round ${body.rounds}` : "No round played yet"} · updated ${new Date().toLocaleTimeString()}`;
  } catch { /* offline for a moment: the last rows stay */ }
}

setInterval(refresh, 30000);
