import { html } from "./ui.js";

// Who sits where, in words.
export function seatName(meta, pos) {
  const seat = meta && meta.seats.find((s) => s.position === pos);
  if (!seat) return `Seat ${pos + 1}`;
  return seat.user || `Bot ${pos + 1}`;
}
export function possessive(meta, pos, mine) {
  return pos === mine ? "your" : `${seatName(meta, pos)}'s`;
}
// "you", "you and carol", "bob, carol and you": names in a sentence.
export function listOf(names) {
  if (names.length < 2) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

// A name that may wrap only where it reads well: after "_", "-" or "." and between a lower-case
// letter and a capital ("ana_" / "plays", "bob_the_" / "builder"), never in the middle of a
// word ("ana_play" / "s").
export function Breakable({ name }) {
  const parts = String(name).split(/(?<=[_.-])|(?<=[a-z])(?=[A-Z])/);
  return html`${parts.map((p, i) => (i ? html`<wbr />${p}` : p))}`;
}
