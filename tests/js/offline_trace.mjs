// Plays the matches tests/test_offline.py sends (JSON on stdin: the about, and each match's setup
// and move texts) at the offline table (static/js/offline-table.js on engine.wasm), every seat a
// person on this device, and prints each seat's state message after every step; each names case's
// seats as the table shows them; and the record of each table of bots alone after its first round.
import { readFileSync } from "node:fs";
import { Engine } from "../../src/pasur/server/static/js/engine.js";
import { OfflineTable } from "../../src/pasur/server/static/js/offline-table.js";

const here = new URL(".", import.meta.url);
const engine = await Engine.load(readFileSync(new URL("../../src/pasur/server/static/engine.wasm", here)));
const { about, matches, names, bots = [] } = JSON.parse(readFileSync(0, "utf8"));
const quiet = { wait: (ms, then) => then(), now: () => 0 };

function snapshot(table) {
  return [...Array(table.players).keys()].map((seat) => table.stateJson(seat));
}

const played = matches.map(({ setup, moves }) => {
  const posted = [];
  const table = new OfflineTable(engine, about, setup, (message) => posted.push(message), quiet);
  const steps = [snapshot(table)];
  for (const [index, text] of moves.entries()) {
    if (table.waiting) { table.receive({ type: "continue" }); steps.push(snapshot(table)); }
    table.receive({ type: "move", version: table.version, move: text, id: String(index) });
    steps.push(snapshot(table));
  }
  const refusals = posted.filter((message) => message.type === "refused");
  return { steps, refusals, record: table.recordJson() };
});
const seats = names.map((setup) => new OfflineTable(engine, about, setup, () => {}, quiet).seatsJson());
/** Tables of bots alone, each level's bot playing the first round through: its record. */
const botRounds = bots.map((setup) => {
  const table = new OfflineTable(engine, about, setup, () => {}, quiet);
  table.receive({ type: "hello" });
  table.botsPlay();
  return table.recordJson();
});
process.stdout.write(JSON.stringify({ played, seats, bots: botRounds }));
