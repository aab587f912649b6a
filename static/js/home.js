// Home page: offer to continue the lists kept in this browser (drafts.js).
import { h } from "./util.js";
import { readDrafts } from "./drafts.js";

const section = document.getElementById("drafts");
const drafts = readDrafts();
if (section && drafts.length) {
  const list = /** @type {HTMLUListElement} */ (section.querySelector("ul"));  // home.html's #drafts has one
  for (const { list: army, savedAt, bookName, listId } of drafts) {
    const when = savedAt ? new Date(savedAt).toLocaleString() : "";
    const units = (army.units || []).length;
    const href = `/build/${encodeURIComponent(army.book)}${listId ? `?list=${encodeURIComponent(listId)}` : ""}`;
    list.append(h("li", {},
      h("a", { href }, army.name || "Unnamed list"),
      h("span", { class: "meta" }, ` ${bookName || army.book} · ${units} unit${units === 1 ? "" : "s"}`
        + `${listId ? " · changes not saved yet" : " · not saved on the server"}${when ? ` · kept ${when}` : ""}`)));
  }
  section.hidden = false;
}
