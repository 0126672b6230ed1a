/* A refresh that, when it fails, says so and tries again with back-off (with jitter, so a
 * room of consoles does not retry in step); the notice goes once a refresh succeeds. */

import { SignedOutError } from "./http.js";
import { refreshFailed, refreshSucceeded } from "./notice.js";
import { state } from "./state.js";

export const REFRESH_EVERY_MS = 60000; // keeps ages and deadlines current; a safety net
export const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];

/** The wait before attempt `attempt` (0-based): half the step plus up to half again. */
export const backoff = (attempt) => {
  const base = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];
  return base / 2 + Math.random() * (base / 2);
};

/**
 * Wraps `run` (async, throws on failure) as a refresh named `key`. Calls while one is on its
 * way are folded into one more run after it; a failure schedules a retry unless signed out.
 * Returns `{ now, failed }`: `now()` refreshes, `failed(err)` reports a failure of a related
 * smaller read that this refresh covers (it retries this one).
 */
export const retrying = (key, run) => {
  let attempt = 0;
  let timer = null;
  let inFlight = false;
  let again = false;

  const failed = (err) => {
    if (err instanceof SignedOutError) return; // the signed-out banner says it all
    console.warn(`netshop console: ${key} failed, retrying`, err);
    refreshFailed(key);
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      now();
    }, backoff(attempt));
    attempt += 1;
  };

  const now = async () => {
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    try {
      await run();
      attempt = 0;
      if (timer) clearTimeout(timer);
      timer = null;
      state.refreshes += 1;
      refreshSucceeded(key);
    } catch (err) {
      failed(err);
    } finally {
      inFlight = false;
    }
    if (again) {
      again = false;
      await now();
    }
  };

  return { now, failed };
};
