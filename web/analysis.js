// @ts-check
// The analysis board, /analysis: any position of any game (?game=&position=), or a stored game
// (?from=<id>) to step through; the engine's lines as it searches deeper (op "analyse"), and for
// a stored game the evaluation graph (op "evals"). The engine runs in this browser (engine.js: a
// Web Worker with the WebAssembly module of the same rules and search), or on the server (the
// WebSocket /api/analysis, same messages) where WebAssembly is missing or `?engine=server`.
// Moves played on the board make a line from the position shown (the rules of the engine's
// module in this browser, else POST /api/explore with "moves"); the engine follows the
// position shown. The address
// keeps the line: ?game=&position=&moves=<texts>&ply=, or ?from=&at=<ply>&line=<texts>&ply=.
import { createBoard } from './board.js';
import { learnDrawings } from './pieces.js';
import { $, api, esc, moveListHtml } from './common.js';
import { localEngineAvailable, WorkerEngine } from './engine.js';
import { hereFailed, viewHere } from './local-game.js';

/** @type {import('./common.js').GameInfo[]} */
let games = []; // GET /api/games
/** @type {import('./common.js').GameInfo | null} */
let info = null; // the game on the board
/** @type {import('./common.js').GameState | null} */
let cur = null; // what the board shows: {game, position, board, players, to_move, legal_cells, check, outcome, lastMove, ply}
/** @type {import('./common.js').GameState | null} */
let stored = null; // a stored game's state (?from=)
// The user's line: `moves` played from the position string `base`, which is the position after
// `at` plies (of the stored game; 0 without one); `hist` the moves' history entries, `end` the
// server's answer after the last one. Without a stored game there is always a line (maybe of
// no moves); with one, only once a move off the game was played.
let line = null; // {base, at, moves, hist, end}
let lineGen = 0; // bumped whenever the line changes (answers for an older line are dropped)
let ply = 0; // the position shown: after this many plies (of the game, then of the line)
const atCache = new Map(); // stored game: ply -> state
// A position and its moves (as POST /api/explore answers): from the rules in this browser (the
// engine's module), else from the server.
/** @param {{game: string, position?: string | null, settings?: Record<string, string>, moves?: string[]}} body */
async function explore(body) {
  if (localEngineAvailable() && !hereFailed()) {
    try {
      return await viewHere(body);
    } catch (ex) {
      if (!hereFailed()) throw ex;
    }
  }
  return api('/api/explore', body);
}
let lineCache = new Map(); // the line: ply -> the explore answer
let busy = false; // a move of the board on its way to the server
/** @type {ReturnType<typeof createBoard> | null} */
let board = null;
let flipped = false;

// plies in all: of the game up to the line, then of the line
const total = () => (line ? line.at + line.moves.length : stored ? stored.moves.length : 0);
// is ply k a position of the stored game (not of the line)?
const onGame = (k) => !!stored && (!line || k <= line.at);


function showError(sel, text) {
  $(sel).textContent = text;
  $(sel).hidden = !text;
}

// ---------------------------------------------------------------- scores
const twoPlayers = () => (cur?.players.length ?? 2) === 2;
function fmtScore(s) {
  if (!s) return '–';
  if (s.mate != null) return s.mate > 0 ? `#${s.mate}` : `#-${-s.mate}`;
  const p = s.cp / 100;
  return `${p > 0 ? '+' : p < 0 ? '−' : ''}${Math.abs(p).toFixed(2)}`;
}
// The score shown: seat 0's view in two-player games, the mover's in three-player ones.
function shownScore(m) {
  if (!twoPlayers()) return m.score;
  if (m.first) return m.first;
  if (!m.score || cur?.to_move !== 1) return m.score;
  return m.score.mate != null ? { mate: -m.score.mate } : { cp: -m.score.cp };
}
function scoreView() {
  if (!cur) return '';
  if (twoPlayers()) return `Scores in pawns from ${cur.players[0]}'s side: + is good for ${cur.players[0]}, − for ${cur.players[1]}; #n: a win in n moves.`;
  return `Scores in pawns for the player to move${cur.to_move != null ? ` (${cur.players[cur.to_move]})` : ''}; #n: a win in n moves.`;
}

