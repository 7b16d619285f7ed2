// The leaderboard (/leaders): all time by rating, or this week's league by rating gained (with
// last week's podium), at each kind of rated table (2 players, 3, 4 in partnership or each alone);
// the bots' fixed ratings apart.

import { $ } from "./state.js";
import { LEVEL_NAMES, answerError, lang, persianIf, ratingText, signedText, t } from "./words.js";

const chosen = { period: "all", table: "2" };
let board = null;  // the server's answer for the chosen board

export async function loadLeaders() {
  $("#leaders-page").hidden = false;
  const query = new URLSearchParams(chosen);
  const response = await fetch(`/api/leaderboard?${query}`).catch(() => null);
  const answer = response ? await response.json().catch(() => ({})) : {};
  $("#leaders-error").textContent = response && response.ok ? "" : answerError(answer);
  board = response && response.ok ? answer : null;
  renderLeaders();
}

function cell(kind, text, className = "") {
  const element = document.createElement(kind);
  element.textContent = text;  // names are people's own words: text, never markup
  if (className) element.className = className;
  return element;
}

function playerLink(name) {
  const link = document.createElement("a");
  link.href = `/p/${encodeURIComponent(name)}`;
  link.textContent = name;
  return link;
}

/** Draw the chosen board (again after a language change). */
export function renderLeaders() {
  document.querySelectorAll("#leaders-page [data-period]").forEach((tab) => tab.setAttribute("aria-selected", String(tab.dataset.period === chosen.period)));
  document.querySelectorAll("#leaders-page [data-table]").forEach((tab) => tab.setAttribute("aria-selected", String(tab.dataset.table === chosen.table)));
  $("#leaders-note").textContent = t(chosen.period === "week" ? "week_note" : "all_note");
  if (!board) return;
  const week = board.period === "week";
  const head = document.createElement("tr");
  head.append(cell("th", "#"), cell("th", t("account_name")), cell("th", t(week ? "gained" : "rating"), "number"), cell("th", t("matches_col"), "number"));
  if (week) head.append(cell("th", t("wins_col"), "number"));
  const rows = board.leaders.map((leader) => {
    const row = document.createElement("tr");
    if (!week && leader.provisional) row.className = "provisional";
    const name = cell("td", "");
    name.append(playerLink(leader.name));
    row.append(cell("td", persianIf(leader.rank)), name,
      cell("td", week ? signedText(leader.gained) : ratingText(leader), "number"), cell("td", persianIf(leader.games), "number"));
    if (week) row.append(cell("td", persianIf(leader.wins), "number"));
    return row;
  });
  $("#leaders-table").replaceChildren(head, ...rows);
  $("#leaders-table").hidden = rows.length === 0;
  $("#leaders-none").hidden = rows.length > 0;
  const podium = week ? board.last_week : [];
  $("#podium-box").hidden = podium.length === 0;
  $("#podium").replaceChildren(...podium.map((leader) => {
    const item = document.createElement("li");
    item.append(playerLink(leader.name), ` ${signedText(leader.gained)}`);
    return item;
  }));
  $("#leaders-bots").replaceChildren(...board.bots.map((bot) => {
    const item = document.createElement("li");
    item.append(cell("span", LEVEL_NAMES[lang][bot.level] ?? bot.level), cell("strong", persianIf(bot.rating)));
    return item;
  }));
}

export function wireLeaders() {
  document.querySelectorAll("#leaders-page [data-period], #leaders-page [data-table]").forEach((tab) => tab.addEventListener("click", () => {
    Object.assign(chosen, tab.dataset.period ? { period: tab.dataset.period } : { table: tab.dataset.table });
    loadLeaders();
  }));
}
