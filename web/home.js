// @ts-check
// The home page: the list of games and the form that starts one.
import { emblemSvg, iconSvg, learnDrawings } from './pieces.js';
import { $, api, errorText, esc, localGame, localState, outcomeText, playerArgs, playerName } from './common.js';
import { lang, num, t } from './i18n.js';
import { canPlayHere, startHere } from './local-game.js';

/** @type {import('./common.js').GameInfo[]} */
let games = [];
/** @type {import('./common.js').GameInfo | null} */
let chosen = null;

function renderGames() {
  const box = $('#games');
  box.innerHTML = games.map((g) => {
    const size = g.board.kind === 'hex' ? t('board-hex', { cells: g.board.cells.length }) : `${g.board.files}×${g.board.ranks}`;
    // (the rules link beside the card, not in it: a radio holds nothing one can focus)
    return `<div class="game-item"><div class="game-card" role="radio" tabindex="-1" aria-checked="false" data-id="${esc(g.id)}">
      <svg class="game-icon" viewBox="0 0 100 100" aria-hidden="true">${iconSvg(g)}</svg>
      <div class="game-text">
        <div class="game-name">${esc(g.name)}</div>
        <div class="game-summary">${esc(g.summary || '')}</div>
        <div class="game-meta">${esc(t('game-players', { n: g.players.length }))} · ${esc(g.players.join(', '))} · ${esc(size)}</div>
      </div>
    </div><a class="game-rules" href="/rules/${encodeURIComponent(g.id)}">${esc(t('game-rules-link'))}</a></div>`;
  }).join('');
  for (const card of /** @type {NodeListOf<HTMLElement>} */ (box.querySelectorAll('.game-card'))) {
    card.addEventListener('click', (e) => {
      if (/** @type {Element} */ (e.target).closest('a')) return;
      choose(card.dataset.id, true);
    });
    card.addEventListener('keydown', (e) => {
      const cards = /** @type {HTMLElement[]} */ ([...box.querySelectorAll('.game-card')]);
      const i = cards.indexOf(card);
      if (e.key === 'ArrowDown' || e.key === 'ArrowRight') { e.preventDefault(); const n = cards[(i + 1) % cards.length]; choose(n.dataset.id); n.focus(); }
      if (e.key === 'ArrowUp' || e.key === 'ArrowLeft') { e.preventDefault(); const n = cards[(i + cards.length - 1) % cards.length]; choose(n.dataset.id); n.focus(); }
      if (e.key === ' ' || e.key === 'Enter') { e.preventDefault(); choose(card.dataset.id, true); }
    });
  }
}

/** @param {string | null | undefined} id @param {boolean} [scroll] */
function choose(id, scroll = false) {
  const game = games.find((g) => g.id === id) || games[0];
  chosen = game;
  if (!game) return;
  for (const card of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.game-card'))) {
    const on = card.dataset.id === game.id;
    card.classList.toggle('chosen', on);
    card.setAttribute('aria-checked', String(on));
    card.tabIndex = on ? 0 : -1;
  }
  $('#setup-game').textContent = game.name;
  $('#start').disabled = false;
  localStorage.setItem('myrmidon:last-game', game.id);
  history.replaceState(null, '', `/?game=${encodeURIComponent(game.id)}`);
  renderOptions();
  readLevelRatings(game.id);
  if (scroll && window.matchMedia('(max-width: 860px)').matches) $('#setup').scrollIntoView({ behavior: 'smooth', block: 'start' });
}

/** Each game's levels' ratings against people, level 1 first (GET /api/levels/{game}), once read. @type {Record<string, number[]>} */
const levelRatings = {};

// A level's name by the message `prefix` (`level`, or `level-computer` for a seat's choices),
// with its rating once the server has said it ("Level 5 · about 1500").
/** @param {string} prefix @param {number} i */
function levelText(prefix, i) {
  const n = chosen?.levels || 8;
  const name = t(prefix, { level: i, which: i === 1 ? 'first' : i === n ? 'last' : 'other' });
  const rating = chosen ? levelRatings[chosen.id]?.[i - 1] : undefined;
  return rating == null ? name : t('level-about', { name, rating: num(rating) });
}

// The levels as <option>s, each named by the message `prefix`.
/** @param {number} selected @param {string} [prefix] */
function levelOptions(selected, prefix = 'level') {
  const n = chosen?.levels || 8;
  let out = '';
  for (let i = 1; i <= n; i++) out += `<option value="${i}" data-level="${i}" data-prefix="${prefix}"${i === selected ? ' selected' : ''}>${esc(levelText(prefix, i))}</option>`;
  return out;
}

