/* One escalation: the live panel (timeline, status card, controls) is re-read from the
 * server when an event about this escalation or its inquiry arrives, after each (re)connect
 * and every minute; a failed re-read shows the refresh notice and is retried (retry.js).
 * After a decision (or any change of the inquiry) the main column's facts are re-read too
 * (status, amounts as they now stand, the latest reply), leaving the forms and the thread,
 * which is live on its own (thread.js). */

import { getHtml } from "./http.js";
import { focusOn, onShortcuts } from "./keyboard.js";
import { REFRESH_EVERY_MS, retrying } from "./retry.js";
import { liveSocket } from "./socket.js";
import { state } from "./state.js";
import { liveThread } from "./thread.js";

const MAIN_PARTS = ["main-top", "main-facts"]; // the main column's parts without forms
const CHANGES = new Set([
  "escalation.action_decided",
  "escalation.decided",
  "escalation.resolved",
  "inquiry.updated",
]);
// Events that change who holds the escalation: the banner follows at once (then the panel
// is re-read), so it never names a holder who no longer holds it.
const CLAIM_CHANGES = new Set([
  "escalation.claimed",
  "escalation.released",
  "escalation.assigned",
  "escalation.claim_timed_out",
  "escalation.overdue",
]);
const CLAIM_FORMS = "#claim-form, #release-form, #take-over-claim-form, #release-other-form, #assign-form";

export const detailPage = (root) => {
  const { escalationId, inquiryId, user: me } = root.dataset;
  const panel = document.getElementById("live-panel");
  const list = document.getElementById("thread");
  const thread = list ? liveThread(list) : null;
  const column = document.getElementById("main-column");
  let token = 0;
  let pending = null;
  let mainPending = null;
  state.lastSeq = Number(root.dataset.seq) || 0;

  // The timeline grows downwards in a scrolling box: keep its newest step in view.
  const showNewestSteps = () => {
    const timeline = panel.querySelector("ol.timeline");
    if (timeline) timeline.scrollTop = timeline.scrollHeight;
  };

  const applyState = () => {
    const card = document.getElementById("status-card");
    const controls = document.getElementById("decision-controls");
    if (!card || !controls) return;
    controls.disabled = card.dataset.state === "decided" || card.dataset.state === "claimed_by_other";
    root.dataset.state = card.dataset.state;
  };

  // The banner as the event says the claim now stands; the controls wait for the re-read.
  const showHolder = (holder) => {
    const card = document.getElementById("status-card");
    const banner = document.getElementById("state-banner");
    if (!card || !banner || card.dataset.status === "decided") return;
    if ((card.dataset.claimedBy || "") === holder) return;
    const state = !holder ? "unclaimed" : holder === me ? "claimed_by_me" : "claimed_by_other";
    card.dataset.claimedBy = holder;
    card.dataset.state = state;
    const text = {
      unclaimed: card.dataset.bannerUnclaimed,
      claimed_by_me: card.dataset.bannerMine,
      claimed_by_other: (card.dataset.bannerOther || "").replace("{who}", holder),
    }[state];
    banner.textContent = text;
    banner.className = state === "claimed_by_other" ? "notice warn" : "notice";
    card.querySelectorAll(CLAIM_FORMS).forEach((form) => {
      form.hidden = true; // they belonged to the old holder's state
    });
    applyState();
  };

  const live = retrying("detail", async () => {
    const mine = ++token;
    const result = await getHtml(root.dataset.liveUrl);
    if (mine !== token) return; // a newer read is on its way
    panel.innerHTML = result.text;
    showNewestSteps();
    applyState();
  });

  const main = retrying("main", async () => {
    if (!column) return;
    const result = await getHtml(column.dataset.mainUrl);
    const fresh = document.createElement("template");
    fresh.innerHTML = result.text; // rendered and escaped by the server
    MAIN_PARTS.forEach((id) => {
      const part = fresh.content.getElementById(id);
      const current = document.getElementById(id);
      if (part && current) current.replaceWith(part);
    });
  });

  const scheduleMain = () => {
    if (mainPending) return;
    mainPending = setTimeout(() => {
      mainPending = null;
      main.now();
    }, 50);
  };

  const scheduleRefresh = () => {
    if (pending) return;
    pending = setTimeout(() => {
      pending = null;
      live.now();
    }, 50);
  };

  const renderViewers = (names) => {
    const list = document.getElementById("viewers");
    if (!list) return;
    list.textContent = "";
    names.forEach((name) => {
      const item = document.createElement("li");
      item.textContent = name === me ? `${name} (${list.dataset.youLabel})` : name;
      if (name === me) item.className = "me";
      list.appendChild(item);
    });
  };

  const onEvent = ({ event, payload = {} }) => {
    if (event === "escalation.viewers") {
      if (payload.id === escalationId) renderViewers(payload.viewers || []);
      return;
    }
    if (thread?.onEvent({ event, payload })) {
      scheduleRefresh(); // the timeline notes the message too
      return;
    }
    const aboutThis =
      payload.id === escalationId ||
      payload.inquiry_id === inquiryId ||
      (event === "inquiry.updated" && payload.id === inquiryId);
    if (!aboutThis) return;
    if (CLAIM_CHANGES.has(event) && payload.id === escalationId) showHolder(payload.claimed_by || "");
    scheduleRefresh();
    if (CHANGES.has(event)) scheduleMain();
  };

  // One submission per decision: the service refuses a second anyway, this spares the trip.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.matches(`.decision-form, ${CLAIM_FORMS}`)) return;
    if (form.dataset.submitting) {
      event.preventDefault();
      return;
    }
    form.dataset.submitting = "1";
    // Disable only buttons (they carry no value): disabled inputs would not be submitted.
    setTimeout(() => {
      document.querySelectorAll("#decision-controls button, #live-panel button").forEach((button) => {
        button.disabled = true;
      });
    }, 0);
  });

  onShortcuts({
    a: () => {
      if (focusOn("approve-button")) document.getElementById("approve-button").classList.add("armed");
    },
    r: () => {
      focusOn("reject-reason");
    },
    e: () => {
      focusOn("edit-amount") || focusOn("edit-reason");
    },
    t: () => {
      focusOn("take-over-reply");
    },
    c: () => {
      const button = document.getElementById("claim-button") || document.getElementById("release-button");
      if (button) button.click();
    },
    u: () => {
      location.href = document.getElementById("back-to-queue").href;
    },
    n: () => {
      location.href = document.getElementById("next-item").href;
    },
  });

  showNewestSteps();
  if (root.dataset.focus === "approve") focusOn("approve-button");
  if (root.dataset.focus === "reject") focusOn("reject-reason");
  applyState();
  const resync = () => {
    live.now();
    main.now();
    thread?.resync();
  };
  liveSocket(root.dataset.socketPath, { onOpen: resync, onEvent });
  setInterval(live.now, REFRESH_EVERY_MS);
};
