// Small sound effects, made on the spot with the Web Audio API (oscillators under short
// envelopes; no audio file). Off by default; one switch, kept in localStorage. Where audio is
// missing or refused (a headless browser, an old one, a page not yet touched) nothing is
// heard and nothing throws.

const KEY = "torampu.sound";

// Each sound is a few notes: [frequency Hz, start s, length s, wave, peak gain].
const SOUNDS = {
  turn: [
    [660, 0, 0.13, "sine", 0.22],
    [990, 0.11, 0.2, "sine", 0.2],
  ],
  play: [[320, 0, 0.07, "triangle", 0.25]],
  // (the player's time running short)
  warn: [
    [880, 0, 0.08, "square", 0.12],
    [880, 0.16, 0.08, "square", 0.12],
  ],
  trick: [
    [523, 0, 0.09, "triangle", 0.18],
    [659, 0.07, 0.09, "triangle", 0.18],
    [784, 0.14, 0.16, "triangle", 0.18],
  ],
  over: [
    [523, 0, 0.16, "sine", 0.2],
    [659, 0.15, 0.16, "sine", 0.2],
    [784, 0.3, 0.16, "sine", 0.2],
    [1047, 0.45, 0.4, "sine", 0.2],
  ],
};

export const SOUND_NAMES = Object.keys(SOUNDS);

let enabled = readSetting();
let ctx = null;
let played = 0;

function readSetting() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

export function soundOn() {
  return enabled;
}

/** Switch the sounds on or off (kept for the next visit). Called from a click, it also wakes
 * the audio output, which browsers only allow after a gesture. */
export function setSound(on) {
  enabled = !!on;
  try {
    localStorage.setItem(KEY, enabled ? "on" : "off");
  } catch {
    /* kept for this page only */
  }
  if (enabled) wake();
}

/** How many sounds were started on this page (for tests and the curious). */
export function soundsPlayed() {
  return played;
}

function audio() {
  if (ctx) return ctx;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  try {
    ctx = new Ctx();
  } catch {
    ctx = null;
  }
  return ctx;
}

function wake() {
  const a = audio();
  if (a && a.state === "suspended") a.resume().catch(() => {});
}

// a page opened with the sound already on may only start its audio after a first gesture
document.addEventListener("pointerdown", () => enabled && wake(), { capture: true });
document.addEventListener("keydown", () => enabled && wake(), { capture: true });

/** Play one of SOUND_NAMES if the sound is on; true when it was started. Never throws. */
export function playSound(name) {
  if (!enabled || !Object.hasOwn(SOUNDS, name)) return false;
  try {
    const a = audio();
    if (!a) return false;
    if (a.state === "suspended") a.resume().catch(() => {});
    const now = a.currentTime + 0.01;
    for (const [freq, start, length, wave, peak] of SOUNDS[name]) note(a, now + start, freq, length, wave, peak);
    played += 1;
    return true;
  } catch {
    return false;
  }
}

function note(a, at, freq, length, wave, peak) {
  const osc = a.createOscillator();
  const gain = a.createGain();
  osc.type = wave;
  osc.frequency.setValueAtTime(freq, at);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(peak, at + 0.012);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(a.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}
