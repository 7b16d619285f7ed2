// The table drawn from the state this seat was sent: the waiting room, the seats around the felt
// and the score (felt.js), the table cards in the middle, your hand fanned at the bottom edge;
// choosing a move; the round's breakdown; the match's end (finished.js).

import { cardButton, ordered } from "./cards.js";
import { avatar, breakdownTable, freeButton, mayFree, renderScorebar, renderSeats, tableCardWidth } from "./felt.js";
import { renderFinished } from "./finished.js";
import { renderInviteForm } from "./friends.js";
import { handoverButton, handoverPending } from "./handover.js";
import { placeCoach, renderLesson, suggestedMove, wireLesson } from "./lesson.js";
import { renderReplay } from "./replay.js";
import { SETTINGS } from "./settings.js";
import { send } from "./socket.js";
import { sound } from "./sound.js";
import { $, page, seatName, sideName } from "./state.js";
import { cardsHtml, cardsText, escapeHtml, lang, sep, t } from "./words.js";

export function render() {
  const state = page.state;
  if (!state) return;
  const status = state.table.status;
  document.body.dataset.status = status;
  $("#waiting").hidden = status !== "open";
  $("#board").hidden = status === "open";
  $("#finished").hidden = status !== "finished" || page.replaying;
  // nobody to chat with: on this device, or seated among bots alone (a spectator chats with spectators)
  const you = state.table.you;
  const alone = Boolean(state.table.offline) || (you !== null && state.table.seats.every((place, seat) => seat === you || place.bot));
  $("#chat-box").hidden = alone;
  $("#chat-toggle").hidden = alone;
  if (status === "open") renderWaiting();
  else if (page.replaying) renderReplay();
  else renderBoard();
}

export function renderWaiting() {
  const state = page.state;
  $("#invite").value = location.href;
  const rules = state.table.rules;
  // what is being joined: rated or not, the turn timer, the match's length and its rules
  const timer = state.table.timer ? t("seconds_opt", { n: state.table.timer }) : t("timer_off");
  $("#waiting-about").textContent = [t(state.table.rated ? "rated_tag" : "unrated_tag"), `${t("timer")}: ${timer}`,
    t("to", { n: rules.target }), t(rules.sur_cancel ? "sur_cancel" : "sur_no_cancel")].join(sep());
  const partners = rules.players === 4 && rules.partnership;
  // each seat's line is updated where it stands, never rebuilt: a tap on "Sit here" that meets a
  // presence message between the press and the release still lands on its button
  const list = $("#seat-list");
  while (list.children.length > state.table.seats.length) list.lastChild.remove();
  state.table.seats.forEach((place, seat) => {
    let item = list.children[seat];
    if (!item) {
      item = document.createElement("li");
      const words = document.createElement("span");
      words.className = "seat-words";
      item.append(avatar(seat), words);
      list.append(item);
    } else {
      item.querySelector(".avatar").replaceWith(avatar(seat));
    }
    const you = seat === state.table.you ? ` (${t("you_mark")})` : "";
    // with partners, each seat says its side and its partner: the teams are seen before the start
    const team = partners ? `${sep()}${t("team_of", { n: (seat % 2) + 1, partner: seatName((seat + 2) % 4) })}` : "";
    item.querySelector(".seat-words").textContent =
      `${t("seat", { n: seat + 1 })}: ${seatName(seat)}${you}${team}${place.connected ? " ●" : ""}`;
    const free = place.open && state.table.you !== null && state.table.you !== seat;  // move to a free seat
    let move = item.querySelector(".move-seat");
    if (free && !move) {
      move = document.createElement("button");
      move.type = "button";
      move.className = "move-seat";
      move.addEventListener("click", () => send({ type: "seat", seat }));
      item.append(move);
    } else if (!free && move) {
      move.remove();
    }
    if (move) move.textContent = t("sit_here");
    const freeing = item.querySelector(".free-seat");
    if (mayFree(seat) && !freeing) item.append(freeButton(seat, "free_seat"));
    else if (!mayFree(seat) && freeing) freeing.remove();
  });
  renderInviteForm();
  const free = state.table.seats.some((place) => place.open);
  $("#join-form").hidden = state.table.you !== null || !free;
  if (!$("#join-form").hidden && !$("#join-form").name.value) $("#join-form").name.value = localStorage.getItem("pasur-name") || "";
  $("#start").hidden = state.table.you === null || state.table.you !== state.table.host;
}

