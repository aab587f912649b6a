// Earlier versions of a saved list, in the builder: each one can be restored in one step. A
// restore saves that version's list as a new version (nothing saved is ever rewritten), and in
// the builder it is one undoable step, so changes not saved before it are one Undo away.
import { api, errorBox, h } from "./util.js";
import { bearer, etag, listUrl } from "./saved_store.js";

const PAGE = 100;  // the newest versions listed; older ones stay in the API (GET …/versions?offset=)

/**
 * What the versions panel needs from the Save controls (saved.js's SavedControls).
 * @typedef {object} VersionsHost
 * @property {import("./saved.js").SavedRef | null} current  the saved list being edited
 * @property {(body: Record<string, any>, token: string | null | undefined) => void} saved  the server took a version
 * @property {(data: any, label: string) => void} setList  replace the list in progress, as one undoable step
 * @property {(...nodes: (Node | string)[]) => void} say  the Save messages
 * @property {(err: unknown) => void} refused  why a save was refused, in words
 * @property {() => void} showState  say again where the list stands (saved, unsaved…)
 */

export class VersionsPanel {
  /** @param {VersionsHost} host */
  constructor(host) {
    this.host = host;
    this.rows = h("ol", { class: "versions", id: "versions-list" });
    this.element = h("details", { class: "versions-panel", id: "versions", hidden: true },
      h("summary", {}, "Earlier versions"), this.rows);
    this.element.addEventListener("toggle", () => { if (/** @type {HTMLDetailsElement} */ (this.element).open) this.load(); });
  }

  /** Shown for a saved list this browser can edit; its rows are drawn again when it is open. */
  refresh() {
    const c = this.host.current;
    this.element.hidden = !(c && c.token && !c.locked && c.version > 1);
    if (!this.element.hidden && /** @type {HTMLDetailsElement} */ (this.element).open) this.load();
  }

  async load() {
    const c = this.host.current;
    if (!c) return;
    try {
      // The API pages versions oldest first (100 to a page): the newest page is the one shown.
      let answer = await api(`${listUrl(c.id)}/versions?limit=${PAGE}`);
      if (answer.total > PAGE) answer = await api(`${listUrl(c.id)}/versions?limit=${PAGE}&offset=${answer.total - PAGE}`);
      this.rows.replaceChildren(...answer.versions.slice().reverse().map((/** @type {Record<string, any>} */ v) => h("li", { class: "version-row" },
        h("span", {}, `Version ${v.version}`, v.version === answer.current ? " (current)" : "",
          h("span", { class: "meta" }, ` · ${v.name ? `“${v.name}” · ` : ""}${v.units} unit${v.units === 1 ? "" : "s"} · ${new Date(v.saved_at).toLocaleString()}`)),
        v.version === answer.current ? null
          : h("button", { type: "button", id: `restore-${v.version}`, onclick: () => this.restore(v.version) }, `Restore version ${v.version}`))));
    } catch (err) {
      this.rows.replaceChildren(h("li", {}, errorBox(err, "Could not list the versions")));
    }
  }

  /**
   * Save version *number*'s list as the newest version, and show it here.
   * @param {number} number
   * @returns {Promise<void>}
   */
  async restore(number) {
    const c = this.host.current;
    if (!c || !c.token) return;
    try {
      const old = await api(`${listUrl(c.id)}/versions/${number}`);
      const body = await api(listUrl(c.id), { method: "PUT", body: old.list, headers: { ...bearer(c.token), "If-Match": etag(c.version) } });
      this.host.setList(body.list, `Restore version ${number}`);
      this.host.saved(body, c.token);
      this.host.showState();
      this.host.say(h("p", { id: "restored" }, `Restored version ${number}: it is saved as version ${body.version}. Undo brings back what you had here before.`));
      this.refresh();
    } catch (err) {
      this.host.refused(err);
      this.host.showState();
    }
  }
}
