// The one reading order of a game's log, everywhere it is shown (the table page's log,
// "Since you last looked", the replay): NEWEST FIRST. The newest move is at the top and,
// inside a move, its newest event too, so that the whole log reads one way from top to
// bottom ("Bot 4 said no thanks" no longer sat above "Nobody bought", which sat above
// "Bot 3 said no thanks"). A plain module with no imports, for any page's script.

// Moves newest first: ``entries`` in any order, each with a ``seq`` (the move's number).
export function movesNewestFirst(entries) {
  return entries.slice().sort((a, b) => b.seq - a.seq);
}

// The lines of a log, newest first throughout: ``linesOf(entry)`` gives one move's lines in
// the order its events happened (oldest first, as the engine emits them); each is returned as
// { entry, line, index } with ``index`` its place in that move (for a stable key).
export function linesNewestFirst(entries, linesOf) {
  const out = [];
  for (const entry of movesNewestFirst(entries)) {
    const lines = linesOf(entry) || [];
    for (let i = lines.length - 1; i >= 0; i--) out.push({ entry, line: lines[i], index: i });
  }
  return out;
}
