// @ts-check
// Games against the computer and on one screen, played in this browser: when the server cannot
// be reached (the connection dropped, or the app opened with no network), the rules and the
// computer's moves come from the engine's module in a Web Worker (engine-worker.js), and the
// game goes on here. It is kept in localStorage (`myrmidon:local:<id>`) and, once over, saved
// to the server as an imported game record (POST /api/games with `record`, docs/api.md) as
// soon as the server answers. Games with people on other devices are never played here: the
// server referees them.

import { localEngineAvailable, WorkerEngine } from './engine.js';

/** How long the computer thinks for a move here (its level limits it further). */
const THINK_MS = 1000;
const PREFIX = 'myrmidon:local:';

/**
 * A game played in this browser, as kept in localStorage.
 * @typedef {Object} LocalRecord
 * @property {string} id  the page's game id: the server's id (a game that went on here), or `local-…`
 * @property {string} game  the game's id
 * @property {string[]} seats  `human` or `computer:<level>` for each seat
 * @property {string | null} start  the position string the game started from (null: from `settings`)
 * @property {Record<string, string>} [settings]  the settings of a game started here
 * @property {string[]} moves
 * @property {number[]} resigned  the seats that resigned, in order
 * @property {string | null} record  the game record, once the game is over
 * @property {string} [key]  a secret of this game's, sent when it is saved: the server saves a
 *   game once per key (two tabs saving it at once, an answer lost)
 * @property {string | null} saved  the server's id of the saved game
 * @property {string} [refused]  why the server refused to save it
 * @property {number} at  when it was last changed (ms since 1970)
 */

/** `n` random bytes, in hex. @param {number} n */
const randomHex = (n) => [...crypto.getRandomValues(new Uint8Array(n))].map((b) => b.toString(16).padStart(2, '0')).join('');

/** A new id for a game started here (the server's ids have no `-`). */
export const newLocalId = () => `local-${randomHex(8)}`;

/** @param {string} id @returns {LocalRecord | null} */
export function loadLocal(id) {
  try {
    const g = JSON.parse(localStorage.getItem(PREFIX + id) || 'null');
    return g && typeof g === 'object' && Array.isArray(g.moves) && Array.isArray(g.seats) ? g : null;
  } catch {
    return null;
  }
}

/** @param {LocalRecord} g */
function store(g) {
  g.at = Date.now();
  localStorage.setItem(PREFIX + g.id, JSON.stringify(g));
}

/** Every game kept here. @returns {LocalRecord[]} */
export function localGames() {
  /** @type {LocalRecord[]} */
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key?.startsWith(PREFIX)) continue;
    const g = loadLocal(key.slice(PREFIX.length));
    if (g) out.push(g);
  }
  return out;
}

/**
 * Whether a game can go on in this browser: no seat is a person elsewhere or open, and this
 * browser holds every person's seat.
 * @param {Record<string, any>} state  a game's state (docs/api.md)
 * @param {(seat: number) => string | null} tokenOf
 */
export function playableHere(state, tokenOf) {
  return state.seats.every((/** @type {string} */ k, /** @type {number} */ i) => (k === 'human' ? !!tokenOf(i) : /^computer:\d$/.test(k)));
}

/** Whether this browser can run the rules itself. */
export const canPlayHere = () => localEngineAvailable();

/** The module's requests, answered by a worker of its own. */
class Rules {
  constructor() {
    let n = 0;
    this.next = () => ++n;
    /** @type {Map<number, {resolve: (v: any) => void, reject: (e: Error) => void}>} */
    this.waiting = new Map();
    /** @type {string | null} */
    this.fatal = null;
    this.engine = new WorkerEngine((m) => {
      const w = this.waiting.get(m.id);
      if (!w || (m.type !== 'result' && m.type !== 'error')) return;
      this.waiting.delete(m.id);
      if (m.type === 'result') w.resolve(m.result);
      else w.reject(new Error(m.error));
    }, (error) => {
      this.fatal = error;
      for (const w of this.waiting.values()) w.reject(new Error(error));
      this.waiting.clear();
    });
  }