// Reads the levels' ratings of game `id` once, then names the levels shown with them (a
// server without them, or none at all, leaves the names as they are).
/** @param {string} id */
function readLevelRatings(id) {
  if (levelRatings[id]) return;
  fetch(`/api/levels/${encodeURIComponent(id)}`).then((r) => (r.ok ? r.json() : null)).then((list) => {
    if (!Array.isArray(list)) return;
    levelRatings[id] = list.map((l) => l.rating);
    if (chosen?.id !== id) return;
    for (const opt of /** @type {NodeListOf<HTMLOptionElement>} */ (document.querySelectorAll('#computer-opts option[data-level]'))) {
      opt.textContent = levelText(opt.dataset.prefix || 'level', +(opt.dataset.level || 0));
    }
  }).catch(() => {});
}

/** The game chosen: a page's handlers run once there is one. @returns {import('./common.js').GameInfo} */
function chosenGame() {
  if (!chosen) throw new Error('no game chosen');
  return chosen;
}

function mode() { return /** @type {HTMLInputElement} */ (document.querySelector('input[name="mode"]:checked')).value; }

function renderOptions() {
  const chosen = chosenGame();
  const box = $('#computer-opts');
  const savedLevel = +(localStorage.getItem('myrmidon:level') || 3);
  if (mode() === 'local') {
    box.innerHTML = `<p class="hint">${esc(t('local-hint', { players: chosen.players.join(', ') }))}</p>`;
  } else if (mode() === 'online') {
    const pub = localStorage.getItem('myrmidon:public') === '1';
    box.innerHTML = `
      <fieldset class="field side"><legend>${esc(t('you-play'))}</legend>
        <div class="segmented">
          ${chosen.players.map((p, i) => `<label><input type="radio" name="side" value="${i}"${i === 0 ? ' checked' : ''}><span><svg class="seat-icon" viewBox="0 0 100 100" aria-hidden="true">${emblemSvg(chosen, i)}</svg>${esc(p)}</span></label>`).join('')}
          <label><input type="radio" name="side" value="random"><span>${esc(t('side-random'))}</span></label>
        </div>
      </fieldset>
      ${chosen.players.length > 2 ? `<fieldset class="field others"><legend>${esc(t('other-seats'))}</legend><div class="seat-grid">${chosen.players.map((p, i) => `
        <label class="seat-row" data-seat="${i}"><svg class="seat-icon" viewBox="0 0 100 100" aria-hidden="true">${emblemSvg(chosen, i)}</svg>
          <span class="seat-name">${esc(p)}</span>
          <select name="other${i}" aria-label="${esc(p)}">
            <option value="person" selected>${esc(t('seat-person'))}</option>
            ${levelOptions(-1, 'level-computer').replace(/<option value="(\d+)"/g, '<option value="computer:$1"')}
          </select>
        </label>`).join('')}</div></fieldset>` : ''}
      <label class="check"><input type="checkbox" name="public" id="public"${pub ? ' checked' : ''}><span>${esc(t('list-in-lobby'))}</span></label>
      <p class="hint" id="online-hint"></p>
      <fieldset class="field seek-opts"><legend>${esc(t('seek-legend'))}</legend>
        <label class="check"><input type="checkbox" id="seek-rated"><span>${esc(t('seek-rated'))}</span></label>
        <div class="seek-range">
          <label>${esc(t('seek-min'))} <input type="number" id="seek-min" min="0" max="4000" step="50" inputmode="numeric"></label>
          <label>${esc(t('seek-max'))} <input type="number" id="seek-max" min="0" max="4000" step="50" inputmode="numeric"></label>
        </div>
        <label>${esc(t('seek-to'))} <input type="text" id="seek-to" maxlength="20" autocomplete="off" spellcheck="false"></label>
        <button type="button" class="button" id="seek-post">${esc(t('seek-post'))}</button>
      </fieldset>`;
    $('#seek-post').addEventListener('click', postSeek);
    const sync = () => {
      const side = box.querySelector('input[name="side"]:checked').value;
      for (const row of /** @type {NodeListOf<HTMLElement>} */ (box.querySelectorAll('.others .seat-row'))) row.hidden = side !== 'random' && row.dataset.seat === side;
      $('#online-hint').textContent = $('#public').checked
        ? t('online-hint-public')
        : t('online-hint-private');
    };
    for (const el of box.querySelectorAll('input, select')) el.addEventListener('change', sync);
    sync();
  } else if (chosen.players.length > 2) {
    box.innerHTML = `<div class="seat-grid">` + chosen.players.map((p, i) => `
      <label class="seat-row"><svg class="seat-icon" viewBox="0 0 100 100" aria-hidden="true">${emblemSvg(chosen, i)}</svg>
        <span class="seat-name">${esc(p)}</span>
        <select name="seat${i}" aria-label="${esc(p)}">
          <option value="human"${i === 0 ? ' selected' : ''}>${esc(t('seat-human'))}</option>
          ${levelOptions(i === 0 ? -1 : savedLevel, 'level-computer').replace(/<option value="(\d+)"/g, '<option value="computer:$1"')}
        </select>
      </label>`).join('') + `</div>`;
  } else {
    box.innerHTML = `
      <label class="field"><span>${esc(t('level-label'))}</span><select name="level">${levelOptions(savedLevel)}</select></label>
      <fieldset class="field side"><legend>${esc(t('you-play'))}</legend>
        <div class="segmented">
          ${chosen.players.map((p, i) => `<label><input type="radio" name="side" value="${i}"${i === 0 ? ' checked' : ''}><span><svg class="seat-icon" viewBox="0 0 100 100" aria-hidden="true">${emblemSvg(chosen, i)}</svg>${esc(p)}</span></label>`).join('')}
          <label><input type="radio" name="side" value="random"><span>${esc(t('side-random'))}</span></label>
        </div>
      </fieldset>`;
  }
  const sbox = $('#settings');
  sbox.innerHTML = (chosen.settings || []).map((s) => `
    <label class="field"><span>${esc(s.label || s.name)}</span>
      <select name="setting:${esc(s.name)}">${s.values.map((v) => `<option value="${esc(v)}"${v === s.default ? ' selected' : ''}>${esc(s.valueLabels?.[v] ?? v)}</option>`).join('')}</select>
    </label>${s.help ? `<p class="hint">${esc(s.help)}</p>` : ''}`).join('');
}

