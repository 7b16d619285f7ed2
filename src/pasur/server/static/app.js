"use strict";
// The Pasur page: the lobby (create a table) and the table (join, start, play, replay).
// It only ever holds what the server sends this seat.

const I18N = {
  en: {
    title: "Pasur", lobby_title: "Play Pasur", your_name: "Your name", players: "Players",
    partnership: "Partners sit opposite (0+2 against 1+3)", other_seats: "The other seats",
    target: "Play to", timer: "Turn timer", timer_off: "off", sur_cancel: "Surs cancel tit for tat",
    create: "Create the table", waiting_title: "Waiting for players", invite: "Invite friends with this link:",
    copy: "Copy", join: "Take a seat", start: "Start the match", log: "Moves", download: "Download the record",
    replay: "Replay", continue: "Continue", friend: "a friend (invite)", seat: "Seat {n}", open_seat: "open seat",
    bot: "bot: {level}", you: "you", your_turn: "Your turn: tap a card", waiting_for: "{name} to play",
    choose_take: "Tap the table cards to take, or choose:", lay_down: "lay it down", takes: "take {cards}",
    surs: "Surs {n}", clubs: "♣ {n}", pack: "pack {n}", round: "Round {n}", deal: "deal {n}",
    round_over: "Round {n} is over", side: "Side", points: "Points", haft_khaj: "Haft Khaj",
    two_of_clubs: "2♣", ten_of_diamonds: "10♦", aces: "Aces", jacks: "Jacks (Sarbaz)", sur_points: "Surs",
    match_score: "Match score", winner: "{name} wins the match, {scores}", spectating: "You are watching",
    connected: "connected", reconnecting: "reconnecting…", seconds_left: "{n} s left", to: "to {n}",
    laid: "{name}: {card}", took: "{name}: {card} × {cards}", sur: "Sur!", move_of: "move {i} of {n}",
    cards_left: "{n} cards", levels: "beginner,easy,medium,hard,master",
    quick_game: "Quick game against a bot", public: "List it in the lobby for anyone to join",
    open_tables: "Open tables", no_tables: "No open tables right now: create one.",
    table_entry: "{players} players · to {target} · {free} free", bots_in: "bots: {levels}", join_table: "Join",
    player_name: "Player",
  },
  fa: {
    title: "پاسور", lobby_title: "پاسور بازی کنید", your_name: "نام شما", players: "بازیکن‌ها",
    partnership: "یارها روبه‌روی هم (۰+۲ در برابر ۱+۳)", other_seats: "جای‌های دیگر",
    target: "بازی تا", timer: "زمان هر نوبت", timer_off: "خاموش", sur_cancel: "سورها هم را خنثی می‌کنند",
    create: "ساختن میز", waiting_title: "در انتظار بازیکن‌ها", invite: "دوستان را با این پیوند دعوت کنید:",
    copy: "رونوشت", join: "نشستن", start: "شروع بازی", log: "حرکت‌ها", download: "بارگیری پرونده بازی",
    replay: "بازپخش", continue: "ادامه", friend: "یک دوست (دعوت)", seat: "جای {n}", open_seat: "جای خالی",
    bot: "ربات: {level}", you: "شما", your_turn: "نوبت شماست: یک کارت بزنید", waiting_for: "نوبت {name}",
    choose_take: "کارت‌های زمین را برای برداشتن بزنید، یا انتخاب کنید:", lay_down: "زمین بگذار",
    takes: "برداشتن {cards}", surs: "سور {n}", clubs: "خاج {n}", pack: "دسته {n}", round: "دست {n}",
    deal: "پخش {n}", round_over: "دست {n} تمام شد", side: "طرف", points: "امتیاز", haft_khaj: "هفت خاج",
    two_of_clubs: "دو خاج", ten_of_diamonds: "ده خشت", aces: "تک‌ها", jacks: "سربازها", sur_points: "سورها",
    match_score: "امتیاز بازی", winner: "{name} بازی را برد، {scores}", spectating: "شما تماشاگرید",
    connected: "وصل", reconnecting: "در حال وصل شدن…", seconds_left: "{n} ثانیه مانده", to: "تا {n}",
    laid: "{name}: {card}", took: "{name}: {card} × {cards}", sur: "سور!", move_of: "حرکت {i} از {n}",
    cards_left: "{n} کارت", levels: "beginner,easy,medium,hard,master",
    quick_game: "بازی سریع با ربات", public: "در فهرست میزها بیاید تا هر کسی بنشیند",
    open_tables: "میزهای باز", no_tables: "اکنون میز بازی نیست: یکی بسازید.",
    table_entry: "{players} نفره · تا {target} · {free} جای خالی", bots_in: "ربات‌ها: {levels}", join_table: "نشستن",
    player_name: "بازیکن",
  },
};
const LEVEL_NAMES = {
  en: { beginner: "beginner", easy: "easy", medium: "medium", hard: "hard", master: "master" },
  fa: { beginner: "تازه‌کار", easy: "آسان", medium: "متوسط", hard: "سخت", master: "استاد" },
};
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const $ = (selector) => document.querySelector(selector);

