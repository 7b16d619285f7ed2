"use strict";
// The Pasur page: the lobby (create or find a table) and the table (join, start, play, chat, replay).
// It only ever holds what the server sends this seat.

const I18N = {
  en: {
    title: "Pasur", lobby_title: "Play Pasur", your_name: "Your name", players: "Players",
    partnership: "Partners sit opposite (seats 1+3 against 2+4)", other_seats: "The other seats",
    target: "Play to", timer: "Turn timer", timer_off: "off", sur_cancel: "Surs cancel tit for tat",
    create: "Create the table", waiting_title: "Waiting for players", invite: "Invite friends with this link:",
    copy: "Copy", join: "Take a seat", start: "Start the match", log: "Moves", download: "Download the record",
    unreachable: "The server cannot be reached right now: trying again…",
    settings: "Settings", sound: "Sounds", hand_order: "Hand order", order_dealt: "as dealt", order_suit: "by suit",
    order_rank: "by rank", four_colour: "Four-colour deck", large_cards: "Large cards",
    move_sent: "Your move is on its way…", team_of: "side {n}, with {partner}", team_pile: "the side's pile is with {name}", away: "away", cards_taken: "Cards", clubs_taken: "Clubs", surs_made: "Surs made",
    replay: "Replay", continue: "Continue", friend: "a friend (invite)", seat: "Seat {n}", open_seat: "open seat",
    bot: "bot: {level}", you: "you", your_turn: "Your turn: tap a card", waiting_for: "{name} to play",
    choose_take: "Tap the table cards to take, or choose:", lay_down: "lay it down", takes: "take {cards}",
    surs: "Surs {n}", clubs: "♣ {n}", pack: "pack {n}", round: "Round {n}", deal: "deal {n}",
    round_over: "Round {n} is over", side: "Side", points: "Points", haft_khaj: "Haft Khaj",
    two_of_clubs: "2♣", ten_of_diamonds: "10♦", aces: "Aces", jacks: "Jacks (Sarbaz)", sur_points: "Surs",
    match_score: "Match score", winner: "{name} wins the match, {scores}", spectating: "You are watching",
    connected: "connected", reconnecting: "reconnecting…", seconds_left: "{n} s left", to: "to {n}",
    laid: "{name}: {card}", took: "{name}: {card} × {cards}", sur: "Sur!", move_of: "move {i} of {n}",
    cards_left: "{n} cards", cards_left_one: "1 card", levels: "beginner,easy,medium,hard,master,grandmaster",
    quick_game: "Quick game against a bot", public: "List it in the lobby for anyone to join",
    open_tables: "Open tables", no_tables: "No open tables right now: create one.",
    live_tables: "Games to watch", live_entry: "round {round} · {scores} · to {target}", watch: "Watch",
    table_entry: "{players} players · to {target} · {free} free", bots_in: "bots: {levels}", join_table: "Join",
    player_name: "Player", seconds_opt: "{n} s", rules: "Rules", close: "Close", partner: "partner",
    waiting_continue: "Waiting for {names} to continue", swept: "What is left goes to {name}: {cards}",
    sur_by: "Sur! {name}", lost: "Connection lost: reconnecting…", fast: "Faster bots", seat_short: "seat {n}",
    judging: "Judging the moves… {done} of {total}",
    hint: "Hint", hint_line: "Hint: {move}: {reason}", allow_hints: "Players may ask the strongest bot for a hint",
    chat: "Chat", chat_players: "Table chat (players)", chat_spectators: "Spectators' chat", say: "Send",
    chat_placeholder: "Say something…", mute_chat: "Mute chat", mute: "Mute", unmute: "Unmute", phrase: "Quick phrase…",
    spectator: "spectator", hello: "Hello!", good_luck: "Good luck!", well_played: "Well played!", nice_sur: "Nice Sur!",
    oops: "Oops!", thanks: "Thanks!", good_game: "Good game!", last_round: "The last round",
    replay_round: "Round", replay_start: "Start of the round", replay_end: "End of the round", watching: "{n} watching",
    nobody_took: "no one",
  },
  fa: {
    title: "پاسور", lobby_title: "پاسور بازی کنید", your_name: "نام شما", players: "بازیکن‌ها",
    partnership: "یارها روبه‌روی هم (جای ۱+۳ در برابر ۲+۴)", other_seats: "جای‌های دیگر",
    target: "بازی تا", timer: "زمان هر نوبت", timer_off: "خاموش", sur_cancel: "سورها هم را خنثی می‌کنند",
    create: "ساختن میز", waiting_title: "در انتظار بازیکن‌ها", invite: "دوستان را با این پیوند دعوت کنید:",
    copy: "رونوشت", join: "نشستن", start: "شروع بازی", log: "حرکت‌ها", download: "بارگیری پرونده بازی",
    unreachable: "اکنون به کارگزار دسترسی نیست: دوباره امتحان می‌شود…",
    settings: "تنظیمات", sound: "صداها", hand_order: "ترتیب دست", order_dealt: "به ترتیب پخش", order_suit: "بر پایهٔ خال",
    order_rank: "بر پایهٔ ارزش", four_colour: "دستهٔ چهاررنگ", large_cards: "کارت‌های بزرگ",
    move_sent: "حرکت شما در راه است…", team_of: "طرف {n}، با {partner}", team_pile: "برداشت‌های این طرف نزد {name}", away: "غایب", cards_taken: "کارت‌ها", clubs_taken: "خاج‌ها", surs_made: "سورهای زده",
    replay: "بازپخش", continue: "ادامه", friend: "یک دوست (دعوت)", seat: "جای {n}", open_seat: "جای خالی",
    bot: "ربات: {level}", you: "شما", your_turn: "نوبت شماست: یک کارت بزنید", waiting_for: "نوبت {name}",
    choose_take: "کارت‌های زمین را برای برداشتن بزنید، یا انتخاب کنید:", lay_down: "زمین بگذار",
    takes: "برداشتن {cards}", surs: "سور {n}", clubs: "خاج {n}", pack: "دسته {n}", round: "دست {n}",
    deal: "پخش {n}", round_over: "دست {n} تمام شد", side: "طرف", points: "امتیاز", haft_khaj: "هفت خاج",
    two_of_clubs: "دو خاج", ten_of_diamonds: "ده خشت", aces: "تک‌ها", jacks: "سربازها", sur_points: "سورها",
    match_score: "امتیاز بازی", winner: "{name} بازی را برد، {scores}", spectating: "شما تماشاگرید",
    connected: "وصل", reconnecting: "در حال وصل شدن…", seconds_left: "{n} ثانیه مانده", to: "تا {n}",
    laid: "{name}: {card}", took: "{name}: {card} × {cards}", sur: "سور!", move_of: "حرکت {i} از {n}",
    cards_left: "{n} کارت", levels: "beginner,easy,medium,hard,master,grandmaster",
    quick_game: "بازی سریع با ربات", public: "در فهرست میزها بیاید تا هر کسی بنشیند",
    open_tables: "میزهای باز", no_tables: "اکنون میز بازی نیست: یکی بسازید.",
    live_tables: "بازی‌هایی برای تماشا", live_entry: "دست {round} · {scores} · تا {target}", watch: "تماشا",
    table_entry: "{players} نفره · تا {target} · {free} جای خالی", bots_in: "ربات‌ها: {levels}", join_table: "نشستن",
    player_name: "بازیکن", seconds_opt: "{n} ثانیه", rules: "قوانین", close: "بستن", partner: "یار",
    waiting_continue: "در انتظار ادامهٔ {names}", swept: "باقی زمین به {name} می‌رسد: {cards}",
    sur_by: "سور! {name}", lost: "اتصال قطع شد: در حال وصل شدن دوباره…", fast: "ربات‌های تندتر", seat_short: "جای {n}",
    chat: "گفت‌وگو", chat_players: "گفت‌وگوی بازیکن‌ها", chat_spectators: "گفت‌وگوی تماشاگرها", say: "بفرست",
    chat_placeholder: "چیزی بنویسید…", mute_chat: "بی‌صدا کردن گفت‌وگو", mute: "بی‌صدا", unmute: "باصدا", phrase: "جملهٔ آماده…",
    spectator: "تماشاگر", hello: "سلام!", good_luck: "موفق باشید!", well_played: "خوب بازی کردید!", nice_sur: "سور قشنگی بود!",
    judging: "در حال سنجیدن حرکت‌ها… {done} از {total}",
    hint: "راهنما", hint_line: "راهنما: {move}: {reason}", allow_hints: "بازیکن‌ها بتوانند از قوی‌ترین ربات راهنما بخواهند",
    oops: "اوه!", thanks: "ممنون!", good_game: "بازی خوبی بود!", last_round: "دست آخر",
    replay_round: "دست", replay_start: "آغاز دست", replay_end: "پایان دست", watching: "{n} تماشاگر",
    nobody_took: "هیچ‌کس",
  },
};
const LEVEL_NAMES = {
  en: { beginner: "beginner", easy: "easy", medium: "medium", hard: "hard", master: "master", grandmaster: "grandmaster" },
  fa: { beginner: "مبتدی", easy: "آسان", medium: "متوسط", hard: "سخت", master: "استاد", grandmaster: "استاد بزرگ" },  // as pasur/i18n.py says them
};
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const PHRASES = ["hello", "good_luck", "well_played", "nice_sur", "oops", "thanks", "good_game"];
const $ = (selector) => document.querySelector(selector);

