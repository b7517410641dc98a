// The table page: game actions through the JSON API (session + CSRF), then reload.
// Issue 4 replaces the polling below with a websocket that pushes each seat its view.
(function () {
  "use strict";
  const root = document.getElementById("table");
  if (!root) return;
  const tableId = root.dataset.tableId;
  let version = Number(root.dataset.version);
  const errorBox = document.getElementById("action-error");

  function csrfToken() {
    const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }

  function selected() {
    return Array.from(document.querySelectorAll("#hand .selected")).map((b) => b.dataset.card);
  }

  async function send(action) {
    action.expect_version = version;
    const response = await fetch(`/api/tables/${tableId}/actions`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(action),
    });
    if (response.ok || response.status === 409) {
      window.location.reload();
      return;
    }
    let message = `error ${response.status}`;
    try {
      const body = await response.json();
      message = body.error ? body.error.message : message;
    } catch (e) { /* not JSON */ }
    if (errorBox) errorBox.textContent = message;
  }

  document.querySelectorAll("#hand [data-card]").forEach((button) => {
    button.addEventListener("click", () => button.classList.toggle("selected"));
  });

  document.querySelectorAll("#actions [data-action]").forEach((button) => {
    button.addEventListener("click", () => {
      const type = button.dataset.action;
      const cards = selected();
      const action = { type };
      if (type === "draw") action.source = button.dataset.source;
      if (type === "lay_down" || type === "mayi_meld") action.cards = cards;
      if (type === "discard") {
        if (cards.length !== 1) { errorBox.textContent = "Select exactly one card to discard."; return; }
        action.card = cards[0];
      }
      send(action);
    });
  });

  document.querySelectorAll("[data-meld]").forEach((meld) => {
    meld.addEventListener("click", () => {
      const cards = selected();
      if (cards.length !== 1) { if (errorBox) errorBox.textContent = "Select one card to lay off."; return; }
      send({ type: "lay_off", card: cards[0], meld: meld.dataset.meld });
    });
  });

  // Until live updates arrive (issue 4): look for a newer version now and then.
  async function poll() {
    try {
      const response = await fetch(`/api/tables/${tableId}`, { credentials: "same-origin" });
      if (response.ok) {
        const body = await response.json();
        if (body.table.version !== version && selected().length === 0) window.location.reload();
      }
    } catch (e) { /* offline: try again later */ }
  }
  setInterval(poll, 10000);
})();
