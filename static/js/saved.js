// Save and Share in the builder: the list in progress as a saved list on the server.
//
// The builder calls initSaved({container, bookId, bookName, getList, setList, canonical}) once
// its book is loaded:
//   getList()       -> the list in the API's format (what POST /lists/validate takes)
//   setList(data)   -> replace the list in progress (a saved list opened with ?list=<id>)
//   canonical(data) -> a list in the API's format as getList() would give it once set
// Everything else lives here, so the builder's own code knows nothing about saving. The builder
// calls keepDraft() after every change: this module knows which slot of drafts.js the list
// belongs in (the book's new list, or unsaved changes to the saved list being edited).
//
// Save creates the list (POST) the first time and a new version (PUT, with the edit token and
// If-Match) after that. If the list was saved elsewhere in the meantime the server answers 412;
// the player is told so in words and chooses: load the saved version, save theirs over it, or
// save theirs as a new list. Nothing they built is thrown away without them asking.
//
// Unsaved changes to a saved list are a draft of their own (drafts.js): a reload, a closed tab
// or the next visit restores them and offers Save or Discard, and they never overwrite the
// book's new list or another saved list's changes.
import { api, ApiError, errorBox, h } from "./util.js";
import { bearer, builderLink, etag, listUrl, rememberAnswer, savedList, shareLink } from "./saved_store.js";
import { draftKey, dropDraft, readDraft, writeDraft } from "./drafts.js";
import { eventNames } from "./locked_by.js";
import { offerLink } from "./saved_links.js";
import { VersionsPanel } from "./saved_versions.js";

/**
 * @typedef {object} SavedOptions
 * @property {HTMLElement | null} container  where the Save and Share controls go
 * @property {HTMLElement | null} [bar]  the sticky bar's place for the list's state and a Save button
 * @property {string} bookId
 * @property {string} bookName
 * @property {() => Record<string, any>} getList  the list in the API's format (what POST /lists/validate takes)
 * @property {(data: any, label?: string) => void} setList  replace the list in progress (a saved list opened with ?list=<id>), as one undoable step named label
 * @property {(data: any) => Record<string, any>} canonical  a list in the API's format as getList() would give it once set
 */

/** @typedef {{id: string, version: number, token?: string | null, locked?: boolean, events?: import("./locked_by.js").LockingEvent[]}} SavedRef */

/**
 * "Club night (copy)": the name a locked list's changes are saved under, saying it is a copy.
 * @param {string | undefined} name
 * @returns {string}
 */
export const copyName = (name) => (name ? `${name.replace(/ \(copy\)$/, "")} (copy)` : "Copy of an unnamed list");

/**
 * The saved list the builder's address names (?list=<id>), or null for the book's new list.
 * @returns {string | null}
 */
export const listIdInAddress = () => new URLSearchParams(location.search).get("list");

/**
 * Draw the Save and Share controls and open the saved list the address names, if any.
 * @param {SavedOptions} options
 * @returns {SavedControls | null} null when the page has no place for them
 */
export function initSaved(options) {
  const { container } = options;
  if (!container) return null;
  const saved = new SavedControls({ ...options, container });
  saved.start();
  return saved;
}

class SavedControls {
  /** @param {SavedOptions & {container: HTMLElement}} options */
  constructor({ container, bar = null, bookId, bookName, getList, setList, canonical }) {
    this.container = container;
    this.bookId = bookId;
    this.bookName = bookName;
    this.getList = getList;
    this.setList = setList;
    this.canonical = canonical;
    this.listId = listIdInAddress();  // the saved list this builder edits (or is opening)
    /** @type {SavedRef | null} the saved list being edited */
    this.current = null;
    /** @type {string | null} the list as last saved or loaded, to tell unsaved changes */
    this.snapshot = null;
    /** @type {boolean | undefined} a save is owed to the server (asked for while offline) */
    this.pending = undefined;
    /** a save was refused because the list was saved elsewhere meanwhile, and nothing settled it yet */
    this.conflict = false;
    this.saveButton = h("button", { type: "button", id: "save-list", class: "primary", onclick: () => this.save() }, "Save");
    this.shareButton = h("button", { type: "button", id: "share-list", onclick: () => offerLink(this, "share") }, "Share");
    this.editLinkButton = h("button", { type: "button", id: "copy-edit-link", hidden: true, onclick: () => offerLink(this, "edit") }, "Copy edit link");
    this.state = h("p", { class: "saved-state", id: "saved-state" });
    this.message = h("div", { id: "saved-message", class: "saved-message", role: "status", "aria-live": "polite" });
    this.linkBox = h("div", { id: "link-message", class: "saved-message", role: "status", "aria-live": "polite" });
    this.versions = new VersionsPanel(this);
    container.replaceChildren(
      h("div", { class: "button-row" }, this.saveButton, this.shareButton, this.editLinkButton,
        h("a", { class: "button", href: "/lists" }, "My lists")),
      this.state, this.message, this.linkBox, this.versions.element);
    // The sticky bar: the state in one word or two, and Save, on screen at every width.
    this.barState = h("span", { class: "bar-state", id: "bar-state" });
    this.barSave = h("button", { type: "button", id: "bar-save", class: "primary", onclick: () => this.save() }, "Save");
    if (bar) bar.replaceChildren(this.barState, this.barSave);
    window.addEventListener("offline", () => this.showState());
    window.addEventListener("online", () => this.showState());
    const recheck = () => setTimeout(() => this.showState(), 0);
    for (const type of ["input", "change", "click"]) document.addEventListener(type, recheck, true);
  }

