// The cards, drawn here as SVG: indices in two corners, the pips laid out as on a printed deck,
// and court cards as a double-headed figure (crown, tiara or cap) in a framed panel.

import { SETTINGS } from "./settings.js";
import { cardLabel } from "./words.js";

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

/** Each suit as a path in a 100×100 box. */
const SUIT_PATHS = {
  H: "M50 92C22 68 3 51 3 30 3 14 15 4 29 4c9 0 17 5 21 13 4-8 12-13 21-13 14 0 26 10 26 26 0 21-19 38-47 62z",
  D: "M50 3 90 50 50 97 10 50z",
  S: "M50 3C40 20 7 39 7 62c0 15 11 24 23 24 8 0 14-4 17-10-1 10-5 17-13 22h32c-8-5-12-12-13-22 3 6 9 10 17 10 12 0 23-9 23-24C93 39 60 20 50 3z",
  C: "M50 6a21 21 0 0 0-17 33 21 21 0 1 0 13 33c-1 11-5 19-12 25h32c-7-6-11-14-12-25a21 21 0 1 0 13-33A21 21 0 0 0 50 6z",
};

const INK = { two: { C: "#1d1d1f", D: "#c8102e", H: "#c8102e", S: "#1d1d1f" },
  four: { C: "#16743a", D: "#1f5fbf", H: "#c8102e", S: "#1d1d1f" } };

/** The colour a suit is printed in, in the deck this person chose. */
export function suitInk(suit) {
  return INK[SETTINGS.fourColour ? "four" : "two"][suit];
}

function pip(suit, x, y, size, colour, flipped = false) {
  const turn = flipped ? ` rotate(180 50 50)` : "";
  return `<path d="${SUIT_PATHS[suit]}" fill="${colour}" transform="translate(${x - size / 2} ${y - size / 2}) scale(${size / 100})${turn}"/>`;
}

// Where the pips of 2 to 10 lie, in the 200×280 card (columns 64, 100, 136).
const L = 64, C = 100, R = 136;
const PIPS = {
  2: [[C, 62], [C, 218]],
  3: [[C, 62], [C, 140], [C, 218]],
  4: [[L, 62], [R, 62], [L, 218], [R, 218]],
  5: [[L, 62], [R, 62], [C, 140], [L, 218], [R, 218]],
  6: [[L, 62], [R, 62], [L, 140], [R, 140], [L, 218], [R, 218]],
  7: [[L, 62], [R, 62], [C, 101], [L, 140], [R, 140], [L, 218], [R, 218]],
  8: [[L, 62], [R, 62], [C, 101], [L, 140], [R, 140], [C, 179], [L, 218], [R, 218]],
  9: [[L, 62], [R, 62], [L, 114], [R, 114], [C, 140], [L, 166], [R, 166], [L, 218], [R, 218]],
  10: [[L, 62], [R, 62], [C, 88], [L, 114], [R, 114], [L, 166], [R, 166], [C, 192], [L, 218], [R, 218]],
};

// The court cards' robes: a colour for each suit, with a gold trim, as printed decks vary them.
const ROBES = { H: ["#c8102e", "#1f4fa0"], D: ["#e0a526", "#c8102e"], C: ["#1f4fa0", "#c8102e"], S: ["#2b2b6e", "#e0a526"] };

