// Share and Copy edit link in the builder: both hand out the SAVED version of the list. With
// changes not saved, the player is told which version the link shows and chooses: save first
// and share that, or share the saved version as it is. Nothing is saved for them unasked.
import { h } from "./util.js";
import { copyText, editLink, shareLink } from "./saved_store.js";

/**
 * What the link answers need from the Save controls (saved.js's SavedControls).
 * @typedef {object} LinkHost
 * @property {import("./saved.js").SavedRef | null} current  the saved list being edited
 * @property {boolean} dirty  whether the list here differs from the saved version
 * @property {HTMLElement} linkBox  where the answer goes (beside, never over, the save messages)
 * @property {() => Promise<boolean>} save  save a new version; whether the server took it
 */

/**
 * Share (read-only link) or copy the edit link, asking first when there are unsaved changes.
 * @param {LinkHost} host
 * @param {"share" | "edit"} kind
 * @returns {Promise<void>}
 */
export async function offerLink(host, kind) {
  const c = host.current;
  const what = kind === "share" ? "Share" : "Copy the edit link";
  if (!c) {
    host.linkBox.replaceChildren(h("div", { class: "notice", id: "link-question" },
      h("p", {}, `This list is not saved yet, so there is nothing to ${kind === "share" ? "share" : "link to"}.`),
      h("div", { class: "button-row" },
        h("button", { type: "button", class: "primary", id: "link-save", onclick: () => saveThen(host, kind) }, kind === "share" ? "Save and share" : "Save and copy the edit link"),
        cancel(host))));
    return;
  }
  if (!host.dirty || c.locked) { await giveLink(host, kind); return; }
  host.linkBox.replaceChildren(h("div", { class: "notice", id: "link-question" },
    h("p", {}, `${kind === "share" ? "Shares" : "The edit link opens"} version ${c.version}; your changes are not saved.`),
    h("div", { class: "button-row" },
      h("button", { type: "button", class: "primary", id: "link-save", onclick: () => saveThen(host, kind) }, kind === "share" ? "Save and share" : "Save and copy the edit link"),
      h("button", { type: "button", id: "link-as-saved", onclick: () => giveLink(host, kind) }, `${what === "Share" ? "Share" : "Copy the link to"} version ${c.version}`),
      cancel(host))));
}

/** @param {LinkHost} host */
const cancel = (host) => h("button", { type: "button", id: "link-cancel", onclick: () => host.linkBox.replaceChildren() }, "Cancel");

/**
 * The player chose to save first: the link follows once the server took the new version.
 * @param {LinkHost} host
 * @param {"share" | "edit"} kind
 */
async function saveThen(host, kind) {
  host.linkBox.replaceChildren();
  if (await host.save()) await giveLink(host, kind);
}

/**
 * Copy the link to the saved version and show it.
 * @param {LinkHost} host
 * @param {"share" | "edit"} kind
 * @returns {Promise<void>}
 */
async function giveLink(host, kind) {
  const c = /** @type {import("./saved.js").SavedRef} */ (host.current);  // offered once saved
  const unsaved = host.dirty && !c.locked ? ` It shows version ${c.version}; your changes here are not saved.` : "";
  if (kind === "share") {
    const link = shareLink(c.id);
    const copied = await copyText(link);
    host.linkBox.replaceChildren(h("p", { id: "share-answer" }, (copied ? "Link copied. Anyone with it can read this list and print it." : "Copy this link to share the list.") + unsaved,
      h("input", { type: "text", readonly: true, value: link, class: "link-field", id: "share-link", "aria-label": "Link to share" })));
    return;
  }
  const link = editLink(c.id, /** @type {string} */ (c.token));  // the button shows only while the list has a token
  const copied = await copyText(link);
  host.linkBox.replaceChildren(h("p", { id: "edit-answer" }, (copied ? "Edit link copied. Keep it private: whoever has it can change this list." : "Keep this edit link private.") + unsaved,
    h("input", { type: "text", readonly: true, value: link, class: "link-field", id: "edit-link", "aria-label": "Edit link" })));
}