  /**
   * No connection: the list is already kept in this browser (the builder's draft); remember
   * that it owes the server a save and send it as soon as the browser is back online.
   */
  queue() {
    this.pending = true;
    this.keepDraft();
    this.say(h("p", { class: "notice", id: "save-queued" }, "Offline: saved in this browser. It goes to the server when the connection is back."));
  }

  async flush() {
    if (!this.pending || !navigator.onLine) return;
    this.pending = false;
    if (await this.save()) {
      this.say(h("p", { id: "save-synced" }, `Back online: the list saved offline is on the server (version ${this.opened.version}).`));
    }
  }

  /**
   * The saved list being edited, where the code runs only once there is one (after an open or
   * a save): this.current, typed as there.
   * @returns {SavedRef}
   */
  get opened() { return /** @type {SavedRef} */ (this.current); }

  /** @returns {string} the drafts.js slot the list in progress belongs in */
  slot() { return draftKey(this.bookId, this.listId); }

  /**
   * Keep the list in progress in this browser (called after every change). Changes to a saved
   * list are kept while they differ from the server's version, and dropped once saved.
   */
  keepDraft() {
    const key = this.slot();
    const opened = this.listId && this.snapshot !== null;
    if (opened && !this.dirty && !this.pending) { dropDraft(key); return; }
    const before = readDraft(key);
    writeDraft(key, { list: this.getList(), bookName: this.bookName, listId: this.listId,
      baseVersion: this.current ? this.current.version : before && before.baseVersion, pending: Boolean(this.pending) });
  }

  async start() {
    window.addEventListener("online", () => this.flush());
    const draft = readDraft(this.slot());
    this.pending = Boolean(draft && draft.pending);
    const id = this.listId;
    if (!id) { this.showState(); this.flush(); return; }
    try {
      await this.open(id, { restore: true });
    } catch (err) {
      if (err instanceof ApiError && err.status === 0) {
        // Offline, and this browser never opened the list (the service worker keeps the ones
        // it did): keep its address and open it when the connection is back.
        this.say(h("p", { class: "notice", id: "saved-offline" }, "Offline: this saved list has not been opened in this browser before, so it is not kept here. It opens when the connection is back; meanwhile this is your draft."));
        window.addEventListener("online", () => this.open(id, { restore: true }).catch((again) => this.say(errorBox(again, "Could not open the saved list"))), { once: true });
        return;
      }
      this.say(errorBox(err, err instanceof ApiError && (err.status === 404 || err.status === 410)
        ? "That saved list is not on the server any more" : "Could not open the saved list"));
      this.forgetUrl();
    }
  }

  /**
   * Open a saved list. restore: changes to it kept in this browser (its draft, which the
   * builder started from) win over the server's version, and the player is asked what to do.
   * @param {string} id
   * @param {{restore?: boolean}} [options]
   * @returns {Promise<void>}
   */
  async open(id, { restore = false } = {}) {
    const body = await api(listUrl(id));
    if (body.list.book !== this.bookId) {
      location.replace(builderLink(body.list.book, id));
      return;
    }
    const known = savedList(id);
    const draft = restore ? readDraft(draftKey(this.bookId, id)) : null;
    const theirs = JSON.stringify(this.canonical(body.list));
    this.listId = id;
    this.snapshot = theirs;
    this.conflict = false;
    if (draft && JSON.stringify(this.canonical(draft.list)) !== theirs) {
      // The changes are made to the version they started from: a save of them sends that
      // version as If-Match, so one saved elsewhere since is a conflict, never overwritten.
      this.current = { id, version: draft.baseVersion || body.version, token: known && known.token, locked: body.locked, events: body.events };
      if (this.pending && navigator.onLine) await this.flush();
      else this.offerDraft(draft, body);
      this.showState();
      return;
    }
    this.current = { id, version: body.version, token: known && known.token, locked: body.locked, events: body.events };
    this.setList(body.list);
    this.keepDraft();
    if (this.current.token) rememberAnswer(body);
    const name = body.list.name ? `“${body.list.name}”` : "the saved list";
    const kept = navigator.onLine ? "" : " Offline: this is the copy kept in this browser when you last opened it.";
    this.say(h("p", { id: "saved-opened" }, (this.current.token
      ? `Opened ${name}, version ${body.version}.`
      : `Opened ${name} to read. This browser has no edit link for it, so saving makes a new list of your own.`) + kept));
    this.showState();
  }

