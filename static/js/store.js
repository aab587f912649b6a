// The list in progress and its history: every edit is one labelled step that undo and redo walk.
//
// Kept apart from the page so the builder (and later panels) change the list one way only:
// store.edit(label, fn). Snapshots are whole lists (a list is a few kilobytes), which keeps
// undo exact without an inverse for every kind of edit.

const LIMIT = 200;        // steps kept; the oldest are dropped
const MERGE_MS = 1500;    // typing into one field within this long is one step

/** @typedef {import("./api_shapes.js").ArmyList} ArmyList */
/** @typedef {{label: string, kind: "edit" | "replace" | "undo" | "redo", light?: boolean}} Change */

export class ListStore {
  /** @param {ArmyList} list  the list to start from */
  constructor(list) {
    this.list = list;
    /** @type {{list: ArmyList, label: string}[]} newest last */
    this.past = [];
    /** @type {{list: ArmyList, label: string}[]} */
    this.future = [];
    /** @type {Set<(list: ArmyList, change: Change) => void>} */
    this.listeners = new Set();
    /** @type {{key: string, at: number} | null} */
    this.lastMerge = null;
  }

  /**
   * fn(list) -> () => void: called after every change with (list, {label, kind}).
   * @param {(list: ArmyList, change: Change) => void} fn
   * @returns {() => void} stops calling fn
   */
  subscribe(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * @param {string} label
   * @param {Change["kind"]} kind
   * @param {{light?: boolean}} [detail]
   */
  emit(label, kind, detail = {}) {
    for (const fn of this.listeners) fn(this.list, { label, kind, ...detail });
  }

  /**
   * Change the list: fn mutates it in place; the list before is kept for undo.
   * merge: a string naming a field being typed into; repeated edits of it soon after merge.
   * @template R
   * @param {string} label
   * @param {(list: ArmyList) => R} fn
   * @param {{merge?: string | null, light?: boolean}} [options]  light: passed on to the listeners
   * @returns {R} what fn returned
   */
  edit(label, fn, { merge = null, ...detail } = {}) {
    const now = Date.now();
    const merging = merge && this.lastMerge && this.lastMerge.key === merge && now - this.lastMerge.at < MERGE_MS;
    const before = structuredClone(this.list);
    const result = fn(this.list);
    if (!merging) {
      this.past.push({ list: before, label });
      if (this.past.length > LIMIT) this.past.shift();
    }
    this.lastMerge = merge ? { key: merge, at: now } : null;
    this.future = [];
    this.emit(label, "edit", detail);
    return result;
  }

  /**
   * Replace the whole list (a file or a saved list opened); undo brings the old one back.
   * @param {ArmyList} list
   * @param {string} label
   * @returns {void}
   */
  replace(list, label) {
    this.past.push({ list: this.list, label });
    if (this.past.length > LIMIT) this.past.shift();
    this.future = [];
    this.lastMerge = null;
    this.list = list;
    this.emit(label, "replace");
  }

  get canUndo() { return this.past.length > 0; }
  get canRedo() { return this.future.length > 0; }
  get undoLabel() { return this.canUndo ? this.past[this.past.length - 1].label : null; }
  get redoLabel() { return this.canRedo ? this.future[this.future.length - 1].label : null; }

  /** @returns {string | null} the label of the step undone (stepping back), or null when there is none */
  undo() {
    const step = this.past.pop();
    if (!step) return null;
    this.future.push({ list: this.list, label: step.label });
    this.list = step.list;
    this.lastMerge = null;
    this.emit(step.label, "undo");
    return step.label;
  }

  /** @returns {string | null} the label of the step redone, or null when there is none */
  redo() {
    const step = this.future.pop();
    if (!step) return null;
    this.past.push({ list: this.list, label: step.label });
    this.list = step.list;
    this.lastMerge = null;
    this.emit(step.label, "redo");
    return step.label;
  }
}
