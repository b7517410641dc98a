// The replay of a finished game (templates/stats/replay.html), and a moderator's replay of any
// game (moderation's inspect page, which loads this module with its own source): one fetch of
// the whole game (GET /api/tables/<id>/replay: every move's frame, each holding only what
// changed), every frame rebuilt in full once, then each step drawn in the page without asking
// the server again. The cards, the piles, the melds and the log's words are the table page's
// own components (static/js/table/); the log reads newest first throughout
// (static/js/log-order.js), as on the table page.
//
// Opens at the first move (the deal) unless the address names one (?move=N or #N); every step
// writes it back into the address, so a reload or a shared link opens the same move.
//
// The replay page (not a moderator's) also fetches the game's analysis (data-analysis): each
// weighed decision is marked beside its move in the log, and the section below the table
// draws it (static/js/replay-analysis.js).
import { html, render } from "./table/ui.js";
import { Card } from "./table/cards.js";
import { Piles, Melds } from "./table/board.js";
import { entryLines, partsText, Line } from "./table/log.js";
import { seatName } from "./table/names.js";
import { linesNewestFirst } from "./log-order.js";
import { AnalysisSection, Mark, decisionText, loadAnalysis } from "./replay-analysis.js";

const root = document.getElementById("replay-app");

// ---- the frames ------------------------------------------------------------------------------
// Each frame after the first carries only the view's keys and the hands that changed: rebuilt
// here in full, once, so that any move (a jump to the end, a deep link) is one lookup.
export function expand(game) {
  const full = [];
  let view = {};
  let hands = [];
  for (const f of game.frames) {
    view = { ...view, ...f.view, faces: game.faces };
    hands = hands.slice();
    for (const [seat, cards] of Object.entries(f.hands || {})) hands[Number(seat)] = cards;
    full.push({
      move: f.move,
      seat: f.seat,
      by_bot: f.by_bot,
      events: f.events || [],
      view,
      hands,
      stock_next: f.stock_next || null,
      stock_size: f.stock_size,
    });
  }
  return full;
}

function roundOf(game, n) {
  let found = game.rounds[0];
  for (const r of game.rounds) if (r.first <= n) found = r;
  return found;
}

