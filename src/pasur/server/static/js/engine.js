// The project's C engine compiled to WebAssembly (engine.wasm, built by scripts/build-wasm.sh from
// src/pasur/core/_wasm.c): one match, its rules, its rounds, the refusals and the bots `random`,
// `greedy` and the solver bot's sampling, read here into plain values. Nothing of the rules is
// written in JavaScript: this file only moves numbers in and out. It runs in the offline table's
// worker and, for the tests, in Node.

/** Deals the solver bot solves between two looks at the clock. */
const BATCH = 8;

/** The card texts by number (rank * 4 + suit), as the Python core writes them. */
export const CARDS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
  .flatMap((rank) => ["C", "D", "H", "S"].map((suit) => rank + suit));

/** The refusals' reasons, by the engine's number (errors.IllegalMove's ``reason``). */
export const REFUSALS = [null, "not_in_hand", "say_which", "named_twice", "must_capture", "not_on_table",
  "only_lay_down", "cannot_take", "round_over", "match_over"];

/** A deck's problems, by the engine's number (deal.deck_problem). */
export const DECK_PROBLEMS = [null, "two or more Jacks on the table", "a Jack on the table (it should have been buried)",
  "three or more Queens on the table", "three or more Kings on the table",
  "the deck must hold each of the 52 cards exactly once"];

/** The lines of a side's round breakdown, in the engine's order (scoring.SideScore). */
export const SCORE_LINES = ["clubs", "haft_khaj", "two_of_clubs", "ten_of_diamonds", "aces", "jacks", "surs",
  "sur_points", "cards"];

/** The cards of a mask (a BigInt), lowest first. */
export function cardsOf(mask) {
  const cards = [];
  for (let card = 0; mask; card += 1, mask >>= 1n) if (mask & 1n) cards.push(card);
  return cards;
}

export function maskOf(cards) {
  return cards.reduce((mask, card) => mask | (1n << BigInt(card)), 0n);
}

/** A seed (a whole number below 2**256, or a BigInt) as random.Random reads it: 32-bit words,
 *  lowest first (one word 0 for 0). */
export function seedWords(seed) {
  let rest = BigInt(seed);
  if (rest < 0n) rest = -rest;
  const words = [];
  do { words.push(Number(rest & 0xFFFFFFFFn)); rest >>= 32n; } while (rest && words.length < 8);
  return words;
}

export class Engine {
  constructor(instance) {
    this.exports = instance.exports;
    this.exports._initialize?.();
    this.io = () => new Uint32Array(this.exports.memory.buffer, this.exports.pasur_io(), 4096);
    // a generator never seeded is all zeros and draws the same number for ever: seed each seat's
    // with its number until the caller seeds it (seedBot)
    for (let seat = 0; seat < 4; seat++) this.seedBot(seat, seat);
  }

  /** Load engine.wasm's bytes (or a Response) into a ready engine. */
  static async load(source) {
    const loaded = source instanceof Response
      ? await WebAssembly.instantiateStreaming(source)
      : await WebAssembly.instantiate(source);
    return new Engine(loaded.instance);
  }

  /** The rules (their JSON options, every one given) into io[0..9], as the engine reads them. */
  _rules(io, rules) {
    const values = [rules.players, rules.partnership, rules.target, rules.sur_cutoff ?? -1, rules.sur_cancel,
      rules.sur_in_last_deal, rules.compulsory_capture, rules.bury_table_jack, rules.redeal_on_faces,
      rules.haft_khaj === "most"];
    values.forEach((value, index) => { io[index] = Number(value); });
  }

  _mask(io, at) { return BigInt(io[at]) | (BigInt(io[at + 1]) << 32n); }

  _putMask(io, at, mask) { io[at] = Number(mask & 0xFFFFFFFFn); io[at + 1] = Number(mask >> 32n); }

  /** A new match under ``rules`` (the JSON options, every one given) shuffled from ``seed``; no
   *  round dealt yet. Throws on rules the engine cannot take. */
  newMatch(rules, seed) {
    const io = this.io();
    this._rules(io, rules);
    const words = seedWords(seed);
    io[10] = words.length;
    words.forEach((word, index) => { io[11 + index] = word; });
    if (this.exports.pasur_new() !== 0) throw new Error("the engine cannot take these rules");
    this.sides = rules.players === 4 && rules.partnership ? 2 : rules.players;
    this.players = rules.players;
  }

  /** Deal the next round (shuffled, or from ``deck``: card numbers, top first); null, or the
   *  deck's problem. */
  deal(deck = null) {
    const io = this.io();
    if (deck && deck.length !== 52) return DECK_PROBLEMS.at(-1);
    if (deck) deck.forEach((card, index) => { io[index] = Number.isInteger(card) && card >= 0 ? card : 255; });
    const problem = this.exports.pasur_deal(deck ? 1 : 0);
    if (problem < 0) throw new Error("a round is under way or the match is over");
    return DECK_PROBLEMS[problem];
  }

