// Play on this device, with no server: the lobby's offline choices, the match kept on the device
// (resumed after the app was closed), and the transport that stands in for the table's socket: the
// offline table runs in a worker (offline-worker.js) and answers as the server would.

import { t } from "./words.js";

const SAVED = "pasur-offline-match";
const HISTORY = "pasur-offline-history";
/** Finished matches this device keeps (the oldest go first). */
const KEPT = 50;
const ABOUT = "/api/offline";

let worker = null;

/** What this device keeps under ``key``, read back; ``fallback`` when nothing or something damaged
 *  is there (a damaged entry is let go, never a broken page). */
function kept(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null") ?? fallback;
  } catch {
    return fallback;
  }
}

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
  const saved = kept(SAVED, null);
  return saved && !saved.over ? saved : null;
}

/** The finished matches kept on this device, newest first: when, the seats' names in each language, the scores,
 *  the winning side and the record. */
export function finishedMatches() {
  const matches = kept(HISTORY, []);
  return Array.isArray(matches) ? matches : [];
}

/** A finished match joins the device's list, once. */
function keepFinished(saved) {
  const others = finishedMatches().filter((match) => match.seed !== saved.setup.seed);
  const entry = { seed: saved.setup.seed, finished: new Date().toISOString(), shown: saved.shown,
    scores: saved.scores, winner: saved.setup.outcome?.winner ?? null, record: saved.record,
    seats: saved.setup.seats, resigned: saved.setup.resigned ?? null, lesson: Boolean(saved.setup.lesson) };
  localStorage.setItem(HISTORY, JSON.stringify([entry, ...others].slice(0, KEPT)));
}

/** Add the finished match of this device played from ``seed`` to the account signed in (an
 *  unrated match in its history); the server's answer (``{ok, answer, failed}``, as call gives it).
 *  Once added, the entry keeps the table it became. */
export async function addToAccount(seed, call) {
  const match = finishedMatches().find((kept) => kept.seed === seed);
  const body = { record: match.record, seed, seats: match.seats, seat: 0, lesson: Boolean(match.lesson) };
  const answer = await call("POST", "/api/account/device-games", body);
  if (answer.ok) {
    const matches = finishedMatches().map((kept) => (kept.seed === seed ? { ...kept, table: answer.answer.table } : kept));
    localStorage.setItem(HISTORY, JSON.stringify(matches));
  }
  return answer;
}

/** The record of the match kept on this device (pasur-record/1), finished or not. */
export function savedRecord() {
  const saved = kept(SAVED, null);
  return saved && saved.record ? saved.record : null;
}

/** A new match on this device with these ``seats`` (``{name}`` a person here, ``{bot: level}``),
 *  the rules as given and the rest at their defaults, shuffled from a fresh random seed (the
 *  first-game lesson's first deal when ``lesson``); the page goes to it. */
export function newOfflineMatch(about, rules, seats, lesson = false) {
  const full = { ...about.defaults, ...rules };
  localStorage.setItem(SAVED, JSON.stringify({ setup: { rules: full, seats, seed: freshSeed(), moves: [], lesson }, over: false }));
  ["told", "off"].forEach((kept) => localStorage.removeItem(`pasur-lesson-${kept}-offline`));  // a new lesson tells all again
  // ask the browser to keep this device's matches when it runs short of room (it may say no)
  Promise.resolve(navigator.storage?.persist?.()).catch(() => {}).finally(() => { location.href = "/offline"; });
}

/** Start the offline table and give each of its messages to ``handlers[message.type]``. */
export async function connectOffline(handlers) {
  const about = await offlineAbout();
  const saved = kept(SAVED, null);
  if (!about || !saved) { location.href = "/"; return; }
  worker = new Worker("/static/js/offline-worker.js", { type: "module" });
  worker.onmessage = (event) => {
    const message = event.data;
    if (message.type === "offline_saved") {
      localStorage.setItem(SAVED, JSON.stringify(message));
      if (message.over) keepFinished(message);
    }
    else if (message.type === "offline_broken") { localStorage.removeItem(SAVED); location.href = "/"; }
    else if (message.type === "offline_outdated") handlers.error({ message: t("offline_outdated") });
    else handlers[message.type]?.(message);
  };
  worker.postMessage({ type: "offline_start", about, setup: saved.setup });
  worker.postMessage({ type: "hello" });
}

/** A message for the offline table; a rematch is a new match at the same table's settings. */
export function sendOffline(message) {
  if (message.type === "rematch") {
    const saved = kept(SAVED, null);
    const setup = { ...saved.setup, seed: freshSeed(), moves: [], outcome: null, resigned: null };
    localStorage.setItem(SAVED, JSON.stringify({ setup, over: false }));
    location.reload();
  } else if (worker) {
    worker.postMessage(message);
  }
}