let lang = localStorage.getItem("pasur-lang") || "en";
let state = null;            // the last state the server sent
let version = null;          // its version
let socket = null;
let retry = 400;
let chosen = null;           // the hand card chosen while picking a capture
let picked = new Set();      // table cards tapped so far
let shownRounds = null;      // finished rounds already shown
let seenTable = new Set();   // table cards already drawn (new ones animate)
let deadline = null;
let replaySteps = null;
let replayIndex = 0;
const tableId = location.pathname.startsWith("/t/") ? decodeURIComponent(location.pathname.slice(3)) : null;

function persianDigits(text) {
  return String(text).replace(/[0-9]/g, (d) => "۰۱۲۳۴۵۶۷۸۹"[d]);
}

function t(key, values = {}) {
  let text = I18N[lang][key] ?? I18N.en[key] ?? key;
  for (const [name, value] of Object.entries(values)) {
    text = text.replaceAll(`{${name}}`, lang === "fa" && typeof value === "number" ? persianDigits(value) : value);
  }
  return text;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// -- cards, drawn here ------------------------------------------------------------------------

function cardLabel(card) {
  return card.slice(0, -1) + SUITS[card.slice(-1)];
}

function cardsHtml(cards) {
  // Card names read left to right inside Persian text.
  return `<bdi dir="ltr">${cards.map(cardLabel).join("+")}</bdi>`;
}

function cardSvg(card) {
  const rank = card.slice(0, -1);
  const symbol = SUITS[card.slice(-1)];
  const colour = "DH".includes(card.slice(-1)) ? "#c8102e" : "#1d1d1f";
  const face = "JQK".includes(rank);
  const centre = face
    ? `<rect x="15" y="22" width="30" height="40" rx="4" fill="none" stroke="${colour}" stroke-width="1.5"/>
       <text x="30" y="50" font-size="20" font-weight="700" text-anchor="middle" fill="${colour}">${rank}</text>`
    : `<text x="30" y="55" font-size="28" text-anchor="middle" fill="${colour}">${symbol}</text>`;
  const corner = `<text x="5" y="15" font-size="13" font-weight="700" fill="${colour}">${rank}</text>
    <text x="5" y="28" font-size="12" fill="${colour}">${symbol}</text>`;
  return `<svg viewBox="0 0 60 84" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${cardLabel(card)}">
    <rect x="1" y="1" width="58" height="82" rx="6" fill="#fbfaf7" stroke="#9a9a9a"/>
    ${corner}${centre}<g transform="rotate(180 30 42)">${corner}</g></svg>`;
}

function backSvg() {
  return `<svg viewBox="0 0 60 84" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">
    <rect x="1" y="1" width="58" height="82" rx="6" fill="#7a1f3d" stroke="#4d1327"/>
    <rect x="6" y="6" width="48" height="72" rx="4" fill="none" stroke="#e0a526" stroke-width="2"/>
    <path d="M30 20 L44 42 L30 64 L16 42 Z" fill="none" stroke="#e0a526" stroke-width="2"/></svg>`;
}

function cardButton(card, classes = []) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = ["card", ...classes].join(" ");
  button.dataset.card = card;
  button.innerHTML = cardSvg(card);
  return button;
}

