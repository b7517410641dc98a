// The seed commitment panel of the table page (templates/stats/_seed.html): when the table's
// socket says the game is over, show the revealed seed. Text only, never HTML.
const panel = document.getElementById("seed-commitment");
if (panel) {
  window.addEventListener("mayi:socket", (event) => {
    const table = event.detail && event.detail.table;
    if (!table || !table.seed) return;
    document.getElementById("seed-value").textContent = table.seed;
    document.getElementById("seed-reveal").hidden = false;
    // An aborted game reveals its seed but has no replay (stats/replay.py refuses it).
    document.getElementById("seed-replay").hidden = Boolean(table.aborted);
  });
}
