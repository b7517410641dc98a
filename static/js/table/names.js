// Who sits where, in words.
export function seatName(meta, pos) {
  const seat = meta && meta.seats.find((s) => s.position === pos);
  if (!seat) return `Seat ${pos + 1}`;
  return seat.user || `Bot ${pos + 1}`;
}
export function possessive(meta, pos, mine) {
  return pos === mine ? "your" : `${seatName(meta, pos)}'s`;
}
