// The builder page's first script (templates/builder.html loads it): the page's own HTML and
// styles paint first, then the builder's modules load (builder.js and the two dozen it imports).
// On a phone's network those requests, started before the first paint, are what that paint would
// wait for; started after it, they no longer hold it up. A page opened in a hidden tab (no
// frames drawn) loads them at once.
let started = false;

function load() {
  if (started) return;
  started = true;
  import("./builder.js").catch((err) => {
    const box = document.getElementById("fatal");
    if (!box) return;
    box.textContent = `The list builder could not load (${err && err.message ? err.message : err}). Your list is kept in this browser; reload to try again.`;
    box.hidden = false;
  });
}

if (document.visibilityState === "hidden") load();
else requestAnimationFrame(() => { setTimeout(load, 0); });
