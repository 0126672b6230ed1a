// A simulation run's page while the run is queued or running: ask the server where it stands
// every few seconds, say how many cases are done, and reload when its status changes (the
// page then shows the results). Without JavaScript the page's Refresh link does the same.
(function () {
  "use strict";

  const EVERY_MS = 3000;

  function poll(progress) {
    const url = progress.dataset.statusUrl;
    const shown = progress.dataset.status;
    const done = progress.querySelector("[data-cases-done]");
    function check() {
      fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (state) {
          if (!state) return;
          if (state.status !== shown || state.finished) {
            window.location.reload();
            return;
          }
          if (done) done.textContent = state.status_text + " · " + state.cases_done;
          window.setTimeout(check, EVERY_MS);
        })
        .catch(function () { window.setTimeout(check, EVERY_MS * 2); });
    }
    window.setTimeout(check, EVERY_MS);
  }

  document.addEventListener("DOMContentLoaded", function () {
    const progress = document.getElementById("run-progress");
    if (progress) poll(progress);
  });
})();
