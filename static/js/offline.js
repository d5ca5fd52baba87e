// Offline entry on a secretary's pulka page (issue #28). A deal recorded while the device is
// offline, or whose post gets no answer (a dead Wi-Fi, the proxy's 502, a timeout), is kept on
// the device (IndexedDB, offline-core.js) with its form, its one-time key and its number. It
// shows at once in the deal log as "not sent yet", a banner counts them, and the form goes on
// with the next deal. The sheet itself is not recomputed here: the engine runs on the server,
// and the sheet updates when the deals are sent.
//
// They are sent in order, one at a time, when the connection returns (the online event, the
// page shown again, Background Sync in the worker, "Send now", a retry timer). A refusal stops
// the queue at its deal, shown with the server's reason, to correct or discard. Every tab of
// the pulka shows the same queue (a BroadcastChannel says when it changes) and one sender at a
// time sends it (Web Locks).
(function () {
  "use strict";

  const core = window.PulkaOffline;
  const entryForms = window.PulkaEntryForm; // entry-form.js: the form on the device
  const box = document.getElementById("offline-queue");
  if (!core || !entryForms || !box || !window.indexedDB) return;

  // Django's JavaScriptCatalog (jsi18n) defines these; without it the words stay English.
  const gettext = window.gettext || function (s) {
    return s;
  };
  const ngettext = window.ngettext || function (one, many, n) {
    return n === 1 ? one : many;
  };
  const interpolate = window.interpolate || function (fmt, args) {
    return fmt.replace(/%s/g, function () {
      return String(args.shift());
    });
  };

  // One queue per pulka and account on this device: whoever signs in next does not send the
  // deals another account kept.
  const pulka = box.dataset.account + ":" + box.dataset.pulka;
  const createUrl = box.dataset.create;
  const logId = box.dataset.log || "deal-log";
  const pageUrl = box.dataset.page;
  const store = core.openStore(window.indexedDB);
  const RETRY_MS = [3000, 6000, 15000, 30000, 60000];
  const KEEP_SENT_MS = 12 * 60 * 60 * 1000;

  let entries = []; // this pulka's queue as last read
  let correcting = null; // the key of the refused deal being corrected in the form
  const stash = new WeakMap(); // a post in flight -> the form as it was sent
  let retries = 0;
  let retryTimer = null;
  let flushing = false;
  let keepTimer = null;

  function entryForm() {
    const form = document.getElementById("deal-form");
    return form && form.matches("[data-offline]") ? form : null;
  }

  function uuid() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    const bytes = window.crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, function (b) {
      return b.toString(16).padStart(2, "0");
    }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function pairs(form) {
    const out = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") out.push([name, value]);
    });
    return out;
  }

  function valueOf(formPairs, name) {
    const found = formPairs.find(function (pair) {
      return pair[0] === name;
    });
    return found ? found[1] : undefined;
  }

  function field(form, name) {
    return form.querySelector("[name='" + name + "']");
  }

  function csrfToken() {
    const input = document.querySelector("[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  // The deals the page's log shows as recorded: the server's, not ours.
  function recordedNumbers() {
    const numbers = [];
    document.querySelectorAll("#" + logId + " > li.deal:not(.pending)").forEach(function (item) {
      const match = /^deal-(\d+)$/.exec(item.id);
      if (match) numbers.push(Number(match[1]));
    });
    return numbers;
  }

  function playerCount(form) {
    return field(form, "dealer") ? field(form, "dealer").options.length : 3;
  }

  // -- what the page shows -------------------------------------------------------------------

  function stateText(entry) {
    if (entry.state === "sending") return gettext("sending…");
    if (entry.state === "sent") return gettext("sent: the sheet shows it once the page is updated");
    if (entry.state === "refused") return gettext("not sent: refused");
    return gettext("not sent yet");
  }

  function reasonText(entry) {
    if (entry.reason) return entry.reason;
    if (entry.status === 404) return gettext("This pulka cannot be found any more: the deal was not sent.");
    if (entry.status === 410) return gettext("This table has ended, so the deal was not sent: tell a secretary of the club.");
    return interpolate(
      gettext("The server did not take this deal (error %s): check that you are still signed in, then send it again."),
      [entry.status || "?"]
    );
  }

  function button(cls, label, kind) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = cls + " " + kind;
    b.textContent = label;
    return b;
  }

  function row(entry) {
    const item = document.createElement("li");
    item.className = "deal pending";
    item.dataset.number = String(entry.number);
    item.dataset.state = entry.state;
    item.dataset.key = entry.key;
    const head = document.createElement("div");
    head.className = "deal-head";
    const no = document.createElement("span");
    no.className = "deal-no";
    no.textContent = entry.number + ".";
    const text = document.createElement("span");
    text.className = "deal-text";
    text.textContent = entry.summary;
    const state = document.createElement("span");
    state.className = "badge pending-state";
    state.textContent = stateText(entry);
    head.append(no, " ", text, " ", state);
    item.append(head);
    if (entry.state === "refused") {
      const reason = document.createElement("p");
      reason.className = "pending-reason";
      reason.setAttribute("role", "alert");
      reason.textContent = reasonText(entry);
      const actions = document.createElement("div");
      actions.className = "row pending-actions no-print";
      actions.append(
        button("pending-correct", gettext("Correct"), "secondary"),
        button("pending-retry", gettext("Send again"), "secondary"),
        button("pending-discard", gettext("Discard"), "danger")
      );
      item.append(reason, actions);
      if (correcting === entry.key) {
        const note = document.createElement("p");
        note.className = "small muted";
        note.textContent = gettext("Being corrected in the form: record it to send it.");
        item.append(note);
      }
    }
    return item;
  }

  function showBanner(unsent) {
    const count = box.querySelector(".offline-count");
    const text = interpolate(
      ngettext("%s deal waiting to be sent.", "%s deals waiting to be sent.", unsent.length),
      [unsent.length]
    );
    if (count.textContent !== text) count.textContent = text;
    box.hidden = unsent.length === 0;
  }

  // The form of the next deal goes on after the sheet's deals and the queue's.
  function placeForm(recorded) {
    const form = entryForm();
    if (!form || correcting) return;
    const number = Number((field(form, "number") || {}).value || 0);
    const key = (field(form, "entry_key") || {}).value;
    const pageNext = Math.max(number, recorded.length ? Math.max.apply(null, recorded) + 1 : 1);
    const queued = entries.filter(function (entry) {
      return core.isUnsent(entry) || entry.number >= pageNext;
    });
    const want = core.nextNumber(pageNext, queued);
    const used = entries.some(function (entry) {
      return entry.key === key;
    });
    if (want === number && !used) return;
    const last = queued.reduce(function (latest, entry) {
      return !latest || entry.number > latest.number ? entry : latest;
    }, null);
    const n = playerCount(form);
    const dealer = last ? (last.dealer + 1) % n : Number(field(form, "rotation_dealer").value);
    entryForms.reset(form, {number: want, key: uuid(), dealer: dealer});
  }

  // One drawing at a time (polls, swaps, other tabs and the sender all ask for one): a call
  // while one runs asks for one more after it, so the last state is always drawn, once.
  let drawing = null;
  let drawAgain = false;

  function render() {
    if (drawing) {
      drawAgain = true;
      return drawing;
    }
    drawing = (async function () {
      do {
        drawAgain = false;
        await draw();
      } while (drawAgain);
    })().finally(function () {
      drawing = null;
    });
    return drawing;
  }

  async function draw() {
    const now = Date.now();
    const list = await store.list(pulka);
    // The device can keep deals (IndexedDB opened): errors.js leaves a lost entry to us.
    box.dataset.store = "ready";
    entries = [];
    for (const entry of list) {
      // A deal sent is remembered a while, with its key: a copy of this page kept from
      // before it (a reload offline) must not offer that key again, nor its number.
      if (entry.state === "sent" && now - (entry.sentAt || 0) > KEEP_SENT_MS) {
        await store.remove(entry.key);
      } else {
        entries.push(entry);
      }
    }
    const recorded = recordedNumbers();
    const last = recorded.length ? Math.max.apply(null, recorded) : 0;
    // A deal sent that the log shows needs no row of its own.
    const shown = entries.filter(function (entry) {
      return entry.state !== "sent" || (entry.recorded || entry.number) > last;
    });
    const unsent = entries.filter(core.isUnsent);
    showBanner(unsent);
    const log = document.getElementById(logId);
    // Redrawn only when it changed (every poll of the board settles here): a refused row's
    // alert is announced once, not every few seconds.
    const drawn = shown.map(function (entry) {
      return [entry.key, entry.state, entry.number, entry.summary, entry.reason, correcting === entry.key].join("|");
    }).join("\n");
    if (log && (log.dataset.pending !== drawn || log.querySelectorAll("li.pending").length !== shown.length)) {
      log.querySelectorAll("li.pending").forEach(function (item) {
        item.remove();
      });
      // The log is newest first: the deals waiting go on top, the latest first (each one
      // put on top of the ones before it).
      shown.forEach(function (entry) {
        log.insertBefore(row(entry), log.firstChild);
      });
      log.dataset.pending = drawn;
    } else if (log && log.firstElementChild && !log.firstElementChild.matches("li.pending") && shown.length) {
      // A new deal from the server went on top: the waiting ones belong above it.
      Array.from(log.querySelectorAll("li.pending")).reverse().forEach(function (item) {
        log.insertBefore(item, log.firstChild);
      });
    }
    placeForm(recorded);
    if (unsent.some(function (entry) {
      return entry.state === "waiting" || entry.state === "sending";
    })) {
      scheduleRetry();
    }
  }

  function changed() {
    core.notify(pulka);
    return render();
  }

  // -- keeping a deal ------------------------------------------------------------------------

  async function keep(form, formPairs, opts) {
    const options = opts || {};
    const key = valueOf(formPairs, "entry_key") || uuid();
    const number = Number(valueOf(formPairs, "number"));
    const dealer = entryForms.dealerOf(form);
    const summary = entryForms.summary(form);
    const all = await store.list(pulka);
    const before = all.find(function (entry) {
      return entry.key === key;
    });
    const entry = before || {key: key, pulka: pulka, url: createUrl, seq: Date.now()};
    Object.assign(entry, {
      number: number,
      form: formPairs.filter(function (p) {
        return p[0] !== "number" && p[0] !== "entry_key";
      }),
      summary: summary,
      dealer: dealer,
      state: "waiting",
      reason: "",
      status: 0,
    });
    if (before && before.state === "refused") {
      // Corrected: it goes where the server's sheet now goes on, and so do those behind it.
      entry.number = before.next || before.number;
    }
    await store.put(entry);
    if (before) {
      for (const one of core.renumber(await store.list(pulka), entry.number)) await store.put(one);
    }
    correcting = null;
    const n = playerCount(form);
    const list = await store.list(pulka);
    const next = core.nextNumber(entry.number + 1, list.filter(core.isUnsent));
    entryForms.reset(form, {number: next, key: uuid(), dealer: (dealer + 1) % n});
    await changed();
    askSync();
    if (!options.quiet && navigator.onLine) flush();
  }

  function askSync() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.sync) return registration.sync.register(core.SYNC_TAG + ":" + box.dataset.account);
      return null;
    }).catch(function () {});
  }

  function queueActive() {
    return correcting !== null || entries.some(core.isUnsent);
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    const detail = event.detail;
    const form = entryForm();
    const verb = ((detail.requestConfig && detail.requestConfig.verb) || "").toLowerCase();
    if (!form || detail.elt !== form || verb !== "post") return;
    if (box.dataset.store !== "ready") return; // nowhere to keep it: the form says what failed
    if (navigator.onLine && !queueActive()) {
      stash.set(detail.xhr, {
        pairs: pairs(form),
        summary: entryForms.summary(form),
        dealer: entryForms.dealerOf(form),
      });
      return;
    }
    // Offline, or deals are waiting: this one waits behind them, in order.
    event.preventDefault();
    if (!entryForms.check(form)) return;
    keep(form, pairs(form));
  });

  // A post that got no answer: its deal is kept, with the key it was sent with (if the server
  // did record it, sending it again is answered "already recorded").
  function lost(event) {
    const detail = event.detail;
    const kept = detail.xhr && stash.get(detail.xhr);
    const form = entryForm();
    if (!kept || !form) return;
    if (event.type === "htmx:responseError" && detail.xhr.status < 500) return;
    stash.delete(detail.xhr);
    keep(form, kept.pairs, {quiet: true}).then(function () {
      scheduleRetry();
    });
  }

  document.addEventListener("htmx:sendError", lost);
  document.addEventListener("htmx:timeout", lost);
  document.addEventListener("htmx:responseError", lost);

  document.addEventListener("htmx:afterRequest", function (event) {
    const detail = event.detail;
    const sent = stash.get(detail.xhr);
    if (!detail.successful || !sent) return;
    stash.delete(detail.xhr);
    const number = Number(detail.xhr.getResponseHeader(core.RECORDED_HEADER));
    if (number) {
      // Its key is used: remembered, so that no copy of the page from before offers it again.
      const key = valueOf(sent.pairs, "entry_key");
      if (key) {
        store.put({
          key: key, pulka: pulka, url: createUrl, seq: Date.now(), number: number,
          recorded: number, form: [], summary: sent.summary, dealer: sent.dealer,
          state: "sent", sentAt: Date.now(),
        }).then(render);
      }
    }
    keepPageSoon();
  });

  // Every swap (a new deal, the live board, a correction) may redraw the log: put the rows back.
  document.addEventListener("htmx:afterSettle", function () {
    render();
  });

  // -- sending -------------------------------------------------------------------------------

  function scheduleRetry() {
    if (retryTimer) return;
    const wait = RETRY_MS[Math.min(retries, RETRY_MS.length - 1)];
    retries += 1;
    retryTimer = window.setTimeout(function () {
      retryTimer = null;
      flush();
    }, wait);
  }

  async function flush() {
    if (flushing) return;
    flushing = true;
    let result;
    try {
      result = await core.withLock(navigator.locks, function () {
        return core.flush(store, pulka, function (entry) {
          return core.sendEntry(entry, window.fetch.bind(window), csrfToken());
        }, core.notify);
      });
    } finally {
      flushing = false;
    }
    if (result.state === "offline") scheduleRetry();
    else retries = 0;
    await render();
    if (result.sent) keepPageSoon();
  }

  function keepPageSoon() {
    window.clearTimeout(keepTimer);
    keepTimer = window.setTimeout(function () {
      const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
      if (worker) worker.postMessage({type: "keep-page", url: pageUrl});
    }, 300);
  }

  function sendNow() {
    retries = 0;
    window.clearTimeout(retryTimer);
    retryTimer = null;
    flush();
  }

  window.addEventListener("online", sendNow);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") sendNow();
  });

  // -- a refused deal: correct, send again or discard -----------------------------------------

  document.addEventListener("click", async function (event) {
    const target = event.target.closest("button");
    if (!target) return;
    if (target.matches(".queue-send")) return sendNow();
    const item = target.closest("li.pending");
    if (!item) return;
    const entry = entries.find(function (one) {
      return one.key === item.dataset.key;
    });
    if (!entry) return;
    if (target.matches(".pending-discard")) {
      await store.remove(entry.key);
      if (correcting === entry.key) correcting = null;
      const list = await store.list(pulka);
      for (const one of core.renumber(list, entry.next || entry.number)) await store.put(one);
      await changed();
      sendNow();
    } else if (target.matches(".pending-retry")) {
      entry.state = "waiting";
      await store.put(entry);
      await changed();
      sendNow();
    } else if (target.matches(".pending-correct")) {
      const form = entryForm();
      if (!form) return;
      correcting = entry.key;
      entryForms.reset(form, {
        number: entry.next || entry.number,
        key: entry.key,
        dealer: entry.dealer,
      });
      load(form, entry.form);
      await render();
      form.scrollIntoView({block: "start"});
      const first = form.querySelector("input:not([type=hidden]), select");
      if (first) first.focus();
    }
  });

  // The kept form back into the entry form: the choices first (they shape it), then the rest.
  function load(form, formPairs) {
    for (let pass = 0; pass < 2; pass += 1) {
      formPairs.forEach(function (pair) {
        const name = pair[0];
        const value = pair[1];
        if (name === "csrfmiddlewaretoken" || name === "number" || name === "entry_key") return;
        form.querySelectorAll("[name='" + name + "']").forEach(function (input) {
          if (input.type === "radio" || input.type === "checkbox") input.checked = input.value === value;
          else input.value = value;
        });
      });
      entryForms.reshape(form);
    }
  }

  if (window.BroadcastChannel) {
    const channel = new BroadcastChannel(core.CHANNEL);
    channel.onmessage = function (event) {
      if (event.data && event.data.pulka === pulka) render();
    };
  }

  // The keys remembered for every pulka of this device are forgotten after a while too, not
  // only this one's: the device keeps no more than the last hours' deals.
  store.all().then(function (all) {
    const old = Date.now() - KEEP_SENT_MS;
    return Promise.all(all.filter(function (entry) {
      return entry.state === "sent" && (entry.sentAt || 0) < old;
    }).map(function (entry) {
      return store.remove(entry.key);
    }));
  }).catch(function () {});

  render().then(function () {
    if (navigator.onLine && entries.some(core.isUnsent)) flush();
  });
  if (navigator.onLine) keepPageSoon();
})();
