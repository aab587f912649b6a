// The read-only page of a saved list (/l/<id>): copy it to edit, take in an edit link, share.
//
// An edit link is this page with the token in the fragment (#edit=<token>). Browsers never
// send a fragment to the server, so the token reaches no log; this script keeps it in the
// browser (with the list in "My lists") and removes it from the address bar at once. An edit
// link pasted into a tab already showing this page changes only the fragment (no reload), so
// it is taken in on hashchange too.
import { api, byId, errorBox, h } from "./util.js";
import { builderLink, copyList, copyText, editLink, listUrl, rememberAnswer, savedList, shareLink } from "./saved_store.js";

const root = byId("saved-list");
const status = byId("saved-status");
const id = root.dataset.id || "";
const { book } = root.dataset;
const say = (/** @type {(Node | string)[]} */ ...nodes) => status.replaceChildren(...nodes);

async function takeEditLink() {
  const match = /^#edit=(.+)$/.exec(location.hash);
  if (!match) return;
  history.replaceState(null, "", location.pathname + location.search);  // the token leaves the address bar
  const token = decodeURIComponent(match[1]);
  try {
    rememberAnswer(await api(listUrl(id)), token);
    say(h("p", { class: "notice ok", id: "can-edit" }, "You can now edit this list in this browser: it is in “My lists”."));
  } catch (err) {
    say(errorBox(err, "Could not open the edit link"));
  }
}

function showEditing() {
  const known = savedList(id);
  const canEdit = Boolean(known && known.token) && root.dataset.locked !== "true";
  byId("edit-list").hidden = !canEdit;
  const copyEdit = byId("copy-edit-link");
  copyEdit.hidden = !(known && known.token);
  copyEdit.onclick = async () => {
    // The button shows only when this browser has the token.
    const link = editLink(id, /** @type {string} */ (known?.token));
    const copied = await copyText(link);
    say(h("p", {}, copied ? "Edit link copied. Keep it private: whoever has it can change this list." : "Keep this edit link private: ",
      copied ? null : h("input", { type: "text", readonly: true, value: link, class: "link-field", "aria-label": "Edit link" })));
  };
}

byId("copy-share").addEventListener("click", async () => {
  const link = shareLink(id);
  const copied = await copyText(link);
  say(h("p", {}, copied ? "Link copied. Anyone with it can read this list." : "Copy this link: ",
    copied ? null : h("input", { type: "text", readonly: true, value: link, class: "link-field", "aria-label": "Link to this list" })));
});

const makeCopy = byId("make-copy", HTMLButtonElement);
makeCopy.addEventListener("click", async () => {
  makeCopy.disabled = true;
  say(h("p", {}, "Making your copy…"));
  try {
    const { made, body } = await copyList(id);
    location.assign(builderLink(body.list.book || book, made.id));
  } catch (err) {
    say(errorBox(err, "Could not copy the list"));
    makeCopy.disabled = false;
  }
});

await takeEditLink();
showEditing();
window.addEventListener("hashchange", async () => {
  await takeEditLink();
  showEditing();
});
// Offline, this page is the copy the service worker kept when it was last opened (sw.js).
if (!navigator.onLine) say(h("p", { class: "notice", id: "kept-copy" }, "Offline: this is the copy of the list kept in this browser when you last opened it."));
