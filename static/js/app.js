// The installable app (issue #28): the service worker (/sw.js, config/offline.py) keeps the
// static files, the entry pages opened and the offline page, so that a pulka page reloads
// without a network. Without a worker (an old browser, a private window) the site works as
// before, and a pulka page still keeps its deals on the device (offline.js).
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  const link = document.querySelector("link[rel=manifest]");
  const url = link && link.dataset.worker;
  if (!url) return;
  navigator.serviceWorker.register(url, {scope: "/"}).catch(function () {
    // Refused (blocked by the browser's settings): nothing is kept, entry works online.
  });
})();
