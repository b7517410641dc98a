// The table page: mounts the Preact components on the server-rendered skeleton, feeds them
// from the payload, the API answers and the websocket frames (state.js, socket.js), and wires
// the keyboard, the live region, the tab title and the notifications.
import { html, render, useState, useEffect, useLayoutEffect, useRef, useStore } from "./ui.js";
import { store, apply, initialPayload, onApplied, hasGame, tableId, takeWatchedReload } from "./state.js";
import { startSocket } from "./socket.js";
import { send } from "./api.js";
import { Seats, Piles, Melds } from "./board.js";
import { Hand } from "./hand.js";
import { StatusBar, Offer, Staging, Actions, myTurn, canAnswer, statusText } from "./controls.js";
import { Log, entryLines, partsText } from "./log.js";
import { RoundSummary, GamePanel, Since, SinceLine } from "./moments.js";
import { Help, handPenalty } from "./help.js";
import { loadPref, savePref, arrange, meldGroups, SORTS } from "./order.js";
import { clockText, left } from "./clock.js";
import { snapshot, play } from "./motion.js";
import { checkSelection, layoffTargets } from "./check.js";

const SEEN_KEY = `mayi:seen:${tableId}`;
// Away from the tab this long, the moves made meanwhile are listed when it is shown again.
const AWAY_MS = 20000;
const FOLD_KEY = `mayi:fold:${tableId}`;
// The width below which table.css shows the hand's fold button.
const PHONE = window.matchMedia("(max-width: 640px)");
const pref0 = loadPref(tableId);

function readLocal(key, fallback) {
  try { const v = window.localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); } catch (e) { return fallback; }
}
function writeLocal(key, value) {
  try { window.localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* off */ }
}

// ---- the live region, the tab title, notifications ----------------------------------------
function announce(text) {
  const box = document.getElementById("announcer");
  if (!box || !text) return;
  box.textContent = "";
  // A fresh text node each time, so screen readers read repeated messages too.
  setTimeout(() => { box.textContent = text; }, 30);
}
const baseTitle = document.title;
function updateTitle(s) {
  // The heading's "playing" was the server's at page load: a game that ends (or is aborted)
  // while the page is open says so there too.
  const status = document.getElementById("table-status");
  if (status && s.meta && s.meta.status && status.textContent !== s.meta.status) status.textContent = s.meta.status;
  if (!s.view) return;
  const mine = myTurn(s) && ["draw", "play"].includes(s.view.phase) || canAnswer(s) && Boolean(s.view.buy_window);
  document.title = mine ? `● Your turn · ${baseTitle}` : baseTitle;
}
// A browser notification, where I asked for them (the "?" panel) and the tab is out of sight:
// my turn, or a "May I?" offer that waits on my answer.
function notify(title, s, tag) {
  if (!readLocal("mayi:notify", false) || !("Notification" in window) || Notification.permission !== "granted") return;
  if (document.visibilityState === "visible") return;
  try { new Notification(title, { body: statusText(s), tag }); } catch (e) { /* not allowed here */ }
}
function notifyTurn(s) { notify("May I?: your turn", s, `mayi-${tableId}`); }
function notifyOffer(s) { notify("May I?: a card is offered to you", s, `mayi-${tableId}-offer`); }
const setHelp = (open) => store.set({ help: open });
// A "May I?" offer that waits on me is never out of sight: the page scrolls back to it (a
// phone's reader of the rules or of the log is below the game).
function offerInView() {
  const w = document.getElementById("window");
  if (!w) return;
  const r = w.getBoundingClientRect();
  if (r.top < 0 || r.bottom > window.innerHeight) w.scrollIntoView({ block: "nearest" });
}

