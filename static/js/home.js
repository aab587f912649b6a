// Home page: offer to continue the lists kept in this browser (drafts.js). A draft with nothing
// in it (no name, no units) is not offered, and each one offered can be dismissed.
import { counted, h } from "./util.js";
import { draftKey, dropDraft, readDrafts } from "./drafts.js";

const section = document.getElementById("drafts");

/** Draw the drafts worth continuing; the section hides when none is left. */
function render() {
  if (!section) return;
  const list = /** @type {HTMLUListElement} */ (section.querySelector("ul"));  // home.html's #drafts has one
  const drafts = readDrafts().filter((d) => (d.list.units || []).length || d.list.name);
  list.replaceChildren(...drafts.map((draft) => {
    const { list: army, savedAt, bookName, listId } = draft;
    const when = savedAt ? new Date(savedAt).toLocaleString() : "";
    const units = (army.units || []).length;
    const name = army.name || "Unnamed list";
    const href = `/build/${encodeURIComponent(army.book)}${listId ? `?list=${encodeURIComponent(listId)}` : ""}`;
    return h("li", { class: "draft" },
      h("a", { href }, name),
      h("span", { class: "meta" }, ` ${bookName || army.book} · ${counted(units, "unit")}`
        + `${listId ? " · changes not saved yet" : " · not saved on the server"}${when ? ` · kept ${when}` : ""} `),
      h("button", { type: "button", class: "forget-draft", "aria-label": `Dismiss ${name}`,
        onclick: () => {
          const what = listId ? "the changes not saved to" : "the list";
          if (units && !window.confirm(`Dismiss ${what} “${name}” kept in this browser? It cannot be brought back.`)) return;
          dropDraft(draftKey(army.book, listId || null));
          render();
        } }, "Dismiss"));
  }));
  section.hidden = drafts.length === 0;
}

render();
