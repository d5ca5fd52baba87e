// static/js/entry-form.js shape(): the new deal's form on the device takes the shape the
// server gives it (scoring/forms.py DealForm._shape()). Run: node --test tests/js/
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { shape, validate, summaryOf } = require("../../static/js/entry-form.js");

const SOCHI = { players: 3, halfWhistLevels: [6, 7], raspasyInWhists: false, quickTricks: true };
const FOUR = { ...SOCHI, players: 4 };
const LENINGRAD = { players: 3, halfWhistLevels: [6], raspasyInWhists: false, quickTricks: false };
const ROSTOV_FOUR = { players: 4, halfWhistLevels: [6, 7], raspasyInWhists: true, quickTricks: false };

test("a fresh form at three: the first hand declares, whist then pass, all three count", () => {
  const s = shape(SOCHI, { dealer: "0", kind: "game" });

  assert.equal(s.firstHand, 1);
  assert.equal(s.declarer, 1);
  assert.deepEqual(s.active, [0, 1, 2]);
  assert.deepEqual(s.defenders, [2, 0]);
  assert.equal(s.played, true);
  assert.deepEqual(s.tricks, [1, 2, 0]);
  assert.equal(s.quickTricks, true);
  assert.equal(s.talonSeat, null);
  assert.equal(s.level, 6);
});

test("at four the dealer neither declares nor defends", () => {
  const s = shape(FOUR, { dealer: 2, kind: "game", declarer: 3 });

  assert.deepEqual(s.active, [0, 1, 3]);
  assert.deepEqual(s.defenders, [0, 1]);
  assert.deepEqual(s.tricks, [3, 0, 1]);
});

test("a declarer who now deals at four falls back to the first hand", () => {
  const s = shape(FOUR, { dealer: 1, kind: "game", declarer: 1 });

  assert.equal(s.declarer, 2);
  assert.deepEqual(s.defenders, [3, 0]);
});

test("pass and pass: nobody plays, no tricks are asked, half-whist offered at six", () => {
  const s = shape(SOCHI, { dealer: 0, kind: "game", declarer: 1, level: "6", calls: { 2: "pass", 0: "pass" } });

  assert.equal(s.played, false);
  assert.deepEqual(s.tricks, []);
  assert.equal(s.halfAllowed, true);
});

test("half-whist is offered after a pass only at the table's levels", () => {
  const calls = { 2: "pass" };
  assert.equal(shape(SOCHI, { dealer: 0, declarer: 1, level: 7, calls }).halfAllowed, true);
  assert.equal(shape(SOCHI, { dealer: 0, declarer: 1, level: 8, calls }).halfAllowed, false);
  assert.equal(shape(LENINGRAD, { dealer: 0, declarer: 1, level: 7, calls }).halfAllowed, false);
  assert.equal(shape(SOCHI, { dealer: 0, declarer: 1, level: 6, calls: { 2: "whist" } }).halfAllowed, false);
});

test("misère asks only the declarer's tricks, and no quick tricks", () => {
  const s = shape(SOCHI, { dealer: 0, kind: "misere", declarer: 2 });

  assert.deepEqual(s.tricks, [2]);
  assert.equal(s.played, false);
  assert.equal(s.quickTricks, false);
});

test("raspasy at four: the dealer's count is the talon's, unless raspasy are in whists", () => {
  const sochi = shape(FOUR, { dealer: 0, kind: "raspasy" });
  const rostov = shape(ROSTOV_FOUR, { dealer: 0, kind: "raspasy" });

  assert.deepEqual(sochi.tricks, [0, 1, 2, 3]);
  assert.equal(sochi.talonSeat, 0);
  assert.deepEqual(rostov.tricks, [1, 2, 3]);
  assert.equal(rostov.talonSeat, null);
});

test("unusable choices fall back as on the server", () => {
  const s = shape(SOCHI, { rotation: "2", dealer: "9", kind: "bridge", declarer: "-1", level: "5" });

  assert.equal(s.dealer, 2);
  assert.equal(s.kind, "game");
  assert.equal(s.declarer, 0);
  assert.equal(s.level, 6);
});

const DATA = {
  rules: SOCHI,
  names: ["Anna", "Boris", "Vera"],
  choices: {
    call: { whist: "whist", pass: "pass", half: "half-whist" },
    suit: [["S", "♠"], ["C", "♣"], ["D", "♦"], ["H", "♥"], ["NT", "NT"]],
  },
  cards: { suits: { S: "S", H: "H" }, ranks: { A: "A", K: "K" }, labels: { AS: "A♠", KH: "K♥" } },
  texts: {
    required: "This field is required.",
    wholeNumber: "Enter a whole number.",
    atMostTen: "Ensure this value is less than or equal to 10.",
    outdated: "out of date",
    enterTricks: "Enter the tricks of %(names)s.",
    tooManyTricks: "%(tricks)s = %(total)s tricks, a deal has %(expected)s",
    notACard: "%(card)s is not a card",
    twoCards: "The talon has exactly two cards.",
    notPlayed: "not played",
    talon: "talon %(cards)s",
  },
};
const GAME = {
  number: "1", entry_key: "k", rotation_dealer: "0", dealer: "0", kind: "game", declarer: "1",
  level: "7", suit: "H", call_2: "whist", call_0: "pass", quick_tricks: "0", talon: "",
};

test("one count left empty takes the rest of the ten", () => {
  const result = validate(DATA, { ...GAME, tricks_1: "7", tricks_2: "2", tricks_0: "" });

  assert.deepEqual(result.deal.tricks, { Boris: 7, Vera: 2, Anna: 1 });
  assert.equal(summaryOf(DATA, result.deal), "Boris 7♥ · Vera whist, Anna pass · 7–2–1");
});

test("too many typed tricks and missing counts are said in the server's words", () => {
  const many = validate(DATA, { ...GAME, tricks_1: "9", tricks_2: "3", tricks_0: "" });
  const missing = validate(DATA, { ...GAME, tricks_1: "7", tricks_2: "", tricks_0: "" });

  assert.deepEqual(many.formErrors, ["9 + 3 = 12 tricks, a deal has 10"]);
  assert.deepEqual(missing.formErrors, ["Enter the tricks of Vera, Anna."]);
  assert.equal(many.deal, null);
});

test("a count out of range and a bad talon are the fields' own errors", () => {
  const result = validate(DATA, { ...GAME, tricks_1: "11", tricks_2: "1.5", tricks_0: "", talon: "AS QQ" });

  assert.deepEqual(result.fieldErrors, [
    ["talon", "QQ is not a card"],
    ["tricks_1", "Ensure this value is less than or equal to 10."],
    ["tricks_2", "Enter a whole number."],
  ]);
});

test("the talon's two cards go with the deal", () => {
  const result = validate(DATA, { ...GAME, tricks_1: "7", tricks_2: "3", tricks_0: "0", talon: "as, kh" });

  assert.deepEqual(result.deal.talon, ["AS", "KH"]);
  assert.equal(summaryOf(DATA, result.deal), "Boris 7♥ · Vera whist, Anna pass · 7–3–0 · talon A♠ K♥");
});
