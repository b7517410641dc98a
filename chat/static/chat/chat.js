// The table chat panel (chat/templates/chat/_panel.html): reads GET /api/tables/<id>/chat,
// posts with the CSRF token, and takes new messages from the table page's socket, which
// static/js/table.js dispatches as "mayi:socket" events. Text is only ever set as
// textContent: a message is plain text, whatever characters it holds.

const panel = document.getElementById("chat");

if (panel) {
  const api = panel.dataset.api;
  const reportApi = panel.dataset.reportApi;
  const list = document.getElementById("chat-messages");
  const empty = document.getElementById("chat-empty");
  const older = document.getElementById("chat-older");
  const form = document.getElementById("chat-form");
  const input = document.getElementById("chat-text");
  const errorBox = document.getElementById("chat-error");
  const reactionsBox = document.getElementById("chat-reactions");
  const dialog = document.getElementById("chat-report-dialog");
  const reportForm = document.getElementById("chat-report-form");
  const reportDone = document.getElementById("chat-report-done");
  const playerForm = document.getElementById("chat-report-player-form");
  const csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  const shown = new Map(); // id -> <li>
  let oldestId = null;

  const post = (url, body) =>
    fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
    }).then(async (response) => {
      const data = await response.json().catch(() => ({}));
      if (!response.ok) {
        throw new Error((data.error && data.error.message) || `error ${response.status}`);
      }
      return data;
    });

  function time(iso) {
    const date = new Date(iso);
    // In the viewer's zone (their profile's: base.html's data-time-zone).
    const timeZone = document.documentElement.dataset.timeZone || undefined;
    try {
      return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", timeZone });
    } catch (e) {
      return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    }
  }

  function render(message) {
    const li = document.createElement("li");
    li.className = "chat-message";
    li.dataset.id = message.id;
    if (message.author === null) li.classList.add("notice");
    if (message.mine) li.classList.add("mine");
    if (message.reaction) li.classList.add("reaction");
    const who = document.createElement("span");
    who.className = "chat-author";
    who.textContent = message.author === null ? "May I?" : message.author;
    const when = document.createElement("time");
    when.className = "chat-time";
    when.dateTime = message.created;
    when.textContent = time(message.created);
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = message.text;
    li.append(who, " ", text, " ", when);
    if (message.author !== null && !message.mine) {
      const report = document.createElement("button");
      report.type = "button";
      report.className = "link chat-report";
      report.textContent = "Report";
      report.setAttribute("aria-label", `Report this message by ${message.author}`);
      report.addEventListener("click", () => openReport(message));
      li.append(" ", report);
    }
    return li;
  }

  function place(message, atTop = false) {
    if (message.hidden) {
      const gone = shown.get(message.id);
      if (gone) gone.remove();
      shown.delete(message.id);
    } else if (!shown.has(message.id)) {
      const li = render(message);
      shown.set(message.id, li);
      // Ids grow with time: keep the list in id order whichever way a message arrives.
      const after = [...list.children].find((el) => Number(el.dataset.id) > message.id);
      if (atTop || after) list.insertBefore(li, after || list.firstChild);
      else list.append(li);
      if (oldestId === null || message.id < oldestId) oldestId = message.id;
    }
    empty.hidden = shown.size > 0;
  }

  function scrollToEnd() {
    list.scrollTop = list.scrollHeight;
  }

  async function load(before = null) {
    const url = before === null ? api : `${api}?before=${before}`;
    const response = await fetch(url, { credentials: "same-origin" });
    if (!response.ok) return;
    const data = await response.json();
    data.messages.forEach((m) => place(m));
    if (before === null || older.hidden === false) older.hidden = !data.more;
    if (before === null) {
      drawReactions(data.reactions);
      scrollToEnd();
    }
  }

  function drawReactions(reactions) {
    if (reactionsBox.childElementCount) return;
    for (const [key, label] of Object.entries(reactions)) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "chat-reaction";
      button.textContent = label;
      button.addEventListener("click", () => send({ reaction: key }));
      reactionsBox.append(button);
    }
  }

  async function send(body) {
    errorBox.textContent = "";
    try {
      const message = await post(api, body);
      place(message);
      scrollToEnd();
      return true;
    } catch (err) {
      errorBox.textContent = err.message;
      return false;
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (await send({ text })) input.value = "";
    input.focus();
  });

  older.addEventListener("click", () => { if (oldestId !== null) load(oldestId); });

  // The page's socket: every message it receives comes here too.
  window.addEventListener("mayi:socket", (event) => {
    const message = event.detail;
    if (message && message.type === "table" && message.table && message.table.aborted) {
      // Aborted by a moderator: the chat is closed (its notice says why).
      form.hidden = true;
      reactionsBox.hidden = true;
      return;
    }
    if (!message || message.type !== "chat" || !message.message) return;
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    place(message.message);
    if (atEnd) scrollToEnd();
  });

  // Back from a sleeping laptop: what was said meanwhile came while the socket was down.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") load();
  });

  // ---- reports -----------------------------------------------------------------------------
  function openReport(message) {
    reportForm.reset();
    reportForm.elements.message.value = message.id;
    document.getElementById("chat-report-quote").textContent = `${message.author}: ${message.text}`;
    dialog.showModal();
  }

  document.getElementById("chat-report-cancel").addEventListener("click", () => dialog.close());

  async function report(formEl, extra) {
    const data = new FormData(formEl);
    const body = { reason: data.get("reason"), note: data.get("note") || "", ...extra };
    try {
      await post(reportApi, body);
      reportDone.textContent = "Thank you: the moderators will look at it.";
      return true;
    } catch (err) {
      reportDone.textContent = `The report was not sent: ${err.message}`;
      return false;
    }
  }

  reportForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (await report(reportForm, { message: Number(reportForm.elements.message.value) })) {
      dialog.close();
    }
  });

  if (playerForm) {
    playerForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (await report(playerForm, { user: playerForm.elements.user.value })) {
        playerForm.reset();
        document.getElementById("chat-report-player").open = false;
      }
    });
  }

  load();
}