// -- the lobby --------------------------------------------------------------------------------

function seatChoices() {
  const form = $("#create-form");
  const players = Number(form.players.value);
  $("#partnership-row").hidden = players !== 4;
  const box = $("#seat-choices");
  const previous = [...box.querySelectorAll("select")].map((select) => select.value);
  box.querySelectorAll("label").forEach((label) => label.remove());
  for (let seat = 1; seat < players; seat++) {
    const label = document.createElement("label");
    const options = [`<option value="friend">${t("friend")}</option>`]
      .concat(Object.keys(LEVEL_NAMES.en).map((level) => `<option value="${level}">${t("bot", { level: LEVEL_NAMES[lang][level] })}</option>`));
    label.innerHTML = `<span>${t("seat", { n: seat + 1 })}</span> <select name="seat${seat}">${options.join("")}</select>`;
    box.append(label);
    label.querySelector("select").value = previous[seat - 1] || "medium";
  }
}

async function createTable(event) {
  event.preventDefault();
  const form = event.target;
  const players = Number(form.players.value);
  const rules = { players, target: Number(form.target.value), sur_cancel: form.sur_cancel.checked };
  if (players === 4) rules.partnership = form.partnership.checked;
  const seats = [...$("#seat-choices").querySelectorAll("select")].map((select) => select.value);
  const body = { name: form.name.value.trim(), rules, seats, timer: Number(form.timer.value), public: form.public.checked };
  localStorage.setItem("pasur-name", body.name);
  const response = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    $("#lobby-error").textContent = answerError(answer);
    return;
  }
  localStorage.setItem(`pasur-token-${answer.id}`, answer.token);
  location.href = answer.url;
}

async function quickGame() {
  const name = $("#create-form").name.value.trim() || localStorage.getItem("pasur-name") || t("player_name");
  const body = { name, rules: {}, seats: ["medium"], timer: 0 };
  const response = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) { $("#lobby-error").textContent = answerError(answer); return; }
  localStorage.setItem(`pasur-token-${answer.id}`, answer.token);
  sessionStorage.setItem(`pasur-start-${answer.id}`, "1");  // the table page starts it at once
  location.href = answer.url;
}

let listedTables = [];

async function refreshTables() {
  const response = await fetch("/api/tables").catch(() => null);
  if (!response || !response.ok) return;
  listedTables = (await response.json()).tables;
  renderTables();
}

function renderTables() {
  const list = $("#table-list");
  list.replaceChildren();
  $("#no-tables").hidden = listedTables.length > 0;
  for (const table of listedTables) {
    const item = document.createElement("li");
    const names = document.createElement("strong");
    names.textContent = table.seated.join(", ");  // names are people's own words: text, never markup
    const about = document.createElement("span");
    const levels = table.bots.map((level) => LEVEL_NAMES[lang][level] || level).join(", ");
    about.textContent = " · " + t("table_entry", { players: table.players, target: table.rules.target, free: table.free })
      + (levels ? " · " + t("bots_in", { levels }) : "");
    const join = document.createElement("a");
    join.href = `/t/${encodeURIComponent(table.id)}`;
    join.className = "join-link";
    join.textContent = t("join_table");
    item.append(names, about, " ", join);
    list.append(item);
  }
}

function answerError(answer) {
  if (answer.messages && answer.messages[lang]) return answer.messages[lang];
  if (typeof answer.error === "string") return answer.error;
  if (typeof answer.detail === "string") return answer.detail;
  if (Array.isArray(answer.detail)) return answer.detail.map((item) => `${item.loc.slice(-1)[0]}: ${item.msg}`).join("; ");
  return "something went wrong";
}

// -- the table: connection --------------------------------------------------------------------

function token() {
  return localStorage.getItem(`pasur-token-${tableId}`);
}