// ---------------------------------------------------------------- engine connections
// A WebSocket to /api/analysis that comes back when it drops; `onMessage(data)`, `onDown()`.
class EngineSocket {
  constructor(onMessage, onDown) {
    this.onMessage = onMessage;
    this.onDown = onDown;
    this.queue = [];
    this.backoff = 500;
    this.connect();
  }
  connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/analysis`);
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 500;
      this.up = true;
      connState();
      for (const m of this.queue.splice(0)) ws.send(m);
    };
    ws.onmessage = (e) => { try { this.onMessage(JSON.parse(e.data)); } catch (ex) { console.warn('analysis message', ex); } };
    ws.onclose = () => {
      const was = this.up;
      this.up = false;
      connState();
      if (was) this.onDown();
      setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 10000);
    };
  }
  get connecting() { return this.ws.readyState === WebSocket.CONNECTING; }
  send(obj) {
    const text = JSON.stringify(obj);
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else this.queue.push(text);
  }
}
let sockets = [];
function connState() {
  $('#conn').hidden = sockets.every((s) => s.up || s.connecting);
}
let seq = 0;

// ---------------------------------------------------------------- analysis
const engine = { id: null, running: false, lines: [], log: [], best: undefined };
let analysisSocket = null;
let engineWhere = ''; // 'browser' or 'server'

// The server's engine: where this browser cannot run it (or the worker failed: `why`). Jobs
// running go on there.
function useServerEngine(why) {
  if (engineWhere === 'server') return;
  if (why) console.warn(`the engine in this browser failed (${why}): the server's is used`);
  engineWhere = 'server';
  analysisSocket = new EngineSocket(onAnalysis, () => {
    if (engine.running) { engine.running = false; showError('#engine-error', 'The connection to the engine was lost; press Start again.'); renderEngine(); }
  });
  evalSocket = new EngineSocket(onEvals, () => {
    if (graph.running) { graph.running = false; graph.error = 'the connection to the engine was lost'; renderGraph(); }
  });
  sockets = [analysisSocket, evalSocket];
  if (engine.running) startAnalysis();
  if (graph.running) startEvals();
  if (cur) renderEngine();
}

// What the engine analyses: the position shown, with the moves that led to it (for repetitions).
function target() {
  if (onGame(ply)) return { game: stored.game, position: stored.start, moves: stored.moves.slice(0, ply) };
  if (line) return { game: cur.game, position: line.base, moves: line.moves.slice(0, ply - line.at) };
  return { game: cur.game, position: cur.position };
}

function startAnalysis() {
  if (!cur) return;
  engine.id = ++seq;
  engine.running = true;
  engine.lines = [];
  engine.log = [];
  engine.best = undefined;
  showError('#engine-error', '');
  analysisSocket.send({
    op: 'analyse', id: engine.id, ...target(),
    movetime: +$('#movetime').value, multipv: +$('#multipv').value,
  });
  renderEngine();
}
function stopAnalysis() {
  if (!engine.running) return;
  analysisSocket.send({ op: 'stop' });
  $('#go').disabled = true; // until the server says done
}
// the position changed: a running analysis goes on with the new one
function positionChanged() {
  if (engine.running) startAnalysis();
  else { engine.lines = []; engine.log = []; engine.best = undefined; engine.id = null; renderEngine(); }
}

function onAnalysis(m) {
  if (m.type === 'error' && (m.id == null || m.id === engine.id)) {
    showError('#engine-error', `The engine refused: ${m.error}`);
    if (m.id === engine.id) engine.running = false;
    renderEngine();
    return;
  }
  if (m.id !== engine.id) return; // an older job's
  if (m.type === 'info') {
    const k = (m.multipv || 1) - 1;
    engine.lines[k] = m;
    // a new depth: lines below it are from the depth before
    if (k === 0) {
      engine.lines.length = Math.max(1, engine.lines.length);
      engine.log.push(m);
    }
    renderEngine();
  } else if (m.type === 'done') {
    engine.running = false;
    engine.best = m.best;
    renderEngine();
  }
}

