// Clocks: the deadlines come with the table meta; only the countdown runs here.
export function left(iso) {
  if (!iso) return null;
  const s = Math.max(0, Math.round((Date.parse(iso) - Date.now()) / 1000));
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  if (d) return `${d}d ${h}h`;
  if (h) return `${h}h ${m}m`;
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

// "07:00" in the viewer's time zone (the page's data-time-zone, from their profile; the
// browser's own without one).
function hourMinute(iso) {
  const zone = document.documentElement.dataset.timeZone || undefined;
  try {
    return new Date(iso).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: zone });
  } catch (e) {
    return new Date(iso).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
  }
}

function dayOf(iso) {
  const zone = document.documentElement.dataset.timeZone || undefined;
  try {
    return new Date(iso).toLocaleDateString(undefined, { timeZone: zone });
  } catch (e) {
    return new Date(iso).toLocaleDateString();
  }
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
  if (c && c.vacation_until) return `vacation until ${dayOf(c.vacation_until)}`;
  if (c && c.asleep_until) return `asleep until ${hourMinute(c.asleep_until)}`;
  if (view.active_seat === p && meta.turn_deadline) return left(meta.turn_deadline);
  return c ? left(new Date(Date.now() + 1000 * c.seconds_left).toISOString()) : "";
}
