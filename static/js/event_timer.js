// The round timer, shown on every page of an event (its day, a player's page, the standings):
// a line at the top of the page counting down to the end the organiser set, from the server's
// clock (GET /timer), asked again every minute so a change reaches every phone.
import { api, h } from "./util.js";

/**
 * Put the round timer of event *id* at the top of *root*, and keep it current.
 * @param {HTMLElement} root  the page's article
 * @param {string} id  the event's id
 * @returns {() => Promise<void>} asks the server again now (after the organiser changed it)
 */
export function showTimer(root, id) {
  const line = h("p", { class: "round-timer", role: "timer", "aria-live": "off", hidden: true });
  root.prepend(line);
  /** @type {number | null} the end, in this device's clock */
  let end = null;
  let round = 0;
  const tick = () => {
    if (end === null) { line.hidden = true; return; }
    const left = Math.max(0, Math.round((end - Date.now()) / 1000));
    const hours = Math.floor(left / 3600);
    const clock = `${hours ? `${hours}:` : ""}${String(Math.floor(left / 60) % 60).padStart(hours ? 2 : 1, "0")}:${String(left % 60).padStart(2, "0")}`;
    line.textContent = left ? `Round ${round}: ${clock} left` : `Round ${round}: time is up`;
    line.classList.toggle("up", left === 0);
    line.hidden = false;
  };
  const ask = async () => {
    try {
      const body = await api(`/api/v1/events/${encodeURIComponent(id)}/timer`);
      round = body.round;
      end = body.ends_at ? Date.now() + (Date.parse(body.ends_at) - Date.parse(body.now)) : null;
      tick();
    } catch { /* offline for a moment: the last countdown goes on */ }
  };
  ask();
  setInterval(tick, 1000);
  setInterval(ask, 60000);
  return ask;
}
