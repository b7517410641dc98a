// The lobby's small behaviours: copy buttons for invite links, the create form showing only
// the options of the chosen ruleset (the server ignores the others anyway), and the lists kept
// fresh: a lobby left open in a tab says when a game waits on me.
import { bindCopyButtons } from "./copy.js"; // its import binds the page's copy buttons

function showRulesetOptions(form) {
  const select = form.querySelector("select[name=ruleset]");
  if (!select) return;
  const update = () => {
    const chosen = select.value;
    for (const el of form.querySelectorAll("[data-rulesets]:not(option)")) {
      el.hidden = !el.dataset.rulesets.split(" ").includes(chosen);
    }
    for (const el of form.querySelectorAll(".ruleset-desc[data-ruleset]")) {
      el.hidden = el.dataset.ruleset !== chosen;
    }
    // The seat counts the chosen ruleset plays with (the engine's range, in the options'
    // data-rulesets): 2 seats only where 2 may play; a count it does not allow moves to the
    // nearest one it does.
    const seats = form.querySelector("select[name=seats]");
    if (!seats) return;
    const allowed = (opt) => !opt.dataset.rulesets || opt.dataset.rulesets.split(" ").includes(chosen);
    for (const opt of seats.options) {
      opt.hidden = opt.disabled = !allowed(opt);
    }
    if (seats.selectedOptions[0] && seats.selectedOptions[0].disabled) {
      const want = Number(seats.value);
      const near = [...seats.options].filter((o) => !o.disabled)
        .sort((a, b) => Math.abs(Number(a.value) - want) - Math.abs(Number(b.value) - want))[0];
      if (near) seats.value = near.value;
    }
  };
  select.addEventListener("change", update);
  update();
}

const form = document.getElementById("new-table");
if (form) showRulesetOptions(form);

// ---- the lists, fetched again ------------------------------------------------------------------
// The count of the games waiting on me, in the header and the title, is static/js/waiting.js's.
const REFRESH_MS = 30000;

// The open tables' filters chosen but not yet sent: a refresh would put the old ones back.
function filtersChanged(lists) {
  const filters = lists.querySelector("#lobby-filters");
  if (!filters) return false;
  return [...filters.querySelectorAll("select")].some((select) => {
    const rendered = select.querySelector("option[selected]") || select.options[0];
    return rendered && select.value !== rendered.value;
  });
}

function keepFresh(lists) {
  let last = null;
  let busy = false;
  const refresh = async () => {
    // Not under the player's hands: a focused link or field (the invite link selected to copy)
    // would be swapped away. The next round tries again.
    if (busy || lists.contains(document.activeElement) || filtersChanged(lists)) return;
    busy = true;
    try {
      const response = await fetch(lists.dataset.refresh, { credentials: "same-origin", headers: { Accept: "text/html" } });
      if (!response.ok) return;
      const html = await response.text();
      if (html === last) return;
      last = html;
      lists.innerHTML = html;
      bindCopyButtons(lists);
    } catch {
      // Offline for a moment: the next round tries again.
    } finally {
      busy = false;
    }
  };
  setInterval(refresh, REFRESH_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });
}

const lists = document.getElementById("lobby-lists");
if (lists && lists.dataset.refresh) keepFresh(lists);
