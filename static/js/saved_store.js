// Saved lists this browser can edit: id -> {id, token, book, system, name, version, savedAt}.
// The server keeps only a hash of each edit token, so this is the only copy besides the
// edit links the player keeps. Shared by the builder's Save button, "My lists" and /l/<id>.
import { api } from "./util.js";

/**
 * @typedef {object} KeptList
 * @property {string} id
 * @property {string} [token]  the edit token (only this browser has it)
 * @property {string} [book]
 * @property {string} [system]
 * @property {string} [name]
 * @property {number} [version]
 * @property {number} [savedAt]
 * @property {{id: string, name: string}} [event]  the event this browser submitted the list to (which locked it)
 */

const KEY = "listbuilder.saved";

/** @returns {Record<string, KeptList>} */
function readAll() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch { return {}; }
}

/**
 * @param {Record<string, KeptList>} data
 * @returns {boolean} false when the browser refuses
 */
function writeAll(data) {
  try { localStorage.setItem(KEY, JSON.stringify(data)); return true; } catch { return false; }
}

/**
 * Every list this browser remembers, most recently saved first.
 * @returns {KeptList[]}
 */
export function savedLists() {
  return Object.values(readAll()).filter((e) => e && e.id).sort((a, b) => (b.savedAt || 0) - (a.savedAt || 0));
}

/**
 * @param {string} id
 * @returns {KeptList | null}
 */
export function savedList(id) { return readAll()[id] || null; }

/**
 * Remember (or update) a list; fields not given are kept.
 * @param {KeptList} entry
 * @returns {boolean} false when the browser refuses
 */
export function remember(entry) {
  const all = readAll();
  all[entry.id] = { ...(all[entry.id] || {}), ...entry, savedAt: entry.savedAt || Date.now() };
  return writeAll(all);
}

/**
 * @param {string} id
 * @returns {void}
 */
export function forget(id) {
  const all = readAll();
  delete all[id];
  writeAll(all);
}

/**
 * A deleted list leaves no copy behind for offline use (the service worker keeps those, sw.js).
 * @param {string} id
 * @returns {Promise<void>}
 */
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

/**
 * @param {string} id
 * @returns {string} the list's page, for anyone to read
 */
export const shareLink = (id) => `${location.origin}/l/${encodeURIComponent(id)}`;
/**
 * The token rides in the #fragment: browsers never send it to the server or its logs.
 * @param {string} id
 * @param {string} token
 * @returns {string}
 */
export const editLink = (id, token) => `${shareLink(id)}#edit=${encodeURIComponent(token)}`;
/**
 * @param {string} book
 * @param {string} id
 * @returns {string} the builder opening the saved list
 */
export const builderLink = (book, id) => `/build/${encodeURIComponent(book)}?list=${encodeURIComponent(id)}`;
/**
 * @param {string} id
 * @returns {string} the list in the API
 */
export const listUrl = (id) => `/api/v1/lists/${encodeURIComponent(id)}`;
/**
 * @param {number} version
 * @returns {string} the ETag the API gives that version (for If-Match)
 */
export const etag = (version) => `"v${version}"`;

/**
 * The edit token's header for the API.
 * @param {string} token
 * @returns {{Authorization: string}}
 */
export const bearer = (token) => ({ Authorization: `Bearer ${token}` });

/**
 * What the browser remembers after the server answered with a saved list (POST, PUT, copy).
 * @param {Record<string, any>} body  the API's saved list
 * @param {string | null} [token]  its edit token, when the answer brought one
 * @returns {void}
 */
export function rememberAnswer(body, token) {
  const list = body.list || {};
  remember({ id: body.id, token: token || (savedList(body.id) || {}).token, book: list.book, system: list.system, name: list.name,
    version: body.version, savedAt: Date.parse(body.updated_at || body.saved_at) || Date.now() });
}

/**
 * Copy a list on the server (no token needed) and remember the new one with its token.
 * @param {string} id
 * @returns {Promise<{made: Record<string, any>, body: Record<string, any>}>} the copy's id and token, and the copy
 */
export async function copyList(id) {
  const made = await api(`${listUrl(id)}/copy`, { method: "POST" });
  const body = await api(listUrl(made.id));
  rememberAnswer(body, made.edit_token);
  return { made, body };
}

/**
 * Put text on the clipboard.
 * @param {string} text
 * @returns {Promise<boolean>} false when the browser refuses (the caller shows the text)
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch { return false; }
}
