// The table's websocket. Every committed change pushes this user's view; every message is also
// dispatched as a "mayi:socket" CustomEvent for the other modules of the page (chat, the seed
// commitment: templates/games/_table_side.html). A dropped socket (daphne and proxies close
// idle ones) reconnects with exponential backoff and jitter and is answered with a fresh frame;
// while it is down the page says "reconnecting…" and, as a fallback only, polls the API.
import { apply, refetch, store, tableId } from "./state.js";

// This page's name for its socket: a move it sends by POST names it (api.js), and the server
// then sends this socket no frame of the version the POST's answer brought (a move sent over
// the socket is answered the same way).
const name = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
export function socketName() { return name; }

// A move whose answer never came (the network dropped it) may have been played: ask for a
// fresh frame from the version shown, with the moves after it.
export function resync() {
  if (socket && socket.readyState === 1) socket.send(JSON.stringify({ type: "sync", version: store.get().version }));
}

// Moves go over the socket while it is open (api.js): each names a ref, and the message that
// names it back settles it: the new frame, or the refusal in the API's shape (a stale move's
// carries the fresh table, as a 409 does). One that is not answered in time, or whose socket
// closed first, may or may not have been played: the caller says so and asks again by version.
const ANSWER_MS = 15000;
const waiting = new Map();
let refs = 0;

// Null when the socket is not open (the caller sends by POST then).
export function request(message) {
  const ws = socket;
  if (!ws || ws.readyState !== 1) return null;
  refs += 1;
  const ref = `${name}-${refs}`;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(ref);
      reject(new Error("no answer"));
      // A socket that takes a move and answers nothing is dead to us (the network changed
      // under it): closed, it reconnects and its first frame is the table as it is.
      if (socket === ws) ws.close();
    }, ANSWER_MS);
    waiting.set(ref, { ws, timer, resolve, reject });
    ws.send(JSON.stringify({ ...message, ref }));
  });
}

// The move named ``ref`` is answered (or, with an Error, lost); false when none waits.
function answer(ref, outcome) {
  const w = waiting.get(ref);
  if (!w) return false;
  waiting.delete(ref);
  clearTimeout(w.timer);
  if (outcome instanceof Error) w.reject(outcome);
  else w.resolve(outcome);
  return true;
}

// Every move waiting on socket ``ws``.
function settle(ws, outcome) {
  for (const [ref, w] of waiting) if (w.ws === ws) answer(ref, outcome);
}

let socket = null;
let retry = 0;
let retryTimer = null;
let fallbackTimer = null;
let stopped = false;

function setStatus(text, live) {
  const status = document.getElementById("live-status");
  if (status) {
    status.textContent = text;
    status.classList.toggle("live", live);
    status.classList.toggle("stale", !live);
  }
  // What is shown may be out of date until the socket is back: say so, visibly.
  const game = document.getElementById("game");
  if (game) game.classList.toggle("stale", !live);
}

function startFallback() {
  if (fallbackTimer === null) fallbackTimer = setInterval(refetch, 15000);
}
function stopFallback() {
  if (fallbackTimer !== null) { clearInterval(fallbackTimer); fallbackTimer = null; }
}

export function connect() {
  if (stopped || (socket && socket.readyState <= 1)) return;
  clearTimeout(retryTimer);
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  // From a tab in the background the frames are not looked at: the server must not count
  // them as seen ("Since you last looked"), until the tab is shown (a "looking" message).
  const hidden = document.visibilityState === "visible" ? "" : "&hidden=1";
  const ws = new WebSocket(`${scheme}://${window.location.host}/ws/tables/${tableId}/?client=${name}${hidden}`);
  socket = ws;
  // A socket still closing when we reconnected (the tab came back, the network returned)
  // closes later: it must neither mark the page stale nor start one more connection.
  ws.onmessage = (event) => {
    if (socket !== ws) return;
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    // Other modules of the page (chat, ...) see every message of the table's socket.
    window.dispatchEvent(new CustomEvent("mayi:socket", { detail: message }));
    // The answer to a move of ours: api.js applies it, as a POST's answer.
    if (message && typeof message.ref === "string" && answer(message.ref, message)) return;
    if (message.type === "table") {
      // The first frame after (re)connecting is the fresh state: from now on we are live.
      retry = 0;
      setStatus("live", true);
      stopFallback();
      apply(message, "socket");
    } else if (message.type === "refused") {
      // A move waiting on this socket is refused with it, in the same words.
      settle(ws, message);
      stopped = true;
      stopFallback();
      setStatus(message.error.code === 4401
        ? "Signed out: reload the page to sign in again."
        : "You can no longer follow this table.", false);
    }
  };
  ws.onclose = (event) => {
    settle(ws, new Error("the socket closed"));
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

export function startSocket() {
  // A keepalive: proxies close sockets that stay silent, and it keeps us marked online.
  setInterval(() => {
    if (socket && socket.readyState === 1) socket.send(JSON.stringify({ type: "ping" }));
  }, 45000);
  // Back from a sleeping laptop or a lost network: try at once rather than after the backoff.
  window.addEventListener("online", () => { retry = 0; connect(); });
  document.addEventListener("visibilitychange", () => {
    const visible = document.visibilityState === "visible";
    if (socket && socket.readyState === 1) socket.send(JSON.stringify({ type: "looking", visible }));
    if (visible) { retry = 0; connect(); }
  });
  connect();
}
