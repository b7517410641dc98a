// The page's state: the table meta and this seat's view as the server sent them, the log
// entries gathered from the server's deltalog, and what only this browser knows (selection,
// staged groups, the last card drawn). Versions keep it right: older or equal payloads are
// ignored, and a frame more than one version ahead is followed by a fresh GET.
import { createStore } from "./ui.js";

const root = document.getElementById("table");
export const tableId = root ? root.dataset.tableId : null;
const embedded = document.getElementById("table-payload");
export const hasGame = Boolean(embedded);
// Set just before a waiting room reloads while the player looks at it (see apply).
const WATCHED_KEY = `mayi:watched:${tableId}`;

// Did this page load follow the waiting room the player was watching? Read once per load.
export function takeWatchedReload() {
  try {
    const was = sessionStorage.getItem(WATCHED_KEY) !== null;
    sessionStorage.removeItem(WATCHED_KEY);
    return was;
  } catch (e) {
    return false;
  }
}

export const store = createStore({
  meta: null,
  view: null,
  version: root ? Number(root.dataset.version) : 0,
  log: [], // deltalog entries {seq, seat, by_bot, events}, oldest first, one per seq
  logOldest: null, // the smallest seq we hold; older pages come from GET .../log?before=
  logDone: false, // the first move is in hand
  logFaces: {}, // how to draw the cards the log names (each entry's `faces`)
  selected: [],
  staged: [],
  lastDrawn: [],
  error: "",
  notice: "",
  pending: false,
  help: false, // the "?" panel is open
  logRound: null, // the round whose end the log shows (a "Round N ended" line clicked)
  since: null, // "Since you last looked": the others' moves I have not seen on any device
});

const listeners = [];
// Others (the log announcer, motion) hear each applied payload with the state before it.
export function onApplied(fn) { listeners.push(fn); }

function mergeFaces(faces, entries) {
  if (!Array.isArray(entries) || !entries.some((e) => e.faces)) return faces;
  const out = { ...faces };
  for (const e of entries) Object.assign(out, e.faces || {});
  return out;
}

function mergeLog(current, entries) {
  if (!Array.isArray(entries) || !entries.length) return current;
  const bySeq = new Map(current.map((e) => [e.seq, e]));
  for (const e of entries) bySeq.set(e.seq, e);
  return Array.from(bySeq.values()).sort((a, b) => a.seq - b.seq);
}

// The cards my newest draw or buy of the round brought that are still in my hand.
function drawnInLog(log, seat, inHand) {
  for (let i = log.length - 1; i >= 0; i--) {
    const evs = log[i].events || [];
    for (let j = evs.length - 1; j >= 0; j--) {
      const e = evs[j];
      if (e.type === "round_started") return [];
      if (e.seat !== seat) continue;
      const cards = e.type === "drew" && e.card ? [e.card] : e.type === "bought" ? [e.card, ...(e.penalty_cards || [])] : [];
      const held = cards.filter((c) => inHand.has(c));
      if (held.length) return held;
    }
  }
  return [];
}

export function apply(payload, source) {
  const s = store.get();
  const v = payload.table.version;
  if (!embedded) {
    // A table waiting for players is server-rendered with plain forms: draw it afresh.
    if (v > s.version) {
      // A player watching the waiting room saw the game start: the page that follows has
      // nothing to tell them "since they last looked" (the bots' first moves are in the log).
      if (document.visibilityState === "visible") {
        try { sessionStorage.setItem(WATCHED_KEY, String(v)); } catch (e) { /* private mode */ }
      }
      window.location.reload();
    }
    return false;
  }
  if (s.meta !== null && v <= s.version) {
    // My move's answer, overtaken by the frame of a later move: that frame's log starts after
    // my move (the server counts the answer as shown), so my move's entries come from here.
    if (source === "post" && Array.isArray(payload.log) && payload.log.length) {
      const log = mergeLog(s.log, payload.log);
      store.set({ log, logFaces: mergeFaces(s.logFaces, payload.log) });
    }
    return false;
  }
  const jumped = s.meta !== null && v > s.version + 1;
  const before = s;
  const view = payload.view;
  const hand = view && view.hand ? view.hand : [];
  const inHand = new Set(hand);
  const prevHand = before.view && before.view.hand ? before.view.hand : null;
  let lastDrawn = before.lastDrawn.filter((c) => inHand.has(c));
  if (prevHand && view && view.round === before.view.round) {
    const had = new Set(prevHand);
    const fresh = hand.filter((c) => !had.has(c));
    if (fresh.length) lastDrawn = fresh;
  } else if (prevHand) {
    lastDrawn = [];
  }
  const log = mergeLog(before.log, payload.log);
  // A page just opened (or reloaded) marks the cards of my last draw or buy of this round.
  if (!prevHand && view && view.hand) lastDrawn = drawnInLog(log, payload.table.my_seat, inHand);
  store.set({
    meta: payload.table,
    view,
    version: v,
    log,
    logFaces: mergeFaces(before.logFaces, payload.log),
    logOldest: log.length ? log[0].seq : before.logOldest,
    // The first payload (the page's) carries the table's last moves: none at all means there
    // are none, and "Show earlier moves" would have nothing to show.
    logDone: before.logDone || (log.length > 0 && log[0].seq <= 1) || (before.meta === null && Array.isArray(payload.log) && !payload.log.length),
    selected: before.selected.filter((c) => inHand.has(c)),
    staged: before.staged.map((g) => g.filter((c) => inHand.has(c))).filter((g) => g.length),
    lastDrawn,
  });
  if (root) root.dataset.version = String(v);
  for (const fn of listeners) fn(before, store.get(), source);
  if (jumped && source === "socket") refetch(); // we missed frames: re-read to be sure
  return true;
}

export async function refetch() {
  try {
    // A tab in the background reads the table without looking at it ("since you last looked").
    const hidden = document.visibilityState === "visible" ? "" : "?hidden=1";
    const response = await fetch(`/api/tables/${tableId}${hidden}`, { credentials: "same-origin" });
    if (response.ok) apply(await response.json(), "get");
  } catch (e) { /* offline: the socket will re-sync */ }
}

// Older moves, a page at a time (GET /api/tables/<id>/log?before=<seq>).
export async function loadOlderLog() {
  const s = store.get();
  if (s.logDone) return;
  const before = s.logOldest === null ? s.version + 1 : s.logOldest;
  try {
    const response = await fetch(`/api/tables/${tableId}/log?before=${before}`, { credentials: "same-origin" });
    if (!response.ok) return;
    const body = await response.json();
    const entries = body.log || [];
    const log = mergeLog(store.get().log, entries);
    store.set({
      log,
      logFaces: mergeFaces(store.get().logFaces, entries),
      logOldest: log.length ? log[0].seq : null,
      logDone: entries.length === 0 || body.more === false || (log.length > 0 && log[0].seq <= 1),
    });
  } catch (e) { /* offline: try again later */ }
}

export function initialPayload() {
  return embedded ? JSON.parse(embedded.textContent) : null;
}
