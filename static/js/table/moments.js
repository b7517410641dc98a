// Moments: the end of a round (who went out, each hand and its points, MAYI melds, totals),
// the end of the game (winner, places, "play again"), and "since you last looked".
import { RatingChange } from "./trust.js";
import { html } from "./ui.js";
import { Card, FaceCards, faceOf } from "./cards.js";
import { seatName, Breakable } from "./names.js";
import { entryLines, partsText } from "./log.js";
import { store, tableId } from "./state.js";
import { post } from "./api.js";
import { linesNewestFirst } from "../log-order.js";

function lastEvent(log, type, round) {
  for (let i = log.length - 1; i >= 0; i--) {
    for (const e of log[i].events || []) if (e.type === type && (round === undefined || e.round === round)) return e;
  }
  return null;
}

// The end of a round, from the view's ``last_round`` (the engine's summary, faces only) when
// it is that round, else from the round_ended event in the log (card ids, public at a round's
// end, drawn from the entries' faces): who went out and with which last cards, the melds as
// the table showed them, each hand left with its points, MAYI melds, the totals.
export function roundResult(s, round) {
  const { view } = s;
  const faces = { ...(s.logFaces || {}), ...view.faces };
  const e = lastEvent(s.log, "round_ended", round);
  const data = view.last_round && view.last_round.round === round ? view.last_round : null;
  const scores = (data && data.scores) || (e && e.scores) || view.round_scores[round - 1];
  if (!scores) return null;
  const f = (ids) => ids.map((c) => faceOf(c, faces));
  const fromEvent = (m) => ({ kind: m.kind, owner: m.owner, start: m.start, cards: f(m.cards || []) });
  let hands = null;
  if (data && data.hands) hands = data.hands;
  else if (e && e.hands) hands = e.hands.map(f);
  else if (round === view.round && view.game_over && view.hands) hands = view.hands.map(f);
  return {
    round,
    reason: (data && data.reason) || (e && e.reason) || null,
    wentOut: data && data.went_out !== undefined ? data.went_out : e ? e.went_out : scores.indexOf(Math.min(...scores)),
    melds: data && data.melds ? data.melds : e && e.melds ? e.melds.map(fromEvent) : null,
    lastCards: data && data.last_cards ? data.last_cards : e && e.last_cards ? f(e.last_cards) : null,
    hands,
    penalties: (data && data.penalties) || (e && e.penalties) || null,
    mayi: (data && data.mayi_melds) || (e && e.mayi_melds) || null,
    scores,
    totals: (data && data.totals) || (e && e.totals) || null,
  };
}

const KIND = { book: "book", run: "run", mayi: "MAYI meld" };

// A tabled meld drawn from faces: a wild in a run shows the number it stands for.
function FaceMeld({ m, set }) {
  const label = `${KIND[m.kind] || m.kind}: ${m.cards.map((c) => c.label).join(", ")}`;
  return html`<span class="meld ended-meld" role="img" aria-label=${label}><span class="meld-cards">${m.cards.map((c, i) => html`<${Card} key=${i} id=${null} face=${c} set=${set} small=${true} hidden=${true}
    stands=${c.wild && m.kind === "run" && m.start != null ? m.start + i : null} />`)}</span></span>`;
}

