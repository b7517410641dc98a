// A finished game's analysis in its replay (static/js/replay.js): each decision weighed after
// the game (GET /api/tables/<id>/analysis) marked in the log beside its move, with the best
// choice found; a summary per player; and the chart of each player's expected penalty through
// the round shown, as they could know it at each of their decisions. Drawn by this module (an
// SVG of a few lines: no chart library), the same numbers in a table for screen readers.
import { html } from "./table/ui.js";
import { faceOf } from "./table/cards.js";
import { seatName } from "./table/names.js";

// The chess-like signs beside a decision, always with their word (docs/ANALYSIS.md).
const SIGNS = { best: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };
const LABELS = ["best", "inaccuracy", "mistake", "blunder"];
// While the analysis is being made, the page asks again this often, this many times.
const POLL_MS = 15000;
const POLLS = 40;

function cardLabel(card, faces) {
  const face = faceOf(card, faces);
  return (face && face.label) || card;
}

// A choice of the engine's in words: "discard K♣", "take the discard", "wait".
export function choiceText(choice, faces) {
  if (!choice) return "";
  switch (choice.type) {
    case "draw": return choice.source === "discard" ? "take the discard" : "draw from the stock";
    case "may_i": return "say “May I?”";
    case "no_thanks": return "say no thanks";
    case "discard": return `discard ${cardLabel(choice.card, faces)}`;
    case "lay_down": return "lay down the contract";
    case "wait": return "wait (lay down later)";
    case "lay_off": return `lay off ${cardLabel(choice.card, faces)}`;
    case "keep": return "lay nothing off";
    case "pass": return "pass";
    default: return String(choice.type || "").replace(/_/g, " ");
  }
}

function points(cost) {
  return `${cost.toFixed(1)} point${cost.toFixed(1) === "1.0" ? "" : "s"}`;
}

// The words of one decision's mark, for the line read aloud as the replay steps.
export function decisionText(d, faces) {
  if (d.label === "best") return "Analysis: the best choice.";
  return `Analysis: ${d.label}, ${points(d.cost)} worse than the best, ${choiceText(d.best, faces)}.`;
}

// The mark beside a move in the log.
export function Mark({ d, faces }) {
  return html`<span class=${`am am-${d.label}`} data-label=${d.label}><span class="am-sign" aria-hidden="true">${SIGNS[d.label]}</span> ${d.label}</span>${
    d.label === "best" ? "" : html` <span class="am-alt">best: ${choiceText(d.best, faces)} <span class="am-cost">(${points(d.cost)} better)</span></span>`}`;
}

// ---- the analysis of a game, fetched (and fetched again while it is made) ---------------------
export function loadAnalysis(url, onChange) {
  const analysis = { status: "loading", decisions: [], bySeq: new Map(), complete: false };
  let polls = 0;
  async function fetchOnce() {
    try {
      const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!response.ok) { analysis.status = "unavailable"; onChange(analysis); return; }
      const body = await response.json();
      analysis.status = body.status;
      analysis.complete = body.complete;
      analysis.decisions = body.decisions || [];
      analysis.bySeq = new Map(analysis.decisions.map((d) => [d.seq, d]));
      onChange(analysis);
      if (body.status === "pending" && polls++ < POLLS) setTimeout(fetchOnce, POLL_MS);
    } catch (err) {
      analysis.status = "unavailable";
      onChange(analysis);
    }
  }
  fetchOnce();
  return analysis;
}

// ---- the section: a summary per player, and the round's chart ---------------------------------
function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

// Each player's decisions in a sentence (a table of six columns did not fit a phone).
function Summary({ meta, analysis, players }) {
  const rows = players.map((p) => {
    const mine = analysis.decisions.filter((d) => d.seat === p);
    const count = (label) => mine.filter((d) => d.label === label).length;
    const cost = mine.length ? mine.reduce((sum, d) => sum + d.cost, 0) / mine.length : 0;
    return { p, n: mine.length, cost, inaccuracies: count("inaccuracy"), mistakes: count("mistake"), blunders: count("blunder") };
  }).filter((r) => r.n);
  return html`<ul class="analysis-summary" id="analysis-summary">${rows.map((r) => {
    const counts = `${plural(r.inaccuracies, "inaccuracy", "inaccuracies")}, ${plural(r.mistakes, "mistake", "mistakes")}, ${plural(r.blunders, "blunder", "blunders")}`;
    return html`<li key=${r.p} data-seat=${r.p}><strong>${seatName(meta, r.p)}</strong>: ${`${plural(r.n, "decision", "decisions")} weighed, ${r.cost.toFixed(2)} points each on average; ${counts}.`}</li>`;
  })}</ul>`;
}

const W = 480, H = 200, LEFT = 40, RIGHT = 12, TOP = 12, BOTTOM = 26;

// A step for the value axis: 4 or 5 lines at round numbers.
function niceStep(range) {
  for (const step of [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500]) if (range <= step * 4) return step;
  return Math.ceil(range / 400) * 100;
}

