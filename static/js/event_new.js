// Creating an event (/events/new): the form becomes POST /api/v1/events, then the organiser
// link (the event's page with the organiser token in its #fragment) is shown once and opened.
import { api, errorBox, h } from "./util.js";
import { copyText } from "./saved_store.js";

const $ = (id) => document.getElementById(id);
const status = $("event-status");

async function showSystem() {
  const systemId = $("event-system").value;
  const [system, books] = await Promise.all([api(`/api/v1/systems/${encodeURIComponent(systemId)}`), api(`/api/v1/books?system=${encodeURIComponent(systemId)}`)]);
  const modes = (system.limits && system.limits.game_modes) || null;
  $("mode-field").hidden = !modes;
  $("points-field").hidden = Boolean(modes);
  $("force-org-field").hidden = !(system.limits && system.limits.force_org_available);
  $("event-mode").replaceChildren(...(modes || []).map((m) => h("option", { value: m.id }, m.name || m.id)));
  $("event-books").replaceChildren(...books.map((b) => h("label", { class: "check" },
    h("input", { type: "checkbox", name: "book", value: b.id, checked: true }), `${b.name} (version ${b.version})`)));
}

function defaultDeadline() {
  const soon = new Date(Date.now() + 7 * 24 * 3600 * 1000);
  soon.setMinutes(0, 0, 0);
  const pad = (n) => String(n).padStart(2, "0");
  $("event-deadline").value = `${soon.getFullYear()}-${pad(soon.getMonth() + 1)}-${pad(soon.getDate())}T${pad(soon.getHours())}:00`;
}

$("event-system").addEventListener("change", () => showSystem().catch((err) => status.replaceChildren(errorBox(err))));

$("event-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const modes = !$("mode-field").hidden;
  const body = {
    name: $("event-name").value,
    system: $("event-system").value,
    books: [...document.querySelectorAll("#event-books input:checked")].map((i) => ({ book: i.value })),
    deadline: new Date($("event-deadline").value).toISOString(),  // the browser's local time, sent in UTC
    force_org: $("force-org-field").hidden ? null : $("event-force-org").checked,
    allow_illegal: $("event-allow-illegal").checked,
  };
  if (modes) body.game_mode = $("event-mode").value;
  else body.points_limit = Number($("event-points").value);
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
