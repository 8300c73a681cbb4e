// The game page, /game/<id>: the board, the players, the moves, live updates.
import { createBoard } from './board.js';
import { emblemSvg, palette } from './pieces.js';

const $ = (sel) => document.querySelector(sel);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

const gameId = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || '');
let tokens = [];
try { tokens = JSON.parse(localStorage.getItem(`myrmidon:token:${gameId}`) || '[]') || []; } catch { tokens = []; }

let info = null; // the game's description from GET /api/games
let live = null; // the latest state
let viewPly = null; // null: the live position; else the ply shown (0 = the start)
const atCache = new Map(); // ply -> state
let board = null;
let flipped = false;
let flipChosen = false;
let showNames = localStorage.getItem('myrmidon:names') === '1';
let posting = false;

const tokenOf = (seat) => (seat == null ? null : tokens[seat] || null);
const anyToken = () => tokens.find((t) => t) || null;
const mySeats = () => tokens.map((t, i) => (t ? i : -1)).filter((i) => i >= 0);

function canMove(state) {
  return !!state && !state.outcome && state.to_move != null && state.seats[state.to_move] === 'human'
    && !state.thinking && !!tokenOf(state.to_move);
}

function seatText(state, i) {
  const s = state.seats[i];
  if (s === 'human') return tokenOf(i) ? (mySeats().length === state.seats.length ? 'on this screen' : 'you') : 'human';
  const m = /^computer:(\d+)/.exec(s);
  return m ? `computer, level ${m[1]}` : s;
}

function showMessage(text) {
  const el = $('#message');
  el.textContent = text;
  el.hidden = !text;
}

// ---- rendering ----
function renderPlayers(state) {
  $('#players').innerHTML = state.players.map((p, i) => {
    const turn = state.to_move === i && !state.outcome;
    const won = state.outcome && (state.outcome.winner === i || (Array.isArray(state.outcome.winner) && state.outcome.winner.includes(i)));
    return `<div class="player${turn ? ' turn' : ''}${won ? ' won' : ''}" style="--owner:${palette(state.game, i).fill}">
      <svg class="seat-icon" viewBox="0 0 100 100" aria-hidden="true">${emblemSvg(state.game, i)}</svg>
      <span class="player-name">${esc(p)}</span>
      <span class="player-seat">${esc(seatText(state, i))}</span>
      ${turn ? `<span class="turn-flag">${state.thinking ? 'thinking<span class="dots"></span>' : 'to move'}</span>` : ''}
      ${won ? '<span class="turn-flag win">winner</span>' : ''}
    </div>`;
  }).join('');
}

function statusText(state) {
  if (state.outcome) return state.outcome.text;
  const who = state.players[state.to_move] ?? '';
  if (state.thinking) return `${who}: computer thinking…`;
  if (canMove(state)) {
    const mine = mySeats().length;
    if (mine === state.seats.length || state.seats.filter((s) => s === 'human').length > 1 && mine > 1) return `${who} to move`;
    return `Your turn (${who})`;
  }
  if (state.seats[state.to_move] === 'human' && !tokenOf(state.to_move)) return `${who} to move (you are watching)`;
  return `${who} to move`;
}

function renderStatus(state) {
  const st = $('#status');
  st.textContent = statusText(state) + (state.check && !state.outcome ? ' — check!' : '');
  st.classList.toggle('over', !!state.outcome);
  st.classList.toggle('thinking', !!state.thinking && !state.outcome);
  $('#info').innerHTML = (state.info || []).map((l) => `<li>${esc(l)}</li>`).join('');
  const passes = canMove(state) && viewPly == null ? state.legal_cells.filter((m) => m.from == null && m.to == null) : [];
  $('#pass-box').hidden = passes.length === 0;
  $('#pass').textContent = passes.length === 1 && passes[0].text.toLowerCase() !== 'pass' ? `Pass (${passes[0].text})` : 'Pass';
  $('#pass').dataset.move = passes[0]?.text || '';
  const entry = $('#entry');
  entry.classList.toggle('disabled', !canMove(state) || viewPly != null);
  $('#move-text').disabled = !canMove(state) || viewPly != null;
  entry.querySelector('button').disabled = !canMove(state) || viewPly != null;
  $('#legal-list').innerHTML = canMove(state) ? state.legal.slice(0, 400).map((t) => `<option value="${esc(t)}">`).join('') : '';
  $('#resign').hidden = !!state.outcome || !anyToken() || !state.seats.some((s, i) => s === 'human' && tokenOf(i));
  // a move of ours to take back: one of our seats has moved (the server checks the rest)
  $('#takeback').hidden = !anyToken() || !state.history.some((m) => tokenOf(m.player));
  $('#takeback').disabled = posting;
  document.title = `${info?.name || state.game} · ${statusText(state)} · myrmidon`;
}

