// The lobby's small behaviours: copy buttons for invite links, the create form showing only
// the options of the chosen ruleset (the server ignores the others anyway), and the lists kept
// fresh: a lobby left open in a tab says when a game waits on me, in the list and the title.
import { bindCopyButtons } from "./copy.js"; // its import binds the page's copy buttons

function showRulesetOptions(form) {
  const select = form.querySelector("select[name=ruleset]");
  if (!select) return;
  const update = () => {
    const chosen = select.value;
    for (const el of form.querySelectorAll("[data-rulesets]")) {
      el.hidden = !el.dataset.rulesets.split(" ").includes(chosen);
    }
    for (const el of form.querySelectorAll(".ruleset-desc[data-ruleset]")) {
      el.hidden = el.dataset.ruleset !== chosen;
    }
  };
  select.addEventListener("change", update);
  update();
}

const form = document.getElementById("new-table");
if (form) showRulesetOptions(form);

// ---- the lists, fetched again ------------------------------------------------------------------
const REFRESH_MS = 30000;
const baseTitle = document.title;

function markTitle(lists) {
  // "(2) Your games · May I?": the games waiting on me (my turn, or a "May I?" to answer).
  const waiting = lists.querySelectorAll("#my-games li[data-mark]").length;
  document.title = waiting ? `(${waiting}) ${baseTitle}` : baseTitle;
}

function keepFresh(lists) {
  let last = null;
  let busy = false;
  const refresh = async () => {
    // Not under the player's hands: a focused link or field (the invite link selected to copy)
    // would be swapped away. The next round tries again.
    if (busy || lists.contains(document.activeElement)) return;
    busy = true;
    try {
      const response = await fetch(lists.dataset.refresh, { credentials: "same-origin", headers: { Accept: "text/html" } });
      if (!response.ok) return;
      const html = await response.text();
      if (html === last) return;
      last = html;
      lists.innerHTML = html;
      bindCopyButtons(lists);
      markTitle(lists);
    } catch {
      // Offline for a moment: the next round tries again.
    } finally {
      busy = false;
    }
  };
  markTitle(lists);
  setInterval(refresh, REFRESH_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });
}

const lists = document.getElementById("lobby-lists");
if (lists && lists.dataset.refresh) keepFresh(lists);
