// @ts-check
// Small helpers shared by the pages: HTML escaping, JSON requests, the move list.
import { palette } from './pieces.js';
import { has, t } from './i18n.js';

/**
 * A game as GET /api/games describes it (docs/api.md).
 * @typedef {Object} GameInfo
 * @property {string} id
 * @property {string} name
 * @property {string} summary
 * @property {string[]} players
 * @property {{letter: string, name: string}[]} pieces
 * @property {{name: string, values: string[], default: string, help?: string, label?: string, valueLabels?: Record<string, string>}[]} settings
 * @property {import('./board/state.js').BoardDesc} board
 * @property {string[]} emblems  the piece that stands for each player
 * @property {{kind: string, owner: number}} icon  the piece that stands for the game
 * @property {number} levels
 * @property {import('./pieces.js').Drawings} [drawings]  how its pieces are drawn
 */

/**
 * A game's state or an explored position as the server sends them (GET /api/games/{id},
 * POST /api/explore; docs/api.md), read by key.
 * @typedef {Record<string, any>} GameState
 */

/**
 * The page's element that `sel` selects, one its HTML has. Its type is left open (`any`): the
 * HTML, not the script, says whether it is an input, a button or a dialog.
 * @param {string} sel
 * @returns {any}
 */
export const $ = (sel) => document.querySelector(sel);

