// Actions with the version we saw, over the table's socket while it is open, else through the
// JSON API (POST /api/tables/<id>/actions): both run the same service and answer alike (a
// stale one is refused with the fresh state: 409), which makes double clicks harmless.
import { apply, store, tableId } from "./state.js";
import { staleAnswerText } from "./log.js";
import { request, resync, socketName } from "./socket.js";

function csrfToken() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

export function showError(text) { store.set({ error: text }); }

export async function post(path, body, headers = {}) {
  const response = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), ...headers },
    body: JSON.stringify(body),
  });
  let data = null;
  try { data = await response.json(); } catch (e) { /* not JSON */ }
  return { response, data };
}

// The card a "May I?" answer is about: the one on offer, or the discard on top (an early answer).
function answeredCard(view) {
  if (!view) return null;
  return view.buy_window ? view.buy_window.card : view.discard_top;
}

// The socket's answer to a move, read as the API's: the frame is a 200's body; a refusal, its
// error (a stale move's with the fresh table: a 409's body).
function answered(message) {
  const ok = message.type === "table";
  const code = message.error ? message.error.code : "";
  const status = ok ? 200 : code === "stale_version" ? 409 : code === "rate_limited" ? 429 : 400;
  return { response: { ok, status }, data: message };
}

// Returns true when the move was taken.
export async function send(action, { keepSelection = false, resent = false } = {}) {
  const card = answeredCard(store.get().view);
  action.expect_version = store.get().version;
  store.set({ error: "", pending: true });
  let result;
  try {
    const { expect_version, ...move } = action;
    const asked = request({ type: "action", action: move, expect_version });
    // The answer is the new view: the socket named here is not sent it as a frame too.
    result = asked ? answered(await asked)
      : await post(`/api/tables/${tableId}/actions`, action, { "X-Table-Socket": socketName() });
  } catch (e) {
    store.set({ pending: false, error: "Could not reach the server; try again." });
    resync();
    return false;
  }
  const { response, data } = result;
  store.set({ pending: false });
  if (response.ok && data) {
    // "Since you last looked" folds away once I act: I am back in the game.
    if (!keepSelection) store.set({ selected: [], staged: [], since: null });
    else store.set({ since: null });
    apply(data, "post");
    return true;
  }
  if (response.status === 409 && data && data.table) {
    apply(data, "post");
    // Three players answer a "May I?" window at once: each answer bumps the version, so the
    // others' answers arrive stale. When the fresh view still waits on me for the same card,
    // my answer means what I clicked: it goes again at the new version (once), rather than
    // asking me to click again.
    const view = store.get().view;
    const answer = action.type === "may_i" || action.type === "no_thanks";
    if (answer && !resent && view && view.may_answer && !view.my_answer && answeredCard(view) === card) {
      return send(action, { keepSelection, resent: true });
    }
    // An answer to an offer that moved on says what happened ("bob bought 7M first"), from
    // the moves the refusal carries; never a bare refusal.
    showError(answer ? staleAnswerText(data.log, card, store.get()) : "The table changed before your move arrived: look again.");
    return false;
  }
  showError(data && data.error ? data.error.message : `Something went wrong (error ${response.status}).`);
  return false;
}
