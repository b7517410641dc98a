// Motion: a card flies from where it was to where it is (stock to hand, hand to pile, pile to
// buyer, hand to meld), FLIP-style with the Web Animations API: short, and none at all with
// prefers-reduced-motion. Nothing here changes the DOM Preact owns, only transient transforms.
const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

function rectOf(selector) {
  const el = document.querySelector(selector);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return r.width ? r : null;
}

// Before a render: where each card and pile is now.
export function snapshot() {
  const where = new Map();
  document.querySelectorAll("[data-card-face]").forEach((el) => {
    const r = el.getBoundingClientRect();
    if (r.width && !where.has(el.dataset.cardFace)) where.set(el.dataset.cardFace, r);
  });
  return { where, stock: rectOf("#stock"), discard: rectOf("#discard"), seats: seatRects() };
}

function seatRects() {
  const out = {};
  document.querySelectorAll("#players [data-seat]").forEach((el) => { out[el.dataset.seat] = el.getBoundingClientRect(); });
  return out;
}

function fly(el, from) {
  const to = el.getBoundingClientRect();
  if (!to.width || !from) return;
  const dx = from.left - to.left, dy = from.top - to.top;
  if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return;
  el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: 260, easing: "ease-out" });
}

// After a render: each card shown now that was elsewhere (or new) moves from there.
// `hints` says where a new card came from: {cardId: "stock" | "discard" | seat number}.
export function play(before, hints) {
  if (!before || (reduced && reduced.matches) || !Element.prototype.animate) return;
  document.querySelectorAll("[data-card-face]").forEach((el) => {
    if (el.closest(".dragging") || el.closest(".mini-cards")) return;
    const id = el.dataset.cardFace;
    let from = before.where.get(id);
    if (!from && hints[id] !== undefined) {
      const h = hints[id];
      from = h === "stock" ? before.stock : h === "discard" ? before.discard : before.seats[h];
    }
    if (from) fly(el, from);
  });
}
