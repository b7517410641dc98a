// The table page, live. The page draws the game from the payload the server embedded (the same
// JSON as GET /api/tables/<id>), then from the frames of the table's websocket: the server
// pushes this user's view after every committed change. Actions go through the JSON API.
//
// Staying right: every frame carries the table version; older or equal frames are ignored, a
// jump of more than one re-reads the table with a GET, and a dropped socket (daphne and proxies
// close idle ones) reconnects with backoff and is answered with a fresh frame. While the socket
// is down the page says "reconnecting…" and, as a fallback only, polls the API.
(function () {
  "use strict";
  const root = document.getElementById("table");
  if (!root) return;
  const tableId = root.dataset.tableId;
  const embedded = document.getElementById("table-payload");
  const $ = (id) => document.getElementById(id);

  let version = Number(root.dataset.version);
  let meta = null;
  let view = null;
  const selected = new Set();
  const logLines = [];

  // ---- cards ---------------------------------------------------------------------------
  const SUITS = { M: "suit-m", A: "suit-a", Y: "suit-y", I: "suit-i" };
  // view.faces (every card id the view shows -> rank, suit, wild, label, color) draws any
  // card set (bga letters, standard suits, Rook colours); a card no longer shown falls back.
  function faceOf(id) { return id && view && view.faces ? view.faces[id] : null; }
  function suitClass(id) {
    const f = faceOf(id);
    if (f) return f.wild ? "wild" : SUITS[f.suit] || `color-${f.color || "none"}`;
    return SUITS[id.slice(-1)] || "wild";
  }
  function face(id) { const f = faceOf(id); return f ? f.label : id ? id.slice(1) : ""; }
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("data-")) node.setAttribute(k, v);
      else node[k] = v;
    }
    for (const c of children) node.append(c);
    return node;
  }
  function cardSpan(id) { return el("span", { class: `card-face ${suitClass(id)}`, text: face(id) }); }
  function name(pos) {
    const seat = meta && meta.seats.find((s) => s.position === pos);
    if (!seat) return `Seat ${pos + 1}`;
    return seat.user || `Bot ${pos + 1}`;
  }

  // ---- applying a new state ---------------------------------------------------------------
  function apply(payload, source) {
    const v = payload.table.version;
    if (!embedded) {
      // A table waiting for players is server-rendered with plain forms: draw it afresh.
      if (v > version) window.location.reload();
      return false;
    }
    if (meta !== null && v <= version) return false;
    const jumped = meta !== null && v > version + 1;
    const previous = view;
    const previousMeta = meta;
    meta = payload.table;
    view = payload.view;
    version = v;
    root.dataset.version = String(v);
    if (previous) describeChange(previousMeta, previous, meta, view);
    render();
    if (jumped && source === "socket") refetch();  // we missed frames: re-read to be sure
    return true;
  }

  async function refetch() {
    try {
      const response = await fetch(`/api/tables/${tableId}`, { credentials: "same-origin" });
      if (response.ok) apply(await response.json(), "get");
    } catch (e) { /* offline: the socket will re-sync */ }
  }

  // ---- the log, from the differences between two views -----------------------------------
  function log(text) {
    logLines.unshift(text);
    logLines.length = Math.min(logLines.length, 12);
  }
  function describeChange(m0, a, m1, b) {
    if (!a || !b) return;
    if (b.round !== a.round) log(`Round ${a.round} ended; round ${b.round} begins.`);
    (m1.seats || []).forEach((s, i) => {
      const before = (m0.seats || [])[i];
      if (!before) return;
      if (s.expelled && !before.expelled) log(`${name(s.position)} was expelled; a bot plays on.`);
      else if (s.missed_turns > before.missed_turns) log(`${name(s.position)} ran out of time (strike ${s.missed_turns}).`);
    });
    if (b.round === a.round) {
      b.buys_used.forEach((n, s) => { if (n > a.buys_used[s]) log(`${name(s)} said “May I?” and bought a card.`); });
      if (b.melds.length > a.melds.length) {
        const owners = new Set(b.melds.slice(a.melds.length).map((m) => m.owner));
        owners.forEach((o) => log(`${name(o)} laid melds down.`));
      } else {
        b.melds.forEach((m, i) => {
          if (a.melds[i] && m.cards.length > a.melds[i].cards.length) log(`A card was laid off on ${name(m.owner)}'s ${m.kind}.`);
        });
      }
      if (b.discard_size > a.discard_size && b.discard_top) log(`${name(a.active_seat)} discarded ${face(b.discard_top)}.`);
      else if (b.discard_size < a.discard_size && a.discard_top) log(`${face(a.discard_top)} was taken from the discard.`);
    }
    const wa = a.buy_window, wb = b.buy_window;
    if (wb && (!wa || wa.card !== wb.card)) log(`“May I?” window opens on ${face(wb.card)}.`);
    if (wb && wa && wa.card === wb.card) {
      wb.passed.filter((s) => !wa.passed.includes(s)).forEach((s) => log(`${name(s)} said no thanks.`));
      wb.claimed.filter((s) => !wa.claimed.includes(s)).forEach((s) => log(`${name(s)} said “May I?”.`));
    }
    if (wa && !wb) log("The “May I?” window closed.");
    if (b.game_over && !a.game_over) log("Game over.");
    else if (b.active_seat !== a.active_seat && b.active_seat !== null) log(`${name(b.active_seat)}'s turn.`);
  }

  // ---- drawing -------------------------------------------------------------------------------
  function render() {
    const game = $("game");
    if (!game) return;
    game.setAttribute("aria-busy", "false");
    if (!view) {
      $("round-line").textContent = `This table is ${meta.status}.`;
      return;
    }
    const mine = meta.my_seat;
    const myTurn = mine !== null && view.active_seat === mine && !view.game_over;
    $("round-line").replaceChildren(
      `Round ${view.round} of ${view.rounds} · contract: `,
      el("strong", { text: view.contract.text }),
      view.game_over ? " · game over" : "",
    );
    renderPlayers();
    renderPiles();
    renderWindow(mine);
    renderMelds();
    renderHand(mine, myTurn);
    renderScores();
    $("log").replaceChildren(...logLines.map((line) => el("li", { text: line })));
    $("log-empty").hidden = logLines.length > 0;
    tickClocks();
  }

  function renderPlayers() {
    const rows = [el("tr", {},
      el("th", { text: "Seat" }), el("th", { text: "Player" }), el("th", { text: "Cards" }),
      el("th", { text: "Down" }), el("th", { text: "Buys" }), el("th", { text: "Total" }),
      el("th", { text: "Clock" }), el("th", { text: view.game_over ? "Place" : "Strikes" }))];
    for (let p = 0; p < view.players; p++) {
      const seat = meta.seats.find((s) => s.position === p) || {};
      const who = name(p) + (p === meta.my_seat ? " (you)" : "") + (seat.expelled ? " · bot plays" : "");
      rows.push(el("tr", { class: view.active_seat === p ? "active" : "", "data-seat": p },
        el("td", { text: `${p + 1}${view.dealer_seat === p ? " (D)" : ""}` }),
        el("td", { text: who }),
        el("td", { text: String(view.hand_sizes[p]) }),
        el("td", { text: view.contract_down[p] ? "yes" : "—" }),
        el("td", { text: `${view.buys_used[p]}/${view.max_buys}` }),
        el("td", { text: String(view.total_scores[p]) }),
        el("td", { class: "clock", "data-clock": p, text: clockText(p) }),
        el("td", { text: view.game_over ? String(view.places ? view.places[p] : "") : String(seat.missed_turns || 0) })));
    }
    $("players").replaceChildren(...rows);
  }

  function renderPiles() {
    $("piles").replaceChildren(
      `Stock: ${view.stock_size} · Discard (${view.discard_size}): `,
      view.discard_top ? cardSpan(view.discard_top) : "—",
    );
  }

  function renderWindow(mine) {
    const box = $("window");
    const w = view.buy_window;
    const parts = [];
    if (w) {
      parts.push(el("span", {}, "“May I?” window open on ", cardSpan(w.card),
        w.waiting.length ? `; waiting for ${w.waiting.map(name).join(", ")}.` : "."));
    }
    const canAnswer = mine !== null && !view.game_over && view.my_answer === null && (
      w ? w.waiting.includes(mine) : view.active_seat !== mine);
    if (canAnswer) {
      if (!w) parts.push(el("span", { text: "Answer the next window now: " }));
      parts.push(el("span", { class: "buttons" },
        el("button", { type: "button", "data-action": "may_i", text: "May I?" }),
        el("button", { type: "button", "data-action": "no_thanks", text: "No thanks" })));
    } else if (view.my_answer) {
      parts.push(el("span", { class: "hint", text: ` You said ${view.my_answer === "may_i" ? "“May I?”" : "no thanks"}.` }));
    }
    box.replaceChildren(...parts);
    box.hidden = parts.length === 0;
  }

  function renderMelds() {
    const melds = view.melds.map((m) => el("div", { class: "meld", "data-meld": m.id, title: "Select one card, then click a meld to lay it off" },
      el("span", { class: "meld-label", text: `${m.kind} · ${name(m.owner)}` }),
      ...m.cards.map(cardSpan)));
    $("melds").replaceChildren(...(melds.length ? melds : [el("p", { class: "hint", text: "No melds yet." })]));
    if (view.game_over && view.hands) {
      $("melds").append(el("h3", { text: "Hands at the end" }),
        ...view.hands.map((h, p) => el("div", {}, el("span", { class: "meld-label", text: name(p) }), ...h.map(cardSpan))));
    }
  }

  function renderHand(mine, myTurn) {
    const section = $("my-hand");
    if (!section) return;
    if (view.hand === null || view.game_over) { section.hidden = true; return; }
    section.hidden = false;
    for (const c of Array.from(selected)) if (!view.hand.includes(c)) selected.delete(c);
    $("hand").replaceChildren(...view.hand.map((c) => el("button", {
      type: "button", class: `card-face ${suitClass(c)}${selected.has(c) ? " selected" : ""}`, "data-card": c, text: face(c),
    })));
    const PHASES = { draw: "draw a card", play: "meld, lay off, discard", done: "waiting for the “May I?” window", selling: "the discard is on sale; your draw follows" };
    $("turn").textContent = myTurn ? `· your turn: ${PHASES[view.phase] || view.phase}` : "";
    const buttons = [];
    const b = (action, text, extra) => el("button", { type: "button", "data-action": action, text, ...(extra || {}) });
    if (myTurn && view.phase === "draw") {
      buttons.push(b("draw", "Draw from stock", { "data-source": "stock" }));
      if (view.discard_top) buttons.push(b("draw", "Take the discard", { "data-source": "discard" }));
    }
    const choices = view.contracts || [view.contract];
    if (myTurn && view.phase === "play") {
      if (!view.contract_down[mine]) {
        if (choices.length > 1) {
          // Rook's round 7 with the table option round7 = "choice": the player says which
          // contract the selected cards make.
          buttons.push(el("span", { class: "contract-choice", id: "contract-choice", role: "group", "aria-label": "Choose your contract" },
            el("span", { class: "hint", text: `Round ${view.round}: choose your contract — ` }),
            ...choices.map((c, i) => b("lay_down", `Lay down selected as ${c.text}`, { "data-contract": String(i) }))));
        } else {
          buttons.push(b("lay_down", "Lay down selected"));
        }
      }
      buttons.push(b("discard", "Discard selected"));
      if (!view.final_discard_allowed) buttons.push(b("pass", "Pass"));
    }
    if (myTurn && (view.phase === "draw" || view.phase === "play")) buttons.push(b("mayi_meld", "MAYI meld selected"));
    const swaps = myTurn ? swapOffers(mine) : [];
    if (swaps.length) {
      buttons.push(el("span", { class: "swaps", id: "swaps", role: "group", "aria-label": "Swap a wild off the table" },
        ...swaps.map((s) => b("swap_wild", `Swap ${face(s.card)} for the ${face(s.wild)} in ${s.owner === mine ? "your" : `${name(s.owner)}'s`} ${s.kind}`,
          { "data-swap-meld": s.meld, "data-swap-card": s.card }))));
    }
    $("actions").replaceChildren(...buttons);
    const owed = (view.swapped || []).filter((c) => view.hand.includes(c));
    $("hint").textContent = myTurn && owed.length
      ? `Play the ${owed.map(face).join(", ")} you took off the table before your turn ends.`
      : myTurn && view.phase === "play" && view.contract_down[mine]
        ? "To lay off, select one card and click a meld." : "";
  }

  // ---- rook: swapping a tabled wild for the natural card it stands for ----------------------
  // The offer: the server's list when the view carries one (view.swaps: exact), otherwise every
  // natural in the hand that is the card a wild on the table stands for. The engine also asks
  // that the wild can be played this turn (laid off, or in a lay-down using every wild held):
  // when it cannot, the API refuses the swap and the page shows why.
  function swapOffers(mine) {
    if (view.phase !== "play" || view.active_seat !== mine) return [];
    const meldOf = (id) => view.melds.find((m) => m.id === id);
    const wildFor = (m, card) => {
      const f = faceOf(card);
      if (!m || !f || f.wild) return null;
      if (m.kind === "book") {
        if (f.rank !== m.rank) return null;
        return m.cards.find((c) => faceOf(c) && faceOf(c).wild) || null;
      }
      if (m.kind !== "run" || f.suit !== m.suit) return null;
      const c = m.cards[f.rank - m.start];
      return c && faceOf(c) && faceOf(c).wild ? c : null;
    };
    let raw;
    if (Array.isArray(view.swaps)) raw = view.swaps.map((s) => ({ meld: s.meld, card: s.card }));
    else if (view.ruleset === "rook") {
      raw = [];
      for (const m of view.melds) for (const card of view.hand) raw.push({ meld: m.id, card });
    } else return [];
    const seen = new Set();
    const out = [];
    for (const s of raw) {
      const m = meldOf(s.meld);
      const wild = wildFor(m, s.card);
      const key = `${s.meld}|${face(s.card)}`;  // two copies of one card: one button
      if (!wild || seen.has(key)) continue;
      seen.add(key);
      out.push({ ...s, wild, owner: m.owner, kind: m.kind });
    }
    return out;
  }

  function renderScores() {
    const box = $("results");
    const rounds = view.round_scores.filter((r) => r && r.length);
    box.hidden = rounds.length === 0;
    if (box.hidden) return;
    const head = el("tr", {}, el("th", { text: "Round" }), ...Array.from({ length: view.players }, (_, p) => el("th", { text: name(p) })));
    $("scores").replaceChildren(head, ...rounds.map((r, i) => el("tr", {}, el("td", { text: String(i + 1) }), ...r.map((s) => el("td", { text: String(s) })))));
  }

  // ---- clocks: the deadlines come with the table; only the countdown runs here ------------
  function left(iso) {
    if (!iso) return null;
    const s = Math.max(0, Math.round((Date.parse(iso) - Date.now()) / 1000));
    const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
    if (d) return `${d}d ${h}h`;
    if (h) return `${h}h ${m}m`;
    return `${m}:${String(s % 60).padStart(2, "0")}`;
  }
  // Each seat's time: the running clock counts down to the turn deadline; the others show
  // their time bank as the server computed it (meta.clocks, when the table has time banks).
  function seatClock(p) {
    const clocks = meta && meta.clocks;
    return clocks && clocks.seats ? clocks.seats.find((c) => c.position === p) : null;
  }
  function clockText(p) {
    if (!view || view.game_over) return "";
    const c = seatClock(p);
    if (c && c.vacation_until) return `vacation until ${new Date(c.vacation_until).toLocaleDateString()}`;
    if (view.active_seat === p && meta.turn_deadline) return `${left(meta.turn_deadline)} (running)`;
    return c ? left(new Date(Date.now() + 1000 * c.seconds_left).toISOString()) : "";
  }
  function tickClocks() {
    document.querySelectorAll("[data-clock]").forEach((cell) => {
      cell.textContent = clockText(Number(cell.dataset.clock));
    });
    const box = $("clocks");
    if (!box || !meta || !view || view.game_over) { if (box) box.textContent = ""; return; }
    const parts = [];
    const turn = left(meta.turn_deadline);
    if (turn !== null && view.active_seat !== null) parts.push(`${name(view.active_seat)}'s clock: ${turn}`);
    const win = left(meta.window_deadline);
    if (win !== null && view.buy_window) parts.push(`“May I?” window closes in ${win}`);
    box.textContent = parts.join(" · ");
  }
  setInterval(tickClocks, 1000);

  // ---- actions through the JSON API ---------------------------------------------------------
  function csrfToken() {
    const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function showError(text) { const box = $("action-error"); if (box) box.textContent = text; }

  async function send(action) {
    action.expect_version = version;
    showError("");
    let response;
    try {
      response = await fetch(`/api/tables/${tableId}/actions`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify(action),
      });
    } catch (e) { showError("Could not reach the server; try again."); return; }
    let body = null;
    try { body = await response.json(); } catch (e) { /* not JSON */ }
    if (response.ok && body) { selected.clear(); apply(body, "post"); return; }
    if (response.status === 409 && body && body.table) {
      apply(body, "post");
      showError("The table changed before your move arrived: look again.");
      return;
    }
    showError(body && body.error ? body.error.message : `error ${response.status}`);
  }

  document.addEventListener("click", (event) => {
    const target = event.target.closest("[data-card], [data-action], [data-meld]");
    if (!target || !root.contains(target)) return;
    if (target.dataset.card && target.closest("#hand")) {
      const c = target.dataset.card;
      if (selected.has(c)) selected.delete(c); else selected.add(c);
      target.classList.toggle("selected", selected.has(c));
      return;
    }
    const cards = Array.from(selected);
    if (target.dataset.action === "swap_wild") {
      send({ type: "swap_wild", meld: target.dataset.swapMeld, card: target.dataset.swapCard });
      return;
    }
    if (target.dataset.meld) {
      if (cards.length !== 1) { showError("Select one card to lay off."); return; }
      send({ type: "lay_off", card: cards[0], meld: target.dataset.meld });
      return;
    }
    const type = target.dataset.action;
    if (!type) return;
    const action = { type };
    if (type === "draw") action.source = target.dataset.source;
    if (type === "lay_down" || type === "mayi_meld") action.cards = cards;
    if (type === "lay_down" && target.dataset.contract !== undefined) {
      const contract = (view.contracts || [])[Number(target.dataset.contract)];
      if (!contract) return;
      if (!cards.length) { showError(`Select the cards that make ${contract.text}.`); return; }
      // The engine splits the cards into the contract named (rook's round 7: runs or books).
      action.contract = { books: contract.books, runs: contract.runs };
    }
    if (type === "discard") {
      if (cards.length !== 1) { showError("Select exactly one card to discard."); return; }
      action.card = cards[0];
    }
    send(action);
  });

  // ---- the websocket ------------------------------------------------------------------------
  const status = $("live-status");
  let socket = null;
  let retry = 0;
  let retryTimer = null;
  let fallbackTimer = null;
  let stopped = false;

  function setStatus(text, live) {
    if (!status) return;
    status.textContent = text;
    status.classList.toggle("live", live);
    status.classList.toggle("stale", !live);
    // What is shown may be out of date until the socket is back: say so, visibly.
    const game = $("game");
    if (game) game.classList.toggle("stale", !live);
  }

  function connect() {
    if (stopped || (socket && socket.readyState <= 1)) return;
    clearTimeout(retryTimer);
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${window.location.host}/ws/tables/${tableId}/`);
    socket = ws;
    // A socket still closing when we reconnected (the tab came back, the network returned)
    // closes later: it must neither mark the page stale nor start one more connection.
    ws.onmessage = (event) => {
      if (socket !== ws) return;
      let message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      // Other modules of the page (chat, ...) see every message of the table's socket.
      window.dispatchEvent(new CustomEvent("mayi:socket", { detail: message }));
      if (message.type === "table") {
        // The first frame after (re)connecting is the fresh state: from now on we are live.
        retry = 0;
        setStatus("live", true);
        stopFallback();
        apply(message, "socket");
      } else if (message.type === "refused") {
        stopped = true;
        stopFallback();
        setStatus(message.error.code === 4401
          ? "Signed out: reload the page to sign in again."
          : "You can no longer follow this table.", false);
      }
    };
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = null;
      if (stopped || (event.code >= 4400 && event.code < 4500)) { stopped = true; return; }
      setStatus("reconnecting…", false);
      startFallback();
      // Exponential backoff with jitter, so a restarted server is not hit by everyone at once.
      const delay = Math.min(30000, 500 * 2 ** retry) * (0.5 + Math.random() / 2);
      retry = Math.min(retry + 1, 10);
      retryTimer = setTimeout(connect, delay);
    };
  }

  // A keepalive: proxies close sockets that stay silent, and it keeps us marked online.
  setInterval(() => {
    if (socket && socket.readyState === 1) socket.send(JSON.stringify({ type: "ping" }));
  }, 45000);

  function startFallback() {
    if (fallbackTimer === null) fallbackTimer = setInterval(refetch, 15000);
  }
  function stopFallback() {
    if (fallbackTimer !== null) { clearInterval(fallbackTimer); fallbackTimer = null; }
  }

  // Back from a sleeping laptop or a lost network: try at once rather than after the backoff.
  window.addEventListener("online", () => { retry = 0; connect(); });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") { retry = 0; connect(); }
  });

  if (embedded) apply(JSON.parse(embedded.textContent), "page");
  connect();
})();