export function renderBoard() {
  const state = page.state;
  const view = state.view;
  const you = state.table.you;
  const over = state.table.status === "finished";
  $("#arena").hidden = over;
  renderScorebar();
  $("#fast").checked = Boolean(state.table.fast);
  $("#fast-row").hidden = you === null || !state.table.seats.some((place) => place.bot);  // bots' pace
  const twoSides = state.table.rules.players === 2 || (state.table.rules.players === 4 && state.table.rules.partnership);
  $("#resign").hidden = you === null || over || !twoSides;
  $("#table-menu").hidden = $("#fast-row").hidden && $("#resign").hidden;  // a phone's menu of them
  const mine = state.legal.length > 0;
  if (page.hinted && page.hinted.version !== state.version) page.hinted = null;
  // a forced move gets no hint: there is nothing to choose
  $("#hint").hidden = !(state.table.hints && mine && !state.waiting && (state.legal || []).length > 1);
  if (!page.hinted) $("#hint-text").textContent = "";
  renderSeats();
  renderLesson();
  const suggested = mine ? suggestedMove() : null;
  // the table
  const chosen = page.chosen;
  const options = chosen ? state.legal.filter((move) => move.card === chosen) : [];
  const table = $("#table-cards");
  table.replaceChildren();
  for (const card of view.table) {
    const classes = page.seenTable.has(card) ? [] : ["enter"];
    if (page.picked.has(card)) classes.push("taken");
    const pickable = chosen && options.some((move) => move.take.includes(card));
    if (pickable) classes.push("pick");
    if (suggested && suggested.take.includes(card)) classes.push("suggested");
    const button = cardButton(card, classes);
    button.tabIndex = pickable ? 0 : -1;  // a tab stop only while it may be picked
    button.addEventListener("click", () => pickTableCard(card));
    table.append(button);
  }
  if (!over) table.style.setProperty("--table-w", `${tableCardWidth(view.table.length)}px`);
  page.seenTable = new Set(view.table);
  $("#status").textContent = statusLine(mine);
  $("#status").classList.toggle("yours", mine);
  showClock(state);
  // between rounds, once the breakdown is closed to look at the table: Continue stays at hand
  const last = state.rounds[state.rounds.length - 1];
  $("#deal-on").hidden = !(state.waiting && state.waiting.includes(you) && last && page.closedRound === last.number
    && page.dealtOnRound !== last.number);
  renderChoices(options);
  renderHand(mine, suggested);
  renderLog();
  renderRoundEnd();
  placeCoach();
  if (over) renderFinished();
}

function statusLine(mine) {
  // whose turn, or who the next deal waits for
  const state = page.state;
  const view = state.view;
  const you = state.table.you;
  let line;
  if (state.waiting) {
    line = t("waiting_continue", { names: state.waiting.map((seat) => (seat === you ? t("you_mark") : seatName(seat))).join(t("list_join")) });
  } else {
    // your own move sent and not yet shown is still yours: never "Ava to play" about yourself
    const yours = view.turn === you && you !== null && !handoverPending();  // on one device: theirs once they take it
    const touch = matchMedia("(pointer: coarse)").matches ? "" : "_click";  // a mouse clicks, a finger taps
    line = view.over ? "" : mine && yours ? t(`${SETTINGS.confirm ? "your_turn_confirm" : "your_turn"}${touch}`)
      : yours ? t("move_sent") : t("waiting_for", { name: seatName(view.turn) });
  }
  if (state.table.status === "abandoned") line = t("abandoned");
  if (you === null) line = `${t("spectating")}${sep()}${line}`;
  if (page.deadline && state.table.status === "playing") {
    line += `${sep()}${t("seconds_left", { n: Math.max(0, Math.round((page.deadline - Date.now()) / 1000)) })}`;
  }
  return line;
}

/** The turn timer as a clock beside the status: a disc that empties as the turn's time runs out,
 *  red in its last ten seconds. */
function showClock(state) {
  const status = $("#status");
  const timed = Boolean(page.deadline && state.table.timer && state.table.status === "playing" && !state.view.over);
  status.classList.toggle("timed", timed);
  if (!timed) return;
  const left = Math.max(0, (page.deadline - Date.now()) / 1000);
  status.style.setProperty("--left", String(Math.min(1, left / state.table.timer)));
  status.classList.toggle("hurry", left <= 10);
}

function renderChoices(options) {
  // a card with several captures (or, to confirm, any chosen card): its moves to choose from
  const choices = $("#choices");
  choices.replaceChildren();
  if (!page.chosen || !(options.length > 1 || SETTINGS.confirm)) return;
  const note = document.createElement("span");
  note.textContent = options.length > 1 ? t("choose_take") : t("confirm_move");
  choices.append(note);
  for (const move of options) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "choice";
    button.dataset.move = move.text;
    button.textContent = move.take.length ? t("takes", { cards: cardsText(move.take) }) : t("lay_down");
    button.addEventListener("click", () => play(move.text));
    button.addEventListener("mouseenter", () => highlight(move.take));
    button.addEventListener("focus", () => highlight(move.take));
    choices.append(button);
  }
}