  /**
   * Changes kept in this browser differ from the saved list: say so, and offer Save or Discard.
   * @param {import("./drafts.js").Draft} draft
   * @param {Record<string, any>} body  the saved list, as the API sent it
   */
  offerDraft(draft, body) {
    const name = draft.list.name ? `“${draft.list.name}”` : "this list";
    const when = draft.savedAt ? ` (${new Date(draft.savedAt).toLocaleString()})` : "";
    const since = body.version > this.opened.version ? ` Version ${body.version} was saved since, elsewhere.` : "";
    this.say(h("div", { class: "notice draft-restored", id: "draft-restored" },
      h("p", {}, `Restored your unsaved changes to ${name}${when}: they are kept in this browser and differ from `
        + `the saved version ${this.opened.version}.${since}`),
      h("div", { class: "button-row" },
        h("button", { type: "button", class: "primary", id: "draft-save", onclick: () => this.choose(() => this.save()) }, "Save them"),
        h("button", { type: "button", id: "draft-discard", onclick: () => this.choose(() => this.discard()) }, `Discard them (back to version ${body.version})`))));
  }

  async discard() {
    await this.open(/** @type {string} */ (this.listId));  // offered for an opened list only
    this.say(h("p", { id: "draft-discarded" }, `Changes discarded: this is version ${this.opened.version} as saved.`));
  }

  /**
   * Stop editing the saved list (the builder starts a new list next): its unsaved changes, if
   * any, stay kept as its draft. Returns the name of a list left with unsaved changes ("" when
   * it has none), or null when nothing unsaved was left.
   * @returns {string | null}
   */
  detach() {
    const left = this.listId && this.dirty ? (JSON.parse(this.snapshot || "{}").name || "") : null;
    this.listId = null;
    this.current = null;
    this.snapshot = null;
    this.pending = false;
    this.forgetUrl();
    this.say();
    this.showState();
    return left;
  }

  text() { return JSON.stringify(this.getList()); }

  get dirty() { return this.snapshot === null || this.text() !== this.snapshot; }

  showState() {
    const c = this.current;
    this.editLinkButton.hidden = !(c && c.token);
    if (!c) this.state.textContent = "Not saved on the server yet: Save keeps it under a link you can open anywhere.";
    else if (c.locked) this.state.textContent = `Version ${c.version} is locked (submitted). Saving makes a new list, named as a copy.`;
    else if (this.dirty) this.state.textContent = `Unsaved changes since version ${c.version}.`;
    else this.state.textContent = `All changes saved (version ${c.version}).`;
    const [word, tone] = this.conflict ? ["Conflict: saved elsewhere", "bad"]
      : this.pending || !navigator.onLine ? [this.pending ? "Offline: save waiting" : "Offline", "warn"]
        : !c ? ["Not saved", "warn"] : c.locked ? ["Locked", "warn"]
          : this.dirty ? ["Unsaved changes", "warn"] : [`Saved (v${c.version})`, "ok"];
    this.barState.textContent = word;
    this.barState.className = `bar-state ${tone}`;
    this.barState.dataset.state = this.conflict ? "conflict" : this.pending || !navigator.onLine ? "offline" : !c ? "new" : c.locked ? "locked" : this.dirty ? "unsaved" : "saved";
    this.versions.refresh();
  }

  /** @param {...(Node | string)} nodes  the message (none: clear it) */
  say(...nodes) { this.message.replaceChildren(...nodes); }