// The summary of a round's end. In the board (``id`` "round-end") from the round's end until
// my first draw of the next one, beside the next round's offer and never over it; in the log
// (``id`` "round-log-summary") when its "Round N ended" line is clicked.
export function RoundSummary({ s, round, onClose, id = "round-end" }) {
  const { meta, view } = s;
  const r = roundResult(s, round);
  if (!r) return null;
  const n = view.players;
  const set = view.card_set;
  const title = `${id}-title`;
  const owners = [];
  for (const m of r.melds || []) if (!owners.includes(m.owner)) owners.push(m.owner);
  const out = r.wentOut === null || r.wentOut === undefined ? null : r.wentOut;
  const closeText = id !== "round-end" ? "Close" : view.game_over && round === view.round ? "See the final standings" : `On to round ${round + 1}`;
  return html`<section class="moment round-summary" id=${id} aria-labelledby=${title} tabindex="-1">
    <h2 id=${title}>Round ${round} is over</h2>
    <p class="moment-lead">${out === null ? "Nobody went out." : `${seatName(meta, out)} went out${out === meta.my_seat ? " — well done!" : "."}`}
      ${out !== null && r.lastCards && r.lastCards.length ? html` <span class="last-cards">Last ${r.lastCards.length === 1 ? "card" : "cards"} played: <${FaceCards} list=${r.lastCards} set=${set} /></span>` : ""}</p>
    ${r.melds && html`<div class="ended-table">
      <h3>The table at the end</h3>
      ${owners.length ? owners.map((o) => html`<div key=${o} class=${`ended-melds ${o === out ? "winner" : ""}`} data-owner=${o}>
        <span class="ended-owner">${seatName(meta, o)}${o === meta.my_seat ? " (you)" : ""}</span>
        <span class="ended-list">${r.melds.filter((m) => m.owner === o).map((m, i) => html`<${FaceMeld} key=${i} m=${m} set=${set} />`)}</span>
      </div>`) : html`<p class="hint">No melds were laid.</p>`}
    </div>`}
    <table class="list results">
      <thead><tr><th scope="col">Player</th><th scope="col" class="cards-left">Cards left</th><th scope="col">Points</th>${r.mayi ? html`<th scope="col">MAYI melds</th>` : ""}<th scope="col">Round</th><th scope="col">Total</th></tr></thead>
      <tbody>${Array.from({ length: n }, (_, p) => {
        const left = r.hands && r.hands[p]
          ? (r.hands[p].length ? html`<${FaceCards} list=${r.hands[p]} set=${set} />` : "out")
          : p === out ? "out" : "—";
        // On a phone the cards left go on a line of their own under the player's numbers
        // (CSS shows one or the other): beside them they squeezed into a column one card wide
        // and pushed the totals off the summary.
        return html`<tr key=${p} class=${p === out ? "winner" : ""}>
          <th scope="row"><${Breakable} name=${seatName(meta, p)} /></th>
          <td class="cards-left">${left}</td>
          <td>${r.penalties ? r.penalties[p] : "—"}</td>
          ${r.mayi ? html`<td>${r.mayi[p]}</td>` : ""}
          <td>${r.scores[p]}</td>
          <td>${r.totals ? r.totals[p] : view.total_scores[p]}</td>
        </tr>
        <tr key=${`${p}-left`} class=${`cards-left-row${p === out ? " winner" : ""}`}>
          <td colspan=${r.mayi ? 5 : 4}>${left}</td>
        </tr>`;
      })}</tbody>
    </table>
    <div class="buttons"><button type="button" class="primary" id=${`${id}-close`} onClick=${onClose}>${closeText}</button></div>
  </section>`;
}

async function playAgain(s) {
  if (s.meta.rematch) { window.location.assign(`/tables/${s.meta.rematch}/`); return; }
  const url = s.meta.play_again_url || `/api/tables/${tableId}/rematch`;
  const { response, data } = await post(url, {});
  if (response.ok && data) {
    const id = (data.table && data.table.id) || data.id;
    if (id) window.location.assign(`/tables/${id}/`);
  } else {
    store.set({ error: data && data.error ? data.error.message : "Could not start a new game." });
  }
}

// "out first in 0 rounds" read as a count of nothing; a player who never went out is told so.
function outFirst(n) {
  return n ? `out first in ${n} round${n === 1 ? "" : "s"}` : "never out first";
}

