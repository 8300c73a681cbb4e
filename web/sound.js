// @ts-check
// The game page's sounds, made with WebAudio (no files): a move, a capture, a check, the end of
// the game; none when the switch says so (remembered in this browser).

const KEY = 'myrmidon:sound';

/** @typedef {'move' | 'capture' | 'check' | 'end'} Sound */

/** Each sound's notes: [frequency (Hz), start (s), length (s)]. @type {Record<Sound, [number, number, number][]>} */
const NOTES = {
  move: [[540, 0, 0.07]],
  capture: [[330, 0, 0.08], [220, 0.05, 0.12]],
  check: [[660, 0, 0.1], [880, 0.11, 0.14]],
  end: [[523, 0, 0.16], [659, 0.14, 0.16], [784, 0.28, 0.32]],
};

/** The sounds played, in order (the browser tests read them). @type {Sound[]} */
export const played = [];
/** @type {any} */ (window).myrmidonSounds = played;

/** @type {AudioContext | null} */
let audio = null;

/** Whether the sounds are off. */
export const muted = () => localStorage.getItem(KEY) === 'off';

/** Sounds on or off, remembered. @param {boolean} off */
export function setMuted(off) {
  localStorage.setItem(KEY, off ? 'off' : 'on');
}

/** Plays sound `name`, unless the sounds are off. @param {Sound} name */
export function play(name) {
  if (muted()) return;
  played.push(name);
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
    const t0 = audio.currentTime + 0.01;
    for (const [freq, at, len] of NOTES[name]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'triangle';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + at);
      gain.gain.exponentialRampToValueAtTime(0.25, t0 + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
      osc.connect(gain).connect(audio.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + len + 0.02);
    }
  } catch { /* no sound in this browser: the game goes on */ }
}
