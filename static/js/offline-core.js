// Offline entry's logic, shared by the pulka page (offline.js), the service worker
// (templates/offline/sw.js) and Node's tests (tests/js/queue.test.js): the device's queue of
// deals not sent yet, how they are sent, and which requests the worker answers from its caches.
//
// The queue keeps, per deal, the form as typed, its one-time key (entry_key) and its number.
// It is sent in order, one deal at a time, each with its own key, so a deal sent twice is
// recorded once: the server answers "Deal N is already recorded", which counts as sent. A
// refusal (the engine's, or another secretary's deal with that number) stops the queue at that
// deal until the person corrects or discards it; nothing behind it is sent meanwhile.
(function (root, factory) {
  "use strict";
  const api = factory();
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.PulkaOffline = api;
})(typeof self !== "undefined" ? self : globalThis, function () {
  "use strict";

  const SYNC_TAG = "pulka-queue"; // Background Sync's tag
  const LOCK = "pulka-queue"; // one sender at a time, across the tabs and the worker
  const CHANNEL = "pulka-queue"; // tells every tab that the queue changed
  const PAGE_HEADER = "Pulka-Offline"; // the server marks the pages worth keeping
  const QUEUE_HEADER = "Pulka-Queue"; // and answers a deal sent with it in JSON
  const RECORDED_HEADER = "Pulka-Recorded"; // an entry's answer names the deal its key recorded
  const SEND_TIMEOUT_MS = 20000;
  const DB_NAME = "pulka-offline";
  const STORE = "deals";

  // -- the states of a deal on the device ---------------------------------------------------
  // waiting: not sent yet; sending: on its way (a tab that died there leaves it so, and it is
  // sent again, with the same key); refused: the server said no, the queue stops here; sent:
  // the server has it (kept until the page shows it, so the numbers stay right offline).
  const UNSENT = ["waiting", "sending", "refused"];

  function isUnsent(entry) {
    return UNSENT.indexOf(entry.state) !== -1;
  }

  function bySeq(entries) {
    return entries.slice().sort(function (a, b) {
      return a.seq - b.seq;
    });
  }

  // What the server's answer means for the deal sent: "sent", "refused" or "retry" (no
  // answer, or one from something in front of the server that is not up: try again later).
  function outcome(status, body) {
    if (body && (body.outcome === "recorded" || body.outcome === "already")) {
      return {kind: "sent", number: body.number, already: body.outcome === "already"};
    }
    if (body && body.outcome === "refused") {
      return {kind: "refused", message: body.message || "", next: body.next, status: status};
    }
    if (!status || status >= 500 || status === 408 || status === 429) return {kind: "retry"};
    // Not the entry's own answer: a 403 (signed out, the role taken away), a 404, a login
    // page. Refused, without the server's words: the page says what to check.
    return {kind: "refused", message: "", next: null, status: status};
  }

  // The deals waiting behind a refused one go on from the number the server gave.
  function renumber(entries, next) {
    let number = next;
    const changed = [];
    bySeq(entries).forEach(function (entry) {
      if (!isUnsent(entry)) return;
      if (entry.number !== number) {
        entry.number = number;
        changed.push(entry);
      }
      number += 1;
    });
    return changed;
  }

  // The number the next deal typed on this device takes: after the sheet's and the queue's.
  function nextNumber(pageNext, entries) {
    let next = pageNext;
    entries.forEach(function (entry) {
      if (entry.number + 1 > next) next = entry.number + 1;
    });
    return next;
  }

  // -- the queue ------------------------------------------------------------------------------

  // Sends the pulka's queue in order, one deal at a time, and stops at the first refusal or
  // when the server cannot be reached. `send(entry)` resolves to an outcome(); `notify()`
  // tells the pages that the queue changed. Resolves to {state, sent, entry}: state "empty"
  // (nothing left), "stopped" (entry refused) or "offline".
  async function flush(store, pulka, send, notify) {
    const tell = notify || function () {};
    let sent = 0;
    for (;;) {
      const entries = await store.list(pulka);
      const entry = entries.find(isUnsent);
      if (!entry) return {state: "empty", sent: sent};
      if (entry.state === "refused") return {state: "stopped", sent: sent, entry: entry};
      entry.state = "sending";
      await store.put(entry);
      tell(pulka);
      let answer;
      try {
        answer = await send(entry);
      } catch (error) {
        answer = {kind: "retry"};
      }
      if (answer.kind === "sent") {
        entry.state = "sent";
        entry.sentAt = Date.now();
        entry.recorded = answer.number || entry.number;
        await store.put(entry);
        sent += 1;
        tell(pulka);
        continue;
      }
      if (answer.kind === "refused") {
        entry.state = "refused";
        entry.reason = answer.message || "";
        entry.status = answer.status || 0;
        entry.next = answer.next || entry.number;
        await store.put(entry);
        tell(pulka);
        return {state: "stopped", sent: sent, entry: entry};
      }
      entry.state = "waiting";
      await store.put(entry);
      tell(pulka);
      return {state: "offline", sent: sent};
    }
  }

  // One sender at a time for the whole device: two tabs of one pulka, or a tab and the worker,
  // never send the same deal at once (the key would make it harmless, but one queue is shown).
  function withLock(locks, fn) {
    if (locks && locks.request) return locks.request(LOCK, fn);
    return fn();
  }

  // Every pulka's queue of one account ("<account>:<pulka>"), as Background Sync asks the
  // worker: sync tags are "pulka-queue:<account>".
  async function flushAll(store, fetchFn, notify, locks, account) {
    const entries = await store.all();
    const pulkas = [];
    entries.filter(isUnsent).forEach(function (entry) {
      if (account !== undefined && entry.pulka.indexOf(account + ":") !== 0) return;
      if (pulkas.indexOf(entry.pulka) === -1) pulkas.push(entry.pulka);
    });
    const results = [];
    for (const pulka of pulkas) {
      const result = await withLock(locks, function () {
        return flush(store, pulka, function (entry) {
          return sendEntry(entry, fetchFn, null);
        }, notify);
      });
      results.push(result);
    }
    return results;
  }

  // Posts one deal as the entry form would, with its key and number, asking for the queue's
  // answer. `csrf`: the page's current token (a new sign-in changes it), else the one kept.
  async function sendEntry(entry, fetchFn, csrf) {
    const body = new URLSearchParams();
    entry.form.forEach(function (pair) {
      body.append(pair[0], pair[1]);
    });
    body.set("number", String(entry.number));
    body.set("entry_key", entry.key);
    if (csrf) body.set("csrfmiddlewaretoken", csrf);
    const headers = {Accept: "application/json"};
    headers[QUEUE_HEADER] = "1";
    headers["X-CSRFToken"] = body.get("csrfmiddlewaretoken") || "";
    const controller = typeof AbortController === "function" ? new AbortController() : null;
    const timer = controller && setTimeout(function () {
      controller.abort();
    }, SEND_TIMEOUT_MS);
    let response;
    try {
      response = await fetchFn(entry.url, {
        method: "POST",
        body: body,
        headers: headers,
        credentials: "same-origin",
        signal: controller ? controller.signal : undefined,
      });
    } catch (error) {
      return {kind: "retry"};
    } finally {
      if (timer) clearTimeout(timer);
    }
    let json = null;
    const type = (response.headers.get("Content-Type") || "").toLowerCase();
    if (type.indexOf("application/json") !== -1) {
      try {
        json = await response.json();
      } catch (error) {
        json = null;
      }
    }
    return outcome(response.redirected && !json ? 403 : response.status, json);
  }

  // -- where the queue lives: IndexedDB on the device ---------------------------------------

  function openStore(idb) {
    const opened = new Promise(function (resolve, reject) {
      const request = idb.open(DB_NAME, 1);
      request.onupgradeneeded = function () {
        const store = request.result.createObjectStore(STORE, {keyPath: "key"});
        store.createIndex("pulka", "pulka");
      };
      request.onsuccess = function () {
        resolve(request.result);
      };
      request.onerror = function () {
        reject(request.error);
      };
    });
    function run(mode, work) {
      return opened.then(function (db) {
        return new Promise(function (resolve, reject) {
          const tx = db.transaction(STORE, mode);
          const request = work(tx.objectStore(STORE));
          tx.oncomplete = function () {
            resolve(request ? request.result : undefined);
          };
          tx.onerror = tx.onabort = function () {
            reject(tx.error);
          };
        });
      });
    }
    return {
      list: function (pulka) {
        return run("readonly", function (store) {
          return store.index("pulka").getAll(String(pulka));
        }).then(bySeq);
      },
      all: function () {
        return run("readonly", function (store) {
          return store.getAll();
        }).then(bySeq);
      },
      put: function (entry) {
        return run("readwrite", function (store) {
          return store.put(entry);
        });
      },
      remove: function (key) {
        return run("readwrite", function (store) {
          return store.delete(key);
        });
      },
    };
  }

  // -- the worker's caches --------------------------------------------------------------------

  function cacheNames(version) {
    return {shell: "pulka-shell-" + version, pages: "pulka-pages"};
  }

  function isOldCache(name, version) {
    return name.indexOf("pulka-shell-") === 0 && name !== "pulka-shell-" + version;
  }

  // How the worker answers a request: "static" and "catalog" from its caches, "page" from the
  // network with the kept copy (or the offline page) when the network fails, "logout" drops
  // the kept pages, "network" is left alone.
  function route(request, origin, staticPrefix) {
    const url = new URL(request.url);
    if (url.origin !== origin) return "network";
    if (request.method === "POST" && /\/accounts\/logout\/$/.test(url.pathname)) return "logout";
    if (request.method !== "GET") return "network";
    if (url.pathname.indexOf(staticPrefix) === 0) return "static";
    if (url.pathname.indexOf("/jsi18n/") === 0) return "catalog";
    if (request.mode === "navigate") return "page";
    return "network";
  }

  function sameOrigin(url, origin) {
    try {
      return new URL(url, origin).origin === origin;
    } catch (error) {
      return false;
    }
  }

  async function cacheFirst(cacheStorage, name, request, fetchFn) {
    const cache = await cacheStorage.open(name);
    const kept = await cache.match(request, {ignoreVary: true});
    if (kept) return kept;
    const response = await fetchFn(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  }

  async function networkFirst(cacheStorage, name, request, fetchFn) {
    const cache = await cacheStorage.open(name);
    try {
      const response = await fetchFn(request);
      if (response.ok) await cache.put(request, response.clone());
      return response;
    } catch (error) {
      const kept = await cache.match(request, {ignoreVary: true});
      if (kept) return kept;
      throw error;
    }
  }

  function unreachable(response) {
    return !response || response.status === 502 || response.status === 503 || response.status === 504;
  }

  // A page: from the network; an entry page the server marked is kept for later. Without an
  // answer (or with the proxy's 502/503/504), the copy kept, else the offline page.
  async function pageNetworkFirst(cacheStorage, names, request, fetchFn, offlineUrl) {
    let response = null;
    try {
      response = await fetchFn(request);
    } catch (error) {
      response = null;
    }
    if (!unreachable(response)) {
      if (response.ok && response.headers.get(PAGE_HEADER)) {
        const pages = await cacheStorage.open(names.pages);
        await pages.put(request.url, response.clone());
      }
      return response;
    }
    const pages = await cacheStorage.open(names.pages);
    const kept = await pages.match(request.url, {ignoreVary: true});
    if (kept) return kept;
    const shell = await cacheStorage.open(names.shell);
    const offline = await shell.match(offlineUrl, {ignoreVary: true});
    return offline || response || Response.error();
  }

  // The page asks for its fresh copy to be kept after each deal it recorded online, so that a
  // reload offline shows the sheet as it last was.
  async function keepPage(cacheStorage, name, url, fetchFn) {
    try {
      const response = await fetchFn(url, {credentials: "same-origin"});
      if (response.ok && response.headers.get(PAGE_HEADER)) {
        const pages = await cacheStorage.open(name);
        await pages.put(url, response);
      }
    } catch (error) {
      // Offline again: the copy kept before stays.
    }
  }

  function notify(pulka) {
    if (typeof BroadcastChannel === "function") {
      const channel = new BroadcastChannel(CHANNEL);
      channel.postMessage({pulka: String(pulka)});
      channel.close();
    }
  }

  return {
    SYNC_TAG: SYNC_TAG,
    LOCK: LOCK,
    CHANNEL: CHANNEL,
    PAGE_HEADER: PAGE_HEADER,
    QUEUE_HEADER: QUEUE_HEADER,
    RECORDED_HEADER: RECORDED_HEADER,
    isUnsent: isUnsent,
    outcome: outcome,
    renumber: renumber,
    nextNumber: nextNumber,
    flush: flush,
    flushAll: flushAll,
    withLock: withLock,
    sendEntry: sendEntry,
    openStore: openStore,
    cacheNames: cacheNames,
    isOldCache: isOldCache,
    route: route,
    sameOrigin: sameOrigin,
    cacheFirst: cacheFirst,
    networkFirst: networkFirst,
    pageNetworkFirst: pageNetworkFirst,
    keepPage: keepPage,
    notify: notify,
  };
});
