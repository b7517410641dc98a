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
  const html = new Map();
  document.querySelectorAll("[data-card-face]").forEach((el) => {
    if (el.closest(".mini-cards")) return;
    const r = el.getBoundingClientRect();
    if (r.width && !where.has(el.dataset.cardFace)) { where.set(el.dataset.cardFace, r); html.set(el.dataset.cardFace, el.outerHTML); }
  });
  return { where, html, stock: rectOf("#stock"), discard: rectOf("#discard"), seats: seatRects() };
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
  // While it flies the card passes over other things (a card from the stock starts on top of
  // the stock): a click meant for what lies under it must reach that, not select the card.
  el.classList.add("flying");
  const a = el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: 260, easing: "ease-out" });
  const land = () => el.classList.remove("flying");
  a.onfinish = land;
  a.oncancel = land;
}

// After a render: each card shown now that was elsewhere (or new) moves from there.
// `hints` says where a new card came from: {cardId: "stock" | "discard" | seat number}.
// A card that left the table for a hand we cannot see (a buyer's, another player's draw from
// the pile): a copy of it flies from where it was to that player's seat, then goes away.
function ghost(rect, seatRect, html) {
  if (!rect || !seatRect) return;
  const el = document.createElement("div");
  el.className = "card-ghost";
  el.innerHTML = html.replace(/ data-card-face="[^"]*"/g, "");
  el.style.left = `${rect.left}px`;
  el.style.top = `${rect.top}px`;
  document.body.append(el);
  const dx = seatRect.left + seatRect.width / 2 - rect.left - rect.width / 2;
  const dy = seatRect.top + seatRect.height / 2 - rect.top - rect.height / 2;
  const a = el.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.5)`, opacity: 0.2 }], { duration: 420, easing: "ease-in" });
  a.onfinish = () => el.remove();
}

export function play(before, hints, leaving) {
  if (!before || (reduced && reduced.matches) || !Element.prototype.animate) return;
  for (const [id, seat] of Object.entries(leaving || {})) {
    const from = before.where.get(id);
    const html = before.html.get(id);
    if (from && html && !document.querySelector(`[data-card-face="${id}"]`)) ghost(from, before.seats[seat], html);
  }
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
