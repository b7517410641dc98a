// The header's "Your games" count on every page (templates/base.html): the games that wait on
// me, fetched again from GET /api/me/waiting with the lobby's 30 s timer, when the tab comes
// back, and on the table page as soon as a frame of its socket arrives (a move there may be
// the one that hands me the turn). The count also leads the tab's title: "(2) Lobby · May I?".
const badge = document.getElementById("your-games");
const REFRESH_MS = 30000;
// A burst of frames (a bot's turn is several moves) asks once.
const FRAME_DELAY_MS = 800;

function titled(count) {
  const bare = document.title.replace(/^\(\d+\) /, "");
  return count ? `(${count}) ${bare}` : bare;
}

function show(count) {
  badge.dataset.count = String(count);
  badge.classList.toggle("waiting", count > 0);
  const number = badge.querySelector(".count");
  number.textContent = String(count);
  number.hidden = count === 0;
  badge.setAttribute("aria-label", `Your games: ${count} waiting on you`);
  const title = titled(count);
  if (document.title !== title) document.title = title;
}

if (badge) {
  let busy = false;
  let again = false;
  const refresh = async () => {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const response = await fetch(badge.dataset.source, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (response.ok) show((await response.json()).count);
    } catch {
      // Offline for a moment: the next round tries again.
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  };
  show(Number(badge.dataset.count) || 0);
  // Pages set their own title as the game moves ("● Your turn · ..."): keep the count in front.
  const title = document.querySelector("title");
  if (title) {
    new MutationObserver(() => {
      const wanted = titled(Number(badge.dataset.count) || 0);
      if (document.title !== wanted) document.title = wanted;
    }).observe(title, { childList: true, characterData: true, subtree: true });
  }
  setInterval(refresh, REFRESH_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });
  let frameTimer = null;
  window.addEventListener("mayi:socket", (event) => {
    if (!event.detail || event.detail.type !== "table") return;
    clearTimeout(frameTimer);
    frameTimer = setTimeout(refresh, FRAME_DELAY_MS);
  });
}
