// Actions through the JSON API (POST /api/tables/<id>/actions), with the version we saw: a
// stale one is refused with 409 and the fresh state, which makes double clicks harmless.
import { apply, store, tableId } from "./state.js";

function csrfToken() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

export function showError(text) { store.set({ error: text }); }

export async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify(body),
  });
  let data = null;
  try { data = await response.json(); } catch (e) { /* not JSON */ }
  return { response, data };
}

// Returns true when the move was taken.
export async function send(action, { keepSelection = false } = {}) {
  action.expect_version = store.get().version;
  store.set({ error: "", pending: true });
  let result;
  try {
    result = await post(`/api/tables/${tableId}/actions`, action);
  } catch (e) {
    store.set({ pending: false, error: "Could not reach the server; try again." });
    return false;
  }
  const { response, data } = result;
  store.set({ pending: false });
  if (response.ok && data) {
    if (!keepSelection) store.set({ selected: [], staged: [] });
    apply(data, "post");
    return true;
  }
  if (response.status === 409 && data && data.table) {
    apply(data, "post");
    showError("The table changed before your move arrived: look again.");
    return false;
  }
  showError(data && data.error ? data.error.message : `Something went wrong (error ${response.status}).`);
  return false;
}
