// The start page's offer to play on this device: the levels the browser plays (as the server
// lists them for offline play, kept by the service worker), a new match, or the one kept here.

import { account, accountWatchers, call } from "./account.js";
import { addToAccount, finishedMatches, newOfflineMatch, offlineAbout, savedMatch } from "./offline.js";
import { $ } from "./state.js";
import { LEVEL_NAMES, answerError, lang, persianIf, sep, t } from "./words.js";

let about = null;
/** The choice that seats people on this device instead of bots: pass and play. */
const FRIENDS = "friends";

/** The offline form, in the page's language (hidden until the offline levels are known). */
export function renderOffline() {
  const form = $("#offline-form");
  if (!about) return;
  const chosen = form.level.value || "grandmaster";
  const choices = [...Object.keys(about.levels).map((level) => [level, LEVEL_NAMES[lang][level] || level]), [FRIENDS, t("friends_here")]];
  form.level.replaceChildren(...choices.map(([value, shown]) => {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = shown;
    return option;
  }));
  form.level.value = choices.some(([value]) => value === chosen) ? chosen : "grandmaster";
  $("#offline-resume").hidden = !savedMatch();
  renderFinished();
  form.hidden = false;
}

/** The finished matches kept on this device: when, who, the score, won or lost, the record, and
 *  the match in the account's history (added, or a button that adds it). */
function renderFinished() {
  const kept = finishedMatches();
  $("#offline-history").hidden = kept.length === 0;
  $("#offline-history-list").replaceChildren(...kept.map((match) => {
    const item = document.createElement("li");
    const when = new Date(match.finished).toLocaleDateString(lang === "fa" ? "fa-IR" : "en-GB");
    const won = match.winner === 0;  // the person who started it sits at seat 0, side 0
    const others = match.shown.slice(1).map((shown) => shown[lang] || shown.en).join(t("and"));
    item.textContent = `${[when, others, match.scores.map(persianIf).join(" – "), t(won ? "won" : "lost")].join(sep())} `;
    const download = document.createElement("a");
    download.href = URL.createObjectURL(new Blob([JSON.stringify(match.record, null, 1)], { type: "application/json" }));
    download.download = `pasur-offline-${match.seed}.json`;
    download.textContent = t("download");
    item.append(download, " ", addedOrAdd(match));
    return item;
  }));
}

/** For a match played to its end: a link to it in the account's history once added, or, signed
 *  in, a button that adds it (unrated; the server replays it first and says what is wrong). */
function addedOrAdd(match) {
  if (match.table) {
    const link = document.createElement("a");
    link.href = `/t/${encodeURIComponent(match.table)}#replay=1.0`;
    link.textContent = t("in_your_history");
    return link;
  }
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = t("add_to_account");
  button.hidden = !account.name || !match.seats || (match.resigned ?? null) !== null;
  button.addEventListener("click", async () => {
    button.disabled = true;
    const { ok, answer, failed } = await addToAccount(match.seed, call);
    if (ok) renderFinished();
    else { button.disabled = false; button.textContent = failed ? t("add_needs_network") : answerError(answer); }
  });
  return button;
}

/** The first-game lesson on this device (no server): its deal, against its level, with its tips;
 *  false when offline play is not known here yet. */
export function startOfflineLesson(name) {
  if (!about) return false;
  newOfflineMatch(about, {}, [{ name }, { bot: about.lesson.level }], true);
  return true;
}

export async function wireOffline() {
  const form = $("#offline-form");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("#create-form").name.value.trim() || localStorage.getItem("pasur-name") || t("player_name");
    const players = Number(form.players.value);
    const others = form.level.value === FRIENDS
      ? Array.from({ length: players - 1 }, (_, index) => ({ name: t("player_n", { n: index + 2 }) }))
      : Array.from({ length: players - 1 }, () => ({ bot: form.level.value }));
    newOfflineMatch(about, { players }, [{ name }, ...others]);
  });
  $("#offline-resume").addEventListener("click", () => { location.href = "/offline"; });
  about = await offlineAbout();
  renderOffline();
  accountWatchers.push(renderFinished);  // the add button, once signed in or out
}
