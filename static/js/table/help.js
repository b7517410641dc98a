// The "?" panel: the table's contracts and penalty points (from the engine, through the
// page's "table-rules" payload), the keyboard shortcuts, and the card options.
import { html } from "./ui.js";

const rulesEl = document.getElementById("table-rules");
const pageRules = rulesEl ? JSON.parse(rulesEl.textContent) : null;

// The table's rules: the view's `rules` (the engine's rules_info) when the server sends it,
// else the page's "table-rules" payload (games/engine/summary.py); both in one shape here.
export function tableRules(view) {
  const r = view && view.rules;
  if (r && Array.isArray(r.penalties)) {
    return {
      name: r.name,
      description: r.description,
      rounds: r.rounds.map((x) => ({ round: x.round, dealt: x.dealt, contracts: x.contracts.map((c) => c.text), final_discard: !(r.no_final_discard_rounds || []).includes(x.round) })),
      penalties: r.penalties.map((p) => ({ cards: p.cards, points: p.points })),
      maxBuys: r.max_buys_per_round,
      mayiScore: r.mayi_meld_score,
      layOffOnLayDown: r.lay_off_on_lay_down_turn,
    };
  }
  if (!pageRules) return null;
  const rows = [{ cards: "Wild", points: pageRules.penalties.wild }];
  for (const x of pageRules.penalties.ranks) {
    const kind = x.points === x.rank && x.rank > 1 ? "face value" : x.points;
    const last = rows[rows.length - 1];
    if (rows.length > 1 && last.points === kind) last.to = x.label;
    else rows.push({ from: x.label, points: kind });
  }
  return {
    name: pageRules.ruleset,
    description: pageRules.description,
    rounds: pageRules.rounds,
    penalties: rows.map((x) => ({ cards: x.cards || (x.to ? `${x.from}-${x.to}` : x.from), points: x.points })),
    maxBuys: pageRules.max_buys,
    mayiScore: pageRules.mayi_melds ? pageRules.mayi_meld_score : null,
    layOffOnLayDown: pageRules.lay_off_on_lay_down_turn,
  };
}

// Penalty of my hand: the server's figure (view.hand_penalty).
export function handPenalty(view) {
  return typeof view.hand_penalty === "number" ? view.hand_penalty : null;
}

export const SHORTCUTS = [
  ["D", "draw from the stock"],
  ["T", "take the discard"],
  ["X", "discard the selected card"],
  ["G", "stage the selected cards"],
  ["L", "lay down the contract"],
  ["M", "say “May I?”"],
  ["N", "say no thanks"],
  ["S", "sort the hand (next order)"],
  ["H", "go to my hand"],
  ["← →", "move between cards; Shift + ← → moves the card"],
  ["Space", "select a card"],
  ["?", "this panel"],
];

export function Help({ view, open, onClose, fourColour, setFourColour, notify, setNotify }) {
  if (!open) return null;
  const rules = tableRules(view);
  const standard = view.card_set === "standard";
  return html`<div class="help-panel" id="help" role="dialog" aria-modal="false" aria-labelledby="help-title">
    <div class="help-head"><h2 id="help-title">Rules at hand${rules ? `: ${rules.name}` : ""}</h2>
      <button type="button" class="close" aria-label="Close the rules panel" onClick=${onClose}>×</button></div>
    ${rules && html`
    <p class="hint">${rules.description}</p>
    <table class="list" id="help-contracts">
      <thead><tr><th scope="col">Round</th><th scope="col">Contract</th><th scope="col">Dealt</th></tr></thead>
      <tbody>${rules.rounds.map((r) => html`<tr key=${r.round} class=${r.round === view.round ? "current" : ""}><td>${r.round}</td><td>${r.contracts.join(" or ")}${r.final_discard ? "" : ", no final discard"}</td><td>${r.dealt}</td></tr>`)}</tbody>
    </table>
    <h3>Penalty points</h3>
    <table class="list" id="help-penalties">
      <tbody>
        ${rules.penalties.map((row) => html`<tr key=${row.cards}><td>${row.cards}</td><td>${row.points}</td></tr>`)}
        ${rules.mayiScore !== null && rules.mayiScore !== undefined ? html`<tr><td>MAYI meld</td><td>${rules.mayiScore} at once</td></tr>` : ""}
      </tbody>
    </table>
    <p>${rules.maxBuys === null || rules.maxBuys === undefined ? "No limit on buys per round." : `Up to ${rules.maxBuys} buys per round.`}
      ${rules.layOffOnLayDown ? " You may lay off on the turn you lay down." : " No lay-off on the turn you lay down."}</p>`}
    <h3>Keyboard</h3>
    <dl class="shortcuts">${SHORTCUTS.map(([k, t]) => html`<div key=${k}><dt><kbd>${k}</kbd></dt><dd>${t}</dd></div>`)}</dl>
    <h3>Options</h3>
    ${standard && html`<label><input type="checkbox" id="four-colour" checked=${fourColour} onChange=${(e) => setFourColour(e.currentTarget.checked)} /> Four-colour suits</label>`}
    <label><input type="checkbox" id="notify" checked=${notify} onChange=${async (e) => {
      // A refused permission leaves the box off: the DOM follows even when the state did not change.
      const box = e.currentTarget;
      box.checked = await setNotify(box.checked);
    }} /> Notify me when it is my turn or a “May I?” offer waits on me (browser notification)</label>
  </div>`;
}
