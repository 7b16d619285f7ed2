// The felt's parts that the live table and the replay both draw: the seats around it (avatar,
// name, cards left as backs or face up, Surs, pile, the host's button freeing an absent seat),
// the score line, the table cards' size, and a round's breakdown.

import { backSvg, cardSvg } from "./cards.js";
import { send } from "./socket.js";
import { $, page, placeOf, seatName, sideName, sideOf } from "./state.js";
import { escapeHtml, persianIf, sep, t } from "./words.js";

/** Whether you, the host, may free ``seat``: a person's, not yours, away (not at a rated match
 *  under way, whose timer plays for them). */
export function mayFree(seat) {
  const table = page.state.table;
  const place = table.seats[seat];
  return table.you !== null && table.you === table.host && seat !== table.you && !place.open && !place.bot
    && !place.connected && (table.status === "open" || (table.status === "playing" && !table.rated));
}

/** The host's button that frees ``seat`` (saying ``words``). */
export function freeButton(seat, words) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "free-seat";
  button.textContent = t(words);
  button.addEventListener("click", () => send({ type: "free", seat }));
  return button;
}

/** A seat's avatar: its initials on a colour drawn from its name (nothing is uploaded). */
export function avatar(seat) {
  const name = seatName(seat).replace(/\s*\(.*\)$/, "");
  const letters = name.split(/\s+/).filter(Boolean).slice(0, 2).map((word) => [...word][0]).join("").toUpperCase();
  let hue = 0;
  for (const char of name) hue = (hue * 31 + char.codePointAt(0)) % 360;
  const face = document.createElement("span");
  face.className = "avatar";
  face.style.setProperty("--hue", String(hue));
  face.textContent = letters || "?";
  face.setAttribute("aria-hidden", "true");
  if (page.state.table.seats[seat].bot) face.classList.add("bot");
  return face;
}

/** A seat's hand as fanned backs, or (in the replay) its cards face up. */
function fanned(count, faceUp = null) {
  const backs = document.createElement("div");
  backs.className = faceUp ? "backs face-up" : "backs";
  backs.innerHTML = faceUp ? faceUp.map(cardSvg).join("") : backSvg().repeat(count);
  [...backs.children].forEach((back, index) => back.style.setProperty("--fan", String(index - (count - 1) / 2)));
  return backs;
}

/** The seats around the felt from ``view`` (a seat's view, or a replay step's), with every hand
 *  face up when ``faceUp`` holds them (the replay of a finished match). */
export function renderSeats(view = page.state.view, faceUp = null) {
  const state = page.state;
  const rules = state.table.rules;
  const you = state.table.you;
  const partners = rules.players === 4 && rules.partnership;
  document.querySelectorAll(".seat").forEach((box) => box.remove());
  for (let seat = 0; seat < rules.players; seat++) {
    const place = state.table.seats[seat];
    const side = sideOf(seat);
    const where = placeOf(seat);
    const box = document.createElement("div");
    box.className = `seat seat-${where}` + (!view.over && view.turn === seat && !state.waiting ? " turn" : "");
    box.dataset.seat = seat;
    const name = document.createElement("div");
    name.className = "seat-name";
    const strong = document.createElement("strong");
    strong.textContent = seatName(seat);  // people's names are text, never markup
    name.append(strong);
    const marks = [];
    if (seat === you) marks.push(t("you_mark"));
    else if (partners && you !== null && side === sideOf(you)) marks.push(t("partner"));
    if (!place.bot && place.name && !place.connected) marks.push(t("away"));  // said in words, not a grey dot only
    const small = document.createElement("small");
    const number = document.createElement("span");
    number.className = "seat-number";  // a phone leaves it out: the plate is one line there
    number.textContent = t("seat_short", { n: seat + 1 }) + (marks.length ? sep() : "");
    small.append(number, marks.join(sep()));
    name.append(small);
    const clubs = view.captured[side].filter((card) => card.endsWith("C")).length;
    // partners share one pile: it, its Surs and clubs sit with the side's first seat, once
    const keeper = partners ? side : seat;
    const facts = document.createElement("div");
    facts.className = "seat-facts";
    facts.textContent = keeper === seat
      ? `${t("cards_left", { n: view.hands[seat] })}${sep()}${t("surs", { count: view.surs[side] })}${sep()}${t("club_mark", { n: clubs })}`
      : `${t("cards_left", { n: view.hands[seat] })}${sep()}${t("team_pile", { name: seatName(keeper) })}`;
    const about = document.createElement("div");
    about.className = "seat-about";
    about.append(name, facts);
    const row = document.createElement("div");
    row.className = "seat-row";
    const pile = document.createElement("div");
    pile.className = "pile";
    const taken = view.captured[side].length;
    if (taken && keeper === seat) {
      pile.innerHTML = backSvg() + backSvg() + `<span>${persianIf(taken)}</span>`;
      pile.title = persianIf(taken);
    }
    const bottom = seat === (you ?? (faceUp ? 0 : null));  // its cards are the hand along the felt's edge
    row.append(bottom ? document.createElement("div") : fanned(view.hands[seat], faceUp && faceUp[seat]), pile);
    box.append(avatar(seat), about, row);
    if (mayFree(seat)) box.append(freeButton(seat, "bot_plays"));  // a row of its own, under the seat
    // your own seat sits by your hand; the one across in the top row; the others either side
    if (where === "bottom") $("#play-area").prepend(box);
    else if (where === "top") $("#top-row").insertBefore(box, $("#table-menu"));
    else $("#middle").append(box);
  }
}

