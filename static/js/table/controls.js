// What to do now, and the buttons to do it: the status bar, the "May I?" offer, staging and
// the contract meter, the action buttons. The buttons shown follow the view (phase, active
// seat, window, swaps, contracts) and the server's legal actions when it sends them; the
// engine refuses anything else with a reason, which the page shows as it is.
import { html } from "./ui.js";
import { Card, MiniCards, faceOf, spoken } from "./cards.js";
import { left } from "./clock.js";
import { seatName, possessive, listOf } from "./names.js";
import { store } from "./state.js";

// A table a moderator aborted is over too, though its game never reached its end (the view
// still holds the state it stopped in): nothing is to be played there any more.
export function aborted(s) {
  return Boolean(s.meta && s.meta.status === "aborted");
}

export function myTurn(s) {
  const { meta, view } = s;
  return meta.my_seat !== null && view.active_seat === meta.my_seat && !view.game_over && !aborted(s);
}

export function canAnswer(s) {
  const { meta, view } = s;
  const mine = meta.my_seat;
  if (mine === null || view.game_over || aborted(s) || view.hand === null || view.my_answer !== null && view.my_answer !== undefined) return false;
  return view.may_answer === true; // the engine's word (engine/view.py)
}

// The status bar: one sentence saying what to do now.
export function statusText(s) {
  const { meta, view } = s;
  const faces = view.faces;
  const mine = meta.my_seat;
  const w = view.buy_window;
  const label = (c) => (faceOf(c, faces) || {}).label || "";
  if (view.game_over) return "The game is over.";
  if (aborted(s)) return "A moderator aborted this game.";
  if (w && mine !== null && w.waiting.includes(mine)) {
    const t = left(meta.window_deadline);
    return `May I? ${label(w.card)} + a penalty card${t ? `: ${t} left` : ""}`;
  }
  if (myTurn(s)) {
    if (view.phase === "draw") return view.discard_top ? `Draw from the stock or take ${label(view.discard_top)}` : "Draw from the stock";
    if (view.phase === "selling") return "The discard is on sale; your draw follows";
    if (view.turn_done || view.phase === "done") return "Your turn ends when the “May I?” window closes";
    const down = view.contract_down[mine];
    const owed = (view.swapped || []).filter((c) => view.hand.includes(c));
    if (owed.length) return `Play the ${listOf(owed.map(label))} you took off the table`;
    if (!down) return `Lay down ${view.contracts && view.contracts.length > 1 ? view.contracts.map((c) => c.text).join(" or ") : view.contract.text}, or discard`;
    // Round 7 (no final discard): a last card is laid off, or the turn passes.
    return !view.final_discard_allowed && view.hand.length === 1 ? "Lay off or pass" : "Lay off or discard";
  }
  if (view.active_seat === null || view.active_seat === undefined) return "Waiting";
  if (w) return `“May I?” on ${label(w.card)}: waiting for ${listOf(w.waiting.map((p) => seatName(meta, p))) || "the window to close"}`;
  return `Waiting for ${seatName(meta, view.active_seat)}`;
}

export function StatusBar({ s }) {
  const mine = myTurn(s) || canAnswer(s) && s.view.buy_window;
  return html`<div class=${`status-bar ${mine ? "mine" : ""}`} id="status-bar">
    <span id="turn-text">${statusText(s)}</span>
    <span class="round-info" id="round-line">Round ${s.view.round} of ${s.view.rounds} · contract: <strong>${s.view.contract.text}</strong>${s.view.game_over ? " · game over" : ""}</span>
  </div>`;
}

// Whether my answer standing in the view was given by my standing order: my newest answer in
// the log (only my own seat's events carry the flag, engine/public.py).
function answeredByOrder(s, card) {
  const { log, meta, view } = s;
  for (let i = log.length - 1; i >= 0; i--) {
    const evs = log[i].events || [];
    for (let j = evs.length - 1; j >= 0; j--) {
      const e = evs[j];
      if (e.type === "answered" && e.seat === meta.my_seat) {
        return Boolean(e.standing_order) && e.card === card && e.answer === view.my_answer;
      }
    }
  }
  return false;
}

