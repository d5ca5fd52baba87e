// Wide tables on a phone. A table wider than its box scrolls inside it (.table-wrap); this
// marks the box so that static/css/pulka.css draws a shadow at each edge where more columns
// wait (more-left, more-right), and puts "more columns: scroll sideways" above it while it
// overflows. It also measures the pinned columns (the place before the name, the place after
// the total), so that the columns stuck side by side do not overlap whatever their content.
// Without it the tables still scroll, and the pinned columns take the stylesheet's widths.
// A static file because the Content-Security-Policy allows no inline script; the custom
// properties are set through the CSSOM, which that policy does not restrict.
(function () {
  "use strict";

  const watched = new WeakSet();
  const resize = "ResizeObserver" in window ? new ResizeObserver(function (entries) {
    entries.forEach(function (entry) { mark(entry.target); });
  }) : null;

  function hintFor(wrap) {
    const before = wrap.previousElementSibling;
    if (before && before.classList.contains("scroll-hint")) return before;
    const holder = document.getElementById("ui-text");
    const hint = document.createElement("p");
    hint.className = "scroll-hint";
    hint.setAttribute("aria-hidden", "true");  // the table itself is read whole
    hint.textContent = (holder && holder.dataset.scrollHint) || "";
    hint.hidden = true;
    wrap.parentNode.insertBefore(hint, wrap);
    return hint;
  }

  // The widths of the first row's cells pinned at the left and at the right edge (0px): the
  // next pinned column starts after the one, the one before the total ends before the other.
  function measure(table) {
    const row = table.querySelector("tbody tr");
    if (!row) return;
    for (const cell of row.children) {
      const style = window.getComputedStyle(cell);
      if (style.position !== "sticky") continue;
      const width = cell.getBoundingClientRect().width + "px";
      if (style.left === "0px") table.style.setProperty("--pin-start-w", width);
      if (style.right === "0px") table.style.setProperty("--pin-end-w", width);
    }
  }

  function mark(wrap) {
    const table = wrap.querySelector("table");
    if (table) measure(table);
    const room = wrap.scrollWidth - wrap.clientWidth;
    const overflows = room > 1;
    wrap.classList.toggle("overflows", overflows);
    wrap.classList.toggle("more-left", overflows && wrap.scrollLeft > 1);
    wrap.classList.toggle("more-right", overflows && wrap.scrollLeft < room - 1);
    if (overflows || wrap.previousElementSibling?.classList.contains("scroll-hint")) {
      hintFor(wrap).hidden = !overflows;
    }
  }

  function watch(root) {
    const boxes = root.matches && root.matches(".table-wrap") ? [root] : [];
    boxes.push(...(root.querySelectorAll ? root.querySelectorAll(".table-wrap") : []));
    boxes.forEach(function (wrap) {
      if (!watched.has(wrap)) {
        watched.add(wrap);
        wrap.addEventListener("scroll", function () { mark(wrap); }, {passive: true});
        if (resize) resize.observe(wrap);
      }
      mark(wrap);
    });
  }

  function start() {
    watch(document.body);
    // Every fragment htmx swaps in (a sorted league table, the sheet after a deal).
    document.body.addEventListener("htmx:load", function (event) { watch(event.target); });
    window.addEventListener("resize", function () { watch(document.body); });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
