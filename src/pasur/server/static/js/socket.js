// The table's WebSocket: the hello (the seat token travels in it, never in the URL), each message
// the server sends given to the handler of its type (main.js gives the map: news.js), and
// reconnecting after a loss.

import { connectOffline, sendOffline } from "./offline.js";
import { $, offlineTable, page, tableId } from "./state.js";
import { t } from "./words.js";

let socket = null;
let retry = 400;
let handlers = {};

export function token() {
  return localStorage.getItem(`pasur-token-${tableId}`);
}

function showConnection(connected) {
  const badge = $("#connection");
  badge.textContent = offlineTable ? t("on_this_device") : connected ? t("connected") : t("reconnecting");
  badge.classList.toggle("lost", !connected);
  $("#offline").hidden = connected;
}

/** Connect, and keep connected, giving each message to ``given[message.type]``. */
export function connect(given = handlers) {
  handlers = given;
  if (offlineTable) {
    showConnection(true);
    connectOffline(handlers);
    return;
  }
  const url = new URL(`/ws/${encodeURIComponent(tableId)}`, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(url);
  socket.onopen = () => {
    retry = 400;
    showConnection(true);
    if ($("#table-error").textContent === t("move_not_sent")) $("#table-error").textContent = "";
    socket.send(JSON.stringify({ type: "hello", token: token(), since: page.version }));
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    handlers[message.type]?.(message);
  };
  socket.onclose = (event) => {
    showConnection(false);
    if (event.code === 4404) return;
    setTimeout(() => connect(), retry);
    retry = Math.min(retry * 2, 4000);
  };
}

/** Connect again at once, as the seat now held (after taking one). */
export function reconnect() {
  socket.onclose = null;
  socket.close();
  connect();
}

/** Send a message to the table; whether it went (not while the connection is down). */
export function send(message) {
  if (offlineTable) sendOffline(message);
  else if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else return false;
  return true;
}
