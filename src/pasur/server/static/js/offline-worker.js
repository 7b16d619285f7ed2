// The offline table's worker: loads the engine (engine.wasm) and plays the match on this device
// (offline-table.js), away from the page's thread, so that the page never freezes while a bot
// thinks. The page sends {setup, about} first, then the table's messages as it would send them to
// the server; every answer is posted back.

import { Engine } from "./engine.js";
import { OfflineTable } from "./offline-table.js";

let table = null;
const waiting = [];

/** The engine, if it is the one ``about`` (/api/offline) was written for: its version ends with the
 *  engine's SHA-256 (12 hex digits), so a device holding one part of an upgrade and not the other
 *  never plays a match with levels or rules the engine does not have. */
async function engineOf(about) {
  const bytes = await (await fetch("/static/engine.wasm")).arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = [...digest.slice(0, 6)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return String(about.version).endsWith(`+${hex}`) ? Engine.load(bytes) : null;
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === "offline_start") {
    const engine = await engineOf(message.about);
    if (!engine) { self.postMessage({ type: "offline_outdated" }); return; }
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
