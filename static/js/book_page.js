// /books/<id>: filter the book as the player types (units, their upgrades, rules and spells).
// book.html has these (no byId from util.js: this page loads no other module).
const input = /** @type {HTMLInputElement} */ (document.getElementById("book-search"));
const count = /** @type {HTMLElement} */ (document.getElementById("book-count"));
const none = /** @type {HTMLElement} */ (document.getElementById("no-match"));
const items = [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".searchable"))];
const units = items.filter((el) => el.classList.contains("book-unit"));

function filter() {
  const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const el of items) {
    const text = (el.textContent || "").toLowerCase();
    const match = words.every((w) => text.includes(w));
    el.hidden = !match;
    if (match && units.includes(el)) shown++;
    // A match inside an upgrade opens it, so the player sees why the unit is shown.
    if (words.length) for (const d of el.querySelectorAll("details")) d.open = match && words.some((w) => (d.textContent || "").toLowerCase().includes(w));
  }
  count.textContent = words.length ? `${shown} of ${units.length} units match` : `${units.length} units`;
  none.hidden = items.some((el) => !el.hidden);
}

input.addEventListener("input", filter);
// Printing shows everything, upgrades open.
window.addEventListener("beforeprint", () => { for (const d of document.querySelectorAll("details")) d.open = true; });
