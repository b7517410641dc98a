// Moments: the end of a round (who went out, each hand and its points, MAYI melds, totals),
// the end of the game (winner, places, "play again"), and "since you last looked".
import { html } from "./ui.js";
import { MiniCards, FaceCards } from "./cards.js";
import { seatName } from "./names.js";
import { entryLines, partsText } from "./log.js";
import { store, tableId } from "./state.js";
import { post } from "./api.js";

function lastEvent(log, type, round) {
  for (let i = log.length - 1; i >= 0; i--) {
    for (const e of log[i].events || []) if (e.type === type && (round === undefined || e.round === round)) return e;
  }
  return null;
}

// The results of a round: the round_ended event of the deltalog when we have it (hands and
// penalties from the server's round data when it sends them), else the view's score table.
export function roundResult(s, round) {
  const { view } = s;
  const e = lastEvent(s.log, "round_ended", round);
  const data = view.last_round && view.last_round.round === round ? view.last_round : null;
  const scores = (data && data.scores) || (e && e.scores) || view.round_scores[round - 1];
  if (!scores) return null;
  return {
    round,
    wentOut: data && data.went_out !== undefined ? data.went_out : e ? e.went_out : scores.indexOf(Math.min(...scores)),
    faceHands: data && data.hands ? data.hands : null,
    hands: round === view.round && view.game_over ? view.hands : null,
    penalties: (data && data.penalties) || (e && e.penalties) || null,
    mayi: (data && data.mayi_melds) || (e && e.mayi_melds) || null,
    scores,
    totals: (data && data.totals) || (e && e.totals) || null,
  };
}

export function RoundPanel({ s, round, onClose }) {
  const { meta, view } = s;
  const r = roundResult(s, round);
  if (!r) return null;
  const n = view.players;
  const faces = { ...(s.logFaces || {}), ...view.faces };
  return html`<div class="moment" role="dialog" aria-modal="false" aria-labelledby="round-end-title" id="round-end">
    <h2 id="round-end-title">Round ${round} is over</h2>
    <p class="moment-lead">${r.wentOut === null || r.wentOut === undefined ? "Nobody went out." : `${seatName(meta, r.wentOut)} went out${r.wentOut === meta.my_seat ? " — well done!" : "."}`}</p>
    <table class="list results">
      <thead><tr><th scope="col">Player</th><th scope="col" class="cards-left">Cards left</th><th scope="col">Points</th>${r.mayi ? html`<th scope="col">MAYI melds</th>` : ""}<th scope="col">Round</th><th scope="col">Total</th></tr></thead>
      <tbody>${Array.from({ length: n }, (_, p) => {
        const left = r.faceHands && r.faceHands[p]
          ? (r.faceHands[p].length ? html`<${FaceCards} list=${r.faceHands[p]} set=${view.card_set} />` : "out")
          : r.hands && r.hands[p] ? (r.hands[p].length ? html`<${MiniCards} ids=${r.hands[p]} faces=${faces} />` : "out") : p === r.wentOut ? "out" : "—";
        // On a phone the cards left go on a line of their own under the player's numbers
        // (CSS shows one or the other): beside them they squeezed into a column one card wide
        // and pushed the totals off the dialog.
        return html`<tr key=${p} class=${p === r.wentOut ? "winner" : ""}>
          <th scope="row">${seatName(meta, p)}</th>
          <td class="cards-left">${left}</td>
          <td>${r.penalties ? r.penalties[p] : "—"}</td>
          ${r.mayi ? html`<td>${r.mayi[p]}</td>` : ""}
          <td>${r.scores[p]}</td>
          <td>${r.totals ? r.totals[p] : view.total_scores[p]}</td>
        </tr>
        <tr key=${`${p}-left`} class=${`cards-left-row${p === r.wentOut ? " winner" : ""}`}>
          <td colspan=${r.mayi ? 5 : 4}>${left}</td>
        </tr>`;
      })}</tbody>
    </table>
    <div class="buttons"><button type="button" class="primary" id="round-end-close" onClick=${onClose}>${view.game_over ? "See the final standings" : `On to round ${round + 1}`}</button></div>
  </div>`;
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
      <span class="place">${view.places ? view.places[p] : ""}</span> <strong>${seatName(meta, p)}</strong>${p === meta.my_seat ? " (you)" : ""} · ${view.total_scores[p]} points · ${outFirst(view.rounds_out[p])}
    </li>`)}</ol>
    <div class="scroll-x" tabindex="0" role="region" aria-label="Scores by round"><table class="list results" id="scores">
      <thead><tr><th scope="col">Round</th>${Array.from({ length: n }, (_, p) => html`<th scope="col" key=${p}>${seatName(meta, p)}</th>`)}</tr></thead>
      <tbody>${rounds.map((r, i) => html`<tr key=${i}><th scope="row">${i + 1}</th>${r.map((x, p) => html`<td key=${p}>${x}</td>`)}</tr>`)}
      <tr class="total"><th scope="row">Total</th>${view.total_scores.map((x, p) => html`<td key=${p}>${x}</td>`)}</tr></tbody>
    </table></div>
    ${meta.my_seat !== null && html`<div class="buttons"><button type="button" class="primary" id="play-again" onClick=${() => playAgain(s)}>${meta.rematch ? "Go to the new game" : "Play again with the same players"}</button></div>`}
  </section>`;
}

export function Since({ s, since, onClose }) {
  if (!since || !since.length) return null;
  const faces = { ...(s.logFaces || {}), ...s.view.faces };
  const lines = since.flatMap((e) => entryLines(e, s.meta, s.view.melds));
  if (!lines.length) return null;
  // The last 8 lines at once; a night's worth of moves before them stays one click away
  // (they were dropped without a word: a player back after a day missed the round's end).
  const shown = lines.slice(-8);
  const earlier = lines.slice(0, -8);
  return html`<div class="since" id="since" role="region" aria-label="Since you last looked">
    <strong>Since you last looked</strong> (${since.length} move${since.length > 1 ? "s" : ""}):
    ${earlier.length > 0 && html`<details class="since-earlier"><summary>${earlier.length} earlier line${earlier.length > 1 ? "s" : ""}</summary>
      <ul>${earlier.map((parts, i) => html`<li key=${i}>${partsText(parts, faces)}</li>`)}</ul></details>`}
    <ul>${shown.map((parts, i) => html`<li key=${i}>${partsText(parts, faces)}</li>`)}</ul>
    <button type="button" class="link" onClick=${onClose}>Dismiss</button>
  </div>`;
}