function renderMoves(state) {
  const n = state.players.length;
  const hist = state.history || [];
  const first = hist.length ? hist[0].player : (state.to_move ?? 0);
  const shown = viewPly ?? hist.length;
  let html = '';
  let row = -1;
  for (let i = 0; i < hist.length; i++) {
    const j = i + first;
    const r = Math.floor(j / n);
    if (r !== row) {
      if (row >= 0) html += '</li>';
      html += `<li class="move-row" style="--cols:${n}"><span class="move-no">${r + 1}.</span>`;
      if (i === 0) for (let k = 0; k < first; k++) html += '<span class="move empty">…</span>';
      row = r;
    }
    const h = hist[i];
    const cls = i + 1 === shown ? ' current' : '';
    html += `<button type="button" class="move${cls}" data-ply="${i + 1}" style="--owner:${palette(state.game, h.player).fill}" aria-label="move ${i + 1}, ${esc(state.players[h.player] || '')}: ${esc(h.text)}">${esc(h.text)}</button>`;
  }
  if (row >= 0) html += '</li>';
  if (!hist.length) html = '<li class="empty-moves">No moves yet.</li>';
  if (state.outcome) html += `<li class="result">${esc(state.outcome.text)}</li>`;
  const list = $('#moves');
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 30;
  list.innerHTML = html;
  const cur = list.querySelector('.move.current');
  if (viewPly != null && cur) cur.scrollIntoView({ block: 'nearest' });
  else if (atBottom || viewPly == null) list.scrollTop = list.scrollHeight;
}

function boardConfig(state, readOnly) {
  const last = state.history && state.history.length ? state.history[state.history.length - 1] : null;
  return {
    pieces: state.board,
    players: state.players,
    legal: readOnly ? [] : state.legal_cells,
    lastMove: last ? { from: last.from, to: last.to, captures: last.captures || [] } : null,
    check: !!state.check && !state.outcome,
    toMove: state.to_move,
    movable: !readOnly && canMove(state) && !posting,
  };
}

function render() {
  if (!live) return;
  const shownState = viewPly == null ? live : atCache.get(viewPly);
  renderPlayers(live);
  renderStatus(live);
  renderMoves(live);
  // while our move is on its way, keep the board as it is (the move shown at once)
  if (posting && viewPly == null) board.set({ movable: false });
  else if (shownState) board.set(boardConfig(shownState, viewPly != null));
  const v = $('#viewing');
  v.hidden = viewPly == null;
  if (viewPly != null) {
    const h = live.history[viewPly - 1];
    $('#viewing-text').textContent = viewPly === 0 ? 'Viewing the start position' : `Viewing move ${viewPly}: ${h ? h.text : ''}`;
  }
  document.body.classList.toggle('viewing-past', viewPly != null);
}

// Show a state from the server; false when it is dropped (another game's, or older than the one
// shown). `force`: show it even so (a takeback goes back: its state may have a lower version).
function applyState(state, { force = false } = {}) {
  if (!state || state.id !== gameId && state.id != null && gameId) return false;
  if (!force && live && state.version != null && live.version != null && state.version < live.version) return false;
  const firstTime = !live;
  // the positions of moves taken back are no longer the game's: forget them
  const moves = state.moves || [];
  for (const [k, st] of atCache) if (k > moves.length || (st.moves || []).some((m, i) => m !== moves[i])) atCache.delete(k);
  if (viewPly != null && viewPly >= moves.length) viewPly = null;
  live = state;
  if (firstTime && !flipChosen) {
    const mine = mySeats();
    flipped = state.players.length === 2 && mine.length === 1 && mine[0] === 1;
    board.set({ orientation: flipped });
  }
  render();
  return true;
}

