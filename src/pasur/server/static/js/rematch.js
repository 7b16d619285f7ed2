// The end of a match: a rematch at the same table's settings (the seats turned by one, so the
// other player opens), or a new match from the start page.

import { send, token } from "./socket.js";
import { $, page } from "./state.js";
import { t } from "./words.js";

export function renderRematch() {
  const table = page.state.table;
  const button = $("#rematch");
  button.hidden = table.you === null;  // a spectator has no seat to take again
  button.textContent = table.rematch ? t("rematch_join") : t("rematch");
  $("#rematch-note").textContent = table.rematch && table.you !== null ? t("rematch_ready") : "";
}

/** Go to the rematch table with this seat's token (the same person sits there). */
function goToRematch(id) {
  localStorage.setItem(`pasur-token-${id}`, token());
  location.href = `/t/${encodeURIComponent(id)}`;
}

export function wireRematch() {
  $("#rematch").addEventListener("click", () => {
    const made = page.state.table.rematch;
    if (made) goToRematch(made);
    else send({ type: "rematch" });
  });
}

/** The server made the rematch this player asked for: go there (against bots only, it starts at once). */
export function rematchMade(id) {
  const table = page.state.table;
  const people = table.seats.filter((place) => !place.bot).length;
  if (people === 1) sessionStorage.setItem(`pasur-start-${id}`, "1");
  goToRematch(id);
}