function renderEngine() {
  const go = $('#go');
  go.textContent = engine.running ? 'Stop' : 'Start';
  go.classList.toggle('primary', !engine.running);
  go.disabled = !cur || (!engine.running && cur.to_move == null);
  go.setAttribute('aria-pressed', String(engine.running));
  $('#score-view').textContent = scoreView();
  const where = $('#engine-where');
  where.textContent = engineWhere === 'browser' ? 'The engine thinks in this browser.' : 'The engine thinks on the server.';
  where.dataset.where = engineWhere;
  const top = engine.lines[0];
  $('#score').textContent = top ? fmtScore(shownScore(top)) : '–';
  let stats = '';
  if (top) {
    const kn = top.nodes >= 1e6 ? `${(top.nodes / 1e6).toFixed(1)}M` : top.nodes >= 1e3 ? `${Math.round(top.nodes / 1e3)}k` : `${top.nodes}`;
    stats = `depth ${top.depth}${top.seldepth ? `/${top.seldepth}` : ''} · ${kn} nodes · ${Math.round((top.nps || 0) / 1000)} kn/s · ${((top.time_ms || 0) / 1000).toFixed(1)} s`;
  }
  if (engine.running) stats = stats ? `${stats} · searching…` : 'searching…';
  else if (engine.best !== undefined) stats += `${stats ? ' · ' : ''}${engine.best ? `done, best move ${engine.best}` : 'done: no move to play here'}`;
  else if (cur && cur.to_move == null) stats = 'The game is over in this position: nothing to analyse.';
  else if (!top) stats = 'Press Start to let the engine think about this position.';
  $('#stats').textContent = stats;
  $('#lines').innerHTML = engine.lines.filter(Boolean).map((l) => {
    const pv = l.pv || [];
    return `<li class="an-line" data-multipv="${l.multipv || 1}"><span class="an-line-score">${esc(fmtScore(shownScore(l)))}</span>`
      + `<span class="an-pv">${pv.length ? `<span class="pv-first" data-move="${esc(pv[0])}">${esc(pv[0])}</span> ${esc(pv.slice(1).join(' '))}` : '—'}</span></li>`;
  }).join('');
  $('#log-count').textContent = String(engine.log.length);
  $('#log tbody').innerHTML = engine.log.slice().reverse().map((l) => `<tr><td>${l.depth}</td><td>${esc(fmtScore(shownScore(l)))}</td>`
    + `<td>${((l.time_ms || 0) / 1000).toFixed(1)} s</td><td class="pv">${esc((l.pv || []).join(' '))}</td></tr>`).join('');
  // the best move found, outlined on the board
  previewMove(top?.pv?.[0] ?? null);
}

function previewMove(text) {
  const m = text && cur ? (cur.legal_cells || []).find((x) => x.text === text) : null;
  board.set({ preview: m ? { from: m.from, to: m.to } : null });
}

// ---------------------------------------------------------------- the evaluation graph
const graph = { id: null, points: [], done: false, running: false };
let evalSocket = null;

function startEvals() {
  graph.id = ++seq;
  graph.points = [];
  graph.done = false;
  graph.running = true;
  graph.error = '';
  evalSocket.send({ op: 'evals', id: graph.id, game: stored.game, position: stored.start, moves: stored.moves, movetime: 100 });
  renderGraph();
}

function onEvals(m) {
  if (m.type === 'error' && (m.id == null || m.id === graph.id)) {
    graph.error = m.error;
    graph.running = false;
    renderGraph();
    return;
  }
  if (m.id !== graph.id) return;
  if (m.type === 'eval') { graph.points[m.ply] = m; renderGraph(); }
  if (m.type === 'evals_done') { graph.running = false; graph.done = true; renderGraph(); }
}