function renderHand(mine, suggested) {
  // the hand fanned, keeping the keyboard where it was
  const state = page.state;
  const hand = $("#hand");
  const focused = hand.contains(document.activeElement) ? [...hand.children].indexOf(document.activeElement) : -1;
  hand.replaceChildren();
  if (handoverPending()) {  // another person's turn on this device: their cards wait for them
    hand.append(handoverButton(render));
    return;
  }
  if (mine && page.turnSounded !== state.version) {  // your turn: once a position
    page.turnSounded = state.version;
    sound("turn");
  }
  const cards = ordered(state.view.hand || []);
  cards.forEach((card, index) => {
    const playable = mine && state.legal.some((move) => move.card === card);
    const advised = page.hinted && page.hinted.card === card ? "hinted" : "";
    const lesson = suggested && suggested.card === card ? "suggested" : "";
    const button = cardButton(card, [playable ? "playable" : "", page.chosen === card ? "chosen" : "", advised, lesson].filter(Boolean));
    button.style.setProperty("--fan", String(index - (cards.length - 1) / 2));
    button.setAttribute("aria-disabled", String(!playable));
    button.addEventListener("click", () => { if (playable) chooseCard(card); });
    hand.append(button);
  });
  const playable = [...hand.children].findIndex((button) => button.classList.contains("playable"));
  const keep = focused >= 0 ? focused : mine && document.activeElement === document.body ? playable : -1;
  if (keep >= 0 && hand.children.length) hand.children[Math.min(keep, hand.children.length - 1)].focus({ preventScroll: true });
}

function playText(play) {
  const name = escapeHtml(play.seat === page.state.table.you ? t("you_name") : seatName(play.seat));
  return play.take.length
    ? t("took", { name, card: cardsHtml([play.card]), cards: cardsHtml(play.take) })
    : t("laid", { name, card: cardsHtml([play.card]) });
}

function renderLog() {
  // This round's plays, the latest first.
  const plays = page.state.view.history;
  const surs = new Set(page.state.sur_plays || []);
  $("#log").innerHTML = plays.map((one, index) => {
    const sur = surs.has(index) ? ` <b class="sur-mark">${t("sur")}</b>` : "";
    return `<li value="${index + 1}"${surs.has(index) ? ' class="sur"' : ""}>${playText(one)}${sur}</li>`;
  }).reverse().join("");
}

function highlight(cards) {
  document.querySelectorAll("#table-cards .card").forEach((button) => {
    button.classList.toggle("taken", cards.includes(button.dataset.card));
  });
}

export function play(text) {
  const state = page.state;
  const id = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2));
  if (!send({ type: "move", version: state.version, move: text, id })) {
    $("#table-error").textContent = t("move_not_sent");  // said, and the hand stays playable
    return;
  }
  page.sent = { id, legal: state.legal };
  state.legal = [];  // one move a turn: the hand waits for the answer
  page.chosen = null;
  page.picked.clear();
  render();
}

function chooseCard(card) {
  const options = page.state.legal.filter((move) => move.card === card);
  // one move for this card plays at once, unless the person asked to confirm: then a second tap does
  if (options.length === 1 && (!SETTINGS.confirm || page.chosen === card)) return play(options[0].text);
  page.chosen = page.chosen === card ? null : card;
  page.picked.clear();
  render();
  const first = $("#choices .choice");
  if (first) first.focus();
}

function pickTableCard(card) {
  if (!page.chosen) return;
  const picked = page.picked;
  if (picked.has(card)) picked.delete(card);
  else picked.add(card);
  const options = page.state.legal.filter((move) => move.card === page.chosen);
  const exact = options.filter((move) => move.take.length === picked.size && move.take.every((taken) => picked.has(taken)));
  const wider = options.filter((move) => move.take.length > picked.size && [...picked].every((taken) => move.take.includes(taken)));
  if (exact.length === 1 && wider.length === 0) return play(exact[0].text);
  render();
}

/** What the round's last capturer swept up, in words ("" when nothing was left). */
function sweptText(state) {
  const last = state.last;
  return last && last.round_over && last.swept.length
    ? t("swept", { name: sideName(last.sweeper, true), cards: cardsText(last.swept, " ") }) : "";
}

