// @ts-check
// A player's profile (/@/<name>): ratings per game and speed with their history drawn as a
// graph (SVG), wins, draws and losses per game, and the games with their results
// (GET /api/users/<name>, docs/api.md); each rating links to its game's rating list.
import { $, api, esc, localGame } from './common.js';
import { num, t } from './i18n.js';

const name = decodeURIComponent(location.pathname.replace(/^\/@\//, ''));

/** The games' names in the page's language, by id. @type {Record<string, string>} */
let names = {};

/**
 * A profile as GET /api/users/<name> gives it (docs/api.md).
 * @typedef {{game: string, speed: string, rating: number, provisional: boolean, games: number, history: [number, number][]}} Rating
 * @typedef {{name: string, ratings: Rating[], results: Record<string, {win: number, draw: number, loss: number}>, games: {id: string, game: string, rated: boolean, result?: string}[]}} Profile
 */

/** @param {string} id */
const gameName = (id) => names[id] || id;

/**
 * A rating's history as an SVG line: time across, rating up.
 * @param {[number, number][]} points
 */
function graph(points) {
  if (points.length === 0) return '';
  const w = 320, h = 80, pad = 4;
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.min(...ys) - 10, Math.max(...ys) + 10];
  const x = (/** @type {number} */ v) => pad + (x1 === x0 ? (w - 2 * pad) / 2 : ((v - x0) / (x1 - x0)) * (w - 2 * pad));
  const y = (/** @type {number} */ v) => h - pad - ((v - y0) / (y1 - y0)) * (h - 2 * pad);
  const line = points.map((p) => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(' ');
  const dots = points.map((p) => `<circle cx="${x(p[0]).toFixed(1)}" cy="${y(p[1]).toFixed(1)}" r="2.5"/>`).join('');
  return `<svg class="rating-graph" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${esc(t('profile-graph'))}"><polyline points="${line}" fill="none" stroke="currentColor" stroke-width="2"/>${dots}</svg>`;
}

async function show() {
  try {
    const games = await api('/api/games');
    names = Object.fromEntries(games.map((/** @type {import('./common.js').GameInfo} */ g) => [g.id, localGame(g).name]));
    /** @type {Profile} */
    const p = await api(`/api/users/${encodeURIComponent(name)}`);
    $('#profile-name').textContent = p.name;
    // every game of the player, as one file of game records
    $('#export').setAttribute('href', `/api/users/${encodeURIComponent(p.name)}/games`);
    document.title = `${p.name} · myrmidon`;
    $('#ratings').innerHTML = p.ratings.length === 0
      ? `<p class="muted">${esc(t('profile-no-ratings'))}</p>`
      : p.ratings.map((r) => `<div class="rating" data-game="${esc(r.game)}" data-speed="${esc(r.speed)}">
          <p><strong>${esc(gameName(r.game))}</strong> · ${esc(t(`speed-${r.speed}`))}: <span class="rating-value">${num(r.rating)}${r.provisional ? '?' : ''}</span>
          <span class="muted">(${esc(t('profile-rated-games', { games: r.games }))})</span>
          · <a class="rating-list-link" href="/ratings/${encodeURIComponent(r.game)}">${esc(t('profile-rating-list'))}</a></p>${graph(r.history)}</div>`).join('');
    const results = Object.entries(p.results);
    $('#results').innerHTML = results.length === 0
      ? `<p class="muted">${esc(t('profile-no-games'))}</p>`
      : `<ul>${results.map(([g, r]) => `<li data-game="${esc(g)}">${esc(gameName(g))}: ${esc(t('profile-wdl', { win: r.win, draw: r.draw, loss: r.loss }))}</li>`).join('')}</ul>`;
    $('#games').innerHTML = p.games.map((g) => `<li><a href="/game/${esc(g.id)}">${esc(gameName(g.game))}</a>
        ${esc(t(g.rated ? 'profile-rated' : 'profile-casual'))} · ${esc(t(`profile-result-${g.result || 'playing'}`))}</li>`).join('');
  } catch (err) {
    $('#profile-error').textContent = err instanceof Error ? err.message : String(err);
    $('#ratings').textContent = '';
  }
}

show();