export function GamePanel({ s }) {
  const { meta, view } = s;
  if (!view.game_over) return null;
  const n = view.players;
  const order = Array.from({ length: n }, (_, p) => p).sort((a, b) => (view.places ? view.places[a] - view.places[b] : 0) || view.total_scores[a] - view.total_scores[b]);
  const winners = order.filter((p) => view.places && view.places[p] === 1);
  const rounds = view.round_scores.filter((r) => r && r.length);
  return html`<section class="moment game-end" id="game-end" aria-labelledby="game-end-title">
    <h2 id="game-end-title">${winners.map((p) => seatName(meta, p)).join(" and ")} ${winners.length > 1 ? "share the win" : "wins"}!</h2>
    <ol class="places">${order.map((p) => html`<li key=${p} class=${view.places && view.places[p] === 1 ? "first" : ""}>
      <span class="place">${view.places ? view.places[p] : ""}</span> <strong>${seatName(meta, p)}</strong>${p === meta.my_seat ? " (you)" : ""} · ${view.total_scores[p]} points · ${outFirst(view.rounds_out[p])}<${RatingChange} meta=${meta} position=${p} />
    </li>`)}</ol>
    <div class="scroll-x" tabindex="0" role="region" aria-label="Scores by round"><table class="list results" id="scores">
      <thead><tr><th scope="col">Round</th>${Array.from({ length: n }, (_, p) => html`<th scope="col" key=${p}>${seatName(meta, p)}</th>`)}</tr></thead>
      <tbody>${rounds.map((r, i) => html`<tr key=${i}><th scope="row">${i + 1}</th>${r.map((x, p) => html`<td key=${p}>${x}</td>`)}</tr>`)}
      <tr class="total"><th scope="row">Total</th>${view.total_scores.map((x, p) => html`<td key=${p}>${x}</td>`)}</tr></tbody>
    </table></div>
    ${meta.my_seat !== null && html`<div class="buttons"><button type="button" class="primary" id="play-again" onClick=${() => playAgain(s)}>${meta.rematch ? "Go to the new game" : "Play again with the same players"}</button></div>`}
  </section>`;
}

function sinceLines(s) {
  const since = s.since;
  if (!since || !since.length || !s.view) return [];
  // Newest first, as the log (static/js/log-order.js).
  return linesNewestFirst(since, (e) => entryLines(e, s.meta, s.view.melds)).map((x) => x.line);
}

const dismiss = () => store.set({ since: null });

// "Since you last looked": the others' moves I have not seen on any device, newest first. It
// sits at the top of the side column, over the log, never in the board's room; it folds away
// once I act (api.js) or dismiss it.
export function Since({ s }) {
  const lines = sinceLines(s);
  if (!lines.length) return null;
  const since = s.since;
  const faces = { ...(s.logFaces || {}), ...s.view.faces };
  // The newest 8 lines at once; a night's worth of moves before them stays one click away
  // (they were dropped without a word: a player back after a day missed the round's end).
  const shown = lines.slice(0, 8);
  const earlier = lines.slice(8);
  return html`<div class="since" id="since" role="region" aria-label="Since you last looked" tabindex="-1">
    <div class="since-head"><strong>Since you last looked</strong> <span>(${since.length} move${since.length > 1 ? "s" : ""})</span>
      <button type="button" class="link" onClick=${dismiss}>Dismiss</button></div>
    <ul>${shown.map((parts, i) => html`<li key=${i}>${partsText(parts, faces)}</li>`)}</ul>
    ${earlier.length > 0 && html`<details class="since-earlier"><summary>${earlier.length} earlier line${earlier.length > 1 ? "s" : ""}</summary>
      <ul>${earlier.map((parts, i) => html`<li key=${i}>${partsText(parts, faces)}</li>`)}</ul></details>`}
  </div>`;
}

// Where the side column is under the game (a phone, a narrow window): one line in the game
// that says so and leads to the list, rather than a box that pushed the piles and the offer
// off the screen.
export function SinceLine({ s }) {
  const lines = sinceLines(s);
  if (!lines.length) return null;
  const n = s.since.length;
  const go = () => {
    const box = document.getElementById("since");
    if (box) { box.scrollIntoView({ block: "start" }); box.focus({ preventScroll: true }); }
  };
  return html`<div class="since-line" id="since-line">
    <button type="button" class="link" onClick=${go}>${n} move${n > 1 ? "s" : ""} since you last looked</button>
    <button type="button" class="close" aria-label="Dismiss what happened since you last looked" onClick=${dismiss}>×</button>
  </div>`;
}