let lang = localStorage.getItem("pasur-lang") || "en";
const tableId = location.pathname.startsWith("/t/") ? decodeURIComponent(location.pathname.slice(3)) : null;
let state = null;            // the state on screen
let version = null;          // the newest version the server sent
let queue = [];              // states received and not yet shown: each play is shown in turn
let showing = false;         // whether a play is being shown
let socket = null;
let retry = 400;
let sent = null;             // the move sent and not yet answered: its id and the choices it was made from
let chosen = null;           // the hand card chosen while picking a capture
let hinted = null;           // the hint shown for this turn (the server's answer), if any
let picked = new Set();      // table cards tapped so far
let seenTable = new Set();   // table cards already drawn (new ones animate)
let deadline = null;
let closedRound = null;      // the finished round whose breakdown was closed
let dealtOnRound = null;     // the finished round after which this player said Continue
let spectators = 0;
let chatLines = [];
let seatHeld;                // this page's seat as the latest state says it (null: watching)
let turnSounded = null;      // the version whose "your turn" was sounded
let muted = new Set(JSON.parse(localStorage.getItem(`pasur-muted-${tableId}`) || "[]"));
let replaySteps = null;
let replayIndex = 0;
let analysis = null;         // the people's moves of the finished match judged so far (the server's answer)

function persianDigits(text) {
  return String(text).replace(/[0-9]/g, (d) => "۰۱۲۳۴۵۶۷۸۹"[d]);
}

