// Which events hold a locked list, in words with links: the server names them (GET
// /api/v1/lists/<id> "events"), so every browser can say it, not only the one that submitted.
import { h } from "./util.js";

/**
 * An event as the saved list's answer names it.
 * @typedef {{id: string, name: string | null, deleted: boolean, url: string | null}} LockingEvent
 */

/**
 * "“Autumn Open” and “Club Night”": each live event a link to its page; a deleted one is named
 * only if this browser remembers the name it submitted to, and says it was deleted.
 * @param {LockingEvent[]} events  the answer's events (at least one)
 * @param {{id: string, name: string} | undefined} [remembered]  the event this browser submitted the list to
 * @param {boolean} [quoted]  names in quotes, inside a sentence of other words
 * @returns {(Node | string)[]}
 */
export function eventNames(events, remembered, quoted = false) {
  const parts = events.flatMap((e) => {
    if (!e.deleted) {
      const link = h("a", { href: `/events/${encodeURIComponent(e.id)}`, class: "locked-event" }, e.name || "an event");  // this site's page, by path
      return quoted ? [h("span", {}, "“", link, "”")] : [link];
    }
    const words = remembered && remembered.id === e.id ? `“${remembered.name}” (since deleted by its organiser)` : "an event since deleted by its organiser";
    return [h("span", { class: "locked-event deleted" }, words)];
  });
  return parts.flatMap((part, i) => (i === 0 ? [part] : [i === parts.length - 1 ? " and " : ", ", part]));
}
