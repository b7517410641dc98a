// The table: the players around it, the stock and the discard pile in the middle, the melds
// grouped by owner (runs in order, each wild showing the number it stands for).
import { html } from "./ui.js";
import { Card, CardBack, MiniCards, spoken, faceOf } from "./cards.js";
import { clockText } from "./clock.js";
import { aborted } from "./controls.js";
import { seatName, Breakable } from "./names.js";
import { Reliability } from "./trust.js";

function Fan({ count }) {
  const shown = Math.min(count, 8);
  return html`<span class="fan" aria-hidden="true">${Array.from({ length: shown }, (_, i) => html`<${CardBack} key=${i} small=${true} />`)}</span>`;
}

function aBot(level) { return `${/^[aeiou]/.test(level) ? "an" : "a"} ${level} bot`; }

export function Seats({ s }) {
  const { meta, view } = s;
  const mine = meta.my_seat;
  const n = view.players;
  // Around the table from the seat after mine, so the order of play reads left to right.
  const start = mine === null ? 0 : (mine + 1) % n;
  const seats = Array.from({ length: n }, (_, i) => (start + i) % n);
  const over = aborted(s); // a table a moderator aborted: no seat plays, no clock runs
  return html`<ul class="seats-row" id="players" aria-label="Players">
    ${seats.map((p) => {
      const seat = meta.seats.find((x) => x.position === p) || {};
      const active = view.active_seat === p && !over;
      const online = seat.is_bot ? "bot" : seat.online === true ? "online" : seat.online === false ? "offline" : "unknown";
      const cls = ["seat", active ? "active" : "", p === mine ? "me" : "", seat.expelled ? "expelled" : ""].join(" ");
      const level = seat.is_bot && seat.bot_level ? seat.bot_level : null;
      const buys = view.max_buys === null || view.max_buys === undefined ? `${view.buys_used[p]}` : `${view.buys_used[p]}/${view.max_buys}`;
      const place = view.game_over && view.places ? view.places[p] : null;
      return html`<li key=${p} class=${cls} data-seat=${p} aria-current=${active ? "true" : null}
          aria-label=${`${seatName(meta, p)}${level ? ` (${aBot(level)})` : ""}${p === mine ? " (you)" : ""}${active ? ", to play" : ""}: ${view.hand_sizes[p]} card${view.hand_sizes[p] === 1 ? "" : "s"}, ${view.total_scores[p]} point${view.total_scores[p] === 1 ? "" : "s"}`}>
        <div class="seat-name">
          <span class=${`dot ${online}`} title=${online === "bot" ? (level ? aBot(level) : "a bot") : online}></span>
          <strong><${Breakable} name=${seatName(meta, p)} /></strong>${p === mine ? html` <span class="you">(you)</span><span class="you-short" aria-hidden="true">You</span>` : ""}
          ${level ? html` <span class="badge level-badge" title=${`plays at the ${level} level`}>${level}</span>` : ""}
          ${view.dealer_seat === p ? html` <span class="badge dealer" title="dealer">D</span>` : ""}
          ${seat.expelled ? html` <span class="badge" title="a bot plays this seat">bot plays</span>` : ""}
        </div>
        <div class="seat-hand"><${Fan} count=${view.hand_sizes[p]} /><span class="hand-count" title="cards in hand" data-one=${view.hand_sizes[p] === 1 ? "" : null}>${view.hand_sizes[p]}</span></div>
        <dl class="seat-facts">
          <div class="f-score"><dt>Score</dt><dd class="score">${view.total_scores[p]}</dd></div>
          <div class="f-buys"><dt>Buys</dt><dd>${buys}</dd></div>
          <div class="f-down"><dt>Down</dt><dd>${view.contract_down[p] ? "✓" : "—"}</dd></div>
          ${view.mayi_melds && view.mayi_melds[p] ? html`<div><dt>MAYI</dt><dd>${view.mayi_melds[p]}</dd></div>` : ""}
          ${place ? html`<div><dt>Place</dt><dd>${place}</dd></div>` : over ? "" : html`<div class="f-clock"><dt>Clock</dt><dd class="clock" data-clock=${p}>${clockText(meta, view, p)}</dd></div>`}
          ${seat.missed_turns ? html`<div><dt>Strikes</dt><dd>${seat.missed_turns}</dd></div>` : ""}
          ${!seat.is_bot && seat.user && p !== mine ? html`<div class="f-rel"><dt>Finishes</dt><dd><${Reliability} position=${p} /></dd></div>` : ""}
        </dl>
      </li>`;
    })}
  </ul>`;
}

// The recent discards open towards the middle of the board, never over its edge: the piles
// sit at the right of a wide board and at the left of a phone's.
function sideOfBoard(event) {
  const wrap = event.currentTarget;
  const board = wrap.closest(".board") || document.body;
  const r = wrap.getBoundingClientRect(), b = board.getBoundingClientRect();
  wrap.dataset.side = r.left + r.width / 2 > b.left + b.width / 2 ? "right" : "left";
}

