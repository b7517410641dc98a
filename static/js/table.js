// The table page's entry module. The page is built from ES modules under static/js/table/
// (no build step; Preact and htm vendored under static/vendor/):
//   state.js   the payload, versions and re-sync, the deltalog entries, selection
//   socket.js  the websocket: backoff, fallback polling, a "mayi:socket" event per message
//   api.js     actions through the JSON API
//   cards.js   cards drawn as cards from the view's faces
//   board.js   players, piles, melds · hand.js the hand · order.js its order and sorts
//   controls.js status bar, "May I?" offer, staging, buttons · check.js the server's check
//   log.js     the log in words · moments.js round and game ends, "since you last looked"
//   help.js    the "?" panel · motion.js card moves · app.js puts it together
//   ../log-order.js  the one reading order of a log (newest first), shared with the replay
import { start } from "./table/app.js";

start();
