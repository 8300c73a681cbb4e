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
import { $, api, errorText, esc, localGame, localState, moveListHtml, outcomeText, playerArgs, playerNumbers } from './common.js';
import { t } from './i18n.js';
import { localEngineAvailable, WorkerEngine } from './engine.js';
import { hereFailed, viewHere } from './local-game.js';

/** @typedef {import('./common.js').GameState} GameState */
/** A score as the engine gives it: centipawns, or a mate in so many moves (negative: mated). @typedef {{cp?: number, mate?: number | null}} Score */
/**
 * A message of the engine (docs/api.md, the analysis socket): an `info` line of a search, its
 * `done`, an `eval` of a stored game's position and `evals_done`, or an `error`.
 * @typedef {Object} EngineMessage
 * @property {string} type
 * @property {number | null} [id]
 * @property {string} [error]
 * @property {number} [multipv]
 * @property {string[]} [pv]
 * @property {number} [depth]
 * @property {number} [seldepth]
 * @property {number} [nodes]
 * @property {number} [nps]
 * @property {number} [time_ms]
 * @property {Score | null} [score]  the mover's
 * @property {Score | null} [first]  the first player's (two-player games)
 * @property {string | null} [best]
 * @property {number} [ply]
 * @property {string} [outcome]
 */
/** Where the engine's jobs go: the Web Worker (engine.js) or the server's socket. @typedef {{send: (job: object) => void}} Engine */
/**
 * The user's line (below).
 * @typedef {{base: string, at: number, moves: string[], hist: {text: string}[], end: GameState | null}} Line
 */

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
/** @type {Line | null} */
let line = null;
let lineGen = 0; // bumped whenever the line changes (answers for an older line are dropped)
let ply = 0; // the position shown: after this many plies (of the game, then of the line)
/** @type {Map<number, GameState>} */
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
/** @type {Map<number, GameState>} */
let lineCache = new Map(); // the line: ply -> the explore answer
let busy = false; // a move of the board on its way to the server
/** @type {ReturnType<typeof createBoard> | null} */
let board = null;
let flipped = false;

// plies in all: of the game up to the line, then of the line
const total = () => (line ? line.at + line.moves.length : stored ? stored.moves.length : 0);
// is ply k a position of the stored game (not of the line)?
/** @param {number} k */
const onGame = (k) => !!stored && (!line || k <= line.at);


/** @param {string} sel @param {string} text */
function showError(sel, text) {
  $(sel).textContent = text;
  $(sel).hidden = !text;
}

// ---------------------------------------------------------------- scores
const twoPlayers = () => (cur?.players.length ?? 2) === 2;
/** @param {Score | null | undefined} s */
function fmtScore(s) {
  if (!s) return '–';
  if (s.mate != null) return s.mate > 0 ? `#${s.mate}` : `#-${-s.mate}`;
  const p = (s.cp ?? 0) / 100;
  return `${p > 0 ? '+' : p < 0 ? '−' : ''}${Math.abs(p).toFixed(2)}`;
}
// The score shown: seat 0's view in two-player games, the mover's in three-player ones.
/** @param {EngineMessage} m @returns {Score | null | undefined} */
function shownScore(m) {
  if (!twoPlayers()) return m.score;
  if (m.first) return m.first;
  if (!m.score || cur?.to_move !== 1) return m.score;
  return m.score.mate != null ? { mate: -m.score.mate } : { cp: -(m.score.cp ?? 0) };
}
function scoreView() {
  if (!cur) return '';
  if (twoPlayers()) {
    const first = playerArgs(cur, 0);
    return t('an-scores-two', { first: first.player, number: first.number, second: cur.players[1] });
  }
  return cur.to_move != null ? t('an-scores-mover-named', playerArgs(cur, cur.to_move)) : t('an-scores-mover');
}