// The clock chosen: null (none), or {minutes, increment} (a preset "m+i", or the custom fields).
function clockFromForm() {
  const v = /** @type {HTMLInputElement | null} */ (document.querySelector('input[name="clock"]:checked'))?.value || 'none';
  if (v === 'none') return null;
  if (v === 'custom') return { minutes: +$('#clock-minutes').value, increment: +$('#clock-increment').value };
  const [m, i] = v.split('+').map(Number);
  return { minutes: m, increment: i };
}
function rememberClock() {
  const v = /** @type {HTMLInputElement | null} */ (document.querySelector('input[name="clock"]:checked'))?.value || 'none';
  localStorage.setItem('myrmidon:clock', JSON.stringify({ v, minutes: $('#clock-minutes').value, increment: $('#clock-increment').value }));
}
function restoreClock() {
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem('myrmidon:clock') || 'null'); } catch { saved = null; }
  if (saved && typeof saved === 'object') {
    if (saved.minutes) $('#clock-minutes').value = saved.minutes;
    if (saved.increment != null && saved.increment !== '') $('#clock-increment').value = saved.increment;
    const r = /** @type {HTMLInputElement | null} */ (document.querySelector(`input[name="clock"][value="${CSS.escape(String(saved.v))}"]`));
    if (r) r.checked = true;
  }
  $('#clock-custom').hidden = /** @type {HTMLInputElement | null} */ (document.querySelector('input[name="clock"]:checked'))?.value !== 'custom';
}

// The seats asked for. An online game: this browser's seat is "online" too (a person with a
// token of their own, as everyone else in the game: takebacks and rematches need each person's
// consent), its index in `seats.mine`.
/** @typedef {string[] & {mine?: number}} Seats */
/** @param {HTMLFormElement & {elements: any}} form @returns {Seats} */
function seatsFromForm(form) {
  const chosen = chosenGame();
  const n = chosen.players.length;
  if (mode() === 'local') return Array(n).fill('human');
  if (mode() === 'online') {
    const picked = /** @type {HTMLInputElement} */ (form.querySelector('input[name="side"]:checked')).value;
    const side = picked === 'random' ? Math.floor(Math.random() * n) : +picked;
    const pub = form.elements.public.checked;
    localStorage.setItem('myrmidon:public', pub ? '1' : '0');
    const seats = /** @type {Seats} */ (chosen.players.map((_, i) => {
      if (i === side) return 'online';
      const other = form.elements[`other${i}`]?.value || 'person';
      return other === 'person' ? (pub ? 'open' : 'online') : other;
    }));
    seats.mine = side;
    return seats;
  }
  if (n > 2) return chosen.players.map((_, i) => form.elements[`seat${i}`].value);
  const level = form.elements.level.value;
  localStorage.setItem('myrmidon:level', level);
  const picked = /** @type {HTMLInputElement} */ (form.querySelector('input[name="side"]:checked')).value;
  const side = picked === 'random' ? Math.floor(Math.random() * n) : +picked;
  return chosen.players.map((_, i) => (i === side ? 'human' : `computer:${level}`));
}

