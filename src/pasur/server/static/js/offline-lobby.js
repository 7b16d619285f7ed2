// The start page's offer to play on this device: the levels the browser plays (as the server
// lists them for offline play, kept by the service worker), a new match, or the one kept here.

import { newOfflineMatch, offlineAbout, savedMatch } from "./offline.js";
import { $ } from "./state.js";
import { LEVEL_NAMES, lang, t } from "./words.js";

let about = null;

/** The offline form, in the page's language (hidden until the offline levels are known). */
export function renderOffline() {
  const form = $("#offline-form");
  if (!about) return;
  const chosen = form.level.value || "grandmaster";
  form.level.replaceChildren(...Object.keys(about.levels).map((level) => {
    const option = document.createElement("option");
    option.value = level;
    option.textContent = LEVEL_NAMES[lang][level] || level;
    return option;
  }));
  form.level.value = chosen in about.levels ? chosen : Object.keys(about.levels)[0];
  $("#offline-resume").hidden = !savedMatch();
  form.hidden = false;
}

export async function wireOffline() {
  const form = $("#offline-form");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("#create-form").name.value.trim() || localStorage.getItem("pasur-name") || t("player_name");
    newOfflineMatch(about, name, { players: Number(form.players.value) }, form.level.value);
  });
  $("#offline-resume").addEventListener("click", () => { location.href = "/offline"; });
  about = await offlineAbout();
  renderOffline();
}
