// The puzzles (/puzzles): exact positions from real play, the puzzle of the day or a stream by
// difficulty. The page gets a puzzle as its player's view and legal moves; a tap on a card (and,
// when it can take in several ways, a choice) tries a move, and the server says whether it was
// best, every move's exact worth and why. The person's puzzle rating (rated as a match against
// the puzzle, each puzzle on its first try only) and their streak of right answers are kept with
// their account when signed in, else in this browser: they are theirs alone, on no board.

import { account, call } from "./account.js";
import { cardButton } from "./cards.js";
import { $ } from "./state.js";
import { answerError, cardsText, escapeHtml, isolatedHtml, lang, moveHtml, persianIf, sep, signedText, t } from "./words.js";

const chosen = { difficulty: "", index: 0, daily: true };
let shown = null;   // the puzzle on screen (the server's answer)
let result = null;  // the answer to the move tried, once tried
let loads = 0;      // puzzles asked for: an answer to an older ask is dropped
let lineAt = -1;    // the best line's move shown on the felt (-1: the puzzle's position)
let accountStanding = null;  // the signed-in account's puzzle rating and streak, as the server keeps them
const KEPT = { rating: "pasur-puzzle-rating", streak: "pasur-puzzle-streak", tried: "pasur-puzzles-tried" };
const TRIED_KEPT = 1000;  // the puzzles remembered as tried (each is rated once)

function kept(key, otherwise) {
  try { return JSON.parse(localStorage.getItem(key)) ?? otherwise; } catch { return otherwise; }
}

/** Every shipped puzzle with its solution, as the service worker kept it (null when not kept). */
async function keptPuzzles() {
  const response = await fetch("/api/puzzles/offline").catch(() => null);
  return response && response.ok ? response.json().catch(() => null) : null;
}

/** Without the network: the puzzle chosen, picked from the kept set as the server picks it. */
function offlinePick(set) {
  if (chosen.daily) {
    const now = new Date();
    const date = now.toISOString().slice(0, 10);
    const ordinal = Math.floor(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) / 86_400_000) + 719_163;
    return { date, puzzle: set.puzzles[ordinal % set.puzzles.length], offline: true };
  }
  const listed = set.puzzles.filter((puzzle) => !chosen.difficulty || puzzle.difficulty === chosen.difficulty);
  return { count: listed.length, index: chosen.index % listed.length, puzzle: listed[chosen.index % listed.length], offline: true };
}

export async function loadPuzzle() {
  $("#puzzles-page").hidden = false;
  const ask = ++loads;
  const query = new URLSearchParams({ difficulty: chosen.difficulty, index: String(chosen.index) });
  const address = chosen.daily ? "/api/puzzles/daily" : `/api/puzzles?${query}`;
  const response = await fetch(address).catch(() => null);
  const answer = response ? await response.json().catch(() => ({})) : {};
  const set = response ? null : await keptPuzzles();  // no network: the puzzles kept on the device
  const mine = account.name && response ? await fetch("/api/puzzles/standing").catch(() => null) : null;
  accountStanding = mine && mine.ok ? await mine.json().catch(() => null) : null;
  if (ask !== loads) return;  // another puzzle was asked for meanwhile
  $("#puzzle-error").textContent = response && response.ok ? "" : set ? t("puzzles_offline") : answerError(answer);
  shown = response && response.ok ? answer : set && set.puzzles.length ? offlinePick(set) : null;
  result = null;
  lineAt = -1;
  renderPuzzle();
}

