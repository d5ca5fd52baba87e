// Invitation links: copy a link, print its card, confirm a revocation.
// A static file because the Content-Security-Policy allows no inline script; the buttons
// say what they do in data attributes and stay hidden where this file does not run.
(function () {
  "use strict";

  function reveal(root) {
    root.querySelectorAll("[data-copy], [data-print]").forEach(function (button) {
      if (button.hasAttribute("data-copy") && !navigator.clipboard) return;
      button.hidden = false;
    });
  }

  document.addEventListener("click", function (event) {
    const copy = event.target.closest("[data-copy]");
    if (copy) {
      const source = document.querySelector(copy.dataset.copy);
      if (!source) return;
      const text = source.value !== undefined ? source.value : source.textContent;
      navigator.clipboard.writeText(text.trim()).then(
        function () {
          const label = copy.textContent;
          copy.textContent = copy.dataset.copied || label;
          window.setTimeout(function () { copy.textContent = label; }, 2000);
        },
        function () {
          // No permission to write the clipboard: select the link for a manual copy.
          if (source.select) source.select();
        }
      );
      return;
    }
    if (event.target.closest("[data-print]")) window.print();
  });

  document.addEventListener("submit", function (event) {
    const form = event.target.closest("form[data-confirm]");
    if (form && !window.confirm(form.dataset.confirm)) event.preventDefault();
  });

  // Select the whole link when its field is focused, for a copy by hand.
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("input.invitation-link")) event.target.select();
  });

  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  // Rows swapped in by htmx (a revocation) bring their own buttons.
  document.addEventListener("htmx:load", function (event) { reveal(event.target); });
})();