// "May I?": the offer names the card and the penalty, with the window's countdown inside it.
export function Offer({ s, act }) {
  const { meta, view } = s;
  const faces = view.faces;
  const w = view.buy_window;
  const answer = canAnswer(s);
  const card = w ? w.card : view.discard_top;
  if (!w && !answer && !view.my_answer) return null;
  const t = w ? left(meta.window_deadline) : null;
  return html`<div class=${`offer ${answer ? "open" : ""}`} id="window" role="region" aria-label="May I?">
    ${card && html`<${Card} id=${card} faces=${faces} small=${true} hidden=${true} />`}
    <div class="offer-text">
      ${w
        ? html`<span>“May I?” <strong>${spoken(w.card, faces)}</strong> + a penalty card${t ? html` · <span class="countdown" data-countdown="window">${t}</span> left` : ""}</span>
          ${w.waiting.length ? html`<span class="hint">Waiting for ${listOf(w.waiting.map((p) => (p === meta.my_seat ? "you" : seatName(meta, p))))}.</span>` : ""}`
        : answer
          ? html`<span>Answer now for <strong>${spoken(card, faces)}</strong> (the discard on top), in case ${seatName(meta, view.active_seat)} draws from the stock.</span>`
          : ""}
      ${view.my_answer ? html`<span class="hint">${answeredByOrder(s, card) ? "Your standing order said" : "You said"} ${view.my_answer === "may_i" ? "“May I?”" : "no thanks"}${card ? ` for ${spoken(card, faces)}` : ""}.</span>` : ""}
    </div>
    ${answer && html`<span class="buttons">
      <button type="button" class="primary" data-action="may_i" onClick=${() => act({ type: "may_i" })}>May I?</button>
      <button type="button" data-action="no_thanks" onClick=${() => act({ type: "no_thanks" })}>No thanks</button>
    </span>`}
  </div>`;
}

// Rook: swapping a tabled wild for the natural it stands for. The offers are the view's
// `swaps` (the engine's list); the wild named on the button is read from the meld.
function swapOffers(s) {
  const { view } = s;
  if (!Array.isArray(view.swaps)) return [];
  const faces = view.faces;
  const seen = new Set();
  const out = [];
  for (const sw of view.swaps) {
    const m = view.melds.find((x) => x.id === sw.meld);
    if (!m) continue;
    const f = faceOf(sw.card, faces);
    let wild = null;
    if (m.kind === "run" && m.start != null) wild = m.cards[f.rank - m.start];
    else wild = m.cards.find((c) => faceOf(c, faces).wild);
    if (!wild || !faceOf(wild, faces).wild) wild = m.cards.find((c) => faceOf(c, faces).wild);
    const key = `${sw.meld}|${f.label}`; // two copies of one card: one button
    if (!wild || seen.has(key)) continue;
    seen.add(key);
    out.push({ ...sw, wild, owner: m.owner, kind: m.kind });
  }
  return out;
}

function stagedCards(s) { return s.staged.flat(); }

export function Staging({ s, meter }) {
  const { view } = s;
  const faces = view.faces;
  if (!myTurn(s) || view.phase !== "play" || view.contract_down[s.meta.my_seat]) return null;
  const unstage = (c) => store.set((st) => ({ staged: st.staged.map((g) => g.filter((x) => x !== c)).filter((g) => g.length) }));
  return html`<div class="staging" id="staging">
    <div class="meter" id="contract-meter" aria-live="polite">
      <span>Round ${view.round} needs <strong>${view.contracts && view.contracts.length > 1 ? view.contracts.map((c) => c.text).join(" or ") : view.contract.text}</strong>.</span>
      ${meter ? html` <span class=${`meter-makes ${meter.complete ? "complete" : ""}`}>${meter.text}</span>` : ""}
    </div>
    ${s.staged.length ? html`<div class="staged-groups" aria-label="Staged groups">
      ${s.staged.map((g, i) => html`<div class="staged" key=${g.join(",")} role="group" aria-label=${`Staged group ${i + 1}`}>
        ${g.map((c) => html`<button type="button" key=${c} class="staged-card" data-staged=${c} aria-label=${`${spoken(c, faces)}: unstage`} onClick=${() => unstage(c)}><${Card} id=${c} faces=${faces} small=${true} hidden=${true} /></button>`)}
      </div>`)}
    </div>` : ""}
  </div>`;
}