// ---------------------------------------------------------------- engine connections
// A WebSocket to /api/analysis that comes back when it drops; `onMessage(data)`, `onDown()`.
class EngineSocket {
  /** @param {(m: EngineMessage) => void} onMessage @param {() => void} onDown */
  constructor(onMessage, onDown) {
    this.onMessage = onMessage;
    this.onDown = onDown;
    /** @type {string[]} */
    this.queue = [];
    this.backoff = 500;
    this.up = false;
    this.ws = this.open();
  }
  connect() { this.ws = this.open(); }
  open() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/analysis`);
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
    return ws;
  }
  get connecting() { return this.ws.readyState === WebSocket.CONNECTING; }
  /** @param {object} obj */
  send(obj) {
    const text = JSON.stringify(obj);
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else this.queue.push(text);
  }
}
/** @type {(EngineSocket | WorkerEngine)[]} */
let sockets = [];
function connState() {
  $('#conn').hidden = sockets.every((s) => s.up || s.connecting);
}
let seq = 0;

// ---------------------------------------------------------------- analysis
/** @type {{id: number | null, running: boolean, lines: EngineMessage[], log: EngineMessage[], best: string | null | undefined}} */
const engine = { id: null, running: false, lines: [], log: [], best: undefined };
/** @type {Engine | null} */
let analysisSocket = null;
let engineWhere = ''; // 'browser' or 'server'

// The server's engine: where this browser cannot run it (or the worker failed: `why`). Jobs
// running go on there.
/** @param {string} why */
function useServerEngine(why) {
  if (engineWhere === 'server') return;
  if (why) console.warn(`the engine in this browser failed (${why}): the server's is used`);
  engineWhere = 'server';
  const analysis = new EngineSocket(onAnalysis, () => {
    if (engine.running) { engine.running = false; showError('#engine-error', t('an-engine-lost')); renderEngine(); }
  });
  const evals = new EngineSocket(onEvals, () => {
    if (graph.running) { graph.running = false; graph.error = t('an-graph-lost'); renderGraph(); }
  });
  analysisSocket = analysis;
  evalSocket = evals;
  sockets = [analysis, evals];
  if (engine.running) startAnalysis();
  if (graph.running) startEvals();
  if (cur) renderEngine();
}

// What the engine analyses: the position shown, with the moves that led to it (for repetitions).
/** @param {GameState} shown  the position on the board */
function target(shown) {
  if (stored && onGame(ply)) return { game: stored.game, position: stored.start, moves: stored.moves.slice(0, ply) };
  if (line) return { game: shown.game, position: line.base, moves: line.moves.slice(0, ply - line.at) };
  return { game: shown.game, position: shown.position };
}

function startAnalysis() {
  if (!cur) return;
  engine.id = ++seq;
  engine.running = true;
  engine.lines = [];
  engine.log = [];
  engine.best = undefined;
  showError('#engine-error', '');
  analysisSocket?.send({
    op: 'analyse', id: engine.id, ...target(cur),
    movetime: +$('#movetime').value, multipv: +$('#multipv').value,
  });
  renderEngine();
}
function stopAnalysis() {
  if (!engine.running) return;
  analysisSocket?.send({ op: 'stop' });
  $('#go').disabled = true; // until the server says done
}
// the position changed: a running analysis goes on with the new one
function positionChanged() {
  if (engine.running) startAnalysis();
  else { engine.lines = []; engine.log = []; engine.best = undefined; engine.id = null; renderEngine(); }
}

