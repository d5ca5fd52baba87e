// The talon as a grid of 32 cards to tap, for phones: each tap puts the card's code into the
// talon field, or takes it out; the field keeps the last two cards tapped. A static file
// because the Content-Security-Policy allows no inline script. Without it, or on a wide
// screen (static/css: the grid shows on narrow screens only), the field is typed as before.
(function () {
  "use strict";

  function cards(input) {
    return input.value.trim().toUpperCase().split(/[\s,]+/).filter(Boolean);
  }

  function sync(grid) {
    const input = document.querySelector(grid.dataset.talonGrid);
    if (!input) return;
    const chosen = cards(input);
    grid.querySelectorAll("[data-card]").forEach(function (button) {
      button.setAttribute("aria-pressed", chosen.indexOf(button.dataset.card) >= 0 ? "true" : "false");
    });
  }

  function reveal(root) {
    root.querySelectorAll("[data-talon-grid]").forEach(function (grid) {
      grid.hidden = false;
      sync(grid);
    });
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest("[data-card]");
    if (!button) return;
    const grid = button.closest("[data-talon-grid]");
    const input = grid && document.querySelector(grid.dataset.talonGrid);
    if (!input) return;
    let chosen = cards(input);
    const card = button.dataset.card;
    if (chosen.indexOf(card) >= 0) {
      chosen = chosen.filter(function (c) { return c !== card; });
    } else {
      chosen.push(card);
      chosen = chosen.slice(-2);
    }
    input.value = chosen.join(" ");
    input.dispatchEvent(new Event("input", { bubbles: true }));
    sync(grid);
  });

  document.addEventListener("input", function (event) {
    const grid = document.querySelector("[data-talon-grid='#" + event.target.id + "']");
    if (grid && event.target.id) sync(grid);
  });

  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  document.addEventListener("htmx:afterSettle", function () { reveal(document); });
})();
