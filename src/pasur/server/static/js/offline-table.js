// A table on this device, with no server: the match is the C engine's (engine.js), the bots are the
// engine's, and what it sends the page is what the server's table sends a seat (the same state
// messages, built as server/projection.py builds them; tests/test_offline.py compares the two on
// whole matches). It runs in a Web Worker (offline-worker.js), so that the page never waits on a
// bot, and in Node for the tests. ``about`` is what the server says of offline play
// (/api/offline: the levels and their bots, the bots' names, the refusals' words), kept by the
// service worker.

import { CARDS, cardsOf } from "./engine.js";
import { LessonTips } from "./lesson-tips.js";

/** How long a bot waits before its move shows, as the server's bots do (the table's "fast": 4×
 *  faster), less the time it thought. */
const BOT_PAUSE_MS = 450;
const FAST_PACE = 4;

/** The shortest text of each legal move (notation.short_texts): the card alone when it is that
 *  card's only choice, else ``card x taken`` (``card -``: laid down where it could take). */
export function shortTexts(codes) {
  const choices = new Map();
  for (const code of codes) choices.set(code & 63n, (choices.get(code & 63n) || 0) + 1);
  return codes.map((code) => {
    const card = CARDS[Number(code & 63n)];
    if (choices.get(code & 63n) === 1) return card;
    const take = cardsOf(code >> 6n).map((index) => CARDS[index]);
    return take.length ? `${card}x${take.join("+")}` : `${card}-`;
  });
}

const texts = (mask) => cardsOf(mask).map((card) => CARDS[card]);

/** A splitmix64 stream of 64-bit BigInts: the solver bot's seeds, from the match's seed. */
function seedStream(seed) {
  let state = BigInt.asUintN(64, BigInt(seed));
  return () => {
    state = BigInt.asUintN(64, state + 0x9E3779B97F4A7C15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94D049BB133111EBn);
    return z ^ (z >> 31n);
  };
}

export class OfflineTable {
  /** ``setup``: the rules (every option), the seats (``{name}`` for a person on this device,
   *  ``{bot: level}``), the seed, the moves already played (engine codes as strings, to resume)
   *  and ``fast``; ``post`` is given every message for the page. */
  constructor(engine, about, setup, post, { wait = (ms, then) => setTimeout(then, ms), now = () => performance.now() } = {}) {
    Object.assign(this, { engine, about, setup, post, wait, now });
    this.rules = setup.rules;
    this.players = setup.rules.players;
    this.sides = this.players === 4 && setup.rules.partnership ? 2 : this.players;
    this.people = setup.seats.map((seat, index) => (seat.bot ? null : index)).filter((seat) => seat !== null);
    this.fast = Boolean(setup.fast);
    this.outcome = null;
    this.resigned = null;
    engine.newMatch(setup.rules, setup.seed);
    setup.seats.forEach((seat, index) => { if (seat.bot) engine.seedBot(index, BigInt(setup.seed) + BigInt(index)); });
    this.nextSeed = seedStream(setup.seed);
    this.moves = [];   // every move of the match, as engine codes
    this.played = [];  // each round's deck and moves, as a record keeps them
    this.rounds = [];  // each finished round's breakdown
    this.surPlays = {};
    this.last = null;
    this.waiting = null;
    this.thinking = false;
    this.tips = setup.lesson ? new LessonTips(about.lesson.words, (code) => engine.moveValue(code)) : null;
    this._dealNext(setup.lesson ? about.lesson.deck : null);
    for (const code of setup.moves || []) {
      if (this.waiting) this._dealNext();
      this._play(BigInt(code));
    }
    if (setup.outcome) Object.assign(this, { outcome: setup.outcome, resigned: setup.resigned ?? null });
  }

  get version() { return this.moves.length; }

  /** The page's message, answered as the server's table answers it. */
  receive(message) {
    const answer = {
      hello: () => this.send(),
      move: () => this.move(message),
      continue: () => this.carryOn(),
      resign: () => this.resign(),
      pace: () => { this.fast = Boolean(message.fast); this.post({ type: "pace", fast: this.fast }); this.save(); },
      start: () => this.post({ type: "started" }),
    }[message.type];
    if (answer) answer();
    else this.refuse("not_understood", message.id, { problem: `${String(message.type).slice(0, 20)} (not at a table on this device)` });
  }

