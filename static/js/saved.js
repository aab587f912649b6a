// Save and Share in the builder: the list in progress as a saved list on the server.
//
// The builder calls initSaved({container, bookId, getList, setList}) once its book is loaded:
//   getList()     -> the list in the API's format (what POST /lists/validate takes)
//   setList(data) -> replace the list in progress (a saved list opened with ?list=<id>)
// Everything else lives here, so the builder's own code knows nothing about saving.
//
// Save creates the list (POST) the first time and a new version (PUT, with the edit token and
// If-Match) after that. If the list was saved elsewhere in the meantime the server answers 412;
// the player is told so in words and chooses: load the saved version, save theirs over it, or
// save theirs as a new list. Nothing they built is thrown away without them asking.
import { api, ApiError, errorBox, h } from "./util.js";
import { bearer, builderLink, editLink, etag, listUrl, rememberAnswer, savedList, shareLink, copyText } from "./saved_store.js";

const PENDING = "listbuilder.pending-save.";

export function initSaved({ container, bookId, getList, setList }) {
  if (!container) return null;
  const saved = new SavedControls(container, bookId, getList, setList);
  saved.start();
  return saved;
}

class SavedControls {
  constructor(container, bookId, getList, setList) {
    Object.assign(this, { container, bookId, getList, setList });
    this.current = null;   // {id, version, token, locked} of the saved list being edited
    this.snapshot = null;  // the list as last saved or loaded, to tell unsaved changes
    this.saveButton = h("button", { type: "button", id: "save-list", class: "primary", onclick: () => this.save() }, "Save");
    this.shareButton = h("button", { type: "button", id: "share-list", onclick: () => this.share() }, "Share");
    this.editLinkButton = h("button", { type: "button", id: "copy-edit-link", hidden: true, onclick: () => this.copyEditLink() }, "Copy edit link");
    this.state = h("p", { class: "saved-state", id: "saved-state" });
    this.message = h("div", { id: "saved-message", class: "saved-message", role: "status", "aria-live": "polite" });
    container.replaceChildren(
      h("div", { class: "button-row" }, this.saveButton, this.shareButton, this.editLinkButton,
        h("a", { class: "button", href: "/lists" }, "My lists")),
      this.state, this.message);
    const recheck = () => setTimeout(() => this.showState(), 0);
    for (const type of ["input", "change", "click"]) document.addEventListener(type, recheck, true);
  }

  /**
   * No connection: the list is already kept in this browser (the builder's draft); remember
   * that it owes the server a save and send it as soon as the browser is back online.
   */
  queue() {
    try { localStorage.setItem(PENDING + this.bookId, "1"); } catch { /* storage off: this tab still retries */ }
    this.pending = true;
    this.say(h("p", { class: "notice", id: "save-queued" }, "Offline: saved in this browser. It goes to the server when the connection is back."));
  }

  async flush() {
    if (!this.pending || !navigator.onLine) return;
    this.pending = false;
    if (await this.save()) {
      try { localStorage.removeItem(PENDING + this.bookId); } catch { /* nothing to clear */ }
      this.say(h("p", { id: "save-synced" }, `Back online: the list saved offline is on the server (version ${this.current.version}).`));
    }
  }

  async start() {
    window.addEventListener("online", () => this.flush());
    try { this.pending = localStorage.getItem(PENDING + this.bookId) === "1"; } catch { this.pending = false; }
    const id = new URLSearchParams(location.search).get("list");
    if (!id) { this.showState(); this.flush(); return; }
    try {
      await this.open(id, { keepLocal: this.pending });
    } catch (err) {
      if (err instanceof ApiError && err.status === 0) {
        // Offline, and this browser never opened the list (the service worker keeps the ones
        // it did): keep its address and open it when the connection is back.
        this.say(h("p", { class: "notice", id: "saved-offline" }, "Offline: this saved list has not been opened in this browser before, so it is not kept here. It opens when the connection is back; meanwhile this is your draft."));
        window.addEventListener("online", () => this.open(id, { keepLocal: this.pending }).catch((again) => this.say(errorBox(again, "Could not open the saved list"))), { once: true });
        return;
      }
      this.say(errorBox(err, err instanceof ApiError && (err.status === 404 || err.status === 410)
        ? "That saved list is not on the server any more" : "Could not open the saved list"));
      this.forgetUrl();
    }
  }

  /** Open a saved list; keepLocal: a save made offline is waiting, so the list here wins. */
  async open(id, { keepLocal = false } = {}) {
    const body = await api(listUrl(id));
    if (body.list.book !== this.bookId) {
      location.replace(builderLink(body.list.book, id));
      return;
    }
    const known = savedList(id);
    this.current = { id, version: body.version, token: known && known.token, locked: body.locked };
    if (keepLocal) {
      this.snapshot = null;
      this.showState();
      await this.flush();
      return;
    }
    this.setList(body.list);
    this.snapshot = this.text();
    if (this.current.token) rememberAnswer(body);
    const name = body.list.name ? `“${body.list.name}”` : "the saved list";
    const kept = navigator.onLine ? "" : " Offline: this is the copy kept in this browser when you last opened it.";
    this.say(h("p", { id: "saved-opened" }, (this.current.token
      ? `Opened ${name}, version ${body.version}.`
      : `Opened ${name} to read. This browser has no edit link for it, so saving makes a new list of your own.`) + kept));
    this.showState();
  }

