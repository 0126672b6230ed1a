/* Requests to the console's own views. A failure is always an exception the caller handles:
 * nothing is swallowed here. */

import { signedOut } from "./notice.js";

/** The login is gone (or lacks the right): retrying cannot help. */
export class SignedOutError extends Error {}

/** The fresh HTML of a fragment, and the response headers (X-Console-Seq). */
export const getHtml = async (url) => {
  const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
  if ((response.redirected && response.url.includes("/accounts/login")) || response.status === 403) {
    signedOut();
    throw new SignedOutError(`signed out (${response.status})`);
  }
  if (!response.ok) throw new Error(`HTTP ${response.status} from ${url}`);
  return { text: await response.text(), headers: response.headers };
};

/** Posts a form (it carries its csrfmiddlewaretoken) and returns the view's {ok, message}. */
export const postForm = async (form) => {
  const response = await fetch(form.action, {
    method: "POST",
    body: new FormData(form),
    credentials: "same-origin",
    headers: { Accept: "application/json" },
  });
  const body = await response.json(); // not JSON: the caller tells the operator it failed
  return { ok: response.ok && body.ok !== false, message: body.message || "" };
};
