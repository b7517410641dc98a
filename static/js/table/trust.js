// Issue 29 on the table page: each person's reliability beside their name in the players panel
// (the counts on hover, focus or tap: static/js/trust.js), and each person's rating change on
// the final scores. The figures come with the page (#table-reliability): they change only when a
// game ends, never during one.
import { html } from "./ui.js";

let figures = null;
function reliabilityOf(position) {
  if (figures === null) {
    const node = document.getElementById("table-reliability");
    try {
      figures = node ? JSON.parse(node.textContent) || {} : {};
    } catch {
      figures = {};
    }
  }
  return figures[String(position)] || null;
}

export function Reliability({ position }) {
  const f = reliabilityOf(position);
  if (!f) return null;
  const id = `rel-panel-${position}`;
  const cls = `rel${f.new ? " rel-new" : f.share !== null && f.share < 0.8 ? " rel-low" : ""}`;
  return html`<span class="rel-wrap"><button type="button" class=${cls} aria-describedby=${id} aria-expanded="false" data-rel><span class="visually-hidden">reliability </span>${f.label}</button><span class="rel-tip" role="tooltip" id=${id}>Reliability: ${f.detail}</span></span>`;
}

// "+12", "−8", "±0" beside a finished game's place: the shown rating before and after.
export function RatingChange({ meta, position }) {
  const row = (meta.rating_changes || []).find((r) => r.position === position);
  if (!row) return null;
  if (!row.rated || row.change === null) return html` · <span class="rating-change unrated">unrated</span>`;
  const sign = row.change > 0 ? "+" : row.change < 0 ? "−" : "±";
  const cls = row.change > 0 ? "up" : row.change < 0 ? "down" : "";
  return html` · <span class=${`rating-change ${cls}`} data-rating-change=${row.change}>rating ${row.after} (${sign}${Math.abs(row.change)})</span>`;
}