async function tryMove(move) {
  const ask = loads;
  const tried = kept(KEPT.tried, []);
  const first = !tried.includes(shown.puzzle.id);
  const rating = kept(KEPT.rating, null);
  const guest = !account.name;
  const body = { move: move.move, ...(guest && first && rating ? { rating: rating.value, deviation: rating.deviation } : {}) };
  const asked = shown.offline ? null : await call("POST", `/api/puzzles/${shown.puzzle.id}/answer`, body);
  const response = asked && !asked.failed ? asked : null;
  if (!response && shown.puzzle.answers) {  // a kept puzzle, without the network: its own solution
    result = { ...shown.puzzle, right: shown.puzzle.answers.some((one) => one.move === move.move), tried: move, reasons: null, rating: null };
    renderPuzzle();
    return;
  }
  const answer = response ? response.answer : {};
  if (ask !== loads) return;  // the puzzle changed while the answer was on its way
  if (response && response.ok && !guest) accountStanding = answer.rating;
  if (response && response.ok && guest && first) {
    localStorage.setItem(KEPT.rating, JSON.stringify(answer.rating));
    localStorage.setItem(KEPT.streak, JSON.stringify(answer.right ? kept(KEPT.streak, 0) + 1 : 0));
    localStorage.setItem(KEPT.tried, JSON.stringify([...tried, shown.puzzle.id].slice(-TRIED_KEPT)));
  }
  $("#puzzle-error").textContent = response && response.ok ? "" : answerError(answer);
  if (response && response.ok) result = answer;
  renderPuzzle();
}

/** Draw the puzzle (again after a language change): the position, then the verdict once tried. */
export function renderPuzzle() {
  document.querySelectorAll("#puzzles-page [data-difficulty]").forEach((tab) => {
    tab.setAttribute("aria-selected", String(!chosen.daily && tab.dataset.difficulty === chosen.difficulty));
  });
  $("#puzzle-daily").setAttribute("aria-selected", String(chosen.daily));
  if (!shown) return;
  const puzzle = shown.puzzle;
  const view = puzzle.view;
  const side = view.seat;  // two players: a seat is its side
  const clubs = view.captured[side].filter((card) => card.endsWith("C")).length;
  $("#puzzle-title").textContent = chosen.daily
    ? t("puzzle_of_the_day", { date: new Date(`${shown.date}T12:00:00Z`).toLocaleDateString(lang === "fa" ? "fa-IR" : "en-GB", { dateStyle: "long", timeZone: "UTC" }) })
    : t("puzzle_n", { n: shown.index + 1, count: shown.count });
  const task = puzzle.best_count > 1 ? "puzzle_task_twins" : "puzzle_task";
  $("#puzzle-task").textContent = t(task, { deal: view.deal, points: persianIf(puzzle.margin.toFixed(1)) });
  const unseen = puzzle.unseen.map(([rank, count]) => `${persianIf(rank)}×${persianIf(count)}`).join(" ");
  $("#puzzle-facts").textContent = [
    t(`difficulty_${puzzle.difficulty}`),
    t("puzzle_taken", {
      mine: view.captured[side].length, clubs, theirs: view.captured[1 - side].length,
      their_clubs: view.captured[1 - side].filter((card) => card.endsWith("C")).length,
    }),
    t("puzzle_other", { n: view.hands[1 - side], pack: view.pack }),
    t("puzzle_scores", { mine: persianIf(view.scores[side]), theirs: persianIf(view.scores[1 - side]) }),
    t("puzzle_unseen", { cards: unseen }),
  ].join(sep());
  const standing = account.name ? accountStanding : kept(KEPT.rating, null);
  const streak = account.name ? accountStanding?.streak ?? 0 : kept(KEPT.streak, 0);
  $("#puzzle-standing").textContent = t("puzzle_standing", {
    rating: persianIf(standing ? standing.value : "–"), streak: persianIf(streak),
  });
  // the felt: the puzzle's position, or after a move of the best line once it is stepped through
  const step = result && lineAt >= 0 ? result.line[lineAt] : null;
  const table = $("#puzzle-table");
  table.replaceChildren(...(step ? step.table : view.table).map((card) => marked(cardButton(card), card, "take")));
  const hand = $("#puzzle-hand");
  hand.replaceChildren(...(step ? step.hand : view.hand).map((card) => {
    const button = marked(cardButton(card), card, "card");
    button.disabled = Boolean(result);
    button.addEventListener("click", () => chooseCard(card));
    return button;
  }));
  $("#puzzle-choices").replaceChildren();
  renderLine(step);
  const verdict = $("#puzzle-verdict");
  verdict.hidden = !result;
  if (!result) return;
  const values = result.values.map((one) => `<li>${moveHtml(one)}: <b>${persianIf(one.value.toFixed(2))}</b></li>`).join("");
  verdict.innerHTML = `
    <p class="verdict ${result.right ? "good" : "mistake"}">${escapeHtml(t(result.right ? "puzzle_best" : "puzzle_not_best"))}: ${moveHtml(result.tried)}</p>
    <p><span class="tag best">${escapeHtml(t("best"))}</span> ${result.answers.map(moveHtml).join(escapeHtml(t("or")))}</p>
    ${result.reasons ? `<p class="why">${escapeHtml(result.reasons[lang])}</p>` : ""}
    ${result.line && result.line.length ? `<p class="note">${escapeHtml(t("best_line_shown"))} ${result.line.map((one) => `${escapeHtml(t(one.mine ? "line_by_you" : "line_by_them"))} ${moveHtml(one)}`).join(escapeHtml(t("line_join")))}</p>` : ""}
    ${result.rating && result.rating.change ? `<p class="note">${isolatedHtml(t("puzzle_rated", { change: signedText(result.rating.change) }))}</p>` : ""}
    <p class="note">${escapeHtml(t(puzzle.exact === "last_deal" ? "exact_last_deal" : "exact_arrangements", { n: persianIf(puzzle.arrangements) }))}</p>
    <ol class="puzzle-values">${values}</ol>`;
}

