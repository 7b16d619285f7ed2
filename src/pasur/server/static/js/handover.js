// Pass and play on one device: when the turn passes to another person at the same screen, their
// hand stays hidden behind "Pass the device to …" until they tap it, so that no one sees
// another's cards.

import { page, seatName } from "./state.js";
import { t } from "./words.js";

/** Whether the hand must stay hidden until the person to play takes the device. */
export function handoverPending() {
  const table = page.state.table;
  const people = table.seats.filter((place) => !place.bot).length;
  return Boolean(table.offline) && people > 1 && table.status === "playing" && table.you !== page.handedTo;
}

/** The button that stands in for the hidden hand; a tap shows it. */
export function handoverButton(redraw) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "handover";
  button.textContent = t("pass_device", { name: seatName(page.state.table.you) });
  button.addEventListener("click", () => { page.handedTo = page.state.table.you; redraw(); });
  return button;
}