function connect() {
  const url = new URL(`/ws/${encodeURIComponent(tableId)}`, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(url);
  socket.onopen = () => {
    retry = 400;
    $("#connection").textContent = t("connected");
    socket.send(JSON.stringify({ type: "hello", token: token(), since: version }));  // never in the URL
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    $("#connection").textContent = t("reconnecting");
    if (event.code === 4404) return;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 4000);
  };
}

function receive(message) {
  if (message.type === "state") {
    state = message;
    version = message.version;
    deadline = message.seconds_left != null ? Date.now() + message.seconds_left * 1000 : null;
    if (!state.legal || !state.legal.length) { chosen = null; picked.clear(); }
    if (state.table.status === "open" && sessionStorage.getItem(`pasur-start-${tableId}`)) {
      sessionStorage.removeItem(`pasur-start-${tableId}`);  // a quick game: no one else to wait for
      send({ type: "start" });
    }
    render();
  } else if (message.type === "refused" || message.type === "error") {
    $("#table-error").textContent = (message.messages && message.messages[lang]) || message.message;
  } else if (message.type === "presence" && state) {
    message.connected.forEach((connected, seat) => { state.table.seats[seat].connected = connected; });
    render();
  } else if (message.type === "ack") {
    $("#table-error").textContent = "";
  }
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function play(text) {
  const id = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2));
  send({ type: "move", version, move: text, id });
  chosen = null;
  picked.clear();
}

// -- the table: drawing -----------------------------------------------------------------------

function seatName(seat) {
  const place = state.table.seats[seat];
  if (place.bot) return t("bot", { level: LEVEL_NAMES[lang][place.bot] || place.bot });
  return place.name ?? t("open_seat");
}

function sideName(side) {
  const rules = state.table.rules;
  const seats = [...Array(rules.players).keys()].filter((seat) => sideOf(seat) === side);
  return seats.map((seat) => (seat === state.table.you ? t("you") : seatName(seat))).join(" + ");
}

function sideOf(seat) {
  const rules = state.table.rules;
  return rules.players === 4 && rules.partnership ? seat % 2 : seat;
}

function render() {
  if (!state) return;
  const status = state.table.status;
  $("#waiting").hidden = status !== "open";
  $("#board").hidden = status === "open";
  $("#finished").hidden = status !== "finished";
  if (status === "open") renderWaiting();
  else renderBoard();
}

function renderWaiting() {
  $("#invite").value = location.href;
  const list = $("#seat-list");
  list.innerHTML = "";
  state.table.seats.forEach((place, seat) => {
    const item = document.createElement("li");
    const you = seat === state.table.you ? ` (${t("you")})` : "";
    item.textContent = `${seatName(seat)}${you}${place.connected ? " ●" : ""}`;
    list.append(item);
  });
  const free = state.table.seats.some((place) => place.open);
  $("#join-form").hidden = state.table.you !== null || !free;
  if (!$("#join-form").hidden && !$("#join-form").name.value) $("#join-form").name.value = localStorage.getItem("pasur-name") || "";
  $("#start").hidden = state.table.you !== 0;
}

