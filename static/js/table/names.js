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