// ---- navigation through the moves ----
async function view(ply) {
  if (!live) return;
  const max = live.history.length;
  if (ply == null || ply >= max) { viewPly = null; render(); return; }
  ply = Math.max(0, ply);
  viewPly = ply;
  if (!atCache.has(ply)) {
    render();
    try {
      const res = await fetch(`/api/games/${encodeURIComponent(gameId)}?at=${ply}`);
      const data = await res.json();
      if (!res.ok) throw new Error(data.error || `the server answered ${res.status}`);
      atCache.set(ply, data);
    } catch (ex) {
      showMessage(`Could not show move ${ply}: ${ex.message}`);
      viewPly = null;
    }
    if (viewPly !== ply) return;
  }
  render();
}

// ---- actions ----
async function post(path, body) {
  const res = await fetch(`/api/games/${encodeURIComponent(gameId)}/${path}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || `the server answered ${res.status}`);
  return data;
}

async function playMove(text) {
  if (!live || posting) return;
  const token = tokenOf(live.to_move) || anyToken();
  if (!token) { showMessage('You do not hold a seat in this game (no token on this browser).'); board.revert(); return; }
  showMessage('');
  posting = true;
  try {
    const state = await post('moves', { move: text, token });
    posting = false;
    // a newer state may have come by the WebSocket meanwhile (the computer's reply): then this
    // one is dropped, and the board, held still while posting, must show the newer one
    if (!applyState(state)) render();
    $('#move-text').value = '';
  } catch (ex) {
    posting = false;
    showMessage(ex.message);
    board.revert();
    render();
  }
}

async function takeback() {
  if (!live || posting) return;
  const token = anyToken();
  if (!token) return;
  showMessage('');
  posting = true;
  try {
    const state = await post('takeback', { token });
    posting = false;
    viewPly = null;
    applyState(state, { force: true });
  } catch (ex) {
    posting = false;
    showMessage(ex.message);
    render();
  }
}

let resignArmed = null;
async function resign() {
  if (!live || live.outcome) return;
  const mine = mySeats().filter((i) => live.seats[i] === 'human');
  if (!mine.length) return;
  // with every seat here, the player to move resigns; else our seat
  const seat = mine.includes(live.to_move) ? live.to_move : mine[0];
  const btn = $('#resign');
  if (!resignArmed) {
    btn.textContent = `Confirm: ${live.players[seat]} resigns`;
    btn.classList.add('armed');
    resignArmed = setTimeout(() => { resignArmed = null; btn.textContent = 'Resign'; btn.classList.remove('armed'); }, 4000);
    return;
  }
  clearTimeout(resignArmed);
  resignArmed = null;
  btn.textContent = 'Resign';
  btn.classList.remove('armed');
  try {
    applyState(await post('resign', { token: tokenOf(seat), seat }));
  } catch (ex) {
    showMessage(ex.message);
  }
}

async function copyPosition() {
  const state = viewPly == null ? live : atCache.get(viewPly);
  if (!state) return;
  const btn = $('#copy');
  try {
    await navigator.clipboard.writeText(state.position);
  } catch {
    const ta = document.createElement('textarea');
    ta.value = state.position;
    document.body.appendChild(ta);
    ta.select();
    try { document.execCommand('copy'); } catch { /* ignore */ }
    ta.remove();
  }
  btn.textContent = 'Copied ✓';
  setTimeout(() => { btn.textContent = 'Copy position'; }, 1500);
}

// ---- live updates ----
let ws = null;
let backoff = 500;
let wsVersion = null; // the version of the last state the WebSocket brought

function connect() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  ws = new WebSocket(`${proto}//${location.host}/api/games/${encodeURIComponent(gameId)}/ws`);
  ws.onopen = () => { backoff = 500; $('#conn').hidden = true; };
  ws.onmessage = (e) => {
    let state;
    try { state = JSON.parse(e.data); } catch { return; /* not a state */ }
    // the WebSocket brings the states in order: one older than the one before is a step back
    // (a takeback), to show even if a newer state came by another way
    const back = wsVersion != null && state.version != null && state.version < wsVersion;
    if (state.version != null) wsVersion = state.version;
    applyState(state, { force: back });
  };
  ws.onclose = () => {
    $('#conn').hidden = false;
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 10000);
  };
}