function t(key, values = {}) {
  // a word that has a singular form takes it for one ("1 card"), in the languages that have one
  const singular = values.n === 1 && I18N[lang][`${key}_one`] !== undefined ? `${key}_one` : key;
  let text = I18N[lang][singular] ?? I18N.en[key] ?? key;
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
  const rank = card.slice(0, -1);
  return (lang === "fa" ? persianDigits(rank) : rank) + SUITS[card.slice(-1)];
}

function cardsHtml(cards) {
  // Card names read left to right inside Persian text.
  return `<bdi dir="ltr">${cards.map(cardLabel).join("+")}</bdi>`;
}

// -- settings, kept in this browser ---------------------------------------------------------------

const SETTINGS = { sound: true, order: "dealt", fourColour: false, large: false };
try {  // what this browser kept: only the known settings, of their own types; anything else is ignored
  const kept = JSON.parse(localStorage.getItem("pasur-settings") || "{}");
  for (const [name, value] of Object.entries(kept || {})) {
    if (name in SETTINGS && typeof value === typeof SETTINGS[name]) SETTINGS[name] = value;
  }
} catch { /* a malformed value: the defaults */ }

function saveSettings() {
  localStorage.setItem("pasur-settings", JSON.stringify(SETTINGS));
  document.body.classList.toggle("large-cards", SETTINGS.large);
  if (state) render();
}

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

/** The hand in the order the person chose: as dealt, by suit (then rank) or by rank (then suit). */
function ordered(hand) {
  const rank = (card) => RANKS.indexOf(card.slice(0, -1));
  const suit = (card) => "CDHS".indexOf(card.slice(-1));
  if (SETTINGS.order === "suit") return [...hand].sort((a, b) => suit(a) - suit(b) || rank(a) - rank(b));
  if (SETTINGS.order === "rank") return [...hand].sort((a, b) => rank(a) - rank(b) || suit(a) - suit(b));
  return hand;
}

// -- sound: short tones made here (WebAudio), once the person has touched the page ----------------

let audio = null;
addEventListener("pointerdown", wakeAudio, { once: true });
addEventListener("keydown", wakeAudio, { once: true });

function wakeAudio() {
  // browsers let a page sound only after a person's gesture: until then it stays silent
  const Context = window.AudioContext || window.webkitAudioContext;
  if (Context && !audio) audio = new Context();
}

const TONES = {
  play: [[440, 0.05]],
  capture: [[523, 0.06], [659, 0.08]],
  sur: [[523, 0.08], [659, 0.08], [784, 0.08], [1047, 0.16]],
  turn: [[880, 0.07]],
};

/** Play one of TONES (its notes one after another), where sound is on and allowed. */
function sound(kind) {
  if (!SETTINGS.sound || !audio) return;
  let at = audio.currentTime;
  for (const [frequency, length] of TONES[kind]) {
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = frequency;
    volume.gain.setValueAtTime(0.12, at);
    volume.gain.exponentialRampToValueAtTime(0.001, at + length);
    tone.connect(volume).connect(audio.destination);
    tone.start(at);
    tone.stop(at + length);
    at += length;
  }
  if (kind === "sur" && navigator.vibrate) navigator.vibrate(60);  // a phone's touch, where it has one
}

const SUIT_COLOURS = { two: { C: "#1d1d1f", D: "#c8102e", H: "#c8102e", S: "#1d1d1f" },
  four: { C: "#16743a", D: "#1f5fbf", H: "#c8102e", S: "#1d1d1f" } };

