/* A conversation's thread, live, on the conversation page and the escalation page alike.
 * A `conversation.message` about it is appended at once, its text set with textContent
 * (customer text stays inert: it never passes through innerHTML); the whole thread is
 * re-read from the server (escaped there) after each (re)connect, since the socket replays
 * nothing, and shortly after each new message so "not answered yet" marks stay true. */

import { getHtml } from "./http.js";
import { retrying } from "./retry.js";

const SETTLE_MS = 400;

const formatter = (zone) => {
  const options = { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" };
  try {
    return new Intl.DateTimeFormat("sv-SE", { ...options, timeZone: zone || undefined });
  } catch (err) {
    console.warn("netshop console: unknown time zone, using the browser's", err);
    return new Intl.DateTimeFormat("sv-SE", options);
  }
};

const span = (className, text) => {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
};

const capitalised = (word) => word.charAt(0).toUpperCase() + word.slice(1);

/** Wires the thread list `list` (ol#thread); returns `{ onEvent, resync }` for the page. */
export const liveThread = (list) => {
  const { inquiryId } = list.dataset;
  const format = formatter(list.dataset.timeZone);
  let settle = null;

  const label = (kind) => list.dataset[`label${capitalised(kind)}`] || kind;
  // A stored code in the page's words (data-channel-web="..."), else the code itself.
  const word = (term, code) => (code ? list.dataset[`${term}${capitalised(code)}`] || code : "");
  const shown = (id) => [...list.querySelectorAll("li[data-message-id]")].some((item) => item.dataset.messageId === id);

  const item = (message) => {
    const entry = document.createElement("li");
    entry.className = `msg author-${message.author_kind} arrived`;
    entry.dataset.messageId = message.id;
    entry.dataset.authorKind = message.author_kind;
    const head = document.createElement("div");
    head.className = "msg-head";
    head.appendChild(span("msg-kind", label(message.author_kind)));
    if (message.author) head.append(" ", span("msg-author", message.author));
    const time = document.createElement("time");
    time.dateTime = message.created_at;
    time.textContent = format.format(new Date(message.created_at));
    head.append(" ", time, " ");
    const meta = [word("channel", message.channel), word("language", message.language)].filter(Boolean).join(" · ");
    head.appendChild(span("msg-meta muted", meta));
    const body = document.createElement("div");
    body.className = "customer-text msg-text";
    body.textContent = message.text;
    entry.append(head, body);
    return entry;
  };

  const resync = retrying("thread", async () => {
    const result = await getHtml(list.dataset.threadUrl);
    const fresh = document.createElement("template");
    fresh.innerHTML = result.text; // rendered and escaped by the server
    list.replaceChildren(fresh.content);
  });

  const onEvent = ({ event, payload = {} }) => {
    if (event !== "conversation.message" || payload.inquiry_id !== inquiryId) return false;
    if (!shown(payload.id)) {
      list.querySelector(".thread-empty")?.remove();
      list.appendChild(item(payload));
    }
    clearTimeout(settle);
    settle = setTimeout(resync.now, SETTLE_MS);
    return true;
  };

  return { onEvent, resync: resync.now };
};