// a record file fills the record box
function readRecordFile() {
  const file = $('#record-file').files?.[0];
  if (!file) return;
  file.text().then((/** @type {string} */ text) => { $('#record').value = text; followRecord(); });
}

// a record names its game (its Game tag, or else a Variant tag): choose that game
function followRecord() {
  const text = $('#record').value;
  const m = /^\s*\[Game\s+"([^"]*)"\]/m.exec(text) || /^\s*\[Variant\s+"([^"]*)"\]/m.exec(text);
  const id = m && games.find((g) => g.id === m[1].trim().toLowerCase())?.id;
  if (id && id !== chosen?.id) choose(id);
}

/** The settings chosen in the form, by name. @param {HTMLFormElement & {elements: any}} form @returns {Record<string, string>} */
function settingsFromForm(form) {
  /** @type {Record<string, string>} */
  const settings = {};
  for (const s of chosenGame().settings || []) settings[s.name] = form.elements[`setting:${s.name}`].value;
  return settings;
}

/** @param {SubmitEvent} e */
async function start(e) {
  e.preventDefault();
  const chosen = chosenGame();
  const form = $('#setup');
  const err = $('#setup-error');
  err.hidden = true;
  const seats = seatsFromForm(form);
  const settings = settingsFromForm(form);
  const position = $('#position').value.trim() || null;
  const record = $('#record').value.trim() || null;
  const online = mode() === 'online';
  /** @type {Record<string, unknown>} */
  const body = record
    ? { game: chosen.id, seats, record }
    : { game: chosen.id, seats, settings: position ? {} : settings, position };
  if (online) {
    body.public = form.elements.public.checked;
    if (!seats.some((k, i) => (k === 'online' || k === 'open') && i !== seats.mine)) {
      err.textContent = t('online-needs-person');
      err.hidden = false;
      return;
    }
  }
  // (an imported game has no clock: the one chosen is for new games)
  const clock = record ? null : clockFromForm();
  if (clock) {
    if (!(clock.minutes > 0) || !(clock.increment >= 0)) {
      err.textContent = t('clock-invalid');
      err.hidden = false;
      return;
    }
    body.clock = clock;
  }
  rememberClock();
  $('#start').disabled = true;
  try {
    const res = await fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.error || t('error-status', { status: res.status }));
    if (online) {
      // this browser holds its own seat only; the other seats' tokens are invitations to send
      const mine = seats.mine;
      /** @type {(string | null)[]} */
      const all = data.tokens || [];
      const tokens = all.map((t, i) => (i === mine ? t : null));
      const invites = all.map((t, i) => (i !== mine && seats[i] === 'online' ? t : null));
      localStorage.setItem(`myrmidon:token:${data.id}`, JSON.stringify(tokens));
      if (invites.some((t) => t)) localStorage.setItem(`myrmidon:invites:${data.id}`, JSON.stringify(invites));
    } else {
      localStorage.setItem(`myrmidon:token:${data.id}`, JSON.stringify(data.tokens || []));
    }
    rememberGame(data.id, chosen, seats);
    location.href = `/game/${encodeURIComponent(data.id)}`;
  } catch (ex) {
    // no server (offline): a game of this screen starts in this browser (local-game.js)
    if (ex instanceof TypeError && !online && !record && canPlayHere()) {
      location.href = `/game/${encodeURIComponent(startHere({ game: chosen.id, seats, settings, position }))}`;
      return;
    }
    err.textContent = errorText(ex);
    err.hidden = false;
    $('#start').disabled = false;
  }
}

/** A game of this browser's, as the home page lists it. @typedef {{id: string, game: string, name: string, seats: string[], at: number}} Recent */

/** @param {string} id @param {{id: string, name: string}} game @param {string[]} seats */
function rememberGame(id, game, seats) {
  /** @type {Recent[]} */
  let list = [];
  try { list = JSON.parse(localStorage.getItem('myrmidon:recent') || '[]'); } catch { list = []; }
  list = list.filter((g) => g.id !== id);
  list.unshift({ id, game: game.id, name: game.name, seats, at: Date.now() });
  localStorage.setItem('myrmidon:recent', JSON.stringify(list.slice(0, 12)));
}

