/* What tells an operator of the queue without looking at it: the open count in the tab title
 * ("(3) Escalation queue · NetShop"), and, if they switched it on in the preferences, a desktop
 * notification and a short beep for each new approval.
 *
 * The count is the server's (X-Open-Count on every rows read, which each socket event starts),
 * so an event heard twice or missed cannot leave it wrong. Browsers allow a notification
 * permission request and an audio context only after a user gesture: the preferences checkbox
 * asks for permission when ticked, and the first click or key on the page unlocks the sound. */

import { state } from "./state.js";

const BEEP_HZ = 880;
const BEEP_S = 0.15;
let audio = null;

const alertsOn = () => Boolean(document.getElementById("notify-browser")?.checked);

/** Keeps "(n) " in front of the page's own title; returns the setter. */
export const titleCount = (initial) => {
  const base = document.title.replace(/^\(\d+\) /, "");
  const set = (count) => {
    if (!Number.isFinite(count) || count < 0) return;
    state.openCount = count;
    document.title = count > 0 ? `(${count}) ${base}` : base;
  };
  set(initial);
  return set;
};

/** The count a rows response carries, if it carries one. */
export const countOf = (headers) => {
  const raw = headers.get("X-Open-Count");
  return raw === null || raw === "" ? NaN : Number(raw);
};

const unlockSound = () => {
  if (!alertsOn()) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  audio = audio || new Context();
  if (audio.state === "suspended") audio.resume();
};

const beep = () => {
  if (!audio || audio.state !== "running") return;
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  oscillator.frequency.value = BEEP_HZ;
  gain.gain.setValueAtTime(0.2, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + BEEP_S);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start();
  oscillator.stop(audio.currentTime + BEEP_S);
};

/** Wires the permission request and the sound unlock to user gestures. */
export const setUpAlerts = () => {
  const box = document.getElementById("notify-browser");
  box?.addEventListener("change", () => {
    if (box.checked && "Notification" in window && Notification.permission === "default") {
      Notification.requestPermission();
    }
    unlockSound();
  });
  document.addEventListener("click", unlockSound, { once: true });
  document.addEventListener("keydown", unlockSound, { once: true });
};

/** A new approval arrived: notify and beep, if the operator asked for it. */
export const newApproval = (payload, title) => {
  if (!alertsOn() || payload.kind !== "approval") return;
  state.alerts = (state.alerts || 0) + 1;
  beep();
  if ("Notification" in window && Notification.permission === "granted") {
    const note = new Notification(title, { body: payload.summary || "", tag: payload.id });
    note.onclick = () => window.focus();
  }
};