function renderRoundEnd() {
  // Between rounds: the breakdown (and what the last sweep took), and Continue deals on once every
  // player has said so; closed, the same stays on the felt where the table was.
  const state = page.state;
  const dialog = $("#round-dialog");
  const summary = $("#round-summary");
  if (!state.waiting) {
    if (dialog.open) dialog.close();
    summary.hidden = true;
    return;
  }
  const last = state.rounds[state.rounds.length - 1];
  if (!last) return;
  const swept = sweptText(state);
  if (page.closedRound === last.number) {
    summary.innerHTML = `<h3>${escapeHtml(t("round_over", { number: last.number }))}</h3>`
      + (swept ? `<p class="note">${escapeHtml(swept)}</p>` : "") + `<table class="breakdown">${breakdownTable(last, state.scores)}</table>`;
    summary.hidden = page.replaying;
    return;
  }
  summary.hidden = true;
  $("#round-title").textContent = t("round_over", { number: last.number });
  $("#round-swept").textContent = swept;
  $("#round-swept").hidden = !swept;
  $("#round-table").innerHTML = breakdownTable(last, state.scores);
  const mine = state.table.you !== null && state.waiting.includes(state.table.you);
  $("#round-continue").hidden = !mine;  // Close is always there: to look at the finished table first
  if (!dialog.open) {
    dialog.showModal();
    (mine ? $("#round-continue") : $("#round-close")).focus();
  }
}

/** After a round: this player is ready for the next deal. */
export function dealOn() {
  const state = page.state;
  page.dealtOnRound = page.closedRound = state.rounds[state.rounds.length - 1].number;
  $("#deal-on").hidden = true;
  send({ type: "continue" });
}

/** The arrow keys move along the hand as it is seen (right to left in Persian), Home and End to
 *  its ends; Enter or Space plays the card, as a click does. */
function moveAlongTheHand(event) {
  const cards = [...$("#hand").querySelectorAll(".card")];
  const at = cards.indexOf(document.activeElement);
  const rtl = document.documentElement.dir === "rtl";
  const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1 }[event.key];
  const to = event.key === "Home" ? 0 : event.key === "End" ? cards.length - 1 : step !== undefined && at >= 0 ? at + step : null;
  if (to === null || !cards.length) return;
  event.preventDefault();
  cards[Math.max(0, Math.min(cards.length - 1, to))].focus();
}

export function wireTable() {
  $("#hand").addEventListener("keydown", moveAlongTheHand);
  $("#start").addEventListener("click", () => send({ type: "start" }));
  wireLesson(render);
  $("#copy").addEventListener("click", () => navigator.clipboard?.writeText($("#invite").value));
  $("#hint").addEventListener("click", () => {
    // once a position: the server thinks one hint a position, and one at a time a socket
    if (page.hintAsked === page.state.version) return;
    page.hintAsked = page.state.version;
    $("#hint-text").textContent = "…";
    send({ type: "hint", lang });
  });
  $("#fast").addEventListener("change", (event) => {
    page.state.table.fast = event.target.checked;
    send({ type: "pace", fast: event.target.checked });
  });
  $("#round-continue").addEventListener("click", dealOn);
  $("#round-close").addEventListener("click", () => {
    page.closedRound = page.state.rounds[page.state.rounds.length - 1].number;
    render();  // the page's own Continue shows
  });
  $("#deal-on").addEventListener("click", dealOn);
  // on a phone the table's own actions (bots' pace, resign) wait behind one button
  const menu = $("#table-menu");
  const showMenu = (open) => {
    $("#top-row").classList.toggle("menu-open", open);
    menu.setAttribute("aria-expanded", String(open));
  };
  menu.addEventListener("click", (event) => { event.stopPropagation(); showMenu(menu.getAttribute("aria-expanded") !== "true"); });
  document.addEventListener("click", (event) => { if (!$("#table-actions").contains(event.target)) showMenu(false); });
  $("#resign").addEventListener("click", () => {
    showMenu(false);
    $("#resign-dialog").returnValue = "";  // Escape closes it without a value: nothing is sent
    $("#resign-dialog").showModal();
  });
  $("#resign-dialog").addEventListener("close", () => {
    if ($("#resign-dialog").returnValue === "resign") send({ type: "resign" });
  });
  addEventListener("resize", () => { if (page.state && page.state.view) render(); });
  // the turn timer's countdown changes only the status line: a tap on a card in progress is kept
  setInterval(() => {
    const state = page.state;
    if (page.deadline && state && state.view && !state.view.over && !page.replaying) {
      $("#status").textContent = statusLine(state.legal.length > 0);
      showClock(state);
    }
  }, 1000);
}
