// Saved lists this browser can edit: id -> {id, token, book, system, name, version, savedAt}.
// The server keeps only a hash of each edit token, so this is the only copy besides the
// edit links the player keeps. Shared by the builder's Save button, "My lists" and /l/<id>.
import { api } from "./util.js";

const KEY = "listbuilder.saved";

function readAll() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch { return {}; }
}

function writeAll(data) {
  try { localStorage.setItem(KEY, JSON.stringify(data)); return true; } catch { return false; }
}

/** Every list this browser remembers, most recently saved first. */
export function savedLists() {
  return Object.values(readAll()).filter((e) => e && e.id).sort((a, b) => (b.savedAt || 0) - (a.savedAt || 0));
}

export function savedList(id) { return readAll()[id] || null; }

/** Remember (or update) a list; fields not given are kept. */
export function remember(entry) {
  const all = readAll();
  all[entry.id] = { ...(all[entry.id] || {}), ...entry, savedAt: entry.savedAt || Date.now() };
  return writeAll(all);
}

export function forget(id) {
  const all = readAll();
  delete all[id];
  writeAll(all);
}

/** A deleted list leaves no copy behind for offline use (the service worker keeps those, sw.js). */
export async function dropKept(id) {
  if (!("caches" in window)) return;
  try {
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      await cache.delete(`/l/${encodeURIComponent(id)}`, { ignoreSearch: true });
      await cache.delete(listUrl(id));
    }
  } catch { /* storage unavailable: nothing kept either */ }
}

export const shareLink = (id) => `${location.origin}/l/${encodeURIComponent(id)}`;
/** The token rides in the #fragment: browsers never send it to the server or its logs. */
export const editLink = (id, token) => `${shareLink(id)}#edit=${encodeURIComponent(token)}`;
export const builderLink = (book, id) => `/build/${encodeURIComponent(book)}?list=${encodeURIComponent(id)}`;
export const listUrl = (id) => `/api/v1/lists/${encodeURIComponent(id)}`;
export const etag = (version) => `"v${version}"`;

/** The edit token's header for the API. */
export const bearer = (token) => ({ Authorization: `Bearer ${token}` });

/** What the browser remembers after the server answered with a saved list (POST, PUT, copy). */
export function rememberAnswer(body, token) {
  const list = body.list || {};
  remember({ id: body.id, token: token || (savedList(body.id) || {}).token, book: list.book, system: list.system, name: list.name,
    version: body.version, savedAt: Date.parse(body.updated_at || body.saved_at) || Date.now() });
}

/** Copy a list on the server (no token needed) and remember the new one with its token. */
export async function copyList(id) {
  const made = await api(`${listUrl(id)}/copy`, { method: "POST" });
  const body = await api(listUrl(made.id));
  rememberAnswer(body, made.edit_token);
  return { made, body };
}

/** Put text on the clipboard; false when the browser refuses (the caller shows the text). */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch { return false; }
}