  text() { return JSON.stringify(this.getList()); }

  get dirty() { return this.snapshot === null || this.text() !== this.snapshot; }

  showState() {
    const c = this.current;
    this.editLinkButton.hidden = !(c && c.token);
    if (!c) this.state.textContent = "Not saved on the server yet: Save keeps it under a link you can open anywhere.";
    else if (c.locked) this.state.textContent = `Version ${c.version} is locked (submitted). Saving makes a new list.`;
    else if (this.dirty) this.state.textContent = `Unsaved changes since version ${c.version}.`;
    else this.state.textContent = `All changes saved (version ${c.version}).`;
  }

  say(...nodes) { this.message.replaceChildren(...nodes); }

  /** Save a new version; *ifMatch* overrides the version the change is made to ("*": any). */
  async save({ ifMatch = null } = {}) {
    const c = this.current;
    this.saveButton.disabled = true;
    try {
      if (c && c.token && !c.locked) {
        ifMatch = ifMatch || etag(c.version);
        const body = await api(listUrl(c.id), { method: "PUT", body: this.getList(), headers: { ...bearer(c.token), "If-Match": ifMatch } });
        this.saved(body, c.token);
        this.say(h("p", {}, `Saved as version ${body.version}.`));
      } else {
        await this.saveAsNew();
      }
      return true;
    } catch (err) {
      this.refused(err);
      return false;
    } finally {
      this.saveButton.disabled = false;
      this.showState();
    }
  }

  async saveAsNew() {
    const made = await api("/api/v1/lists", { method: "POST", body: this.getList() });
    const body = await api(listUrl(made.id));
    this.saved(body, made.edit_token);
    history.replaceState(null, "", builderLink(this.bookId, made.id));
    this.say(h("p", {}, "Saved. ", h("a", { href: shareLink(made.id) }, "Its page"),
      " can be shared; “Copy edit link” gives the link that opens it for editing on another device."));
  }

  saved(body, token) {
    this.current = { id: body.id, version: body.version, token, locked: body.locked };
    this.snapshot = this.text();
    rememberAnswer(body, token);
  }

  /** Tell the player, in words, why a save was refused and what they can do. */
  refused(err) {
    const status = err instanceof ApiError ? err.status : 0;
    if (status === 0) { this.queue(); return; }
    const asNew = h("button", { type: "button", id: "save-as-new", onclick: () => this.choose(() => this.saveAsNew()) }, "Save mine as a new list");
    if (status === 412) {
      const now = err.body && /version (\d+)/.exec(err.body.message || "");
      const theirs = now ? Number(now[1]) : null;
      this.say(h("div", { class: "notice error conflict", role: "alert" },
        h("p", {}, `Not saved: this list was changed somewhere else (another device or tab) after you opened it. `
          + `${theirs ? `Version ${theirs} is saved on the server; you were editing version ${this.current.version}. ` : ""}`
          + "Your changes are still here."),
        h("div", { class: "button-row" },
          h("button", { type: "button", id: "load-theirs", onclick: () => this.choose(() => this.open(this.current.id)) },
            theirs ? `Load version ${theirs} (drop my changes)` : "Load the saved version (drop my changes)"),
          h("button", { type: "button", id: "save-over", onclick: () => this.choose(() => this.save({ ifMatch: theirs ? etag(theirs) : "*" })) }, "Save mine over it"),
          asNew)));
    } else if (status === 409) {
      const most = err.body && /(\d+) versions/.exec(err.body.message || "");
      this.say(h("div", { class: "notice error", role: "alert" },
        h("p", {}, `Not saved: this list already has ${most ? most[1] : "the most"} versions, the most one list keeps. Your changes are still here.`), asNew));
    } else if (status === 423) {
      this.current.locked = true;
      this.say(h("div", { class: "notice error", role: "alert" }, h("p", {}, "Not saved: this list is locked (it was submitted), so it cannot change any more."), asNew));
    } else if (status === 401 || status === 403) {
      this.say(h("div", { class: "notice error", role: "alert" }, h("p", {}, "Not saved: the server did not accept this browser's edit token for the list."), asNew));
    } else if (status === 404 || status === 410) {
      this.say(h("div", { class: "notice error", role: "alert" }, h("p", {}, "Not saved: the list was deleted from the server."), asNew));
    } else {
      this.say(errorBox(err, "Not saved"));
    }
  }

  async choose(action) {
    try {
      await action();
    } catch (err) {
      this.refused(err);
    }
    this.showState();
  }

  async share() {
    if ((!this.current || this.dirty) && !(await this.save())) return;
    const link = shareLink(this.current.id);
    const copied = await copyText(link);
    this.say(h("p", {}, copied ? "Link copied. Anyone with it can read this list and print it: " : "Copy this link to share the list: ",
      h("input", { type: "text", readonly: true, value: link, class: "link-field", id: "share-link", "aria-label": "Link to share" })));
  }

  async copyEditLink() {
    const link = editLink(this.current.id, this.current.token);
    const copied = await copyText(link);
    this.say(h("p", {}, copied ? "Edit link copied. Keep it private: whoever has it can change this list. " : "Keep this edit link private: ",
      h("input", { type: "text", readonly: true, value: link, class: "link-field", id: "edit-link", "aria-label": "Edit link" })));
  }

  forgetUrl() { history.replaceState(null, "", location.pathname); }
}
