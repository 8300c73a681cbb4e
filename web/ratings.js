// @ts-check
// The rating list of a game (/ratings/<game>; /ratings: the first game): the best players at
// each speed, highest first (GET /api/ratings/<game>, docs/api.md), the computer's levels'
// ratings against people (GET /api/levels/<game>), and the other games' lists.
import { $, api, esc, localGame } from './common.js';
import { num, t } from './i18n.js';

/**
 * A line of GET /api/ratings/<game> (docs/api.md).
 * @typedef {{name: string, speed: string, rating: number, deviation: number, provisional: boolean, games: number}} Line
 */

/**
 * A line of GET /api/levels/<game> (docs/api.md).
 * @typedef {{level: number, rating: number, deviation: number, provisional: boolean, games: number}} LevelLine
 */

/** The computer's levels, level 1 first, each with its rating against people. @param {LevelLine[]} levels */
function levelsTable(levels) {
  const rows = levels.map((l, i) => {
    const which = i === 0 ? 'first' : i === levels.length - 1 ? 'last' : 'other';
    return `<tr data-level="${l.level}">
      <td>${esc(t('level', { level: l.level, which }))}</td>
      <td class="num rating-value">${num(l.rating)}${l.provisional ? '?' : ''}</td>
      <td class="num">${num(l.games)}</td>
    </tr>`;
  }).join('');
  return `<table class="rating-table">
    <thead><tr><th scope="col">${esc(t('level-label'))}</th><th class="num" scope="col">${esc(t('ratings-rating'))}</th>
      <th class="num" scope="col">${esc(t('ratings-levels-games'))}</th></tr></thead>
    <tbody>${rows}</tbody></table>`;
}

/** @param {Line[]} lines */
function table(lines) {
  const rows = lines.map((r, i) => `<tr data-name="${esc(r.name)}">
      <td class="num">${num(i + 1)}</td>
      <td><a href="/@/${encodeURIComponent(r.name)}">${esc(r.name)}</a></td>
      <td class="num rating-value">${num(r.rating)}${r.provisional ? '?' : ''}</td>
      <td class="num">${num(r.games)}</td>
    </tr>`).join('');
  return `<table class="rating-table">
    <thead><tr><th class="num" scope="col">${esc(t('ratings-rank'))}</th><th scope="col">${esc(t('ratings-player'))}</th>
      <th class="num" scope="col">${esc(t('ratings-rating'))}</th><th class="num" scope="col">${esc(t('ratings-games-played'))}</th></tr></thead>
    <tbody>${rows}</tbody></table>`;
}

async function show() {
  try {
    /** @type {import('./common.js').GameInfo[]} */
    const games = (await api('/api/games')).map(localGame);
    const asked = decodeURIComponent(location.pathname.replace(/^\/ratings\/?/, ''));
    const game = games.find((g) => g.id === asked) || (asked ? null : games[0]);
    $('#ratings-games').innerHTML = games.map((g) => `<li><a class="button small" href="/ratings/${encodeURIComponent(g.id)}"${g === game ? ' aria-current="page"' : ''}>${esc(g.name)}</a></li>`).join('');
    if (!game) throw new Error(t('ratings-unknown-game', { game: asked }));
    $('#ratings-heading').textContent = t('ratings-heading', { game: game.name });
    document.title = `${t('ratings-heading', { game: game.name })} · myrmidon`;
    /** @type {[Line[], LevelLine[]]} */
    const [lines, levels] = await Promise.all([
      api(`/api/ratings/${encodeURIComponent(game.id)}`),
      api(`/api/levels/${encodeURIComponent(game.id)}`),
    ]);
    $('#ratings-levels').innerHTML = `<h2>${esc(t('ratings-levels'))}</h2>${levelsTable(levels)}`;
    // one list a speed, in the order of the speeds' best ratings
    /** @type {Map<string, Line[]>} */
    const bySpeed = new Map();
    for (const line of lines) bySpeed.set(line.speed, [...(bySpeed.get(line.speed) || []), line]);
    $('#ratings-lists').innerHTML = bySpeed.size === 0
      ? `<p class="card muted">${esc(t('ratings-none'))}</p>`
      : [...bySpeed].map(([speed, list]) => `<section class="card" data-speed="${esc(speed)}">
          <h2>${esc(t(`speed-${speed}`))}</h2>${table(list)}</section>`).join('');
  } catch (err) {
    $('#ratings-error').textContent = err instanceof Error ? err.message : String(err);
    $('#ratings-lists').textContent = '';
    $('#ratings-levels').textContent = '';
  }
}

show();
