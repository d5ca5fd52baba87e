// The device's queue of deals (static/js/offline-core.js), under Node's own test runner:
// `node --test tests/js/` (make test runs it). No browser, no server: the store is in memory
// and the server is a function that answers as scoring.views.deal_create does.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const core = require("../../static/js/offline-core.js");

function entry(number, extra) {
  return Object.assign(
    {
      key: "key-" + number,
      pulka: "7",
      url: "/c/club/pulkas/7/deals/",
      number: number,
      seq: number,
      form: [["kind", "raspasy"], ["csrfmiddlewaretoken", "t"]],
      summary: "raspasy",
      dealer: 0,
      state: "waiting",
    },
    extra || {}
  );
}

// The queue's store as offline-core.js's openStore() gives it over IndexedDB, in memory: each
// read is a copy, listed in the order the deals were kept (seq).
function memoryStore() {
  const rows = new Map();
  const copy = (one) => JSON.parse(JSON.stringify(one));
  const bySeq = (list) => list.slice().sort((a, b) => a.seq - b.seq);
  return {
    list: async (pulka) => bySeq([...rows.values()].filter((one) => one.pulka === String(pulka)).map(copy)),
    all: async () => bySeq([...rows.values()].map(copy)),
    put: async (one) => {
      rows.set(one.key, copy(one));
    },
    remove: async (key) => {
      rows.delete(key);
    },
  };
}

async function storeWith(entries) {
  const store = memoryStore();
  for (const one of entries) await store.put(one);
  return store;
}

// A server that records deals in order, remembers keys, and can be told to refuse a number.
function server(options) {
  const opts = options || {};
  const recorded = [];
  const keys = new Map();
  const sent = [];
  const send = async function (one) {
    sent.push({key: one.key, number: one.number});
    if (opts.down) return {kind: "retry"};
    if (keys.has(one.key)) return core.outcome(200, {outcome: "already", number: keys.get(one.key)});
    if (opts.refuse && opts.refuse(one)) {
      return core.outcome(409, {outcome: "refused", message: "Deal 3 was just recorded by Olha: check it.", next: recorded.length + 2});
    }
    if (one.number !== recorded.length + 1) {
      return core.outcome(409, {outcome: "refused", message: "wrong number", next: recorded.length + 1});
    }
    recorded.push(one.key);
    keys.set(one.key, one.number);
    return core.outcome(200, {outcome: "recorded", number: one.number});
  };
  return {send: send, recorded: recorded, sent: sent, keys: keys};
}

test("the queue is sent in order, one deal at a time, each with its own key", async function () {
  const store = await storeWith([entry(3, {seq: 30}), entry(1, {seq: 10}), entry(2, {seq: 20})]);
  const srv = server();
  const result = await core.flush(store, "7", srv.send);
  assert.equal(result.state, "empty");
  assert.equal(result.sent, 3);
  assert.deepEqual(srv.sent, [
    {key: "key-1", number: 1},
    {key: "key-2", number: 2},
    {key: "key-3", number: 3},
  ]);
  const left = await store.list("7");
  assert.deepEqual(left.map((e) => e.state), ["sent", "sent", "sent"]);
});

test("a deal the server already has counts as sent and the queue goes on", async function () {
  const store = await storeWith([entry(1), entry(2)]);
  const srv = server();
  srv.keys.set("key-1", 1); // its answer was lost on the way back
  srv.recorded.push("key-1");
  const result = await core.flush(store, "7", srv.send);
  assert.equal(result.state, "empty");
  assert.equal(result.sent, 2);
  assert.deepEqual(srv.recorded, ["key-1", "key-2"]);
});