let motionBefore = null;
let motionHints = {};
let motionLeaving = {};
onApplied((before, after, source) => {
  updateTitle(after);
  if (!before.view || !after.view) return;
  const seen = new Set(before.log.map((e) => e.seq));
  const fresh = after.log.filter((e) => !seen.has(e.seq));
  const mine = after.meta.my_seat;
  const words = [];
  motionHints = {};
  motionLeaving = {};
  for (const e of fresh) {
    for (const ev of e.events || []) {
      if (ev.type === "drew" && ev.card) motionHints[ev.card] = ev.source;
      if (ev.type === "discarded" && ev.seat !== mine) motionHints[ev.card] = ev.seat;
      // The pile's card goes to a hand I cannot see: the buyer's, or a draw from the pile.
      if (ev.type === "bought" && ev.seat !== mine) motionLeaving[ev.card] = ev.seat;
      if (ev.type === "drew" && ev.source === "discard" && ev.seat !== mine && ev.card) motionLeaving[ev.card] = ev.seat;
    }
    if (e.seat !== mine || e.by_bot) words.push(...entryLines(e, after.meta, after.view.melds).map((p) => partsText(p, { ...after.logFaces, ...after.view.faces })));
  }
  for (const c of after.lastDrawn) if (!motionHints[c]) motionHints[c] = "stock";
  const wasMine = myTurn(before) && before.view.phase === "draw";
  const isMine = myTurn(after) && after.view.phase === "draw";
  if (isMine && !wasMine) { words.push("Your turn."); notifyTurn(after); }
  if (canAnswer(after) && after.view.buy_window && !(canAnswer(before) && before.view.buy_window)) { words.push(statusText(after)); notifyOffer(after); requestAnimationFrame(offerInView); }
  if (words.length) announce(words.slice(-3).join(" "));
  if (source !== "page" && after.view.hand && document.visibilityState === "visible") writeLocal(SEEN_KEY, after.log.length ? after.log[after.log.length - 1].seq : null);
});

// ---- the page ---------------------------------------------------------------------------------
function SortMenu({ pref, setPref }) {
  return html`<label class="sort"><span class="sort-word">Sort</span>
    <select id="sort" value=${pref.mode} aria-keyshortcuts="S" onChange=${(e) => setPref({ mode: e.currentTarget.value, order: pref.order })}>
      <option value="manual">My order</option>
      ${SORTS.map(([k, t]) => html`<option key=${k} value=${k}>${t}</option>`)}
    </select></label>`;
}

// The version my pages (on any device) showed last, read afresh (GET /api/tables/<id>; its
// payload is applied as any fresh read), and at least ``version``.
async function seenElsewhere(version) {
  try {
    const response = await fetch(`/api/tables/${tableId}?since=${version}`, { credentials: "same-origin" });
    if (!response.ok) return version;
    const payload = await response.json();
    apply(payload, "get");
    const seen = payload.table && payload.table.last_seen_version;
    return typeof seen === "number" ? Math.max(version, seen) : version;
  } catch (e) {
    return version;
  }
}

// The others' moves committed after ``version``: what "Since you last looked" lists.
function othersMovesAfter(s, version) {
  return s.log.filter((e) => e.version > version && e.seat !== s.meta.my_seat);
}

