// What a person chose for this browser: sound, hand order, the deck's colours, card size, theme,
// how fast the cards move, and whether a card is played only on a second tap.

/** Each setting, its default, and (for a choice) the values it may take. */
const CHOICES = {
  order: ["dealt", "suit", "rank"],
  theme: ["system", "light", "dark"],
  motion: ["normal", "fast", "off"],
};
export const SETTINGS = {
  sound: true, order: "dealt", fourColour: false, large: false, theme: "system", motion: "normal", confirm: false,
};

try {  // what this browser kept: only the known settings, of their own types and values; anything else is ignored
  const kept = JSON.parse(localStorage.getItem("pasur-settings") || "{}");
  for (const [name, value] of Object.entries(kept || {})) {
    if (!Object.hasOwn(SETTINGS, name) || typeof value !== typeof SETTINGS[name]) continue;
    if (CHOICES[name] && !CHOICES[name].includes(value)) continue;
    SETTINGS[name] = value;
  }
} catch { /* a malformed value: the defaults */ }

const darkSystem = matchMedia("(prefers-color-scheme: dark)");

/** Put the settings on the page: the theme (the system's unless chosen) and the card size. */
export function applySettings() {
  const dark = SETTINGS.theme === "dark" || (SETTINGS.theme === "system" && darkSystem.matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
  document.body.classList.toggle("large-cards", SETTINGS.large);
  document.body.classList.toggle("motion-off", SETTINGS.motion === "off");
}
darkSystem.addEventListener("change", applySettings);

/** Change one setting from the settings form (a value it may not take is ignored) and keep it. */
export function changeSetting(name, value) {
  if (!Object.hasOwn(SETTINGS, name) || typeof value !== typeof SETTINGS[name]) return;
  if (CHOICES[name] && !CHOICES[name].includes(value)) return;
  SETTINGS[name] = value;
  localStorage.setItem("pasur-settings", JSON.stringify(SETTINGS));
  applySettings();
}

/** How long a motion of ``ms`` takes under the person's choice and the system's reduced motion. */
export function motionTime(ms) {
  if (SETTINGS.motion === "off" || matchMedia("(prefers-reduced-motion: reduce)").matches) return 0;
  return SETTINGS.motion === "fast" ? ms / 2.5 : ms;
}