/** @param {EngineMessage} m */
function onAnalysis(m) {
  if (m.type === 'error' && (m.id == null || m.id === engine.id)) {
    showError('#engine-error', t('an-engine-refused', { error: m.error }));
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
  go.textContent = t(engine.running ? 'an-stop' : 'an-start');
  go.classList.toggle('primary', !engine.running);
  go.disabled = !cur || (!engine.running && cur.to_move == null);
  go.setAttribute('aria-pressed', String(engine.running));
  $('#score-view').textContent = scoreView();
  const where = $('#engine-where');
  where.textContent = t(engineWhere === 'browser' ? 'an-engine-browser' : 'an-engine-server');
  where.dataset.where = engineWhere;
  const top = engine.lines[0];
  $('#score').textContent = top ? fmtScore(shownScore(top)) : '–';
  let stats = '';
  if (top) {
    const nodes = top.nodes ?? 0;
    const kn = nodes >= 1e6 ? `${(nodes / 1e6).toFixed(1)}M` : nodes >= 1e3 ? `${Math.round(nodes / 1e3)}k` : `${nodes}`;
    stats = t('an-stats', { depth: `${top.depth}${top.seldepth ? `/${top.seldepth}` : ''}`, nodes: kn, knps: String(Math.round((top.nps || 0) / 1000)), seconds: ((top.time_ms || 0) / 1000).toFixed(1) });
  }
  if (engine.running) stats = stats ? `${stats} · ${t('an-searching')}` : t('an-searching');
  else if (engine.best !== undefined) stats += `${stats ? ' · ' : ''}${engine.best ? t('an-done-best', { move: engine.best }) : t('an-done-none')}`;
  else if (cur && cur.to_move == null) stats = t('an-over');
  else if (!top) stats = t('an-press-start');
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

/** @param {string | null | undefined} text */
function previewMove(text) {
  /** @type {import('./board/state.js').Move[]} */
  const legal = cur?.legal_cells || [];
  const m = text ? legal.find((x) => x.text === text) : null;
  board?.set({ preview: m ? { from: m.from, to: m.to } : null });
}

// ---------------------------------------------------------------- the evaluation graph
/** @type {{id: number | null, points: EngineMessage[], done: boolean, running: boolean, error: string}} */
const graph = { id: null, points: [], done: false, running: false, error: '' };
/** @type {Engine | null} */
let evalSocket = null;

function startEvals() {
  if (!stored) return;
  graph.id = ++seq;
  graph.points = [];
  graph.done = false;
  graph.running = true;
  graph.error = '';
  evalSocket?.send({ op: 'evals', id: graph.id, game: stored.game, position: stored.start, moves: stored.moves, movetime: 100 });
  renderGraph();
}

/** @param {EngineMessage} m */
function onEvals(m) {
  if (m.type === 'error' && (m.id == null || m.id === graph.id)) {
    graph.error = m.error ?? '';
    graph.running = false;
    renderGraph();
    return;
  }
  if (m.id !== graph.id) return;
  if (m.type === 'eval' && m.ply != null) { graph.points[m.ply] = m; renderGraph(); }
  if (m.type === 'evals_done') { graph.running = false; graph.done = true; renderGraph(); }
}

// seat 0's evaluation in pawns, clamped to ±10 (a mate, or the end, at the edge)
/** @param {EngineMessage} e @param {number} k @param {GameState} game  the stored game */
function pointValue(e, k, game) {
  const f = e.first;
  if (f) {
    if (f.mate != null) return { v: f.mate > 0 ? 10 : -10, cls: 'mate', text: fmtScore(f) };
    return { v: Math.max(-10, Math.min(10, (f.cp ?? 0) / 100)), cls: '', text: fmtScore(f) };
  }
  if (e.score == null) {
    const w = k === game.moves.length ? game.outcome?.winner : null;
    return { v: w === 0 ? 10 : w === 1 ? -10 : 0, cls: 'over', text: e.outcome || t('an-graph-end') };
  }
  return null;
}

function renderGraph() {
  const card = $('#graph-card');
  const game = stored;
  card.hidden = !game;
  if (!game) return;
  const box = $('#graph');
  if (game.players.length !== 2) {
    box.innerHTML = '';
    $('#graph-note').textContent = t('an-graph-three');
    return;
  }
  const n = game.moves.length;
  const W = 340, H = 130, L = 26, R = 6, T = 6, B = 6;
  /** @param {number} k */
  const x = (k) => L + (n ? (k * (W - L - R)) / n : (W - L - R) / 2);
  /** @param {number} v */
  const y = (v) => T + ((10 - v) / 20) * (H - T - B);
  /** @type {{k: number, v: number, cls: string, text: string}[]} */
  const pts = [];
  for (let k = 0; k <= n; k++) {
    const e = graph.points[k];
    const pv = e && pointValue(e, k, game);
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
    svg += `<path class="eg-area" d="${line} L${x(pts[pts.length - 1].k).toFixed(1)} ${y(0)} L${x(pts[0].k).toFixed(1)} ${y(0)} Z"/>`;
    svg += `<path class="eg-line" d="${line}"/>`;
  }
  // (in a line of the user's: at the move of the game it leaves from)
  const at = onGame(ply) || !line ? ply : line.at;
  svg += `<line class="eg-cursor${at !== ply ? ' off' : ''}" x1="${x(at)}" x2="${x(at)}" y1="${T}" y2="${H - B}"/>`;
  const r = n > 120 ? 1.6 : 2.4;
  svg += pts.map((p) => `<circle class="eg-point ${p.cls}${p.k === at ? ' current' : ''}" data-ply="${p.k}" cx="${x(p.k).toFixed(1)}" cy="${y(p.v).toFixed(1)}" r="${p.k === at ? r + 1.2 : r}"/>`).join('');
  // a column per ply to click
  const step = n ? (W - L - R) / n : W - L - R;
  for (let k = 0; k <= n; k++) {
    const p = pts.find((q) => q.k === k);
    const what = k === 0 ? t('an-graph-start') : t('an-graph-after', { n: k, move: game.moves[k - 1] });
    svg += `<rect class="eg-hit" data-ply="${k}" x="${(x(k) - step / 2).toFixed(1)}" y="${T}" width="${step.toFixed(2)}" height="${H - T - B}"><title>${esc(what)}${p ? `: ${esc(p.text)}` : ''}</title></rect>`;
  }
  box.innerHTML = `<svg class="eg-svg" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(t('an-graph-label', playerArgs(game, 0)))}">${svg}</svg>`;
  let note;
  if (graph.error) note = t('an-graph-failed', { error: graph.error });
  else if (graph.running) note = t('an-graph-running', { done: pts.length, total: n + 1 });
  else if (graph.done) note = t('an-graph-done', playerArgs(game, 0));
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
  if (!cur || !board) return;
  // while a move of the board is on its way, the board keeps it (shown at once) and takes no other
  if (busy) board.set({ movable: false });
  else {
    board.set({
      pieces: cur.board, players: cur.players, playerNumbers: playerNumbers(cur), legal: cur.legal_cells || [], toMove: cur.to_move,
      checkCells: cur.outcome ? [] : cur.check_cells || [], lastMove: cur.lastMove || null,
      movable: cur.to_move != null && (cur.legal_cells || []).length > 0,
    });
  }
  // a pass (no cells to click): a button
  /** @type {import('./board/state.js').Move[]} */
  const legal = cur.legal_cells || [];
  const passes = legal.filter((m) => m.from == null && m.to == null);
  const pass = $('#pass');
  pass.hidden = !passes.length;
  pass.disabled = busy;
  pass.dataset.move = passes[0]?.text || '';
  pass.textContent = passes.length && passes[0].text.toLowerCase() !== 'pass' ? t('pass-with', { move: passes[0].text }) : t('pass');
  const st = $('#status');
  let text = cur.outcome ? outcomeText(cur) : `${t('status-to-move', playerArgs(cur, cur.to_move))}${cur.check ? t('status-check') : ''}`;
  if (stored || total() > 0) {
    const hist = listHistory();
    text = ply === 0 ? t('an-status-start', { status: text }) : t('an-status-after', { n: ply, move: hist[ply - 1]?.text ?? '', status: text });
  }
  st.textContent = text;
  st.classList.toggle('over', !!cur.outcome);
  $('#position').value = cur.position;
  renderMoves();
  renderGraph();
  renderEngine();
}

function renderMoves() {
  /** @type {GameState} */
  let state;
  /** @type {number | undefined} */
  let lineFrom;
  if (stored && !line) state = stored;
  else if (stored && line) {
    state = { ...stored, history: listHistory(), outcome: line.end?.outcome ?? null };
    lineFrom = line.at;
  } else {
    const root = lineCache.get(0);
    state = {
      game: info?.id, players: cur?.players, start: line?.base, history: listHistory(),
      first_move_number: (line?.end ?? root)?.first_move_number,
      to_move: root?.to_move ?? cur?.to_move, outcome: (line?.moves.length ? line.end : root)?.outcome ?? null,
    };
  }
  $('#moves').innerHTML = moveListHtml(state, ply, t(stored ? 'an-moves-none-game' : 'an-moves-none'), { lineFrom });
  const note = $('#line-note');
  note.hidden = !(stored && line);
  if (stored && line) $('#line-text').textContent = t('an-line-after', { n: line.at });
  // the current move in view, scrolling the list only (not the page)
  const list = $('#moves');
  const c = list.querySelector('.move.current');
  if (c) {
    const lr = list.getBoundingClientRect(), cr = c.getBoundingClientRect();
    if (cr.top < lr.top || cr.bottom > lr.bottom) list.scrollTop += cr.top - lr.top - (lr.height - cr.height) / 2;
  }
}

/** @param {GameState} st @returns {GameState} */
function fromState(st) {
  const last = st.history?.length ? st.history.at(-1) : null;
  return localState({
    game: st.game, position: st.position, board: st.board, players: st.players, players_number: st.players_number, to_move: st.to_move, eliminated: st.eliminated || [],
    legal_cells: st.legal_cells || [], check: st.check, check_cells: st.check_cells || [], outcome: st.outcome,
    lastMove: last ? { from: last.from, to: last.to, captures: last.captures || [] } : null,
  });
}

// The state after `k` plies: of the stored game (GET ?at=) or of the line (POST /api/explore).
/** @param {number} k @returns {Promise<GameState>} */
async function stateAt(k) {
  if (stored && onGame(k)) {
    if (k === stored.moves.length) return stored;
    const kept = atCache.get(k);
    if (kept) return kept;
    const st = await api(`/api/games/${encodeURIComponent(stored.id)}?at=${k}`);
    atCache.set(k, st);
    return st;
  }
  const kept = lineCache.get(k);
  if (kept) return kept;
  if (!line || !info) throw new Error(`no position after ${k} moves`);
  const gen = lineGen;
  const st = await explore({ game: info.id, position: line.base, moves: line.moves.slice(0, k - line.at) });
  if (gen === lineGen) lineCache.set(k, st);
  return st;
}

function updateAddress() {
  const q = new URLSearchParams();
  if (stored) {
    q.set('from', stored.id);
    if (line) { q.set('at', String(line.at)); q.set('line', line.moves.join(' ')); }
  } else if (info && line) {
    q.set('game', info.id);
    q.set('position', line.base);
    if (line.moves.length) q.set('moves', line.moves.join(' '));
  }
  if (ply !== total()) q.set('ply', String(ply));
  history.replaceState(null, '', `/analysis?${q}`);
}

// Show the position after `k` plies.
/** @param {number} k */
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
      showError('#line-error', t('an-move-failed', { n: k, error: errorText(ex) }));
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
/** @param {string} text */
async function playMove(text) {
  if (busy || !cur || !info) return;
  const k = cur.ply ?? ply; // (the position on the board, even while another is on its way)
  const next = (k < total()) ? listHistory()[k]?.text : undefined;
  if (next === text) { goTo(k + 1); return; }
  /** @type {{base: string, at: number, moves: string[]}} */
  let want;
  if (onGame(k) && stored) want = { base: cur.position, at: k, moves: [text] };
  else if (line) want = { base: line.base, at: line.at, moves: line.moves.slice(0, k - line.at).concat(text) };
  else return;
  busy = true;
  showError('#line-error', '');
  let st;
  try {
    st = await explore({ game: info.id, position: want.base, moves: want.moves });
  } catch (ex) {
    busy = false;
    board?.revert();
    showError('#line-error', t('an-move-refused', { move: text, error: errorText(ex) }));
    render();
    return;
  }
  busy = false;
  // the answers for the plies the old line shares with the new one stay good
  /** @type {Map<number, GameState>} */
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
/** @param {string} id */
function setGame(id) {
  const changed = !info || info.id !== id;
  const game = games.find((g) => g.id === id);
  if (!game) throw new Error(`unknown game "${id}"`);
  info = game;
  $('#game').value = id;
  $('#rules-link').href = `/rules/${encodeURIComponent(id)}`;
  document.title = t('an-page-title-game', { game: game.name });
  if (changed) {
    $('#settings').innerHTML = (game.settings || []).map((s) => `<select name="${esc(s.name)}" aria-label="${esc(s.label ?? s.name)}" title="${esc(s.help || s.label || s.name)}">`
      + s.values.map((v) => `<option value="${esc(v)}"${v === s.default ? ' selected' : ''}>${esc(s.valueLabels?.[v] ?? v)}</option>`).join('') + `</select>`).join('');
    board?.set({ game: id, board: game.board, pieceNames: game.pieces, pieces: [], legal: [], lastMove: null, preview: null });
    localStorage.setItem('myrmidon:last-game', id);
  }
}
function settings() {
  /** @type {Record<string, string>} */
  const out = {};
  for (const s of info?.settings || []) out[s.name] = $(`#settings select[name="${s.name}"]`)?.value ?? s.default;
  return out;
}

// A position of `game` (a position string, or the start for its settings): no stored game then.
// `moves`: a line to play from it (a line refused is said, and the position shown without it);
// `at`: the ply to show (default: the end of the line).
/** @param {string} game @param {string | null} position @param {string[]} [moves] @param {number | null} [at] */
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
        showError('#line-error', t('an-line-refused', { error: errorText(ex) }));
      }
    }
    stored = null;
    atCache.clear();
    graph.id = null;
    const moved = end.moves || [];
    line = { base: st.position, at: 0, moves: moved, hist: end.history || [], end: end === st ? null : end };
    lineGen++;
    lineCache = new Map([[0, st], [moved.length, end]]);
    $('#source').hidden = true;
    await goTo(at == null || Number.isNaN(at) ? Infinity : at);
    return true;
  } catch (ex) {
    showError('#setup-error', t('an-position-failed', { error: errorText(ex) }));
    // the board stays as it was
    if (was && was !== game && cur) { setGame(was); render(); }
    return false;
  }
}

