// The start page: a quick game, the form that creates a table, the open tables to join and the
// public matches under way to watch, kept current while the page is open.

import { account, accountWatchers, call } from "./account.js";
import { loadInvitations } from "./friends.js";
import { startOfflineLesson } from "./offline-lobby.js";
import { $ } from "./state.js";
import { LEVEL_NAMES, answerError, lang, persianIf, readNumber, sep, t } from "./words.js";

/** Each bot level's rating at each rated table ("2", "3", "4"), as the server measured it (on the scale people are rated on). */
const ratings = {};
/** Where the page keeps the last game set up against bots alone: the quick game plays it again. */
const LAST_GAME = "pasur-last-game";

/** The quick game's settings: the last game against bots set up here, else one ``medium`` bot. */
function lastGame() {
  try {
    const last = JSON.parse(localStorage.getItem(LAST_GAME) || "null");
    if (last && Array.isArray(last.seats) && last.seats.length && last.rules) return last;
  } catch { /* a damaged entry: the default */ }
  return { rules: {}, seats: ["medium"], timer: 0 };
}

/** The quick game's button says what it starts: "Play: 2 players against medium". */
export function quickLabel() {
  const { rules, seats } = lastGame();
  const levels = [...new Set(seats)].map((level) => LEVEL_NAMES[lang][level] ?? level).join(t("and"));
  $("#quick").textContent = t("quick_game_as", { n: persianIf(rules.players || 2), levels });
}

/** The first-game lesson's table, made by the server. */
const LESSON = "/api/lesson";

async function loadRatings() {
  const response = await fetch("/api/levels").catch(() => null);
  const answer = response && response.ok ? await response.json() : { levels: [] };
  for (const { level, ratings: byTable } of answer.levels) if (byTable) ratings[level] = byTable;
  seatChoices();
}

/** How a level is offered: its name and, at a kind of rated table ("2", "3", "4" or "4-each"), its rating there. */
function levelChoice(level, table) {
  const name = LEVEL_NAMES[lang][level];
  const rating = ratings[level]?.[table];
  return rating !== undefined ? t("bot_rated", { level: name, rating: persianIf(rating) }) : t("bot", { level: name });
}

/** A rated table takes the standard rules (two players, three, or four in partnership or each alone),
 * a turn timer and no hints: the form holds those while "rated" is ticked, and offers it only when
 * signed in. */
export function ratedChoice() {
  const form = $("#create-form");
  const signedIn = Boolean(account.name);
  if (!signedIn) form.rated.checked = false;
  form.rated.disabled = !signedIn;
  $("#rated-note").hidden = signedIn;
  const rated = form.rated.checked;
  form.querySelector("select[name=timer] option[value='0']").disabled = rated;
  if (rated && form.timer.value === "0") form.timer.value = "60";
  if (rated) { form.target.value = persianIf(62); form.sur_cancel.checked = true; form.hints.checked = false; }
  for (const field of [form.target, form.sur_cancel, form.hints]) field.disabled = rated;
}

export function seatChoices() {
  const form = $("#create-form");
  const players = Number(form.players.value);
  $("#partnership-row").hidden = players !== 4;
  const table = players < 4 ? String(players) : form.partnership.checked ? "4" : "4-each"; // Rules.table
  const box = $("#seat-choices");
  const previous = [...box.querySelectorAll("select")].map((select) => select.value);
  box.querySelectorAll("label").forEach((label) => label.remove());
  for (let seat = 1; seat < players; seat++) {
    const label = document.createElement("label");
    const options = [`<option value="friend">${t("friend")}</option>`]
      .concat(Object.keys(LEVEL_NAMES.en).map((level) => `<option value="${level}">${levelChoice(level, table)}</option>`));
    label.innerHTML = `<span>${t("seat", { n: seat + 1 })}</span> <select name="seat${seat}">${options.join("")}</select>`;
    box.append(label);
    label.querySelector("select").value = previous[seat - 1] || "medium";
  }
}

async function createTable(event) {
  event.preventDefault();
  const form = event.target;
  const players = Number(form.players.value);
  const rated = form.rated.checked;
  const rules = rated ? { players } : { players, target: readNumber(form.target.value), sur_cancel: form.sur_cancel.checked };
  if (players === 4) rules.partnership = form.partnership.checked;
  const seats = [...$("#seat-choices").querySelectorAll("select")].map((select) => select.value);
  const body = { name: form.name.value.trim(), rules, seats, timer: Number(form.timer.value), public: form.public.checked, hints: form.hints.checked && !rated, rated };
  localStorage.setItem("pasur-name", body.name);
  if (!rated && seats.every((seat) => seat !== "friend")) {  // against bots alone: the quick game's next settings
    localStorage.setItem(LAST_GAME, JSON.stringify({ rules, seats, timer: body.timer }));
  }
  const { ok, answer } = await call("POST", "/api/tables", body);  // as the account, if signed in
  if (!ok) {
    $("#lobby-error").textContent = answerError(answer);
    return;
  }
  localStorage.setItem(`pasur-token-${answer.id}`, answer.token);
  location.href = answer.url;
}