function cardSvg(card) {
  const rank = card.slice(0, -1);
  const symbol = SUITS[card.slice(-1)];
  const colour = SUIT_COLOURS[SETTINGS.fourColour ? "four" : "two"][card.slice(-1)];
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
  const body = { name: form.name.value.trim(), rules, seats, timer: Number(form.timer.value), public: form.public.checked, hints: form.hints.checked };
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
let liveTables = [];

async function refreshTables() {
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
  if (live && live.ok) liveTables = (await live.json()).tables;
  renderTables();
}

function renderLive() {
  // The public matches under way: who plays, the score and the round, and a link to watch.
  $("#live-tables").hidden = liveTables.length === 0;
  $("#live-list").replaceChildren(...liveTables.map((table) => {
    const item = document.createElement("li");
    const names = document.createElement("strong");
    names.textContent = table.seats.map((shown) => (shown ? shown[lang] || shown.en : "")).join(", ");  // text, never markup
    const about = document.createElement("span");
    const scores = table.scores.map((score) => persianIf(score)).join(" – ");
    about.textContent = " · " + t("live_entry", { round: table.round, scores, target: table.target });
    const watch = document.createElement("a");
    watch.href = `/t/${encodeURIComponent(table.id)}`;
    watch.className = "join-link";
    watch.textContent = t("watch");
    item.append(names, about, " ", watch);
    return item;
  }));
}

function renderTables() {
  renderLive();
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

function showConnection(connected) {
  const badge = $("#connection");
  badge.textContent = connected ? t("connected") : t("reconnecting");
  badge.classList.toggle("lost", !connected);
  $("#offline").hidden = connected;
}

function connect() {
  const url = new URL(`/ws/${encodeURIComponent(tableId)}`, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(url);
  socket.onopen = () => {
    retry = 400;
    showConnection(true);
    socket.send(JSON.stringify({ type: "hello", token: token(), since: version }));  // never in the URL
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    showConnection(false);
    if (event.code === 4404) return;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 4000);
  };
}

function receive(message) {
  if (message.type === "state") {
    version = message.version;
    seatHeld = message.table.you;
    if (message.chat) { chatLines = message.chat; renderChat(); }
    if (message.table.status === "open" && sessionStorage.getItem(`pasur-start-${tableId}`)) {
      sessionStorage.removeItem(`pasur-start-${tableId}`);  // a quick game: no one else to wait for
      send({ type: "start" });
    }
    queue.push(message);
    showNext();
  } else if (message.type === "refused" || message.type === "error") {
    if (sent && message.id === sent.id && state) { state.legal = sent.legal; sent = null; render(); }
    $("#table-error").textContent = (message.messages && message.messages[lang]) || message.message;
  } else if (message.type === "presence") {
    spectators = message.spectators;
    for (const pending of [state, ...queue]) {
      if (pending) message.connected.forEach((connected, seat) => { pending.table.seats[seat].connected = connected; });
    }
    // only who is here changed: the hand and the table stay as they are (a tap in progress is kept)
    if (state && state.table.status === "open") renderWaiting();
    else if (state && state.view) { renderScorebar(); renderSeats(); }
  } else if (message.type === "chat") {
    chatLines.push(message);
    chatLines = chatLines.slice(-100);
    renderChat();
  } else if (message.type === "hint") {
    if (state && message.version === state.version) {
      hinted = message;
      $("#hint-text").textContent = t("hint_line", { move: message.shown, reason: message.reason });
      render();
    }
  } else if (message.type === "pace") {
    if (state) { state.table.fast = message.fast; render(); }
    $("#table-error").textContent = "";
  } else if (["ack", "said", "started", "dealt_on", "pong"].includes(message.type)) {
    $("#table-error").textContent = "";  // done: the state that follows shows what changed
  }
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function play(text) {
  const id = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2));
  send({ type: "move", version: state.version, move: text, id });
  sent = { id, legal: state.legal };
  state.legal = [];  // one move a turn: the hand waits for the answer
  chosen = null;
  picked.clear();
  render();
}

// -- the table: showing each play in turn -----------------------------------------------------

function fast() {
  return Boolean(state && state.table.fast);  // the table's pace: any player may change it
}

function pace(ms) {
  if (matchMedia("(prefers-reduced-motion: reduce)").matches) return 0;
  return fast() ? ms / 3 : ms;
}

async function showNext() {
  if (showing) return;
  showing = true;
  try {
    while (queue.length) {
      const next = queue.shift();
      const before = state;
      if (before && before.view && next.last && next.version === before.version + 1) {
        await showPlay(next.last).catch(() => {});
      }
      state = next;
      deadline = next.seconds_left != null ? Date.now() + next.seconds_left * 1000 : null;
      if (!state.legal || !state.legal.length) { chosen = null; picked.clear(); }
      render();
    }
  } finally {
    showing = false;
  }
}

function centre(element) {
  const box = element.getBoundingClientRect();
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}

function flyingCard(card, from) {
  const flying = document.createElement("div");
  flying.className = "card flying";
  flying.innerHTML = card ? cardSvg(card) : backSvg();
  flying.style.left = `${from.x - 30}px`;
  flying.style.top = `${from.y - 42}px`;
  document.body.append(flying);
  return flying;
}

async function fly(elements, to, ms) {
  await Promise.all(elements.map((element) => {
    const from = centre(element);
    return element.animate(
      [{ transform: "translate(0, 0)" }, { transform: `translate(${to.x - from.x}px, ${to.y - from.y}px) scale(.6)`, opacity: 0.4 }],
      { duration: ms, easing: "ease-in-out", fill: "forwards" },
    ).finished;
  }));
}

function pileOf(seat) {
  return document.querySelector(`.seat[data-seat="${seat}"] .pile`) || $("#table-cards");
}

function seatOfSide(side) {
  const rules = state.table.rules;
  const seats = [...Array(rules.players).keys()];
  return seats.find((seat) => sideOf(seat) === side) ?? 0;
}

async function showPlay(last) {
  // The card goes from the seat (or your hand) to the table; what it takes goes to the pile.
  const ms = pace(520);
  const source = document.querySelector(`#hand .card[data-card="${last.card}"]`)
    || document.querySelector(`.seat[data-seat="${last.seat}"] .backs`) || $("#table-cards");
  const table = $("#table-cards");
  const flying = flyingCard(last.card, centre(source));
  source.closest("#hand") && source.remove();
  const spot = table.lastElementChild ? centre(table.lastElementChild) : centre(table);
  await fly([flying], { x: spot.x + (table.lastElementChild ? 66 : 0), y: spot.y }, ms);
  sound(last.sur ? "sur" : last.take.length ? "capture" : "play");
  if (last.sur) announce(t("sur_by", { name: seatName(last.seat) }));
  if (last.take.length) {
    const taken = last.take.map((card) => table.querySelector(`.card[data-card="${card}"]`)).filter(Boolean);
    taken.forEach((element) => element.classList.add("taken"));
    await delay(pace(300));
    await fly([flying, ...taken], centre(pileOf(last.seat)), ms);
  }
  flying.remove();
  if (last.round_over && last.swept.length) {
    const sweeper = seatOfSide(last.sweeper);
    announce(t("swept", { name: sideName(last.sweeper), cards: last.swept.map(cardLabel).join(" ") }));
    const left = last.swept.map((card) => table.querySelector(`.card[data-card="${card}"]`)).filter(Boolean);
    await delay(pace(400));
    await fly(left, centre(pileOf(sweeper)), ms);
  }
  if (last.sur) await delay(pace(500));
}

function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function announce(text) {
  const banner = $("#announce");
  banner.textContent = text;
  banner.hidden = false;
  banner.classList.remove("show");
  void banner.offsetWidth;  // restart the animation
  banner.classList.add("show");
  clearTimeout(announce.timer);
  announce.timer = setTimeout(() => { banner.hidden = true; }, Math.max(1600, pace(2200)));
}

// -- the table: drawing -----------------------------------------------------------------------

function seatName(seat) {
  const place = state.table.seats[seat];
  if (place.shown) return place.shown[lang] ?? place.shown.en;
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
  $("#chat-box").hidden = false;
  if (status === "open") renderWaiting();
  else renderBoard();
}

function renderWaiting() {
  $("#invite").value = location.href;
  const list = $("#seat-list");
  list.innerHTML = "";
  const rules = state.table.rules;
  const partners = rules.players === 4 && rules.partnership;
  state.table.seats.forEach((place, seat) => {
    const item = document.createElement("li");
    const you = seat === state.table.you ? ` (${t("you")})` : "";
    // with partners, each seat says its side and its partner: the teams are seen before the start
    const team = partners ? ` · ${t("team_of", { n: (seat % 2) + 1, partner: seatName((seat + 2) % 4) })}` : "";
    item.textContent = `${t("seat", { n: seat + 1 })}: ${seatName(seat)}${you}${team}${place.connected ? " ●" : ""}`;
    list.append(item);
  });
  const free = state.table.seats.some((place) => place.open);
  $("#join-form").hidden = state.table.you !== null || !free;
  if (!$("#join-form").hidden && !$("#join-form").name.value) $("#join-form").name.value = localStorage.getItem("pasur-name") || "";
  $("#start").hidden = state.table.you !== 0;
}

/** Where each seat sits around the felt, seen from yours (a spectator sees from seat 0). */
function placeOf(seat) {
  const players = state.table.rules.players;
  const offset = (seat - (state.table.you ?? 0) + players) % players;
  return { 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] }[players][offset];
}

