// Sign-up: the time zone menu starts at the browser's own zone (Intl.DateTimeFormat), when the
// site knows it; the player can still choose another. Nothing is sent until the form is.
const zone = (() => {
  try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return ""; }
})();
document.querySelectorAll("select[data-browser-zone]").forEach((select) => {
  if (!zone || select.dataset.chosen) return;
  if ([...select.options].some((o) => o.value === zone)) select.value = zone;
});
