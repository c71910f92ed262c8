// The page's service worker: lets the tablet install the page as a full-screen app, and
// shows "the table is off" instead of a browser error when the Pi cannot be reached.
// Live data (/api/...) is never cached: a stale scoreboard would be worse than none.
"use strict";

const SHELL = "hamster-shell-v1";
const OFFLINE = "/offline.html";
const KEEP = [OFFLINE, "/static/app.css", "/static/icon.svg", "/static/icons/icon-192.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(KEEP)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== SHELL).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/")) return;  // always live, never from a cache
  if (event.request.mode === "navigate") {
    event.respondWith(fetch(event.request).catch(() => caches.match(OFFLINE)));
    return;
  }
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(fetch(event.request).catch(() => caches.match(event.request)));
  }
});