  /** The match and its round as the engine holds them (hands and piles as BigInt masks). */
  state() {
    this.exports.pasur_state();
    const io = this.io();
    const signed = (at) => io[at] | 0;
    const range = (start, count) => [...Array(count).keys()].map((index) => start + index);
    return {
      round: io[0], first: io[1], turn: io[2], deal: io[3], dealt: io[4], over: Boolean(io[5]),
      lastCapturer: signed(6), winner: signed(7),
      scores: range(8, this.sides).map(signed),
      surs: range(12, this.sides).map((at) => io[at]),
      handCounts: range(16, this.players).map((at) => io[at]),
      hands: range(0, this.players).map((seat) => this._mask(io, 20 + 2 * seat)),
      table: this._mask(io, 28),
      captured: range(0, this.sides).map((side) => this._mask(io, 30 + 2 * side)),
      deck: Array.from(io.subarray(38, 90)),
      plays: range(0, io[90]).map((index) => this._mask(io, 91 + 2 * index)),
    };
  }

  /** Load the match a seat's view (BOT-PROTOCOL.md's, SeatView.to_json) stands for, as a search
   *  makes one: the cards the seat cannot see are placed anyhow and dealt again by the bots.
   *  Throws on a view that does not hold. */
  fromView(view) {
    const io = this.io();
    const index = (text) => CARDS.indexOf(text);
    const mask = (texts) => maskOf(texts.map(index));
    this._rules(io, view.rules);
    const numbers = { 10: view.seat, 27: 52 - view.pack, 28: view.deal, 29: view.round, 30: view.first, 31: view.turn,
      32: view.last_capturer ?? -1, 41: view.history.length };
    Object.entries(numbers).forEach(([at, value]) => { io[Number(at)] = value; });
    this._putMask(io, 11, mask(view.hand));
    this._putMask(io, 13, mask(view.table));
    [0, 1, 2, 3].forEach((side) => {
      this._putMask(io, 15 + 2 * side, mask(view.captured[side] || []));
      io[23 + side] = view.hands[side] || 0;
      io[33 + side] = view.surs[side] || 0;
      io[37 + side] = view.scores[side] || 0;
    });
    view.history.forEach((play, at) => this._putMask(io, 42 + 2 * at, BigInt(index(play.card)) | (mask(play.take) << 6n)));
    if (this.exports.pasur_from_view() !== 0) throw new Error("the view does not hold");
    this.sides = view.rules.players === 4 && view.rules.partnership ? 2 : view.rules.players;
    this.players = view.rules.players;
  }

  /** The legal moves of the seat to play, as engine codes (BigInt: card | take << 6), in the
   *  engine's order. */
  legal() {
    const count = this.exports.pasur_legal();
    const io = this.io();
    return [...Array(count).keys()].map((index) => this._mask(io, 2 * index));
  }

  /** Play ``card`` taking ``take`` (card numbers; null: not named): null when played, else the
   *  refusal's reason, and nothing changes. */
  play(card, take) {
    const io = this.io();
    const mask = maskOf(take ?? []);
    this._putMask(io, 0, mask);
    return REFUSALS[this.exports.pasur_play(card, take ? take.length : 0, take ? 1 : 0)];
  }

  /** Each side's breakdown of the round so far. */
  breakdown() {
    const sides = this.exports.pasur_breakdown();
    const io = this.io();
    return [...Array(sides).keys()].map((side) => {
      const line = Object.fromEntries(SCORE_LINES.map((name, index) => [name, io[9 * side + index] | 0]));
      line.points = line.haft_khaj + line.two_of_clubs + line.ten_of_diamonds + line.aces + line.jacks + line.sur_points;
      return line;
    });
  }

  /** Seed seat ``seat``'s bot as random.Random(seed) seeds a Python bot. */
  seedBot(seat, seed) {
    const io = this.io();
    const words = seedWords(seed);
    io[0] = words.length;
    words.forEach((word, index) => { io[1 + index] = word; });
    this.exports.pasur_seed_bot(seat);
  }

  /** The move (a code) the bot ``random`` or ``greedy`` of the seat to play chooses. */
  simpleBot(random) {
    if (this.exports.pasur_simple_bot(random ? 1 : 0) < 0) throw new Error("nobody is to play");
    return this._mask(this.io(), 0);
  }

  /** What a legal move (a code) of the seat to play gains at once (the greedy bot's measure). */
  moveValue(code) {
    this._putMask(this.io(), 0, code);
    return this.exports.pasur_move_value();
  }

  /** The move (a code) the bot ``expert`` of the seat to play chooses. */
  expertBot() {
    if (this.exports.pasur_expert_bot() < 0) throw new Error("nobody is to play");
    return this._mask(this.io(), 0);
  }