// A stored game; `at`, `moves`: a line of the user's from the position after `at` plies.
/** @param {string} id @param {number | null} show @param {number | null} [at] @param {string[]} [moves] */
async function loadStored(id, show, at = null, moves = []) {
  let st;
  try {
    st = await api(`/api/games/${encodeURIComponent(id)}`);
  } catch (ex) {
    showError('#setup-error', t('an-game-failed', { id, error: errorText(ex) }));
    return false;
  }
  setGame(st.game);
  const game = localState(st);
  stored = game;
  atCache.clear();
  line = null;
  lineGen++;
  lineCache = new Map();
  const src = $('#source');
  src.innerHTML = `${esc(t('an-source-game'))} <a href="/game/${encodeURIComponent(st.id)}">${esc(st.id)}</a>${esc(t('an-source-detail', { players: game.players.join(' – '), n: st.moves.length }))}`
    + ` · ${esc(game.outcome ? outcomeText({ ...game, eliminated: game.eliminated || [] }) : t('an-source-going-on'))}`;
  src.hidden = false;
  if (moves.length && at != null && at >= 0 && at <= st.moves.length) {
    try {
      const from = at === st.moves.length ? st : await api(`/api/games/${encodeURIComponent(id)}?at=${at}`);
      const end = await explore({ game: st.game, position: from.position, moves });
      line = { base: from.position, at, moves: end.moves, hist: end.history, end };
      lineCache.set(at + end.moves.length, end);
    } catch (ex) {
      showError('#line-error', t('an-line-refused', { error: errorText(ex) }));
    }
  }
  await goTo(show == null || Number.isNaN(show) ? Infinity : show);
  if (st.players.length === 2) startEvals(); else renderGraph();
  return true;
}

