// The door of an open event: "Scan" opens the phone's camera (getUserMedia), each frame is
// read by the vendored decoder (static/vendor/jsQR-1.4.0.js, window.jsQR), and a check-in
// code of this event opens its check-in page, where the organiser confirms with a button
// (opening the page marks nobody). A code of anything else is named as such and ignored.
// A static file because the Content-Security-Policy allows no inline script; without
// JavaScript or a camera the page still has the typed code and the search by name.
(function () {
  "use strict";

  let stream = null;
  let timer = null;

  function box() {
    return document.getElementById("scan");
  }

  function say(text) {
    const status = document.getElementById("scan-status");
    if (status) status.textContent = text || "";
  }

  function stop() {
    if (timer) window.clearTimeout(timer);
    timer = null;
    if (stream) stream.getTracks().forEach(function (track) { track.stop(); });
    stream = null;
    const video = document.getElementById("scan-video");
    if (video) {
      video.srcObject = null;
      video.hidden = true;
    }
    const start = document.getElementById("scan-start");
    const end = document.getElementById("scan-stop");
    if (start) start.hidden = false;
    if (end) end.hidden = true;
  }

  // A code carries the check-in address on the site's own domain; only its path is followed,
  // on this page's origin, and only under this event's check-in page.
  function ourPath(text, prefix) {
    try {
      const path = new URL(text, window.location.href).pathname;
      return path.indexOf(prefix) === 0 && path.length > prefix.length ? path : null;
    } catch (error) {
      return null;
    }
  }

  function look(video, canvas, scan) {
    if (!stream) return;
    if (video.readyState >= 2 && video.videoWidth > 0) {
      // A frame at most 640 pixels wide is enough for a code held up to the camera.
      const scale = Math.min(1, 640 / video.videoWidth);
      canvas.width = Math.round(video.videoWidth * scale);
      canvas.height = Math.round(video.videoHeight * scale);
      const context = canvas.getContext("2d", { willReadFrequently: true });
      context.drawImage(video, 0, 0, canvas.width, canvas.height);
      const image = context.getImageData(0, 0, canvas.width, canvas.height);
      const code = window.jsQR(image.data, image.width, image.height, {
        inversionAttempts: "dontInvert",
      });
      if (code && code.data) {
        const path = ourPath(code.data, scan.dataset.checkInPrefix);
        if (path) {
          stop();
          window.location.assign(window.location.origin + path);
          return;
        }
        say(scan.dataset.notOurs);
      }
    }
    timer = window.setTimeout(function () { look(video, canvas, scan); }, 200);
  }

  function start() {
    const scan = box();
    const video = document.getElementById("scan-video");
    const canvas = document.getElementById("scan-canvas");
    if (!scan || !video || !canvas) return;
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: "environment" }, audio: false })
      .then(function (media) {
        stream = media;
        video.srcObject = media;
        video.hidden = false;
        document.getElementById("scan-start").hidden = true;
        document.getElementById("scan-stop").hidden = false;
        say(scan.dataset.looking);
        return video.play();
      })
      .then(function () { look(video, canvas, scan); })
      .catch(function () {
        stop();
        say(scan.dataset.noCamera);
      });
  }

  document.addEventListener("DOMContentLoaded", function () {
    const scan = box();
    if (!scan) return;
    const button = document.getElementById("scan-start");
    const usable = navigator.mediaDevices && navigator.mediaDevices.getUserMedia && window.jsQR;
    if (!usable) {
      say(scan.dataset.noCamera);
      return;
    }
    button.hidden = false;
    button.addEventListener("click", start);
    document.getElementById("scan-stop").addEventListener("click", stop);
  });

  // A page left (or hidden on a phone) lets the camera go.
  window.addEventListener("pagehide", stop);
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) stop();
  });
})();
