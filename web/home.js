// @ts-check
// The home page: the list of games and the form that starts one.
import { emblemSvg, iconSvg } from './pieces.js';
import { $, esc } from './common.js';

/** @type {import('./common.js').GameInfo[]} */
let games = [];
/** @type {import('./common.js').GameInfo | null} */
let chosen = null;

function renderGames() {
  const box = $('#games');
  box.innerHTML = games.map((g) => {
    const size = g.board.kind === 'hex' ? `hexagon, ${g.board.cells.length} cells` : `${g.board.files}×${g.board.ranks}`;
    return `<div class="game-card" role="radio" tabindex="-1" aria-checked="false" data-id="${esc(g.id)}">
      <svg class="game-icon" viewBox="0 0 100 100" aria-hidden="true">${iconSvg(g)}</svg>
      <div class="game-text">
        <div class="game-name">${esc(g.name)}</div>
        <div class="game-summary">${esc(g.summary || '')}</div>
        <div class="game-meta">${g.players.length} players · ${esc(g.players.join(', '))} · ${esc(size)} · <a href="/rules/${encodeURIComponent(g.id)}">rules</a></div>
      </div>
    </div>`;
  }).join('');
  for (const card of box.querySelectorAll('.game-card')) {
    card.addEventListener('click', (e) => {
      if (e.target.closest('a')) return;
      choose(card.dataset.id, true);
    });
    card.addEventListener('keydown', (e) => {
      const cards = [...box.querySelectorAll('.game-card')];
      const i = cards.indexOf(card);
      if (e.key === 'ArrowDown' || e.key === 'ArrowRight') { e.preventDefault(); const n = cards[(i + 1) % cards.length]; choose(n.dataset.id); n.focus(); }
      if (e.key === 'ArrowUp' || e.key === 'ArrowLeft') { e.preventDefault(); const n = cards[(i + cards.length - 1) % cards.length]; choose(n.dataset.id); n.focus(); }
      if (e.key === ' ' || e.key === 'Enter') { e.preventDefault(); choose(card.dataset.id, true); }
    });
  }
}

function choose(id, scroll = false) {
  chosen = games.find((g) => g.id === id) || games[0];
  if (!chosen) return;
  for (const card of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.game-card'))) {
    const on = card.dataset.id === chosen.id;
    card.classList.toggle('chosen', on);
    card.setAttribute('aria-checked', String(on));
    card.tabIndex = on ? 0 : -1;
  }
  $('#setup-game').textContent = chosen.name;
  $('#start').disabled = false;
  localStorage.setItem('myrmidon:last-game', chosen.id);
  history.replaceState(null, '', `/?game=${encodeURIComponent(chosen.id)}`);
  renderOptions();
  if (scroll && window.matchMedia('(max-width: 860px)').matches) $('#setup').scrollIntoView({ behavior: 'smooth', block: 'start' });
}

function levelOptions(selected) {
  const n = chosen?.levels || 8;
  let out = '';
  for (let i = 1; i <= n; i++) out += `<option value="${i}"${i === selected ? ' selected' : ''}>Level ${i}${i === 1 ? ' (beginner)' : i === n ? ' (strongest)' : ''}</option>`;
  return out;
}

function mode() { return /** @type {HTMLInputElement} */ (document.querySelector('input[name="mode"]:checked')).value; }