test("a refusal stops the queue at its deal: nothing behind it is sent", async function () {
  const store = await storeWith([entry(1), entry(2), entry(3), entry(4)]);
  const srv = server({refuse: (one) => one.number === 2});
  const result = await core.flush(store, "7", srv.send);
  assert.equal(result.state, "stopped");
  assert.equal(result.entry.key, "key-2");
  assert.deepEqual(srv.sent.map((s) => s.number), [1, 2]);
  const states = (await store.list("7")).map((e) => [e.number, e.state]);
  assert.deepEqual(states, [[1, "sent"], [2, "refused"], [3, "waiting"], [4, "waiting"]]);
  const refused = (await store.list("7"))[1];
  assert.match(refused.reason, /just recorded by Olha/);
  // Flushed again, it still stops there: the person corrects or discards it first.
  const again = await core.flush(store, "7", srv.send);
  assert.equal(again.state, "stopped");
  assert.equal(srv.sent.length, 2);
});

test("without the server the queue stops, keeps every deal and tries the same one later", async function () {
  const store = await storeWith([entry(1), entry(2)]);
  const down = server({down: true});
  const result = await core.flush(store, "7", down.send);
  assert.equal(result.state, "offline");
  assert.deepEqual((await store.list("7")).map((e) => e.state), ["waiting", "waiting"]);
  const up = server();
  await core.flush(store, "7", up.send);
  assert.deepEqual(up.sent.map((s) => s.key), ["key-1", "key-2"]);
});

test("a send that throws is a lost connection, not a refusal", async function () {
  const store = await storeWith([entry(1)]);
  const result = await core.flush(store, "7", async function () {
    throw new TypeError("Failed to fetch");
  });
  assert.equal(result.state, "offline");
  assert.equal((await store.list("7"))[0].state, "waiting");
});

test("a deal left sending by a tab that died is sent again with the same key", async function () {
  const store = await storeWith([entry(1, {state: "sending"})]);
  const srv = server();
  srv.keys.set("key-1", 1);
  srv.recorded.push("key-1");
  const result = await core.flush(store, "7", srv.send);
  assert.equal(result.state, "empty");
  assert.deepEqual(srv.recorded, ["key-1"]);
});

test("only this pulka's queue is sent", async function () {
  const store = await storeWith([entry(1), entry(1, {key: "other", pulka: "8"})]);
  const srv = server();
  await core.flush(store, "7", srv.send);
  assert.deepEqual(srv.sent.map((s) => s.key), ["key-1"]);
  assert.equal((await store.list("8"))[0].state, "waiting");
});

test("two senders at once under one lock never send a deal twice", async function () {
  const store = await storeWith([entry(1), entry(2), entry(3)]);
  const srv = server();
  let held = Promise.resolve();
  const locks = {
    request: function (name, fn) {
      const run = held.then(fn);
      held = run.catch(function () {});
      return run;
    },
  };
  const slow = async function (one) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return srv.send(one);
  };
  await Promise.all([
    core.withLock(locks, () => core.flush(store, "7", slow)),
    core.withLock(locks, () => core.flush(store, "7", slow)),
  ]);
  assert.deepEqual(srv.sent.map((s) => s.key), ["key-1", "key-2", "key-3"]);
});

test("the answers are read as the server means them", function () {
  assert.equal(core.outcome(200, {outcome: "recorded", number: 4}).kind, "sent");
  assert.equal(core.outcome(200, {outcome: "already", number: 4}).already, true);
  assert.equal(core.outcome(409, {outcome: "refused", message: "x", next: 5}).next, 5);
  assert.equal(core.outcome(502, null).kind, "retry"); // the proxy: the server is down
  assert.equal(core.outcome(503, null).kind, "retry");
  assert.equal(core.outcome(0, null).kind, "retry");
  assert.equal(core.outcome(429, null).kind, "retry");
  const forbidden = core.outcome(403, null); // signed out, or the role was taken away
  assert.equal(forbidden.kind, "refused");
  assert.equal(forbidden.status, 403);
});

test("after a refused deal, the ones behind it go on from the server's number", function () {
  const entries = [entry(8, {state: "refused"}), entry(9), entry(10), entry(7, {state: "sent", seq: 1})];
  const changed = core.renumber(entries, 9);
  assert.deepEqual(entries.map((e) => e.number), [9, 10, 11, 7]);
  assert.equal(changed.length, 3);
  assert.equal(core.nextNumber(9, entries.filter(core.isUnsent)), 12);
});