/** Text made safe inside HTML (and its attributes). @param {unknown} s */
export const esc = (s) => String(s).replace(/[&<>"]/g, (c) => (/** @type {Record<string, string>} */ ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }))[c]);

// A JSON request (a POST when there is a body); a refusal becomes an Error with the server's
// words; a server that cannot be reached, one marked `unreachable`.
/**
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>} the answer's JSON
 */
export async function api(path, body) {
  let res;
  try {
    res = await fetch(path, body === undefined ? {} : {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
  } catch {
    throw Object.assign(new Error(t('error-unreachable')), { unreachable: true });
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || t('error-status', { status: res.status }));
  return data;
}

// ---- the games' own words in the page's language ----
// A game's texts in a language other than English come from its folder of the rules
// (crates/rules/src/games/<folder>/<lang>.ftl, in the page's catalogue): `<id>-name`,
// `<id>-summary`, `<id>-player-<name>`, `<id>-piece-<letter>`, `<id>-cell-<name>`,
// `<id>-setting-<name>[-<value>|-help]`, a name in lower case with `-` for what is not a letter
// or digit (as crates/server/src/i18n.rs's game_key). Without one, the server's English.

/** @param {string} id @param {string} what @param {string} [name] */
function gameKey(id, what, name = '') {
  const slug = name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '');
  return slug ? `${id}-${what}-${slug}` : `${id}-${what}`;
}
/** @param {string} key @param {string} fallback */
const orElse = (key, fallback) => (has(key) ? t(key) : fallback);

/**
 * A player's name in the page's language (the server names players in English).
 * @param {string} game @param {string} name
 */
export const playerName = (game, name) => orElse(gameKey(game, 'player', name), name);

/**
 * How a sentence of the page's language takes a player's name, `singular` ("White wins") or
 * `plural` ("the Termides win"): the game's catalogue says it of its own words for the name
 * (`<id>-player-<name>.number`), the server of the English names (`players_number`).
 * @param {string} game @param {string} name  the server's (English) name
 * @param {string} [english]  the server's `players_number`
 */
export const playerNumber = (game, name, english) => orElse(`${gameKey(game, 'player', name)}.number`, english ?? 'singular');

/**
 * A game's description (GET /api/games) in the page's language: its name, summary, players,
 * pieces, marked cells and settings.
 * @param {GameInfo} g
 * @returns {GameInfo}
 */
export function localGame(g) {
  const id = g.id;
  return {
    ...g,
    name: orElse(gameKey(id, 'name'), g.name),
    summary: orElse(gameKey(id, 'summary'), g.summary),
    players: g.players.map((p) => playerName(id, p)),
    pieces: g.pieces.map((p) => ({ ...p, name: orElse(`${id}-piece-${p.letter}`, p.name) })),
    board: { ...g.board, special: (g.board.special || []).map((sp) => (sp.name ? { ...sp, name: orElse(gameKey(id, 'cell', sp.name), sp.name) } : sp)) },
    settings: (g.settings || []).map((s) => ({
      ...s,
      label: orElse(gameKey(id, 'setting', s.name), s.name[0].toUpperCase() + s.name.slice(1)),
      help: s.help && orElse(gameKey(id, 'setting', `${s.name} help`), s.help),
      valueLabels: Object.fromEntries(s.values.map((v) => [v, orElse(gameKey(id, 'setting', `${s.name} ${v}`), v)])),
    })),
  };
}

/**
 * A game's state with its players named in the page's language, and how its sentences take
 * each name (`player_numbers`, see playerNumber).
 * @template {GameState} S
 * @param {S} state
 * @returns {S}
 */
export function localState(state) {
  if (!state || !Array.isArray(state.players) || state.player_numbers) return state;
  return {
    ...state,
    players: state.players.map((/** @type {string} */ p) => playerName(state.game, p)),
    player_numbers: state.players.map((/** @type {string} */ p) => playerNumber(state.game, p, state.players_number)),
  };
}

/**
 * A seat's name and grammatical number as a message's arguments (`player`, `number`), for a
 * state made by localState (or with the server's English names); a seat without a name is
 * "seat 3" (singular).
 * @param {any} state @param {number} seat
 * @returns {{player: string, number: string}}
 */
export const playerArgs = (state, seat) => (state.players[seat] == null
  ? { player: t('seat-n', { n: seat + 1 }), number: 'singular' }
  : { player: state.players[seat], number: state.player_numbers?.[seat] ?? playerNumber(state.game, state.players[seat], state.players_number) });

/**
 * Every seat's grammatical number (as playerArgs), for a board's `playerNumbers`.
 * @param {any} state @returns {string[]}
 */
export const playerNumbers = (state) => state.players.map((/** @type {string} */ _, /** @type {number} */ i) => playerArgs(state, i).number);

// How a game ended, in the page's language: from the outcome's winner and reason, then the
// players out before the end (`eliminated`), as the server's English text says it; that text
// when the catalogue lacks a reason. `state` as localState makes it (or with the server's names).
/** @param {any} state */
export function outcomeText(state) {
  const o = state.outcome;
  /** @type {{seat: number, reason: string}[]} */
  const out = state.eliminated || [];
  if (![o, ...out].every((x) => has(`reason-${x.reason}`))) return o.text;
  /** @param {number} seat */
  const who = (seat) => playerArgs(state, seat);
  const reason = t(`reason-${o.reason}`);
  const main = o.winner == null ? t('outcome-draw', { reason }) : t('outcome-win', { ...who(o.winner), reason });
  if (!out.length) return main;
  const list = out.map((e) => t('outcome-out', { ...who(e.seat), reason: t(`reason-${e.reason}`) }));
  return t('outcome-with-out', { outcome: main, out: list.join('; ') });
}

/**
 * A line of facts of a game's state (`info`: a message of the game's catalogue and its
 * arguments, docs/api.md) in the page's language; `players` the players' names.
 * @typedef {{key: string, args?: Record<string, InfoValue>}} InfoMessage
 * @typedef {number | string | {player: number} | InfoMessage[]} InfoValue
 * @param {InfoMessage} line @param {string[]} players
 * @returns {string}
 */
export function infoText(line, players) {
  /** @type {Record<string, unknown>} */
  const args = {};
  for (const [name, value] of Object.entries(line.args || {})) {
    if (Array.isArray(value)) args[name] = value.map((l) => infoText(l, players)).join(', ');
    else if (typeof value === 'object') args[name] = players[value.player] ?? '';
    else args[name] = value;
  }
  return t(line.key, args);
}

// The largest move number (the rules library's MAX_MOVE_NUMBER): past it a game keeps it.
const MAX_MOVE_NUMBER = 4294967295;

// The number of the first row of a state's move list: the server's `first_move_number` (the
// start position's move number, 1 when its string has none).
/** @param {{first_move_number?: number}} state */
export function firstMoveNumber(state) {
  const n = state.first_move_number;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 ? n : 1;
}

// The rows of a move list (one row per round of the players, numbered from the start
// position's move number), the move after `current` plies marked; then the result. `state` is
// a game's state (history, players, game, start, to_move, outcome). `opts.lineFrom`: the moves
// from this ply on are a line of the user's (marked as such).
/**
 * @param {any} state  a game's state (GET /api/games/{id}, docs/api.md)
 * @param {number | null | undefined} current
 * @param {string} emptyText
 * @param {{lineFrom?: number}} [opts]
 */
export function moveListHtml(state, current, emptyText, opts = {}) {
  const n = state.players.length;
  const hist = state.history || [];
  const first = hist.length ? hist[0].player : (state.to_move ?? 0);
  const number = firstMoveNumber(state);
  const lineFrom = opts.lineFrom ?? Infinity;
  let html = '';
  let row = -1;
  for (let i = 0; i < hist.length; i++) {
    const r = Math.floor((i + first) / n);
    if (r !== row) {
      if (row >= 0) html += '</li>';
      // Move numbers stop at the largest a position string holds, as the records' do.
      html += `<li class="move-row" style="--cols:${n}"><span class="move-no">${Math.min(r + number, MAX_MOVE_NUMBER)}.</span>`;
      if (i === 0) for (let k = 0; k < first; k++) html += '<span class="move empty">…</span>';
      row = r;
    }
    const h = hist[i];
    const cls = (i + 1 === current ? ' current' : '') + (i >= lineFrom ? ' line' : '');
    html += `<button type="button" class="move${cls}" data-ply="${i + 1}" style="--owner:${palette(state.game, h.player).fill}" aria-label="${esc(t('move-label', { n: i + 1, ...playerArgs(state, h.player), move: h.text }))}">${esc(h.text)}</button>`;
  }
  if (row >= 0) html += '</li>';
  if (!hist.length) html = `<li class="empty-moves">${esc(emptyText)}</li>`;
  if (state.outcome) html += `<li class="result">${esc(outcomeText(state))}</li>`;
  return html;
}

/** The words of what a `catch` caught: an Error's message, else the thing itself. @param {unknown} ex */
export const errorText = (ex) => (ex instanceof Error ? ex.message : String(ex));
