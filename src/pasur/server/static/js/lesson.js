// The first-game lesson: the server sends the learner's seat every tip its position gives
// (pasur.coach.lesson); the page tells each topic once (remembered for the table in this browser,
// across tabs), in a bubble above the hand, and marks the move a tip suggests: its card in the hand
// and what it takes on the table. "No more tips" stops them for this table.

import { $, page, tableId } from "./state.js";
import { isolatedHtml, lang } from "./words.js";

const toldKey = () => `pasur-lesson-told-${tableId}`;
const offKey = () => `pasur-lesson-off-${tableId}`;

/** The topics already told at this table. */
function told() {
  try {
    return new Set(JSON.parse(localStorage.getItem(toldKey()) || "[]"));
  } catch {
    return new Set();
  }
}

/** The tips on show for this position: the untold ones, in the server's order, up to and
 *  including the first that suggests a move (as pasur.coach.lesson.untold); else those already on
 *  show. Each state is read once: the page draws it again and again. */
function currentTips(state) {
  if (page.lessonVersion === state.version) return page.lessonTips || [];
  page.lessonVersion = state.version;
  if (state.view && state.view.round > 1) page.lessonTips = [];  // the lesson's round is over: play on
  const known = told();
  const fresh = [];
  for (const tip of state.lesson || []) {
    if (known.has(tip.topic)) continue;
    fresh.push(tip);
    if (tip.card) break;
  }
  if (fresh.length) {
    fresh.forEach((tip) => known.add(tip.topic));
    localStorage.setItem(toldKey(), JSON.stringify([...known]));
    page.lessonTips = fresh;
  }
  return page.lessonTips || [];
}

/** The move the tips on show suggest, when it is legal now. */
export function suggestedMove() {
  const state = page.state;
  const tip = (page.lessonTips || []).find((one) => one.card);
  if (!tip || $("#coach").hidden) return null;
  return (state.legal || []).find((move) => move.card === tip.card && move.take.join() === tip.take.join()) || null;
}

export function renderLesson() {
  const state = page.state;
  const coach = $("#coach");
  const learning = Boolean(state.table.lesson) && state.table.you === 0 && !localStorage.getItem(offKey());
  const tips = learning ? currentTips(state) : [];
  coach.hidden = !tips.length || page.lessonClosed === tips;
  if (coach.hidden) return;
  $("#coach-text").innerHTML = tips.map((tip) => `<p>${isolatedHtml(tip.text[lang] || tip.text.en)}</p>`).join("");
}

/** The coach's place: inside the round's breakdown while that is open (it says what the round's
 *  end did), else above the hand. */
export function placeCoach() {
  const home = $("#round-dialog").open ? $("#round-coach") : $("#coach-home");
  if ($("#coach").parentElement !== home) home.append($("#coach"));
}

export function wireLesson(rerender) {
  $("#coach-close").addEventListener("click", () => {
    page.lessonClosed = page.lessonTips;
    rerender();
  });
  $("#coach-off").addEventListener("click", () => {
    localStorage.setItem(offKey(), "1");
    rerender();
  });
}