function renderBoard() {
  const view = state.view;
  const you = state.table.you;
  const rules = state.table.rules;
  // scores
  const sides = rules.players === 4 && rules.partnership ? 2 : rules.players;
  $("#scorebar").innerHTML = [...Array(sides).keys()].map((side) => {
    const clubs = view.captured[side].filter((card) => card.endsWith("C")).length;
    const turn = !view.over && sideOf(view.turn) === side ? " turn" : "";
    return `<span class="side${turn}"><b>${escapeHtml(sideName(side))}</b> ${persianIf(state.scores[side])}
      · ${t("surs", { n: view.surs[side] })} · ${t("clubs", { n: clubs })}</span>`;
  }).join("") + `<span>${t("round", { n: view.round })} · ${t("deal", { n: view.deal })} · ${t("pack", { n: view.pack })} · ${t("to", { n: rules.target })}</span>`;
  // the others
  $("#opponents").innerHTML = "";
  for (let seat = 0; seat < rules.players; seat++) {
    if (seat === you) continue;
    const box = document.createElement("div");
    box.className = "opponent" + (!view.over && view.turn === seat ? " turn" : "");
    box.innerHTML = `<div>${escapeHtml(seatName(seat))}${state.table.seats[seat].connected ? " ●" : ""}</div>
      <div class="backs" title="${t("cards_left", { n: view.hands[seat] })}">${backSvg().repeat(view.hands[seat])}</div>`;
    $("#opponents").append(box);
  }
  // the table
  const options = chosen ? state.legal.filter((move) => move.card === chosen) : [];
  const table = $("#table-cards");
  table.innerHTML = "";
  for (const card of view.table) {
    const classes = seenTable.has(card) ? [] : ["enter"];
    if (picked.has(card)) classes.push("taken");
    if (chosen && options.some((move) => move.take.includes(card))) classes.push("pick");
    const button = cardButton(card, classes);
    button.addEventListener("click", () => pickTableCard(card));
    table.append(button);
  }
  seenTable = new Set(view.table);
  // whose turn
  const mine = state.legal.length > 0;
  let line = view.over ? "" : mine ? t("your_turn") : t("waiting_for", { name: seatName(view.turn) });
  if (you === null) line = `${t("spectating")} · ${line}`;
  if (deadline && !view.over) line += ` · ${t("seconds_left", { n: Math.max(0, Math.round((deadline - Date.now()) / 1000)) })}`;
  $("#status").textContent = line;
  // the choices
  const choices = $("#choices");
  choices.innerHTML = "";
  if (chosen && options.length > 1) {
    const note = document.createElement("span");
    note.textContent = t("choose_take");
    choices.append(note);
    for (const move of options) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "choice";
      button.dataset.move = move.text;
      button.textContent = move.take.length ? t("takes", { cards: move.take.map(cardLabel).join("+") }) : t("lay_down");
      button.addEventListener("click", () => play(move.text));
      button.addEventListener("mouseenter", () => highlight(move.take));
      choices.append(button);
    }
  }
  // the hand
  const hand = $("#hand");
  hand.innerHTML = "";
  for (const card of view.hand || []) {
    const playable = mine && state.legal.some((move) => move.card === card);
    const button = cardButton(card, [playable ? "playable" : "", chosen === card ? "chosen" : ""].filter(Boolean));
    button.disabled = !playable;
    button.addEventListener("click", () => chooseCard(card));
    hand.append(button);
  }
  // the log: this round's plays
  $("#log").innerHTML = view.history.map((play) => {
    const name = escapeHtml(play.seat === you ? t("you") : seatName(play.seat));
    const text = play.take.length
      ? t("took", { name, card: cardsHtml([play.card]), cards: cardsHtml(play.take) })
      : t("laid", { name, card: cardsHtml([play.card]) });
    return `<li>${text}</li>`;
  }).join("");
  showFinishedRounds();
  if (state.table.status === "finished") renderFinished();
}

function persianIf(value) {
  return lang === "fa" ? persianDigits(value) : String(value);
}

function highlight(cards) {
  document.querySelectorAll("#table-cards .card").forEach((button) => {
    button.classList.toggle("taken", cards.includes(button.dataset.card));
  });
}

function chooseCard(card) {
  const options = state.legal.filter((move) => move.card === card);
  if (options.length === 1) return play(options[0].text);
  chosen = chosen === card ? null : card;
  picked.clear();
  render();
}

function pickTableCard(card) {
  if (!chosen) return;
  if (picked.has(card)) picked.delete(card);
  else picked.add(card);
  const options = state.legal.filter((move) => move.card === chosen);
  const exact = options.filter((move) => move.take.length === picked.size && move.take.every((taken) => picked.has(taken)));
  const wider = options.filter((move) => move.take.length > picked.size && [...picked].every((taken) => move.take.includes(taken)));
  if (exact.length === 1 && wider.length === 0) return play(exact[0].text);
  render();
}