// ---- start ----
async function main() {
  board = createBoard($('#board'), { onMove: playMove, showNames });
  $('#names').setAttribute('aria-pressed', String(showNames));
  $('#flip').addEventListener('click', () => { flipped = !flipped; flipChosen = true; board.set({ orientation: flipped }); });
  $('#names').addEventListener('click', () => {
    showNames = !showNames;
    localStorage.setItem('myrmidon:names', showNames ? '1' : '0');
    $('#names').setAttribute('aria-pressed', String(showNames));
    board.set({ showNames });
  });
  $('#copy').addEventListener('click', copyPosition);
  $('#resign').addEventListener('click', resign);
  $('#takeback').addEventListener('click', takeback);
  $('#download').href = `/api/games/${encodeURIComponent(gameId)}/record`;
  $('#download').setAttribute('download', `myrmidon-${gameId}.pgn`);
  $('#pass').addEventListener('click', () => { if ($('#pass').dataset.move) playMove($('#pass').dataset.move); });
  $('#entry').addEventListener('submit', (e) => {
    e.preventDefault();
    const t = $('#move-text').value.trim();
    if (t) playMove(t);
  });
  $('#moves').addEventListener('click', (e) => {
    const b = e.target.closest('[data-ply]');
    if (b) view(+b.dataset.ply);
  });
  $('#back-live').addEventListener('click', () => view(null));
  $('#nav-first').addEventListener('click', () => view(0));
  $('#nav-prev').addEventListener('click', () => view((viewPly ?? live.history.length) - 1));
  $('#nav-next').addEventListener('click', () => viewPly != null && view(viewPly + 1));
  $('#nav-last').addEventListener('click', () => view(null));
  document.addEventListener('keydown', (e) => {
    if (!live || e.target.closest('input, textarea, select, [data-cell], .mb-chooser')) return;
    if (e.key === 'ArrowLeft') { e.preventDefault(); view((viewPly ?? live.history.length) - 1); }
    if (e.key === 'ArrowRight') { e.preventDefault(); if (viewPly != null) view(viewPly + 1); }
    if (e.key === 'Home') { e.preventDefault(); view(0); }
    if (e.key === 'End') { e.preventDefault(); view(null); }
    if (e.key === 'f' && !e.ctrlKey && !e.metaKey) $('#flip').click();
  });

  if (!gameId) { $('#status').textContent = 'No game id in the address.'; return; }
  try {
    const [gRes, sRes] = await Promise.all([fetch('/api/games'), fetch(`/api/games/${encodeURIComponent(gameId)}`)]);
    const state = await sRes.json().catch(() => ({}));
    if (!sRes.ok) throw new Error(state.error || `the server answered ${sRes.status}`);
    const games = await gRes.json();
    info = games.find((g) => g.id === state.game);
    if (!info) throw new Error(`unknown game kind ${state.game}`);
    $('#game-title').textContent = info.name;
    $('#move-text').placeholder = `e.g. ${state.legal?.[0] || info.pieces?.[0]?.letter || ''}`;
    board.set({
      game: info.id, board: info.board, pieceNames: info.pieces,
      optimistic: info.id !== 'epaminondas',
    });
    applyState(state);
  } catch (ex) {
    $('#status').textContent = `Could not load the game: ${ex.message}`;
    return;
  }
  connect();
}

main();
