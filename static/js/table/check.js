// The selection, checked by the server: what the selected and staged cards make against the
// round's contract (the meter), and where the selected card may be laid off (the targets).
// The page never decides this itself; without the server's answer every meld is a target and
// the engine refuses a wrong one with its reason.
import { tableId } from "./state.js";
import { post } from "./api.js";
import { myTurn } from "./controls.js";

let unavailable = false;

export async function checkSelection(s) {
  const cards = s.selected;
  const melds = s.staged;
  if (unavailable || (!cards.length && !melds.length)) return null;
  try {
    const url = s.meta.check_url || `/api/tables/${tableId}/check`;
    const { response, data } = await post(url, { cards, melds });
    if (response.status === 404 || response.status === 405) { unavailable = true; return null; }
    if (!response.ok || !data) return null;
    const c = data.contract || data;
    return {
      text: c.text || c.message || data.message || "",
      complete: Boolean(c.complete || c.ok),
      layoffs: data.lay_offs || data.layoffs || data.lay_off || null,
    };
  } catch (e) {
    return null;
  }
}

// meld id -> Set of ends ("low", "high", or "any") for the one selected card; null: unknown.
export function layoffTargets(s, meter) {
  const { view } = s;
  if (!myTurn(s) || view.phase !== "play" || !view.contract_down[s.meta.my_seat] || s.selected.length !== 1) return null;
  const card = s.selected[0];
  const out = new Map();
  if ("lay_offs" in view) {
    // The view's legal lay-offs for the seat to play (null: it may not lay off now).
    if (!Array.isArray(view.lay_offs)) return null;
    for (const a of view.lay_offs) {
      if (a.card !== card) continue;
      if (!out.has(a.meld)) out.set(a.meld, new Set());
      out.get(a.meld).add(a.end || "any");
    }
    return out;
  }
  const legal = (meter && meter.layoffs) || null;
  if (!Array.isArray(legal)) return null;
  for (const a of legal) {
    if ((a.type && a.type !== "lay_off") || a.card !== card) continue;
    if (!out.has(a.meld)) out.set(a.meld, new Set());
    out.get(a.meld).add(a.end || "any");
  }
  return out;
}
