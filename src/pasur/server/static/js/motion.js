// Each play shown in turn: the card travels from its seat to the table, what it takes flies to
// the taker's pile, and a Sur and the last sweep are announced. States wait in a queue meanwhile.

import { backSvg, cardSvg } from "./cards.js";
import { motionTime } from "./settings.js";
import { sound } from "./sound.js";
import { $, page, redraw, seatName, seatOfSide, sideName } from "./state.js";
import { cardLabel, t } from "./words.js";

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
      if (before && before.view && next.last && next.version === before.version + 1) {
        await showPlay(next.last).catch(() => {});
      }
      page.state = next;
      page.deadline = next.seconds_left != null ? Date.now() + next.seconds_left * 1000 : null;
      if (!next.legal || !next.legal.length) { page.chosen = null; page.picked.clear(); }
      redraw();
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

async function showPlay(last) {
  const ms = pace(520);
  const source = document.querySelector(`#hand .card[data-card="${last.card}"]`)
    || document.querySelector(`.seat[data-seat="${last.seat}"] .backs`) || $("#table-cards");
  const table = $("#table-cards");
  const flying = flyingCard(last.card, centre(source));
  if (source.closest("#hand")) source.remove();
  await fly([flying], landing(table, flying.getBoundingClientRect().width), ms);
  sound(last.sur ? "sur" : last.take.length ? "capture" : "play");
  if (last.sur) announce(t("sur_by", { name: seatName(last.seat) }));
  if (last.take.length) {
    const taken = last.take.map((card) => table.querySelector(`.card[data-card="${card}"]`)).filter(Boolean);
    taken.forEach((element) => element.classList.add("taken"));
    await delay(pace(300));
    await fly([flying, ...taken], centre(pileOf(last.seat)), ms);
  }
  flying.remove();
  if (last.round_over && last.swept.length) {
    const sweeper = seatOfSide(last.sweeper);
    announce(t("swept", { name: sideName(last.sweeper, true), cards: last.swept.map(cardLabel).join(" ") }));
    const left = last.swept.map((card) => table.querySelector(`.card[data-card="${card}"]`)).filter(Boolean);
    await delay(pace(400));
    await fly(left, centre(pileOf(sweeper)), ms);
  }
  if (last.sur) await delay(pace(500));
}

function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

let announced = null;

/** A banner over the felt: a Sur, or what the last capturer sweeps up. */
export function announce(text) {
  const banner = $("#announce");
  banner.textContent = text;
  banner.hidden = false;
  banner.classList.remove("show");
  void banner.offsetWidth;  // restart the animation
  banner.classList.add("show");
  clearTimeout(announced);
  announced = setTimeout(() => { banner.hidden = true; }, Math.max(1600, pace(2200)));
}
