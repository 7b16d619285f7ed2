// The first-game lesson's tips on this device, with no server: pasur.coach.lesson.lesson_tips read
// from one seat's view (SeatView.to_json), each tip's words from the catalogue /api/offline sends
// (server/offline.py takes them from pasur.i18n). tests/test_offline.py holds every tip at every
// step of lesson rounds to what the server's projection gives.

import { CARDS } from "./engine.js";

const JACK = 10;
const QUEEN = 11;
const KING = 12;
const HAFT_KHAJ_CLUBS = 7;
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const PERSIAN_DIGITS = "۰۱۲۳۴۵۶۷۸۹";
/** Aces, Jacks, the 2♣ and the 10♦: the point cards the tip first names. */
const POINT_CARDS = [0, 1, 2, 3, 40, 41, 42, 43, 4, 37].reduce((mask, card) => mask | 1n << BigInt(card), 0n);

const bit = (card) => 1n << BigInt(card);
const number = (text) => CARDS.indexOf(text);
const maskOf = (texts) => texts.reduce((mask, text) => mask | bit(number(text)), 0n);
const cardsIn = (mask) => CARDS.filter((_, card) => mask >> BigInt(card) & 1n);
const count = (mask) => cardsIn(mask).length;
const rank = (text) => number(text) >> 2;
const clubs = (texts) => texts.filter((text) => text.endsWith("C")).length;
const persian = (value) => String(value).replace(/[0-9]/g, (digit) => PERSIAN_DIGITS[digit]);
const isolated = (words, lang) => (lang === "fa" ? `\u2066${words}\u2069` : words);

/** scoring.clears_table */
const clearsTable = (card, take, table) => take !== 0n && take === table && rank(card) !== JACK;

/** scoring.sur_counts */
function surCounts(rules, banked, lastDeal) {
  return (rules.sur_cutoff === null || banked < rules.sur_cutoff) && (!lastDeal || rules.sur_in_last_deal);
}

const sidesOf = (rules) => (rules.players === 4 && rules.partnership ? 2 : rules.players);
const sideOf = (rules, seat) => seat % sidesOf(rules);

/** i18n.card_words and cards_words (isolated inside Persian). */
function cardsWords(cards, lang) {
  const shown = cards.map((text) => {
    const shownRank = text.slice(0, -1).toUpperCase();
    return (lang === "fa" ? persian(shownRank) : shownRank) + SUITS[text.slice(-1).toUpperCase()];
  }).join("+");
  return isolated(shown, lang);
}

/** The tips' words: ``words[key][lang]`` filled with ``values`` (numbers in Persian digits in Persian,
 *  a function called with the language), as i18n.text fills them. */
function filled(words, key, lang, values) {
  return words[key][lang].replace(/\{(\w+)\}/g, (_, name) => {
    const value = typeof values[name] === "function" ? values[name](lang) : values[name];
    return lang === "fa" && typeof value === "number" ? persian(value) : String(value);
  });
}

export class LessonTips {
  /** ``words``: the lesson's catalogue (``lesson_*`` and ``lay_card``, each ``{en, fa}``);
   *  ``moveValue(code)``: the greedy bot's immediate value of a legal move (the engine's). */
  constructor(words, moveValue) {
    Object.assign(this, { words, moveValue });
  }

  tip(topic, form, suggest, values = {}) {
    const named = form ? `lesson_${topic}_${form}` : `lesson_${topic}`;
    const key = values.count === 1 && this.words[`${named}_one`] ? `${named}_one` : named;  // i18n.text's singular
    const text = Object.fromEntries(["en", "fa"].map((lang) => [lang, filled(this.words, key, lang, values)]));
    return { topic, text, card: suggest ? suggest.card : null, take: suggest ? suggest.take : [] };
  }

  /** i18n.move_words, isolated. */
  moveText(move) {
    return (lang) => (move.take.length
      ? `${cardsWords([move.card], lang)} × ${cardsWords(move.take, lang)}`
      : filled(this.words, "lay_card", lang, { card: cardsWords([move.card], lang) }));
  }

  /** A numeral capture's sum, ``5 + 6 = 11``. */
  static sumText(move) {
    const values = [move.card, ...move.take].map((text) => rank(text) + 1);
    return (lang) => isolated([...values.map((value) => (lang === "fa" ? persian(value) : value)).join(" + "), " = ",
      lang === "fa" ? persian(11) : 11].join(""), lang);
  }

