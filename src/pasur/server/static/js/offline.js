// Play on this device, with no server: the lobby's offline choices, the match kept on the device
// (resumed after the app was closed), and the transport that stands in for the table's socket: the
// offline table runs in a worker (offline-worker.js) and answers as the server would.

const SAVED = "pasur-offline-match";
const ABOUT = "/api/offline";

let worker = null;

/** A fresh random seed, as text (a whole number below 2**53). */
function freshSeed() {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2));
  return String((high & 0x1FFFFF) * 2 ** 32 + low);
}

/** What the server says of offline play (kept by the service worker), or null when never fetched. */
export async function offlineAbout() {
  const response = await fetch(ABOUT).catch(() => null);
  return response && response.ok ? response.json() : null;
}

/** The unfinished match kept on this device, if any. */
export function savedMatch() {
  const saved = JSON.parse(localStorage.getItem(SAVED) || "null");
  return saved && !saved.over ? saved : null;
}

/** The record of the match kept on this device (pasur-record/1), finished or not. */
export function savedRecord() {
  const saved = JSON.parse(localStorage.getItem(SAVED) || "null");
  return saved && saved.record ? saved.record : null;
}

/** A new match on this device with these ``seats`` (``{name}`` a person here, ``{bot: level}``),
 *  the rules as given and the rest at their defaults, shuffled from a fresh random seed; the page
 *  goes to it. */
export function newOfflineMatch(about, rules, seats) {
  const full = { ...about.defaults, ...rules };
  localStorage.setItem(SAVED, JSON.stringify({ setup: { rules: full, seats, seed: freshSeed(), moves: [] }, over: false }));
  location.href = "/offline";
}

/** Start the offline table and give each of its messages to ``handlers[message.type]``. */
export async function connectOffline(handlers) {
  const about = await offlineAbout();
  const saved = JSON.parse(localStorage.getItem(SAVED) || "null");
  if (!about || !saved) { location.href = "/"; return; }
  worker = new Worker("/static/js/offline-worker.js", { type: "module" });
  worker.onmessage = (event) => {
    const message = event.data;
    if (message.type === "offline_saved") localStorage.setItem(SAVED, JSON.stringify(message));
    else if (message.type === "offline_broken") { localStorage.removeItem(SAVED); location.href = "/"; }
    else handlers[message.type]?.(message);
  };
  worker.postMessage({ type: "offline_start", about, setup: saved.setup });
  worker.postMessage({ type: "hello" });
}

/** A message for the offline table; a rematch is a new match at the same table's settings. */
export function sendOffline(message) {
  if (message.type === "rematch") {
    const saved = JSON.parse(localStorage.getItem(SAVED));
    const setup = { ...saved.setup, seed: freshSeed(), moves: [], outcome: null, resigned: null };
    localStorage.setItem(SAVED, JSON.stringify({ setup, over: false }));
    location.reload();
  } else if (worker) {
    worker.postMessage(message);
  }
}
