// Work kept in this browser (localStorage) so that nothing a player built is lost to a reload,
// a closed tab or a lost connection.
//
// Each book has two kinds of slot, so that one list never overwrites another:
//   listbuilder.draft.<book>             the list not saved on the server yet ("New list")
//   listbuilder.draft.<book>?list=<id>   changes to saved list <id> not saved yet; it exists
//                                        only while the list here differs from the server's
// A draft is {list, savedAt, bookName, listId, baseVersion, pending}: baseVersion is the saved
// version the changes were made to (a save sends it as If-Match, so a version saved elsewhere
// meanwhile is never overwritten silently); pending says a save was asked for while offline.

/**
 * @typedef {object} Draft
 * @property {any} list  the list in the API's format (units always an array)
 * @property {number} [savedAt]
 * @property {string} [bookName]
 * @property {string | null} [listId]
 * @property {number | null} [baseVersion]
 * @property {boolean} [pending]
 */

export const DRAFT_PREFIX = "listbuilder.draft.";

/**
 * The slot of a book's new list (no id) or of unsaved changes to saved list *listId*.
 * @param {string} book
 * @param {string | null} [listId]
 * @returns {string}
 */
export const draftKey = (book, listId = null) => DRAFT_PREFIX + book + (listId ? `?list=${listId}` : "");

/**
 * @param {string} key  a slot (draftKey)
 * @returns {Draft | null} the draft kept there, or null (none, or not readable)
 */
export function readDraft(key) {
  try {
    const draft = JSON.parse(localStorage.getItem(key) || "null");
    return draft && draft.list && Array.isArray(draft.list.units) ? draft : null;
  } catch { return null; }  // a corrupt draft is dropped
}

/**
 * Keep a draft in a slot, stamped with the time.
 * @param {string} key
 * @param {Draft} draft
 * @returns {boolean} false when the browser refuses (storage full or off): the list still works in this tab
 */
export function writeDraft(key, draft) {
  try {
    localStorage.setItem(key, JSON.stringify({ ...draft, savedAt: Date.now() }));
    return true;
  } catch { return false; }
}

/**
 * @param {string} key
 * @returns {void}
 */
export function dropDraft(key) {
  try { localStorage.removeItem(key); } catch { /* storage off: nothing kept either */ }
}

/**
 * Every draft in this browser, most recent first (the home page offers to continue them).
 * @returns {Draft[]}
 */
export function readDrafts() {
  /** @type {Draft[]} */
  const drafts = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(DRAFT_PREFIX)) continue;
      const draft = readDraft(key);
      if (draft && draft.list.book) drafts.push(draft);
    }
  } catch { /* storage disabled: no drafts */ }
  return drafts.sort((a, b) => (b.savedAt || 0) - (a.savedAt || 0));
}

/**
 * "“Club night” (3 units)": how a confirmation names the work it would replace.
 * @param {{name?: string, units?: unknown[]}} list
 * @returns {string}
 */
export function describeWork(list) {
  const n = (list.units || []).length;
  return `${list.name ? `“${list.name}”` : "an unnamed list"} (${n} unit${n === 1 ? "" : "s"})`;
}