function renderRecent() {
  /** @type {Recent[]} */
  let list = [];
  try { list = JSON.parse(localStorage.getItem('myrmidon:recent') || '[]'); } catch { list = []; }
  list = list.filter((g) => localStorage.getItem(`myrmidon:token:${g.id}`));
  if (!list.length) return;
  $('#recent').hidden = false;
  const fmt = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  $('#recent-list').innerHTML = list.map((g) => {
    const vs = g.seats.some((s) => s === 'online' || s === 'open') ? t('recent-online')
      : g.seats.every((s) => s === 'human') ? t('recent-local') : t('recent-computer');
    const name = games.find((x) => x.id === g.game)?.name || g.name;
    return `<li data-id="${esc(g.id)}"><a href="/game/${encodeURIComponent(g.id)}">${esc(name)}</a> <span class="muted">${esc(vs)}, ${esc(fmt.format(new Date(g.at)))}</span> <span class="recent-status"></span></li>`;
  }).join('');
  // each game's result, or whose turn it is (ours, marked), as the server has it now
  for (const g of list) {
    fetch(`/api/games/${encodeURIComponent(g.id)}`).then((r) => (r.ok ? r.json() : null)).then((raw) => {
      const el = /** @type {HTMLElement | null} */ (document.querySelector(`#recent-list li[data-id="${CSS.escape(g.id)}"] .recent-status`));
      if (!raw || !el) return;
      const state = localState(raw);
      /** @type {(string | null)[]} */
      let mine = [];
      try { mine = JSON.parse(localStorage.getItem(`myrmidon:token:${g.id}`) || '[]') || []; } catch { mine = []; }
      const who = playerArgs(state, state.to_move);
      const ours = !state.outcome && state.to_move != null && !!mine[state.to_move] && mine.filter(Boolean).length < state.players.length;
      el.textContent = state.outcome ? outcomeText(state) : ours ? t('status-your-turn', who) : t('status-to-move', who);
      el.classList.toggle('ours', ours);
      el.classList.toggle('over', !!state.outcome);
    }).catch(() => {});
  }
}

// ---- the lobby: public games waiting for players ----
/** @type {ReturnType<typeof setInterval> | null} */
let lobbyTimer = null;
let lobbyBusy = false;
let lobbyJoining = false;

/** A clock's words. @param {{minutes?: number, increment?: number, initial_ms?: number, increment_ms?: number} | null | undefined} c */
function clockText(c) {
  if (!c) return t('lobby-no-clock');
  const min = c.minutes ?? (c.initial_ms != null ? c.initial_ms / 60000 : null);
  const inc = c.increment ?? (c.increment_ms != null ? c.increment_ms / 1000 : 0);
  if (min == null) return t('lobby-clock');
  return `${+min.toFixed(2)}+${+(+inc).toFixed(1)}`;
}
/** @param {number} ms */
function ago(ms) {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 60) return t('ago-now');
  const m = Math.round(s / 60);
  if (m < 60) return t('ago-minutes', { n: m });
  const h = Math.round(m / 60);
  return h < 48 ? t('ago-hours', { n: h }) : t('ago-days', { n: Math.round(h / 24) });
}
/** @param {string | undefined} kind */
function seatWord(kind) {
  if (kind === 'open') return t('seat-open');
  const m = /^computer:(\d+)/.exec(kind || '');
  return m ? t('seat-computer', { level: +m[1] }) : t('seat-taken');
}

// A seat of a lobby's game, by its player's name in the page's language, and its grammatical
// number (a message's `player` and `number`).
/** @param {{game: string, players?: string[]}} g @param {number} i */
const who = (g, i) => playerArgs(localState({ game: g.game, players: g.players ?? [] }), i);