  /** The ismcts bot's move (a code) for the seat to play: ``iterations`` walks of its tree, in
   *  batches of 16 while ``ms`` milliseconds have not passed (as IsmctsBot looks at its clock). */
  ismctsMove({ iterations = 1000, ms = Infinity, exploration = 0.5, greedy = 0.9 }, now = () => performance.now()) {
    const legal = this.exports.pasur_ismcts_start(exploration, greedy);
    if (legal < 0) throw new Error("nobody is to play");
    const stop = now() + ms;
    for (let done = 0; legal > 1 && done < iterations && now() < stop; done += 16) {
      if (this.exports.pasur_ismcts_run(Math.min(16, iterations - done)) < 0) break;
    }
    this.exports.pasur_ismcts_choose();
    return this._mask(this.io(), 0);
  }

  /** The pimc bot's move (a code) for the seat to play: ``playouts`` shared among the legal moves,
   *  a sample at a time while ``ms`` milliseconds have not passed (at least one, as PimcBot). */
  pimcMove({ playouts = 1200, ms = Infinity, greedy = 0.9 }, now = () => performance.now()) {
    this._pimcSamples(playouts, greedy, ms, now);
    this.exports.pasur_pimc_choose();
    return this._mask(this.io(), 0);
  }

  /** The pimc bot's samples for the seat to play, as many as ``playouts`` spread over the moves
   *  allow or ``ms`` milliseconds (at least one): how many were played. */
  _pimcSamples(playouts, greedy, ms, now) {
    const samples = this.exports.pasur_pimc_start(playouts, greedy);
    if (samples < 0) throw new Error("nobody is to play");
    const stop = now() + ms;
    let done = 0;
    while (done < samples && (done === 0 || now() < stop)) {
      if (this.exports.pasur_pimc_sample(1) < 0) break;
      done++;
    }
    return done;
  }

  /** The others' plays in this deal as the solver bot of the seat to play weighs them: each as
   *  [seat, table, its seat's later cards, move, [every seat's later cards], last capturer, [clubs]]. */
  evidence() {
    const count = this.exports.pasur_evidence();
    const io = this.io();
    return [...Array(count).keys()].map((index) => {
      const at = 20 * index;
      const laters = [0, 1, 2, 3].map((seat) => this._mask(io, at + 7 + 2 * seat));
      return [io[at], this._mask(io, at + 1), this._mask(io, at + 3), this._mask(io, at + 5), laters, io[at + 15] | 0,
        Array.from(io.subarray(at + 16, at + 20))];
    });
  }

  /** The move (a code) of the seat to play's bot as /api/offline names a level's bot:
   *  ``{name, options}`` with ``name`` one of random, greedy, expert, ismcts, pimc and solver. */
  botMove({ name, options = {} }, nextSeed, now = () => performance.now()) {
    switch (name) {
      case "random": case "greedy": return this.simpleBot(name === "random");
      case "expert": return this.expertBot();
      case "ismcts": return this.ismctsMove(options, now);
      case "pimc": return this.pimcMove(options, now);
      case "solver": return this.solverMove(options, nextSeed, now);
      default: throw new Error(`this engine has no bot ${name}`);
    }
  }

  /** The solver bot's move (a code) for the seat to play: up to ``samples`` deals solved, in batches
   *  of 8 until ``ms`` milliseconds have passed (at least one batch), each batch dealt from
   *  ``nextSeed()`` (a 64-bit BigInt); the greedy bot's move when no deal weighed anything. With
   *  more than two sides, ``playouts`` of pimc's (with ``greedy``) add their mean points to each
   *  move's value, taking half of ``ms`` and of ``nodeLimit`` (SolverBot's ``playouts``), and with
   *  ``each`` every deal is searched with the others each for itself (SolverBot's ``others``). */
  solverMove({ samples = 256, ms = Infinity, temper = 2.0, gift = 1.0, nodeLimit = 0, playouts = 0, greedy = 0.9,
    each = false }, nextSeed, now = () => performance.now()) {
    const blend = playouts > 0 && this.sides > 2;
    if (blend) { ms /= 2; nodeLimit /= 2; }
    const played = blend ? this._pimcSamples(playouts, greedy, ms, now) : 0;
    if (this.exports.pasur_solver_start(temper, gift, each ? 1 : 0) < 0) throw new Error("nobody is to play");
    const stop = now() + ms;
    let solved = 0;
    do {
      this._putMask(this.io(), 0, nextSeed());
      const before = solved;
      const batch = Math.min(BATCH, samples - solved);
      solved = this.exports.pasur_solver_sample(batch, nodeLimit);
      if (solved < 0 || solved - before < batch) break;
    } while (solved < samples && now() < stop);
    if (this.exports.pasur_solver_choose(played) < 0) return this.simpleBot(false);
    return this._mask(this.io(), 0);
  }
}