function renderSeats() {
  const view = state.view;
  const rules = state.table.rules;
  const you = state.table.you;
  const partners = rules.players === 4 && rules.partnership;
  document.querySelectorAll(".seat").forEach((box) => box.remove());
  const arena = $("#arena");
  for (let seat = 0; seat < rules.players; seat++) {
    const place = state.table.seats[seat];
    const side = sideOf(seat);
    const box = document.createElement("div");
    box.className = `seat seat-${placeOf(seat)}` + (!view.over && view.turn === seat && !state.waiting ? " turn" : "");
    box.dataset.seat = seat;
    const name = document.createElement("div");
    name.className = "seat-name";
    const strong = document.createElement("strong");
    strong.textContent = seatName(seat);  // people's names are text, never markup
    name.append(strong);
    const marks = [t("seat_short", { n: seat + 1 })];
    if (seat === you) marks.push(t("you"));
    else if (partners && you !== null && side === sideOf(you)) marks.push(t("partner"));
    if (!place.bot && place.name && !place.connected) marks.push(t("away"));  // said in words, not a grey dot only
    const small = document.createElement("small");
    small.textContent = ` · ${marks.join(" · ")}`;
    name.append(small);
    if (!place.bot) {
      const dot = document.createElement("span");
      dot.className = place.connected ? "dot on" : "dot";
      dot.title = place.connected ? t("connected") : t("reconnecting");
      name.append(dot);
    }
    const clubs = view.captured[side].filter((card) => card.endsWith("C")).length;
    // partners share one pile: it, its Surs and clubs sit with the side's first seat, once
    const keeper = partners ? side : seat;
    const facts = document.createElement("div");
    facts.className = "seat-facts";
    facts.textContent = keeper === seat
      ? `${t("cards_left", { n: view.hands[seat] })} · ${t("surs", { n: view.surs[side] })} · ${t("clubs", { n: clubs })}`
      : `${t("cards_left", { n: view.hands[seat] })} · ${t("team_pile", { name: seatName(keeper) })}`;
    const row = document.createElement("div");
    row.className = "seat-row";
    const backs = document.createElement("div");
    backs.className = "backs";
    backs.innerHTML = seat === you ? "" : backSvg().repeat(view.hands[seat]);
    const pile = document.createElement("div");
    pile.className = "pile";
    pile.title = persianIf(view.captured[side].length);
    pile.innerHTML = view.captured[side].length && keeper === seat
      ? backSvg() + `<span>${persianIf(view.captured[side].length)}</span>` : "";
    row.append(backs, pile);
    box.append(name, facts, row);
    arena.append(box);
  }
}

function renderScorebar() {
  // the match score, the round, deal, pack and target, and how many watch
  const view = state.view;
  const rules = state.table.rules;
  const sides = rules.players === 4 && rules.partnership ? 2 : rules.players;
  const scores = [...Array(sides).keys()].map((side) => {
    const span = document.createElement("span");
    span.className = "side" + (!view.over && sideOf(view.turn) === side ? " turn" : "");
    const name = document.createElement("b");
    name.textContent = sideName(side);
    span.append(name, ` ${persianIf(state.scores[side])}`);
    return span;
  });
  const about = document.createElement("span");
  about.textContent = `${t("round", { n: view.round })} · ${t("deal", { n: view.deal })} · ${t("pack", { n: view.pack })} · ${t("to", { n: rules.target })}`
    + (spectators ? ` · ${t("watching", { n: spectators })}` : "");
  $("#scorebar").replaceChildren(...scores, about);
}

