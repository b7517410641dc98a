// The rules pages (templates/rules/): every example card drawn as the table page draws it,
// with its own Preact components (static/js/table/cards.js), in place of the text chips the
// server writes for a browser without JavaScript.
import { html, render } from "./table/ui.js";
import { MiniCards } from "./table/cards.js";

for (const el of document.querySelectorAll(".cards-inline[data-cards]")) {
  const ids = el.dataset.cards.split(" ").filter(Boolean);
  if (!ids.length) continue;
  el.textContent = "";
  render(html`<${MiniCards} ids=${ids} faces=${null} />`, el);
  el.classList.add("drawn");
}
