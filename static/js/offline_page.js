// The service worker's offline page (static/app/offline.html): lists the pages kept for offline
// use, so a player without a connection sees where they can go instead of a browser error.
const CACHE = "listbuilder-v1";  // the service worker's cache (static/app/sw.js)

// offline.html has it (no byId from util.js: the worker keeps this module alone for offline use).
const list = /** @type {HTMLUListElement} */ (document.getElementById("kept-pages"));
/**
 * @param {string} path
 * @returns {string | null} what the kept page is, or null for one not worth listing
 */
const label = (path) => {
  const [, kind, id] = path.split("/");
  if (kind === "build") return `Builder: ${decodeURIComponent(id)}`;
  if (kind === "l") return `Saved list ${decodeURIComponent(id)}`;
  if (kind === "books") return `Army book: ${decodeURIComponent(id)}`;
  if (kind === "systems") return `Game system: ${decodeURIComponent(id)}`;
  if (kind === "lists") return "My lists";
  return null;
};

try {
  const cache = await caches.open(CACHE);
  const paths = [...new Set((await cache.keys()).map((r) => new URL(r.url).pathname))].filter(label).sort();
  for (const path of paths) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = path;
    a.textContent = /** @type {string} */ (label(path));  // paths are filtered by label
    li.append(a);
    list.append(li);
  }
} catch { /* no cache storage here: the home link is enough */ }
