/* NetShop help page: each conversation's status and messages, live.
 *
 * One socket per conversation shown (/ws/help/<id>/): it brings status changes
 * (inquiry.updated) and new messages (conversation.message). When it opens, the page fetches
 * what it may have missed (a channel layer can drop a message); when a socket cannot stay
 * open the page polls the status and messages URLs instead. Text is set with textContent
 * only: nothing a customer or anyone else wrote is ever parsed as HTML.
 */
(function () {
  "use strict";

  var POLL_MS = 3000;
  // Close codes of operators/access.py SocketClose: signed out or not allowed, so do not poll.
  var SIGNED_OUT = 4401;
  var FORBIDDEN = 4403;
  var labels = JSON.parse(document.getElementById("help-status-labels").textContent);
  var authors = JSON.parse(document.getElementById("help-author-labels").textContent);
  var receiptLabel = JSON.parse(document.getElementById("help-receipt-label").textContent);
  var root = document.getElementById("help-page");
  var finals = (root.dataset.finalStatuses || "").split(",");
  var feedbackTemplate = document.getElementById("feedback-template");
  var ZERO_ID = "00000000-0000-0000-0000-000000000000";

  function apply(card, payload) {
    if (!payload || !payload.status) return;
    card.dataset.status = payload.status;
    var badge = card.querySelector(".inquiry-status");
    badge.textContent = labels[payload.status] || payload.status;
    badge.className = "badge inquiry-status status-" + payload.status;
    card.dataset.final = finals.indexOf(payload.status) !== -1 ? "1" : "0";
  }

  // Times in the page's zone (the shop's), as the server stamps the messages it renders: the
  // browser's own zone would stamp a live message hours apart from the one above it.
  var stamp = (function () {
    var options = { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" };
    try {
      return new Intl.DateTimeFormat("sv-SE", Object.assign({ timeZone: root.dataset.timeZone || undefined }, options));
    } catch (err) {
      return new Intl.DateTimeFormat("sv-SE", options);
    }
  })();

  function shownTime(iso) {
    var at = new Date(iso);
    if (isNaN(at.getTime())) return "";
    return stamp.format(at);
  }

  function messageItem(card, message) {
    var item = document.createElement("li");
    item.className = "message author-" + message.author_kind;
    item.dataset.messageId = message.id;
    var head = document.createElement("div");
    head.className = "message-head";
    var author = document.createElement("strong");
    author.className = "message-author";
    author.textContent = authors[message.author_kind] || "";
    var time = document.createElement("time");
    time.setAttribute("datetime", message.created_at);
    time.textContent = shownTime(message.created_at);
    head.appendChild(author);
    head.appendChild(document.createTextNode(" "));
    head.appendChild(time);
    var text = document.createElement("div");
    text.className = "customer-text message-text";
    text.textContent = message.text;
    item.appendChild(head);
    item.appendChild(text);
    if (message.answer) item.appendChild(feedbackForm(card, message.id));
    return item;
  }

  // Under an AI answer that arrived live: the same "solved / not solved" form the server
  // renders, from the page's template, posting to this answer's URL.
  function feedbackForm(card, messageId) {
    var part = feedbackTemplate.content.cloneNode(true);
    var form = part.querySelector("form");
    form.action = card.dataset.feedbackUrl.replace(ZERO_ID, messageId);
    disableOnSubmit(form);
    return part;
  }

  function addMessage(card, message) {
    // Notes never reach this socket; refuse any other kind all the same.
    if (!message || !message.id || !(message.author_kind in authors)) return;
    var thread = card.querySelector(".thread");
    var known = thread.querySelectorAll(".message");
    for (var i = 0; i < known.length; i++) {
      if (known[i].dataset.messageId === message.id) return; // from the socket and a fetch
    }
    thread.appendChild(messageItem(card, message));
  }

  // Receipts issued in this conversation: a download link each (the URL comes from the
  // server's own list; the label is the page's translated text with the numbers filled in).
  function showReceipts(card, receipts) {
    var list = card.querySelector(".receipts");
    if (!list || !receipts) return;
    receipts.forEach(function (receipt) {
      var known = list.querySelectorAll(".receipt");
      for (var i = 0; i < known.length; i++) {
        if (known[i].dataset.receiptNumber === receipt.number) return;
      }
      var item = document.createElement("li");
      item.className = "receipt";
      item.dataset.receiptNumber = receipt.number;
      var link = document.createElement("a");
      link.className = "receipt-link";
      link.href = receipt.url;
      link.setAttribute("download", "");
      link.textContent = receiptLabel
        .replace("{number}", receipt.number)
        .replace("{order}", receipt.order_number);
      item.appendChild(link);
      list.appendChild(item);
    });
    list.hidden = list.querySelectorAll(".receipt").length === 0;
  }

  function lastMessageId(card) {
    var known = card.querySelectorAll(".thread .message");
    return known.length ? known[known.length - 1].dataset.messageId : "";
  }

  function getJson(url) {
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      return response.ok ? response.json() : null;
    });
  }

  function catchUp(card) {
    var after = lastMessageId(card);
    var url = card.dataset.messagesUrl + (after ? "?after=" + encodeURIComponent(after) : "");
    return Promise.all([
      getJson(card.dataset.statusUrl).then(function (payload) {
        apply(card, payload);
      }),
      getJson(url).then(function (body) {
        (body ? body.messages : []).forEach(function (message) {
          addMessage(card, message);
        });
      }),
      getJson(card.dataset.receiptsUrl).then(function (body) {
        showReceipts(card, body ? body.receipts : []);
      }),
    ]).catch(function (error) {
      // The poll (or the next socket message) brings it; nothing is lost.
      console.warn("could not refresh the conversation", error);
    });
  }

  function poll(card) {
    if (card.dataset.polling) return;
    card.dataset.polling = "1";
    setInterval(function () {
      catchUp(card);
    }, POLL_MS);
  }

  function watch(card) {
    if (!("WebSocket" in window)) {
      poll(card);
      return;
    }
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + location.host + card.dataset.socketPath);
    socket.onopen = function () {
      card.dataset.live = "1";
      catchUp(card); // what changed between the page load and the socket opening
    };
    socket.onmessage = function (message) {
      var data;
      try {
        data = JSON.parse(message.data);
      } catch (err) {
        return;
      }
      if (data.event === "inquiry.updated") apply(card, data.payload);
      if (data.event === "conversation.message") {
        addMessage(card, data.payload);
        // A reply may come with a receipt: fetch the list (the socket carries no links).
        getJson(card.dataset.receiptsUrl)
          .then(function (body) {
            showReceipts(card, body ? body.receipts : []);
          })
          .catch(function () {}); // the next catch-up brings it
      }
    };
    socket.onclose = function (event) {
      card.dataset.live = "0";
      if (event.code !== SIGNED_OUT && event.code !== FORBIDDEN) poll(card);
    };
  }

  document.querySelectorAll("#inquiries .inquiry").forEach(watch);

  function disableOnSubmit(form) {
    form.addEventListener("submit", function () {
      var buttons = form.querySelectorAll("button[type=submit]");
      setTimeout(function () {
        buttons.forEach(function (button) {
          button.disabled = true;
        });
      }, 0);
    });
  }

  document.querySelectorAll("#inquiry-form, .reply-form, .feedback-form").forEach(disableOnSubmit);
})();