// Each player's expected penalty through the round, from their own decisions.
function Chart({ meta, round, at, series }) {
  const values = series.flatMap((s) => s.points.map((pt) => pt.expected));
  const step = niceStep(Math.max(1, ...values) - Math.min(0, ...values));
  const lo = Math.floor(Math.min(0, ...values) / step) * step;
  const hi = Math.max(lo + step, Math.ceil(Math.max(1, ...values) / step) * step);
  const span = Math.max(1, round.last - round.first);
  const x = (seq) => LEFT + ((W - LEFT - RIGHT) * (seq - round.first)) / span;
  const y = (v) => H - BOTTOM - ((H - TOP - BOTTOM) * (v - lo)) / (hi - lo);
  const ticks = [];
  for (let v = lo; v <= hi; v += step) ticks.push(v);
  const title = `Expected penalty at the end of round ${round.round}, at each decision of each player`;
  return html`<svg class="chart analysis-chart" id="analysis-chart" viewBox=${`0 0 ${W} ${H}`} role="img" aria-labelledby="analysis-chart-title">
    <title id="analysis-chart-title">${title}</title>
    ${ticks.map((v) => html`<line class="grid" key=${`g${v}`} x1=${LEFT} x2=${W - RIGHT} y1=${y(v)} y2=${y(v)} />
      <text class="tick" key=${`t${v}`} x=${LEFT - 6} y=${y(v) + 4} text-anchor="end">${Math.round(v)}</text>`)}
    ${at >= round.first && at <= round.last ? html`<line class="now" x1=${x(at)} x2=${x(at)} y1=${TOP} y2=${H - BOTTOM} />` : ""}
    ${series.map((s) => html`<g key=${s.seat} class=${`line-${s.seat % 4}`}>
      ${s.points.length > 1 ? html`<polyline class=${`line line-${s.seat % 4}`} points=${s.points.map((pt) => `${x(pt.seq).toFixed(1)},${y(pt.expected).toFixed(1)}`).join(" ")} />` : ""}
      ${s.points.map((pt) => html`<circle key=${pt.seq} class=${`dot line-${s.seat % 4} am-dot-${pt.label}`} cx=${x(pt.seq)} cy=${y(pt.expected)} r=${pt.label === "best" ? 2.5 : 4} />`)}
    </g>`)}
    <text class="label" x=${LEFT} y=${H - BOTTOM + 16}>move ${round.first}</text>
    <text class="label" x=${W - RIGHT} y=${H - BOTTOM + 16} text-anchor="end">move ${round.last}</text>
  </svg>
  <ul class="chart-legend" aria-hidden="true">${series.map((s) => html`<li key=${s.seat}><span class=${`swatch line-${s.seat % 4}`}></span>${seatName(meta, s.seat)}</li>`)}</ul>`;
}

export function AnalysisSection({ game, analysis, round, at }) {
  const meta = game.meta;
  const faces = game.faces;
  let body;
  if (analysis.status === "loading") {
    body = html`<p class="hint">Loading the analysis…</p>`;
  } else if (analysis.status === "unavailable") {
    body = html`<p class="hint">The analysis could not be loaded.</p>`;
  } else if (analysis.status === "pending") {
    body = html`<p class="hint" id="analysis-pending">This game's analysis is not ready yet. Games are analysed after they end, decision by decision, when the site has time to spare; this page shows it as soon as it is ready. Its players may ask for it from their statistics page.</p>`;
  } else if (!analysis.decisions.length) {
    body = html`<p class="hint">No decision of this game could be weighed.</p>`;
  } else {
    const players = meta.seats.map((s) => s.position);
    const inRound = analysis.decisions.filter((d) => d.round === round.round && d.expected !== null && d.expected !== undefined);
    const series = players
      .map((seat) => ({ seat, points: inRound.filter((d) => d.seat === seat).map((d) => ({ seq: d.seq, expected: d.expected, label: d.label })) }))
      .filter((s) => s.points.length);
    const here = analysis.bySeq.get(at);
    body = html`
      <p class="hint">Each decision of the game's players, weighed after the game: every choice was played out to the round's end many times, from what that player could see then. The cost is how many more penalty points the choice made was expected to leave than the best one found.${analysis.complete ? "" : " The analysis stopped before the game's end (its time ran out): the later decisions are not weighed."}</p>
      <${Summary} meta=${meta} analysis=${analysis} players=${players} />
      ${here ? html`<p class="am-here" id="analysis-here">Move ${here.seq}, ${seatName(meta, here.seat)}: <${Mark} d=${here} faces=${faces} /></p>` : ""}
      ${series.length ? html`<figure class="chart-box">
        <${Chart} meta=${meta} round=${round} at=${at} series=${series} />
        <figcaption><details><summary>Expected penalty at each decision of round ${round.round}, as numbers</summary>
          <div class="scroll" tabindex="0" role="region" aria-label="Expected penalty at each decision"><table class="list num" id="analysis-chart-table">
            <thead><tr><th scope="col">Move</th><th scope="col">Player</th><th scope="col">Expected penalty</th><th scope="col">Decision</th></tr></thead>
            <tbody>${inRound.map((d) => html`<tr key=${d.seq}><td>${d.seq}</td><td>${seatName(meta, d.seat)}</td><td>${d.expected.toFixed(1)}</td><td>${d.label}</td></tr>`)}</tbody>
          </table></div></details></figcaption>
      </figure>` : html`<p class="hint">No decision weighed in round ${round.round}.</p>`}`;
  }
  return html`<section class="card replay-analysis" id="replay-analysis" aria-labelledby="replay-analysis-title">
    <h2 id="replay-analysis-title">Analysis</h2>
    ${body}
  </section>`;
}
