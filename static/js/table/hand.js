// My hand: large cards, keyed by card id (a frame from another player's move never loses the
// selection, the focus or a drag in progress); click or Space to select; drag (mouse or touch,
// pointer events) to reorder, or drop on a meld to lay off, on the discard pile to discard;
// the keyboard moves the focus (arrows) and the card (Shift + arrows).
import { html, useRef, useState, useLayoutEffect } from "./ui.js";
import { Card, spoken } from "./cards.js";
import { store } from "./state.js";

function toggle(list, c) { return list.includes(c) ? list.filter((x) => x !== c) : list.concat([c]); }

export function Hand({ s, order, meldOf, groupEnds, onReorder, onDrop }) {
  const faces = s.view.faces;
  const [focusId, setFocusId] = useState(null);
  const box = useRef(null);
  const drag = useRef(null);
  const suppressClick = useRef(false);
  const wantFocus = useRef(false);
  const focus = order.includes(focusId) ? focusId : order[0];

  useLayoutEffect(() => {
    // A card moved by keyboard was re-inserted in the DOM: give it its focus back.
    if (!wantFocus.current || !box.current) return;
    wantFocus.current = false;
    const el = box.current.querySelector(`[data-card="${focus}"]`);
    if (el && document.activeElement !== el) el.focus();
  });

  function move(id, delta) {
    const i = order.indexOf(id);
    const j = i + delta;
    if (i < 0 || j < 0 || j >= order.length) return;
    const next = order.slice();
    next.splice(i, 1);
    next.splice(j, 0, id);
    wantFocus.current = true;
    onReorder(next);
  }

  function onKeyDown(event) {
    const id = event.target.closest && event.target.closest("[data-card]") ? event.target.closest("[data-card]").dataset.card : null;
    if (!id) return;
    const i = order.indexOf(id);
    let j = null;
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      const d = event.key === "ArrowLeft" ? -1 : 1;
      if (event.shiftKey || event.altKey) { event.preventDefault(); move(id, d); return; }
      j = Math.max(0, Math.min(order.length - 1, i + d));
    } else if (event.key === "Home") j = 0;
    else if (event.key === "End") j = order.length - 1;
    if (j === null) return;
    event.preventDefault();
    setFocusId(order[j]);
    wantFocus.current = true;
  }

  // ---- drag with pointer events ----------------------------------------------------------
  function clearMarks() {
    document.querySelectorAll(".drop-before, .drop-after, .drop-target").forEach((el) => el.classList.remove("drop-before", "drop-after", "drop-target"));
  }
  function under(x, y) {
    const els = document.elementsFromPoint(x, y);
    for (const el of els) {
      const meld = el.closest("[data-meld-drop]");
      if (meld) return { kind: "meld", el: meld };
      const pile = el.closest("[data-drop='discard']");
      if (pile) return { kind: "discard", el: pile };
      const card = el.closest("#hand [data-card]");
      if (card && !card.classList.contains("dragging")) return { kind: "card", el: card };
    }
    return null;
  }
  function onPointerDown(event) {
    if (event.button !== 0) return;
    const el = event.currentTarget;
    drag.current = { id: el.dataset.card, el, x: event.clientX, y: event.clientY, moved: false, pointerId: event.pointerId };
    // Captured at once: a quick flick's first move may already be off the card, and its
    // moves must still come here (a touch is captured so by the browser anyway).
    try { el.setPointerCapture(event.pointerId); } catch (e) { /* not a live pointer */ }
  }
  function onPointerMove(event) {
    const d = drag.current;
    if (!d || d.pointerId !== event.pointerId) return;
    const dx = event.clientX - d.x, dy = event.clientY - d.y;
    if (!d.moved) {
      if (Math.hypot(dx, dy) < 8) return;
      d.moved = true;
      try { d.el.setPointerCapture(event.pointerId); } catch (e) { /* already released */ }
      d.el.classList.add("dragging");
      document.body.classList.add("hand-dragging");
    }
    event.preventDefault();
    d.el.style.transform = `translate(${dx}px, ${dy}px)`;
    clearMarks();
    const t = under(event.clientX, event.clientY);
    d.target = t;
    if (!t) return;
    if (t.kind === "card") {
      const r = t.el.getBoundingClientRect();
      t.after = event.clientX > r.left + r.width / 2;
      t.el.classList.add(t.after ? "drop-after" : "drop-before");
    } else {
      const r = t.el.getBoundingClientRect();
      t.end = event.clientX < r.left + r.width / 2 ? "low" : "high";
      t.el.classList.add("drop-target");
    }
  }
  function onPointerUp(event) {
    const d = drag.current;
    drag.current = null;
    if (!d || !d.moved) return;
    suppressClick.current = true;
    setTimeout(() => { suppressClick.current = false; }, 0);
    d.el.classList.remove("dragging");
    d.el.style.transform = "";
    document.body.classList.remove("hand-dragging");
    clearMarks();
    const t = d.target;
    if (!t || event.type === "pointercancel") return;
    if (t.kind === "card") {
      const next = order.filter((c) => c !== d.id);
      let j = next.indexOf(t.el.dataset.card);
      if (t.after) j += 1;
      next.splice(j, 0, d.id);
      onReorder(next);
    } else if (t.kind === "meld") {
      onDrop({ kind: "meld", card: d.id, meld: t.el.dataset.meldDrop, end: t.end });
    } else {
      onDrop({ kind: "discard", card: d.id });
    }
  }

  function onClick(event) {
    if (suppressClick.current) return;
    const id = event.currentTarget.dataset.card;
    setFocusId(id);
    store.set((st) => ({ selected: toggle(st.selected, id), error: "" }));
  }

  const last = new Set(s.lastDrawn);
  return html`<div class="hand" id="hand" ref=${box} role="group" aria-label=${`Your hand, ${order.length} card${order.length === 1 ? "" : "s"}`} onKeyDown=${onKeyDown}>
    ${order.map((c) => {
      const selected = s.selected.includes(c);
      const kind = meldOf ? meldOf.get(c) : null;
      const cls = ["hand-card", selected ? "selected" : "", last.has(c) ? "last-drawn" : "", kind ? `in-${kind}` : "", groupEnds && groupEnds.has(c) ? "group-end" : ""].join(" ");
      const label = `${spoken(c, faces)}${kind ? `, in a ${kind}` : ""}${last.has(c) ? ", new (just drawn)" : ""}`;
      return html`<button key=${c} type="button" class=${cls} data-card=${c} aria-pressed=${selected ? "true" : "false"}
          aria-label=${label} tabindex=${c === focus ? 0 : -1}
          onClick=${onClick} onPointerDown=${onPointerDown} onPointerMove=${onPointerMove}
          onPointerUp=${onPointerUp} onPointerCancel=${onPointerUp} onFocus=${() => setFocusId(c)}>
        <${Card} id=${c} faces=${faces} hidden=${true} />
        ${last.has(c) ? html`<span class="new-tag" aria-hidden="true">new</span>` : ""}
      </button>`;
    })}
  </div>`;
}
