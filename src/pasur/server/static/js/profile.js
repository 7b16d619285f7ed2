// A player's page (/p/NAME): their rating at each kind of rated table with a graph of each,
// their figures over every round played, and each finished match (when, against whom, the score,
// won or lost, the rating's change) with links to its replay and its record.

import { $, playerName } from "./state.js";
import { LEVEL_NAMES, answerError, lang, persianIf, ratingText, sep, signedText, t } from "./words.js";

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
  $("#profile-summary").textContent = t("profile_summary", { n: record.games, games: persianIf(record.games), wins: persianIf(record.wins) });
  renderRatings();
  renderFigures();
  renderGraph();
  renderHistory();
}

function renderRatings() {
  $("#profile-ratings").replaceChildren(...Object.entries(record.ratings).map(([kind, rating]) => {
    const box = document.createElement("div");
    box.className = "rating-box";
    box.dataset.table = kind;
    const value = document.createElement("strong");
    value.textContent = ratingText(rating);
    if (rating.provisional) value.title = t("provisional");
    const about = document.createElement("span");
    about.textContent = `${t(`rating_${kind}`)}${sep()}± ${persianIf(rating.deviation)}${sep()}${t("rating_games", { n: rating.games })}`;
    box.append(value, about);
    return box;
  }));
}

function renderFigures() {
  const figures = record.figures;
  const shown = [
    ["points_per_round", figures.points_per_round, (value) => value.toFixed(1)],
    ["surs_per_round", figures.surs_per_round, (value) => value.toFixed(2)],
    ["haft_khaj_rate", figures.haft_khaj_rate, (value) => `${Math.round(value * 100)}%`],
    ["profile_accuracy", figures.accuracy, (value) => t("accuracy_of", { n: value, matches: figures.reviewed_matches })],
    ["profile_mean_loss", figures.mean_loss, (value) => value.toFixed(2)],
  ];
  $("#profile-figures").hidden = !figures.rounds;
  $("#profile-figures").replaceChildren(...shown.flatMap(([key, value, format]) => {
    const term = document.createElement("dt");
    term.textContent = t(key);
    const said = document.createElement("dd");
    said.textContent = value === null || value === undefined ? "–" : persianIf(format(value));
    return [term, said];
  }));
}

const SVG = "http://www.w3.org/2000/svg";

function svgElement(name, attributes) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

/** Each rating's course, one line a kind of table, over the latest rated matches. */
function renderGraph() {
  const lines = Object.entries(record.graph).filter(([, points]) => points.length > 0);
  $("#profile-graph-box").hidden = lines.length === 0;
  const graph = $("#profile-graph");
  graph.replaceChildren();
  if (!lines.length) return;
  const values = lines.flatMap(([, points]) => points.map((point) => point.rating));
  const low = Math.floor((Math.min(...values) - 20) / 50) * 50;
  const high = Math.ceil((Math.max(...values) + 20) / 50) * 50;
  // drawn at the size it is shown, so that its labels keep the page's size on a phone too
  const [width, height, left, pad] = [Math.max(240, Math.round(graph.getBoundingClientRect().width)) || 600, 200, 44, 10];
  graph.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const y = (rating) => pad + (height - 2 * pad) * (1 - (rating - low) / (high - low));
  for (const mark of [low, Math.round((low + high) / 2), high]) {
    graph.append(svgElement("line", { x1: left, x2: width, y1: y(mark), y2: y(mark), class: "grid" }));
    const label = svgElement("text", { x: left - 6, y: y(mark) + 4, class: "axis" });
    label.textContent = persianIf(mark);
    graph.append(label);
  }
  for (const [kind, points] of lines) {
    const x = (index) => left + 8 + (width - left - 16) * (index / (points.length - 1));
    const path = points.map((point, index) => `${index ? "L" : "M"}${x(index).toFixed(1)} ${y(point.rating).toFixed(1)}`).join(" ");
    graph.append(svgElement("path", { d: path, class: `line table-${kind}` }));
    const last = points[points.length - 1];
    graph.append(svgElement("circle", { cx: x(points.length - 1), cy: y(last.rating), r: 4, class: `dot table-${kind}` }));
  }
  graph.setAttribute("aria-label", lines.map(([kind, points]) => `${t(`rating_${kind}`)}: ${points.map((point) => persianIf(point.rating)).join(t("list_join"))}`).join("; "));
}

/** The name a deleted account's seats are kept under (the server's results.DELETED). */
const DELETED = "—";

function renderHistory() {
  $("#profile-none").hidden = record.history.length > 0;
  const when = new Intl.DateTimeFormat(lang === "fa" ? "fa-IR" : "en-GB", { dateStyle: "medium" });
  $("#profile-games").replaceChildren(...record.history.map((match) => {
    const item = document.createElement("li");
    item.className = match.ended === "aborted" ? "aborted" : match.won ? "won" : "lost";
    const others = match.others.filter((other) => other.side !== match.side)
      .map((other) => (other.bot ? t("bot", { level: LEVEL_NAMES[lang][other.bot] ?? other.bot }) : other.name === DELETED ? t("deleted_player") : other.name));
    const scores = [match.scores[match.side], ...match.scores.filter((_, side) => side !== match.side)].map(persianIf).join(" – ");
    const words = document.createElement("span");
    const result = match.ended === "aborted" ? t("aborted_short")
      : t(match.won ? "won" : "lost") + (match.ended ? ` (${t(match.ended === "resigned" ? "resigned_short" : "abandoned_short")})` : "");
    const where = match.device ? `${sep()}${t("on_a_device")}` : "";
    words.textContent = `${when.format(new Date(match.finished))}${sep()}${t("against", { names: others.join(t("and")) })}${sep()}${scores}${sep()}${result}${where}`;
    item.append(words);
    if (match.rating) {
      const change = document.createElement("span");
      change.className = "change";
      change.textContent = `${sep()}${persianIf(match.rating.after)} (${signedText(match.rating.after - match.rating.before)})`;
      item.append(change);
    }
    const link = document.createElement("a");
    link.href = `/t/${encodeURIComponent(match.table)}#replay=1.0`;
    link.textContent = t("replay");
    const record = document.createElement("a");
    record.href = `/api/tables/${encodeURIComponent(match.table)}/record`;
    record.textContent = t("record_short");
    record.setAttribute("download", "");
    item.append(" ", link, " ", record);
    return item;
  }));
}
