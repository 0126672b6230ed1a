/* What the operator is told: the banners the layout renders (already translated, hidden),
 * and short messages in the #messages list. Nothing here builds text of its own: every
 * sentence comes from the template, so it is in the operator's language. */

const byId = (id) => document.getElementById(id);
const failing = new Set(); // the refreshes that failed and have not succeeded since

const showRefreshNotice = () => {
  const banner = byId("refresh-failed-banner");
  if (banner) banner.hidden = failing.size === 0 || isSignedOut();
};

const isSignedOut = () => {
  const banner = byId("signed-out-banner");
  return Boolean(banner && !banner.hidden);
};

/** A refresh named `key` failed: say so until it (or a refresh covering it) succeeds. */
export const refreshFailed = (key) => {
  failing.add(key);
  showRefreshNotice();
};

/** The refreshes named in `keys` succeeded; with no keys, every one did (a full re-read). */
export const refreshSucceeded = (...keys) => {
  if (keys.length === 0) failing.clear();
  keys.forEach((key) => failing.delete(key));
  showRefreshNotice();
};

export const setLive = (on) => {
  const badge = byId("live-indicator");
  if (!badge) return;
  badge.textContent = on ? badge.dataset.liveLabel : badge.dataset.offlineLabel;
  badge.className = `badge ${on ? "ok" : "warn"}`;
};

export const setReconnecting = (on) => {
  const banner = byId("reconnecting-banner");
  if (banner) banner.hidden = !on;
};

/** The login lost the page: only logging in again helps, so the other banners go. */
export const signedOut = () => {
  setReconnecting(false);
  const banner = byId("signed-out-banner");
  if (banner) banner.hidden = false;
  showRefreshNotice();
};

/** A short message in the page's message list, gone after a few seconds. */
export const say = (text, kind = "info") => {
  const list = byId("messages");
  if (!list || !text) return;
  const item = document.createElement("li");
  item.className = `message ${kind}`;
  item.textContent = text;
  list.appendChild(item);
  setTimeout(() => item.remove(), 6000);
};

/** A translated sentence the layout put on #messages as data-<name>. */
export const text = (name) => byId("messages")?.dataset[name] ?? "";
