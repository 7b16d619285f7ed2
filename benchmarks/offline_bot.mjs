// The browser's offline grandmaster as a pasur-bot/1 program (docs/BOT-PROTOCOL.md), so that the
// match runner can measure it against the Python bots on duplicate deals:
//
//   .venv/bin/pasur match "exec:node benchmarks/offline_bot.mjs" grandmaster --deals 500
//
// It plays what the page's worker plays: engine.wasm's solver sampling with /api/offline's options
// (server/offline.py), each move from the view alone. Options: --samples N, --ms N, --playouts N.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { CARDS, Engine, cardsOf } from "../src/pasur/server/static/js/engine.js";

const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const ms = option("ms", 800);
const options = {
  samples: option("samples", 256), ms, nodeLimit: ms * 5000, temper: 2.0, gift: 1.0, playouts: option("playouts", 1200),
  greedy: 0.9, each: true,
};
const engine = await Engine.load(readFileSync(new URL("../src/pasur/server/static/engine.wasm", import.meta.url)));
let state = 0x5EEDn;
const nextSeed = () => (state = BigInt.asUintN(64, state * 6364136223846793005n + 1442695040888963407n));
const say = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
// each seat's bot draws its playouts from a generator of its own, as the table's seeds them
for (let seat = 0; seat < 4; seat++) engine.seedBot(seat, nextSeed());

for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line);
  if (message.type === "hello") say({ type: "hello", name: "offline grandmaster" });
  else if (message.type === "quit") break;
  else if (message.type === "move") {
    let chosen = message.moves[0];
    if (message.moves.length > 1) {
      engine.fromView(message.view);
      const code = engine.solverMove(options, nextSeed);
      const card = CARDS[Number(code & 63n)];
      const take = cardsOf(code >> 6n).map((index) => CARDS[index]);
      chosen = message.moves.find((move) => move.card === card && move.take.join("+") === take.join("+"));
    }
    say({ type: "move", id: message.id, move: chosen.move });
  }
}
