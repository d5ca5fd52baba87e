// Round clocks (templates/_clock.html): count the time left down every second.
// The server says how many seconds were left when it rendered the clock (data-left); the
// deadline is that much after the moment the element came into the page, on the browser's
// monotonic clock, so a wrong or changed system clock does not move it. Each poll renders
// the clock again (htmx swaps it in): the new element brings the server's figure, which
// corrects any drift. A static file: the Content-Security-Policy allows no inline script.
(function () {
  "use strict";

  const deadlines = new WeakMap();

  function sync(root) {
    if (!root || !root.querySelectorAll) return;
    const found = root.matches && root.matches("[data-clock]") ? [root] : [];
    root.querySelectorAll("[data-clock]").forEach(function (clock) { found.push(clock); });
    found.forEach(function (clock) {
      if (deadlines.has(clock)) return;
      const left = parseFloat(clock.dataset.left);
      if (isNaN(left)) return;
      deadlines.set(clock, performance.now() + left * 1000);
      clock.dataset.state = state(clock, left);
    });
  }

  function shown(seconds) {
    const hours = Math.floor(seconds / 3600);
    const minutes = Math.floor((seconds % 3600) / 60);
    const rest = seconds % 60;
    const two = function (n) { return (n < 10 ? "0" : "") + n; };
    return hours ? hours + ":" + two(minutes) + ":" + two(rest) : minutes + ":" + two(rest);
  }

  function state(clock, left) {
    if (left <= 0) return "out";
    return left <= parseFloat(clock.dataset.warning || "600") ? "warning" : "running";
  }

  function tick() {
    const now = performance.now();
    document.querySelectorAll("[data-clock]").forEach(function (clock) {
      if (clock.dataset.paused === "true" || !deadlines.has(clock)) return;
      const left = Math.max(0, Math.ceil((deadlines.get(clock) - now) / 1000));
      const next = state(clock, left);
      const text = next === "out"
        ? clock.dataset.textOut
        : clock.dataset.textLeft.replace("{time}", shown(left));
      // Crossing a threshold is said once to a screen reader; the ticking in between is not.
      const crossed = next !== clock.dataset.state;
      if (crossed) clock.setAttribute("aria-live", "polite");
      else if (clock.getAttribute("aria-live") !== "off") clock.setAttribute("aria-live", "off");
      if (clock.textContent !== text) clock.textContent = text;
      clock.dataset.state = next;
      clock.classList.toggle("clock-warning", next === "warning");
      clock.classList.toggle("clock-out", next === "out");
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    sync(document);
    tick();
    window.setInterval(tick, 250);
  });
  // A poll or an action swapped part of the page: its clocks start from the server's figure.
  document.addEventListener("htmx:load", function (event) { sync(event.target); tick(); });
  document.addEventListener("htmx:afterSettle", function (event) { sync(event.target); tick(); });
})();
