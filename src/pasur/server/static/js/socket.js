// The table's WebSocket: the hello (the seat token travels in it, never in the URL), every kind
// of message the server sends, and reconnecting after a loss.

import { renderChat } from "./chat.js";
import { showNext } from "./motion.js";
import { rematchMade } from "./rematch.js";
import { $, page, tableId } from "./state.js";
import { render, renderScorebar, renderSeats, renderWaiting } from "./table.js";
import { lang, t } from "./words.js";

let socket = null;
let retry = 400;

export function token() {
  return localStorage.getItem(`pasur-token-${tableId}`);
}

function showConnection(connected) {
  const badge = $("#connection");
  badge.textContent = connected ? t("connected") : t("reconnecting");
  badge.classList.toggle("lost", !connected);
  $("#offline").hidden = connected;
}

export function connect() {
  const url = new URL(`/ws/${encodeURIComponent(tableId)}`, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(url);
  socket.onopen = () => {
    retry = 400;
    showConnection(true);
    socket.send(JSON.stringify({ type: "hello", token: token(), since: page.version }));
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    showConnection(false);
    if (event.code === 4404) return;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 4000);
  };
}

/** Connect again at once, as the seat now held (after taking one). */
export function reconnect() {
  socket.onclose = null;
  socket.close();
  connect();
}

function receive(message) {
  const state = page.state;
  if (message.type === "state") {
    page.version = message.version;
    page.seatHeld = message.table.you;
    if (message.chat) { page.chatLines = message.chat; renderChat(); }
    if (message.table.status === "open" && sessionStorage.getItem(`pasur-start-${tableId}`)) {
      sessionStorage.removeItem(`pasur-start-${tableId}`);  // a quick game: no one else to wait for
      send({ type: "start" });
    }
    page.queue.push(message);
    showNext();
  } else if (message.type === "refused" || message.type === "error") {
    if (page.sent && message.id === page.sent.id && state) { state.legal = page.sent.legal; page.sent = null; render(); }
    page.hintAsked = null;  // a hint refused may be asked again
    $("#table-error").textContent = (message.messages && message.messages[lang]) || message.message;
  } else if (message.type === "presence") {
    page.spectators = message.spectators;
    for (const pending of [state, ...page.queue]) {
      if (pending) message.connected.forEach((connected, seat) => { pending.table.seats[seat].connected = connected; });
    }
    // only who is here changed: the hand and the table stay as they are (a tap in progress is kept)
    if (state && state.table.status === "open") renderWaiting();
    else if (state && state.view) { renderScorebar(); renderSeats(); }
  } else if (message.type === "chat") {
    page.chatLines = [...page.chatLines, message].slice(-100);
    renderChat();
  } else if (message.type === "hint") {
    if (state && message.version === state.version) {
      page.hinted = message;
      $("#hint-text").textContent = t("hint_line", { reason: message.reason }) + (message.why ? `\n${t("hint_why", { why: message.why })}` : "");
      render();
    }
  } else if (message.type === "pace") {
    if (state) { state.table.fast = message.fast; render(); }
    $("#table-error").textContent = "";
  } else if (message.type === "seated") {
    reconnect();  // the token holds another seat now: the connection is made again as it
  } else if (message.type === "rematch") {
    rematchMade(message.id);
  } else if (["ack", "said", "started", "dealt_on", "pong", "resigned", "freed"].includes(message.type)) {
    $("#table-error").textContent = "";  // done: the state that follows shows what changed
  }
}

export function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}
