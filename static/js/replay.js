// The replay page (templates/stats/replay.html): keyboard steps, and the seed's SHA-256
// recomputed in the browser with WebCrypto. Every link target comes from data-* attributes.
const nav = document.getElementById("replay-nav");

const KEYS = {
  ArrowLeft: "prev",
  ArrowRight: "next",
  PageUp: "prevRound",
  PageDown: "nextRound",
  "[": "prevRound",
  "]": "nextRound",
  Home: "first",
  End: "last",
};

if (nav) {
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    const which = KEYS[event.key];
    if (!which) return;
    const href = nav.dataset[which];
    if (!href) return;
    event.preventDefault();
    window.location.search = href.slice(1);
  });
  // The move shown is brought into view inside the log's own box only: the page itself stays
  // at its top, where the hands and the table are (each step loads the page afresh).
  const log = document.querySelector(".replay-log");
  const current = log && log.querySelector(".current");
  if (current) {
    const offset = current.getBoundingClientRect().top - log.getBoundingClientRect().top;
    log.scrollTop += offset - (log.clientHeight - current.offsetHeight) / 2;
  }
}

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

const verify = document.getElementById("replay-verify");
const out = document.getElementById("browser-check");
if (verify && out && window.crypto && crypto.subtle) {
  const { seed, published } = verify.dataset;
  sha256Hex(seed).then((hash) => {
    if (!published) {
      out.textContent = `Your browser computed SHA-256 of the seed: ${hash}.`;
    } else if (hash === published) {
      out.textContent = "Your browser computed SHA-256 of the seed: it matches the published commitment.";
      out.className = "ok";
    } else {
      out.textContent = `Your browser computed ${hash}: it does NOT match the published commitment.`;
      out.className = "bad";
    }
  });
}