  refuse(reason, id, details = {}) {
    const words = this.about.refusals[reason];
    const fill = (text) => text.replace(/\{(\w+)\}/g, (_, key) => details[key] ?? "");
    this.post({ type: "refused", reason, id, version: this.version, message: fill(words.en), messages: { en: fill(words.en), fa: fill(words.fa) } });
  }

  /** A person's move: one of the legal moves' texts, at the version it was chosen at. */
  move({ version, move, id }) {
    const state = this.engine.state();
    if (this.outcome || this.waiting || state.winner >= 0 || !this.people.includes(state.turn)) {
      this.refuse("not_your_turn", id, { name: this.seatShown(state.turn).en });
      return;
    }
    if (version !== this.version) { this.refuse("stale_version", id, { version }); return; }
    const codes = this.engine.legal();
    const code = codes[shortTexts(codes).indexOf(move)];
    if (code === undefined) { this.refuse("stale_version", id); return; }  // only a legal move's text is offered
    this._play(code);
    this.post({ type: "ack", id });
    this.send();
    this.botsPlay();
  }

  /** A person is ready for the next round; the last one ready deals it. */
  carryOn() {
    if (!this.waiting) return;
    this.waiting.clear();
    this._dealNext();
    this.post({ type: "dealt_on" });
    this.send();
    this.botsPlay();
  }

  resign() {
    if (this.outcome) return;
    const state = this.engine.state();
    const seat = this.people.includes(state.turn) ? state.turn : this.people[0];
    const side = seat % this.sides;
    const others = state.scores.map((score, index) => [score, index]).filter(([, index]) => index !== side);
    this.resigned = seat;
    this.outcome = { winner: others.sort((a, b) => b[0] - a[0])[0][1], ended: "resigned", aborted: false };
    this.post({ type: "resigned" });
    this.send();
  }

  /** The next round, shuffled (or dealt from ``deck``, card numbers top first: the lesson's). */
  _dealNext(deck = null) {
    this.waiting = null;
    this.engine.deal(deck);
    const state = this.engine.state();
    this.banked = state.scores;
    this.played.push({ deck: state.deck.map((card) => CARDS[card]), moves: [] });
  }

  /** Play a legal code, keeping what the state messages say of it. */
  _play(code) {
    const before = this.engine.state();
    const card = Number(code & 63n);
    const take = cardsOf(code >> 6n);
    const refused = this.engine.play(card, take);
    if (refused) throw new Error(`the engine refused a legal move: ${refused}`);
    const after = this.engine.state();
    const seat = before.turn;
    const side = seat % this.sides;
    const sur = after.surs[side] !== before.surs[side] && after.round === before.round;
    const taken = code >> 6n;
    const left = taken ? before.table ^ taken : before.table | (1n << BigInt(card));
    const swept = after.over && after.lastCapturer >= 0;
    if (sur) (this.surPlays[before.round] ||= []).push(before.plays.length);
    this.last = {
      round: before.round, seat, card: CARDS[card], take: take.map((index) => CARDS[index]), sur,
      round_over: after.over, sweeper: swept ? after.lastCapturer : null, swept: swept ? texts(left) : [],
    };
    this.moves.push(code);
    this.played.at(-1).moves.push({ card: this.last.card, take: this.last.take });
    if (after.over) {
      this.rounds.push({ number: after.round, sides: this.engine.breakdown() });
      if (after.winner >= 0) this.outcome = { winner: after.winner, ended: null, aborted: false };
      else this.waiting = new Set(this.people);
    }
  }

  /** The bots to play play, one at a time, each after the pause a person can follow. */
  botsPlay() {
    const state = this.engine.state();
    const level = this.setup.seats[state.turn]?.bot;
    if (this.thinking || this.outcome || this.waiting || state.winner >= 0 || !level) return;
    this.thinking = true;
    const started = this.now();
    const code = this.botMove(level);
    const pause = Math.max(0, BOT_PAUSE_MS / (this.fast ? FAST_PACE : 1) - (this.now() - started));
    this.wait(pause, () => {
      this.thinking = false;
      this._play(code);
      this.send();
      this.botsPlay();
    });
  }

  botMove(level) {
    return this.engine.botMove(this.about.levels[level], this.nextSeed, this.now);
  }

  /** The match as a pasur-record/1 record (RECORDS.md): the rules, the seats' names, each round's
   *  deck and moves. */
  recordJson() {
    const names = this.seatsJson().map((seat) => seat.shown.en);
    return { format: "pasur-record/1", rules: this.rules, names, rounds: this.played };
  }