function renderBoard() {
  const view = state.view;
  const you = state.table.you;
  const rules = state.table.rules;
  const over = state.table.status === "finished";
  $("#arena").hidden = over;
  $("#play-area").hidden = over;
  renderScorebar();
  $("#fast").checked = fast();
  $("#fast-row").hidden = you === null;
  const mine = state.legal.length > 0;
  if (hinted && hinted.version !== state.version) hinted = null;
  $("#hint").hidden = !(state.table.hints && mine && !state.waiting);
  if (!hinted) $("#hint-text").textContent = "";
  renderSeats();
  // the table
  const options = chosen ? state.legal.filter((move) => move.card === chosen) : [];
  const table = $("#table-cards");
  table.innerHTML = "";
  for (const card of view.table) {
    const classes = seenTable.has(card) ? [] : ["enter"];
    if (picked.has(card)) classes.push("taken");
    const pickable = chosen && options.some((move) => move.take.includes(card));
    if (pickable) classes.push("pick");
    const button = cardButton(card, classes);
    button.tabIndex = pickable ? 0 : -1;  // a tab stop only while it may be picked
    button.addEventListener("click", () => pickTableCard(card));
    table.append(button);
  }
  seenTable = new Set(view.table);
  // whose turn, or who the next deal waits for
  let line;
  if (state.waiting) {
    line = t("waiting_continue", { names: state.waiting.map((seat) => (seat === you ? t("you") : seatName(seat))).join(", ") });
  } else {
    // your own move sent and not yet shown is still yours: never "Ava to play" about yourself
    const yours = view.turn === you && you !== null;
    line = view.over ? "" : mine ? t("your_turn") : yours ? t("move_sent") : t("waiting_for", { name: seatName(view.turn) });
  }
  if (you === null) line = `${t("spectating")} · ${line}`;
  if (deadline && !over) line += ` · ${t("seconds_left", { n: Math.max(0, Math.round((deadline - Date.now()) / 1000)) })}`;
  $("#status").textContent = line;
  // between rounds, once the breakdown is closed to look at the table: Continue stays at hand
  const last = state.rounds[state.rounds.length - 1];
  $("#deal-on").hidden = !(state.waiting && state.waiting.includes(you) && last && closedRound === last.number
    && dealtOnRound !== last.number);
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
      button.addEventListener("focus", () => highlight(move.take));
      choices.append(button);
    }
  }
  // the hand, keeping the keyboard where it was
  const hand = $("#hand");
  const focused = hand.contains(document.activeElement) ? [...hand.children].indexOf(document.activeElement) : -1;
  hand.innerHTML = "";
  if (mine && turnSounded !== state.version) {  // your turn: once a position
    turnSounded = state.version;
    sound("turn");
  }
  for (const card of ordered(view.hand || [])) {
    const playable = mine && state.legal.some((move) => move.card === card);
    const advised = hinted && hinted.card === card ? "hinted" : "";
    const button = cardButton(card, [playable ? "playable" : "", chosen === card ? "chosen" : "", advised].filter(Boolean));
    button.setAttribute("aria-disabled", String(!playable));
    button.addEventListener("click", () => { if (playable) chooseCard(card); });
    hand.append(button);
  }
  const playable = [...hand.children].findIndex((button) => button.classList.contains("playable"));
  const keep = focused >= 0 ? focused : mine && document.activeElement === document.body ? playable : -1;
  if (keep >= 0 && hand.children.length) hand.children[Math.min(keep, hand.children.length - 1)].focus({ preventScroll: true });
  renderLog();
  renderRoundEnd();
  if (over) renderFinished();
}

function playText(play) {
  const name = escapeHtml(play.seat === state.table.you ? t("you") : seatName(play.seat));
  return play.take.length
    ? t("took", { name, card: cardsHtml([play.card]), cards: cardsHtml(play.take) })
    : t("laid", { name, card: cardsHtml([play.card]) });
}