/** The upper half of a court figure; the lower half is the same turned about the centre. */
function courtHalf(rank, suit, colour) {
  const [robe, trim] = ROBES[suit];
  const headwear = {
    K: `<path d="M82 66 84 42 93 54 100 38 107 54 116 42 118 66z" fill="#e0a526" stroke="#5a3d00" stroke-width="1.5"/>
        <circle cx="100" cy="45" r="3" fill="#c8102e"/>
        <path d="M86 92q14 20 28 0q-2 14-14 16q-12-2-14-16z" fill="#f1f1f1" stroke="#555" stroke-width="1"/>`,
    Q: `<path d="M84 66q16-22 32 0" fill="none" stroke="#e0a526" stroke-width="5"/>
        <circle cx="100" cy="50" r="4" fill="#e0a526" stroke="#5a3d00"/>
        <path d="M83 70q-8 26 2 40M117 70q8 26-2 40" fill="none" stroke="#7a4a1e" stroke-width="6" stroke-linecap="round"/>`,
    J: `<path d="M80 68q2-18 20-20q18 2 20 20z" fill="${trim}" stroke="#222" stroke-width="1.5"/>
        <path d="M118 56q16-14 22-6" fill="none" stroke="#e0a526" stroke-width="3"/>`,
  }[rank];
  const held = {
    K: `<path d="M140 136 140 70" stroke="#555" stroke-width="4"/><path d="M133 78h14" stroke="#e0a526" stroke-width="4"/>`,
    Q: `<circle cx="138" cy="96" r="7" fill="#c8102e" stroke="#5a3d00"/><path d="M138 103v33" stroke="#16743a" stroke-width="3"/>`,
    J: `<path d="M62 136 62 64" stroke="#6b4a2a" stroke-width="4"/><path d="M56 70l6-14 6 14z" fill="#9a9a9a" stroke="#444"/>`,
  }[rank];
  return `<path d="M58 140q2-30 20-38q22-8 44 0q18 8 20 38z" fill="${robe}" stroke="#222" stroke-width="1.5"/>
    <path d="M80 104q20 16 40 0l4 10q-24 18-48 0z" fill="${trim}" stroke="#222" stroke-width="1"/>
    <path d="M100 112v28" stroke="#e0a526" stroke-width="4"/>
    <circle cx="100" cy="80" r="17" fill="#f6d7b0" stroke="#222" stroke-width="1.5"/>
    <circle cx="94" cy="78" r="1.8" fill="#222"/><circle cx="106" cy="78" r="1.8" fill="#222"/>
    <path d="M95 88q5 3 10 0" fill="none" stroke="#8a3b2b" stroke-width="1.5"/>
    ${headwear}${held}${pip(suit, 68, 50, 22, colour)}`;
}

function centre(rank, suit, colour) {
  if (rank === "A") return pip(suit, 100, 140, suit === "S" ? 110 : 90, colour);
  if (rank in PIPS) {
    const size = Number(rank) >= 7 ? 34 : 40;
    return PIPS[rank].map(([x, y]) => pip(suit, x, y, size, colour, y > 140)).join("");
  }
  const frame = `<rect x="50" y="26" width="100" height="228" rx="6" fill="#fff6df" stroke="${colour}" stroke-width="2"/>`;
  const half = courtHalf(rank, suit, colour);
  return `${frame}${half}<g transform="rotate(180 100 140)">${half}</g>
    <path d="M50 140h100" stroke="${colour}" stroke-width="1.5"/>`;
}

/** One card's face. */
export function cardSvg(card) {
  const rank = card.slice(0, -1);
  const suit = card.slice(-1);
  const colour = suitInk(suit);
  const index = `<text x="25" y="46" font-size="${rank === "10" ? 36 : 44}" font-weight="700" text-anchor="middle"
      fill="${colour}" font-family="system-ui, sans-serif" letter-spacing="${rank === "10" ? -3 : 0}">${rank}</text>
    ${pip(suit, 25, 72, 30, colour)}`;
  return `<svg viewBox="0 0 200 280" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${cardLabel(card)}">
    <rect x="2" y="2" width="196" height="276" rx="16" fill="#fffdf8" stroke="#a8a8a8" stroke-width="2"/>
    ${centre(rank, suit, colour)}${index}<g transform="rotate(180 100 140)">${index}</g></svg>`;
}

/** The back every card shares: a lattice in gold on deep red (the lattice is index.html's #lattice). */
export function backSvg() {
  return `<svg viewBox="0 0 200 280" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">
    <rect x="2" y="2" width="196" height="276" rx="16" fill="#7a1f3d" stroke="#f4efe6" stroke-width="6"/>
    <rect x="16" y="16" width="168" height="248" rx="8" fill="url(#lattice)" stroke="#e0a526" stroke-width="3"/>
    <path d="M100 70 140 140 100 210 60 140z" fill="#7a1f3d" stroke="#e0a526" stroke-width="4"/></svg>`;
}

export function cardButton(card, classes = []) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = ["card", ...classes].join(" ");
  button.dataset.card = card;
  button.innerHTML = cardSvg(card);
  return button;
}

/** The hand in the order the person chose: as dealt, by suit (then rank) or by rank (then suit). */
export function ordered(hand) {
  const rank = (card) => RANKS.indexOf(card.slice(0, -1));
  const suit = (card) => "CDHS".indexOf(card.slice(-1));
  if (SETTINGS.order === "suit") return [...hand].sort((a, b) => suit(a) - suit(b) || rank(a) - rank(b));
  if (SETTINGS.order === "rank") return [...hand].sort((a, b) => rank(a) - rank(b) || suit(a) - suit(b));
  return hand;
}