function showFinishedRounds() {
  const rounds = state.rounds || [];
  if (shownRounds === null) { shownRounds = rounds.length; return; }
  if (rounds.length <= shownRounds) return;
  shownRounds = rounds.length;
  const last = rounds[rounds.length - 1];
  $("#round-title").textContent = t("round_over", { n: last.number });
  const rows = ["points", "haft_khaj", "two_of_clubs", "ten_of_diamonds", "aces", "jacks", "sur_points"];
  const head = `<tr><th>${t("side")}</th>${last.sides.map((_, side) => `<th>${escapeHtml(sideName(side))}</th>`).join("")}</tr>`;
  const body = rows.map((row) => `<tr><td>${t(row)}</td>${last.sides.map((side) => `<td>${persianIf(side[row])}</td>`).join("")}</tr>`).join("");
  const score = `<tr><td>${t("match_score")}</td>${state.scores.map((value) => `<td><b>${persianIf(value)}</b></td>`).join("")}</tr>`;
  $("#round-table").innerHTML = head + body + score;
  const dialog = $("#round-dialog");
  if (!dialog.open) dialog.showModal();
}

function renderFinished() {
  const scores = state.scores.join(" - ");
  $("#winner").textContent = t("winner", { name: sideName(state.winner), scores });
  $("#download").href = `/api/tables/${encodeURIComponent(tableId)}/record`;
}

async function openReplay() {
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay`);
  if (!response.ok) return;
  replaySteps = await response.json();
  replayIndex = 0;
  $("#replay").hidden = false;
  renderReplay();
}

function renderReplay() {
  const step = replaySteps[replayIndex];
  $("#replay-position").textContent = `${t("round", { n: step.round })} · ${t("move_of", { i: replayIndex, n: replaySteps.length - 1 })}`;
  const move = step.move
    ? `<p>${escapeHtml(seatName(step.seat))}: ${cardsHtml([step.move.card])}${step.move.take.length ? " × " + cardsHtml(step.move.take) : ""}</p>`
    : "";
  const cards = (list) => list.map((card) => `<span class="card">${cardSvg(card)}</span>`).join("");
  const hands = step.hands.map((hand, seat) => `<div class="replay-hand"><b>${escapeHtml(seatName(seat))}</b> ${cards(hand)}</div>`).join("");
  $("#replay-body").innerHTML = `${move}<div class="felt"><div class="cards">${cards(step.table)}</div></div>${hands}`;
}

// -- start ------------------------------------------------------------------------------------

function applyLanguage() {
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === "fa" ? "rtl" : "ltr";
  document.querySelectorAll("[data-i18n]").forEach((element) => { element.textContent = t(element.dataset.i18n); });
  $("#lang").textContent = lang === "fa" ? "English" : "فارسی";
  document.title = t("title");
  if (!tableId) { seatChoices(); renderTables(); }
  render();
  if (replaySteps) renderReplay();
}

$("#lang").addEventListener("click", () => {
  lang = lang === "fa" ? "en" : "fa";
  localStorage.setItem("pasur-lang", lang);
  applyLanguage();
});
$("#create-form").addEventListener("submit", createTable);
$("#quick").addEventListener("click", quickGame);
$("#create-form").players.addEventListener("change", seatChoices);
$("#join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = event.target.name.value.trim();
  localStorage.setItem("pasur-name", name);
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/join`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) { $("#table-error").textContent = answerError(answer); return; }
  localStorage.setItem(`pasur-token-${tableId}`, answer.token);
  socket.onclose = null;
  socket.close();
  connect();
});
$("#start").addEventListener("click", () => send({ type: "start" }));
$("#copy").addEventListener("click", () => navigator.clipboard?.writeText($("#invite").value));
$("#open-replay").addEventListener("click", openReplay);
$("#replay-prev").addEventListener("click", () => { replayIndex = Math.max(0, replayIndex - 1); renderReplay(); });
$("#replay-next").addEventListener("click", () => { replayIndex = Math.min(replaySteps.length - 1, replayIndex + 1); renderReplay(); });
setInterval(() => { if (deadline && state && !state.view?.over) render(); }, 1000);

if (tableId) {
  $("#table-page").hidden = false;
  connect();
} else {
  $("#lobby").hidden = false;
  $("#create-form").name.value = localStorage.getItem("pasur-name") || "";
  refreshTables();
  setInterval(refreshTables, 4000);  // the lobby stays current while it is open
}
applyLanguage();
