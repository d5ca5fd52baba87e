// The new deal's form on the device (issue #28). Online, a choice that changes the form's shape
// asks the server for the form again (htmx, the deal-form view); when the server cannot be
// reached, this file reshapes the form here instead, as scoring/forms.py DealForm._shape() and
// scoring.engine.deal_shape would, checks it as DealForm.clean() does, and resets it for the
// next deal (static/js/offline.js keeps the deals in the device's queue). The engine's own
// checks (tricks against the contract) stay on the server.
//
// What it needs comes with the form (templates/scoring/pulka_detail.html, the deal-form
// partial, when the form carries data-offline): the rules, names, choices and words in the
// page's language (DealForm.device_data(), a json_script), and a <template> of the parts the
// form can grow, without field names or values. tests/scoring/test_entry_form_js.py compares
// shape() with DealForm._shape() for every combination of choices.
//
// In the browser it defines window.PulkaEntryForm; under Node (tests/js) it exports the same.
(function (root, factory) {
  "use strict";
  const api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.PulkaEntryForm = api;
    api.listen(root.document);
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // The game's words, as scoring/engine/words.py spells them (the pytest checks they match).
  const GAME = "game";
  const MISERE = "misere";
  const RASPASY = "raspasy";
  const KINDS = [GAME, MISERE, RASPASY];
  const WHIST = "whist";
  const PASS = "pass";
  const HALF = "half";
  const SPADES = "S";
  const LEVELS = [6, 7, 8, 9, 10];
  const WORDS = { GAME, MISERE, RASPASY, KINDS, WHIST, PASS, HALF, SPADES, LEVELS };
  // A count of tricks at most: a player's, and the talon's on raspasy at four.
  const MAX_TRICKS = 10;
  const MAX_TALON_TRICKS = 2;
  // How the server reads a number (club/params.py parse_int): ASCII digits, at most 18.
  const UNSIGNED = /^[0-9]{1,18}$/;

  // -- the form's shape: DealForm._shape() + engine.deal_shape(), seats as indexes -----------

  function seatOf(value, n) {
    if (value === null || value === undefined) return null;
    const text = String(value);
    if (!UNSIGNED.test(text)) return null;
    const seat = Number(text);
    return seat < n ? seat : null;
  }

  function either(value, fallback) {
    return value === null ? fallback : value;
  }

  function seats(n) {
    return Array.from({ length: n }, function (_, i) { return i; });
  }

  // The defenders in speaking order: clockwise from the declarer, without the 4-player dealer
  // (engine.defenders_in_order).
  function defendersInOrder(n, declarer, dealer) {
    const order = [];
    for (let k = 1; k < n; k++) {
      const seat = (declarer + k) % n;
      if (!(n === 4 && seat === dealer)) order.push(seat);
    }
    return order;
  }

  // `choice`: {rotation, dealer, kind, declarer, level, calls} as the form holds them (text or
  // numbers; empty or unusable values fall back as on the server); `calls` maps a seat to its
  // call. `rules`: {players, halfWhistLevels, raspasyInWhists, quickTricks}.
  function shape(rules, choice) {
    const n = rules.players;
    const calls = choice.calls || {};
    const rotation = either(seatOf(choice.rotation, n), 0);
    const dealer = either(seatOf(choice.dealer, n), rotation);
    const firstHand = (dealer + 1) % n;
    const kind = KINDS.indexOf(choice.kind) >= 0 ? choice.kind : GAME;
    const levelText = choice.level === null || choice.level === undefined ? "" : String(choice.level);
    const level = LEVELS.map(String).indexOf(levelText) >= 0 ? Number(levelText) : LEVELS[0];
    const active = seats(n).filter(function (seat) { return !(n === 4 && seat === dealer); });
    let declarer = either(seatOf(choice.declarer, n), firstHand);
    if (active.indexOf(declarer) < 0) declarer = firstHand;
    const defenders = defendersInOrder(n, declarer, dealer);
    const said = defenders.map(function (seat, position) {
      return calls[seat] || (position === 0 ? WHIST : PASS);
    });
    let halfAllowed = false;
    let played = false;
    let quickTricks = false;
    let tricks;
    if (kind === RASPASY) {
      tricks = rules.raspasyInWhists ? active : seats(n);
    } else if (kind === MISERE) {
      tricks = [declarer];
    } else {
      halfAllowed = said[0] === PASS && rules.halfWhistLevels.indexOf(level) >= 0;
      played = said.indexOf(WHIST) >= 0;
      tricks = played ? [declarer].concat(defenders) : [];
      quickTricks = Boolean(rules.quickTricks);
    }
    const talonSeat = kind === RASPASY && n === 4 && tricks.indexOf(dealer) >= 0 ? dealer : null;
    return {
      kind: kind,
      dealer: dealer,
      rotation: rotation,
      firstHand: firstHand,
      active: active,
      declarer: declarer,
      level: level,
      defenders: defenders,
      halfAllowed: halfAllowed,
      played: played,
      tricks: tricks,
      talonSeat: talonSeat,
      quickTricks: quickTricks,
    };
  }

  // -- the words: the server's, with its %(name)s placeholders -----------------------------

  function format(text, params) {
    return text.replace(/%\((\w+)\)s/g, function (whole, name) {
      return name in params ? String(params[name]) : whole;
    });
  }

  // -- a deal as typed: DealForm's field checks and clean(), and deal_summary ---------------

  function countOf(raw, talon, texts) {
    const text = (raw || "").replace(/^[ \t]+|[ \t]+$/g, "");
    if (text === "") return { value: null };
    const limit = talon ? MAX_TALON_TRICKS : MAX_TRICKS;
    if (!UNSIGNED.test(text)) return { error: talon ? texts.talonTricksError : texts.wholeNumber };
    const value = Number(text);
    if (value > limit) return { error: talon ? texts.talonTricksError : texts.atMostTen };
    return { value: value };
  }

  // The talon as typed (scoring/forms.py talon_cards and DealForm.clean_talon).
  function talonOf(raw, cards, texts) {
    const text = (raw || "").trim().toUpperCase().replace(/,/g, " ");
    if (!text.trim()) return { cards: [] };
    const found = [];
    const tokens = text.split(/\s+/).filter(Boolean);
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      const suit = cards.suits[token.slice(-1)];
      const rank = cards.ranks[token.slice(0, -1)];
      if (!suit || !rank) return { error: format(texts.notACard, { card: token }) };
      found.push(rank + suit);
    }
    if (found.length !== 2) return { error: texts.twoCards };
    return { cards: found };
  }

  // `values`: field name -> value (a radio group with nothing chosen: null; a field the form
  // does not show: absent). Returns {shape, deal (pulka/1, or null), fieldErrors: [[name,
  // message]], formErrors: [message]}, in the order and words of DealForm's validation.
  function validate(data, values) {
    const texts = data.texts;
    const names = data.names;
    const n = names.length;
    const s = shape(data.rules, choicesOf(values, n));
    const result = { shape: s, deal: null, fieldErrors: [], formErrors: [] };
    const fieldError = function (name, message) { result.fieldErrors.push([name, message]); };
    if (!values.kind) fieldError("kind", texts.required);
    let talon = { cards: [] };
    if ("talon" in values) {
      talon = talonOf(values.talon, data.cards, texts);
      if (talon.error) fieldError("talon", talon.error);
    }
    if (seatOf(values.dealer, n) === null) fieldError("dealer", texts.required);
    const counts = {};
    seats(n).forEach(function (seat) {
      const name = "tricks_" + seat;
      if (!(name in values)) return;
      const count = countOf(values[name], seat === s.talonSeat, texts);
      if (count.error) fieldError(name, count.error);
      counts[seat] = count.value;
    });
    if (result.fieldErrors.length) return result;
    if (!values.number || !values.entry_key) {
      result.formErrors.push(texts.outdated);
      return result;
    }
    const kind = values.kind;
    const deal = { kind: kind };
    if (kind !== RASPASY) {
      const declarer = seatOf(values.declarer, n);
      if (declarer === null || s.active.indexOf(declarer) < 0) {
        fieldError("declarer", texts.chooseDeclarer);
        return result;
      }
      deal.declarer = names[declarer];
    }
    if (kind === GAME) {
      if (!values.level || !values.suit) {
        fieldError("level", texts.chooseContract);
        return result;
      }
      deal.contract = values.level + values.suit;
      const calls = {};
      for (let i = 0; i < s.defenders.length; i++) {
        const seat = s.defenders[i];
        const call = values["call_" + seat];
        if (!call) {
          fieldError("call_" + seat, format(texts.whistOrPass, { name: names[seat] }));
          return result;
        }
        calls[names[seat]] = call;
      }
      deal.calls = calls;
      const quick = Number(values.quick_tricks || 0);
      if (!s.quickTricks) {
        // the talon's quick tricks do not count at this table
      } else if (talon.cards.length) {
        deal.talon = talon.cards;
      } else if (quick) {
        deal.quick_tricks = quick;
      }
    }
    if (s.tricks.length) {
      const tricks = new Map(s.tricks.map(function (seat) {
        return [seat, counts[seat] === undefined ? null : counts[seat]];
      }));
      if (s.talonSeat !== null && tricks.get(s.talonSeat) === null) tricks.set(s.talonSeat, 0);
      const entries = function () { return Array.from(tricks.entries()); };
      const blank = entries().filter(function (e) { return e[1] === null; });
      if (kind === MISERE && blank.length) {
        tricks.set(blank[0][0], 0);
      } else if (blank.length === 1 && tricks.size > 1) {
        // One count left empty takes the rest of the ten tricks.
        const typed = entries().filter(function (e) { return e[1] !== null; });
        const total = typed.reduce(function (sum, e) { return sum + e[1]; }, 0);
        if (total > 10) {
          result.formErrors.push(format(texts.tooManyTricks, {
            tricks: typed.map(function (e) { return e[1]; }).join(" + "),
            total: total,
            expected: 10,
          }));
          return result;
        }
        tricks.set(blank[0][0], 10 - total);
      }
      const missing = entries().filter(function (e) { return e[1] === null; });
      if (missing.length) {
        const who = missing.map(function (e) { return names[e[0]]; }).join(", ");
        result.formErrors.push(format(texts.enterTricks, { names: who }));
        return result;
      }
      deal.tricks = {};
      entries().forEach(function (e) { deal.tricks[names[e[0]]] = e[1]; });
    }
    deal.dealer = names[s.dealer];
    result.deal = deal;
    return result;
  }

  // A deal (pulka/1) in a line, as the deal_summary template filter writes it.
  function summaryOf(data, deal) {
    const texts = data.texts;
    let order = data.names.slice();
    const declarer = deal.declarer;
    if (order.indexOf(declarer) >= 0) {
      const start = order.indexOf(declarer);
      order = order.slice(start).concat(order.slice(0, start));
    }
    const inOrder = function (mapping) {
      const known = order.filter(function (name) { return name in mapping; });
      const other = Object.keys(mapping).filter(function (name) { return order.indexOf(name) < 0; });
      return known.concat(other).map(function (name) { return [name, mapping[name]]; });
    };
    const tricks = inOrder(deal.tricks || {});
    if (deal.kind === RASPASY) {
      const counts = tricks.map(function (e) { return e[0] + " " + e[1]; }).join(", ");
      return format(texts.raspasy, { tricks: counts });
    }
    if (deal.kind === MISERE) {
      const taken = tricks.length ? tricks[0][1] : 0;
      if (taken) return format(texts.misereTaken, { declarer: declarer, tricks: texts.tricks[taken] });
      return format(texts.misereClean, { declarer: declarer });
    }
    const words = data.choices.call;
    const calls = inOrder(deal.calls || {}).map(function (e) { return e[0] + " " + words[e[1]]; });
    const level = String(parseInt(deal.contract, 10));
    const suit = deal.contract.slice(level.length);
    const suits = {};
    data.choices.suit.forEach(function (choice) { suits[choice[0]] = choice[1]; });
    let text = declarer + " " + level + (suits[suit] || texts.noTrump) + " · " + calls.join(", ");
    if (tricks.length) {
      text += " · " + tricks.map(function (e) { return e[1]; }).join("–");
    } else {
      text += " · " + texts.notPlayed;
    }
    if (deal.talon) {
      const cards = deal.talon.map(function (card) { return data.cards.labels[card]; }).join(" ");
      text += " · " + format(texts.talon, { cards: cards });
    } else if (deal.quick_tricks) {
      text += " · " + format(texts.quickTricks, { n: deal.quick_tricks });
    }
    return text;
  }

  // -- the form in the page -----------------------------------------------------------------

  // Drawn once per page, outside the form (pulka_detail.html#deal-form-device): what the form
  // needs to take any shape on the device. Read once: it is the same for every deal.
  let device = null;

  function deviceData() {
    if (!device) device = JSON.parse(document.getElementById("deal-form-device").textContent);
    return device;
  }

  // The hx- attributes by which a choice asks the server for the form's shape: the prototypes
  // take them from the form's own first choice (the kind, always there).
  const REFRESH = ["hx-get", "hx-trigger", "hx-target", "hx-swap", "hx-include", "hx-sync"];

  function refreshFrom(form, node) {
    const model = form.querySelector("[hx-get]");
    const marked = Array.from(node.querySelectorAll("[data-refresh]"));
    if (node.hasAttribute("data-refresh")) marked.push(node);
    marked.forEach(function (element) {
      element.removeAttribute("data-refresh");
      if (!model) return;
      REFRESH.forEach(function (name) {
        if (model.hasAttribute(name)) element.setAttribute(name, model.getAttribute(name));
      });
    });
    return node;
  }

  function valuesOf(form) {
    const values = {};
    Array.prototype.forEach.call(form.elements, function (element) {
      const name = element.name;
      if (!name || element.tagName === "FIELDSET" || element.tagName === "BUTTON") return;
      if (element.type === "radio") {
        if (!(name in values)) values[name] = null;
        if (element.checked) values[name] = element.value;
      } else {
        values[name] = element.value;
      }
    });
    return values;
  }

  function choicesOf(values, n) {
    const calls = {};
    seats(n).forEach(function (seat) { calls[seat] = values["call_" + seat]; });
    return {
      rotation: values.rotation_dealer,
      dealer: values.dealer,
      kind: values.kind,
      declarer: values.declarer,
      level: values.level,
      calls: calls,
    };
  }

  function proto(form, name, variant) {
    const selector = "[data-proto='" + name + "']" + (variant ? "[data-variant='" + variant + "']" : "");
    const node = document.getElementById("deal-form-parts").content.querySelector(selector);
    const copy = node.cloneNode(true);
    copy.removeAttribute("data-proto");
    return refreshFrom(form, copy);
  }

  // The value a field keeps: the one chosen or typed, if the field offers it still.
  function kept(values, name, allowed, fallback) {
    const value = values[name];
    if (value === null || value === undefined) return fallback;
    return allowed === null || allowed.indexOf(value) >= 0 ? value : fallback;
  }

  // A radio group as the `radios` template tag writes it (scoring/templatetags/pulka.py).
  function fillRadios(box, name, choices, checked) {
    const doc = box.ownerDocument;
    box.textContent = "";
    box.removeAttribute("data-radios");
    choices.forEach(function (choice) {
      const value = String(choice[0]);
      const ident = "id_" + name + "_" + value;
      const label = doc.createElement("label");
      label.htmlFor = ident;
      const input = doc.createElement("input");
      input.type = "radio";
      input.name = name;
      input.value = value;
      input.id = ident;
      if (value === checked) {
        input.checked = true;
        input.setAttribute("checked", "");
      }
      label.append(input, " " + choice[1]);
      box.append(label);
    });
  }

  function choiceValues(choices) {
    return choices.map(function (choice) { return String(choice[0]); });
  }

  // The parts of the form for shape `s`, in the server's order, each built afresh with the
  // values that still apply.
  function partsFor(form, data, s, values) {
    const names = data.names;
    const choices = data.choices;
    const parts = [];
    const part = function (key, node) {
      node.dataset.part = key;
      parts.push(node);
      return node;
    };
    if (s.kind !== RASPASY) {
      const node = part("declarer", proto(form, "declarer"));
      const options = s.active.map(function (seat) { return [seat, names[seat]]; });
      fillRadios(node.querySelector(".radios"), "declarer", options, String(s.declarer));
    }
    if (s.kind === GAME) {
      const node = part("contract", proto(form, "contract"));
      const level = kept(values, "level", choiceValues(choices.level), String(LEVELS[0]));
      const suit = kept(values, "suit", choiceValues(choices.suit), SPADES);
      fillRadios(node.querySelector("[data-radios='level']"), "level", choices.level, level);
      fillRadios(node.querySelector("[data-radios='suit']"), "suit", choices.suit, suit);
      s.defenders.forEach(function (seat, position) {
        const name = "call_" + seat;
        const calls = position === 1 && s.halfAllowed ? [WHIST, PASS, HALF] : [WHIST, PASS];
        const call = part(name, proto(form, "call"));
        call.querySelector("legend").textContent = names[seat];
        const checked = kept(values, name, calls, position === 0 ? WHIST : PASS);
        const options = calls.map(function (c) { return [c, choices.call[c]]; });
        fillRadios(call.querySelector(".radios"), name, options, checked);
      });
    }
    if (s.tricks.length) {
      const node = part("tricks", proto(form, "tricks", s.kind === MISERE ? "misere" : "count"));
      const box = node.querySelector(".fields");
      s.tricks.forEach(function (seat) {
        const name = "tricks_" + seat;
        const talon = seat === s.talonSeat;
        const label = proto(form, "trick");
        const input = label.querySelector("input");
        label.htmlFor = "id_" + name;
        input.name = name;
        input.id = "id_" + name;
        input.max = String(talon ? MAX_TALON_TRICKS : MAX_TRICKS);
        // The talon's count appears at 0, as on a new form.
        input.value = name in values ? values[name] : talon ? "0" : "";
        label.insertBefore(label.ownerDocument.createTextNode(
          (talon ? data.texts.talonTricks : names[seat]) + " "), input);
        box.append(label);
      });
    }
    if (s.quickTricks) {
      const node = part("talon", proto(form, "talon"));
      const quick = kept(values, "quick_tricks", choiceValues(choices.quick_tricks), "0");
      fillRadios(node.querySelector("[data-radios='quick_tricks']"), "quick_tricks",
        choices.quick_tricks, quick);
      const input = node.querySelector("[data-name='talon']");
      input.removeAttribute("data-name");
      input.name = "talon";
      input.id = "id_talon";
      input.value = values.talon || "";
    }
    return parts;
  }

  // What makes two parts the same: their fields (names, choices, bounds) and legend.
  function signature(node) {
    const fields = Array.prototype.map.call(node.querySelectorAll("input"), function (input) {
      return [input.name, input.type === "radio" ? input.value : "", input.max || ""].join(":");
    });
    return [node.dataset.part, node.dataset.variant || "", fields.join(",")].join("|");
  }

  // Rebuild the parts of the form that depend on the choices, keeping the parts that stay the
  // same (their values, and the focus, stay put).
  function reshape(form) {
    const data = deviceData(form);
    const values = valuesOf(form);
    const s = shape(data.rules, choicesOf(values, data.names.length));
    const existing = Array.from(form.querySelectorAll("[data-part]"));
    const used = new Set();
    const added = [];
    const wanted = partsFor(form, data, s, values).map(function (node) {
      const same = existing.find(function (old) {
        return !used.has(old) && signature(old) === signature(node);
      });
      if (same) {
        used.add(same);
        return same;
      }
      added.push(node);
      return node;
    });
    existing.forEach(function (old) { if (!used.has(old)) old.remove(); });
    const anchor = form.querySelector("label.dealer-select");
    let next = anchor;
    for (let i = wanted.length - 1; i >= 0; i--) {
      const node = wanted[i];
      if (node.parentNode !== anchor.parentNode || node.nextElementSibling !== next) {
        anchor.parentNode.insertBefore(node, next);
      }
      next = node;
    }
    const dealer = form.querySelector("h2 > span");
    if (dealer) dealer.textContent = format(data.texts.dealer, { dealer: data.names[s.dealer] });
    added.forEach(function (node) {
      const htmx = node.ownerDocument.defaultView && node.ownerDocument.defaultView.htmx;
      if (htmx) htmx.process(node);
      // What static/js/cards.js does for a grid the server sent: show it, in step with the field.
      node.querySelectorAll("[data-talon-grid]").forEach(function (grid) {
        grid.hidden = false;
        const input = form.querySelector(grid.dataset.talonGrid);
        if (input && input.value) input.dispatchEvent(new Event("input", { bubbles: true }));
      });
    });
    return s;
  }

  function clearErrors(form) {
    form.querySelectorAll(".errors").forEach(function (node) { node.remove(); });
  }

  function errorList(doc, name, message) {
    const box = doc.createElement("div");
    box.className = "errors";
    const list = doc.createElement("ul");
    list.className = "errorlist";
    list.id = "id_" + name + "_error";
    const item = doc.createElement("li");
    item.textContent = message;
    list.append(item);
    box.append(list);
    return box;
  }

  // Where the server's template shows a field's error.
  function showFieldError(form, name, message) {
    const doc = form.ownerDocument;
    const input = form.querySelector("[name='" + name + "']");
    if (!input) return;
    if (name.indexOf("tricks_") === 0) {
      const note = doc.createElement("span");
      note.className = "errors";
      note.textContent = message;
      input.closest("label").append(note);
    } else if (name === "dealer") {
      const label = input.closest("label");
      label.parentNode.insertBefore(errorList(doc, name, message), label.nextSibling);
    } else {
      input.closest("fieldset").append(errorList(doc, name, message));
    }
  }

  function showFormErrors(form, messages) {
    if (!messages.length) return;
    const doc = form.ownerDocument;
    const box = doc.createElement("div");
    box.className = "errors";
    box.setAttribute("role", "alert");
    messages.forEach(function (message) {
      const p = doc.createElement("p");
      p.textContent = message;
      box.append(p);
    });
    let after = form.querySelector("h2");
    while (after.nextElementSibling && after.nextElementSibling.matches("p.message")) {
      after = after.nextElementSibling;
    }
    after.parentNode.insertBefore(box, after.nextSibling);
  }

  // The form's own checks, shown as the server shows them; true when the deal may be queued.
  function check(form) {
    clearErrors(form);
    const result = validate(deviceData(form), valuesOf(form));
    showFormErrors(form, result.formErrors);
    result.fieldErrors.forEach(function (error) { showFieldError(form, error[0], error[1]); });
    return result.deal !== null;
  }

  function summary(form) {
    const data = deviceData(form);
    const typed = validate(data, valuesOf(form)).deal;
    return typed ? summaryOf(data, typed) : "";
  }

  function dealerOf(form) {
    const data = deviceData(form);
    return shape(data.rules, choicesOf(valuesOf(form), data.names.length)).dealer;
  }

  // The form of the next deal, as a fresh one from the server: `next` = {number, key, dealer}.
  function reset(form, next) {
    const data = deviceData(form);
    clearErrors(form);
    form.querySelectorAll("h2 ~ p.message").forEach(function (node) { node.remove(); });
    form.querySelectorAll("[data-part]").forEach(function (node) { node.remove(); });
    const set = function (name, value) {
      const field = form.querySelector("[name='" + name + "']");
      if (field) field.value = String(value);
    };
    set("number", next.number);
    set("entry_key", next.key);
    set("rotation_dealer", next.dealer);
    set("dealer", next.dealer);
    const kind = form.querySelector("input[name='kind'][value='" + GAME + "']");
    if (kind) kind.checked = true;
    const heading = form.querySelector("h2");
    if (heading && heading.firstChild && heading.firstChild.nodeType === 3) {
      heading.firstChild.data = format(data.texts.deal, { number: next.number }) + "\n    ";
    }
    // No focus moves here: the caller knows whether the secretary is at the form.
    reshape(form);
  }

  // -- the server's refresh, replaced on the device when it cannot be reached ---------------

  function refreshedForm(event) {
    const detail = event.detail || {};
    const elt = detail.elt;
    const config = detail.requestConfig;
    if (!elt || !elt.closest || (config && config.verb !== "get")) return null;
    return elt.closest("form#deal-form[data-offline]");
  }

  function listen(doc) {
    if (!doc) return;
    doc.addEventListener("htmx:beforeRequest", function (event) {
      const form = refreshedForm(event);
      if (form && navigator.onLine === false) {
        event.preventDefault();
        reshape(form);
      }
    });
    const failed = function (event) {
      const form = refreshedForm(event);
      if (form) reshape(form);
    };
    doc.addEventListener("htmx:sendError", failed);
    doc.addEventListener("htmx:timeout", failed);
    doc.addEventListener("htmx:responseError", function (event) {
      if (event.detail.xhr && event.detail.xhr.status >= 500) failed(event);
    });
  }

  return {
    WORDS: WORDS,
    shape: shape,
    validate: validate,
    summaryOf: summaryOf,
    reshape: reshape,
    check: check,
    summary: summary,
    dealerOf: dealerOf,
    reset: reset,
    listen: listen,
  };
});
