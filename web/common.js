// @ts-check
// Small helpers shared by the pages: HTML escaping, JSON requests, the move list.
import { palette } from './pieces.js';

/**
 * A game as GET /api/games describes it (docs/api.md).
 * @typedef {Object} GameInfo
 * @property {string} id
 * @property {string} name
 * @property {string} summary
 * @property {string[]} players
 * @property {{letter: string, name: string}[]} pieces
 * @property {{name: string, values: string[], default: string, help?: string}[]} settings
 * @property {import('./board/state.js').BoardDesc} board
 * @property {string[]} emblems  the piece that stands for each player
 * @property {{kind: string, owner: number}} icon  the piece that stands for the game
 * @property {number} levels
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

// A JSON request (a POST when there is a body); a refusal becomes an Error with the server's words.
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
    throw new Error('the server cannot be reached (is it running?)');
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || `the server answered ${res.status}`);
  return data;
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
    html += `<button type="button" class="move${cls}" data-ply="${i + 1}" style="--owner:${palette(state.game, h.player).fill}" aria-label="move ${i + 1}, ${esc(state.players[h.player] || '')}: ${esc(h.text)}">${esc(h.text)}</button>`;
  }
  if (row >= 0) html += '</li>';
  if (!hist.length) html = `<li class="empty-moves">${esc(emptyText)}</li>`;
  if (state.outcome) html += `<li class="result">${esc(state.outcome.text)}</li>`;
  return html;
}