// seat 0's evaluation in pawns, clamped to ±10 (a mate, or the end, at the edge)
function pointValue(e, k) {
  const f = e.first;
  if (f) {
    if (f.mate != null) return { v: f.mate > 0 ? 10 : -10, cls: 'mate', text: fmtScore(f) };
    return { v: Math.max(-10, Math.min(10, f.cp / 100)), cls: '', text: fmtScore(f) };
  }
  if (e.score == null) {
    const w = k === stored.moves.length ? stored.outcome?.winner : null;
    return { v: w === 0 ? 10 : w === 1 ? -10 : 0, cls: 'over', text: e.outcome || 'the end' };
  }
  return null;
}

function renderGraph() {
  const card = $('#graph-card');
  card.hidden = !stored;
  if (!stored) return;
  const box = $('#graph');
  if (stored.players.length !== 2) {
    box.innerHTML = '';
    $('#graph-note').textContent = 'No evaluation graph for a three-player game: a score there is one player\'s view only. The engine\'s lines above still work.';
    return;
  }
  const n = stored.moves.length;
  const W = 340, H = 130, L = 26, R = 6, T = 6, B = 6;
  const x = (k) => L + (n ? (k * (W - L - R)) / n : (W - L - R) / 2);
  const y = (v) => T + ((10 - v) / 20) * (H - T - B);
  const pts = [];
  for (let k = 0; k <= n; k++) {
    const e = graph.points[k];
    const pv = e && pointValue(e, k);
    if (pv) pts.push({ k, ...pv });
  }
  let svg = `<rect class="eg-bg-up" x="${L}" y="${T}" width="${W - L - R}" height="${y(0) - T}"/>`
    + `<rect class="eg-bg-down" x="${L}" y="${y(0)}" width="${W - L - R}" height="${H - B - y(0)}"/>`
    + [5, -5].map((v) => `<line class="eg-grid" x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}"/>`).join('')
    + `<line class="eg-zero" x1="${L}" x2="${W - R}" y1="${y(0)}" y2="${y(0)}"/>`
    + `<text class="eg-label" x="${L - 4}" y="${y(10) + 7}" text-anchor="end">+10</text>`
    + `<text class="eg-label" x="${L - 4}" y="${y(0) + 3}" text-anchor="end">0</text>`
    + `<text class="eg-label" x="${L - 4}" y="${y(-10)}" text-anchor="end">−10</text>`;
  if (pts.length) {
    const line = pts.map((p, i) => `${i ? 'L' : 'M'}${x(p.k).toFixed(1)} ${y(p.v).toFixed(1)}`).join(' ');
    svg += `<path class="eg-area" d="${line} L${x(pts.at(-1).k).toFixed(1)} ${y(0)} L${x(pts[0].k).toFixed(1)} ${y(0)} Z"/>`;
    svg += `<path class="eg-line" d="${line}"/>`;
  }
  // (in a line of the user's: at the move of the game it leaves from)
  const at = onGame(ply) ? ply : line.at;
  svg += `<line class="eg-cursor${at !== ply ? ' off' : ''}" x1="${x(at)}" x2="${x(at)}" y1="${T}" y2="${H - B}"/>`;
  const r = n > 120 ? 1.6 : 2.4;
  svg += pts.map((p) => `<circle class="eg-point ${p.cls}${p.k === at ? ' current' : ''}" data-ply="${p.k}" cx="${x(p.k).toFixed(1)}" cy="${y(p.v).toFixed(1)}" r="${p.k === at ? r + 1.2 : r}"/>`).join('');
  // a column per ply to click
  const step = n ? (W - L - R) / n : W - L - R;
  for (let k = 0; k <= n; k++) {
    const p = pts.find((q) => q.k === k);
    const what = k === 0 ? 'the start' : `after move ${k} (${stored.moves[k - 1]})`;
    svg += `<rect class="eg-hit" data-ply="${k}" x="${(x(k) - step / 2).toFixed(1)}" y="${T}" width="${step.toFixed(2)}" height="${H - T - B}"><title>${esc(what)}${p ? `: ${esc(p.text)}` : ''}</title></rect>`;
  }
  box.innerHTML = `<svg class="eg-svg" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(`${stored.players[0]}'s evaluation after each move; click to go to a move`)}">${svg}</svg>`;
  let note;
  if (graph.error) note = `The graph could not be computed: ${graph.error}`;
  else if (graph.running) note = `Evaluating the positions… ${pts.length} of ${n + 1}`;
  else if (graph.done) note = `${stored.players[0]}'s side, in pawns (clamped to ±10; a mate at the edge), at 0.1 s a position. Click to go to a move.`;
  else note = '';
  $('#graph-note').textContent = note;
}

