// A filter for a long list of names (the roster names a tournament's entry form offers to
// tick): typing in an input with data-filter-list="#list" hides the list's items whose text
// does not contain what is typed, case aside. Without it, the same input's form asks the
// server for the filtered list (?find=), so the page works without JavaScript too. A static
// file because the Content-Security-Policy allows no inline script.
(function () {
  "use strict";

  function fold(text) {
    return text.toLocaleLowerCase().replace(/\s+/g, " ").trim();
  }

  function apply(input) {
    const list = document.querySelector(input.dataset.filterList);
    if (!list) return;
    const wanted = fold(input.value);
    let shown = 0;
    list.querySelectorAll("[data-filter-item]").forEach(function (item) {
      const match = fold(item.textContent).indexOf(wanted) >= 0;
      item.hidden = !match;
      if (match) shown += 1;
    });
    const none = document.querySelector(input.dataset.filterNone || "#none");
    if (none) none.hidden = shown > 0;
  }

  document.addEventListener("input", function (event) {
    const input = event.target.closest("[data-filter-list]");
    if (input) apply(input);
  });

  document.addEventListener("submit", function (event) {
    // With the whole list on the page, filtered in place, the filter's own form need not ask
    // the server; a list cut short (data-filter-partial) asks it for the names not shown.
    const input = event.target.querySelector("[data-filter-list]");
    const list = input && document.querySelector(input.dataset.filterList);
    if (list && !list.hasAttribute("data-filter-partial")) {
      event.preventDefault();
      apply(input);
    }
  });
})();
