/* NetShop help page: each open inquiry's status and reply, live.
 *
 * One socket per inquiry still being worked on (/ws/help/<id>/); when a socket cannot stay
 * open the page polls the inquiry's status URL instead. Text is set with textContent only.
 */
(function () {
  "use strict";

  var POLL_MS = 3000;
  // Close codes of operators/access.py SocketClose: signed out or not allowed, so do not poll.
  var SIGNED_OUT = 4401;
  var FORBIDDEN = 4403;
  var labels = JSON.parse(document.getElementById("help-status-labels").textContent);
  var root = document.getElementById("help-page");
  var finals = (root.dataset.finalStatuses || "").split(",");

  function apply(card, payload) {
    if (!payload || !payload.status) return;
    card.dataset.status = payload.status;
    var badge = card.querySelector(".inquiry-status");
    badge.textContent = labels[payload.status] || payload.status;
    badge.className = "badge inquiry-status status-" + payload.status;
    if (payload.reply) {
      card.querySelector(".inquiry-reply").textContent = payload.reply;
      card.querySelector(".reply-box").hidden = false;
    }
    if (finals.indexOf(payload.status) !== -1) card.dataset.final = "1";
  }

  function isFinal(card) {
    return card.dataset.final === "1";
  }

  function poll(card) {
    if (isFinal(card) || card.dataset.polling) return;
    card.dataset.polling = "1";
    var timer = setInterval(function () {
      fetch(card.dataset.statusUrl, { credentials: "same-origin" })
        .then(function (response) {
          return response.ok ? response.json() : null;
        })
        .then(function (payload) {
          apply(card, payload);
          if (isFinal(card)) clearInterval(timer);
        })
        .catch(function (error) {
          // The next poll tries again; say so where a developer will look.
          console.warn("could not read the inquiry's status; polling again", error);
        });
    }, POLL_MS);
  }

  function refresh(card) {
    return fetch(card.dataset.statusUrl, { credentials: "same-origin" })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (payload) {
        apply(card, payload);
      })
      .catch(function (error) {
        // The poll (or the next socket message) brings the status; nothing is lost.
        console.warn("could not refresh the inquiry's status", error);
      });
  }

  function watch(card) {
    if (isFinal(card)) return;
    if (!("WebSocket" in window)) {
      poll(card);
      return;
    }
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + location.host + card.dataset.socketPath);
    socket.onopen = function () {
      refresh(card); // what changed between the page load and the socket opening
    };
    socket.onmessage = function (message) {
      var data;
      try {
        data = JSON.parse(message.data);
      } catch (err) {
        return;
      }
      if (data.event === "inquiry.updated") apply(card, data.payload);
      if (isFinal(card)) socket.close();
    };
    socket.onclose = function (event) {
      if (event.code !== SIGNED_OUT && event.code !== FORBIDDEN) poll(card);
    };
  }

  document.querySelectorAll("#inquiries .inquiry").forEach(watch);

  var form = document.getElementById("inquiry-form");
  if (form) {
    form.addEventListener("submit", function () {
      setTimeout(function () {
        document.getElementById("inquiry-submit").disabled = true;
      }, 0);
    });
  }
})();