/** A table against a bot that starts at once: a quick game, or the first-game lesson. */
async function startAgainstBot(url, extra) {
  const name = $("#create-form").name.value.trim() || localStorage.getItem("pasur-name") || t("player_name");
  const body = { name, ...extra };
  const { ok, answer, failed } = await call("POST", url, body);
  if (failed && url === LESSON && startOfflineLesson(name)) return;  // no server: the lesson on this device
  if (!ok) { $("#lobby-error").textContent = answerError(answer); return; }
  localStorage.setItem(`pasur-token-${answer.id}`, answer.token);
  sessionStorage.setItem(`pasur-start-${answer.id}`, "1");  // the table page starts it at once
  location.href = answer.url;
}

let listedTables = [];
let liveTables = [];

export async function refreshTables() {
  const [open, live] = await Promise.all(["/api/tables", "/api/live"].map((url) => fetch(url).catch(() => null)));
  // the page can open without the server (its service worker keeps it): say so, and keep trying
  const error = $("#lobby-error");
  if (!open) {
    error.textContent = t("unreachable");
    error.dataset.unreachable = "1";
  } else if (error.dataset.unreachable) {  // reached again: the word goes (a form's own error stays)
    delete error.dataset.unreachable;
    error.textContent = "";
  }
  if (open && open.ok) listedTables = (await open.json()).tables;
  loadInvitations();
  if (live && live.ok) liveTables = (await live.json()).tables;
  renderTables();
}

function renderLive() {
  // The public matches under way: who plays, the score and the round, and a link to watch.
  $("#live-tables").hidden = liveTables.length === 0;
  $("#live-list").replaceChildren(...liveTables.map((table) => {
    const item = document.createElement("li");
    const names = document.createElement("strong");
    names.textContent = table.seats.map((shown) => (shown ? shown[lang] || shown.en : "")).join(t("list_join"));  // text, never markup
    const about = document.createElement("span");
    const scores = table.scores.map((score) => persianIf(score)).join(" – ");
    about.textContent = sep() + t("live_entry", { round: table.round, scores, target: table.target });
    const watch = document.createElement("a");
    watch.href = `/t/${encodeURIComponent(table.id)}`;
    watch.className = "join-link";
    watch.textContent = t("watch");
    item.append(names, about, " ", watch);
    return item;
  }));
}

export function renderTables() {
  renderLive();
  const list = $("#table-list");
  list.replaceChildren();
  $("#no-tables").hidden = listedTables.length > 0;
  for (const table of listedTables) {
    const item = document.createElement("li");
    const names = document.createElement("strong");
    names.textContent = table.seated.join(t("list_join"));  // names are people's own words: text, never markup
    const about = document.createElement("span");
    const levels = table.bots.map((level) => LEVEL_NAMES[lang][level] || level).join(t("list_join"));
    about.textContent = sep() + t("table_entry", { players: table.players, target: table.rules.target, free: table.free })
      + (levels ? sep() + t("bots_in", { levels }) : "") + (table.rated ? sep() + t("rated_tag") : "");
    const join = document.createElement("a");
    join.href = `/t/${encodeURIComponent(table.id)}`;
    join.className = "join-link";
    join.textContent = t("join_table");
    item.append(names, about, " ", join);
    list.append(item);
  }
}

/** The number fields in the page's digits (a person may type either). */
export function formDigits() {
  const target = $("#create-form").target;
  const value = readNumber(target.value);
  if (Number.isFinite(value)) target.value = persianIf(value);
}

export function wireLobby() {
  const form = $("#create-form");
  form.addEventListener("submit", createTable);
  form.players.addEventListener("change", seatChoices);
  form.partnership.addEventListener("change", seatChoices); // the bots' ratings are those of the table
  form.rated.addEventListener("change", ratedChoice);
  accountWatchers.push(ratedChoice, loadInvitations);
  ratedChoice();
  $("#quick").addEventListener("click", () => startAgainstBot("/api/tables", lastGame()));
  $("#learn").addEventListener("click", () => startAgainstBot(LESSON, {}));
  form.name.value = localStorage.getItem("pasur-name") || "";
  refreshTables();
  loadRatings();
  setInterval(refreshTables, 4000);  // the lobby stays current while it is open
}