export function Piles({ s, canDraw, onDraw, recent }) {
  const { view } = s;
  const faces = view.faces;
  const top = view.discard_top;
  const canTake = canDraw && top && view.phase === "draw";
  const peek = !canTake && recent.length > 1;
  return html`<div class="piles" id="piles">
    <button type="button" class=${`pile stock ${canDraw ? "glow" : ""}`} id="stock" disabled=${!canDraw}
        aria-label=${`Stock, ${view.stock_size} card${view.stock_size === 1 ? "" : "s"}${canDraw ? ": draw from the stock (D)" : ""}`} onClick=${() => onDraw("stock")}>
      <${CardBack} /><span class="pile-count" id="stock-count" data-count=${view.stock_size} data-t=${view.stock_size}></span>
    </button>
    ${/* Not mine to take, the pile is a disabled button: the box takes the focus instead, so the
         keyboard, too, can show the last discards. */ ""}
    <div class="discard-wrap" data-drop="discard" tabindex=${peek ? "0" : null} role=${peek ? "group" : null}
        onMouseEnter=${sideOfBoard} onFocusIn=${sideOfBoard} onTouchStart=${sideOfBoard}
        aria-label=${peek ? `Discard pile, top ${spoken(top, faces)}; recent discards: ${recent.map((c) => spoken(c, faces)).join(", ")}` : null}>
      <button type="button" class=${`pile discard ${canTake ? "glow" : ""}`} id="discard" disabled=${!canTake}
          aria-label=${top ? `Discard pile, ${view.discard_size} card${view.discard_size === 1 ? "" : "s"}, top ${spoken(top, faces)}${canTake ? ": take it (T)" : ""}` : "Discard pile, empty"}
          onClick=${() => onDraw("discard")}>
        ${top ? html`<${Card} key=${top} id=${top} faces=${faces} hidden=${true} />` : html`<span class="pc pc-empty"></span>`}
        <span class="pile-count" id="discard-count" data-count=${view.discard_size} data-t=${view.discard_size}></span>
      </button>
      ${recent.length > 1 && html`<div class="recent" role="note" aria-label="Recent discards">
        <span class="recent-title">Recent discards</span>
        <${MiniCards} ids=${recent} faces=${faces} />
      </div>`}
    </div>
  </div>`;
}

// What a wild in a tabled meld stands for: its place in the run, or the book's number.
function stands(meld, i, faces) {
  const f = faceOf(meld.cards[i], faces);
  if (!f || !f.wild) return null;
  if (meld.kind === "run" && meld.start != null) return meld.start + i;
  if (meld.kind === "book" && meld.rank != null) return meld.rank;
  return null;
}

const KIND = { book: "book", run: "run", mayi: "MAYI meld" };

export function Melds({ s, targets, onMeld }) {
  const { meta, view } = s;
  const faces = view.faces;
  const owners = [];
  for (const m of view.melds) if (!owners.includes(m.owner)) owners.push(m.owner);
  if (!owners.length) return html`<div class="melds" id="melds"><p class="hint">No melds on the table yet.</p></div>`;
  return html`<div class="melds" id="melds">
    ${owners.map((o) => html`<section key=${o} class="meld-group" aria-label=${`${seatName(meta, o)}'s melds`}>
      <h3 class="meld-owner">${seatName(meta, o)}${o === meta.my_seat ? " (you)" : ""}</h3>
      <div class="meld-list">
      ${view.melds.filter((m) => m.owner === o).map((m) => {
        const t = targets ? targets.get(m.id) : null;
        const cls = ["meld", `meld-${m.kind}`, t ? "target" : "", targets && !t ? "not-target" : ""].join(" ");
        const label = `${KIND[m.kind] || m.kind} · ${seatName(meta, m.owner)}: ${m.cards.map((c) => spoken(c, faces)).join(", ")}${t ? ". Lay off here" : ""}`;
        const both = t && t.has("low") && t.has("high");
        return html`<div key=${m.id} class="meld-wrap" data-meld-drop=${m.kind === "mayi" ? null : m.id}>
          ${both && html`<button type="button" class="meld-end low" aria-label=${`Lay off at the low end of ${label}`} onClick=${() => onMeld(m, "low")}>◀</button>`}
          <button type="button" class=${cls} data-meld=${m.id} aria-label=${label} onClick=${(e) => {
            const r = e.currentTarget.getBoundingClientRect();
            // The end of a run is where the card goes: the left half is the low end.
            const end = m.kind === "run" && e.clientX ? (e.clientX < r.left + r.width / 2 ? "low" : "high") : null;
            onMeld(m, both ? end : null);
          }}>
            <span class="meld-label">${KIND[m.kind] || m.kind} · ${seatName(meta, m.owner)}</span>
            <span class="meld-cards">${m.cards.map((c, i) => html`<${Card} key=${c} id=${c} faces=${faces} stands=${stands(m, i, faces)} small=${true} hidden=${true} />`)}</span>
          </button>
          ${both && html`<button type="button" class="meld-end high" aria-label=${`Lay off at the high end of ${label}`} onClick=${() => onMeld(m, "high")}>▶</button>`}
        </div>`;
      })}
      </div>
    </section>`)}
  </div>`;
}
