"use strict";
// Pasur's service worker: keeps the page's shell (the page, its modules, style and icons) so that
// the page opens without the network and says so, instead of the browser's error page, and the
// shipped puzzles with their solutions, so that they can be played without it, and what playing the
// computer on this device needs (the engine, engine.wasm, and /api/offline), and the rules in brief
// with their pictures (/api/help). Each is fetched
// from the network first, so an upgraded server's page is never hidden behind an old copy; the
// copy kept is used only when the network fails. The rest of the API and the sockets are never kept.

const SHELL = "pasur-shell-v18";
const PUZZLES = "/api/puzzles/offline";
const OFFLINE = "/api/offline";
const HELP = "/api/help";  // the rules in brief, with their pictures
const KEPT_API = [PUZZLES, OFFLINE, HELP];
const MODULES = ["main", "words", "cards", "settings", "sound", "state", "socket", "news", "motion", "felt", "table", "finished",
  "chat", "analysis", "replay", "lobby", "rematch", "account", "profile", "leaders", "friends", "review", "puzzles", "lesson",
  "engine", "offline", "offline-table", "offline-worker", "offline-lobby", "handover", "lesson-tips"];
const FILES = ["/", ...MODULES.map((name) => `/static/js/${name}.js`), "/static/style.css", "/static/icon.svg",
  "/static/icon-192.png", "/manifest.webmanifest", "/static/engine.wasm", ...KEPT_API];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name !== SHELL).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  const api = url.pathname.startsWith("/api/") && !KEPT_API.includes(url.pathname);
  if (request.method !== "GET" || url.origin !== location.origin || api) return;
  const page = request.mode === "navigate";  // "/" and every table's "/t/…" are the same page
  if (!page && !FILES.includes(url.pathname)) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(SHELL).then((cache) => cache.put(page ? "/" : request, copy));
        }
        return response;
      })
      .catch(() => caches.match(page ? "/" : request).then((kept) => kept || Response.error())),
  );
});
