// Cards drawn as cards, from the view's `faces` (rank, suit, wild, label, color): no rule of
// the game lives here, only how each card set looks. The MAYI letters each have a shape and a
// colour of their own (circle, triangle, diamond, square), so they are told apart in greyscale
// and by colour-blind players; every colour is dark enough for WCAG AA on the white card.
import { html } from "./ui.js";

const STANDARD_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const STANDARD_RANK = { 1: "A", 11: "J", 12: "Q", 13: "K" };
const SUIT_NAME = {
  M: "M", A: "A", Y: "Y", I: "I",
  S: "spades", H: "hearts", D: "diamonds", C: "clubs",
  R: "red", G: "green", K: "black",
};

// A card the view no longer lists (an old discard named in the log): read its id's notation
// (deck prefix + face, README "Card ids") just well enough to draw it.
export function parseId(id) {
  const prefix = id[0];
  const rest = id.slice(1);
  if ("wbg".includes(prefix)) {
    if (rest === "?") return { rank: null, suit: null, wild: true, label: "?", color: null };
    return { rank: Number(rest.slice(0, -1)), suit: rest.slice(-1), wild: false, label: rest, color: null };
  }
  if ("pqrs".includes(prefix)) {
    if (rest.startsWith("*")) return { rank: null, suit: null, wild: true, label: "Joker", color: null };
    const token = rest.slice(0, -1), suit = rest.slice(-1);
    const rank = { A: 1, J: 11, Q: 12, K: 13 }[token] || Number(token);
    return { rank, suit, wild: false, label: token + STANDARD_SYMBOL[suit], color: "HD".includes(suit) ? "red" : "black" };
  }
  if (rest === "*") return { rank: null, suit: null, wild: true, label: "Rook", color: null };
  if (rest === "_") return { rank: null, suit: null, wild: true, label: "Wild", color: null };
  const suit = rest.slice(-1);
  return { rank: Number(rest.slice(0, -1)), suit, wild: false, label: rest, color: { R: "red", G: "green", Y: "yellow", K: "black" }[suit] };
}

export function faceOf(id, faces) {
  if (!id) return null;
  return (faces && faces[id]) || parseId(id);
}

export function cardSet(id) {
  const p = id ? id[0] : "w";
  return "wbg".includes(p) ? "bga" : "pqrs".includes(p) ? "standard" : "rook";
}

function rankText(set, rank) {
  return set === "standard" ? STANDARD_RANK[rank] || String(rank) : String(rank);
}

// Words for screen readers and the log: "7 M", "queen of hearts", "wild".
export function spoken(id, faces) {
  const f = faceOf(id, faces);
  if (!f) return "";
  if (f.wild) return f.label === "?" ? "wild" : `${f.label} (wild)`;
  const set = cardSet(id);
  if (set === "standard") return `${f.label}`;
  if (set === "rook") return `${f.rank} ${f.color || f.suit}`;
  return `${f.rank} ${SUIT_NAME[f.suit] || f.suit}`;
}

// The letter/suit as a symbol with its own shape. viewBox 0 0 24 24. The card's text (ranks,
// letters) is CSS generated content from data-t: controls holding cards carry an aria-label,
// and text inside them would differ from it (WCAG 2.5.3, label in name).
function Symbol({ set, suit, cls }) {
  if (set === "standard") {
    return html`<span class=${`sym sym-suit ${cls || ""}`} data-t=${STANDARD_SYMBOL[suit]}></span>`;
  }
  const shape = {
    // bga letters
    M: html`<circle cx="12" cy="12" r="11" />`,
    A: html`<polygon points="12,1 23.5,22.5 0.5,22.5" />`,
    Y: html`<polygon points="12,0 24,12 12,24 0,12" />`,
    I: html`<rect x="1.5" y="1.5" width="21" height="21" rx="2" />`,
    // rook colours, each a shape too
    R: html`<circle cx="12" cy="12" r="11" />`,
    G: html`<rect x="1.5" y="1.5" width="21" height="21" rx="2" />`,
    Y_rook: html`<polygon points="12,1 23.5,22.5 0.5,22.5" />`,
    K: html`<polygon points="12,0 24,12 12,24 0,12" />`,
  }[set === "rook" && suit === "Y" ? "Y_rook" : suit];
  const letter = set === "bga" ? suit : "";
  return html`<span class=${`sym ${cls || ""} ${suit === "A" ? "sym-low" : ""}`}>
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><g class="sym-shape">${shape}</g></svg>
    ${letter && html`<span class="sym-l" data-t=${letter}></span>`}
  </span>`;
}