function renderLog() {
  // This round's plays, the latest first.
  const plays = state.view.history;
  const surs = new Set(state.sur_plays || []);
  $("#log").innerHTML = plays.map((play, index) => {
    const sur = surs.has(index) ? ` <b class="sur-mark">${t("sur")}</b>` : "";
    return `<li value="${index + 1}"${surs.has(index) ? ' class="sur"' : ""}>${playText(play)}${sur}</li>`;
  }).reverse().join("");
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
  const first = $("#choices .choice");
  if (first) first.focus();
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

function breakdownTable(summary, scores) {
  // the points, then what was counted for them: the cards and clubs taken and the Surs made
  const rows = ["points", "haft_khaj", "two_of_clubs", "ten_of_diamonds", "aces", "jacks", "sur_points"];
  const counted = { cards_taken: "cards", clubs_taken: "clubs", surs_made: "surs" };
  const head = `<tr><th>${t("side")}</th>${summary.sides.map((_, side) => `<th>${escapeHtml(sideName(side))}</th>`).join("")}</tr>`;
  const line = (label, field, classes = "") => `<tr class="${classes}"><td>${t(label)}</td>${summary.sides.map((side) => `<td>${persianIf(side[field])}</td>`).join("")}</tr>`;
  const body = rows.map((row) => line(row, row)).join("")
    + Object.entries(counted).map(([label, field]) => line(label, field, "counted")).join("");
  const total = scores ? `<tr><td>${t("match_score")}</td>${scores.map((value) => `<td><b>${persianIf(value)}</b></td>`).join("")}</tr>` : "";
  return head + body + total;
}

function renderRoundEnd() {
  // Between rounds: the breakdown, and Continue deals on once every player has said so.
  const dialog = $("#round-dialog");
  if (!state.waiting) {
    if (dialog.open) dialog.close();
    return;
  }
  const last = state.rounds[state.rounds.length - 1];
  if (!last || closedRound === last.number) return;
  $("#round-title").textContent = t("round_over", { n: last.number });
  $("#round-table").innerHTML = breakdownTable(last, state.scores);
  const mine = state.table.you !== null && state.waiting.includes(state.table.you);
  $("#round-continue").hidden = !mine;  // Close is always there: to look at the finished table first
  if (!dialog.open) {
    dialog.showModal();
    (mine ? $("#round-continue") : $("#round-close")).focus();
  }
}

function renderFinished() {
  const scores = state.scores.map(persianIf).join(" – ");
  $("#winner").textContent = t("winner", { name: sideName(state.winner), scores });
  const last = state.rounds[state.rounds.length - 1];
  $("#final-title").textContent = last ? `${t("last_round")}: ${t("round_over", { n: last.number })}` : "";
  $("#final-table").innerHTML = last ? breakdownTable(last, state.scores) : "";
  $("#download").href = `/api/tables/${encodeURIComponent(tableId)}/record`;
  if (!replaySteps && location.hash.startsWith("#replay=")) openReplay();
}

// -- chat -------------------------------------------------------------------------------------

function chatAuthor(line) {
  return line.seat === null ? `s:${line.name}` : `p:${line.seat}`;
}

function renderChat() {
  const list = $("#chat-lines");
  if (!list) return;
  const spectator = seatHeld === null;  // known from the first state, before it is shown
  $("#chat-title").textContent = spectator ? t("chat_spectators") : t("chat_players");
  const off = $("#mute-chat").checked;
  list.hidden = off;
  list.replaceChildren(...chatLines.filter((line) => !muted.has(chatAuthor(line))).map((line) => {
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
}

function saveMuted() {
  localStorage.setItem(`pasur-muted-${tableId}`, JSON.stringify([...muted]));
}

function sendChat(event) {
  event.preventDefault();
  const input = $("#chat-text");
  const text = input.value.trim();
  if (!text) return;
  const line = { type: "chat", text };
  if (state && state.table.you === null) line.name = localStorage.getItem("pasur-name") || undefined;
  send(line);
  input.value = "";
}

function sendPhrase() {
  const select = $("#chat-phrase");
  if (!select.value) return;
  const line = { type: "chat", phrase: select.value };
  if (state && state.table.you === null) line.name = localStorage.getItem("pasur-name") || undefined;
  send(line);
  select.value = "";
}

function phraseOptions() {
  $("#chat-phrase").innerHTML = `<option value="">${t("phrase")}</option>`
    + PHRASES.map((key) => `<option value="${key}">${t(key)}</option>`).join("");
}

// -- replay -----------------------------------------------------------------------------------

async function openReplay() {
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay`);
  if (!response.ok) return;
  replaySteps = await response.json();
  replayIndex = 0;
  const wanted = /^#replay=(\d+)\.(\d+)$/.exec(location.hash);
  if (wanted) {
    const found = stepIndex(Number(wanted[1]), Number(wanted[2]));
    if (found >= 0) replayIndex = found;
  }
  const rounds = [...new Set(replaySteps.map((step) => step.round))];
  $("#replay-round").innerHTML = rounds.map((round) => `<option value="${round}">${t("round", { n: round })}</option>`).join("");
  $("#replay").hidden = false;
  document.body.classList.add("replaying");  // the live score line and log give way to the replay's
  renderReplay();
  loadAnalysis();
}

async function loadAnalysis() {
  // The people's moves judged by the server in the background; asked again until all are.
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/analysis`).catch(() => null);
  if (!response || !response.ok) return;
  analysis = await response.json();
  if (replaySteps) renderReplay();
  if (!analysis.done) setTimeout(loadAnalysis, 2000);
}

function stepIndex(round, move) {
  const first = replaySteps.findIndex((step) => step.round === round);
  if (first < 0) return -1;
  const last = replaySteps.findLastIndex((step) => step.round === round);
  return Math.min(first + move, last);
}

function goTo(index) {
  replayIndex = Math.max(0, Math.min(replaySteps.length - 1, index));
  renderReplay();
}

function renderReplay() {
  const step = replaySteps[replayIndex];
  const first = replaySteps.findIndex((other) => other.round === step.round);
  const last = replaySteps.findLastIndex((other) => other.round === step.round);
  const moveInRound = replayIndex - first;
  history.replaceState(null, "", `#replay=${step.round}.${moveInRound}`);  // a link to this position
  $("#replay-round").value = String(step.round);
  const slider = $("#replay-move");
  slider.min = "0";
  slider.max = String(last - first);
  slider.value = String(moveInRound);
  $("#replay-position").textContent = `${t("round", { n: step.round })} · ${t("move_of", { i: moveInRound, n: last - first })}`;
  const sur = step.sur ? ` <b class="sur-mark">${t("sur")}</b>` : "";
  const move = step.move
    ? `<p>${escapeHtml(seatName(step.seat))}: ${cardsHtml([step.move.card])}${step.move.take.length ? " × " + cardsHtml(step.move.take) : ""}${sur}</p>`
    : `<p>${t("replay_start")}</p>`;
  // the last move of a round: what was left on the table goes to the last capturer
  const swept = step.swept.length
    ? `<p class="swept">${escapeHtml(t("swept", { name: sideName(step.sweeper), cards: step.swept.map(cardLabel).join(" ") }))}</p>` : "";
  // the match score as it stood in this round, not the live final one
  const banked = `<p class="replay-scores">${t("match_score")}: ${step.scores.map((score, side) => `${escapeHtml(sideName(side))} ${persianIf(score)}`).join(" · ")}</p>`;
  const cards = (list) => list.map((card) => `<span class="card">${cardSvg(card)}</span>`).join("");
  const hands = step.hands.map((hand, seat) => `<div class="replay-hand"><b>${escapeHtml(seatName(seat))}</b> ${cards(hand)}</div>`).join("");
  const summary = replayIndex === last ? state.rounds.find((round) => round.number === step.round) : null;
  const breakdown = summary ? `<h3>${t("round_over", { n: step.round })}</h3><table class="breakdown">${breakdownTable(summary, null)}</table>` : "";
  const judged = analysis && step.move ? analysis.moves.find((one) => one.round === step.round && one.move === moveInRound) : null;
  let verdict = "";
  if (judged) verdict = `<p class="verdict ${judged.verdict}">${escapeHtml(judged.lines[lang])}</p>`;
  else if (analysis && !analysis.done && step.move) verdict = `<p class="verdict">${t("judging", { done: persianIf(analysis.moves.length), total: persianIf(analysis.total) })}</p>`;
  $("#replay-body").innerHTML = `${banked}${move}${swept}${verdict}<div class="felt"><div class="cards">${cards(step.table)}</div></div>${hands}${breakdown}`;
}

// -- rules and help ---------------------------------------------------------------------------

async function openRules() {
  const dialog = $("#rules-dialog");
  if (!openRules.text) {
    const response = await fetch("/api/help").catch(() => null);
    openRules.text = response && response.ok ? await response.json() : null;
  }
  const help = openRules.text ? openRules.text[lang] : null;
  $("#rules-title").textContent = help ? help.title : t("rules");
  $("#rules-body").replaceChildren(...(help ? help.lines : []).map((line) => {
    const item = document.createElement("li");
    item.textContent = line;
    return item;
  }));
  if (!dialog.open) dialog.showModal();
}

// -- start ------------------------------------------------------------------------------------

function applyLanguage() {
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === "fa" ? "rtl" : "ltr";
  document.querySelectorAll("[data-i18n]").forEach((element) => { element.textContent = t(element.dataset.i18n); });
  document.querySelectorAll("[data-placeholder]").forEach((element) => { element.placeholder = t(element.dataset.placeholder); });
  $("#lang").textContent = lang === "fa" ? "English" : "فارسی";
  document.title = t("title");
  document.querySelectorAll("select[name=timer] option").forEach((option) => {
    option.textContent = option.value === "0" ? t("timer_off") : t("seconds_opt", { n: Number(option.value) });
  });
  phraseOptions();
  if (!tableId) { seatChoices(); renderTables(); }
  render();
  renderChat();
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
$("#replay-first").addEventListener("click", () => goTo(stepIndex(replaySteps[replayIndex].round, 0)));
$("#replay-prev").addEventListener("click", () => goTo(replayIndex - 1));
$("#replay-next").addEventListener("click", () => goTo(replayIndex + 1));
$("#replay-last").addEventListener("click", () => goTo(stepIndex(replaySteps[replayIndex].round, 1000)));
$("#replay-round").addEventListener("change", (event) => goTo(stepIndex(Number(event.target.value), 0)));
$("#replay-move").addEventListener("input", (event) => goTo(stepIndex(replaySteps[replayIndex].round, Number(event.target.value))));
$("#replay").addEventListener("keydown", (event) => {
  const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
  if (step && event.target.tagName !== "SELECT" && event.target.type !== "range") goTo(replayIndex + (lang === "fa" ? -step : step));
});
$("#rules-link").addEventListener("click", openRules);
$("#hint").addEventListener("click", () => {
  $("#hint-text").textContent = "…";
  send({ type: "hint", lang });
});
$("#fast").addEventListener("change", (event) => {
  state.table.fast = event.target.checked;
  send({ type: "pace", fast: event.target.checked });
});
function dealOn() {
  dealtOnRound = closedRound = state.rounds[state.rounds.length - 1].number;
  $("#deal-on").hidden = true;
  send({ type: "continue" });
}
$("#round-continue").addEventListener("click", dealOn);
$("#round-close").addEventListener("click", () => {
  closedRound = state.rounds[state.rounds.length - 1].number;
  render();  // the page's own Continue shows
});
$("#deal-on").addEventListener("click", dealOn);
$("#chat-form").addEventListener("submit", sendChat);
$("#chat-phrase").addEventListener("change", sendPhrase);
$("#mute-chat").addEventListener("change", renderChat);
$("#unmute-all").addEventListener("click", () => { muted.clear(); saveMuted(); renderChat(); });
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
// The service worker keeps the page's shell, so that it opens without the network (sw.js).
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});

// the settings dialog: each change is kept at once
$("#settings-link").addEventListener("click", () => {
  const form = $("#settings-form");
  form.sound.checked = SETTINGS.sound;
  form.order.value = SETTINGS.order;
  form.fourColour.checked = SETTINGS.fourColour;
  form.large.checked = SETTINGS.large;
  $("#settings-dialog").showModal();
});
$("#settings-form").addEventListener("change", (event) => {
  const field = event.target;
  SETTINGS[field.name] = field.type === "checkbox" ? field.checked : field.value;
  saveSettings();
});
document.body.classList.toggle("large-cards", SETTINGS.large);