export function Actions({ s, act, layDown, meter }) {
  const { meta, view } = s;
  const mine = meta.my_seat;
  const turn = myTurn(s);
  const sel = s.selected;
  const b = (action, text, onClick, extra) => html`<button type="button" data-action=${action} onClick=${onClick} disabled=${s.pending} ...${extra || {}}>${text}</button>`;
  // A short label on a phone ("Draw"), the whole one elsewhere and for screen readers.
  const short = (head, rest) => [html`${head}<span class="btn-long">${rest}</span>`, { "aria-label": `${head}${rest}` }];
  const bs = (action, [text, label], onClick, extra) => b(action, text, onClick, { ...label, ...(extra || {}) });
  const out = [];
  if (turn && view.phase === "draw") {
    out.push(bs("draw", short("Draw", " from stock"), () => act({ type: "draw", source: "stock" }), { "data-source": "stock", "aria-keyshortcuts": "D" }));
    if (view.discard_top) out.push(bs("draw", short("Take", " the discard"), () => act({ type: "draw", source: "discard" }), { "data-source": "discard", "aria-keyshortcuts": "T" }));
  }
  const choices = view.contracts || [view.contract];
  if (turn && view.phase === "play") {
    if (!view.contract_down[mine]) {
      out.push(bs("stage", short("Stage", " selected"), () => {
        if (!sel.length) { store.set({ error: "Select the cards of one meld, then stage them." }); return; }
        store.set((st) => ({ staged: st.staged.concat([st.selected]), selected: [], error: "" }));
      }, { "aria-keyshortcuts": "G" }));
      if (choices.length > 1) {
        // Rook's round 7 with the table option round7 = "choice": the player says which
        // contract the cards make.
        out.push(html`<span class="contract-choice" id="contract-choice" role="group" aria-label="Choose your contract">
          <span class="hint">Round ${view.round}: choose your contract — </span>
          ${choices.map((c, i) => b("lay_down", `Lay down as ${c.text}`, () => layDown(c), { "data-contract": String(i) }))}
        </span>`);
      } else {
        // The server's check already says the selection is not the contract (the meter above
        // the hand): the button waits until it is, rather than inviting a refusal.
        const notYet = Boolean(meter && !meter.complete);
        out.push(bs("lay_down", short("Lay down", " contract"), () => layDown(null), { "aria-keyshortcuts": "L", "aria-describedby": "contract-meter", ...(notYet ? { disabled: true } : {}) }));
      }
    }
    out.push(bs("discard", short("Discard", " selected"), () => {
      if (sel.length !== 1) { store.set({ error: "Select exactly one card to discard." }); return; }
      act({ type: "discard", card: sel[0] });
    }, { "aria-keyshortcuts": "X" }));
    if (!view.final_discard_allowed) out.push(b("pass", "Pass", () => act({ type: "pass" })));
  }
  if (turn && (view.phase === "draw" || view.phase === "play") && view.ruleset === "bga") {
    out.push(bs("mayi_meld", short("MAYI meld", " selected"), () => act({ type: "mayi_meld", cards: sel })));
  }
  const swaps = turn && view.phase === "play" ? swapOffers(s) : [];
  if (swaps.length) {
    out.push(html`<span class="swaps" id="swaps" role="group" aria-label="Swap a wild off the table">
      ${swaps.map((sw) => b("swap_wild", `Swap ${faceOf(sw.card, view.faces).label} for the ${faceOf(sw.wild, view.faces).label} in ${possessive(meta, sw.owner, mine)} ${sw.kind}`,
        () => act({ type: "swap_wild", meld: sw.meld, card: sw.card }), { "data-swap-meld": sw.meld, "data-swap-card": sw.card }))}
    </span>`);
  }
  const owed = (view.swapped || []).filter((c) => view.hand && view.hand.includes(c));
  const hint = turn && owed.length
    ? `Play the ${listOf(owed.map((c) => faceOf(c, view.faces).label))} you took off the table before your turn ends.`
    : turn && view.phase === "play" && view.contract_down[mine]
      ? "To lay off, select a card and click (or drag it onto) a meld." : "";
  return html`<div class="actions-box">
    <div class="buttons" id="actions">${out}</div>
    <p class="hint" id="hint">${hint}</p>
  </div>`;
}

export { stagedCards, MiniCards };