// The Rook bird, drawn simply: a body, a wing, a beak and an eye.
function Bird() {
  return html`<svg class="bird" viewBox="0 0 48 40" aria-hidden="true" focusable="false">
    <path d="M6 28 C10 14 22 8 32 10 L40 6 L38 13 C44 16 44 24 38 28 C30 34 16 34 6 28 Z" fill="#111827" />
    <path d="M16 22 C22 14 30 14 34 18 C28 20 22 24 16 22 Z" fill="#b91c1c" />
    <path d="M40 6 L47 8 L40 11 Z" fill="#b45309" />
    <circle cx="35" cy="10.5" r="1.6" fill="#fff" />
  </svg>`;
}

function WildFace({ f, set, stands }) {
  const word = f.label === "?" ? "WILD" : f.label.toUpperCase();
  return html`
    <span class="pc-corner" data-t=${set === "rook" && f.label === "Rook" ? "R" : set === "standard" ? "★" : "?"}></span>
    <span class="pc-centre">
      ${set === "rook" && f.label === "Rook" ? html`<${Bird} />` : html`<span class="wild-mark" data-t=${set === "standard" ? "★" : "?"}></span>`}
      <span class="wild-word" data-t=${word}></span>
    </span>
    ${stands != null && html`<span class="pc-stands" data-t=${`=${stands}`}></span>`}`;
}

// One card. `id` keys it; `label` (data-label) is the face as the engine writes it ("7M",
// "Q♥", "Rook"), which tests and the log use.
// `face` and `set` draw a card known only by its face (a finished round's hands).
export function Card({ id, faces, face, set: setName, stands, small, extraClass, hidden }) {
  const f = face || faceOf(id, faces);
  const set = setName || cardSet(id);
  const cls = ["pc", `pc-${set}`, small ? "pc-small" : "", extraClass || ""];
  if (f.wild) {
    cls.push("pc-wild", f.label === "Rook" ? "pc-rook-bird" : "");
    return html`<span class=${cls.join(" ")} data-label=${f.label} data-card-face=${id || null} aria-hidden=${hidden ? "true" : null}>
      <${WildFace} f=${f} set=${set} stands=${stands} />
    </span>`;
  }
  cls.push(`s-${f.suit}`);
  const r = rankText(set, f.rank);
  return html`<span class=${cls.join(" ")} data-label=${f.label} data-card-face=${id || null} aria-hidden=${hidden ? "true" : null}>
    <span class="pc-corner"><b data-t=${r}></b><${Symbol} set=${set} suit=${f.suit} cls="sym-corner" /></span>
    <span class="pc-centre"><b class="pc-big" data-t=${r}></b><${Symbol} set=${set} suit=${f.suit} cls="sym-big" /></span>
  </span>`;
}

// The back of a card (other hands, the stock).
export function CardBack({ small }) {
  return html`<span class=${`pc pc-back ${small ? "pc-small" : ""}`} aria-hidden="true"><span class="pc-back-inner"></span></span>`;
}

// A row of small cards for the log and the panels, with words for screen readers.
export function MiniCards({ ids, faces }) {
  return html`<span class="mini-cards" role="img" aria-label=${ids.map((c) => spoken(c, faces)).join(", ")}>${ids.map(
    (c) => html`<${Card} key=${c} id=${c} faces=${faces} small=${true} hidden=${true} />`,
  )}</span>`;
}

// The same from face data alone (no ids): a round's hands once the cards are dealt again.
export function FaceCards({ list, set }) {
  return html`<span class="mini-cards" role="img" aria-label=${list.map((f) => f.label).join(", ")}>${list.map(
    (f, i) => html`<${Card} key=${i} id=${null} face=${f} set=${set} small=${true} hidden=${true} />`,
  )}</span>`;
}
