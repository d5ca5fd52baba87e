// Pulka's service worker (config/offline.py serves it at /sw.js). Kept small and written by
// hand: it keeps the static files, the entry pages the person opened and the offline page,
// and sends the deals waiting on the device (Background Sync). The logic lives in
// offline-core.js, which Node's tests load (tests/js/); this file only wires it to the events.
"use strict";
importScripts("{{ core }}");

const VERSION = "{{ version }}";
const SHELL = {{ shell|safe }};
const OFFLINE_URL = {{ offline_url|safe }};
const core = self.PulkaOffline;
const caches_ = core.cacheNames(VERSION);

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(caches_.shell).then(function (cache) {
      return cache.addAll(SHELL);
    }).then(function () {
      return self.skipWaiting();
    })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return core.isOldCache(name, VERSION);
      }).map(function (name) {
        return caches.delete(name);
      }));
    }).then(function () {
      return self.clients.claim();
    })
  );
});

self.addEventListener("fetch", function (event) {
  const request = event.request;
  const how = core.route(request, self.location.origin, {{ static_prefix|safe }});
  if (how === "logout") {
    // Signing out leaves no page of the account on the device (the deals waiting stay).
    event.waitUntil(caches.delete(caches_.pages));
    return;
  }
  if (how === "static") {
    event.respondWith(core.cacheFirst(caches, caches_.shell, request, fetch));
  } else if (how === "page") {
    event.respondWith(core.pageNetworkFirst(caches, caches_, request, fetch, OFFLINE_URL));
  } else if (how === "catalog") {
    event.respondWith(core.networkFirst(caches, caches_.shell, request, fetch));
  }
  // Anything else (the forms' posts, htmx's requests) goes to the network as if there were
  // no worker: the page sees its failures and keeps the deal on the device.
});

self.addEventListener("sync", function (event) {
  const account = event.tag.indexOf(core.SYNC_TAG + ":") === 0 ? event.tag.slice(core.SYNC_TAG.length + 1) : null;
  if (account !== null) {
    const store = core.openStore(indexedDB);
    event.waitUntil(core.flushAll(store, fetch, core.notify, self.navigator.locks, account));
  }
});

self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "keep-page" && core.sameOrigin(event.data.url, self.location.origin)) {
    event.waitUntil(core.keepPage(caches, caches_.pages, event.data.url, fetch));
  }
});
