// Manager pages: small conveniences on top of pages that work without JavaScript.
// No libraries: the charts are server-drawn SVG; this only adds date presets and highlights.
(function () {
  "use strict";

  function isoDate(date) {
    const local = new Date(date.getTime() - date.getTimezoneOffset() * 60000);
    return local.toISOString().slice(0, 10);
  }

  // "today / 7 days / 30 days" fill the search form's date range and submit it.
  function wirePresets(form) {
    const presets = form.querySelector("[data-presets]");
    if (!presets) return;
    presets.hidden = false;
    presets.addEventListener("click", function (event) {
      const days = Number(event.target.dataset && event.target.dataset.days);
      if (!days) return;
      const today = new Date();
      const first = new Date(today.getTime() - (days - 1) * 86400000);
      form.elements.date_from.value = isoDate(first);
      form.elements.date_to.value = isoDate(today);
      form.submit();
    });
  }

  // Hovering a column lights the other pieces of the same day (they share one link).
  function wireCharts() {
    document.querySelectorAll(".chart svg a").forEach(function (link) {
      const href = link.getAttribute("href");
      const same = document.querySelectorAll('.chart svg a[href="' + CSS.escape(href) + '"] .bar');
      link.addEventListener("mouseenter", function () { same.forEach((b) => b.classList.add("lit")); });
      link.addEventListener("mouseleave", function () { same.forEach((b) => b.classList.remove("lit")); });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    const form = document.getElementById("audit-filters");
    if (form) wirePresets(form);
    wireCharts();
  });
})();