/** @param {any[]} list  the games of GET /api/lobby (docs/api.md) */
function renderLobby(list) {
  const ul = $('#lobby-list');
  ul.dataset.loaded = '1';
  if (!list.length) {
    ul.innerHTML = `<li class="lobby-empty muted">${esc(t('lobby-empty'))}</li>`;
    return;
  }
  ul.innerHTML = list.map((g) => {
    const name = games.find((x) => x.id === g.game)?.name || g.name || g.game;
    const described = games.find((x) => x.id === g.game)?.settings || [];
    const settings = Object.entries(g.settings || {}).map(([k, v]) => {
      const s = described.find((x) => x.name === k);
      return `${(s?.label ?? k).toLowerCase()} ${s?.valueLabels?.[String(v)] ?? v}`;
    }).join(', ');
    const seats = (g.players || []).map((/** @type {string} */ p, /** @type {number} */ i) => `<span class="lobby-seat ${g.open_seats.includes(i) ? 'open' : ''}">${esc(playerName(g.game, p))}: ${esc(g.open_seats.includes(i) ? t('seat-open') : seatWord(g.seats?.[i]))}</span>`).join(' · ');
    const joins = (g.open_seats || []).map((/** @type {number} */ i) => `<button type="button" class="button small primary" data-join="${esc(g.id)}" data-seat="${i}" data-who="${esc(who(g, i).player)}" data-number="${esc(who(g, i).number)}">${esc(t('join-as', who(g, i)))}</button>`).join('');
    return `<li class="lobby-game card" data-id="${esc(g.id)}">
      <div class="lobby-main">
        <div class="lobby-name"><a href="/game/${encodeURIComponent(g.id)}">${esc(name)}</a></div>
        <div class="lobby-seats">${seats}</div>
        <div class="lobby-meta muted">${esc(clockText(g.clock))}${settings ? ` · ${esc(settings)}` : ''} · ${esc(g.moves ? t('lobby-moves', { n: g.moves }) : t('lobby-not-started'))}${g.created_ms ? ` · ${esc(t('lobby-created', { ago: ago(g.created_ms) }))}` : ''}</div>
      </div>
      <div class="lobby-joins">${joins}</div>
    </li>`;
  }).join('');
}

async function refreshLobby() {
  if (lobbyBusy || lobbyJoining) return;
  lobbyBusy = true;
  try {
    const res = await fetch('/api/lobby');
    if (res.status === 404 || res.status === 405) { $('#lobby').hidden = true; stopLobby(); return; } // a server without a lobby
    const data = await res.json().catch(() => null);
    if (!res.ok || !Array.isArray(data)) throw new Error(data?.error || t('error-status', { status: res.status }));
    $('#lobby-error').hidden = true;
    if (!lobbyJoining) renderLobby(data);
  } catch (ex) {
    $('#lobby-error').textContent = t('lobby-error', { error: errorText(ex) });
    $('#lobby-error').hidden = false;
  } finally {
    lobbyBusy = false;
  }
}
function stopLobby() { if (lobbyTimer) { clearInterval(lobbyTimer); lobbyTimer = null; } }
function startLobby() {
  const run = () => {
    stopLobby();
    if (document.visibilityState !== 'visible') return;
    refreshLobby();
    refreshSeeks();
    lobbyTimer = setInterval(() => { refreshLobby(); refreshSeeks(); }, 5000);
  };
  document.addEventListener('visibilitychange', run);
  $('#seek-list').addEventListener('click', onSeekClick);
  $('#challenge-list').addEventListener('click', onSeekClick);
  $('#lobby-list').addEventListener('click', (/** @type {MouseEvent} */ e) => {
    const b = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest('button[data-join]'));
    if (b?.dataset.join) joinFromLobby(b.dataset.join, Number(b.dataset.seat), b);
  });
  run();
}

/** @param {string} id @param {number} seat @param {HTMLElement} btn */
async function joinFromLobby(id, seat, btn) {
  const err = $('#lobby-join-error');
  err.hidden = true;
  lobbyJoining = true;
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('#lobby-list button[data-join]'))) b.disabled = true;
  try {
    const res = await fetch(`/api/games/${encodeURIComponent(id)}/join`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ seat }),
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.error || t('error-status', { status: res.status }));
    /** @type {(string | null)[]} */
    let tokens = [];
    try { tokens = JSON.parse(localStorage.getItem(`myrmidon:token:${id}`) || '[]') || []; } catch { tokens = []; }
    if (!Array.isArray(tokens)) tokens = [];
    tokens[seat] = data.token;
    for (let i = 0; i < tokens.length; i++) if (tokens[i] === undefined) tokens[i] = null;
    localStorage.setItem(`myrmidon:token:${id}`, JSON.stringify(tokens));
    const st = data.state || {};
    const g = games.find((x) => x.id === st.game) || { id: st.game, name: st.game };
    rememberGame(id, g, st.seats || []);
    location.href = `/game/${encodeURIComponent(id)}`;
  } catch (ex) {
    err.textContent = t('join-error', { player: btn.dataset.who ?? '', number: btn.dataset.number ?? 'singular', error: errorText(ex) });
    err.hidden = false;
    lobbyJoining = false;
    refreshLobby();
  }
}

// ---- seeks and challenges: games asked for, made when someone accepts ----
/** @returns {string[]} the ids of this browser's open seeks */
function mySeeks() {
  try { const l = JSON.parse(localStorage.getItem('myrmidon:seeks') || '[]'); return Array.isArray(l) ? l : []; } catch { return []; }
}
/** @param {string[]} ids */
function setMySeeks(ids) { localStorage.setItem('myrmidon:seeks', JSON.stringify(ids.slice(-20))); }

