/* The console socket: connect, reconnect with back-off, stop for good when signed out.
 * Channel layers deliver at most once and nothing is replayed, so every (re)open calls
 * `onOpen`, which re-reads the page's state. */

import { backoff } from "./retry.js";
import { setLive, setReconnecting, signedOut } from "./notice.js";
import { noteSeq, state } from "./state.js";

// Close codes of operators/access.py SocketClose: the login lost the socket, so stop retrying.
export const SIGNED_OUT = 4401;
export const FORBIDDEN = 4403;

const parse = (raw) => {
  try {
    return JSON.parse(raw);
  } catch (err) {
    console.warn("netshop console: a frame that is not JSON was ignored", err);
    return null;
  }
};

/** Listens on `path`; `onOpen()` after each open, `onEvent(message)` for each frame. */
export const liveSocket = (path, { onOpen, onEvent }) => {
  let attempt = 0;
  let stopped = false;

  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + path);
    state.socket = socket;
    socket.onopen = () => {
      attempt = 0;
      state.connected = true;
      setLive(true);
      setReconnecting(false);
      state.resyncs += 1;
      onOpen();
    };
    socket.onmessage = (message) => {
      const data = parse(message.data);
      if (!data) return;
      noteSeq(data.seq);
      onEvent(data);
    };
    socket.onclose = (event) => {
      state.connected = false;
      setLive(false);
      if (stopped) return;
      if (event.code === SIGNED_OUT || event.code === FORBIDDEN) {
        signedOut();
        return;
      }
      setReconnecting(true);
      setTimeout(connect, backoff(attempt));
      attempt += 1;
    };
  };

  window.addEventListener("pagehide", () => {
    stopped = true;
    state.socket?.close();
  });
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return; // back from the page cache: listen again, then resync
    stopped = false;
    connect();
  });
  state.dropSocket = () => state.socket?.close();
  connect();
};
