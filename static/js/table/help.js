// The "?" panel: the table's contracts and penalty points (from the engine, through the
// page's "table-rules" payload), the keyboard shortcuts, and the card options.
import { html } from "./ui.js";

const rulesEl = document.getElementById("table-rules");
export const rules = rulesEl ? JSON.parse(rulesEl.textContent) : null;

// Penalty of my hand: the server's figure when the view has one, else the sum of the engine's
// per-rank points for the cards I hold.
export function handPenalty(view) {
  if (typeof view.hand_penalty === "number") return view.hand_penalty;
  if (!rules || !view.hand) return null;
  const byRank = new Map(rules.penalties.ranks.map((r) => [r.rank, r.points]));
  return view.hand.reduce((sum, c) => {
    const f = view.faces[c];
    return sum + (f.wild ? rules.penalties.wild : byRank.get(f.rank) || 0);
  }, 0);
}

function penaltyRows() {
  // Consecutive ranks worth the same points share a row: "2–9: face value".
  const rows = [];
  for (const r of rules.penalties.ranks) {
    const faceValue = r.points === r.rank;
    const last = rows[rows.length - 1];
    if (last && ((faceValue && last.faceValue) || (!faceValue && !last.faceValue && last.points === r.points))) last.to = r.label;
    else rows.push({ from: r.label, to: r.label, points: r.points, faceValue });
  }
  return rows;
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
  ["← →", "move between cards; Shift + ← → moves the card"],
  ["Space", "select a card"],
  ["?", "this panel"],
];

export function Help({ open, onClose, fourColour, setFourColour, notify, setNotify }) {
  if (!open || !rules) return null;
  const standard = ["petras", "classic"].includes(rules.ruleset);
  return html`<div class="help-panel" id="help" role="dialog" aria-modal="false" aria-labelledby="help-title">
    <div class="help-head"><h2 id="help-title">Rules at hand: ${rules.ruleset}</h2>
      <button type="button" class="close" aria-label="Close the rules panel" onClick=${onClose}>×</button></div>
    <p class="hint">${rules.description}</p>
    <table class="list" id="help-contracts">
      <thead><tr><th scope="col">Round</th><th scope="col">Contract</th><th scope="col">Dealt</th></tr></thead>
      <tbody>${rules.rounds.map((r) => html`<tr key=${r.round}><td>${r.round}</td><td>${r.contracts.join(" or ")}${r.final_discard ? "" : ", no final discard"}</td><td>${r.dealt}</td></tr>`)}</tbody>
    </table>
    <h3>Penalty points</h3>
    <table class="list" id="help-penalties">
      <tbody>
        <tr><td>Wild</td><td>${rules.penalties.wild}</td></tr>
        ${penaltyRows().map((row) => html`<tr key=${row.from}><td>${row.from === row.to ? row.from : `${row.from}–${row.to}`}</td><td>${row.faceValue ? "face value" : row.points}</td></tr>`)}
        ${rules.mayi_melds ? html`<tr><td>MAYI meld</td><td>${rules.mayi_meld_score} at once</td></tr>` : ""}
      </tbody>
    </table>
    <p>${rules.max_buys === null ? "No limit on buys per round." : `Up to ${rules.max_buys} buys per round.`}
      ${rules.lay_off_on_lay_down_turn ? " You may lay off on the turn you lay down." : " No lay-off on the turn you lay down."}</p>
    <h3>Keyboard</h3>
    <dl class="shortcuts">${SHORTCUTS.map(([k, t]) => html`<div key=${k}><dt><kbd>${k}</kbd></dt><dd>${t}</dd></div>`)}</dl>
    <h3>Options</h3>
    ${standard && html`<label><input type="checkbox" id="four-colour" checked=${fourColour} onChange=${(e) => setFourColour(e.currentTarget.checked)} /> Four-colour suits</label>`}
    <label><input type="checkbox" id="notify" checked=${notify} onChange=${(e) => setNotify(e.currentTarget.checked)} /> Notify me when it is my turn (browser notification)</label>
  </div>`;
}