// ---------------------------------------------------------------- the board and the moves
// The moves up to the end of what can be stepped through: the game's, then the line's.
function listHistory() {
  if (!stored) return line ? line.hist : [];
  return line ? stored.history.slice(0, line.at).concat(line.hist) : stored.history;
}

function render() {
  if (!cur) return;
  // while a move of the board is on its way, the board keeps it (shown at once) and takes no other
  if (busy) board.set({ movable: false });
  else {
    board.set({
      pieces: cur.board, players: cur.players, legal: cur.legal_cells || [], toMove: cur.to_move,
      checkCells: cur.outcome ? [] : cur.check_cells || [], lastMove: cur.lastMove || null,
      movable: cur.to_move != null && (cur.legal_cells || []).length > 0,
    });
  }
  // a pass (no cells to click): a button
  const passes = (cur.legal_cells || []).filter((m) => m.from == null && m.to == null);
  const pass = $('#pass');
  pass.hidden = !passes.length;
  pass.disabled = busy;
  pass.dataset.move = passes[0]?.text || '';
  pass.textContent = passes.length && passes[0].text.toLowerCase() !== 'pass' ? `Pass (${passes[0].text})` : 'Pass';
  const st = $('#status');
  let text = cur.outcome ? cur.outcome.text : `${cur.players[cur.to_move]} to move${cur.check ? ' — check' : ''}`;
  if (stored || total() > 0) {
    const hist = listHistory();
    text = `${ply === 0 ? 'Start' : `After move ${ply}, ${hist[ply - 1]?.text ?? ''}`} · ${text}`;
  }
  st.textContent = text;
  st.classList.toggle('over', !!cur.outcome);
  $('#position').value = cur.position;
  renderMoves();
  renderGraph();
  renderEngine();
}

function renderMoves() {
  let state, lineFrom;
  if (stored && !line) state = stored;
  else if (stored) {
    state = { ...stored, history: listHistory(), outcome: line.end?.outcome ?? null };
    lineFrom = line.at;
  } else {
    const root = lineCache.get(0);
    state = {
      game: info.id, players: cur.players, start: line?.base, history: listHistory(),
      first_move_number: (line?.end ?? root)?.first_move_number,
      to_move: root?.to_move ?? cur.to_move, outcome: (line?.moves.length ? line.end : root)?.outcome ?? null,
    };
  }
  $('#moves').innerHTML = moveListHtml(state, ply, stored ? 'No moves in this game.' : 'No moves yet: play one on the board.', { lineFrom });
  const note = $('#line-note');
  note.hidden = !(stored && line);
  if (stored && line) $('#line-text').textContent = `Your line after move ${line.at} of the game`;
  // the current move in view, scrolling the list only (not the page)
  const list = $('#moves');
  const c = list.querySelector('.move.current');
  if (c) {
    const lr = list.getBoundingClientRect(), cr = c.getBoundingClientRect();
    if (cr.top < lr.top || cr.bottom > lr.bottom) list.scrollTop += cr.top - lr.top - (lr.height - cr.height) / 2;
  }
}

function fromState(st) {
  const last = st.history?.length ? st.history.at(-1) : null;
  return {
    game: st.game, position: st.position, board: st.board, players: st.players, to_move: st.to_move,
    legal_cells: st.legal_cells || [], check: st.check, check_cells: st.check_cells || [], outcome: st.outcome,
    lastMove: last ? { from: last.from, to: last.to, captures: last.captures || [] } : null,
  };
}

