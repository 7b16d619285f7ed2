// What the table's socket is sent, a handler for each kind (main.js gives this map to the socket):
// states are queued and shown play by play, refusals said, who is here and the chat kept current,
// a hint shown, and every answer that only says "done" clears the last refusal.

import { renderChat } from "./chat.js";
import { renderScorebar, renderSeats } from "./felt.js";
import { showNext } from "./motion.js";
import { rematchMade } from "./rematch.js";
import { reconnect, send } from "./socket.js";
import { $, page, tableId } from "./state.js";
import { render, renderWaiting } from "./table.js";
import { lang, t } from "./words.js";

function refused(message) {
  const state = page.state;
  if (page.sent && message.id === page.sent.id && state) { state.legal = page.sent.legal; page.sent = null; render(); }
  page.hintAsked = null;  // a hint refused may be asked again
  $("#table-error").textContent = (message.messages && message.messages[lang]) || message.message;
}

function done() {
  $("#table-error").textContent = "";  // the state that follows shows what changed
}

export const tableNews = {
  state(message) {
    page.version = message.version;
    page.seatHeld = message.table.you;
    if (message.chat) { page.chatLines = message.chat; renderChat(); }
    if (message.table.status === "open" && sessionStorage.getItem(`pasur-start-${tableId}`)) {
      sessionStorage.removeItem(`pasur-start-${tableId}`);  // a quick game: no one else to wait for
      send({ type: "start" });
    }
    page.queue.push(message);
    showNext();
  },
  refused,
  error: refused,
  presence(message) {
    const state = page.state;
    page.spectators = message.spectators;
    for (const pending of [state, ...page.queue]) {
      if (pending) message.connected.forEach((connected, seat) => { pending.table.seats[seat].connected = connected; });
    }
    // only who is here changed: the hand and the table stay as they are (a tap in progress is kept)
    if (state && state.table.status === "open") renderWaiting();
    else if (state && state.view) { renderScorebar(); renderSeats(); }
  },
  chat(message) {
    page.chatLines = [...page.chatLines, message].slice(-100);
    renderChat();
  },
  hint(message) {
    const state = page.state;
    if (state && message.version === state.version) {
      page.hinted = message;
      $("#hint-text").textContent = t("hint_line", { reason: message.reason }) + (message.why ? `\n${t("hint_why", { why: message.why })}` : "");
      render();
    }
  },
  pace(message) {
    if (page.state) { page.state.table.fast = message.fast; render(); }
    done();
  },
  seated() {
    reconnect();  // the token holds another seat now: the connection is made again as it
  },
  rematch(message) {
    rematchMade(message.id);
  },
  ack: done,
  said: done,
  started: done,
  dealt_on: done,
  pong: done,
  resigned: done,
  freed: done,
};
