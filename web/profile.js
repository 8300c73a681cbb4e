// @ts-check
// A player's profile (/@/<name>): ratings per game and speed with their history drawn as a
// graph (SVG), wins, draws and losses per game, and the games with their results
// (GET /api/users/<name>, docs/api.md); each rating links to its game's rating list.
import { $, api, esc, localGame } from './common.js';
import { lang, num, t } from './i18n.js';

const name = decodeURIComponent(location.pathname.replace(/^\/@\//, ''));

/** The games' names in the page's language, by id. @type {Record<string, string>} */
let names = {};

/**
 * A profile as GET /api/users/<name> gives it (docs/api.md).
 * @typedef {{game: string, speed: string, rating: number, provisional: boolean, games: number, history: [number, number][]}} Rating
 * @typedef {{seat: number, name: string | null, level: number | null}} Opponent
 * @typedef {{id: string, game: string, rated: boolean, result?: string, created_ms: number, opponents: Opponent[]}} PlayedGame
 * @typedef {{name: string, ratings: Rating[], results: Record<string, {win: number, draw: number, loss: number}>, games: PlayedGame[]}} Profile
 */

/** @param {string} id */
const gameName = (id) => names[id] || id;

/**
 * A rating's history as an SVG line: time across, rating up, the highest and lowest ratings
 * written at the left on a faint line each. One rated game draws a level line to its dot.
 * @param {[number, number][]} points
 */
function graph(points) {
  if (points.length === 0) return '';
  const w = 360, h = 96, left = 48, pad = 8;
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [lo, hi] = [Math.min(...ys), Math.max(...ys)];
  // a scale at least 20 points high, centred on a flat history
  const span = Math.max(hi - lo, 20);
  const [y0, y1] = [(lo + hi - span) / 2, (lo + hi + span) / 2];
  const x = (/** @type {number} */ v) => (x1 === x0 ? w - pad : left + ((v - x0) / (x1 - x0)) * (w - left - pad));
  const y = (/** @type {number} */ v) => h - pad - ((v - y0) / (y1 - y0)) * (h - 2 * pad);
  const at = (/** @type {[number, number]} */ p) => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`;
  const line = (points.length === 1 ? [`${left},${y(ys[0]).toFixed(1)}`] : []).concat(points.map(at)).join(' ');
  const dots = points.map((p) => `<circle cx="${x(p[0]).toFixed(1)}" cy="${y(p[1]).toFixed(1)}" r="3"/>`).join('');
  const levels = (hi === lo ? [hi] : [hi, lo]).map((v) => `<line class="rating-level" x1="${left}" x2="${w - pad}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"/>`
    + `<text x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${esc(num(Math.round(v)))}</text>`).join('');
  return `<svg class="rating-graph" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${esc(t('profile-graph'))}">${levels}<polyline points="${line}" fill="none" stroke="currentColor" stroke-width="2"/>${dots}</svg>`;
}

/**
 * Who sat in another seat: an account (linked to its profile), the computer's level, or a
 * person without an account.
 * @param {Opponent} o
 */
const opponentHtml = (o) => (o.name != null
  ? `<a class="opponent" href="/@/${encodeURIComponent(o.name)}">${esc(o.name)}</a>`
  : `<span class="opponent">${esc(o.level != null ? t('profile-opponent-computer', { level: o.level }) : t('seek-anonymous'))}</span>`);

/**
 * "against bob and carol", in the page's language (its own way of joining a list).
 * @param {Opponent[]} opponents
 */
function againstHtml(opponents) {
  if (opponents.length === 0) return '';
  const mark = '\u0001';
  let i = 0;
  const list = new Intl.ListFormat(lang, { type: 'conjunction' }).formatToParts(opponents.map(() => mark))
    .map((part) => (part.type === 'element' ? opponentHtml(opponents[i++]) : esc(part.value))).join('');
  const [before, after = ''] = t('profile-against', { names: mark }).replace(/[\u2068\u2069]/g, '').split(mark);
  return ` · ${esc(before)}${list}${esc(after)}`;
}

const day = new Intl.DateTimeFormat(lang, { dateStyle: 'medium' });

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
          <p><strong>${esc(gameName(r.game))}</strong> · ${esc(t('profile-label', { text: t(`speed-${r.speed}`) }))} <span class="rating-value">${num(r.rating)}${r.provisional ? '?' : ''}</span>
          <span class="muted">(${esc(t('profile-rated-games', { games: r.games }))})</span>
          · <a class="rating-list-link" href="/ratings/${encodeURIComponent(r.game)}">${esc(t('profile-rating-list'))}</a></p>${graph(r.history)}</div>`).join('')
        + (p.ratings.some((r) => r.provisional) ? `<p class="rating-note muted">${esc(t('rating-provisional'))}</p>` : '');
    const results = Object.entries(p.results);
    $('#results').innerHTML = results.length === 0
      ? `<p class="muted">${esc(t('profile-no-games'))}</p>`
      : `<ul>${results.map(([g, r]) => `<li data-game="${esc(g)}">${esc(t('profile-label', { text: gameName(g) }))} ${esc(t('profile-wdl', { win: r.win, draw: r.draw, loss: r.loss }))}</li>`).join('')}</ul>`;
    $('#games').innerHTML = p.games.map((g) => `<li data-game="${esc(g.game)}"><a href="/game/${esc(g.id)}">${esc(gameName(g.game))}</a>${againstHtml(g.opponents)}
        · ${esc(t(g.rated ? 'profile-rated' : 'profile-casual'))} · ${esc(t(`profile-result-${g.result || 'playing'}`))}
        · <time class="muted" datetime="${new Date(g.created_ms).toISOString()}">${esc(day.format(g.created_ms))}</time></li>`).join('');
  } catch (err) {
    $('#profile-error').textContent = err instanceof Error ? err.message : String(err);
    $('#ratings').textContent = '';
  }
}

show();
