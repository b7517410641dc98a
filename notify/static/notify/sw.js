// The May I? service worker, served from the site's root (/sw.js) so that its scope is the
// whole site. It does one thing: show a push as a notification, and open (or focus) the
// table it is about when the notification is clicked. No caching, no fetch handler.
"use strict";

function sameOrigin(url) {
  try {
    const u = new URL(url || "/", self.location.origin);
    return u.origin === self.location.origin ? u.href : self.location.origin + "/";
  } catch (e) {
    return self.location.origin + "/";
  }
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    data = { body: event.data ? event.data.text() : "" };
  }
  const title = data.title || "May I?";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    tag: data.tag || undefined,
    icon: "/static/img/favicon.svg",
    data: { url: sameOrigin(data.url), kind: data.kind || "" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = sameOrigin(event.notification.data && event.notification.data.url);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const target = new URL(url).pathname;
    for (const client of windows) {
      if (new URL(client.url).pathname === target && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(url);
  })());
});