function renderOptions() {
  const box = $('#computer-opts');
  const savedLevel = +(localStorage.getItem('myrmidon:level') || 3);
  if (mode() === 'local') {
    box.innerHTML = `<p class="hint">Every seat is played on this screen: ${esc(chosen.players.join(', '))} take turns.</p>`;
  } else if (mode() === 'online') {
    const pub = localStorage.getItem('myrmidon:public') === '1';
    box.innerHTML = `
      <fieldset class="field side"><legend>You play</legend>
        <div class="segmented">
          ${chosen.players.map((p, i) => `<label><input type="radio" name="side" value="${i}"${i === 0 ? ' checked' : ''}><span><svg class="seat-icon" viewBox="0 0 100 100" aria-hidden="true">${emblemSvg(chosen, i)}</svg>${esc(p)}</span></label>`).join('')}
          <label><input type="radio" name="side" value="random"><span>Random</span></label>
        </div>
      </fieldset>
      ${chosen.players.length > 2 ? `<fieldset class="field others"><legend>The other seats</legend><div class="seat-grid">${chosen.players.map((p, i) => `
        <label class="seat-row" data-seat="${i}"><svg class="seat-icon" viewBox="0 0 100 100" aria-hidden="true">${emblemSvg(chosen, i)}</svg>
          <span class="seat-name">${esc(p)}</span>
          <select name="other${i}" aria-label="${esc(p)}">
            <option value="person" selected>A person</option>
            ${levelOptions(-1).replace(/<option value="(\d+)"([^>]*)>Level/g, '<option value="computer:$1"$2>Computer, level')}
          </select>
        </label>`).join('')}</div></fieldset>` : ''}
      <label class="check"><input type="checkbox" name="public" id="public"${pub ? ' checked' : ''}><span>List in the lobby</span></label>
      <p class="hint" id="online-hint"></p>`;
    const sync = () => {
      const side = box.querySelector('input[name="side"]:checked').value;
      for (const row of box.querySelectorAll('.others .seat-row')) row.hidden = side !== 'random' && row.dataset.seat === side;
      $('#online-hint').textContent = $('#public').checked
        ? 'Anyone may take the other seats: from the lobby, or with the game\'s address.'
        : 'You get an invitation link for each other seat, to send to whom you choose.';
    };
    for (const el of box.querySelectorAll('input, select')) el.addEventListener('change', sync);
    sync();
  } else if (chosen.players.length > 2) {
    box.innerHTML = `<div class="seat-grid">` + chosen.players.map((p, i) => `
      <label class="seat-row"><svg class="seat-icon" viewBox="0 0 100 100" aria-hidden="true">${emblemSvg(chosen, i)}</svg>
        <span class="seat-name">${esc(p)}</span>
        <select name="seat${i}" aria-label="${esc(p)}">
          <option value="human"${i === 0 ? ' selected' : ''}>Human</option>
          ${levelOptions(i === 0 ? -1 : savedLevel).replace(/<option value="(\d+)"([^>]*)>Level/g, '<option value="computer:$1"$2>Computer, level')}
        </select>
      </label>`).join('') + `</div>`;
  } else {
    box.innerHTML = `
      <label class="field"><span>Level</span><select name="level">${levelOptions(savedLevel)}</select></label>
      <fieldset class="field side"><legend>You play</legend>
        <div class="segmented">
          ${chosen.players.map((p, i) => `<label><input type="radio" name="side" value="${i}"${i === 0 ? ' checked' : ''}><span><svg class="seat-icon" viewBox="0 0 100 100" aria-hidden="true">${emblemSvg(chosen, i)}</svg>${esc(p)}</span></label>`).join('')}
          <label><input type="radio" name="side" value="random"><span>Random</span></label>
        </div>
      </fieldset>`;
  }
  const sbox = $('#settings');
  sbox.innerHTML = (chosen.settings || []).map((s) => `
    <label class="field"><span>${esc(s.name[0].toUpperCase() + s.name.slice(1))}</span>
      <select name="setting:${esc(s.name)}">${s.values.map((v) => `<option${v === s.default ? ' selected' : ''}>${esc(v)}</option>`).join('')}</select>
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
/** @returns {Seats} */
function seatsFromForm(form) {
  const n = chosen.players.length;
  if (mode() === 'local') return Array(n).fill('human');
  if (mode() === 'online') {
    let side = form.querySelector('input[name="side"]:checked').value;
    side = side === 'random' ? Math.floor(Math.random() * n) : +side;
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
  let side = form.querySelector('input[name="side"]:checked').value;
  side = side === 'random' ? Math.floor(Math.random() * n) : +side;
  return chosen.players.map((_, i) => (i === side ? 'human' : `computer:${level}`));
}

// a record file fills the record box
function readRecordFile() {
  const file = $('#record-file').files?.[0];
  if (!file) return;
  file.text().then((text) => { $('#record').value = text; followRecord(); });
}

// a record names its game (its Game tag, or else a Variant tag): choose that game
function followRecord() {
  const text = $('#record').value;
  const m = /^\s*\[Game\s+"([^"]*)"\]/m.exec(text) || /^\s*\[Variant\s+"([^"]*)"\]/m.exec(text);
  const id = m && games.find((g) => g.id === m[1].trim().toLowerCase())?.id;
  if (id && id !== chosen?.id) choose(id);
}

async function start(e) {
  e.preventDefault();
  const form = $('#setup');
  const err = $('#setup-error');
  err.hidden = true;
  const seats = seatsFromForm(form);
  const settings = {};
  for (const s of chosen.settings || []) settings[s.name] = form.elements[`setting:${s.name}`].value;
  const position = $('#position').value.trim() || null;
  const record = $('#record').value.trim() || null;
  const online = mode() === 'online';
  const body = record
    ? { game: chosen.id, seats, record }
    : { game: chosen.id, seats, settings: position ? {} : settings, position };
  if (online) {
    body.public = form.elements.public.checked;
    if (!seats.some((k, i) => (k === 'online' || k === 'open') && i !== seats.mine)) {
      err.textContent = 'An online game needs another person: make at least one other seat "A person".';
      err.hidden = false;
      return;
    }
  }
  const clock = clockFromForm();
  if (clock) {
    if (!(clock.minutes > 0) || !(clock.increment >= 0)) {
      err.textContent = 'The clock needs a number of minutes above 0 and seconds of 0 or more.';
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
    if (!res.ok) throw new Error(data.error || `the server answered ${res.status}`);
    if (online) {
      // this browser holds its own seat only; the other seats' tokens are invitations to send
      const mine = seats.mine;
      const tokens = (data.tokens || []).map((t, i) => (i === mine ? t : null));
      const invites = (data.tokens || []).map((t, i) => (i !== mine && seats[i] === 'online' ? t : null));
      localStorage.setItem(`myrmidon:token:${data.id}`, JSON.stringify(tokens));
      if (invites.some((t) => t)) localStorage.setItem(`myrmidon:invites:${data.id}`, JSON.stringify(invites));
    } else {
      localStorage.setItem(`myrmidon:token:${data.id}`, JSON.stringify(data.tokens || []));
    }
    rememberGame(data.id, chosen, seats);
    location.href = `/game/${encodeURIComponent(data.id)}`;
  } catch (ex) {
    err.textContent = ex.message;
    err.hidden = false;
    $('#start').disabled = false;
  }
}

function rememberGame(id, game, seats) {
  let list = [];
  try { list = JSON.parse(localStorage.getItem('myrmidon:recent') || '[]'); } catch { list = []; }
  list = list.filter((g) => g.id !== id);
  list.unshift({ id, game: game.id, name: game.name, seats, at: Date.now() });
  localStorage.setItem('myrmidon:recent', JSON.stringify(list.slice(0, 12)));
}

function renderRecent() {
  let list = [];
  try { list = JSON.parse(localStorage.getItem('myrmidon:recent') || '[]'); } catch { list = []; }
  list = list.filter((g) => localStorage.getItem(`myrmidon:token:${g.id}`));
  if (!list.length) return;
  $('#recent').hidden = false;
  const fmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  $('#recent-list').innerHTML = list.map((g) => {
    const vs = g.seats.some((s) => s === 'online' || s === 'open') ? 'online'
      : g.seats.every((s) => s === 'human') ? 'on this screen' : 'against the computer';
    return `<li><a href="/game/${encodeURIComponent(g.id)}">${esc(g.name)}</a> <span class="muted">${vs}, ${esc(fmt.format(new Date(g.at)))}</span></li>`;
  }).join('');
}

// ---- the lobby: public games waiting for players ----
let lobbyTimer = null;
let lobbyBusy = false;
let lobbyJoining = false;

function clockText(c) {
  if (!c) return 'no clock';
  const min = c.minutes ?? (c.initial_ms != null ? c.initial_ms / 60000 : null);
  const inc = c.increment ?? (c.increment_ms != null ? c.increment_ms / 1000 : 0);
  if (min == null) return 'clock';
  return `${+min.toFixed(2)}+${+(+inc).toFixed(1)}`;
}
function ago(ms) {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 60) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  return h < 48 ? `${h} h ago` : `${Math.round(h / 24)} days ago`;
}
function seatWord(kind) {
  if (kind === 'open') return 'open';
  const m = /^computer:(\d+)/.exec(kind || '');
  return m ? `computer, level ${m[1]}` : 'taken';
}

function renderLobby(list) {
  const ul = $('#lobby-list');
  ul.dataset.loaded = '1';
  if (!list.length) {
    ul.innerHTML = '<li class="lobby-empty muted">No game is waiting for players now. An online game "listed in the lobby" shows here.</li>';
    return;
  }
  ul.innerHTML = list.map((g) => {
    const name = games.find((x) => x.id === g.game)?.name || g.name || g.game;
    const settings = Object.entries(g.settings || {}).map(([k, v]) => `${k} ${v}`).join(', ');
    const seats = (g.players || []).map((p, i) => `<span class="lobby-seat ${g.open_seats.includes(i) ? 'open' : ''}">${esc(p)}: ${esc(g.open_seats.includes(i) ? 'open' : seatWord(g.seats?.[i]))}</span>`).join(' · ');
    const joins = (g.open_seats || []).map((i) => `<button type="button" class="button small primary" data-join="${esc(g.id)}" data-seat="${i}">Join as ${esc(g.players[i] ?? `seat ${i + 1}`)}</button>`).join('');
    return `<li class="lobby-game card" data-id="${esc(g.id)}">
      <div class="lobby-main">
        <div class="lobby-name"><a href="/game/${encodeURIComponent(g.id)}">${esc(name)}</a></div>
        <div class="lobby-seats">${seats}</div>
        <div class="lobby-meta muted">${esc(clockText(g.clock))}${settings ? ` · ${esc(settings)}` : ''} · ${g.moves ? `${g.moves} moves played` : 'not started'}${g.created_ms ? ` · created ${esc(ago(g.created_ms))}` : ''}</div>
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
    if (!res.ok || !Array.isArray(data)) throw new Error(data?.error || `the server answered ${res.status}`);
    $('#lobby-error').hidden = true;
    if (!lobbyJoining) renderLobby(data);
  } catch (ex) {
    $('#lobby-error').textContent = `Could not load the lobby: ${ex.message}`;
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
    lobbyTimer = setInterval(refreshLobby, 5000);
  };
  document.addEventListener('visibilitychange', run);
  $('#lobby-list').addEventListener('click', (e) => {
    const b = e.target.closest('button[data-join]');
    if (b) joinFromLobby(b.dataset.join, +b.dataset.seat, b);
  });
  run();
}

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
    if (!res.ok) throw new Error(data.error || `the server answered ${res.status}`);
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
    const who = btn.textContent.replace(/^Join as /, '');
    err.textContent = `Could not join as ${who}: ${ex.message}`;
    err.hidden = false;
    lobbyJoining = false;
    refreshLobby();
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
    if (!res.ok) throw new Error(`the server answered ${res.status}`);
    games = await res.json();
  } catch (ex) {
    $('#games').innerHTML = `<p class="message error">Could not load the games: ${esc(ex.message)}</p>`;
    return;
  }
  renderGames();
  startLobby();
  const want = new URLSearchParams(location.search).get('game') || localStorage.getItem('myrmidon:last-game');
  choose(games.some((g) => g.id === want) ? want : games[0]?.id);
}

main();
