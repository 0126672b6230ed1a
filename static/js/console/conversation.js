/* One conversation: the thread live (thread.js), and the composer, re-read when the
 * conversation changes hands (taken over, handed back, closed, flagged) so that only the
 * buttons the operator may use show; what they typed survives the re-read. The forms post
 * and reload (post/redirect/get); the server refuses what is not theirs to do. */

import { getHtml } from "./http.js";
import { retrying } from "./retry.js";
import { liveSocket } from "./socket.js";
import { state } from "./state.js";
import { liveThread } from "./thread.js";

const TYPED = ["message-text", "note-text", "flag-reason"];

export const conversationPage = (root) => {
  const { inquiryId } = root.dataset;
  const panel = document.getElementById("composer-panel");
  const list = document.getElementById("thread");
  const thread = list ? liveThread(list) : null;
  state.lastSeq = Number(root.dataset.seq) || 0;

  const composer = retrying("composer", async () => {
    const result = await getHtml(root.dataset.composerUrl);
    const fresh = document.createElement("template");
    fresh.innerHTML = result.text; // rendered and escaped by the server
    const card = fresh.content.querySelector("#composer");
    const current = document.getElementById("composer");
    if (!card || (current && current.dataset.state === card.dataset.state)) return;
    TYPED.forEach((id) => {
      const before = document.getElementById(id);
      const after = card.querySelector(`#${id}`);
      if (before && after && before.value) after.value = before.value;
    });
    panel.replaceChildren(fresh.content);
  });

  const onEvent = (message) => {
    if (thread?.onEvent(message)) return;
    const { event, payload = {} } = message;
    const aboutThis = payload.inquiry_id === inquiryId || (event === "inquiry.updated" && payload.id === inquiryId);
    if (aboutThis) composer.now();
  };

  // A canned reply fills the message box (as text: the operator edits it before sending).
  document.addEventListener("change", (event) => {
    if (event.target.id !== "canned-select") return;
    const option = event.target.selectedOptions[0];
    const box = document.getElementById("message-text");
    if (!option?.dataset.body || !box) return;
    box.value = option.dataset.body;
    box.focus();
  });

  // Ctrl+Enter (Cmd+Enter on a Mac) in a composer's box sends its form, as a click would
  // (the form's own checks and the one-submission guard below still apply).
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey)) return;
    const box = event.target;
    const form = box instanceof HTMLTextAreaElement ? box.closest("form.composer-form") : null;
    if (!form) return;
    event.preventDefault();
    form.requestSubmit();
  });

  // One submission per click: a second would be refused or sent twice.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.matches(".composer-form")) return;
    if (form.dataset.submitting) {
      event.preventDefault();
      return;
    }
    form.dataset.submitting = "1";
  });

  liveSocket(root.dataset.socketPath, {
    onOpen: () => {
      thread?.resync();
      composer.now();
    },
    onEvent,
  });
};