// The state after `k` plies: of the stored game (GET ?at=) or of the line (POST /api/explore).
async function stateAt(k) {
  if (onGame(k)) {
    if (k === stored.moves.length) return stored;
    let st = atCache.get(k);
    if (!st) {
      st = await api(`/api/games/${encodeURIComponent(stored.id)}?at=${k}`);
      atCache.set(k, st);
    }
    return st;
  }
  let st = lineCache.get(k);
  if (!st) {
    const gen = lineGen;
    st = await explore({ game: info.id, position: line.base, moves: line.moves.slice(0, k - line.at) });
    if (gen === lineGen) lineCache.set(k, st);
  }
  return st;
}

function updateAddress() {
  const q = new URLSearchParams();
  if (stored) {
    q.set('from', stored.id);
    if (line) { q.set('at', String(line.at)); q.set('line', line.moves.join(' ')); }
  } else {
    q.set('game', info.id);
    q.set('position', line.base);
    if (line.moves.length) q.set('moves', line.moves.join(' '));
  }
  if (ply !== total()) q.set('ply', String(ply));
  history.replaceState(null, '', `/analysis?${q}`);
}

// Show the position after `k` plies.
async function goTo(k) {
  if (!stored && !line) return;
  k = Math.max(0, Math.min(total(), Number.isFinite(k) ? k : total()));
  const was = ply;
  ply = k;
  const gen = lineGen;
  let st;
  try {
    st = await stateAt(k);
  } catch (ex) {
    if (ply === k && gen === lineGen) {
      ply = was;
      showError('#line-error', `Could not show move ${k}: ${ex.message}`);
      render(); // (the board as it was: a move shown at once on it is undone)
    }
    return;
  }
  if (ply !== k || gen !== lineGen) return; // another step meanwhile
  showError('#line-error', '');
  cur = { ...fromState(st), ply: k };
  updateAddress();
  render();
  positionChanged();
}

// A move played on the board from the position shown: along the game or the line when it is
// their next move, else a new line from here (the line after it is dropped).
async function playMove(text) {
  if (busy || !cur) return;
  const k = cur.ply ?? ply; // (the position on the board, even while another is on its way)
  const next = (k < total()) ? listHistory()[k]?.text : undefined;
  if (next === text) { goTo(k + 1); return; }
  let want;
  if (onGame(k) && stored) want = { base: cur.position, at: k, moves: [text] };
  else want = { base: line.base, at: line.at, moves: line.moves.slice(0, k - line.at).concat(text) };
  busy = true;
  showError('#line-error', '');
  let st;
  try {
    st = await explore({ game: info.id, position: want.base, moves: want.moves });
  } catch (ex) {
    busy = false;
    board.revert();
    showError('#line-error', `The move ${text} was refused: ${ex.message}`);
    render();
    return;
  }
  busy = false;
  // the answers for the plies the old line shares with the new one stay good
  const kept = new Map();
  if (line && line.base === want.base && line.at === want.at) for (const [p, v] of lineCache) if (p <= k) kept.set(p, v);
  line = { base: want.base, at: want.at, moves: st.moves, hist: st.history, end: st };
  lineGen++;
  lineCache = kept;
  lineCache.set(want.at + st.moves.length, st);
  await goTo(k + 1);
}

// Off the line, back to the stored game (at the move the line left it).
function backToGame() {
  if (!stored || !line) return;
  const at = Math.min(ply, line.at);
  line = null;
  lineGen++;
  lineCache = new Map();
  goTo(at);
}

