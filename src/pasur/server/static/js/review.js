// The review of a finished match: the server judges the people's moves in the background (as
// `pasur analyze` does); the result panel then sums each person up (an accuracy score, explained,
// the verdicts counted, the largest losses) and lists the key moments, each opening the replay on
// the position before the move, with the move played and the best one marked on the felt.

import { ANALYSED, keyMoments } from "./analysis.js";
import { openReplay, showMoment } from "./replay.js";
import { $, page, seatName } from "./state.js";
import { escapeHtml, moveHtml, persianIf, sep, t } from "./words.js";

export function renderReview() {
  const section = $("#review");
  const analysis = page.analysis;
  if (!analysis || analysis.unavailable || (analysis.done && !analysis.total)) {
    section.hidden = true;
    return;
  }
  section.hidden = false;
  if (!analysis.done) {
    $("#review-body").innerHTML = `<p class="note">${escapeHtml(t("judging", { done: persianIf(analysis.moves.length), total: persianIf(analysis.total) }))}</p>`;
    return;
  }
  const moments = keyMoments();
  const players = analysis.players.map((player) => `
    <div class="review-player">
      <div class="accuracy" title="${escapeHtml(t("accuracy_explained"))}"><b>${persianIf(player.accuracy)}</b><span>${escapeHtml(t("accuracy"))}</span></div>
      <div>
        <p class="review-name">${escapeHtml(seatName(player.seat))}</p>
        <p>${escapeHtml(t("review_counts", { loss: persianIf(player.mean_loss.toFixed(2)), mistakes: player.mistakes, inaccuracies: player.inaccuracies, between: player.between ?? 0, unclear: player.unclear }))}</p>
      </div>
    </div>`).join("");
  const list = moments.map((one, index) => `
    <li><button type="button" class="moment ${one.verdict}" data-index="${index}">
      <span>${escapeHtml(t("round", { number: one.round }))}${sep()}${escapeHtml(t("move_n", { n: one.move }))}</span>
      <span>${moveHtml(one.played_move)}</span>
      <span class="verdict ${one.verdict}">${escapeHtml(t(`verdict_${one.verdict}`))}${sep()}${escapeHtml(t("loses", { n: persianIf(one.loss.toFixed(1)) }))}</span>
    </button></li>`).join("");
  $("#review-body").innerHTML = `${players}
    <p class="note">${escapeHtml(t("accuracy_explained"))}</p>
    ${moments.length ? `<h4>${escapeHtml(t("key_moments"))}</h4><ol class="moments">${list}</ol>` : `<p>${escapeHtml(t("no_key_moments"))}</p>`}`;
  for (const button of $("#review-body").querySelectorAll(".moment")) {
    button.addEventListener("click", () => openMoment(moments[Number(button.dataset.index)]));
  }
}

/** The replay on the position before a key moment's move. */
export async function openMoment(judged) {
  if (!page.replaying) await openReplay();
  showMoment(judged);
}

export function wireReview() {
  document.addEventListener(ANALYSED, renderReview);
  $("#review-first").addEventListener("click", () => {
    const moments = keyMoments();
    if (moments.length) openMoment(moments[0]);
  });
}
