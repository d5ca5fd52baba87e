// A request htmx sent that failed gets a message where it was sent from: the link or button
// (a stale "delete" of a deal someone else already deleted answers 404), the form, or the
// polling block. htmx swaps nothing for a 4xx or 5xx answer, so without this the click would
// do nothing. The server's error pages answer htmx with one short sentence in the page's
// language (config/views.py); an answer that is not one of ours (a proxy's 502), or no answer
// at all (the connection is lost), takes its words from #ui-text in base.html. A static file
// because the Content-Security-Policy allows no inline script.
(function () {
  "use strict";

  const shown = new WeakMap(); // element that sent the request -> its message

  function text(key) {
    const holder = document.getElementById("ui-text");
    return (holder && holder.dataset[key]) || "";
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

  function show(elt, message) {
    if (!elt || !elt.isConnected || !elt.parentNode) return;
    let box = shown.get(elt);
    if (!box || !box.isConnected) {
      box = document.createElement("span");
      box.className = "request-error";
      box.setAttribute("role", "alert");
      const where = place(elt);
      where.parent.insertBefore(box, where.before);
      shown.set(elt, box);
    }
    // Written after the region is in the page, so that screen readers announce it.
    box.textContent = "";
    window.requestAnimationFrame(function () {
      box.textContent = message;
    });
  }

  function clear(elt) {
    const box = elt && shown.get(elt);
    if (box) {
      box.remove();
      shown.delete(elt);
    }
  }

  document.addEventListener("htmx:responseError", function (event) {
    const detail = event.detail;
    show(detail.elt, serverMessage(detail.xhr) || text("requestFailed"));
  });

  document.addEventListener("htmx:sendError", function (event) {
    show(event.detail.elt, text("connectionLost"));
  });

  document.addEventListener("htmx:timeout", function (event) {
    show(event.detail.elt, text("connectionLost"));
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) clear(event.detail.elt);
  });
})();