/** @param {string} text @param {boolean} [error] */
function seekMessage(text, error = false) {
  const el = $(error ? '#seek-error' : '#seek-note');
  $(error ? '#seek-note' : '#seek-error').hidden = true;
  el.textContent = text;
  el.hidden = !text;
}

async function postSeek() {
  const settings = settingsFromForm($('#setup'));
  /** @type {Record<string, unknown>} */
  const body = { game: chosenGame().id, settings, rated: $('#seek-rated').checked };
  const clock = clockFromForm();
  if (clock) body.clock = clock;
  const min = $('#seek-min').value, max = $('#seek-max').value;
  if (min !== '' || max !== '') body.range = { min: min === '' ? 0 : +min, max: max === '' ? 4000 : +max };
  const to = $('#seek-to').value.trim();
  if (to) body.to = to;
  // the seeker's seat: the side chosen above, or drawn when the seek is accepted
  const side = /** @type {HTMLInputElement | null} */ ($('#setup').querySelector('input[name="side"]:checked'))?.value;
  if (side != null) body.seat = side === 'random' ? 'random' : +side;
  try {
    const data = await api('/api/seeks', body);
    localStorage.setItem(`myrmidon:seek:${data.id}`, data.token);
    setMySeeks([...mySeeks(), data.id]);
    seekMessage(to ? t('challenge-posted', { name: to }) : t('seek-posted'));
    refreshSeeks();
  } catch (ex) {
    seekMessage(errorText(ex), true);
  }
}

/**
 * A seek or a challenge as GET /api/seeks and /api/challenges list them (docs/api.md).
 * @typedef {{id: string, game: string, clock?: {minutes?: number, increment?: number} | null, rated?: boolean, range?: {min: number, max: number} | null, name?: string | null, rating?: number | null, to?: string | null, fits?: boolean, seat?: number | null, state?: string, game_id?: string | null}} Seek
 */
/** A seek's words: game, clock, rated or not, range. @param {Seek} s */
function seekText(s) {
  const name = games.find((x) => x.id === s.game)?.name || s.game;
  const parts = [name, clockText(s.clock), t(s.rated ? 'seek-is-rated' : 'seek-is-casual')];
  if (s.range) parts.push(t('seek-range', { min: s.range.min, max: s.range.max }));
  return parts.join(' · ');
}
/** @param {Seek} s */
const seekBy = (s) => (s.name == null ? t('seek-anonymous') : s.rating == null ? s.name : t('seek-by', { name: s.name, rating: s.rating }));

/** @param {Seek} s @param {string} buttons */
function seekItem(s, buttons) {
  return `<li class="lobby-game card" data-seek="${esc(s.id)}">
    <div class="lobby-main">
      <div class="lobby-name">${esc(seekText(s))}</div>
      <div class="lobby-meta muted">${esc(seekBy(s))}${s.to ? ` → ${esc(s.to)}` : ''}</div>
    </div>
    <div class="lobby-joins">${buttons}</div>
  </li>`;
}
/** @param {string} what @param {string} id @param {string} [kind] */
const seekButton = (what, id, kind = '') => `<button type="button" class="button small ${kind}" data-seek-${what}="${esc(id)}">${esc(t(`seek-${what}`))}</button>`;

