// Plays the cases tests/test_wasm.py sends (a JSON list on stdin) on the browser's engine
// (engine.wasm through static/js/engine.js) and prints what it saw, in the trace form the test
// builds from the Python reference: every deck dealt, every legal move list, every refusal, every
// bot's move (random, greedy, expert, ismcts, pimc), every round's breakdown, the scores and the winner.
import { readFileSync } from "node:fs";
import { Engine, cardsOf } from "../../src/pasur/server/static/js/engine.js";

const here = new URL(".", import.meta.url);
const wasm = new WebAssembly.Module(readFileSync(new URL("../../src/pasur/server/static/engine.wasm", here)));
const engine = new Engine(new WebAssembly.Instance(wasm));
const cases = JSON.parse(readFileSync(0, "utf8"));

function playMatch(item) {
  const trace = [];
  engine.newMatch(item.rules, item.seed);
  (item.bots || []).forEach((bot, seat) => { if (bot) engine.seedBot(seat, item.bot_seeds[seat]); });
  let attempt = 0;
  const attempts = item.attempts || [];
  for (;;) {
    let state = engine.state();
    if (state.winner >= 0) break;
    if (state.round === 0 || state.over) {
      engine.deal();
      state = engine.state();
      trace.push(["deck", state.deck]);
    }
    trace.push(["legal", engine.legal().map(String)]);
    trace.push(["evidence", evidenceText()]);
    const bot = (item.bots || [])[state.turn];
    if (bot) {
      const code = botMove(bot);
      trace.push(["bot", String(code)]);
      const refused = engine.play(Number(code & 63n), cardsOf(code >> 6n));
      if (refused) throw new Error(`the engine refused its own bot's move: ${refused}`);
    } else {
      if (attempt === attempts.length) { trace.push(["no more moves to try"]); break; }
      const [card, take] = attempts[attempt++];
      trace.push(["tried", engine.play(card, take)]);
    }
    state = engine.state();
    if (state.over) {
      trace.push(["breakdown", engine.breakdown()]);
      trace.push(["scores", state.scores, state.winner]);
    }
  }
  return trace;
}

/** The move of a bot named as the test names it: ``random``, ``greedy``, ``expert``,
 *  ``ismcts:ITERATIONS`` or ``pimc:PLAYOUTS``. */
function botMove(bot) {
  if (bot.startsWith("ismcts:")) return engine.ismctsMove({ iterations: Number(bot.slice(7)) });
  if (bot.startsWith("pimc:")) return engine.pimcMove({ playouts: Number(bot.slice(5)) });
  return bot === "expert" ? engine.expertBot() : engine.simpleBot(bot === "random");
}

function dealDeck(item) {
  engine.newMatch(item.rules, 0);
  return [["dealt", engine.deal(item.deck)]];
}

/** A match made from a seat's view, as a bot made from it searches: its legal moves and evidence. */
function fromView(item) {
  engine.fromView(item.view);
  return [["legal", engine.legal().map(String)], ["evidence", evidenceText()]];
}

/** The solver bot's evidence as text, its masks as decimal numbers (as the test writes them). */
function evidenceText() {
  return JSON.stringify(engine.evidence(), (key, value) => (typeof value === "bigint" ? String(value) : value));
}

/** What pimc's playouts add to each move's value in the solver bot's decision from a view (its
 *  means with ``playouts`` less its means without, the same deals solved): a number a legal move.
 *  Without ``bot_seed`` each count is asked of a new engine, whose bots nobody seeded. */
function playoutPoints(item) {
  const means = (playouts) => {
    const fresh = item.bot_seed === undefined ? new Engine(new WebAssembly.Instance(wasm)) : engine;
    fresh.fromView(item.view);
    if (item.bot_seed !== undefined) fresh.seedBot(item.view.seat, item.bot_seed);
    const count = fresh.legal().length; // before the decision: the legal moves are listed in io too
    let seed = 7n;
    fresh.solverMove({ samples: 8, playouts }, () => seed++);
    const io = fresh.io();
    const data = new DataView(io.buffer, io.byteOffset);
    return [...Array(count).keys()].map((index) => data.getFloat64(8 + 8 * index, true));
  };
  const alone = means(0);
  return means(item.playouts).map((mean, index) => mean - alone[index]);
}

/** The solver bot's mean value of each legal move from a view, its deals dealt from ``seed`` (one
 *  batch of ``samples``), the others searched each for itself when ``each``; no playouts. */
function solverMeans(item) {
  engine.fromView(item.view);
  const count = engine.legal().length;
  engine.solverMove({ samples: item.samples, each: item.each }, () => BigInt(item.seed));
  const io = engine.io();
  const data = new DataView(io.buffer, io.byteOffset);
  return [...Array(count).keys()].map((index) => data.getFloat64(8 + 8 * index, true));
}

const traces = cases.map((item) => (item.playouts ? playoutPoints(item) : item.samples ? solverMeans(item)
  : item.view ? fromView(item)
  : item.deck ? dealDeck(item) : playMatch(item)));
process.stdout.write(JSON.stringify(traces));
