// What the page holds: only what the server sent this seat, and what the person is doing with it;
// and the names of the seats and sides it shows.

import { lang, t } from "./words.js";

export const $ = (selector) => document.querySelector(selector);

/** Whether this is the table on this device (``/offline``), played with no server. */
export const offlineTable = location.pathname === "/offline";

export const tableId = offlineTable ? "offline"
  : location.pathname.startsWith("/t/") ? decodeURIComponent(location.pathname.slice(3)) : null;
/** The player whose page this is (``/p/NAME``), if it is one. */
export const playerName = location.pathname.startsWith("/p/") ? decodeURIComponent(location.pathname.slice(3)) : null;

/** Whether this is the leaderboard's page (``/leaders``). */
export const leadersPage = location.pathname === "/leaders";

/** Whether this is the puzzles' page (``/puzzles``). */
export const puzzlesPage = location.pathname === "/puzzles";

export const page = {
  state: null,             // the state on screen
  version: null,           // the newest version the server sent
  queue: [],               // states received and not yet shown: each play is shown in turn
  showing: false,          // whether a play is being shown
  sent: null,              // the move sent and not yet answered: its id and the choices it was made from
  chosen: null,            // the hand card chosen while picking a capture (or, to confirm, any card)
  hinted: null,            // the hint shown for this turn (the server's answer), if any
  hintAsked: null,         // the version a hint was last asked at (asked once a position)
  picked: new Set(),       // table cards tapped so far
  seenTable: new Set(),    // table cards already drawn (new ones animate)
  deadline: null,          // when the turn timer runs out, by this browser's clock
  closedRound: null,       // the finished round whose breakdown was closed
  dealtOnRound: null,      // the finished round after which this player said Continue
  spectators: 0,
  chatLines: [],
  seatHeld: undefined,     // this page's seat as the latest state says it (null: watching)
  turnSounded: null,       // the version whose "your turn" was sounded
  replaySteps: null,
  replaying: false,        // whether the felt shows the replay of the finished match
  replayIndex: 0,
  analysis: null,          // the people's moves of the finished match judged so far (the server's answer)
  moment: null,            // the judged move whose position the replay shows, before it was played
  handedTo: null,          // on one device, the seat whose person took it (their hand may show)
};

/** What redraws the table as the page state now stands: main.js gives it table.js's render, so
 *  the parts the table uses (the plays shown in turn, the replay) redraw it without importing it. */
const drawing = { table: () => {} };

export function redraw() {
  drawing.table();
}

export function drawTableWith(render) {
  drawing.table = render;
}

export function seatName(seat) {
  const place = page.state.table.seats[seat];
  if (place.shown) return place.shown[lang] ?? place.shown.en;
  return place.name ?? t("open_seat");
}

export function sideOf(seat) {
  const rules = page.state.table.rules;
  return rules.players === 4 && rules.partnership ? seat % 2 : seat;
}

/** A side's players' names ("You + Shirin"; ``inSentence``: "you + Shirin", inside a sentence). */
export function sideName(side, inSentence = false) {
  const seats = [...Array(page.state.table.rules.players).keys()].filter((seat) => sideOf(seat) === side);
  const you = t(inSentence ? "you_mark" : "you_name");
  return seats.map((seat) => (seat === page.state.table.you ? you : seatName(seat))).join(" + ");
}

export function seatOfSide(side) {
  const seats = [...Array(page.state.table.rules.players).keys()];
  return seats.find((seat) => sideOf(seat) === side) ?? 0;
}

/** Where each seat sits around the felt, seen from yours (a spectator sees from seat 0). */
export function placeOf(seat) {
  const players = page.state.table.rules.players;
  const offset = (seat - (page.state.table.you ?? 0) + players) % players;
  return { 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] }[players][offset];
}
