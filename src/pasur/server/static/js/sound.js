// Short tones made here with WebAudio, once the person has touched the page (browsers allow a
// page to sound only after a gesture), and a phone's vibration for a Sur.

import { SETTINGS } from "./settings.js";

let audio = null;
addEventListener("pointerdown", wakeAudio, { once: true });
addEventListener("keydown", wakeAudio, { once: true });

function wakeAudio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (Context && !audio) audio = new Context();
}

/** Whether the page may sound now (a gesture has woken it). */
export function audioAwake() {
  return audio !== null;
}

const TONES = {
  play: [[440, 0.05]],
  capture: [[523, 0.06], [659, 0.08]],
  sur: [[523, 0.08], [659, 0.08], [784, 0.08], [1047, 0.16]],
  turn: [[880, 0.07]],
  sweep: [[392, 0.07], [523, 0.1]],
  win: [[523, 0.1], [659, 0.1], [784, 0.1], [1047, 0.12], [784, 0.08], [1047, 0.3]],
};

/** Play one of TONES (its notes one after another), where sound is on and allowed. */
export function sound(kind) {
  if (!SETTINGS.sound || !audio) return;
  let at = audio.currentTime;
  for (const [frequency, length] of TONES[kind]) {
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = frequency;
    volume.gain.setValueAtTime(0.12, at);
    volume.gain.exponentialRampToValueAtTime(0.001, at + length);
    tone.connect(volume).connect(audio.destination);
    tone.start(at);
    tone.stop(at + length);
    at += length;
  }
  if ((kind === "sur" || kind === "win") && navigator.vibrate) navigator.vibrate(kind === "win" ? [60, 60, 120] : 60);  // a phone's touch
}