/** The best line's stepper under the felt: the move just shown and the way to the next. */
function renderLine(step) {
  const line = result && result.line ? result.line : [];
  $("#puzzle-line").hidden = !line.length;
  if (!line.length) return;
  const last = lineAt === line.length - 1;
  $("#puzzle-line-step").textContent = lineAt < 0 ? t("line_play") : last ? t("line_again") : t("line_next");
  $("#puzzle-line-said").innerHTML = step
    ? `${escapeHtml(t("line_move", { n: persianIf(lineAt + 1), count: persianIf(line.length) }))} ${escapeHtml(t(step.mine ? "line_by_you" : "line_by_them"))} ${moveHtml(step)}`
    : "";
}

function stepLine() {
  lineAt = lineAt === result.line.length - 1 ? -1 : lineAt + 1;
  renderPuzzle();
}

/** Once tried: the card played ringed red (green when it was best), the best move's green. */
function marked(button, card, part) {
  if (!result || lineAt >= 0) return button;
  const uses = (move) => (part === "card" ? move.card === card : move.take.includes(card));
  if (uses(result.tried) && !result.right) button.classList.add("mark-played");
  if (result.answers.some(uses)) button.classList.add("mark-best");
  return button;
}

function chooseCard(card) {
  const moves = shown.puzzle.legal.filter((move) => move.card === card);
  if (moves.length === 1) {
    tryMove(moves[0]);
    return;
  }
  // a card that can take in several ways (or be laid instead): the person picks one
  $("#puzzle-choices").replaceChildren(...moves.map((move) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "choice";
    button.textContent = move.take.length ? t("takes", { cards: cardsText(move.take) }) : t("lay_down");
    button.addEventListener("click", () => tryMove(move));
    return button;
  }));
}

export function wirePuzzles() {
  document.querySelectorAll("#puzzles-page [data-difficulty]").forEach((tab) => tab.addEventListener("click", () => {
    Object.assign(chosen, { difficulty: tab.dataset.difficulty, index: 0, daily: false });
    loadPuzzle();
  }));
  $("#puzzle-daily").addEventListener("click", () => {
    chosen.daily = true;
    loadPuzzle();
  });
  $("#puzzle-line-step").addEventListener("click", stepLine);
  $("#puzzle-next").addEventListener("click", () => {
    chosen.index = chosen.daily ? 0 : chosen.index + 1;
    chosen.daily = false;
    loadPuzzle();
  });
}
