// The table's chat: players apart from spectators, quick phrases, muting one person or all.

import { $, page, seatName, tableId } from "./state.js";
import { send } from "./socket.js";
import { t } from "./words.js";

const PHRASES = ["hello", "good_luck", "well_played", "nice_sur", "oops", "thanks", "good_game"];
const muted = new Set(JSON.parse(localStorage.getItem(`pasur-muted-${tableId}`) || "[]"));
let seenLines = 0;  // the lines there were when the chat was last open (the rest are new)

function chatAuthor(line) {
  return line.seat === null ? `s:${line.name}` : `p:${line.seat}`;
}

export function renderChat() {
  const list = $("#chat-lines");
  const state = page.state;
  const spectator = page.seatHeld === null;  // known from the first state, before it is shown
  $("#chat-title").textContent = spectator ? t("chat_spectators") : t("chat_players");
  list.hidden = $("#mute-chat").checked;
  const shown = page.chatLines.filter((line) => !muted.has(chatAuthor(line)));
  list.replaceChildren(...shown.map((line) => {
    const item = document.createElement("li");
    const who = document.createElement("b");
    who.textContent = line.seat !== null && state ? seatName(line.seat) : line.name === "spectator" ? t("spectator") : line.name;
    const said = document.createElement("span");
    said.textContent = ": " + (line.phrase ? t(line.phrase) : line.text);  // what people type is text, never markup
    item.append(who, said);
    const own = state && line.seat !== null && line.seat === state.table.you;
    if (!own) {  // anyone else's line may be muted
      const mute = document.createElement("button");
      mute.type = "button";
      mute.className = "link mute";
      mute.textContent = t("mute");
      mute.addEventListener("click", () => { muted.add(chatAuthor(line)); saveMuted(); renderChat(); });
      item.append(" ", mute);
    }
    return item;
  }));
  list.scrollTop = list.scrollHeight;
  $("#unmute-all").hidden = muted.size === 0;
  // a closed chat drawer (on a narrow screen) counts the lines that came since it was open
  // (one's own lines are never news: after a reload they are not counted as unread)
  const you = page.seatHeld ?? (state ? state.table.you : null);  // known from the first state, before it is shown
  const others = shown.filter((line) => line.seat === null || line.seat !== you).length;
  const open = document.body.classList.contains("chat-open") || getComputedStyle($("#side")).position !== "fixed";
  if (open) seenLines = others;
  const unread = others - seenLines;
  $("#chat-toggle").dataset.unread = unread > 0 ? String(unread) : "";
}

function saveMuted() {
  localStorage.setItem(`pasur-muted-${tableId}`, JSON.stringify([...muted]));
}

function say(line) {
  if (page.state && page.state.table.you === null) line.name = localStorage.getItem("pasur-name") || undefined;
  send(line);
}

export function phraseOptions() {
  $("#chat-phrase").innerHTML = `<option value="">${t("phrase")}</option>`
    + PHRASES.map((key) => `<option value="${key}">${t(key)}</option>`).join("");
}

export function wireChat() {
  $("#chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("#chat-text");
    const text = input.value.trim();
    if (!text) return;
    say({ type: "chat", text });
    input.value = "";
  });
  $("#chat-phrase").addEventListener("change", () => {
    const select = $("#chat-phrase");
    if (!select.value) return;
    say({ type: "chat", phrase: select.value });
    select.value = "";
  });
  $("#mute-chat").addEventListener("change", renderChat);
  $("#unmute-all").addEventListener("click", () => { muted.clear(); saveMuted(); renderChat(); });
}
