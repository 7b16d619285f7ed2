// The Pasur page: the lobby (create or find a table) and the table (join, start, play, chat,
// replay). It only ever holds what the server sends this seat. No build step: the browser loads
// these modules as they are.

import { accountWatchers, call, loadAccount, renderAccount, wireAccount } from "./account.js";
import { phraseOptions, renderChat, wireChat } from "./chat.js";
import { renderBlock, renderInvitations, wireFriends } from "./friends.js";
import { loadLeaders, renderLeaders, wireLeaders } from "./leaders.js";
import { formDigits, quickLabel, ratedChoice, renderTables, seatChoices, wireLobby } from "./lobby.js";
import { wireRematch } from "./rematch.js";
import { wireReplay } from "./replay.js";
import { wireReview } from "./review.js";
import { SETTINGS, applySettings, changeSetting } from "./settings.js";
import { audioAwake } from "./sound.js";
import { loadProfile, renderProfile } from "./profile.js";
import { tableNews } from "./news.js";
import { connect, reconnect } from "./socket.js";
import { loadPuzzle, renderPuzzle, wirePuzzles } from "./puzzles.js";
import { renderOffline, wireOffline } from "./offline-lobby.js";
import { $, drawTableWith, leadersPage, page, playerName, puzzlesPage, tableId } from "./state.js";
import { render, wireTable } from "./table.js";
import { cardSvg } from "./cards.js";
import { answerError, isolatedHtml, lang, persianIf, setLanguage, t } from "./words.js";

let rules = null;  // the rules' help, in both languages, once fetched

async function openRules() {
  const dialog = $("#rules-dialog");
  if (!rules) {
    const response = await fetch("/api/help").catch(() => null);
    rules = response && response.ok ? await response.json() : null;
  }
  const help = rules ? rules[lang] : null;
  $("#rules-title").textContent = help ? help.title : t("rules");
  $("#rules-body").replaceChildren(...(help ? help.lines : []).map((line) => {
    const item = document.createElement("li");
    item.textContent = line;
    return item;
  }));
  $("#rules-examples").replaceChildren(...(rules ? rules.examples : []).map(examplePicture));
  if (!dialog.open) dialog.showModal();
}

/** A capture drawn with the game's cards: the card played, an arrow, the table with what it takes
 *  raised and ringed; the caption under it. */
function examplePicture(example) {
  const figure = document.createElement("figure");
  figure.className = "example";
  const cards = (list, taken) => list.map((card) => `<span class="example-card${taken.includes(card) ? " taken" : ""}">${cardSvg(card)}</span>`).join("");
  figure.innerHTML = `<div class="example-cards" dir="ltr">${cards([example.card], [])}<span class="example-arrow" aria-hidden="true">→</span>`
    + `<span class="example-table">${cards(example.table, example.take)}</span></div>`
    + `<figcaption>${isolatedHtml(example.caption[lang] || example.caption.en)}</figcaption>`;
  return figure;
}

function applyLanguage() {
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === "fa" ? "rtl" : "ltr";
  document.querySelectorAll("[data-i18n]").forEach((element) => { element.textContent = t(element.dataset.i18n); });
  document.querySelectorAll("[data-placeholder]").forEach((element) => { element.placeholder = t(element.dataset.placeholder); });
  document.querySelectorAll("[data-label]").forEach((element) => { element.setAttribute("aria-label", t(element.dataset.label)); });
  $("#lang").textContent = lang === "fa" ? "English" : "فارسی";
  document.title = t("title");
  document.querySelectorAll("select[name=players] option").forEach((option) => { option.textContent = persianIf(Number(option.value)); });
  document.querySelectorAll("select[name=timer] option").forEach((option) => {
    option.textContent = option.value === "0" ? t("timer_off") : t("seconds_opt", { n: Number(option.value) });
  });
  phraseOptions();
  if (!tableId && !playerName && !leadersPage && !puzzlesPage) { seatChoices(); ratedChoice(); renderTables(); formDigits(); renderOffline(); quickLabel(); }
  render();
  renderChat();
  renderAccount();
  renderProfile();
  renderLeaders();
  if (puzzlesPage) renderPuzzle();
  renderInvitations();
  if (playerName) renderBlock();
}

function openSettings() {
  const form = $("#settings-form");
  for (const [name, value] of Object.entries(SETTINGS)) {
    const field = form.elements[name];
    if (!field) continue;
    if (field.type === "checkbox") field.checked = value;
    else field.value = value;
  }
  $("#settings-dialog").showModal();
}

/** A drawer of the table page (the moves or the chat) on a narrow screen: open one, or close it. */
function toggleDrawer(name) {
  const open = !document.body.classList.contains(`${name}-open`);
  document.body.classList.remove("log-open", "chat-open");
  document.body.classList.toggle(`${name}-open`, open);
  if (name === "chat") renderChat();
}

$("#lang").addEventListener("click", () => {
  setLanguage(lang === "fa" ? "en" : "fa");
  applyLanguage();
});
$("#rules-link").addEventListener("click", openRules);
$("#settings-link").addEventListener("click", openSettings);
$("#settings-form").addEventListener("change", (event) => {
  const field = event.target;
  changeSetting(field.name, field.type === "checkbox" ? field.checked : field.value);
  render();
});
$("#log-toggle").addEventListener("click", () => toggleDrawer("log"));
$("#chat-toggle").addEventListener("click", () => toggleDrawer("chat"));
document.querySelectorAll(".drawer-close").forEach((button) => button.addEventListener("click", () => {
  document.body.classList.remove("log-open", "chat-open");
}));
$("#join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = event.target.name.value.trim();
  localStorage.setItem("pasur-name", name);
  const { ok, answer } = await call("POST", `/api/tables/${encodeURIComponent(tableId)}/join`, { name });
  if (!ok) { $("#table-error").textContent = answerError(answer); return; }
  localStorage.setItem(`pasur-token-${tableId}`, answer.token);
  reconnect();
});
wireAccount();
wireFriends();
wireChat();
wireReplay();
wireReview();
wireRematch();
wireTable();
drawTableWith(render);  // what the plays shown in turn and the replay redraw

applySettings();
document.body.classList.toggle("at-table", Boolean(tableId));
if (tableId) {
  $("#table-page").hidden = false;
  accountWatchers.push(render);  // what the waiting room offers a signed-in player
  connect(tableNews);
} else if (playerName) {
  loadProfile();
  accountWatchers.push(renderBlock);
} else if (leadersPage) {
  wireLeaders();
  loadLeaders();
} else if (puzzlesPage) {
  wirePuzzles();
  loadPuzzle();
} else {
  $("#lobby").hidden = false;
  wireLobby();
  wireOffline();
}
applyLanguage();
loadAccount();
// The service worker keeps the page's shell, so that it opens without the network (sw.js).
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});

/** The page's state, for its tests and the browser's console: read it, never write it. */
window.pasur = Object.freeze({ page, t, settings: SETTINGS, audioAwake });