// ---------------------------------------------------------------- start
async function main() {
  const shown = createBoard($('#board'), { movable: false, animation: true, onMove: playMove });
  board = shown;
  if (localEngineAvailable()) {
    analysisSocket = new WorkerEngine(onAnalysis, useServerEngine);
    evalSocket = new WorkerEngine(onEvals, useServerEngine);
    engineWhere = 'browser';
  } else useServerEngine('');

  $('#go').addEventListener('click', () => (engine.running ? stopAnalysis() : startAnalysis()));
  $('#multipv').addEventListener('change', () => { if (engine.running) startAnalysis(); });
  $('#movetime').addEventListener('change', () => { if (engine.running) startAnalysis(); });
  $('#flip').addEventListener('click', () => { flipped = !flipped; shown.set({ orientation: flipped }); });
  $('#setup').addEventListener('submit', (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    const p = $('#position').value.trim();
    if (p) loadFree($('#game').value, p);
  });
  $('#game').addEventListener('change', () => loadFree($('#game').value, null));
  $('#settings').addEventListener('change', () => { if (info) loadFree(info.id, null); });
  $('#start-pos').addEventListener('click', () => { if (info) loadFree(info.id, null); });
  $('#copy').addEventListener('click', async () => {
    const btn = $('#copy');
    try { await navigator.clipboard.writeText(cur?.position ?? ''); btn.textContent = t('copied'); } catch { $('#position').select(); btn.textContent = t('an-copy-press'); }
    setTimeout(() => { btn.textContent = t('an-copy-position'); }, 1500);
  });
  /** The element under an event that `sel` selects. @param {Event} e @param {string} sel */
  const under = (e, sel) => /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest(sel));
  $('#lines').addEventListener('pointerover', (/** @type {PointerEvent} */ e) => {
    const f = under(e, '.pv-first');
    if (f) previewMove(f.dataset.move);
  });
  $('#lines').addEventListener('pointerout', (/** @type {PointerEvent} */ e) => { if (under(e, '.pv-first')) previewMove(engine.lines[0]?.pv?.[0] ?? null); });
  $('#moves').addEventListener('click', (/** @type {MouseEvent} */ e) => { const b = under(e, '[data-ply]'); if (b) goTo(Number(b.dataset.ply)); });
  $('#graph').addEventListener('click', (/** @type {MouseEvent} */ e) => {
    const b = under(e, '[data-ply]');
    if (!b) return;
    const to = Number(b.dataset.ply);
    // a move of the game: off the line (if any) at a move after the one it leaves from
    if (line && to > line.at) { line = null; lineGen++; lineCache = new Map(); }
    goTo(to);
  });
  $('#back-game').addEventListener('click', backToGame);
  $('#pass').addEventListener('click', () => { if ($('#pass').dataset.move) playMove($('#pass').dataset.move); });
  $('#nav-first').addEventListener('click', () => goTo(0));
  $('#nav-prev').addEventListener('click', () => goTo(ply - 1));
  $('#nav-next').addEventListener('click', () => goTo(ply + 1));
  $('#nav-last').addEventListener('click', () => goTo(Infinity));
  document.addEventListener('keydown', (e) => {
    if ((!stored && !line) || /** @type {Element} */ (e.target).closest('input, textarea, select, [data-cell], .mb-chooser')) return;
    const to = /** @type {Record<string, number>} */ ({ ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: Infinity })[e.key];
    if (to !== undefined) { e.preventDefault(); goTo(to); }
  });

  try {
    games = (await api('/api/games')).map(localGame);
    learnDrawings(games);
  } catch (ex) {
    $('#status').textContent = t('an-games-failed', { error: errorText(ex) });
    return;
  }
  $('#game').innerHTML = games.map((g) => `<option value="${esc(g.id)}">${esc(g.name)}</option>`).join('');
  const q = new URLSearchParams(location.search);
  let ok = false;
  /** @param {string} name */
  const movesOf = (name) => (q.get(name) || '').split(/\s+/).filter(Boolean);
  /** @param {string} name */
  const number = (name) => { const v = q.get(name); return v == null ? null : +v; };
  const from = q.get('from');
  if (from) ok = await loadStored(from, number('ply'), number('at'), movesOf('line'));
  if (!ok) {
    let game = q.get('game') || localStorage.getItem('myrmidon:last-game') || '';
    if (!games.some((g) => g.id === game)) game = games[0].id;
    setGame(game);
    ok = await loadFree(game, q.get('position'), movesOf('moves'), number('ply'));
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
