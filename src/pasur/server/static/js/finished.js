// The match's end: who won (or why it was aborted), how it ended, the last round's breakdown,
// the rating's change at a rated table, the record's download, the rematch and the review.

import { account } from "./account.js";
import { breakdownTable } from "./felt.js";
import { renderRematch } from "./rematch.js";
import { openReplay } from "./replay.js";
import { loadAnalysis } from "./analysis.js";
import { renderReview } from "./review.js";
import { savedRecord } from "./offline.js";
import { sound } from "./sound.js";
import { $, page, seatName, sideName, sideOf, tableId } from "./state.js";
import { persianIf, ratingText, sep, signedText, t } from "./words.js";

export function renderFinished() {
  const state = page.state;
  $("#winner").textContent = state.aborted ? t("aborted") : winnerLine(state.winner, state.scores);
  // a match won by your side is a moment: the line pops and sounds, once
  const won = !state.aborted && state.table.you !== null && sideOf(state.table.you) === state.winner;
  $("#winner").classList.toggle("won", won);
  if (won && page.wonSounded !== tableId) { page.wonSounded = tableId; sound("win"); }
  $("#ended").textContent = state.aborted ? [endedLine(state), t("aborted_why")].filter(Boolean).join(sep()) : endedLine(state);
  showRatingChange();
  const last = state.rounds[state.rounds.length - 1];
  $("#final-title").textContent = last ? `${t("last_round")}: ${t("round_over", { number: last.number })}` : "";
  $("#final-table").innerHTML = last ? breakdownTable(last, state.scores) : "";
  renderRematch();
  const offline = Boolean(state.table.offline);  // no server to judge the moves: the record is on the device
  $("#open-replay").hidden = offline;
  if (offline) {
    const record = savedRecord();
    $("#download").hidden = !record;
    if (record) {
      $("#download").href = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }));
      $("#download").download = "pasur-offline-match.json";
    }
    return;
  }
  $("#download").href = `/api/tables/${encodeURIComponent(tableId)}/record`;
  loadAnalysis();  // the review: started once, shown as it comes
  renderReview();
  if (!page.replaySteps && location.hash.startsWith("#replay=")) openReplay();
}

/** Who won, the winner's score first: "You win the match, 64 – 40", "Shirin and Bahram win …". */
function winnerLine(winner, scores) {
  const state = page.state;
  const you = state.table.you;
  const seats = [...Array(state.table.rules.players).keys()].filter((seat) => sideOf(seat) === winner);
  const others = seats.filter((seat) => seat !== you).map(seatName);
  const said = [scores[winner], ...scores.filter((_, side) => side !== winner)].map(persianIf).join(" – ");
  if (seats.includes(you)) return others.length ? t("winner_you_and", { name: others.join(t("and")), scores: said }) : t("winner_you", { scores: said });
  return t(others.length > 1 ? "winners" : "winner_line", { name: others.join(t("and")), scores: said });
}

/** How the match ended when the score did not end it: who resigned, who left. */
function endedLine(state) {
  const resigned = state.table.resigned;
  if (state.ended === "resigned" && resigned !== null) {
    return resigned === state.table.you ? t("resigned_you") : t("resigned_by", { name: seatName(resigned) });
  }
  if (state.ended === "abandoned") return t("abandoned_by", { name: sideName(1 - state.winner, true) });
  return "";
}

let ratingShown = null;  // the table whose rating change is shown (fetched once)

/** At a rated table, the signed-in player's rating before and after, from their page's history. */
async function showRatingChange() {
  const line = $("#rating-change");
  if (!page.state.table.rated || page.state.aborted || page.state.table.you === null || !account.name || ratingShown === tableId) return;
  ratingShown = tableId;
  const response = await fetch(`/api/players/${encodeURIComponent(account.name)}`).catch(() => null);
  const record = response && response.ok ? await response.json() : null;
  const match = record && record.history.find((entry) => entry.table === tableId);
  if (!match || !match.rating) { ratingShown = null; return; }
  const after = { value: match.rating.after, provisional: record.ratings[String(match.players)].provisional };
  line.textContent = `${t("rating_change", { before: persianIf(match.rating.before), after: ratingText(after) })} (${signedText(match.rating.after - match.rating.before)})`;
  line.hidden = false;
}
