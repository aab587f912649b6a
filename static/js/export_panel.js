// The "Print & save" panel's buttons: the PDF roster, the text export, the list as a JSON file
// and back, and a new list. (Save and Share on the server are saved.js's.)
import { api, errorBox, saveBlob, slug } from "./util.js";
import { describeWork, draftKey, readDraft, writeDraft } from "./drafts.js";
import { $, BOOK_ID, loadBook, page } from "./builder_state.js";
import { freshList, payload } from "./list_format.js";
import { replaceList } from "./list_edits.js";

/**
 * Wire the panel's buttons.
 * @returns {void}
 */
export function wireExport() {
  const status = $("export-status");
  const fileName = () => slug(page.list.name || page.book.name);
  const pdfButton = $("download-pdf", HTMLButtonElement);
  pdfButton.addEventListener("click", async () => {
    const button = pdfButton;
    const paper = $("paper", HTMLSelectElement).value;
    button.disabled = true;
    status.textContent = "Printing the roster…";
    try {
      const layout = $("layout", HTMLSelectElement).value;
      const blob = await api(`/api/v1/rosters/pdf?paper=${paper}&layout=${layout}`, { method: "POST", body: payload(), as: "blob" });
      saveBlob(blob, `${fileName()}-${layout === "cards" ? "cards-" : ""}${paper}.pdf`);
      status.textContent = `PDF roster downloaded (${paper === "a4" ? "A4" : "Letter"}).`;
    } catch (err) {
      status.replaceChildren(errorBox(err, "No PDF"));
    } finally {
      button.disabled = false;
    }
  });
  $("copy-text").addEventListener("click", async () => {
    status.textContent = "Writing the text export…";
    let text;
    try {
      text = await api("/api/v1/rosters/text", { method: "POST", body: payload(), as: "text" });
    } catch (err) {
      status.replaceChildren(errorBox(err, "No text export"));
      return;
    }
    const area = $("text-export", HTMLTextAreaElement);
    area.value = text;
    $("text-export-field").hidden = false;
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = "Text export copied to the clipboard.";
    } catch {
      area.focus();
      area.select();
      status.textContent = "Copying is blocked here: the text is selected below, press Ctrl+C (or ⌘C).";
    }
  });
  $("save-json").addEventListener("click", () => {
    saveBlob(new Blob([JSON.stringify(payload(), null, 2) + "\n"], { type: "application/json" }), `${fileName()}.json`);
    status.textContent = "List saved as a JSON file.";
  });
  const load = $("load-json", HTMLInputElement);
  load.addEventListener("change", async () => {
    const file = load.files && load.files[0];
    load.value = "";
    if (!file) return;
    let data;
    try {
      data = JSON.parse(await file.text());
    } catch (err) {
      status.replaceChildren(errorBox(new Error(`${file.name} is not a JSON file: ${/** @type {Error} */ (err).message}`)));
      return;
    }
    if (data && data.list && !data.units) data = data.list; // golden-list files wrap the list
    if (!data || typeof data !== "object" || !Array.isArray(data.units) || !data.book) {
      status.replaceChildren(errorBox(new Error(`${file.name} is not an army list (it needs "book" and "units").`)));
      return;
    }
    if (data.book !== BOOK_ID) {
      let other;
      try {
        other = await loadBook(data.book);
      } catch (err) {
        status.replaceChildren(errorBox(err, `${file.name} is for a book this server does not have`));
        return;
      }
      const kept = readDraft(draftKey(other.id));
      if (kept && kept.list.units.length && !window.confirm(`${file.name} is a ${other.name} list. This browser keeps an unsaved `
        + `${other.name} list, ${describeWork(kept.list)}, which it would replace. Replace it?`)) {
        status.textContent = `Not loaded: the ${other.name} list kept in this browser is unchanged.`;
        return;
      }
      writeDraft(draftKey(other.id), { list: data, bookName: other.name });
      window.location.assign(`/build/${encodeURIComponent(other.id)}`);
      return;
    }
    startNewList(data, `Load ${file.name}`, `Loaded ${file.name} as a new list.`);
  });
  $("clear-list").addEventListener("click", () => startNewList(freshList(), "New list", "New list started."));
}

/**
 * Start a new list (empty, or from a file) in the book's new-list slot: the saved list being
 * edited is left as it is (its unsaved changes stay kept as its draft), so the next Save makes
 * another list. Asks first when that would replace a list not saved anywhere else.
 * @param {any} next  the new list, in the API's format
 * @param {string} label  the step's name, as undo says it
 * @param {string} done  what the status line says after
 */
function startNewList(next, label, done) {
  const { saved, list } = page;
  if (!saved) return;  // the page always has its Save controls: builder.html's #saved-controls
  const status = $("export-status");
  const unsaved = saved.listId ? readDraft(draftKey(BOOK_ID))?.list : list;
  if (unsaved && unsaved.units.length && !window.confirm(`${label} replaces ${describeWork(unsaved)}, `
    + `${saved.listId ? "the new list kept in this browser, " : ""}which is not saved on the server. Continue?`)) {
    status.textContent = "Nothing replaced.";
    return;
  }
  const left = saved.detach();
  replaceList(next, label);
  status.textContent = done + (left === null ? "" : ` Your unsaved changes to ${left ? `“${left}”` : "the saved list"} stay kept in this browser: open it again to save or discard them.`);
}
