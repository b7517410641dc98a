// Web push opt-in: the profile's and the table page's "Turn on push notifications" buttons.
// Nothing here asks for permission until the player clicks: a page load only looks whether
// this browser is already subscribed.
const KEY_API = "/api/push/key";
const SUBS_API = "/api/push/subscriptions";

function csrfToken() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  if (m) return decodeURIComponent(m[1]);
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

function send(method, body) {
  return fetch(SUBS_API, {
    method,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify(body),
  });
}

function keyBytes(base64url) {
  const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

async function currentSubscription() {
  if (!supported) return null;
  const reg = await navigator.serviceWorker.getRegistration("/");
  return reg ? reg.pushManager.getSubscription() : null;
}

function show(box, on, words) {
  box.querySelector("[data-push-status]").textContent = words;
  box.querySelector("[data-push-on]").hidden = on || !supported;
  box.querySelector("[data-push-off]").hidden = !on;
}

async function turnOn(box) {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    show(box, false, "Notifications are blocked for this site: allow them in the browser's site settings, then try again.");
    return;
  }
  show(box, false, "Turning on…");
  try {
    const reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    await navigator.serviceWorker.ready;
    const answer = await fetch(KEY_API, { credentials: "same-origin" });
    if (!answer.ok) throw new Error("this site sends no push notifications");
    const { public_key: key } = await answer.json();
    const sub = (await reg.pushManager.getSubscription())
      || (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }));
    const stored = await send("POST", sub.toJSON());
    if (!stored.ok) {
      const body = await stored.json().catch(() => ({}));
      throw new Error((body.error && body.error.message) || `the site answered ${stored.status}`);
    }
    show(box, true, "Push notifications are on in this browser.");
    addToList(sub.endpoint);
  } catch (e) {
    show(box, false, `Could not turn them on: ${e.message || e}`);
  }
}

async function turnOff(box) {
  const sub = await currentSubscription();
  if (sub) {
    await send("DELETE", { endpoint: sub.endpoint });
    await sub.unsubscribe().catch(() => {});
    removeFromList(sub.endpoint);
  }
  show(box, false, "Push notifications are off in this browser.");
}

function addToList(endpoint) {
  const list = document.querySelector("[data-push-list]");
  if (!list || [...list.children].some((li) => li.dataset.endpoint === endpoint)) return;
  const none = list.querySelector("[data-push-none]");
  if (none) none.remove();
  const li = document.createElement("li");
  li.dataset.endpoint = endpoint;
  li.textContent = "This browser, since today ";
  list.append(li);
}

function removeFromList(endpoint) {
  const list = document.querySelector("[data-push-list]");
  if (!list) return;
  for (const li of [...list.children]) if (li.dataset.endpoint === endpoint) li.remove();
}

async function start() {
  const boxes = document.querySelectorAll("[data-push]");
  if (!boxes.length) return;
  let sub = null;
  try { sub = await currentSubscription(); } catch (e) { sub = null; }
  for (const box of boxes) {
    if (box.dataset.pushReady) continue;
    box.dataset.pushReady = "1";
    if (!supported) show(box, false, "This browser cannot receive push notifications.");
    else show(box, !!sub, sub ? "Push notifications are on in this browser." : "");
    box.querySelector("[data-push-on]").addEventListener("click", () => turnOn(box));
    box.querySelector("[data-push-off]").addEventListener("click", () => turnOff(box));
  }
  document.querySelectorAll("[data-push-remove]").forEach((button) => {
    button.addEventListener("click", async () => {
      const endpoint = button.dataset.pushRemove;
      const answer = await send("DELETE", { endpoint });
      if (answer.status === 204) {
        removeFromList(endpoint);
        const mine = await currentSubscription().catch(() => null);
        if (mine && mine.endpoint === endpoint) {
          await mine.unsubscribe().catch(() => {});
          boxes.forEach((box) => show(box, false, "Push notifications are off in this browser."));
        }
      }
    });
  });
}

// The table page's "Nudge" button: the answer (or the refusal's own words) beside it.
document.querySelectorAll("[data-nudge]").forEach((button) => {
  button.addEventListener("click", async () => {
    const status = button.closest("[data-push]").querySelector("[data-nudge-status]");
    button.disabled = true;
    try {
      const answer = await fetch(button.dataset.nudge, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: "{}",
      });
      const body = await answer.json().catch(() => ({}));
      status.textContent = answer.ok
        ? "Nudged: they will be told (and only they)."
        : `No nudge: ${(body.error && body.error.message) || answer.status}.`;
    } catch (e) {
      status.textContent = "No nudge: the site could not be reached.";
    } finally {
      button.disabled = false;
    }
  });
});

start();