  /** @param {Record<string, unknown>} request @returns {Promise<any>} */
  call(request) {
    if (this.fatal) return Promise.reject(new Error(this.fatal));
    const id = `local-${this.next()}`;
    return new Promise((resolve, reject) => {
      this.waiting.set(/** @type {any} */ (id), { resolve, reject });
      this.engine.send({ op: 'call', id, request });
    });
  }
}

/** @type {Rules | null} */
let rules = null;
const theRules = () => (rules ??= new Rules());

/** The worker and its module made ready now, so that a game can go on here even if the
 * network goes before the game needs them. */
export function prepareHere() {
  theRules();
}

/** Whether the module here failed (it cannot load): then the server knows the rules. */
export const hereFailed = () => !!rules?.fatal;

/**
 * What `POST /api/explore` answers (a game, a position or settings, maybe set up by hand and
 * another seat to move, then moves: the board, the moves with their cells, the outcome, the
 * pieces that may be put on the board), made here by the module; its refusal as an Error.
 * @param {{game: string, position?: string | null, settings?: Record<string, string>, clear?: boolean, put?: {cell: string, piece: {owner: number, kind: string} | null}[], to_move?: number, moves?: string[]}} body
 */
export async function viewHere(body) {
  return theRules().call({
    op: 'explore',
    game: body.game,
    position: body.position ?? undefined,
    settings: body.settings || {},
    clear: !!body.clear,
    put: body.put || [],
    to_move: body.to_move,
    moves: body.moves || [],
  });
}

/**
 * A game going on in this browser. `onState(state)` is called with each new state, shaped as
 * the server's game states (docs/api.md: the board, the moves with their cells, the outcome),
 * with `local: true`.
 */
export class LocalGame {
  /**
   * @param {LocalRecord} g
   * @param {(state: any) => void} onState
   */
  constructor(g, onState) {
    this.g = g;
    this.onState = onState;
    /** @type {number | null} */
    this.handle = null;
    this.thinking = false;
    /** @type {any} */
    this.view = null;
  }

  /**
   * A game from a state of the server's (or a new one: `moves` empty), kept from now on here.
   * @param {string} id
   * @param {Record<string, any>} state  a game's state (docs/api.md): its game, seats, start, moves
   */
  static from(id, state) {
    const g = loadLocal(id);
    if (g && g.game === state.game && g.start === state.start && g.moves.length >= state.moves.length
      && state.moves.every((/** @type {string} */ m, /** @type {number} */ i) => g.moves[i] === m)) return g;
    /** @type {LocalRecord} */
    const made = { id, game: state.game, seats: state.seats.slice(), start: state.start, moves: state.moves.slice(), resigned: [], record: null, key: randomHex(16), saved: null, at: Date.now() };
    store(made);
    return made;
  }

  /** Opens the game in the worker and shows it; the computer moves if it is its turn. */
  async open() {
    const from = this.g.start != null ? { position: this.g.start } : { settings: this.g.settings || {} };
    const st = await theRules().call({ op: 'new', game: this.g.game, ...from, moves: this.g.moves });
    this.handle = st.handle;
    this.g.start = st.start;
    for (const seat of this.g.resigned) await theRules().call({ op: 'resign', handle: this.handle, seat });
    await this.show();
    this.computer();
  }

  /** The state of the game now, as the page shows it. */
  async show() {
    this.view = await theRules().call({ op: 'view', handle: this.handle });
    this.g.moves = this.view.moves;
    if (this.view.outcome && !this.g.record) {
      const date = new Date().toISOString().slice(0, 10).replaceAll('-', '.');
      const made = await theRules().call({ op: 'record', handle: this.handle, date, event: 'myrmidon game played offline' });
      this.g.record = made.record;
    }
    store(this.g);
    this.onState(this.state());
  }

  state() {
    const v = this.view;
    return {
      ...v, id: this.g.id, seats: this.g.seats, settings: {}, thinking: this.thinking,
      version: v.moves.length + this.g.resigned.length, local: true, saved: this.g.saved,
    };
  }

