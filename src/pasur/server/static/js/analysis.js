// A finished match's judgement as the server gives it, asked for every 2 s until whole (the first
// ask starts it), and its key moments: the data the review panel and the replay show. Each answer
// is announced as the event ANALYSED on the document.

import { page, tableId } from "./state.js";

/** The document's event when more of the judgement has come. */
export const ANALYSED = "pasur-analysed";

let asking = null;  // the table whose analysis is being asked for

/** Ask for the analysis (the first ask starts it), again every 2 s until it is whole. */
export async function loadAnalysis() {
  if (asking === tableId) return;
  asking = tableId;
  while (asking === tableId) {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/analysis`).catch(() => null);
    if (response && response.ok) {
      page.analysis = await response.json();
      document.dispatchEvent(new Event(ANALYSED));  // the review and the replay show it
      if (page.analysis.done) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  asking = null;
}

/** The moves worth looking at again, in order: every person's, as the server listed them. */
export function keyMoments() {
  if (!page.analysis || !page.analysis.players) return [];
  const listed = page.analysis.players.flatMap((player) => player.key_moments);
  return page.analysis.moves
    .filter((one) => listed.some((moment) => moment.round === one.round && moment.move === one.move))
    .sort((a, b) => a.round - b.round || a.move - b.move);
}

/** The key moment after (1) or before (-1) the replay's position, if any. */
export function nextMoment(direction) {
  const step = page.replaySteps[page.replayIndex];
  const first = page.replaySteps.findIndex((other) => other.round === step.round);
  // a moment's position is the one before its move: move N is judged at N - 1 moves played
  const here = [step.round, page.moment ? page.moment.move : page.replayIndex - first + 0.5];
  const moments = keyMoments();
  const after = (one) => one.round > here[0] || (one.round === here[0] && one.move > here[1]);
  const before = (one) => one.round < here[0] || (one.round === here[0] && one.move < here[1]);
  return direction > 0 ? moments.find(after) : moments.filter(before).pop();
}
