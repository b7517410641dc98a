// The game log, rendered from the server's deltalog: each move's public events (redacted per
// seat), in words with card pictures ("Bot 3 said May I? and took 7M and a penalty card").
// The full history is paged from the move log (GET /api/tables/<id>/log?before=<seq>).
import { html } from "./ui.js";
import { MiniCards, faceOf } from "./cards.js";
import { seatName, possessive } from "./names.js";
import { loadOlderLog, store } from "./state.js";
import { linesNewestFirst } from "../log-order.js";

const C = (ids) => ({ cards: Array.isArray(ids) ? ids : [ids] });

function who(meta, seat) {
  return seat === meta.my_seat ? "You" : seatName(meta, seat);
}

// One event in words: a list of strings and {cards: [...]} parts; null for the silent ones.
export function eventParts(e, meta, melds) {
  const w = (seat) => who(meta, seat);
  switch (e.type) {
    case "drew":
      if (e.source === "discard") return [`${w(e.seat)} took`, C(e.card), "from the discard pile"];
      return e.card ? [`${w(e.seat)} drew`, C(e.card), "from the stock"] : [`${w(e.seat)} drew from the stock`];
    case "declined": return [`${w(e.seat)} left the discard for the stock`];
    case "window_opened": return ["“May I?” is open on", C(e.card)];
    case "answered": {
      // My standing order's answers say so (only my own seat's events carry the flag).
      const by = e.standing_order && e.seat === meta.my_seat ? "Your standing order" : w(e.seat);
      return e.answer === "may_i" ? [`${by} said “May I?” for`, C(e.card)] : [`${by} said no thanks to`, C(e.card)];
    }
    case "window_closed": return e.buyer === null || e.buyer === undefined ? ["Nobody bought", C(e.card)] : null;
    case "bought": {
      const n = e.penalty_count === undefined ? 1 : e.penalty_count;
      const mine = e.penalty_cards && e.penalty_cards.length;
      return [`${w(e.seat)} said “May I?” and took`, C(e.card), ...(mine ? ["and the penalty card", C(e.penalty_cards)] : [n === 1 ? "and a penalty card" : n ? `and ${n} penalty cards` : ""])];
    }
    case "sale_cancelled": return ["The sale was called off: no penalty card was left"];
    case "discarded": return [`${w(e.seat)} discarded`, C(e.card)];
    case "discard_held": return [`${w(e.seat)} discarded; it lands when the “May I?” window closes`];
    case "pass_held": return [`${w(e.seat)} passed; it counts when the “May I?” window closes`];
    case "passed": return [`${w(e.seat)} passed`];
    case "laid_down": {
      const parts = [`${w(e.seat)} laid down`];
      (e.melds || []).forEach((m, i) => { if (i) parts.push("and"); parts.push(C(m.cards)); });
      return parts;
    }
    case "laid_off": {
      const m = melds instanceof Map ? melds.get(e.meld) : (melds || []).find((x) => x.id === e.meld);
      const where = m ? `on ${m.owner === e.seat ? (e.seat === meta.my_seat ? "your" : "their") : possessive(meta, m.owner, meta.my_seat)} ${m.kind}` : "on a meld";
      return [`${w(e.seat)} laid off`, C(e.card), where];
    }
    case "mayi_meld": return [`${w(e.seat)} laid a MAYI meld`, C(e.meld.cards), `(${e.score} points)`];
    case "replacements": return e.cards && e.cards.length ? [`${w(e.seat)} drew the replacement cards`, C(e.cards)] : [`${w(e.seat)} drew ${e.count} replacement cards`];
    case "wild_swapped": return [`${w(e.seat)} swapped`, C(e.card), "for", C(e.wild)];
    case "went_out": return [`${w(e.seat)} went out!`];
    case "round_started": return [`Round ${e.round} begins; ${e.dealer === meta.my_seat ? "you deal" : `${seatName(meta, e.dealer)} deals`}, ${e.active === meta.my_seat ? "you play" : `${seatName(meta, e.active)} plays`} first`];
    case "round_ended":
      // A button: it opens how the round ended (store.logRound, app.js LogRoot).
      return [{ roundEnd: e.round, text: e.went_out === null || e.went_out === undefined ? `Round ${e.round} ended with nobody out` : `Round ${e.round} ended: ${who(meta, e.went_out)} went out` }];
    case "game_over": {
      const winners = (e.places || []).map((p, s) => (p === 1 ? seatName(meta, s) : null)).filter((x) => x !== null);
      return [`Game over: ${winners.join(" and ")} ${winners.length > 1 ? "share first place" : "wins"}`];
    }
    case "stock_rebuilt": return ["The discard pile was shuffled into a new stock"];
    case "timed_out": return [`${w(e.seat)} ran out of time; the bot played the turn`];
    case "strike": return [`${w(e.seat)} got a strike${e.strikes ? ` (${e.strikes} of ${e.of})` : ""}`];
    case "expelled": return [`${w(e.seat)} was expelled; a bot plays on`];
    case "window_timer": return ["The “May I?” window's timer ran out"];
    default: return null;
  }
}

