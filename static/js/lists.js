// "My lists": every list this browser saved or took an edit link for, with what to do with it.
import { api, ApiError, byId, errorBox, formatCost, h } from "./util.js";
import { bearer, builderLink, copyList, copyText, dropKept, editLink, forget, listUrl, rememberAnswer, savedLists, shareLink } from "./saved_store.js";
import { eventNames } from "./locked_by.js";

const container = byId("saved-lists");
const empty = byId("no-lists");
const status = byId("lists-status");
const say = (...nodes) => status.replaceChildren(...nodes);

function spent(report) {
  const costs = Object.values((report && report.entries) || {}).map((e) => e.cost || {});
  const total = {};
  for (const cost of costs) for (const [c, v] of Object.entries(cost)) total[c] = (total[c] || 0) + v;
  return formatCost(total);
}

function row(entry, body, problem) {
  const name = (body ? body.list.name : entry.name) || "Unnamed list";
  const actions = [];
  if (body) {
    actions.push(
      h("a", { class: "button primary", href: builderLink(body.list.book, entry.id) }, "Open"),
      h("a", { class: "button", href: shareLink(entry.id) }, "View"),
      h("button", { type: "button", class: "duplicate", onclick: () => duplicate(entry) }, "Duplicate"),
      h("button", { type: "button", class: "copy-edit", onclick: () => copyLink(editLink(entry.id, entry.token), "Edit link copied. Keep it private.") }, "Copy edit link"),
      h("button", { type: "button", class: "copy-share", onclick: () => copyLink(shareLink(entry.id), "Read-only link copied.") }, "Copy share link"),
      body.locked ? null : h("button", { type: "button", class: "danger delete", onclick: () => remove(entry, name) }, "Delete"));
  } else {
    actions.push(h("button", { type: "button", class: "forget", onclick: () => { forget(entry.id); render(); } }, "Remove from this list"));
  }
  const report = body && (body.report || body.rules.report_when_saved);
  return h("li", { class: "saved-row", dataset: { id: entry.id } },
    h("div", { class: "saved-row-head" },
      h("h2", {}, name),
      body ? h("span", { class: `badge ${report && report.valid ? "ok" : "bad"}` }, report && report.valid ? "Legal" : "Not legal") : null,
      body && body.locked ? h("span", { class: "badge locked" }, "Locked") : null),
    body && body.locked ? lockedBy(entry, body) : null,
    body
      ? h("p", { class: "meta" }, `${body.rules.book_name} · ${spent(report)}${body.list.points_limit ? ` of ${body.list.points_limit}` : ""} · `
        + `${body.list.units.length} unit${body.list.units.length === 1 ? "" : "s"} · version ${body.version}, saved ${new Date(body.updated_at).toLocaleString()}`
        + (body.rules.changed ? " · the army book changed since" : ""))
      : h("p", { class: "meta" }, problem),
    h("div", { class: "button-row" }, actions));
}

/**
 * A locked list says which event holds it, with a link there: the server names the events it
 * was submitted to, so this reads the same in every browser.
 * @param {import("./saved_store.js").KeptList} entry
 * @param {{events: import("./locked_by.js").LockingEvent[]}} body  the saved list's answer
 * @returns {HTMLElement}
 */
function lockedBy(entry, body) {
  const after = ": locked, so it cannot change (Duplicate makes an editable copy).";
  return body.events.length
    ? h("p", { class: "locked-by" }, "Submitted to ", ...eventNames(body.events, entry.event), after)
    : h("p", { class: "locked-by" }, `Locked${after}`);
}

async function copyLink(link, words) {
  const copied = await copyText(link);
  say(h("p", {}, copied ? words : "Copy this link: ", copied ? null : h("input", { type: "text", readonly: true, value: link, class: "link-field", "aria-label": "Link" })));
}

async function duplicate(entry) {
  try {
    const { body } = await copyList(entry.id);
    say(h("p", {}, `Made a copy: “${body.list.name || "Unnamed list"}”, version 1.`));
    await render();
  } catch (err) {
    say(errorBox(err, "Could not duplicate the list"));
  }
}

async function remove(entry, name) {
  if (!window.confirm(`Delete “${name}” and all its versions from the server? Its links will stop working.`)) return;
  try {
    await api(listUrl(entry.id), { method: "DELETE", headers: bearer(entry.token) });
    forget(entry.id);
    await dropKept(entry.id);
    say(h("p", {}, `Deleted “${name}”.`));
  } catch (err) {
    if (err instanceof ApiError && err.status === 410) { forget(entry.id); await dropKept(entry.id); }
    say(errorBox(err, "Could not delete the list"));
  }
  await render();
}

async function render() {
  const entries = savedLists();
  empty.hidden = entries.length > 0;
  const answers = await Promise.all(entries.map(async (entry) => {
    try {
      const body = await api(listUrl(entry.id));
      rememberAnswer(body);
      return row(entry, body, null);
    } catch (err) {
      const gone = err instanceof ApiError && (err.status === 404 || err.status === 410);
      return row(entry, null, gone ? "This list is no longer on the server (it was deleted)." : `Could not load it: ${/** @type {Error} */ (err).message}`);
    }
  }));
  container.replaceChildren(...answers);
}

render();
