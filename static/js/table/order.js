// The order of my hand, kept per table in localStorage across frames and reloads. A sort menu
// mode re-sorts each new hand; dragging or moving a card by keyboard makes the order manual.
// The face sorts only group cards by what their faces show (number, letter); which cards make
// a meld is for the engine to say: the "melds" sort puts first the books and runs of the
// round's contract the server found in my hand (the view's hand_melds), then the rest.
const SUIT_ORDER = "MAYISHDCRGYK";

function key(tableId) { return `mayi:hand:${tableId}`; }

export function loadPref(tableId) {
  try {
    const raw = JSON.parse(window.localStorage.getItem(key(tableId)) || "null");
    if (raw && Array.isArray(raw.order)) return { mode: raw.mode || "manual", order: raw.order };
  } catch (e) { /* storage off or corrupt: start afresh */ }
  return { mode: "manual", order: [] };
}

export function savePref(tableId, pref) {
  try { window.localStorage.setItem(key(tableId), JSON.stringify(pref)); } catch (e) { /* full or off */ }
}

export const SORTS = [
  ["melds", "Contract melds"],
  ["suit", "By suit"],
  ["mayi", "MAYI"],
  ["book", "Book"],
  ["run", "Run"],
  ["bookrun", "Book and run"],
  ["number", "By number"],
];

function suitIndex(f) { return f.wild ? 99 : SUIT_ORDER.indexOf(f.suit); }

// The engine's melds (those of their cards still in this hand, in the engine's order), then
// the rest by letter and number.
export function meldGroups(hand, melds) {
  const inHand = new Set(hand);
  const out = [];
  for (const m of Array.isArray(melds) ? melds : []) {
    const cards = m.cards.filter((c) => inHand.has(c));
    if (cards.length) out.push({ kind: m.kind, cards });
  }
  return out;
}

export function sortHand(hand, faces, mode, melds) {
  if (mode === "melds") {
    const groups = meldGroups(hand, melds);
    const grouped = new Set(groups.flatMap((g) => g.cards));
    return groups.flatMap((g) => g.cards).concat(sortHand(hand.filter((c) => !grouped.has(c)), faces, "suit"));
  }
  const f = (c) => faces[c] || { wild: true };
  const rank = (c) => (f(c).wild ? 99 : f(c).rank);
  const count = (pred) => (c) => hand.filter((d) => !f(d).wild && pred(c, d)).length;
  const sameRank = count((c, d) => f(d).rank === f(c).rank);
  const lettersOfRank = (c) => new Set(hand.filter((d) => !f(d).wild && f(d).rank === f(c).rank).map((d) => f(d).suit)).size;
  const cmp = {
    number: (a, b) => rank(a) - rank(b) || suitIndex(f(a)) - suitIndex(f(b)),
    suit: (a, b) => suitIndex(f(a)) - suitIndex(f(b)) || rank(a) - rank(b),
    run: (a, b) => suitIndex(f(a)) - suitIndex(f(b)) || rank(a) - rank(b),
    // Numbers held in the most letters first (MAYI melds are one of each letter).
    mayi: (a, b) => (f(a).wild - f(b).wild) || lettersOfRank(b) - lettersOfRank(a) || rank(a) - rank(b) || suitIndex(f(a)) - suitIndex(f(b)),
    // The numbers held most often first.
    book: (a, b) => (f(a).wild - f(b).wild) || sameRank(b) - sameRank(a) || rank(a) - rank(b) || suitIndex(f(a)) - suitIndex(f(b)),
    // Numbers held three times or more, then the rest by letter and number.
    bookrun: (a, b) => {
      const ga = !f(a).wild && sameRank(a) >= 3, gb = !f(b).wild && sameRank(b) >= 3;
      if (ga !== gb) return ga ? -1 : 1;
      if (ga) return rank(a) - rank(b) || suitIndex(f(a)) - suitIndex(f(b));
      return suitIndex(f(a)) - suitIndex(f(b)) || rank(a) - rank(b);
    },
  }[mode];
  if (!cmp) return hand.slice();
  return hand.slice().sort((a, b) => cmp(a, b) || (a < b ? -1 : a > b ? 1 : 0));
}

// The hand in the order to show: the mode's sort, or the saved order with new cards at the end.
export function arrange(hand, faces, pref, melds) {
  if (pref.mode !== "manual") return sortHand(hand, faces, pref.mode, melds);
  const inHand = new Set(hand);
  const kept = pref.order.filter((c) => inHand.has(c));
  const seen = new Set(kept);
  return kept.concat(hand.filter((c) => !seen.has(c)));
}