// ---------------------------------------------------------------- choosing a position
function setGame(id) {
  const changed = !info || info.id !== id;
  info = games.find((g) => g.id === id);
  if (!info) throw new Error(`unknown game "${id}"`);
  $('#game').value = id;
  $('#rules-link').href = `/rules/${encodeURIComponent(id)}`;
  document.title = `Analysis · ${info.name} · myrmidon`;
  if (changed) {
    $('#settings').innerHTML = (info.settings || []).map((s) => `<select name="${esc(s.name)}" aria-label="${esc(s.name)}" title="${esc(s.help || s.name)}">`
      + s.values.map((v) => `<option${v === s.default ? ' selected' : ''}>${esc(v)}</option>`).join('') + `</select>`).join('');
    board.set({ game: id, board: info.board, pieceNames: info.pieces, pieces: [], legal: [], lastMove: null, preview: null });
    localStorage.setItem('myrmidon:last-game', id);
  }
}
function settings() {
  const out = {};
  for (const s of info?.settings || []) out[s.name] = $(`#settings select[name="${s.name}"]`)?.value ?? s.default;
  return out;
}

// A position of `game` (a position string, or the start for its settings): no stored game then.
// `moves`: a line to play from it (a line refused is said, and the position shown without it);
// `at`: the ply to show (default: the end of the line).
async function loadFree(game, position, moves = [], at = null) {
  showError('#setup-error', '');
  showError('#line-error', '');
  const was = info?.id;
  try {
    setGame(game);
    const st = await explore(position ? { game, position } : { game, settings: settings() });
    let end = st;
    if (moves.length) {
      try {
        end = await explore({ game, position: st.position, moves });
      } catch (ex) {
        showError('#line-error', `The line of the address was refused: ${ex.message}`);
      }
    }
    stored = null;
    atCache.clear();
    graph.id = null;
    line = { base: st.position, at: 0, moves: end.moves || [], hist: end.history || [], end: end === st ? null : end };
    lineGen++;
    lineCache = new Map([[0, st], [line.moves.length, end]]);
    $('#source').hidden = true;
    await goTo(at == null || Number.isNaN(at) ? Infinity : at);
    return true;
  } catch (ex) {
    showError('#setup-error', `Could not load that position: ${ex.message}`);
    // the board stays as it was
    if (was && was !== game && cur) { setGame(was); render(); }
    return false;
  }
}

// A stored game; `at`, `moves`: a line of the user's from the position after `at` plies.
async function loadStored(id, show, at = null, moves = []) {
  let st;
  try {
    st = await api(`/api/games/${encodeURIComponent(id)}`);
  } catch (ex) {
    showError('#setup-error', `Could not load game ${id}: ${ex.message}`);
    return false;
  }
  setGame(st.game);
  stored = st;
  atCache.clear();
  line = null;
  lineGen++;
  lineCache = new Map();
  const src = $('#source');
  src.innerHTML = `Game <a href="/game/${encodeURIComponent(st.id)}">${esc(st.id)}</a>: ${esc(st.players.join(' – '))}, ${st.moves.length} moves`
    + (st.outcome ? ` · ${esc(st.outcome.text)}` : ' · still going on');
  src.hidden = false;
  if (moves.length && at != null && at >= 0 && at <= st.moves.length) {
    try {
      const from = at === st.moves.length ? st : await api(`/api/games/${encodeURIComponent(id)}?at=${at}`);
      const end = await explore({ game: st.game, position: from.position, moves });
      line = { base: from.position, at, moves: end.moves, hist: end.history, end };
      lineCache.set(at + end.moves.length, end);
    } catch (ex) {
      showError('#line-error', `The line of the address was refused: ${ex.message}`);
    }
  }
  await goTo(show == null || Number.isNaN(show) ? Infinity : show);
  if (st.players.length === 2) startEvals(); else renderGraph();
  return true;
}

