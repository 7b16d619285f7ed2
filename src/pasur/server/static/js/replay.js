// The replay of a finished match, move by move, drawn on the felt: every hand face up at its seat,
// the table in the middle, the move and its verdict in a bar with the controls. Each person's moves
// are judged by the server in the background; a position has its own link (#replay=round.move).

import { cardButton } from "./cards.js";
import { ANALYSED, loadAnalysis, nextMoment } from "./analysis.js";
import { breakdownTable, renderScorebar, renderSeats, tableCardWidth } from "./felt.js";
import { $, page, redraw, seatName, sideName, tableId } from "./state.js";
import { cardsText, escapeHtml, lang, moveHtml, persianIf, sep, t } from "./words.js";

export async function openReplay() {
  if (!page.replaySteps) {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay`);
    if (!response.ok) return;
    page.replaySteps = await response.json();
    const rounds = [...new Set(page.replaySteps.map((step) => step.round))];
    $("#replay-round").innerHTML = rounds.map((round) => `<option value="${round}">${t("round", { number: round })}</option>`).join("");
  }
  page.replayIndex = 0;
  page.moment = null;
  const wanted = /^#replay=(\d+)\.(\d+)$/.exec(location.hash);
  if (wanted) {
    const found = stepIndex(Number(wanted[1]), Number(wanted[2]));
    if (found >= 0) page.replayIndex = found;
  }
  page.replaying = true;
  document.body.classList.add("replaying");  // the live move log gives way to the replay's bar
  redraw();
  loadAnalysis();
}

function closeReplay() {
  page.replaying = false;
  $("#replay").hidden = true;
  $("#replay-breakdown").hidden = true;
  document.body.classList.remove("replaying");
  history.replaceState(null, "", location.pathname);
  redraw();
  $("#open-replay").focus();
}

function stepIndex(round, move) {
  const first = page.replaySteps.findIndex((step) => step.round === round);
  if (first < 0) return -1;
  const last = page.replaySteps.findLastIndex((step) => step.round === round);
  return Math.min(first + move, last);
}

function goTo(index) {
  page.replayIndex = Math.max(0, Math.min(page.replaySteps.length - 1, index));
  page.moment = null;
  renderReplay();
}

/** The position before a judged move, with the move played and the best one marked. */
export function showMoment(judged) {
  page.replayIndex = stepIndex(judged.round, judged.move - 1);
  page.moment = judged;
  renderReplay();
  $("#replay-body").focus();
}

export function renderReplay() {
  const step = page.replaySteps[page.replayIndex];
  const first = page.replaySteps.findIndex((other) => other.round === step.round);
  const last = page.replaySteps.findLastIndex((other) => other.round === step.round);
  const moveInRound = page.replayIndex - first;
  const moment = page.moment && page.moment.round === step.round && page.moment.move === moveInRound + 1 ? page.moment : null;
  history.replaceState(null, "", `#replay=${step.round}.${moveInRound}`);  // a link to this position
  $("#arena").hidden = false;
  $("#replay").hidden = false;
  $("#replay-round").value = String(step.round);
  const slider = $("#replay-move");
  slider.min = "0";
  slider.max = String(last - first);
  slider.value = String(moveInRound);
  // at a key moment the position is the one before the move: said so, by the move's own number
  const where = moment ? t("before_move", { n: moment.move }) : t("move_of", { i: moveInRound, n: last - first });
  $("#replay-position").textContent = `${t("round", { number: step.round })}${sep()}${where}`;
  // the felt as it stood: the seats with their hands face up, the table, the hand along the edge
  const view = { ...step, hands: step.hands.map((hand) => hand.length) };
  renderScorebar(view, step.scores);  // the match score as it stood in this round, not the final one
  renderSeats(view, step.hands);
  const bottom = page.state.table.you ?? 0;
  const table = $("#table-cards");
  table.replaceChildren(...step.table.map((card) => marked(still(card), card, moment, "take")));
  table.style.setProperty("--table-w", `${tableCardWidth(step.table.length)}px`);
  const hand = step.hands[bottom];
  $("#hand").replaceChildren(...hand.map((card, index) => {
    const button = marked(still(card), card, moment && moment.seat === bottom ? moment : null, "card");
    button.style.setProperty("--fan", String(index - (hand.length - 1) / 2));
    return button;
  }));
  $("#replay-prev-moment").disabled = !nextMoment(-1);
  $("#replay-next-moment").disabled = !nextMoment(1);
  if (moment) {
    $("#replay-body").innerHTML = momentHtml(moment);
    $("#replay-breakdown").hidden = true;
    return;
  }
  // what the move did, and how the server judged it
  const sur = step.sur ? ` <b class="sur-mark">${t("sur")}</b>` : "";
  const move = step.move
    ? `<p>${escapeHtml(seatName(step.seat))}: ${moveHtml(step.move)}${sur}</p>`
    : `<p>${t("replay_start")}</p>`;
  // the last move of a round: what was left on the table goes to the last capturer
  const swept = step.swept.length
    ? `<p class="swept">${escapeHtml(t("swept", { name: sideName(step.sweeper, true), cards: cardsText(step.swept, " ") }))}</p>` : "";
  const judged = page.analysis && step.move ? page.analysis.moves.find((one) => one.round === step.round && one.move === moveInRound) : null;
  let verdict = "";
  if (judged) {
    verdict = `<p class="verdict ${judged.verdict}">${escapeHtml(judged.lines[lang])}</p>`;
    if (judged.reasons) verdict += `<p class="why">${escapeHtml(judged.reasons[lang])}</p>`;
  }
  else if (page.analysis && !page.analysis.done && step.move) verdict = `<p class="verdict">${t("judging", { done: persianIf(page.analysis.moves.length), total: persianIf(page.analysis.total) })}</p>`;
  $("#replay-body").innerHTML = `${move}${swept}${verdict}`;
  // the round's end: its breakdown where the table was
  const summary = page.replayIndex === last ? page.state.rounds.find((round) => round.number === step.round) : null;
  const breakdown = $("#replay-breakdown");
  breakdown.hidden = !summary;
  breakdown.innerHTML = summary ? `<h3>${t("round_over", { number: step.round })}</h3><table class="breakdown">${breakdownTable(summary, null)}</table>` : "";
}

/** A key moment in words: whose move, the move played and the best one, the verdict, and why. */
function momentHtml(judged) {
  const said = `<p>${escapeHtml(seatName(judged.seat))}${sep()}${escapeHtml(t("move_n", { n: persianIf(judged.move) }))}</p>
    <p class="moment-moves"><span class="tag played">${escapeHtml(t("played"))}</span> ${moveHtml(judged.played_move)}
    <span class="tag best">${escapeHtml(t("best"))}</span> ${moveHtml(judged.best_move)}</p>
    <p class="verdict ${judged.verdict}">${escapeHtml(judged.lines[lang])}</p>`;
  return said + (judged.reasons ? `<p class="why">${escapeHtml(judged.reasons[lang])}</p>` : "");
}

/** A card marked when a key moment's move played it (or took it), or the best move would. */
function marked(button, card, moment, part) {
  if (!moment) return button;
  const uses = (move) => (part === "card" ? move.card === card : move.take.includes(card));
  if (uses(moment.played_move)) button.classList.add("mark-played");
  if (uses(moment.best_move)) button.classList.add("mark-best");
  return button;
}

/** A card shown in the replay: looked at, not played. */
function still(card) {
  const button = cardButton(card);
  button.tabIndex = -1;
  button.setAttribute("aria-disabled", "true");
  return button;
}

export function wireReplay() {
  document.addEventListener(ANALYSED, () => { if (page.replaying) renderReplay(); });
  const here = () => page.replaySteps[page.replayIndex];
  $("#open-replay").addEventListener("click", openReplay);
  $("#replay-first").addEventListener("click", () => goTo(stepIndex(here().round, 0)));
  $("#replay-prev").addEventListener("click", () => goTo(page.replayIndex - 1));
  $("#replay-next").addEventListener("click", () => goTo(page.replayIndex + 1));
  $("#replay-last").addEventListener("click", () => goTo(stepIndex(here().round, 1000)));
  $("#replay-close").addEventListener("click", closeReplay);
  for (const [id, direction] of [["#replay-prev-moment", -1], ["#replay-next-moment", 1]]) {
    $(id).addEventListener("click", () => {
      const found = nextMoment(direction);
      if (found) showMoment(found);
    });
  }
  $("#replay-round").addEventListener("change", (event) => goTo(stepIndex(Number(event.target.value), 0)));
  $("#replay-move").addEventListener("input", (event) => goTo(stepIndex(here().round, Number(event.target.value))));
  $("#replay").addEventListener("keydown", (event) => {
    const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (step && event.target.tagName !== "SELECT" && event.target.type !== "range") goTo(page.replayIndex + (lang === "fa" ? -step : step));
  });
}