  /** What the page keeps to resume this match and to list it (the seats' names in each
   *  language), and its record. */
  save() {
    const setup = { ...this.setup, fast: this.fast, moves: this.moves.map(String), outcome: this.outcome, resigned: this.resigned };
    const shown = this.seatsJson().map((seat) => seat.shown);
    this.post({ type: "offline_saved", setup, over: Boolean(this.outcome), scores: this.engine.state().scores, shown, record: this.recordJson() });
  }

  seatShown(seat) {
    return this.seatsJson()[seat].shown;
  }

  /** Each seat as the server's table_json shows it: a person by name, a bot by a persona no
   *  person at the table is called and its level (projection.shown_names). */
  seatsJson() {
    const { personas, level_names: levelNames, bot_name: botName } = this.about.names;
    const people = new Set(this.setup.seats.filter((seat) => !seat.bot).map((seat) => seat.name.toLowerCase()));
    const persona = (index, lang) => personas[lang][index % personas[lang].length]
      + (index < personas[lang].length ? "" : ` ${Math.floor(index / personas[lang].length) + 1}`);
    let next = 0;
    return this.setup.seats.map((seat) => {
      if (!seat.bot) return { name: seat.name, bot: null, open: false, connected: true, shown: { en: seat.name, fa: seat.name } };
      while (["en", "fa"].some((lang) => people.has(persona(next, lang).toLowerCase()))) next += 1;
      const shown = Object.fromEntries(["en", "fa"].map((lang) => [lang, botName[lang]
        .replace("{name}", persona(next, lang)).replace("{level}", lang === "fa" ? levelNames[seat.bot] || seat.bot : seat.bot)]));
      next += 1;
      return { name: seat.bot, bot: seat.bot, open: false, connected: false, shown };
    });
  }

  tableJson(seat) {
    return {
      id: "offline", status: this.outcome ? "finished" : "playing", rules: this.rules, seats: this.seatsJson(),
      timer: 0, hints: false, fast: this.fast, you: seat, host: this.people[0], rematch: null, rated: false,
      resigned: this.resigned, lesson: Boolean(this.setup.lesson), offline: true,
    };
  }

  /** What ``seat`` sees (SeatView.to_json). */
  viewJson(state, seat) {
    return {
      rules: this.rules, seat, hand: texts(state.hands[seat]), table: texts(state.table),
      captured: state.captured.map(texts),
      history: state.plays.map((code, index) => ({
        seat: (state.first + index) % this.players, card: CARDS[Number(code & 63n)], take: texts(code >> 6n),
      })),
      hands: state.handCounts, pack: 52 - state.dealt, scores: [...this.banked], surs: state.surs, round: state.round,
      deal: state.deal, turn: state.turn, first: state.first,
      last_capturer: state.lastCapturer < 0 ? null : state.lastCapturer, over: state.over,
    };
  }

  /** The state message for ``seat`` (projection.state_json): the person to play, or the first. */
  stateJson(seat) {
    const state = this.engine.state();
    const between = Boolean(this.waiting);
    const own = !state.over && state.turn === seat ? this.engine.legal() : [];
    const codes = !this.outcome && !between ? own : [];
    const view = this.viewJson(state, seat);
    const legal = own.map((code) => ({ code, card: CARDS[Number(code & 63n)], take: texts(code >> 6n) }));
    const message = {
      type: "state", version: this.version, table: this.tableJson(seat),
      waiting: between ? [...this.waiting].sort() : null,
      view,
      last: this.last && this.last.round === state.round ? this.last : null,
      sur_plays: [...(this.surPlays[state.round] || [])],
      legal: shortTexts(codes).map((text, index) => ({ text, card: legal[index].card, take: legal[index].take })),
      scores: state.scores, winner: state.winner >= 0 ? state.winner : null, rounds: [...this.rounds],
      lesson: this.tips && seat === this.about.lesson.learner ? this.tips.tips(view, legal, this.engine.breakdown()) : [],
    };
    if (this.outcome) Object.assign(message, this.outcome, { legal: [] });
    return message;
  }

  /** The state, for the person to play (on one device, the hands of the others stay hidden); and
   *  what the page keeps of the match, as it now stands. */
  send() {
    const turn = this.engine.state().turn;
    this.post(this.stateJson(this.people.includes(turn) ? turn : this.people[0]));
    this.save();
  }
}