// ---------------------------------------------------------------- start
async function main() {
  board = createBoard($('#board'), { movable: false, animation: true, onMove: playMove });
  if (localEngineAvailable()) {
    analysisSocket = new WorkerEngine(onAnalysis, useServerEngine);
    evalSocket = new WorkerEngine(onEvals, useServerEngine);
    engineWhere = 'browser';
  } else useServerEngine('');

  $('#go').addEventListener('click', () => (engine.running ? stopAnalysis() : startAnalysis()));
  $('#multipv').addEventListener('change', () => { if (engine.running) startAnalysis(); });
  $('#movetime').addEventListener('change', () => { if (engine.running) startAnalysis(); });
  $('#flip').addEventListener('click', () => { flipped = !flipped; board.set({ orientation: flipped }); });
  $('#setup').addEventListener('submit', (e) => {
    e.preventDefault();
    const p = $('#position').value.trim();
    if (p) loadFree($('#game').value, p);
  });
  $('#game').addEventListener('change', () => loadFree($('#game').value, null));
  $('#settings').addEventListener('change', () => loadFree(info.id, null));
  $('#start-pos').addEventListener('click', () => loadFree(info.id, null));
  $('#copy').addEventListener('click', async () => {
    const btn = $('#copy');
    try { await navigator.clipboard.writeText(cur.position); btn.textContent = 'Copied ✓'; } catch { $('#position').select(); btn.textContent = 'Press Ctrl+C'; }
    setTimeout(() => { btn.textContent = 'Copy position'; }, 1500);
  });
  $('#lines').addEventListener('pointerover', (e) => {
    const f = e.target.closest('.pv-first');
    if (f) previewMove(f.dataset.move);
  });
  $('#lines').addEventListener('pointerout', (e) => { if (e.target.closest('.pv-first')) previewMove(engine.lines[0]?.pv?.[0] ?? null); });
  $('#moves').addEventListener('click', (e) => { const b = e.target.closest('[data-ply]'); if (b) goTo(+b.dataset.ply); });
  $('#graph').addEventListener('click', (e) => {
    const b = e.target.closest('[data-ply]');
    if (!b) return;
    // a move of the game: off the line (if any) at a move after the one it leaves from
    if (line && +b.dataset.ply > line.at) { line = null; lineGen++; lineCache = new Map(); }
    goTo(+b.dataset.ply);
  });
  $('#back-game').addEventListener('click', backToGame);
  $('#pass').addEventListener('click', () => { if ($('#pass').dataset.move) playMove($('#pass').dataset.move); });
  $('#nav-first').addEventListener('click', () => goTo(0));
  $('#nav-prev').addEventListener('click', () => goTo(ply - 1));
  $('#nav-next').addEventListener('click', () => goTo(ply + 1));
  $('#nav-last').addEventListener('click', () => goTo(Infinity));
  document.addEventListener('keydown', (e) => {
    if ((!stored && !line) || /** @type {Element} */ (e.target).closest('input, textarea, select, [data-cell], .mb-chooser')) return;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: Infinity }[e.key];
    if (to !== undefined) { e.preventDefault(); goTo(to); }
  });

  try {
    games = await api('/api/games');
    learnDrawings(games);
  } catch (ex) {
    $('#status').textContent = `Could not load the games: ${ex.message}`;
    return;
  }
  $('#game').innerHTML = games.map((g) => `<option value="${esc(g.id)}">${esc(g.name)}</option>`).join('');
  const q = new URLSearchParams(location.search);
  let ok = false;
  const movesOf = (name) => (q.get(name) || '').split(/\s+/).filter(Boolean);
  if (q.get('from')) ok = await loadStored(q.get('from'), q.has('ply') ? +q.get('ply') : null, q.has('at') ? +q.get('at') : null, movesOf('line'));
  if (!ok) {
    let game = q.get('game') || localStorage.getItem('myrmidon:last-game');
    if (!games.some((g) => g.id === game)) game = games[0].id;
    setGame(game);
    ok = await loadFree(game, q.get('position'), movesOf('moves'), q.has('ply') ? +q.get('ply') : null);
    // a position refused: the game's start, with the error kept in view
    if (!ok && q.get('position')) {
      const err = $('#setup-error').textContent;
      await loadFree(game, null);
      showError('#setup-error', err);
      $('#position').value = q.get('position');
    }
  }
  document.body.dataset.ready = '1';
}

main();
