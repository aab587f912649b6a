// Creating an event (/events/new): the form becomes POST /api/v1/events, then the organiser
// link (the event's page with the organiser token in its #fragment) is shown once and opened.
import { api, byId, errorBox, h } from "./util.js";
import { copyText } from "./saved_store.js";

const $ = byId;
const status = $("event-status");
const field = (/** @type {string} */ id) => $(id, HTMLInputElement);
const choice = (/** @type {string} */ id) => $(id, HTMLSelectElement);

async function showSystem() {
  const systemId = choice("event-system").value;
  const [system, books] = await Promise.all([api(`/api/v1/systems/${encodeURIComponent(systemId)}`), api(`/api/v1/books?system=${encodeURIComponent(systemId)}`)]);
  const modes = (system.limits && system.limits.game_modes) || null;
  $("mode-field").hidden = !modes;
  $("points-field").hidden = Boolean(modes);
  $("force-org-field").hidden = !(system.limits && system.limits.force_org_available);
  $("event-mode").replaceChildren(...(modes || []).map((/** @type {{id: string, name?: string}} */ m) => h("option", { value: m.id }, m.name || m.id)));
  $("event-books").replaceChildren(...books.map((/** @type {{id: string, name: string, version: string}} */ b) => h("label", { class: "check" },
    h("input", { type: "checkbox", name: "book", value: b.id, checked: true }), `${b.name} (version ${b.version})`)));
}

function defaultDeadline() {
  const soon = new Date(Date.now() + 7 * 24 * 3600 * 1000);
  soon.setMinutes(0, 0, 0);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  field("event-deadline").value = `${soon.getFullYear()}-${pad(soon.getMonth() + 1)}-${pad(soon.getDate())}T${pad(soon.getHours())}:00`;
}

$("event-system").addEventListener("change", () => showSystem().catch((err) => status.replaceChildren(errorBox(err))));

$("event-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const modes = !$("mode-field").hidden;
  /** @type {Record<string, unknown>} */
  const body = {
    name: field("event-name").value,
    system: choice("event-system").value,
    books: [.../** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("#event-books input:checked"))].map((i) => ({ book: i.value })),
    deadline: new Date(field("event-deadline").value).toISOString(),  // the browser's local time, sent in UTC
    force_org: $("force-org-field").hidden ? null : field("event-force-org").checked,
    allow_illegal: field("event-allow-illegal").checked,
  };
  if (modes) body.game_mode = choice("event-mode").value;
  else body.points_limit = Number(field("event-points").value);
  try {
    const made = await api("/api/v1/events", { method: "POST", body });
    const copied = await copyText(made.organiser_url);
    status.replaceChildren(h("div", { class: "notice ok" },
      h("p", {}, "Event created. Your organiser link", copied ? " is on the clipboard" : "", ": keep it private, it opens the report and is shown only now."),
      h("input", { type: "text", readonly: true, value: made.organiser_url, class: "link-field", "aria-label": "Organiser link" }),
      h("p", {}, h("a", { class: "button primary", href: made.organiser_url, id: "open-event" }, "Open the event"))));
  } catch (err) {
    status.replaceChildren(errorBox(err, "The event was not created"));
  }
});

defaultDeadline();
await showSystem();