function moveFromAddress(total) {
  const query = new URLSearchParams(window.location.search).get("move");
  const hash = window.location.hash.replace(/^#m?/, "");
  const raw = query !== null ? query : hash;
  const n = /^\d+$/.test(raw || "") ? Number(raw) : 0;
  return Math.max(0, Math.min(total, n));
}

// ---- the components -------------------------------------------------------------------------
function Hand({ hand, name, faces }) {
  return html`<div class="replay-hand" role="img" aria-label=${`${name}'s hand: ${hand.map((c) => (faces[c] || {}).label || c).join(", ") || "no cards"}`}>
    ${hand.map((c) => html`<${Card} key=${c} id=${c} faces=${faces} small=${true} hidden=${true} />`)}
  </div>`;
}

function handOf(hand, name, faces) {
  let item = handCache.get(hand);
  if (!item) {
    item = html`<${Hand} hand=${hand} name=${name} faces=${faces} />`;
    handCache.set(hand, item);
  }
  return item;
}

function meldsOf(s) {
  let item = meldCache.get(s.view.melds);
  if (!item) {
    item = html`<${Melds} s=${s} targets=${null} onMeld=${() => {}} />`;
    meldCache.set(s.view.melds, item);
  }
  return item;
}

function Seats({ meta, frame }) {
  const { view, hands } = frame;
  const over = view.game_over;
  return html`<ul class="seats-row replay-seats" id="replay-hands" aria-label="Players and their hands">
    ${hands.map((hand, p) => {
      const active = view.active_seat === p && !over;
      const seat = meta.seats[p] || {};
      const buys = view.max_buys === null || view.max_buys === undefined ? `${view.buys_used[p]}` : `${view.buys_used[p]}/${view.max_buys}`;
      const place = over && view.places ? view.places[p] : null;
      return html`<li key=${p} class=${`seat replay-seat ${active ? "active" : ""}`} data-seat=${p} aria-current=${active ? "true" : null}>
        <div class="seat-name">
          <strong>${seatName(meta, p)}</strong>${seat.is_bot ? html` <span class="badge">bot</span>` : ""}
          ${view.dealer_seat === p ? html` <span class="badge dealer" title="dealer">D</span>` : ""}
          ${active ? html` <span class="to-play">to play</span>` : ""}
        </div>
        ${handOf(hand, seatName(meta, p), view.faces)}
        <dl class="seat-facts">
          <div><dt>Cards</dt><dd>${hand.length}</dd></div>
          <div><dt>Score</dt><dd class="score">${view.total_scores[p]}</dd></div>
          <div><dt>Buys</dt><dd>${buys}</dd></div>
          <div><dt>Down</dt><dd>${view.contract_down[p] ? "✓" : "—"}</dd></div>
          ${place ? html`<div><dt>Place</dt><dd>${place}</dd></div>` : ""}
        </dl>
      </li>`;
    })}
  </ul>`;
}

function Offer({ meta, view }) {
  const w = view.buy_window;
  if (!w) return null;
  const waiting = (w.waiting || []).map((p) => seatName(meta, p));
  return html`<p class="replay-offer" id="replay-offer">“May I?” open on <${Card} id=${w.card} faces=${view.faces} small=${true} hidden=${true} />
    <span>${(view.faces[w.card] || {}).label || w.card}${waiting.length ? `: waiting for ${waiting.join(", ")}` : ""}</span></p>`;
}

function Stock({ frame }) {
  // A moderator's replay only: the stock's next cards, as the inspect page listed them.
  if (!frame.stock_next) return null;
  return html`<p class="replay-stock" id="replay-stock">Stock, next: ${frame.stock_next.map((c) => html`<${Card} key=${c} id=${c} faces=${frame.view.faces} small=${true} hidden=${true} />`)}
    <span class="hint">(${frame.stock_size} in all)</span></p>`;
}

function Scores({ meta, view }) {
  const n = view.players;
  const seats = Array.from({ length: n }, (_, p) => p);
  return html`<section class="card" id="replay-scores" aria-labelledby="replay-scores-title">
    <h2 id="replay-scores-title">Scores</h2>
    <div class="scroll"><table class="list num">
      <thead><tr><th scope="col">Round</th>${seats.map((p) => html`<th scope="col" key=${p}>${seatName(meta, p)}</th>`)}</tr></thead>
      <tbody>
      ${(view.round_scores || []).map((row, i) => html`<tr key=${i}><td>${i + 1}</td>${row.map((s, p) => html`<td key=${p}>${s}</td>`)}</tr>`)}
      <tr class="total"><td>Total</td>${seats.map((p) => html`<td key=${p}>${view.total_scores[p]}</td>`)}</tr>
      </tbody>
    </table></div>
  </section>`;
}

function entryOf(frame) {
  return { seq: frame.move, seat: frame.seat, by_bot: frame.by_bot, events: frame.events };
}

// A step redraws only what changed: each log line and each hand is a component element made
// once and handed to Preact again as the same object, which it skips without diffing.
const lineCache = new Map();
const handCache = new WeakMap();
const meldCache = new WeakMap();
// The log shows the newest moves of the round so far; the earlier ones on demand (a jump into
// a long round draws a few dozen lines, not a hundred).
const LOG_WINDOW = 15;

function linesOfFrame(game, frames, n) {
  const frame = frames[n];
  if (!frame.lines) {
    // A laid-off card names the meld as it stood before the move.
    // A round's end is a plain line here (the table page makes it a button opening the
    // round's summary; in the replay the next steps show the round's end itself).
    frame.lines = entryLines(entryOf(frame), game.meta, frames[Math.max(0, n - 1)].view.melds)
      .map((parts) => parts.map((p) => (p && p.roundEnd !== undefined ? p.text : p)));
  }
  return frame.lines;
}

function LogItem({ entry, line, index, current, faces, meta, go, decision }) {
  return html`<li data-seq=${entry.seq} class=${current ? "current" : ""} aria-current=${current && index === 0 ? "step" : null}>
    <a href=${`?move=${entry.seq}`} onClick=${(e) => { e.preventDefault(); go(entry.seq); }}><span class="log-move">${entry.seq}.</span> <${Line} parts=${line} faces=${faces} /></a>${entry.by_bot && entry.seat !== null && !(meta.seats[entry.seat] || {}).is_bot ? html` <span class="hint">(bot)</span>` : ""}
    ${decision ? html`<div class="am-line"><${Mark} d=${decision} faces=${faces} /></div>` : ""}
  </li>`;
}

// The round's moves so far, newest first (and inside a move its newest event first); each line
// a link to its move.
function Log({ game, frames, round, at, go, all, showAll }) {
  const faces = game.faces;
  const entries = [];
  const from = all ? round.first : Math.max(round.first, at - LOG_WINDOW + 1);
  for (let n = from; n <= at; n++) entries.push({ seq: n, seat: frames[n].seat, by_bot: frames[n].by_bot });
  const items = linesNewestFirst(entries, (entry) => linesOfFrame(game, frames, entry.seq)).map(({ entry, line, index }) => {
    const current = entry.seq === at;
    const key = `${entry.seq}.${index}.${current ? 1 : 0}`;
    let item = lineCache.get(key);
    if (!item) {
      // A move's analysis is marked on its first line (its own action; what followed, a
      // window or a sale, reads above it, newest first).
      const decision = index === 0 ? game.analysis.bySeq.get(entry.seq) : null;
      item = html`<${LogItem} key=${`${entry.seq}.${index}`} entry=${entry} line=${line} index=${index} current=${current} faces=${faces} meta=${game.meta} go=${go} decision=${decision} />`;
      lineCache.set(key, item);
    }
    return item;
  });
  const earlier = from - round.first;
  return html`<section class="panel log-panel replay-log-panel" id="replay-log" aria-labelledby="replay-log-title">
    <h2 id="replay-log-title">Round ${round.round} so far <small>newest first</small></h2>
    <ol class="log replay-log" tabindex="0" aria-label=${`Round ${round.round}'s moves so far, newest first`}>${items}</ol>
    ${earlier > 0 && html`<button type="button" class="link" id="replay-log-earlier" onClick=${showAll}>Show this round's ${earlier} earlier move${earlier === 1 ? "" : "s"}</button>`}
  </section>`;
}

function Nav({ game, frames, at, go }) {
  const total = game.total;
  const round = roundOf(game, at);
  const idx = game.rounds.indexOf(round);
  const view = frames[at].view;
  const meta = game.meta;
  const lines = linesOfFrame(game, frames, at);
  // Newest first, as the log below reads.
  const decision = game.analysis.bySeq.get(at);
  const said = lines.map((parts) => partsText(parts, view.faces)).reverse().join("; ");
  const now = decision ? `${said}. ${decisionText(decision, view.faces)}` : said;
  const step = (n) => () => go(n);
  return html`<nav class="replay-nav card" id="replay-nav" aria-label="Moves">
    <div class="buttons">
      <button type="button" id="first-move" title="Home" aria-label="First move: the deal" disabled=${at === 0} onClick=${step(0)}>«<span class="wide-only"> Deal</span></button>
      <button type="button" id="prev-round" title="Page Up" aria-label="Previous round" disabled=${idx <= 0 && at === round.first} onClick=${step(at > round.first ? round.first : game.rounds[Math.max(0, idx - 1)].first)}>‹‹<span class="wide-only"> Round</span></button>
      <button type="button" id="prev-move" title="←" aria-label="Back one move" disabled=${at === 0} onClick=${step(at - 1)}>‹<span class="wide-only"> Back</span></button>
      <span class="position" id="replay-position">Round ${view.round} · move ${at} of ${total}</span>
      <button type="button" id="next-move" title="→" aria-label="Next move" disabled=${at === total} onClick=${step(at + 1)}><span class="wide-only">Next </span>›</button>
      <button type="button" id="next-round" title="Page Down" aria-label="Next round" disabled=${idx + 1 >= game.rounds.length} onClick=${step(idx + 1 < game.rounds.length ? game.rounds[idx + 1].first : total)}><span class="wide-only">Round </span>››</button>
      <button type="button" id="last-move" title="End" aria-label="End: the last move" disabled=${at === total} onClick=${step(total)}><span class="wide-only">End </span>»</button>
    </div>
    <label class="replay-slider"><span>Move</span>
      <input type="range" id="replay-slider" min="0" max=${total} value=${at} aria-valuetext=${`move ${at} of ${total}, round ${view.round}`}
        onInput=${(e) => go(Number(e.currentTarget.value))} />
    </label>
    <p class="hint">Keys: ← → a move, Page Up / Page Down (or [ ]) a round, Home / End. Rounds:
      ${game.rounds.map((r) => html` <a key=${r.round} href=${`?move=${r.first}`} aria-current=${r === round ? "step" : null}
          onClick=${(e) => { e.preventDefault(); go(r.first); }}>${r.round}</a>`)}</p>
    <p class="now" id="replay-now" aria-live="polite">${now || `Round ${view.round} dealt.`}</p>
  </nav>`;
}

function Replay({ game, frames, at, go, all, showAll }) {
  const frame = frames[at];
  const meta = game.meta;
  const s = { meta, view: frame.view };
  const round = roundOf(game, at);
  return html`
    <${Nav} game=${game} frames=${frames} at=${at} go=${go} />
    <div class="replay-layout">
      <div class="board replay-table" id="replay-table">
        <p class="replay-round">Round ${frame.view.round} of ${frame.view.rounds}${frame.view.contract ? html` · contract: <strong>${frame.view.contract.text}</strong>` : ""}</p>
        <${Seats} meta=${meta} frame=${frame} />
        <div class="centre">
          <${Piles} s=${s} canDraw=${false} onDraw=${() => {}} recent=${frame.view.discard_recent || []} />
          <${Offer} meta=${meta} view=${frame.view} />
        </div>
        <${Stock} frame=${frame} />
        ${meldsOf(s)}
      </div>
      <${Log} game=${game} frames=${frames} round=${round} at=${at} go=${go} all=${all} showAll=${showAll} />
    </div>
    ${game.analysis.status ? html`<${AnalysisSection} game=${game} analysis=${game.analysis} round=${round} at=${at} />` : ""}
    <${Scores} meta=${meta} view=${frame.view} />`;
}

// ---- the page -------------------------------------------------------------------------------
const KEYS = {
  ArrowLeft: "prev",
  ArrowRight: "next",
  PageUp: "prevRound",
  PageDown: "nextRound",
  "[": "prevRound",
  "]": "nextRound",
  Home: "first",
  End: "last",
};

export function startReplay(el, game) {
  game.meta = { seats: game.seats, my_seat: null };
  // No analysis (a moderator's replay) until one is fetched.
  game.analysis = { status: null, decisions: [], bySeq: new Map() };
  const frames = expand(game);
  const total = game.total;
  let at = moveFromAddress(total);
  // The whole round in the log, once asked for; until the round changes.
  let all = null;
  const showAll = () => { all = roundOf(game, at); draw(); };
  const draw = () => render(html`<${Replay} game=${game} frames=${frames} at=${at} go=${go} all=${all === roundOf(game, at)} showAll=${showAll} />`, el);
  function go(n) {
    const next = Math.max(0, Math.min(total, n));
    if (next === at) return;
    at = next;
    // Preact's top-level render is synchronous: the step is drawn when go() returns.
    draw();
    const url = new URL(window.location.href);
    url.searchParams.set("move", String(at));
    url.hash = "";
    window.history.replaceState(null, "", url);
    el.dataset.move = String(at);
  }
  const target = {
    prev: () => at - 1,
    next: () => at + 1,
    first: () => 0,
    last: () => total,
    prevRound: () => {
      const r = roundOf(game, at);
      if (at > r.first) return r.first;
      const i = game.rounds.indexOf(r);
      return i > 0 ? game.rounds[i - 1].first : 0;
    },
    nextRound: () => {
      const i = game.rounds.indexOf(roundOf(game, at));
      return i + 1 < game.rounds.length ? game.rounds[i + 1].first : total;
    },
  };
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const t = event.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    const which = KEYS[event.key];
    if (!which) return;
    event.preventDefault();
    go(target[which]());
  });
  window.addEventListener("hashchange", () => go(moveFromAddress(total)));
  el.textContent = ""; // the server's "Loading the game…" line
  if (el.dataset.analysis) {
    game.analysis = loadAnalysis(el.dataset.analysis, (analysis) => {
      game.analysis = analysis;
      lineCache.clear(); // the log's lines are drawn again with their marks
      draw();
      el.dataset.analysisStatus = analysis.status;
    });
  }
  draw();
  el.dataset.move = String(at);
  el.dataset.ready = "1";
  el.removeAttribute("aria-busy");
  return { go, frames };
}

async function load(el) {
  try {
    const response = await fetch(el.dataset.source, { credentials: "same-origin", headers: { Accept: "application/json" } });
    const body = await response.json();
    if (!response.ok) throw new Error((body.error && body.error.message) || response.statusText);
    window.__replay = startReplay(el, body);
  } catch (err) {
    el.removeAttribute("aria-busy");
    el.textContent = `The replay could not be loaded: ${err.message}. Reload the page to try again.`;
    el.classList.add("error");
  }
}

if (root) load(root);

// ---- the seed, checked again in the browser ---------------------------------------------------
async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

const verify = document.getElementById("replay-verify");
const out = document.getElementById("browser-check");
if (verify && out && window.crypto && crypto.subtle) {
  const { seed, published } = verify.dataset;
  sha256Hex(seed).then((hash) => {
    if (!published) {
      out.textContent = `Your browser computed SHA-256 of the seed: ${hash}.`;
    } else if (hash === published) {
      out.textContent = "Your browser computed SHA-256 of the seed: it matches the published commitment.";
      out.className = "ok";
    } else {
      out.textContent = `Your browser computed ${hash}: it does NOT match the published commitment.`;
      out.className = "bad";
    }
  });
}
