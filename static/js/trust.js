// A player's reliability beside their name (templates/games/_reliability.html): a hover or a
// keyboard focus shows its counts by CSS; a tap (a phone has no hover) opens them until the
// next tap elsewhere or Escape. Delegated from the document, so lists fetched again work too.
const MARGIN = 8;

// Keep the counts on the screen: near its right edge they move left as far as they must.
function place(wrap) {
  const tip = wrap.querySelector(".rel-tip");
  if (!tip) return;
  tip.style.left = "";
  const rect = tip.getBoundingClientRect();
  const over = rect.right - (document.documentElement.clientWidth - MARGIN);
  if (over > 0) tip.style.left = `${-Math.min(over, rect.left - MARGIN)}px`;
}

function closeAll(except) {
  for (const wrap of document.querySelectorAll(".rel-wrap.open")) {
    if (wrap === except) continue;
    wrap.classList.remove("open");
    wrap.querySelector("[data-rel]").setAttribute("aria-expanded", "false");
  }
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-rel]");
  if (!button) {
    closeAll(null);
    return;
  }
  const wrap = button.parentElement;
  closeAll(wrap);
  const open = !wrap.classList.contains("open");
  wrap.classList.toggle("open", open);
  button.setAttribute("aria-expanded", String(open));
  if (open) place(wrap);
});

for (const kind of ["mouseover", "focusin"]) {
  document.addEventListener(kind, (event) => {
    const wrap = event.target.closest && event.target.closest(".rel-wrap");
    if (wrap) place(wrap);
  });
}

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") closeAll(null);
});