  /**
   * Save a new version; *ifMatch* overrides the version the change is made to ("*": any).
   * @param {{ifMatch?: string | null}} [options]
   * @returns {Promise<boolean>} whether the server took it
   */
  async save({ ifMatch = null } = {}) {
    const c = this.current;
    if (c && c.locked) { this.offerCopy(); return false; }
    this.saveButton.disabled = this.barSave.disabled = true;
    this.barState.textContent = "Saving…";
    try {
      if (c && c.token) {
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
      this.saveButton.disabled = this.barSave.disabled = false;
      this.showState();
    }
  }

  /** A locked list cannot change: offer its changes as a new list whose name says it is a copy. */
  offerCopy() {
    const name = copyName(this.getList().name);
    // Locked since it was opened (a 423): the server's events are not known here, this browser's submission may be
    const local = savedList(this.opened.id)?.event;
    const events = this.opened.events?.length ? this.opened.events : local ? [{ ...local, deleted: false, url: null }] : [];
    const held = events.length ? [" (it was submitted to ", ...eventNames(events, local, true), ")"] : [];
    this.say(h("div", { class: "notice", id: "locked-question" },
      h("p", {}, `Version ${this.opened.version} of this list is locked`, ...held, ", so it cannot change. "
        + `Your changes can be saved as a new list, “${name}”; the submitted list stays as it is.`),
      h("div", { class: "button-row" },
        h("button", { type: "button", class: "primary", id: "save-copy", onclick: () => this.choose(() => this.saveAsNew({ name })) }, "Save as a new list"),
        h("button", { type: "button", id: "save-copy-cancel", onclick: () => this.say() }, "Cancel"))));
  }

  /**
   * Save the list in progress as a new list of its own (under *name*, when given).
   * @param {{name?: string}} [options]
   */
  async saveAsNew({ name } = {}) {
    const list = this.getList();
    if (name !== undefined) list.name = name;
    const made = await api("/api/v1/lists", { method: "POST", body: list });
    const body = await api(listUrl(made.id));
    if (name !== undefined) this.setList(body.list, "Save as a new list");
    // What was kept here as a draft (the book's new list, or changes the player chose to save
    // as a list of their own) is on the server now, under the new id.
    dropDraft(this.slot());
    this.listId = made.id;
    this.saved(body, made.edit_token);
    history.replaceState(null, "", builderLink(this.bookId, made.id));
    this.say(h("p", {}, "Saved. ", h("a", { href: shareLink(made.id) }, "Its page"),
      " can be shared; “Copy edit link” gives the link that opens it for editing on another device."));
  }

  /**
   * @param {Record<string, any>} body  the saved list, as the API sent it
   * @param {string | null | undefined} token  its edit token
   */
  saved(body, token) {
    this.current = { id: body.id, version: body.version, token, locked: body.locked };
    this.conflict = false;
    this.snapshot = this.text();
    this.pending = false;
    this.keepDraft();
    rememberAnswer(body, token);
  }

  /**
   * Tell the player, in words, why a save was refused and what they can do.
   * @param {unknown} err
   */
  refused(err) {
    const status = err instanceof ApiError ? err.status : 0;
    const answer = err instanceof ApiError ? err.body : null;
    if (status === 0) { this.queue(); return; }
    const asNew = h("button", { type: "button", id: "save-as-new", onclick: () => this.choose(() => this.saveAsNew()) }, "Save mine as a new list");
    if (status === 412) {
      this.conflict = true;
      const now = answer && /version (\d+)/.exec(answer.message || "");
      const theirs = now ? Number(now[1]) : null;
      this.say(h("div", { class: "notice error conflict", role: "alert" },
        h("p", {}, `Not saved: this list was changed somewhere else (another device or tab) after you opened it. `
          + `${theirs ? `Version ${theirs} is saved on the server; you were editing version ${this.opened.version}. ` : ""}`
          + "Your changes are still here."),
        h("div", { class: "button-row" },
          h("button", { type: "button", id: "load-theirs", onclick: () => this.choose(() => this.open(this.opened.id)) },
            theirs ? `Load version ${theirs} (drop my changes)` : "Load the saved version (drop my changes)"),
          h("button", { type: "button", id: "save-over", onclick: () => this.choose(() => this.save({ ifMatch: theirs ? etag(theirs) : "*" })) }, "Save mine over it"),
          asNew)));
    } else if (status === 409) {
      const most = answer && /(\d+) versions/.exec(answer.message || "");
      this.say(h("div", { class: "notice error", role: "alert" },
        h("p", {}, `Not saved: this list already has ${most ? most[1] : "the most"} versions, the most one list keeps. Your changes are still here.`), asNew));
    } else if (status === 423) {
      this.opened.locked = true;
      this.offerCopy();
    } else if (status === 401 || status === 403) {
      this.say(h("div", { class: "notice error", role: "alert" }, h("p", {}, "Not saved: the server did not accept this browser's edit token for the list."), asNew));
    } else if (status === 404 || status === 410) {
      this.say(h("div", { class: "notice error", role: "alert" }, h("p", {}, "Not saved: the list was deleted from the server."), asNew));
    } else {
      this.say(errorBox(err, "Not saved"));
    }
  }

  /** @param {() => Promise<unknown>} action  one of the choices offered after a refusal */
  async choose(action) {
    try {
      await action();
    } catch (err) {
      this.refused(err);
    }
    this.showState();
  }

  forgetUrl() { history.replaceState(null, "", location.pathname); }
}
