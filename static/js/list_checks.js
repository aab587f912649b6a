// Checking the list with the API: a debounced POST after every change, stale answers dropped;
// offline, the last report stays (marked as from before) and the check runs again when the
// connection is back.
import { api, debounce, keepFocus } from "./util.js";
import { $, offline, page } from "./builder_state.js";
import { payload } from "./list_format.js";
import { renderList } from "./list_panel.js";
import { renderListCounts, renderTotals } from "./totals_bar.js";
import { renderIssues } from "./issue_list.js";

let validating = 0;       // sequence number of the latest validation request

/**
 * Check the list 300 ms after the last of a run of changes.
 * @type {(() => void) & {flush: () => void}}
 */
export const validateSoon = debounce(() => validateNow(), 300);

/**
 * Check the list now and draw the answer (or why there is none) in every panel that shows it.
 * @returns {Promise<void>}
 */
export async function validateNow() {
  const mine = ++validating;
  $("totals").classList.add("checking");
  try {
    const answer = await api("/api/v1/lists/validate?profiles=true", { method: "POST", body: payload() });
    if (mine !== validating) return;
    page.report = answer;
    page.offlineSince = null;
    keepFocus(renderList);
    renderListCounts();
    page.editor && page.editor.showStatus();
    renderTotals();
    renderIssues();
  } catch (err) {
    if (mine !== validating) return;
    // Offline: the last report stays, marked as not checked since; any other failure drops it.
    if (offline(err)) {
      page.offlineSince = page.offlineSince || new Date();
      retryLater();
    } else page.report = null;
    keepFocus(renderList);
    renderListCounts();
    renderTotals(err);
    renderIssues(err);
  } finally {
    if (mine === validating) $("totals").classList.remove("checking");
  }
}

// Offline, the check runs again when the browser says it is back online; this also tries every
// 30 s, for a server that was unreachable while the browser thought it was online.
/** @type {ReturnType<typeof setTimeout> | null} */
let retry = null;
function retryLater() {
  if (retry) return;
  retry = setTimeout(() => { retry = null; if (page.offlineSince) validateNow(); }, 30000);
}