  /** Every tip ``view`` gives its seat in a lesson's first round, in the order to tell them;
   *  ``legal``: its legal moves (``{card, take, code}``, the engine's order); ``scores``: the
   *  round's breakdown, once it is over. */
  tips(view, legal, scores) {
    if (view.round !== 1) return [];
    const replayed = this.replay(view);
    const tips = [];
    if (!view.history.length) tips.push(this.tip("welcome"));
    for (let index = Math.max(0, view.history.length - view.rules.players); index < view.history.length; index++) {
      tips.push(...this.playTips(view, index, replayed));
    }
    const haft = view.captured.findIndex((pile) => clubs(pile) >= HAFT_KHAJ_CLUBS);
    if (haft >= 0) tips.push(this.tip("haft_khaj", this.who(view, haft)));
    if (view.over) tips.push(...this.endTips(view, replayed, scores));
    else if (view.turn === view.seat) tips.push(...this.turnTips(view, legal));
    return tips;
  }

  who(view, side) {
    return side === sideOf(view.rules, view.seat) ? "you" : "other";
  }

  /** The table after each play, and which plays made a Sur. */
  replay(view) {
    let table = [view.table, ...view.captured].reduce((mask, cards) => mask | maskOf(cards), 0n)
      & ~maskOf(view.history.map((play) => play.card));
    const playsADeal = 4 * view.rules.players;
    const deals = Math.floor(12 / view.rules.players);
    const replayed = { tablesAfter: [], surs: [] };
    view.history.forEach((play, index) => {
      const take = maskOf(play.take);
      const lastDeal = Math.floor(index / playsADeal) + 1 === deals;
      const banked = view.scores[sideOf(view.rules, play.seat)];
      replayed.surs.push(clearsTable(play.card, take, table) && surCounts(view.rules, banked, lastDeal));
      table = take ? table & ~take : table | bit(number(play.card));
      replayed.tablesAfter.push(table);
    });
    return replayed;
  }

  static captureTopic(move) {
    if (!move.take.length) return null;
    const shown = rank(move.card);
    return shown === JACK ? "jack" : shown === QUEEN || shown === KING ? "faces" : "eleven";
  }

  playTips(view, index, replayed) {
    const play = view.history[index];
    const who = this.who(view, sideOf(view.rules, play.seat));
    const tips = [];
    if (replayed.surs[index]) tips.push(this.tip("sur", who, null, { move: this.moveText(play) }));
    const topic = LessonTips.captureTopic(play);
    if (topic) tips.push(this.tip(topic, who, null, { move: this.moveText(play), sum: LessonTips.sumText(play) }));
    const points = play.take.length ? (maskOf(play.take) | bit(number(play.card))) & POINT_CARDS : 0n;
    if (points) tips.push(this.tip("points", who, null, { cards: (lang) => cardsWords(cardsIn(points), lang) }));
    return tips;
  }

  endTips(view, replayed, scores) {
    const tips = [];
    const left = replayed.tablesAfter.length ? replayed.tablesAfter[replayed.tablesAfter.length - 1] : 0n;
    if (left && view.last_capturer !== null) {
      tips.push(this.tip("last_sweep", this.who(view, sideOf(view.rules, view.last_capturer)), null, { count: count(left) }));
    }
    const side = sideOf(view.rules, view.seat);
    const [own, other] = [scores[side], scores[1 - side]];
    tips.push(this.tip("scoring", "", null, { clubs: own.clubs, other_clubs: other.clubs, points: own.points, other_points: other.points }));
    tips.push(this.tip("play_on", "", null, { target: view.rules.target }));
    return tips;
  }

  turnTips(view, legal) {
    const table = maskOf(view.table);
    const lastDeal = view.pack === 0;
    const tips = [];
    if (view.deal === 2) tips.push(this.tip("deal"));
    if (lastDeal) tips.push(this.tip("last_deal"));
    const surAllowed = surCounts(view.rules, view.scores[sideOf(view.rules, view.seat)], lastDeal);
    const sweeps = legal.filter((move) => surAllowed && clearsTable(move.card, maskOf(move.take), table));
    if (sweeps.length) {
      const best = this.best(sweeps);
      tips.push(this.tip("sur", "now", best, { move: this.moveText(best) }));
    }
    for (const topic of ["eleven", "faces", "jack"]) {
      const moves = legal.filter((move) => LessonTips.captureTopic(move) === topic);
      if (moves.length) {
        const best = this.best(moves);
        tips.push(this.tip(topic, "now", best, { move: this.moveText(best), sum: LessonTips.sumText(best) }));
      }
    }
    const takers = [...new Set(legal.filter((move) => move.take.length).map((move) => move.card))].sort((a, b) => number(a) - number(b));
    if (takers.length && legal.some((move) => !move.take.length)) {
      tips.push(this.tip("must", "now", null, { cards: (lang) => cardsWords(takers, lang) }));
    }
    return tips;
  }

  /** The move that gains most at once (the first of equals). */
  best(moves) {
    return moves.reduce((best, move) => (this.moveValue(move.code) > this.moveValue(best.code) ? move : best));
  }
}
