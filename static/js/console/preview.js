/* The decision form's preview: the exact reply the customer will get, shown before it is sent.
 *
 * Each decision form (approve, edit, reject) asks the server what its decision would send
 * (POST .../preview, JSON) when the page loads (approve), when its panel opens and as the
 * operator types (debounced). The text is shown as text, never as HTML. The form carries the
 * text it showed (hidden "preview"): the server refuses the decision if that is no longer the
 * reply it sends. A submit whose preview is out of date waits for the fresh one first; words
 * in another language than the customer's are sent only once the operator ticks the
 * confirmation (the server checks that too). One preview shows at a time: the one of the
 * form the operator is working in (the approve form, or the edit panel once opened, or the
 * rejection once its reason is typed), so an edited amount never stands below the original.
 */

import { SignedOutError } from "./http.js";

const DEBOUNCE_MS = 300;
const FIELDS = ["decision", "amount", "reason", "reply"];

const panel = document.getElementById("decision-panel");
const previewers = new Map(); // form -> its previewer
let current = null; // the form whose preview is shown

/** Shows `form`'s preview alone (the form the operator is now working in). */
const makeCurrent = (form) => {
  if (!previewers.has(form) || current === form) return;
  current = form;
  previewers.forEach((preview, other) => preview.setShown(other === form));
};

/** What the operator has entered: a preview answers exactly one of these. */
const keyOf = (form) => JSON.stringify(FIELDS.map((name) => form.elements[name]?.value ?? ""));

const part = (form, name) => form.querySelector(`[id$="-${name}"]`);

const previewer = (form) => {
  const box = form.querySelector(".reply-preview");
  const text = part(form, "preview-text");
  const warning = part(form, "language-warning");
  const confirm = part(form, "language-confirm");
  const sent = part(form, "preview-sent");
  let token = 0;
  let timer = null;
  let inFlight = null;
  let mismatch = false;
  let filled = false; // a preview (or why there is none) has been written in the box

  const show = (message, { exact = true, warn = "" } = {}) => {
    filled = true;
    box.hidden = current !== form;
    text.textContent = message;
    text.classList.toggle("muted", !exact);
    warning.textContent = warn;
    warning.hidden = !warn;
    if (confirm) confirm.hidden = !warn;
  };

  const wanted = () => form.elements.decision.value !== "reject" || form.elements.reason.value.trim();

  const fetchPreview = async () => {
    const mine = ++token;
    const key = keyOf(form);
    const body = new FormData(form);
    body.delete("preview");
    show(panel.dataset.previewPending, { exact: false });
    const response = await fetch(panel.dataset.previewUrl, {
      method: "POST",
      body,
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    if (response.status === 403) throw new SignedOutError("signed out (403)");
    const answer = await response.json();
    if (mine !== token) return; // a newer preview is on its way
    sent.value = answer.ok && answer.exact ? answer.text : "";
    mismatch = Boolean(answer.ok && answer.language_mismatch);
    form.dataset.previewed = answer.ok ? key : "";
    if (!answer.ok) show(answer.message || panel.dataset.previewFailed, { exact: false });
    else if (!answer.exact) show(panel.dataset.previewLater, { exact: false });
    else show(answer.text, { warn: answer.warning || "" });
    form.dataset.previewState = answer.ok ? "shown" : "refused"; // read by browser tests
  };

  const refresh = () => {
    clearTimeout(timer);
    timer = null;
    if (!wanted()) {
      box.hidden = true;
      filled = false;
      form.dataset.previewed = "";
      return Promise.resolve();
    }
    inFlight = fetchPreview().catch(() => {
      if (!(token && form.dataset.previewed)) show(panel.dataset.previewFailed, { exact: false });
      form.dataset.previewState = "failed";
    });
    return inFlight;
  };

  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, DEBOUNCE_MS);
  };

  form.addEventListener("input", (event) => {
    if (event.target.name !== "confirm_language") later();
  });

  // Runs before the page's own submit guard (detail.js listens on the document).
  form.addEventListener("submit", async (event) => {
    if (form.dataset.previewBypass) return; // no preview could be had: the server decides
    const current = form.dataset.previewed === keyOf(form) && !timer;
    const confirmed = !confirm || confirm.querySelector("input").checked;
    if (current && (!mismatch || confirmed)) return; // the text shown is the text sent
    event.preventDefault();
    event.stopPropagation();
    if (!current) await refresh();
    if (mismatch && !(confirm && confirm.querySelector("input").checked)) {
      confirm?.querySelector("input").focus();
      return; // the operator sees the warning and confirms, or rewrites
    }
    if (form.dataset.previewState !== "shown") form.dataset.previewBypass = "1"; // the server says why
    if (form.dataset.previewed === keyOf(form) || form.dataset.previewBypass) {
      form.requestSubmit(event.submitter || undefined);
    }
  });

  const setShown = (on) => {
    box.hidden = !(on && filled);
  };

  return { refresh, later, setShown };
};

if (panel && panel.dataset.previewUrl) {
  const forms = ["approve-form", "edit-form", "reject-form"]
    .map((id) => document.getElementById(id))
    .filter((form) => form && form.querySelector(".reply-preview"));
  forms.forEach((form) => {
    if (form.closest("fieldset")?.disabled) return; // decided, or someone else's claim
    const preview = previewer(form);
    previewers.set(form, preview);
    const details = form.closest("details");
    if (details) {
      details.addEventListener("toggle", () => {
        if (details.open) {
          makeCurrent(form);
          preview.refresh();
        } else if (current === form) {
          makeCurrent(forms[0]); // back to the first form (approve)
        }
      });
    }
    form.addEventListener("focusin", () => makeCurrent(form));
    const typed = form.id === "reject-form" && form.elements.reason.value.trim();
    if (form.id === "approve-form" || details?.open || typed) {
      makeCurrent(form);
      preview.refresh();
    }
  });
}
