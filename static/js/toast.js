// A short note at the foot of the screen after a one-tap change ("Added Ash Wardens"), with
// Undo and, for a new unit, Edit: the change is made at once and taking it back is one tap.
import { h } from "./util.js";
import { $ } from "./builder_state.js";

/** @type {ReturnType<typeof setTimeout> | null} */
let timer = null;

/**
 * Show the toast; the next toast replaces it, and it leaves by itself after a while.
 * @param {string} text
 * @param {{label: string, action: () => void, id: string}[]} buttons
 * @returns {void}
 */
export function toast(text, buttons) {
  const box = $("toast");
  if (timer) clearTimeout(timer);
  box.replaceChildren(h("span", { class: "toast-text" }, text),
    ...buttons.map((b) => h("button", { type: "button", id: b.id, onclick: () => { hideToast(); b.action(); } }, b.label)));
  box.hidden = false;
  timer = setTimeout(hideToast, 10000);
}

/** @returns {void} */
export function hideToast() {
  if (timer) clearTimeout(timer);
  timer = null;
  $("toast").hidden = true;
}