function Game() {
  const s = useStore(store);
  const [pref, setPrefState] = useState(pref0);
  const help = s.help;
  // The round whose end the board shows: opened when a round ends (or at a page load before
  // the next round's first draw), kept until I draw in the next round or close it.
  const [roundPanel, setRoundPanel] = useState(() => {
    const last = s.view && s.view.last_round;
    return last && last.fresh ? last.round : null;
  });
  // Back to the tab after a while away: what the others did meanwhile, as at a page load (a
  // quick look at another tab adds nothing: the moves are on the table and in the log).
  const away = useRef(document.visibilityState === "visible" ? null : { version: store.get().version, at: Date.now() });
  useEffect(() => {
    const follow = () => {
      const now = store.get();
      if (document.visibilityState !== "visible") {
        if (away.current === null) away.current = { version: now.version, at: Date.now() };
        return;
      }
      const from = away.current;
      away.current = null;
      if (from === null || Date.now() - from.at < AWAY_MS || !now.meta) return;
      // What I saw meanwhile on another device (my phone) is not news here: the server
      // knows the version my pages showed last (the read answers the one before it).
      seenElsewhere(from.version).then((base) => {
        const missed = othersMovesAfter(store.get(), base);
        if (!missed.length) return;
        store.set((st) => {
          const seqs = new Set(missed.map((e) => e.seq));
          return { since: [...(st.since || []).filter((e) => !seqs.has(e.seq)), ...missed] };
        });
      });
    };
    document.addEventListener("visibilitychange", follow);
    return () => document.removeEventListener("visibilitychange", follow);
  }, []);
  const [meter, setMeter] = useState(null);
  // The phone's hand folds to its head row, to give the table the whole screen for a while;
  // kept per table across reloads, like the hand's order. Only a phone has the fold button,
  // so a wider screen always shows the hand.
  const [foldPref, setFoldPref] = useState(readLocal(FOLD_KEY, false));
  const [isPhone, setIsPhone] = useState(PHONE.matches);
  useEffect(() => {
    const follow = () => setIsPhone(PHONE.matches);
    PHONE.addEventListener("change", follow);
    return () => PHONE.removeEventListener("change", follow);
  }, []);
  const folded = foldPref && isPhone;
  const setFolded = (v) => { setFoldPref(v); writeLocal(FOLD_KEY, v); };
  const [, tick] = useState(0);
  const lastRoundSeen = useRef(s.view ? [s.view.round, s.view.game_over] : null);

  useEffect(() => { const t = setInterval(() => tick((x) => x + 1), 1000); return () => clearInterval(t); }, []);
  // While I hold a hand, the game fits the screen: the table scrolls above my hand, which
  // never covers it (table.css, .game.fit).
  const fits = Boolean(s.view && s.view.hand && !s.view.game_over);
  useLayoutEffect(() => { fitGame(fits); }, [fits]);

  // The end of a round: when the view moves on to a new round (or the game ends), show the
  // round's results.
  useEffect(() => {
    if (!s.view) return;
    const prev = lastRoundSeen.current;
    if (prev !== null && s.view.game_over && !prev[1]) setRoundPanel(s.view.round);
    else if (prev !== null && s.view.round > prev[0]) setRoundPanel(prev[0]);
    lastRoundSeen.current = [s.view.round, s.view.game_over];
  }, [s.view && s.view.round, s.view && s.view.game_over]);
  useEffect(() => {
    if (roundPanel !== null && s.view && s.view.round === roundPanel + 1 && drewThisRound(s)) setRoundPanel(null);
  }, [s.version]);

  // The contract meter and the lay-off targets: the server checks the selection.
  useEffect(() => {
    let live = true;
    if (!s.view || !myTurn(s) || s.view.phase !== "play") { setMeter(null); return undefined; }
    // The meter remembers the selection it was made for: the lay-down button follows it only
    // while that selection stands.
    const key = selectionKey(s);
    checkSelection(s).then((m) => { if (live) setMeter(m && { ...m, key }); });
    return () => { live = false; };
  }, [s.version, s.selected.join(","), s.staged.map((g) => g.join(",")).join("|")]);

  if (!s.view) return html`<p>This table is ${s.meta ? s.meta.status : "loading"}.</p>`;
  const { meta, view } = s;
  const setPref = (p) => { setPrefState(p); savePref(tableId, p); };
  const staged = new Set(s.staged.flat());
  const hand = view.hand ? view.hand.filter((c) => !staged.has(c)) : null;
  const order = hand ? arrange(hand, view.faces, pref, view.hand_melds) : [];
  // In the melds sort, a gap after each meld the engine found, and its kind for the card.
  const meldOf = new Map();
  const groupEnds = new Set();
  if (hand && pref.mode === "melds") {
    for (const g of meldGroups(hand, view.hand_melds)) {
      for (const c of g.cards) meldOf.set(c, g.kind);
      groupEnds.add(g.cards[g.cards.length - 1]);
    }
  }
  if (hand && (pref.mode === "manual" ? order.join() !== pref.order.filter((c) => hand.includes(c)).join() : false)) {
    // New cards join the saved order at the end; keep that order for the next frame and reload.
    savePref(tableId, { mode: "manual", order: order.concat(pref.order.filter((c) => !hand.includes(c) && staged.has(c))) });
  }
  const turn = myTurn(s);
  const canDraw = turn && view.phase === "draw";
  const act = (action) => send(action);
  const layDown = (contract) => {
    const sel = s.selected;
    const groups = s.staged.filter((g) => g.length);
    const action = { type: "lay_down" };
    if (groups.length) action.melds = sel.length ? groups.concat([sel]) : groups;
    else action.cards = sel;
    if (!groups.length && !sel.length) { store.set({ error: "Select (or stage) the cards of your contract first." }); return; }
    if (contract) action.contract = { books: contract.books, runs: contract.runs };
    send(action);
  };
  const targets = layoffTargets(s, meter);
  const onMeld = (m, end) => {
    const sel = s.selected;
    if (sel.length !== 1) { store.set({ error: "Select one card to lay off." }); return; }
    const action = { type: "lay_off", card: sel[0], meld: m.id };
    if (end && m.kind === "run") action.end = end;
    send(action);
  };
  const onDrop = (d) => {
    if (d.kind === "discard") { if (turn && view.phase === "play") send({ type: "discard", card: d.card }); return; }
    const m = view.melds.find((x) => x.id === d.meld);
    if (!m) return;
    const action = { type: "lay_off", card: d.card, meld: m.id };
    if (m.kind === "run") action.end = d.end;
    send(action);
  };
  const recent = recentDiscards(s);
  const penalty = view.hand ? handPenalty(view) : null;

  // Keyboard shortcuts (not while typing in a field: the chat has one).
  useEffect(() => {
    const onKey = (event) => {
      const t = event.target;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      // Escape closes the panels wherever the focus is (it types nothing: on the help
      // panel's own "Notify me" checkbox it did nothing, and the panel stayed open).
      if (event.key === "Escape" && (store.get().help || document.getElementById("round-log-summary"))) {
        const wasHelp = store.get().help;
        store.set({ help: false, logRound: null });
        if (wasHelp) { const b = document.getElementById("help-button"); if (b) b.focus(); }
        return;
      }
      if (t && (t.closest("input, textarea, select, [contenteditable]"))) return;
      const st = store.get();
      if (!st.view) return;
      const k = event.key.toLowerCase();
      const click = (sel) => { const b = document.querySelector(sel); if (b && !b.disabled) { event.preventDefault(); b.click(); } };
      if (event.key === "?") { event.preventDefault(); setHelp(!store.get().help); }
      else if (event.key === "Escape") { setRoundPanel(null); }
      else if (k === "h") {
        const find = () => document.querySelector("#hand [data-card][tabindex='0']") || document.querySelector("#hand [data-card]");
        const card = find();
        if (card) { event.preventDefault(); card.focus(); }
        else if (document.getElementById("hand-fold")) {
          // A folded hand unfolds first (its cards are drawn on the next render).
          event.preventDefault();
          setFolded(false);
          setTimeout(() => { const c = find(); if (c) c.focus(); }, 0);
        }
      }
      else if (k === "d") click("#actions [data-action='draw'][data-source='stock']");
      else if (k === "t") click("#actions [data-action='draw'][data-source='discard']");
      else if (k === "x") click("#actions [data-action='discard']");
      else if (k === "g") click("#actions [data-action='stage']");
      else if (k === "l") click("#actions [data-action='lay_down']");
      else if (k === "m" && !event.shiftKey) click("#window [data-action='may_i']");
      else if (k === "n") click("#window [data-action='no_thanks']");
      else if (k === "s") {
        event.preventDefault();
        const modes = SORTS.map(([m]) => m);
        const cur = loadPref(tableId);
        const next = modes[(modes.indexOf(cur.mode) + 1) % modes.length];
        setPref({ mode: next, order: cur.order });
        announce(`Hand sorted: ${SORTS.find(([m]) => m === next)[1]}`);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return html`
    <${StatusBar} s=${s} />
    <div class="game-tools">
      <button type="button" class="help-button" id="help-button" aria-expanded=${help ? "true" : "false"} aria-controls="help" aria-keyshortcuts="?" onClick=${() => setHelp(!help)}>?<span class="visually-hidden"> Rules and keys</span></button>
    </div>
    <${SinceLine} s=${s} />
    ${view.game_over && html`<${GamePanel} s=${s} />`}
    <div class="board" id="board">
      <div class="board-top">
        <${Seats} s=${s} />
        <div class="centre">
          <${Piles} s=${s} canDraw=${canDraw} onDraw=${(source) => act({ type: "draw", source })} recent=${recent} />
          <${Offer} s=${s} act=${act} />
        </div>
      </div>
      ${roundPanel !== null && html`<${RoundSummary} s=${s} round=${roundPanel} onClose=${() => setRoundPanel(null)} />`}
      <${Melds} s=${s} targets=${targets} onMeld=${onMeld} />
    </div>
    ${hand && !view.game_over && html`<section class=${`my-hand ${turn ? "my-turn" : ""} ${folded ? "folded" : ""}`} id="my-hand" aria-label="Your hand">
      <div class="hand-head">
        <h2><span class="hand-word">Your hand · </span><span class="hint">${hand.length + staged.size} card${hand.length + staged.size === 1 ? "" : "s"}${penalty !== null ? html` · <span id="hand-penalty">${penalty} point${penalty === 1 ? "" : "s"}</span><span class="long"> if the round ended now</span>` : ""}</span></h2>
        <button type="button" class="fold" id="hand-fold" aria-controls="hand" aria-expanded=${folded ? "false" : "true"} aria-label=${folded ? "Show cards" : "Hide cards"}
          onClick=${() => setFolded(!folded)}>${folded ? "Show" : "Hide"}<span class="btn-long"> cards</span></button>
        <${SortMenu} pref=${pref} setPref=${setPref} />
      </div>
      ${!folded && html`<${Staging} s=${s} meter=${meter} />`}
      ${!folded && html`<${Hand} s=${s} order=${order} meldOf=${meldOf} groupEnds=${groupEnds} onReorder=${(next) => setPref({ mode: "manual", order: next })} onDrop=${onDrop} />`}
      <${Actions} s=${s} act=${act} layDown=${layDown} meter=${meter && meter.key === selectionKey(s) ? meter : null} />
      <p id="action-error" class="error" role="alert">${s.error}</p>
    </section>`}
    ${view.hand === null && html`<p id="action-error" class="error" role="alert">${s.error}</p>`}
  `;
}

// I have drawn (or bought) in the round under way: its first draw is behind me.
function drewThisRound(s) {
  const mine = s.meta.my_seat;
  if (mine === null) return false;
  for (let i = s.log.length - 1; i >= 0; i--) {
    const evs = s.log[i].events || [];
    for (let j = evs.length - 1; j >= 0; j--) {
      const e = evs[j];
      if (e.type === "round_started") return false;
      if ((e.type === "drew" || e.type === "bought") && e.seat === mine) return true;
    }
  }
  return false;
}

function selectionKey(s) {
  return `${s.selected.join(",")}/${s.staged.map((g) => g.join(",")).join("|")}`;
}

// The height the game may take: the screen below the game's top (the site's header and the
// table's title stay above it); the page still scrolls on to the log and the chat.
function fitGame(on) {
  const game = document.getElementById("game");
  if (!game) return;
  game.classList.toggle("fit", on);
  const top = game.getBoundingClientRect().top + window.scrollY;
  document.documentElement.style.setProperty("--game-top", `${Math.round(top)}px`);
}
window.addEventListener("resize", () => { const g = document.getElementById("game"); if (g) fitGame(g.classList.contains("fit")); });

// The last few discards, newest last: the view's (h11srv), else from the log.
function recentDiscards(s) {
  if (Array.isArray(s.view.discard_recent)) return s.view.discard_recent;
  const out = [];
  for (let i = s.log.length - 1; i >= 0 && out.length < 5; i--) {
    const evs = s.log[i].events || [];
    for (let j = evs.length - 1; j >= 0; j--) {
      const e = evs[j];
      if (e.type === "round_started") return out.reverse();
      if (e.type === "discarded") out.push(e.card);
    }
  }
  return out.reverse();
}

// The "?" panel lives in the side column, at the top of the log (table.html's #help-root):
// floated over the board it covered the "May I?" buttons.
function HelpRoot() {
  const s = useStore(store);
  const [fourColour, setFourColourState] = useState(readLocal("mayi:four-colour", false));
  const [notifyOn, setNotifyState] = useState(readLocal("mayi:notify", false));
  useEffect(() => { document.body.classList.toggle("four-colour", fourColour); }, [fourColour]);
  // Opened on a phone, where the side column is under the game: brought into view.
  useEffect(() => {
    if (!s.help) return;
    const panel = document.getElementById("help");
    if (panel) {
      const r = panel.getBoundingClientRect();
      if (r.top > window.innerHeight || r.bottom < 0) panel.scrollIntoView({ block: "start" });
    }
  }, [s.help]);
  if (!s.view) return null;
  return html`<${Help} view=${s.view} open=${s.help} onClose=${() => { setHelp(false); const b = document.getElementById("help-button"); if (b) b.focus(); }} fourColour=${fourColour} setFourColour=${(v) => { setFourColourState(v); writeLocal("mayi:four-colour", v); }}
      notify=${notifyOn} setNotify=${async (v) => {
        if (v && "Notification" in window && Notification.permission !== "granted") {
          const p = await Notification.requestPermission();
          if (p !== "granted") { v = false; }
        }
        setNotifyState(v); writeLocal("mayi:notify", v);
        return v;
      }} />`;
}

function LogRoot() {
  const s = useStore(store);
  if (!s.view) return null;
  // A "Round N ended" line of the log opens that round's summary above the log.
  const close = () => {
    const round = store.get().logRound;
    store.set({ logRound: null });
    const line = document.querySelector(`#log [data-round-end='${round}']`);
    if (line) line.focus();
  };
  return html`<${Since} s=${s} /><${Log} s=${s} summary=${s.logRound !== null && html`<${RoundSummary} s=${s} round=${s.logRound} id="round-log-summary" onClose=${close} />`} />`;
}

export function start() {
  // A table waiting for players is plain server-rendered forms: its socket only tells when
  // to draw it afresh (someone joined or left, the game started: state.js apply reloads).
  const watched = takeWatchedReload();
  if (!hasGame) { startSocket(); return; }
  const payload = initialPayload();
  const seenSeq = readLocal(SEEN_KEY, null);
  apply(payload, "page");
  const s = store.get();
  const mine = s.meta.my_seat;
  // "Since you last looked": the moves after the version this player saw last (the server
  // keeps it: meta.last_seen_version), else after the last move this browser showed.
  let since = null;
  const seenVersion = s.meta.last_seen_version;
  if (watched) since = null;
  else if (seenVersion !== null && seenVersion !== undefined) since = othersMovesAfter(s, seenVersion);
  else if (seenSeq !== null) since = s.log.filter((e) => e.seq > seenSeq && e.seat !== mine);
  if (s.log.length) writeLocal(SEEN_KEY, s.log[s.log.length - 1].seq);
  updateTitle(s);
  const game = document.getElementById("game");
  game.setAttribute("aria-busy", "false");
  game.replaceChildren();
  store.set({ since });
  render(html`<${Game} />`, game);
  const logRoot = document.getElementById("log-root");
  if (logRoot) { logRoot.replaceChildren(); render(html`<${LogRoot} />`, logRoot); }
  const helpRoot = document.getElementById("help-root");
  if (helpRoot) render(html`<${HelpRoot} />`, helpRoot);
  startSocket();
}

// Motion hooks: Preact renders synchronously on the next microtask after store.set, so the
// snapshot is taken in apply's listeners and played after the render.
onApplied(() => {
  motionBefore = snapshot();
  const before = motionBefore, hints = motionHints, leaving = motionLeaving;
  requestAnimationFrame(() => play(before, hints, leaving));
});
