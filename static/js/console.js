/* NetShop support console: the live queue and the escalation detail page.
 *
 * Plain JavaScript, no build step. The server renders every row and panel; this file only
 * listens on the console socket and asks the server for the fresh HTML of what changed.
 * Updates are idempotent re-reads, so an event that arrives twice or late does no harm, and
 * after a dropped socket one re-read of the page's state brings it up to date (channel
 * layers deliver at most once: nothing is replayed from the socket).
 */
(function () {
  "use strict";

  var BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];
  // Close codes of operators/access.py SocketClose: the login lost the socket, so stop retrying.
  var SIGNED_OUT = 4401;
  var FORBIDDEN = 4403;
  var REFRESH_EVERY_MS = 60000; // keeps ages and deadlines current, and is a safety net

  var state = { lastSeq: 0, socket: null, connected: false, resyncs: 0 };
  window.netshopConsole = state; // read by browser tests

  // --- The socket -------------------------------------------------------------------------

  function liveSocket(path, handlers) {
    var attempt = 0;
    var stopped = false;
    var banner = document.getElementById("reconnecting-banner");

    function connect() {
      var scheme = location.protocol === "https:" ? "wss://" : "ws://";
      var socket = new WebSocket(scheme + location.host + path);
      state.socket = socket;
      socket.onopen = function () {
        attempt = 0;
        setLive(true);
        if (banner) banner.hidden = true;
        state.resyncs += 1;
        handlers.onOpen();
      };
      socket.onmessage = function (message) {
        var data;
        try {
          data = JSON.parse(message.data);
        } catch (err) {
          return;
        }
        if (typeof data.seq === "number" && data.seq > state.lastSeq) state.lastSeq = data.seq;
        handlers.onEvent(data);
      };
      socket.onclose = function (event) {
        setLive(false);
        if (stopped) return;
        if (event.code === SIGNED_OUT || event.code === FORBIDDEN) {
          signedOut();
          return;
        }
        if (banner) banner.hidden = false;
        var base = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];
        attempt += 1;
        setTimeout(connect, base / 2 + Math.random() * (base / 2));
      };
    }

    window.addEventListener("pagehide", function () {
      stopped = true;
      if (state.socket) state.socket.close();
    });
    window.addEventListener("pageshow", function (event) {
      if (!event.persisted) return; // back from the page cache: listen again, then resync
      stopped = false;
      connect();
    });
    state.dropSocket = function () {
      if (state.socket) state.socket.close();
    };
    connect();
  }

  function setLive(on) {
    state.connected = on;
    var badge = document.getElementById("live-indicator");
    if (!badge) return;
    badge.textContent = on ? badge.dataset.liveLabel : badge.dataset.offlineLabel;
    badge.className = "badge " + (on ? "ok" : "warn");
  }

  function signedOut() {
    var banner = document.getElementById("signed-out-banner");
    var reconnecting = document.getElementById("reconnecting-banner");
    if (reconnecting) reconnecting.hidden = true;
    if (banner) banner.hidden = false;
  }

  // --- Helpers ------------------------------------------------------------------------------

  function getHtml(url) {
    return fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } }).then(
      function (response) {
        if (response.redirected && response.url.indexOf("/accounts/login") !== -1) {
          signedOut();
          throw new Error("signed out");
        }
        if (response.status === 403) {
          signedOut();
          throw new Error("forbidden");
        }
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text().then(function (text) {
          return { text: text, headers: response.headers };
        });
      }
    );
  }

  function postForm(form) {
    return fetch(form.action, {
      method: "POST",
      body: new FormData(form), // carries the csrfmiddlewaretoken
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    }).then(function (response) {
      return response.json().catch(function () {
        return { ok: response.ok, message: "" };
      });
    });
  }

  function say(text, kind) {
    var list = document.getElementById("messages");
    if (!list || !text) return;
    var item = document.createElement("li");
    item.className = "message " + (kind || "info");
    item.textContent = text;
    list.appendChild(item);
    setTimeout(function () {
      item.remove();
    }, 6000);
  }

  function isTyping(target) {
    if (!target || !target.tagName) return false;
    var tag = target.tagName.toLowerCase();
    return tag === "input" || tag === "textarea" || tag === "select" || target.isContentEditable;
  }

  function onShortcut(handler) {
    document.addEventListener("keydown", function (event) {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      handler(event);
    });
  }

  // --- The queue ----------------------------------------------------------------------------

  function queuePage(root) {
    var body = document.getElementById("queue-body");
    var empty = document.getElementById("queue-empty");
    var query = root.dataset.query || "";
    var hasNext = root.dataset.hasNext === "1";
    var fullInFlight = false;
    var waiting = {}; // rows to re-read once a full re-read is done
    var rowToken = {}; // the latest read of each row wins
    var selectedId = null;
    state.lastSeq = Number(root.dataset.seq) || 0;

    function url(extra) {
      var params = new URLSearchParams(query);
      Object.keys(extra).forEach(function (key) {
        params.set(key, extra[key]);
      });
      return root.dataset.rowsUrl + "?" + params.toString();
    }

    function rows() {
      return Array.prototype.slice.call(body.querySelectorAll("tr.queue-row"));
    }

    function updateEmpty() {
      if (empty) empty.hidden = rows().length > 0;
    }

    function refreshAll() {
      if (fullInFlight) return;
      fullInFlight = true;
      getHtml(url({}))
        .then(function (result) {
          body.innerHTML = result.text;
          var seq = Number(result.headers.get("X-Console-Seq")) || 0;
          if (seq > state.lastSeq) state.lastSeq = seq;
          select(selectedId, false);
          updateEmpty();
        })
        .catch(function () {})
        .then(function () {
          fullInFlight = false;
          var ids = Object.keys(waiting);
          waiting = {};
          ids.forEach(refreshRow);
        });
    }

    function refreshRow(id) {
      if (fullInFlight) {
        waiting[id] = true;
        return;
      }
      var token = (rowToken[id] || 0) + 1;
      rowToken[id] = token;
      getHtml(url({ id: id }))
        .then(function (result) {
          if (rowToken[id] === token) place(id, result.text.trim());
        })
        .catch(function () {});
    }

    function removeRow(id) {
      rowToken[id] = (rowToken[id] || 0) + 1; // a read still on its way must not bring it back
      delete waiting[id];
      var row = document.getElementById("row-" + id);
      if (!row) return;
      if (id === selectedId) move(1) || move(-1);
      row.remove();
      if (id === selectedId) selectedId = null;
      updateEmpty();
    }

    function place(id, html) {
      var existing = document.getElementById("row-" + id);
      if (!html) {
        if (existing) removeRow(id);
        return;
      }
      var template = document.createElement("template");
      template.innerHTML = html;
      var row = template.content.firstElementChild;
      if (existing) {
        existing.replaceWith(row);
      } else if (!insertSorted(row)) {
        return;
      }
      if (id === selectedId) row.classList.add("selected");
      row.classList.add("flash");
      setTimeout(function () {
        row.classList.remove("flash");
      }, 2000);
      updateEmpty();
    }

    function insertSorted(row) {
      var key = row.dataset.sortKey;
      var later = rows().find(function (other) {
        return other.dataset.sortKey > key;
      });
      if (later) {
        body.insertBefore(row, later);
        return true;
      }
      if (hasNext) return false; // it sorts after this page: it belongs on a later page
      body.appendChild(row);
      return true;
    }

    function onEvent(message) {
      var payload = message.payload || {};
      switch (message.event) {
        case "escalation.created":
        case "escalation.claimed":
        case "escalation.released":
          refreshRow(payload.id);
          break;
        case "escalation.decided":
          removeRow(payload.id);
          break;
        default:
          break;
      }
    }

    // Selection and shortcuts.
    function select(id, scroll) {
      rows().forEach(function (row) {
        row.classList.toggle("selected", row.dataset.escalationId === id);
        row.setAttribute("aria-selected", row.dataset.escalationId === id ? "true" : "false");
      });
      var row = id && document.getElementById("row-" + id);
      selectedId = row ? id : null;
      if (row && scroll !== false) row.scrollIntoView({ block: "nearest" });
    }

    function move(step) {
      var list = rows();
      if (!list.length) return false;
      var index = list.findIndex(function (row) {
        return row.dataset.escalationId === selectedId;
      });
      var next = index === -1 ? (step > 0 ? 0 : list.length - 1) : index + step;
      if (next < 0 || next >= list.length) return false;
      select(list[next].dataset.escalationId);
      return true;
    }

    function selectedRow() {
      return selectedId ? document.getElementById("row-" + selectedId) : null;
    }

    function open(focus) {
      var row = selectedRow();
      if (!row) return;
      location.href = row.dataset.detailUrl + (focus ? "?focus=" + focus : "");
    }

    function submitRowForm(form) {
      var id = form.closest("tr").dataset.escalationId;
      form.querySelectorAll("button").forEach(function (b) {
        b.disabled = true;
      });
      postForm(form).then(function (result) {
        say(result.message, result.ok ? "success" : "error");
        refreshRow(id);
      });
    }

    body.addEventListener("submit", function (event) {
      var form = event.target;
      if (!form.matches(".claim-form, .release-form")) return;
      event.preventDefault();
      submitRowForm(form);
    });
    body.addEventListener("click", function (event) {
      var row = event.target.closest("tr.queue-row");
      if (row && !event.target.closest("a, button, form")) select(row.dataset.escalationId);
    });

    onShortcut(function (event) {
      var row;
      switch (event.key) {
        case "j":
          move(1);
          break;
        case "k":
          move(-1);
          break;
        case "Enter":
          if (event.target !== document.body && !event.target.closest("tr.queue-row")) return;
          open("");
          break;
        case "c":
          row = selectedRow();
          if (row && row.querySelector(".claim-form")) submitRowForm(row.querySelector(".claim-form"));
          break;
        case "a":
          open("approve");
          break;
        case "r":
          open("reject");
          break;
        default:
          return;
      }
      event.preventDefault();
    });

    updateEmpty();
    liveSocket(root.dataset.socketPath, { onOpen: refreshAll, onEvent: onEvent });
    setInterval(refreshAll, REFRESH_EVERY_MS);
  }

  // --- One escalation -----------------------------------------------------------------------

  function detailPage(root) {
    var escalationId = root.dataset.escalationId;
    var inquiryId = root.dataset.inquiryId;
    var me = root.dataset.user;
    var panel = document.getElementById("live-panel");
    var token = 0;
    var pending = null;
    state.lastSeq = Number(root.dataset.seq) || 0;
    showNewestSteps();

    function refreshLive() {
      var mine = ++token;
      getHtml(root.dataset.liveUrl)
        .then(function (result) {
          if (mine !== token) return; // a newer read is on its way
          panel.innerHTML = result.text;
          showNewestSteps();
          applyState();
        })
        .catch(function () {});
    }

    // The timeline grows downwards in a scrolling box: keep its newest step in view.
    function showNewestSteps() {
      var timeline = panel.querySelector("ol.timeline");
      if (timeline) timeline.scrollTop = timeline.scrollHeight;
    }

    function scheduleRefresh() {
      if (pending) return;
      pending = setTimeout(function () {
        pending = null;
        refreshLive();
      }, 50);
    }

    function applyState() {
      var card = document.getElementById("status-card");
      var controls = document.getElementById("decision-controls");
      if (!card || !controls) return;
      var blocked = card.dataset.state === "decided" || card.dataset.state === "claimed_by_other";
      controls.disabled = blocked;
      root.dataset.state = card.dataset.state;
    }

    function renderViewers(names) {
      var list = document.getElementById("viewers");
      if (!list) return;
      list.textContent = "";
      names.forEach(function (name) {
        var item = document.createElement("li");
        item.textContent = name === me ? name + " (" + list.dataset.youLabel + ")" : name;
        if (name === me) item.className = "me";
        list.appendChild(item);
      });
    }

    function onEvent(message) {
      var payload = message.payload || {};
      if (message.event === "escalation.viewers") {
        if (payload.id === escalationId) renderViewers(payload.viewers || []);
        return;
      }
      var aboutThis =
        payload.id === escalationId ||
        payload.inquiry_id === inquiryId ||
        (message.event === "inquiry.updated" && payload.id === inquiryId);
      if (aboutThis) scheduleRefresh();
    }

    // One submission per decision: the service refuses a second anyway, this spares the trip.
    document.addEventListener("submit", function (event) {
      var form = event.target;
      if (!form.matches(".decision-form, #claim-form, #release-form")) return;
      if (form.dataset.submitting) {
        event.preventDefault();
        return;
      }
      form.dataset.submitting = "1";
      // Disable only buttons (they carry no value): disabled inputs would not be submitted.
      setTimeout(function () {
        document.querySelectorAll("#decision-controls button, #live-panel button").forEach(
          function (button) {
            button.disabled = true;
          }
        );
      }, 0);
    });

    function focus(id) {
      var element = document.getElementById(id);
      if (!element) return false;
      var details = element.closest("details");
      if (details) details.open = true;
      element.focus();
      element.scrollIntoView({ block: "center" });
      return true;
    }

    onShortcut(function (event) {
      switch (event.key) {
        case "a":
          if (focus("approve-button")) document.getElementById("approve-button").classList.add("armed");
          break;
        case "r":
          focus("reject-reason");
          break;
        case "e":
          focus("edit-amount") || focus("edit-reason");
          break;
        case "t":
          focus("take-over-reply");
          break;
        case "c":
          var button = document.getElementById("claim-button") || document.getElementById("release-button");
          if (button) button.click();
          break;
        case "u":
          location.href = document.getElementById("back-to-queue").href;
          break;
        default:
          return;
      }
      event.preventDefault();
    });

    if (root.dataset.focus === "approve") focus("approve-button");
    if (root.dataset.focus === "reject") focus("reject-reason");
    applyState();
    liveSocket(root.dataset.socketPath, { onOpen: refreshLive, onEvent: onEvent });
    setInterval(refreshLive, REFRESH_EVERY_MS);
  }

  function start() {
    var queue = document.getElementById("queue-page");
    if (queue) queuePage(queue);
    var detail = document.getElementById("detail-page");
    if (detail) detailPage(detail);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
