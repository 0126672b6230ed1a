/* The page's live state, shared by the modules and read by the browser tests
 * (window.netshopConsole: connected, resyncs, refreshes, lastSeq, dropSocket). */

export const state = {
  lastSeq: 0,
  socket: null,
  connected: false,
  resyncs: 0, // socket opens, each followed by a re-read of the page's state
  refreshes: 0, // re-reads that succeeded (retry.js)
  openCount: 0, // open escalations, shown in the tab title (alerts.js)
  alerts: 0, // new-approval alerts given (alerts.js)
  dropSocket: () => {},
};

/** Keeps the newest event sequence number the page has seen (from a frame or a header). */
export const noteSeq = (seq) => {
  if (typeof seq === "number" && seq > state.lastSeq) state.lastSeq = seq;
};