export function renderScorebar(view = page.state.view, scores = page.state.scores) {
  // the match score, the round, deal, pack and target, and how many watch
  const state = page.state;
  const rules = state.table.rules;
  const sides = rules.players === 4 && rules.partnership ? 2 : rules.players;
  const lines = [...Array(sides).keys()].map((side) => {
    const line = document.createElement("div");
    line.className = "side" + (!view.over && sideOf(view.turn) === side ? " turn" : "");
    const name = document.createElement("span");
    name.textContent = sideName(side);
    const score = document.createElement("b");
    score.textContent = persianIf(scores[side]);
    line.append(name, " ", score);
    return line;
  });
  const about = document.createElement("div");
  about.className = "about";
  about.textContent = `${t("round", { number: view.round })}${sep()}${t("deal", { number: view.deal, deals: 12 / rules.players })}${sep()}${t("pack", { count: view.pack })}${sep()}${t("to", { n: rules.target })}`
    + (page.spectators ? `${sep()}${t("watching", { n: page.spectators })}` : "");
  $("#scorebar").replaceChildren(...lines, about);
}

let probe = null;

/** A card's width as the window and the person's card size make it, in pixels. */
function cardWidth() {
  if (!probe) {
    probe = document.createElement("div");
    probe.className = "card probe";
    probe.setAttribute("aria-hidden", "true");
    document.body.append(probe);
  }
  return probe.getBoundingClientRect().width;
}

/** The table cards' width that lets them all lie in the middle of the felt without overlapping. */
export function tableCardWidth(count) {
  const area = $("#centre").getBoundingClientRect();
  const largest = cardWidth();
  const smallest = Math.min(largest, 56);
  const gap = 8;
  for (let width = largest; width > smallest; width -= 2) {
    const across = Math.max(1, Math.floor((area.width - 16 + gap) / (width + gap)));
    const rows = Math.ceil(count / across);
    if (rows * (width * 1.4 + gap) <= area.height - 8) return width;
  }
  return smallest;
}

export function breakdownTable(summary, scores) {
  // the points, then what was counted for them: the cards and clubs taken and the Surs made
  const rows = ["points", "haft_khaj", "two_of_clubs", "ten_of_diamonds", "aces", "jacks", "sur_points"];
  const counted = { cards_taken: "cards", clubs_taken: "clubs", surs_made: "surs" };
  const head = `<tr><th>${t("side")}</th>${summary.sides.map((_, side) => `<th>${escapeHtml(sideName(side))}</th>`).join("")}</tr>`;
  const line = (label, field, classes = "") => `<tr class="${classes}"><td>${t(label)}</td>${summary.sides.map((side) => `<td>${persianIf(side[field])}</td>`).join("")}</tr>`;
  const body = rows.map((row) => line(row, row)).join("")
    + Object.entries(counted).map(([label, field]) => line(label, field, "counted")).join("");
  const total = scores ? `<tr><td>${t("match_score")}</td>${scores.map((value) => `<td><b>${persianIf(value)}</b></td>`).join("")}</tr>` : "";
  return head + body + total;
}
