// Installable and offline: registers the service worker (/sw.js) and, on the first visit (before
// the worker is in control), hands it every file and book this page loads, so that visit is
// kept too. Loaded by every page.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", async () => {
    try {
      await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      if (navigator.serviceWorker.controller) return; // already kept as it loads
      const ready = await navigator.serviceWorker.ready;
      const keep = (urls) => ready.active && ready.active.postMessage({ keep: urls });
      keep([location.href, ...performance.getEntriesByType("resource").map((r) => r.name)]);
      // Reads still under way at load time (the army book) are handed over as they finish.
      new PerformanceObserver((found) => keep(found.getEntries().map((r) => r.name))).observe({ type: "resource" });
    } catch { /* no service worker (private mode, old browser): the site still works online */ }
  });
}