  /** The level of the computer to move, if it is the computer's turn. */
  computerLevel() {
    const v = this.view;
    if (!v || v.outcome || v.to_move == null) return null;
    const m = /^computer:(\d)$/.exec(this.g.seats[v.to_move] || '');
    return m ? +m[1] : null;
  }

  async computer() {
    const level = this.computerLevel();
    if (level == null || this.thinking) return;
    this.thinking = true;
    this.onState(this.state());
    try {
      const found = await theRules().call({ op: 'search', handle: this.handle, movetime: THINK_MS, level });
      if (found.best) await theRules().call({ op: 'play', handle: this.handle, move: found.best });
    } finally {
      this.thinking = false;
    }
    await this.show();
    this.computer();
  }

  /** A person's move; throws the rules' refusal. @param {string} text */
  async play(text) {
    if (this.thinking) throw new Error('the computer is thinking');
    await theRules().call({ op: 'play', handle: this.handle, move: text });
    await this.show();
    this.computer();
  }

  /** The last move of a person taken back, with the computer's after it. */
  async takeback() {
    if (this.thinking || !this.view) return;
    const history = this.view.history;
    let n = history.length;
    while (n > 0 && this.g.seats[history[n - 1].player] !== 'human') n--;
    if (n === 0) return;
    for (let i = n - 1; i < history.length; i++) await theRules().call({ op: 'undo', handle: this.handle });
    await this.show();
  }

  /** @param {number} seat */
  async resign(seat) {
    await theRules().call({ op: 'resign', handle: this.handle, seat });
    this.g.resigned.push(seat);
    await this.show();
    this.computer();
  }

  /** The state after the first `ply` moves. @param {number} ply */
  async at(ply) {
    const st = await theRules().call({ op: 'new', game: this.g.game, position: this.g.start, moves: this.g.moves.slice(0, ply) });
    try {
      const v = await theRules().call({ op: 'view', handle: st.handle });
      return { ...v, id: this.g.id, seats: this.g.seats, settings: {}, local: true };
    } finally {
      await theRules().call({ op: 'free', handle: st.handle });
    }
  }
}

/**
 * Saves the finished games played here that the server does not have yet (each once), as
 * imported games; their seats' tokens are kept as for any game. Resolves to the games saved.
 * @returns {Promise<LocalRecord[]>}
 */
export function saveFinished() {
  // (one at a time in a page; two pages at once are answered with the same game: its key)
  inFlight ??= saveAll().finally(() => { inFlight = null; });
  return inFlight;
}
/** @type {Promise<LocalRecord[]> | null} */
let inFlight = null;

async function saveAll() {
  /** @type {LocalRecord[]} */
  const saved = [];
  for (const g of localGames()) {
    if (!g.record || g.saved || g.refused) continue;
    if (!g.key) { g.key = randomHex(16); store(g); } // (a game kept before games had keys)
    let res;
    try {
      res = await fetch('/api/games', {
        method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ record: g.record, seats: g.seats, key: g.key }),
      });
    } catch {
      return saved; // (the server cannot be reached: later)
    }
    const data = await res.json().catch(() => ({}));
    const now = loadLocal(g.id);
    if (!now || now.saved) continue;
    if (res.ok) {
      now.saved = data.id;
      localStorage.setItem(`myrmidon:token:${data.id}`, JSON.stringify(data.tokens || []));
      saved.push(now);
    } else if (res.status < 500 && res.status !== 429) {
      now.refused = data.error || String(res.status); // (asking again would change nothing)
    }
    store(now);
  }
  return saved;
}

/**
 * A new game against the computer or on one screen, started here (the server cannot be
 * reached); returns its id, for `/game/<id>`.
 * @param {{game: string, seats: string[], settings?: Record<string, string>, position?: string | null}} spec
 */
export function startHere(spec) {
  /** @type {LocalRecord} */
  const g = {
    id: newLocalId(), game: spec.game, seats: spec.seats.slice(), start: spec.position || null,
    settings: spec.position ? {} : spec.settings || {}, moves: [], resigned: [], record: null, key: randomHex(16), saved: null, at: Date.now(),
  };
  store(g);
  return g.id;
}