// The melds as they were when each entry happened (ids start again each round): from the
// laid_down and mayi_meld events of the log itself, falling back on the view's melds.
export function meldsAt(log) {
  const at = new Map();
  let current = new Map();
  for (const entry of log) {
    for (const e of entry.events || []) {
      if (e.type === "round_started") current = new Map();
      if (e.type === "laid_down") for (const m of e.melds || []) current.set(m.id, m);
      if (e.type === "mayi_meld" && e.meld) current.set(e.meld.id, e.meld);
    }
    at.set(entry.seq, current);
  }
  return at;
}

export function entryLines(entry, meta, melds) {
  const lines = [];
  const events = entry.events || [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    // "said May I?" followed by the sale reads as one sentence.
    if (e.type === "answered" && e.answer === "may_i" && events.slice(i + 1).some((x) => x.type === "bought" && x.seat === e.seat)) continue;
    if (e.type === "turn") continue;
    const parts = eventParts(e, meta, melds);
    if (parts) lines.push(parts);
  }
  return lines;
}

export function partsText(parts, faces) {
  return parts.map((p) => (typeof p === "string" ? p : p.cards ? p.cards.map((c) => (faceOf(c, faces) || {}).label).join(" ") : p.text)).join(" ");
}

function openRound(round) {
  store.set({ logRound: round });
  requestAnimationFrame(() => { const el = document.getElementById("round-log-summary"); if (el) el.focus(); });
}

export function Line({ parts, faces }) {
  return html`${parts.map((p, i) => (typeof p === "string" ? `${i ? " " : ""}${p}`
    : p.cards ? html` <${MiniCards} ids=${p.cards} faces=${faces} />`
      : html`<button type="button" class="link round-end-line" data-round-end=${p.roundEnd} aria-haspopup="true" onClick=${() => openRound(p.roundEnd)}>${p.text}</button>`))}`;
}

export function Log({ s, summary }) {
  const { meta, view } = s;
  const faces = { ...(s.logFaces || {}), ...view.faces };
  const melds = meldsAt(s.log);
  const linesOf = (entry) => {
    const known = melds.get(entry.seq);
    return entryLines(entry, meta, known && known.size ? known : view.melds);
  };
  // Newest first throughout (static/js/log-order.js): the newest move, and its newest event.
  const items = linesNewestFirst(s.log, linesOf).map(({ entry, line: parts, index: j }) => html`<li key=${`${entry.seq}.${j}`} data-seq=${entry.seq} class=${entry.seat === meta.my_seat ? "mine" : ""}>
      <${Line} parts=${parts} faces=${faces} />${entry.by_bot && entry.seat !== null && !(meta.seats.find((x) => x.position === entry.seat) || {}).is_bot ? html` <span class="hint">(bot)</span>` : ""}
    </li>`);
  return html`<section class="panel log-panel" aria-labelledby="log-title">
    <h2 id="log-title">Log</h2>
    ${summary || ""}
    <ol id="log" class="log" tabindex="0" aria-label="Game log, newest first">${items}</ol>
    ${!items.length && html`<p class="hint" id="log-empty">What happens at the table appears here as it happens.</p>`}
    ${!s.logDone && html`<button type="button" class="link" id="log-older" onClick=${loadOlderLog}>Show earlier moves</button>`}
  </section>`;
}

// An answer to "May I?" that reached the server after its offer moved on (a 409 with the
// moves since the version I had): what happened, in words, from those moves.
export function staleAnswerText(entries, card, s) {
  const { meta } = s;
  const faces = { ...(s.logFaces || {}), ...(s.view ? s.view.faces : {}) };
  const label = card ? (faceOf(card, faces) || {}).label : null;
  const it = label || "the card";
  let timer = false;
  for (const entry of (entries || []).slice().sort((a, b) => a.seq - b.seq)) {
    for (const e of entry.events || []) {
      if (e.type === "window_timer" && (!card || e.card === card)) timer = true;
      if (e.type === "bought" && (!card || e.card === card)) return `${who(meta, e.seat)} bought ${it} first.`;
      if (e.type === "drew" && e.source === "discard" && (!card || e.card === card)) return `${who(meta, e.seat)} took ${it} from the discard pile first.`;
      if (e.type === "window_closed" && (e.buyer === null || e.buyer === undefined) && (!card || e.card === card)) {
        return timer ? `The window's time ran out: nobody bought ${it}.` : `The window closed: nobody bought ${it}.`;
      }
      if (e.type === "round_ended") return `Round ${e.round} ended before your answer arrived.`;
    }
  }
  return `The offer of ${it} moved on before your answer arrived: look again.`;
}