async function refreshSeeks() {
  try {
    // this browser's seeks: once accepted, to the game
    for (const id of mySeeks()) {
      const res = await fetch(`/api/seeks/${encodeURIComponent(id)}`);
      if (res.status === 404) { setMySeeks(mySeeks().filter((x) => x !== id)); continue; }
      const s = await res.json().catch(() => null);
      if (!res.ok || !s) continue;
      if (s.state === 'open') continue;
      setMySeeks(mySeeks().filter((x) => x !== id));
      const token = localStorage.getItem(`myrmidon:seek:${id}`);
      localStorage.removeItem(`myrmidon:seek:${id}`);
      if (s.state === 'accepted' && s.game_id && token) {
        const info = games.find((x) => x.id === s.game);
        const g = info || { id: s.game, name: s.game };
        // the seeker's seat, and the one accepting's: the first other seat
        const mySeat = s.seat ?? 0, other = mySeat === 0 ? 1 : 0;
        const seats = (info?.players || [null, null]).map((_, /** @type {number} */ i) => (i === mySeat ? token : null));
        localStorage.setItem(`myrmidon:token:${s.game_id}`, JSON.stringify(seats));
        rememberGame(s.game_id, g, seats.map((_, i) => (i === mySeat || i === other ? 'online' : 'open')));
        location.href = `/game/${encodeURIComponent(s.game_id)}`;
        return;
      }
      if (s.state === 'declined') seekMessage(t('challenge-declined', { name: s.to }));
    }
    const mine = new Set(mySeeks());
    const list = await api('/api/seeks');
    const ul = $('#seek-list');
    ul.dataset.loaded = '1';
    // this browser's own seeks are cancelled, the others accepted when they are open to us
    const buttons = (/** @type {Seek} */ s) => (mine.has(s.id) ? seekButton('cancel', s.id) : s.fits ? seekButton('accept', s.id, 'primary') : '');
    const res = await fetch('/api/challenges');
    const c = res.ok ? await res.json() : { incoming: [], outgoing: [] };
    const challenged = c.incoming.length + c.outgoing.length > 0;
    // with challenges listed above it, the empty seek list says that it is the lobby's seeks
    // that there are none of
    ul.innerHTML = list.length ? list.map((/** @type {Seek} */ s) => seekItem(s, buttons(s))).join('')
      : `<li class="lobby-empty muted">${esc(t(challenged ? 'seeks-empty-besides' : 'seeks-empty'))}</li>`;
    const box = $('#challenge-list');
    box.hidden = !challenged;
    box.innerHTML = c.incoming.map((/** @type {Seek} */ s) => seekItem({ ...s, to: null }, seekButton('accept', s.id, 'primary') + seekButton('decline', s.id)))
      .concat(c.outgoing.map((/** @type {Seek} */ s) => seekItem(s, seekButton('cancel', s.id)))).join('');
    for (const li of box.querySelectorAll('li')) li.classList.add('challenge');
    $('#seek-error').hidden = true;
  } catch (ex) {
    seekMessage(t('lobby-error', { error: errorText(ex) }), true);
  }
}

/** @param {MouseEvent} e */
async function onSeekClick(e) {
  const b = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.target).closest('button'));
  if (!b) return;
  const { seekAccept: accept, seekCancel: cancel, seekDecline: decline } = b.dataset;
  try {
    if (accept) {
      const data = await api(`/api/seeks/${encodeURIComponent(accept)}/accept`, {});
      const st = data.state || {};
      const tokens = (st.seats || [null, null]).map((/** @type {unknown} */ _, /** @type {number} */ i) => (i === data.seat ? data.token : null));
      localStorage.setItem(`myrmidon:token:${data.id}`, JSON.stringify(tokens));
      const g = games.find((x) => x.id === st.game) || { id: st.game, name: st.game };
      rememberGame(data.id, g, st.seats || []);
      location.href = `/game/${encodeURIComponent(data.id)}`;
    } else if (cancel) {
      const token = localStorage.getItem(`myrmidon:seek:${cancel}`);
      await api(`/api/seeks/${encodeURIComponent(cancel)}/cancel`, token ? { token } : {});
      setMySeeks(mySeeks().filter((x) => x !== cancel));
      localStorage.removeItem(`myrmidon:seek:${cancel}`);
      refreshSeeks();
    } else if (decline) {
      await api(`/api/seeks/${encodeURIComponent(decline)}/decline`, {});
      refreshSeeks();
    }
  } catch (ex) {
    seekMessage(errorText(ex), true);
    refreshSeeks();
  }
}

async function main() {
  $('#setup').addEventListener('submit', start);
  $('#record-file').addEventListener('change', readRecordFile);
  $('#record').addEventListener('input', followRecord);
  for (const r of document.querySelectorAll('input[name="mode"]')) r.addEventListener('change', () => chosen && renderOptions());
  for (const r of document.querySelectorAll('input[name="clock"]')) {
    r.addEventListener('change', () => {
      const custom = /** @type {HTMLInputElement | null} */ (document.querySelector('input[name="clock"]:checked'))?.value === 'custom';
      $('#clock-custom').hidden = !custom;
      if (custom) $('#clock-minutes').focus();
    });
  }
  restoreClock();
  renderRecent();
  try {
    const res = await fetch('/api/games');
    if (!res.ok) throw new Error(t('error-status', { status: res.status }));
    games = /** @type {import('./common.js').GameInfo[]} */ (await res.json()).map(localGame);
    learnDrawings(games);
  } catch (ex) {
    $('#games').innerHTML = `<p class="message error">${esc(t('games-error', { error: errorText(ex) }))}</p>`;
    return;
  }
  renderGames();
  renderRecent(); // (again: the games' names in the page's language)
  startLobby();
  const want = new URLSearchParams(location.search).get('game') || localStorage.getItem('myrmidon:last-game');
  choose(games.some((g) => g.id === want) ? want : games[0]?.id);
}

main();
