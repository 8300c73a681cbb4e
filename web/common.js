// Small helpers shared by the pages: HTML escaping, JSON requests, the move list.
import { palette } from './pieces.js';

export const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

// A JSON request (a POST when there is a body); a refusal becomes an Error with the server's words.
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

// The rows of a move list (one row per round of the players), the move after `current` plies
// marked; then the result. `state` is a game's state (history, players, game, to_move, outcome).
export function moveListHtml(state, current, emptyText) {
  const n = state.players.length;
  const hist = state.history || [];
  const first = hist.length ? hist[0].player : (state.to_move ?? 0);
  let html = '';
  let row = -1;
  for (let i = 0; i < hist.length; i++) {
    const r = Math.floor((i + first) / n);
    if (r !== row) {
      if (row >= 0) html += '</li>';
      html += `<li class="move-row" style="--cols:${n}"><span class="move-no">${r + 1}.</span>`;
      if (i === 0) for (let k = 0; k < first; k++) html += '<span class="move empty">…</span>';
      row = r;
    }
    const h = hist[i];
    const cls = i + 1 === current ? ' current' : '';
    html += `<button type="button" class="move${cls}" data-ply="${i + 1}" style="--owner:${palette(state.game, h.player).fill}" aria-label="move ${i + 1}, ${esc(state.players[h.player] || '')}: ${esc(h.text)}">${esc(h.text)}</button>`;
  }
  if (row >= 0) html += '</li>';
  if (!hist.length) html = `<li class="empty-moves">${esc(emptyText)}</li>`;
  if (state.outcome) html += `<li class="result">${esc(state.outcome.text)}</li>`;
  return html;
}