test("sendEntry posts the form with its number and key and asks for the queue's answer", async function () {
  const calls = [];
  const fakeFetch = async function (url, init) {
    calls.push({url: url, init: init});
    return {
      status: 200,
      redirected: false,
      headers: {get: () => "application/json"},
      json: async () => ({outcome: "recorded", number: 5}),
    };
  };
  const answer = await core.sendEntry(entry(5), fakeFetch, "fresh-token");
  assert.equal(answer.kind, "sent");
  const body = calls[0].init.body;
  assert.equal(body.get("number"), "5");
  assert.equal(body.get("entry_key"), "key-5");
  assert.equal(body.get("csrfmiddlewaretoken"), "fresh-token");
  assert.equal(calls[0].init.headers[core.QUEUE_HEADER], "1");
  assert.equal(calls[0].init.headers["X-CSRFToken"], "fresh-token");
});

test("a sign-in page instead of the answer is a refusal, not a success", async function () {
  const fakeFetch = async () => ({
    status: 200,
    redirected: true,
    headers: {get: () => "text/html"},
  });
  const answer = await core.sendEntry(entry(1), fakeFetch, null);
  assert.equal(answer.kind, "refused");
});

test("the worker answers static files and pages itself, and leaves posts alone", function () {
  const origin = "https://pulka.example.org";
  const req = (path, extra) => Object.assign({url: origin + path, method: "GET", mode: "cors"}, extra || {});
  assert.equal(core.route(req("/static/js/errors.js"), origin, "/static/"), "static");
  assert.equal(core.route(req("/c/club/pulkas/7/", {mode: "navigate"}), origin, "/static/"), "page");
  assert.equal(core.route(req("/jsi18n/uk/"), origin, "/static/"), "catalog");
  assert.equal(core.route(req("/c/club/pulkas/7/deals/", {method: "POST"}), origin, "/static/"), "network");
  assert.equal(core.route(req("/accounts/logout/", {method: "POST"}), origin, "/static/"), "logout");
  assert.equal(core.route(req("/c/club/pulkas/7/live/"), origin, "/static/"), "network");
  assert.equal(core.route({url: "https://elsewhere.example/x", method: "GET", mode: "navigate"}, origin, "/static/"), "network");
});

test("the worker drops the shell caches of its older versions only", function () {
  assert.equal(core.isOldCache("pulka-shell-old", "new"), true);
  assert.equal(core.isOldCache("pulka-shell-new", "new"), false);
  assert.equal(core.isOldCache("pulka-pages", "new"), false);
});

test("Background Sync sends the queues of the account that asked, every pulka of it", async function () {
  const store = await storeWith([
    entry(1, {key: "a7", pulka: "5:7"}),
    entry(1, {key: "a8", pulka: "5:8"}),
    entry(1, {key: "b7", pulka: "6:7"}),
  ]);
  const posted = [];
  const fakeFetch = async function (url, init) {
    posted.push(init.body.get("entry_key"));
    return {
      status: 200,
      redirected: false,
      headers: {get: () => "application/json"},
      json: async () => ({outcome: "recorded", number: 1}),
    };
  };
  await core.flushAll(store, fakeFetch, null, null, "5");
  assert.deepEqual(posted.sort(), ["a7", "a8"]);
  assert.equal((await store.list("6:7"))[0].state, "waiting");
});

test("the worker keeps pages of its own site only", function () {
  const origin = "https://pulka.example.org";
  assert.equal(core.sameOrigin("/c/club/pulkas/7/", origin), true);
  assert.equal(core.sameOrigin(origin + "/c/club/pulkas/7/", origin), true);
  assert.equal(core.sameOrigin("https://elsewhere.example/x", origin), false);
  assert.equal(core.sameOrigin("//elsewhere.example/x", origin), false);
});
