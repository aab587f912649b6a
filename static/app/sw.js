// The service worker: keeps the app and the army books a player opened, so the builder loads
// and works with the network off. Served as /sw.js (scope: the whole site).
//
// Pages, book/system reads and the saved lists a player opened (their page /l/<id> and their
// API read): network first, the last copy fetched when offline, so a list opened by its link
// at home opens at the club table too. Static files: the kept copy at once, refreshed in the
// background. Writes (POST, PUT, DELETE) are never kept or answered from here: the pages queue
// saves themselves (see saved.js). A page never opened here, asked for offline, gets our own
// offline page (static/app/offline.html, kept at install) instead of the browser's error.
const CACHE = "listbuilder-v1";
const KEEP = [/^\/static\//, /^\/api\/v1\/systems(\/|$)/, /^\/api\/v1\/books(\/|\?|$)/, /^\/(build|books|systems|lists)(\/|$)/, /^\/$/, /^\/favicon\.ico$/, /^\/manifest\.webmanifest$/,
  /^\/l\/[^/]+$/, /^\/api\/v1\/lists\/[^/]+$/];
// The builder's page is the same for every ?list=<id>: any kept copy of it will do.
const SAME_PAGE_ANY_QUERY = /^\/build\//;
// Answers that mean the kept copy is wrong now: the list was deleted.
const GONE = new Set([404, 410]);

const keepable = (url) => url.origin === self.location.origin && KEEP.some((re) => re.test(url.pathname));

const OFFLINE_PAGE = "/static/app/offline.html";
const OFFLINE_FILES = [OFFLINE_PAGE, "/static/css/app.css", "/static/css/dark.css", "/static/js/offline_page.js", "/favicon.ico"];

self.addEventListener("install", (event) => {
  self.skipWaiting();
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(OFFLINE_FILES)).catch(() => null));
});

async function offlinePage() {
  const kept = await caches.match(OFFLINE_PAGE);
  return kept || new Response("<!doctype html><title>You are offline</title><h1>You are offline</h1><p>This page opens when the connection is back.</p>",
    { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

/** A page this worker does not keep: the network, or our offline page when there is none. */
function pageOrOffline(request) {
  if (self.navigator.onLine === false) return offlinePage();
  return fetch(request).catch(() => offlinePage());
}
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

// A page tells us what it loaded before we controlled it (its first visit): keep those too.
self.addEventListener("message", (event) => {
  const urls = (event.data && event.data.keep) || [];
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    for (const href of urls) {
      const url = new URL(href, self.location.origin);
      if (!keepable(url) || await cache.match(url.href)) continue;
      try {
        const response = await fetch(url.href, { credentials: "same-origin" });
        if (response.ok) await cache.put(url.href, response);
      } catch { /* offline already: nothing to keep */ }
    }
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (!keepable(url)) {
    if (request.mode === "navigate") event.respondWith(pageOrOffline(request));
    return;
  }
  event.respondWith(url.pathname.startsWith("/static/") ? keptFirst(event) : networkFirst(request));
});

const PATIENCE_MS = 4000; // a club's bad Wi-Fi: after this long the kept copy answers

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  const url = new URL(request.url);
  const kept = await cache.match(request, { ignoreVary: true })
    || (SAME_PAGE_ANY_QUERY.test(url.pathname) ? await cache.match(request, { ignoreVary: true, ignoreSearch: true }) : undefined);
  if (kept && self.navigator.onLine === false) return kept;
  if (!kept && request.mode === "navigate") {
    if (self.navigator.onLine === false) return offlinePage();
    return fetchAndKeep(request, cache).catch(() => offlinePage());
  }
  const network = fetchAndKeep(request, cache);
  if (!kept) return network;
  const slow = new Promise((resolve) => setTimeout(() => resolve(kept), PATIENCE_MS));
  return Promise.race([network.catch(() => kept), slow]);
}

function fetchAndKeep(request, cache) {
  return fetch(request).then(async (response) => {
    if (response.ok) await cache.put(request, response.clone());
    else if (GONE.has(response.status)) await cache.delete(request);
    return response;
  });
}

async function keptFirst(event) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(event.request);
  const fresh = fetch(event.request).then(async (response) => {
    if (response.ok) await cache.put(event.request, response.clone());
    return response;
  });
  if (kept) {
    event.waitUntil(fresh.catch(() => null));
    return kept;
  }
  return fresh;
}
