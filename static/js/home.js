// Home page: offer to continue the lists kept in this browser.
import { h, readDrafts } from "./util.js";

const section = document.getElementById("drafts");
const drafts = readDrafts();
if (section && drafts.length) {
  const list = section.querySelector("ul");
  for (const { list: army, savedAt, bookName } of drafts) {
    const when = savedAt ? new Date(savedAt).toLocaleString() : "";
    const units = (army.units || []).length;
    list.append(h("li", {},
      h("a", { href: `/build/${encodeURIComponent(army.book)}` }, army.name || "Unnamed list"),
      h("span", { class: "meta" }, ` ${bookName || army.book} · ${units} unit${units === 1 ? "" : "s"}${when ? ` · saved ${when}` : ""}`)));
  }
  section.hidden = false;
}
