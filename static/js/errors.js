// A request htmx sent that failed gets a message where it was sent from: the link or button
// (a stale "delete" of a deal someone else already deleted answers 404), the form, or the
// polling block. htmx swaps nothing for a 4xx or 5xx answer, so without this the click would
// do nothing. The server's error pages answer htmx with one short sentence in the page's
// language (config/views.py); an answer that is not one of ours (a proxy's 502), or no answer
// at all (the connection is lost), takes its words from #ui-text in base.html. A static file
// because the Content-Security-Policy allows no inline script.
//
// The deal entry form (form.entry-form) says that nothing was saved and that the entry is
// kept: htmx leaves a form it could not swap as it was, with its values and its one-time key
// (entry_key), so Enter sends the same entry again and the server records it once.
//
// A polled block (hx-trigger="every ...", a spectator's board) shows no message of its own:
// after two failed polls in a row the page's #live-status region says the connection is lost
// and that it is retrying, until a poll is answered again. A fixed region, so nothing moves.
(function () {
  "use strict";

  // Without an answer by then, the request counts as lost: htmx waits forever otherwise, and
  // a hung server or a dead Wi-Fi would leave the secretary and the spectators with nothing.
  // A timed-out entry that did reach the server is recorded once all the same (entry_key).
  const ENTRY_TIMEOUT_MS = 20000;
  const POLL_TIMEOUT_MS = 15000;
  const POLLS_LOST = 2; // failed polls in a row before the board says so

  const POLLING = /(^|,)\s*every\s/;
  const shown = []; // {owner: the element that sent the request, box: its message}
  let failedPolls = 0;

  function text(key) {
    const holder = document.getElementById("ui-text");
    return (holder && holder.dataset[key]) || "";
  }

  function isPoll(elt) {
    const trigger = elt.getAttribute("hx-trigger") || elt.getAttribute("data-hx-trigger") || "";
    return POLLING.test(trigger);
  }

  function isEntry(elt, verb) {
    return verb !== "get" && elt.matches("form.entry-form");
  }

  // A new deal's form on a page that keeps deals on the device (offline.js): a post that got
  // no answer goes to the device's queue, and a choice redraws the form on the device
  // (entry-form.js), so a lost connection is theirs to say, not this file's.
  function keptOnDevice(elt) {
    const queue = document.getElementById("offline-queue");
    if (!queue || queue.dataset.store !== "ready") return false; // no storage on this device
    return Boolean(elt.closest && elt.closest("form.entry-form[data-offline]"));
  }

  function serverMessage(xhr) {
    const type = (xhr.getResponseHeader("Content-Type") || "").toLowerCase();
    if (!type.startsWith("text/html") || !xhr.responseText) return "";
    // Parsed, never inserted: only the sentence's text is shown.
    const answer = new DOMParser().parseFromString(xhr.responseText, "text/html");
    const message = answer.querySelector(".error-message");
    return message ? message.textContent.trim() : "";
  }

  // Where the message goes: after the link, button or form that sent the request; inside a
  // table's cell rather than between its rows; after a table rather than inside it.
  function place(elt) {
    const cell = elt.closest("td, th");
    if (cell) return {parent: cell, before: null};
    const table = elt.closest("table");
    const anchor = table ? table.closest(".table-wrap") || table : elt;
    return {parent: anchor.parentNode, before: anchor.nextSibling};
  }

  function boxOf(elt) {
    const found = shown.find(function (item) {
      return item.owner === elt;
    });
    return found && found.box.isConnected ? found.box : null;
  }

  function show(elt, message) {
    if (!elt || !elt.isConnected || !elt.parentNode || !message) return;
    let box = boxOf(elt);
    if (!box) {
      box = document.createElement("span");
      box.className = "request-error";
      box.setAttribute("role", "alert");
      const where = place(elt);
      where.parent.insertBefore(box, where.before);
      shown.push({owner: elt, box: box});
    }
    // Written after the region is in the page, so that screen readers announce it.
    box.textContent = "";
    window.requestAnimationFrame(function () {
      box.textContent = message;
    });
  }

  // After a request that worked: its own message goes. So does a message whose element was
  // swapped away, unless an element of the same id took its place (the entry form redrawn
  // when a choice changes is still the entry that was not saved): then it moves to that one.
  function clear(elt) {
    for (let i = shown.length - 1; i >= 0; i -= 1) {
      const item = shown[i];
      let keep = item.owner !== elt && item.box.isConnected;
      if (keep && !item.owner.isConnected) {
        const successor = item.owner.id && document.getElementById(item.owner.id);
        if (successor) item.owner = successor;
        else keep = false;
      }
      if (!keep) {
        item.box.remove();
        shown.splice(i, 1);
      }
    }
  }

  function liveStatus(message) {
    const region = document.getElementById("live-status");
    if (region && region.textContent !== message) region.textContent = message;
  }

  function pollFailed() {
    failedPolls += 1;
    if (failedPolls >= POLLS_LOST) liveStatus(text("pollsLost"));
  }

  function pollAnswered() {
    failedPolls = 0;
    liveStatus("");
  }

  // The element that sent the request. htmx names in detail.elt the element an event is
  // fired on: after a swap that removed the sender, that is the closest ancestor still in the
  // page, so the sender is read from the request's own config.
  function sender(detail) {
    return (detail.requestConfig && detail.requestConfig.elt) || detail.elt;
  }

  function verbOf(detail) {
    return ((detail.requestConfig && detail.requestConfig.verb) || "get").toLowerCase();
  }

  document.addEventListener("htmx:configRequest", function (event) {
    const detail = event.detail;
    if (detail.timeout) return; // the element asked for its own (hx-request)
    if (isPoll(detail.elt)) detail.timeout = POLL_TIMEOUT_MS;
    else if (isEntry(detail.elt, detail.verb)) detail.timeout = ENTRY_TIMEOUT_MS;
  });

  document.addEventListener("htmx:responseError", function (event) {
    const detail = event.detail;
    const elt = sender(detail);
    if (isPoll(elt)) return pollFailed();
    if (keptOnDevice(elt) && detail.xhr.status >= 500) return;
    // A 5xx is the server or a proxy in front of it failing, whatever its page says: for an
    // entry, the words that matter are that nothing was saved and that Enter tries again.
    if (isEntry(elt, verbOf(detail)) && detail.xhr.status >= 500) {
      return show(elt, text("entryNoAnswer"));
    }
    show(elt, serverMessage(detail.xhr) || text("requestFailed"));
  });

  function lost(event) {
    const detail = event.detail;
    const elt = sender(detail);
    if (isPoll(elt)) return pollFailed();
    if (keptOnDevice(elt)) return;
    show(elt, text(isEntry(elt, verbOf(detail)) ? "entryNoConnection" : "connectionLost"));
  }

  document.addEventListener("htmx:sendError", lost);
  document.addEventListener("htmx:timeout", lost);

  document.addEventListener("htmx:afterRequest", function (event) {
    const detail = event.detail;
    if (detail.successful !== true) return;
    const elt = sender(detail);
    if (isPoll(elt)) pollAnswered();
    clear(elt);
  });
})();
