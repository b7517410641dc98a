// Clocks: the deadlines come with the table meta; only the countdown runs here.
export function left(iso) {
  if (!iso) return null;
  const s = Math.max(0, Math.round((Date.parse(iso) - Date.now()) / 1000));
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  if (d) return `${d}d ${h}h`;
  if (h) return `${h}h ${m}m`;
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

function seatClock(meta, p) {
  const clocks = meta && meta.clocks;
  return clocks && clocks.seats ? clocks.seats.find((c) => c.position === p) : null;
}

// Each seat's time: the running clock counts down to the turn deadline; the others show their
// time bank as the server computed it (meta.clocks).
export function clockText(meta, view, p) {
  if (!view || view.game_over || (meta && meta.status === "aborted")) return "";
  const c = seatClock(meta, p);
  if (c && c.vacation_until) return `vacation until ${new Date(c.vacation_until).toLocaleDateString()}`;
  if (view.active_seat === p && meta.turn_deadline) return left(meta.turn_deadline);
  return c ? left(new Date(Date.now() + 1000 * c.seconds_left).toISOString()) : "";
}
