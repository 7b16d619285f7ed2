// The offline table's worker: loads the engine (engine.wasm) and plays the match on this device
// (offline-table.js), away from the page's thread, so that the page never freezes while a bot
// thinks. The page sends {setup, about} first, then the table's messages as it would send them to
// the server; every answer is posted back.

import { Engine } from "./engine.js";
import { OfflineTable } from "./offline-table.js";

let table = null;
const waiting = [];

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === "offline_start") {
    const engine = await Engine.load(await fetch("/static/engine.wasm"));
    try {
      table = new OfflineTable(engine, message.about, message.setup, (answer) => self.postMessage(answer));
    } catch (error) {  // a kept match this engine cannot replay (an upgrade changed the rules)
      self.postMessage({ type: "offline_broken", problem: String(error) });
      return;
    }
    waiting.splice(0).forEach((held) => table.receive(held));
    table.botsPlay();
  } else if (table) {
    table.receive(message);
  } else {
    waiting.push(message);
  }
};
