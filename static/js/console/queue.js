/* The live queue: the server renders every row; this re-reads the rows that changed (or the
 * whole page of them after a reconnect, and every minute), keeps the selection, and wires
 * the row forms and the shortcuts. Re-reads are idempotent, so a late or repeated event does
 * no harm; a failed re-read shows the refresh notice and is retried (retry.js). */

import { countOf, newApproval, setUpAlerts, titleCount } from "./alerts.js";
import { getHtml, postForm } from "./http.js";
import { onShortcuts } from "./keyboard.js";
import { refreshSucceeded, say, text } from "./notice.js";
import { REFRESH_EVERY_MS, retrying } from "./retry.js";
import { liveSocket } from "./socket.js";
import { noteSeq, state } from "./state.js";

export const queuePage = (root) => {
  const body = document.getElementById("queue-body");
  const empty = document.getElementById("queue-empty");
  const query = root.dataset.query || "";
  const hasNext = root.dataset.hasNext === "1";
  let waiting = new Set(); // rows to re-read once a full re-read is done
  const rowToken = new Map(); // the latest read of each row wins
  let selectedId = null;
  let fullInFlight = false;
  state.lastSeq = Number(root.dataset.seq) || 0;
  const setCount = titleCount(Number(root.dataset.openCount));

  const url = (extra = {}) => {
    const params = new URLSearchParams(query);
    Object.entries(extra).forEach(([key, value]) => params.set(key, value));
    return `${root.dataset.rowsUrl}?${params}`;
  };
  const rows = () => [...body.querySelectorAll("tr.queue-row")];
  const rowOf = (id) => (id ? document.getElementById(`row-${id}`) : null);
  const updateEmpty = () => {
    if (empty) empty.hidden = rows().length > 0;
  };
  const bump = (id) => {
    const token = (rowToken.get(id) || 0) + 1;
    rowToken.set(id, token);
    return token;
  };

  // The whole page of rows: after each (re)connect, every minute, and to retry a failed row.
  const full = retrying("queue", async () => {
    fullInFlight = true;
    try {
      const result = await getHtml(url());
      body.innerHTML = result.text;
      setCount(countOf(result.headers));
      noteSeq(Number(result.headers.get("X-Console-Seq")) || 0);
      select(selectedId, false);
      updateEmpty();
      refreshSucceeded(); // every row was read afresh: no row failure is left standing
    } finally {
      fullInFlight = false;
      const ids = [...waiting];
      waiting = new Set();
      ids.forEach(refreshRow);
    }
  });

  const refreshRow = async (id) => {
    if (fullInFlight) {
      waiting.add(id);
      return;
    }
    const token = bump(id);
    try {
      const result = await getHtml(url({ id }));
      setCount(countOf(result.headers));
      if (rowToken.get(id) === token) place(id, result.text.trim());
    } catch (err) {
      full.failed(err); // one full re-read brings this row (and any other) up to date
    }
  };

  const removeRow = (id) => {
    bump(id); // a read still on its way must not bring it back
    waiting.delete(id);
    const row = rowOf(id);
    if (!row) return;
    if (id === selectedId) move(1) || move(-1);
    row.remove();
    if (id === selectedId) selectedId = null;
    updateEmpty();
  };

  const place = (id, html) => {
    const existing = rowOf(id);
    if (!html) {
      if (existing) removeRow(id);
      return;
    }
    const template = document.createElement("template");
    template.innerHTML = html;
    const row = template.content.firstElementChild;
    if (existing) existing.replaceWith(row);
    else if (!insertSorted(row)) return;
    if (id === selectedId) row.classList.add("selected");
    row.classList.add("flash");
    setTimeout(() => row.classList.remove("flash"), 2000);
    updateEmpty();
  };

  const insertSorted = (row) => {
    const key = row.dataset.sortKey;
    const later = rows().find((other) => other.dataset.sortKey > key);
    if (later) {
      body.insertBefore(row, later);
      return true;
    }
    if (hasNext) return false; // it sorts after this page: it belongs on a later page
    body.appendChild(row);
    return true;
  };

  const onEvent = ({ event, payload = {} }) => {
    switch (event) {
      case "escalation.created":
        newApproval(payload, root.dataset.alertTitle);
        refreshRow(payload.id);
        break;
      case "escalation.claimed":
      case "escalation.released":
      case "escalation.assigned":
      case "escalation.claim_timed_out":
      case "escalation.overdue":
      case "escalation.action_decided":
        refreshRow(payload.id);
        break;
      case "escalation.decided":
        removeRow(payload.id);
        refreshRow(payload.id); // its answer is empty; its header carries the new count
        break;
      default:
        break;
    }
  };

  // Selection.
  const select = (id, scroll = true) => {
    rows().forEach((row) => {
      const on = row.dataset.escalationId === id;
      row.classList.toggle("selected", on);
      row.setAttribute("aria-selected", on ? "true" : "false");
    });
    const row = rowOf(id);
    selectedId = row ? id : null;
    if (row && scroll) row.scrollIntoView({ block: "nearest" });
  };

  const move = (step) => {
    const list = rows();
    if (!list.length) return false;
    const index = list.findIndex((row) => row.dataset.escalationId === selectedId);
    const next = index === -1 ? (step > 0 ? 0 : list.length - 1) : index + step;
    if (next < 0 || next >= list.length) return false;
    select(list[next].dataset.escalationId);
    return true;
  };

  const open = (focus) => {
    const row = rowOf(selectedId);
    if (row) location.href = row.dataset.detailUrl + (focus ? `?focus=${focus}` : "");
  };

  const submitRowForm = async (form) => {
    const id = form.closest("tr").dataset.escalationId;
    form.querySelectorAll("button").forEach((button) => {
      button.disabled = true;
    });
    try {
      const result = await postForm(form);
      say(result.message, result.ok ? "success" : "error");
    } catch (err) {
      console.warn("netshop console: a row action failed", err);
      say(text("sendFailed"), "error");
    }
    refreshRow(id); // the row as it now stands, buttons enabled again
  };

  body.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.matches(".claim-form, .release-form")) return;
    event.preventDefault();
    submitRowForm(form);
  });
  body.addEventListener("click", (event) => {
    const row = event.target.closest("tr.queue-row");
    if (row && !event.target.closest("a, button, form")) select(row.dataset.escalationId);
  });

  onShortcuts({
    j: () => {
      move(1);
    },
    k: () => {
      move(-1);
    },
    Enter: (event) => {
      if (event.target !== document.body && !event.target.closest("tr.queue-row")) return false;
      open("");
      return true;
    },
    c: () => {
      const claim = rowOf(selectedId)?.querySelector(".claim-form");
      if (claim) submitRowForm(claim);
    },
    n: () => {
      const free = rows().find((row) => !row.dataset.claimedBy || row.classList.contains("is-mine"));
      if (!free) return;
      select(free.dataset.escalationId);
      open("");
    },
    a: () => open("approve"),
    r: () => open("reject"),
  });

  updateEmpty();
  setUpAlerts();
  liveSocket(root.dataset.socketPath, { onOpen: full.now, onEvent });
  setInterval(full.now, REFRESH_EVERY_MS);
};
