// Each play shown in turn: the card travels from its seat to the table, what it takes flies to
// the taker's pile, and a Sur and the last sweep are announced. States wait in a queue meanwhile.

import { backSvg, cardSvg } from "./cards.js";
import { motionTime } from "./settings.js";
import { sound } from "./sound.js";
import { $, page, redraw, seatName, seatOfSide, sideName, sideOf } from "./state.js";
import { cardsText, t } from "./words.js";

/** How long a motion of ``ms`` takes: the person's choice, then the table's "Faster bots". */
function pace(ms) {
  const time = motionTime(ms);
  return page.state && page.state.table.fast ? time / 3 : time;
}

export async function showNext() {
  if (page.showing) return;
  page.showing = true;
  try {
    while (page.queue.length) {
      const next = page.queue.shift();
      const before = page.state;
      let hold = 0;
      if (before && before.view && next.last && next.version === before.version + 1) {
        hold = await showPlay(next.last).catch(() => 0);
      }
      page.state = next;  // the plates, the score and the status right as the cards land
      page.deadline = next.seconds_left != null ? Date.now() + next.seconds_left * 1000 : null;
      if (!next.legal || !next.legal.length) { page.chosen = null; page.picked.clear(); }
      redraw();
      if (next.last && next.last.sur) bump(next.last.seat);
      if (hold) await delay(hold);  // a Sur's moment, before the next play is shown
    }
  } finally {
    page.showing = false;
  }
}

function centre(element) {
  const box = element.getBoundingClientRect();
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}

function flyingCard(card, from) {
  const flying = document.createElement("div");
  flying.className = "card flying";
  flying.innerHTML = card ? cardSvg(card) : backSvg();
  document.body.append(flying);
  const box = flying.getBoundingClientRect();
  flying.style.left = `${from.x - box.width / 2}px`;
  flying.style.top = `${from.y - box.height / 2}px`;
  return flying;
}

async function fly(elements, to, ms) {
  await Promise.all(elements.map((element) => {
    const from = centre(element);
    return element.animate(
      [{ transform: "translate(0, 0)" }, { transform: `translate(${to.x - from.x}px, ${to.y - from.y}px) scale(.6)`, opacity: 0.4 }],
      { duration: ms, easing: "ease-in-out", fill: "forwards" },
    ).finished;
  }));
}

function pileOf(seat) {
  return document.querySelector(`.seat[data-seat="${seat}"] .pile`) || $("#table-cards");
}

/** Where a card laid on the table lands: after the last one, or the middle of an empty table. */
function landing(table, width) {
  const last = table.lastElementChild;
  if (!last) return centre(table);
  const spot = centre(last);
  const rtl = document.documentElement.dir === "rtl";
  return { x: spot.x + (rtl ? -1 : 1) * (width + 8), y: spot.y };
}

/** Show one play; how long its moment should hold once the table shows it (a Sur's). */
async function showPlay(last) {
  const ms = pace(360);
  // the status says the play being shown, not what was true before it ("your move is on its way")
  const name = last.seat === page.state.table.you ? t("you_name") : seatName(last.seat);
  $("#status").textContent = last.take.length
    ? t("took", { name, card: cardsText([last.card]), cards: cardsText(last.take) })
    : t("laid", { name, card: cardsText([last.card]) });
  $("#status").classList.remove("yours", "timed", "hurry");
  const source = document.querySelector(`#hand .card[data-card="${last.card}"]`)
    || document.querySelector(`.seat[data-seat="${last.seat}"] .backs`) || $("#table-cards");
  const table = $("#table-cards");
  const flying = flyingCard(last.card, centre(source));
  if (source.closest("#hand")) source.remove();
  await fly([flying], landing(table, flying.getBoundingClientRect().width), ms);
  sound(last.sur ? "sur" : last.take.length ? "capture" : "play");
  if (last.sur) announce(t("sur_by", { name: seatName(last.seat) }), "sur");
  if (last.take.length) {
    const taken = last.take.map((card) => table.querySelector(`.card[data-card="${card}"]`)).filter(Boolean);
    taken.forEach((element) => element.classList.add("taken"));
    await delay(pace(180));
    await fly([flying, ...taken], centre(pileOf(last.seat)), pace(300));
  }
  flying.remove();
  if (last.round_over && last.swept.length) {
    const sweeper = seatOfSide(last.sweeper);
    announce(t("swept", { name: sideName(last.sweeper, true), cards: cardsText(last.swept, " ") }), "sweep");
    sound("sweep");
    const left = last.swept.map((card) => table.querySelector(`.card[data-card="${card}"]`)).filter(Boolean);
    await delay(pace(400));
    await fly(left, centre(pileOf(sweeper)), ms);
  }
  return last.sur ? pace(700) : 0;
}

/** The seat's plate marks what just changed on it (a Sur counted). */
function bump(seat) {
  const plate = document.querySelector(`.seat[data-seat="${seatOfSide(sideOf(seat))}"] .seat-facts`);  // the side's pile's seat
  if (!plate) return;
  plate.classList.remove("bumped");
  void plate.offsetWidth;  // restart the animation
  plate.classList.add("bumped");
}

function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

let announced = null;

/** A banner over the felt: a Sur (``kind`` "sur", large), or what the last capturer sweeps up. */
export function announce(text, kind = "") {
  const banner = $("#announce");
  banner.textContent = text;
  banner.hidden = false;
  banner.className = `announce ${kind}`;
  void banner.offsetWidth;  // restart the animation
  banner.classList.add("show");
  clearTimeout(announced);
  announced = setTimeout(() => { banner.hidden = true; }, Math.max(1600, pace(2200)));
}
