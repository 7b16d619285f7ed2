// A player's page (/p/NAME): their matches won of those played, and each finished match (when,
// against whom, the score, won or lost) with a link to its replay.

import { $, playerName } from "./state.js";
import { LEVEL_NAMES, answerError, lang, persianIf, t } from "./words.js";

let record = null;  // the server's answer for this player, once fetched

export async function loadProfile() {
  $("#profile-page").hidden = false;
  const response = await fetch(`/api/players/${encodeURIComponent(playerName)}`).catch(() => null);
  const answer = response ? await response.json().catch(() => ({})) : {};
  if (!response || !response.ok) {
    $("#profile-name").textContent = playerName;
    $("#profile-error").textContent = answerError(answer);
    return;
  }
  record = answer;
  renderProfile();
}

/** Draw the page from the record (again after a language change). */
export function renderProfile() {
  if (!record) return;
  $("#profile-name").textContent = record.name;  // names are text, never markup
  $("#profile-summary").textContent = t("profile_summary", { games: persianIf(record.games), wins: persianIf(record.wins) });
  $("#profile-none").hidden = record.history.length > 0;
  const when = new Intl.DateTimeFormat(lang === "fa" ? "fa-IR" : "en-GB", { dateStyle: "medium" });
  $("#profile-games").replaceChildren(...record.history.map((match) => {
    const item = document.createElement("li");
    item.className = match.won ? "won" : "lost";
    const others = match.others.filter((other) => other.side !== match.side)
      .map((other) => (other.bot ? t("bot", { level: LEVEL_NAMES[lang][other.bot] ?? other.bot }) : other.name));
    const scores = [match.scores[match.side], ...match.scores.filter((_, side) => side !== match.side)].map(persianIf).join(" – ");
    const words = document.createElement("span");
    words.textContent = `${when.format(new Date(match.finished))} · ${t("against", { names: others.join(t("and")) })} · ${scores} · ${t(match.won ? "won" : "lost")}`;
    const link = document.createElement("a");
    link.href = `/t/${encodeURIComponent(match.table)}#replay=1.0`;
    link.textContent = t("replay");
    item.append(words, " ", link);
    return item;
  }));
}
