// A complete pasur-bot/1 bot in JavaScript (Node.js): it plays the first legal move, preferring
// captures, told by what each move takes (a card's only capture is written as the bare card).
//
//     pasur match "exec:node examples/first_legal_bot.mjs" random --rounds 20

import { createInterface } from "node:readline";

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const message = JSON.parse(line);
  let answer;
  if (message.type === "hello") {
    answer = { type: "hello", name: "first-legal-js" };
  } else if (message.type === "move") {
    const captures = message.moves.filter((move) => move.take.length > 0);
    answer = { type: "move", id: message.id, move: (captures.length ? captures : message.moves)[0].move };
  } else if (message.type === "quit") {
    break;
  } else {
    continue; // other message types may come; a bot passes over what it does not know
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
