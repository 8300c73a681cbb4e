// @ts-check
// The rules page, /rules/<game>: the rules text (GET /api/rules/<game>), its diagrams drawn as
// boards, and the explorer: put any piece anywhere and see where it moves (POST /api/explore).
// The rules themselves stay on the server: every board and every move shown comes from it.
import { createBoard } from './board.js';
import { $, api, esc } from './common.js';
import { pieceSvg, emblemSvg, iconSvg } from './pieces.js';

const pageGame = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || '');
/** @type {import('./common.js').GameInfo[]} */
let games = []; // GET /api/games
const infoOf = (id) => games.find((g) => g.id === id);

const explore = (body) => api('/api/explore', body);

// ---------------------------------------------------------------- the page around
function renderTabs() {
  $('#game-tabs').innerHTML = games.map((g) => {
    const cur = g.id === pageGame ? ' aria-current="page"' : '';
    return `<a href="/rules/${encodeURIComponent(g.id)}"${cur}><svg viewBox="0 0 100 100" aria-hidden="true">${iconSvg(g)}</svg>${esc(g.name)}</a>`;
  }).join('');
}

const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'section';

// The rules text: headings get anchors, a table of contents, links to play.
function renderText(data) {
  const art = $('#rules');
  art.innerHTML = data.html;
  const info = infoOf(pageGame);
  const h1 = art.querySelector('h1');
  const cta = document.createElement('div');
  cta.className = 'rules-cta';
  cta.innerHTML = `<a class="button primary" href="/?game=${encodeURIComponent(pageGame)}">Play ${esc(info?.name || data.name)}</a>`
    + `<a class="button" href="#explorer">Try the pieces</a>`
    + `<a class="button" href="/analysis?game=${encodeURIComponent(pageGame)}">Analysis board</a>`;
  if (h1) h1.after(cta); else art.prepend(cta);
  const used = new Set();
  const heads = [...art.querySelectorAll('h2')];
  for (const h of heads) {
    let id = slug(h.textContent);
    while (used.has(id)) id += '-';
    used.add(id);
    h.id = id;
  }
  if (heads.length >= 3) {
    const toc = document.createElement('nav');
    toc.className = 'toc';
    toc.setAttribute('aria-label', 'On this page');
    toc.innerHTML = `<p class="toc-title">On this page</p><ol>${heads.map((h) => `<li><a href="#${h.id}">${esc(h.textContent)}</a></li>`).join('')}</ol>`;
    heads[0].before(toc);
  }
  document.title = `Rules of ${info?.name || data.name} · myrmidon`;
  $('#page-title').textContent = `Rules of ${info?.name || data.name}`;
}

// ---------------------------------------------------------------- diagrams
// A ```board block: first line the position, then "marks: <cells>" and "caption: <text>".
function parseDiagram(text) {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const d = { position: lines[0] || '', marks: [], caption: '' };
  for (const l of lines.slice(1)) {
    const m = /^(marks|caption)\s*:\s*(.*)$/i.exec(l);
    if (!m) continue;
    if (m[1].toLowerCase() === 'marks') d.marks.push(...m[2].split(/[\s,]+/).filter(Boolean));
    else d.caption = d.caption ? `${d.caption} ${m[2]}` : m[2];
  }
  return d;
}

async function renderDiagrams() {
  const blocks = [...$('#rules').querySelectorAll('pre > code[class*="language-board"]')];
  await Promise.all(blocks.map(async (code, i) => {
    const cls = [...code.classList].find((c) => c.startsWith('language-board'));
    const game = cls.includes(':') ? cls.slice(cls.indexOf(':') + 1) : pageGame;
    const d = parseDiagram(code.textContent);
    const pre = code.parentElement;
    const fig = document.createElement('figure');
    fig.className = 'diagram';
    fig.dataset.game = game;
    fig.dataset.position = d.position;
    const info = infoOf(game);
    try {
      if (!info) throw new Error(`unknown game "${game}"`);
      const st = await explore({ game, position: d.position });
      const cellIx = (name) => info.board.cells.indexOf(name);
      const marks = d.marks.map(cellIx).filter((c) => c >= 0);
      fig.classList.add(info.board.kind === 'hex' ? 'hex' : info.board.files > 10 ? 'wide' : 'square');
      const mover = st.to_move != null ? `${st.players[st.to_move]} to move` : (st.outcome?.text || '');
      if (!d.caption) fig.setAttribute('aria-label', `Diagram ${i + 1}`);
      fig.innerHTML = `<div class="diagram-board"></div>`
        + (d.caption ? `<figcaption>${esc(d.caption)}</figcaption>` : '')
        + `<div class="diagram-foot"><span>${esc(mover)} · click a piece to see its moves</span><button type="button" class="button small try">Try it in the explorer</button></div>`;
      pre.replaceWith(fig);
      const b = createBoard(fig.querySelector('.diagram-board'), {
        game, board: info.board, pieceNames: info.pieces, players: st.players, pieces: st.board,
        lastMove: marks.length ? marks : null, movable: false, animation: false, optimistic: false,
        checkCells: st.check_cells || [], toMove: st.to_move,
        // nothing is played on a diagram: a move chosen only puts the board back
        onMove: () => b.set({ pieces: st.board }),
      });
      showMovesOnClick(fig, b, game, st);
      fig.querySelector('.try').addEventListener('click', () => {
        explorer.load(game, { game, position: st.position });
        $('#explorer').scrollIntoView({ behavior: 'smooth', block: 'nearest' });
      });
    } catch (ex) {
      fig.classList.add('failed');
      pre.replaceWith(fig);
      fig.append(pre);
      const msg = document.createElement('figcaption');
      msg.className = 'message error';
      msg.textContent = `This diagram could not be drawn: ${ex.message}`;
      fig.append(msg);
    }
  }));
}

// A click on a piece of a diagram shows its moves (asked of the server for its owner, once).
function showMovesOnClick(fig, b, game, st) {
  const bySeat = new Map(); // seat -> its moves (from a piece), or a Promise of them
  fig.querySelector('.diagram-board').addEventListener('pointerdown', async (e) => {
    const hit = e.target.closest?.('[data-cell]');
    const c = hit ? +hit.dataset.cell : null;
    const p = c != null ? st.board[c] : null;
    if (!p || bySeat.has(p.owner)) return; // board.js has done the rest
    const ask = explore({ game, position: st.position, to_move: p.owner })
      .then((x) => x.legal_cells.filter((m) => m.from != null && st.board[m.from]?.owner === p.owner), () => []);
    bySeat.set(p.owner, ask);
    bySeat.set(p.owner, await ask);
    const legal = [...bySeat.values()].filter(Array.isArray).flat();
    b.set({ legal, movable: true, toMove: null });
    b.selectCell(c);
  });
}

// ---------------------------------------------------------------- the explorer
class Explorer {
  constructor() {
    this.game = null;
    this.info = null;
    this.st = null; // the last answer of /api/explore
    this.seatMoves = []; // per seat: its legal_cells in this position (as if it were to move), or an Error
    this.tool = { type: 'select' };
    this.busy = false;
    this.lastCell = null;
    this.board = createBoard($('#ex-board'), { movable: true, optimistic: false, onMove: (t, m) => this.relocate(m) });
    this.bindEvents();
  }

  bindEvents() {
    const el = $('#ex-board');
    const cellOf = (e) => { const h = e.target.closest?.('[data-cell]'); return h ? +h.dataset.cell : null; };
    // with a piece or the eraser in hand, a click puts (before board.js sees it)
    el.addEventListener('pointerdown', (e) => {
      if (this.tool.type === 'select') return;
      const c = cellOf(e);
      if (c == null) return;
      e.stopPropagation();
      e.preventDefault();
      if (e.button === 0 || e.pointerType !== 'mouse') this.useTool(c);
    }, true);
    el.addEventListener('keydown', (e) => {
      const c = cellOf(e);
      if (c == null) return;
      if (e.key === 'Delete' || e.key === 'Backspace') { e.preventDefault(); e.stopPropagation(); this.putAt(c, null); return; }
      if (this.tool.type !== 'select' && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); e.stopPropagation(); this.useTool(c); }
    }, true);
    el.addEventListener('contextmenu', (e) => {
      const c = cellOf(e);
      if (c == null) return;
      e.preventDefault();
      if (this.st?.board[c]) this.putAt(c, null);
    });
    // after board.js has handled a click: say what is selected
    el.addEventListener('pointerdown', (e) => { const c = cellOf(e); if (c != null) this.lastCell = c; });
    el.addEventListener('pointerup', () => this.describe());
    el.addEventListener('keyup', (e) => { const c = cellOf(e); if (c != null && (e.key === 'Enter' || e.key === ' ')) { this.lastCell = c; this.describe(); } });

    $('#ex-start').addEventListener('click', () => this.load(this.game, { game: this.game, settings: this.settings() }));
    $('#ex-clear').addEventListener('click', () => this.request({ clear: true }));
    $('#ex-load').addEventListener('click', () => {
      const p = $('#ex-pos').value.trim();
      if (p) this.load(this.game, { game: this.game, position: p });
    });
    $('#ex-pos').addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); $('#ex-load').click(); } });
    $('#ex-copy').addEventListener('click', async () => {
      try { await navigator.clipboard.writeText(this.st.position); $('#ex-copy').textContent = 'Copied ✓'; } catch { $('#ex-pos').select(); $('#ex-copy').textContent = 'Select and copy'; }
      setTimeout(() => { $('#ex-copy').textContent = 'Copy'; }, 1500);
    });
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('#explorer .ex-mode'))) b.addEventListener('click', () => this.setTool({ type: b.dataset.mode }));
    $('#ex-error').addEventListener('click', () => this.showError(''));
    $('#ex-tools').addEventListener('click', (e) => {
      const b = e.target.closest('button.ex-piece');
      if (!b) return;
      // a piece in hand; the same piece again: back to showing moves
      const t = { type: 'put', owner: +b.dataset.owner, kind: b.dataset.kind };
      const same = this.tool.type === 'put' && this.tool.owner === t.owner && this.tool.kind === t.kind;
      this.setTool(same ? { type: 'select' } : t);
    });
    $('#ex-tomove').addEventListener('change', (e) => {
      if (e.target.name === 'ex-tomove') this.request({ to_move: +e.target.value });
    });
  }

  settings() {
    const out = {};
    for (const s of this.info?.settings || []) {
      const el = /** @type {HTMLSelectElement | null} */ (document.querySelector(`#ex-settings select[name="${s.name}"]`));
      out[s.name] = el ? el.value : s.default;
    }
    return out;
  }

  // A new game (or the same) from `body` (with game and position or settings).
  async load(game, body) {
    if (game !== this.game) {
      this.game = game;
      this.info = infoOf(game);
      this.st = null;
      this.tool = { type: 'select' };
      this.board.set({ game, board: this.info.board, pieceNames: this.info.pieces, pieces: [], legal: [] });
      $('#ex-game').textContent = game !== pageGame || game === 'antchess3' ? this.info.name : '';
      $('#ex-settings').innerHTML = (this.info.settings || []).map((s) => `<label class="ex-setting">`
        + `<select name="${esc(s.name)}" aria-label="${esc(s.name)}" title="${esc(s.help || s.name)}">`
        + s.values.map((v) => `<option${v === s.default ? ' selected' : ''}>${esc(v)}</option>`).join('')
        + `</select></label>`).join('');
    }
    return this.send(body);
  }

  // A change of the current position (clear, put, to_move).
  request(change) {
    if (!this.st) return Promise.resolve(false);
    return this.send({ game: this.game, position: this.st.position, ...change });
  }

  async send(body) {
    this.showError('');
    this.busy = true;
    $('#ex-board').classList.add('busy');
    try {
      const st = await explore(body);
      // the moves of every seat, as if it were to move (to show any piece's moves)
      const seatMoves = await Promise.all(st.players.map((_, s) => (s === st.to_move ? st.legal_cells
        : explore({ game: this.game, position: st.position, to_move: s }).then((x) => x.legal_cells, (e) => e))));
      this.st = st;
      this.seatMoves = seatMoves;
      this.render();
      return true;
    } catch (ex) {
      this.showError(`Not possible: ${ex.message}`);
      if (this.board.config.pieces !== this.st?.board) this.board.set({ pieces: this.st?.board || [] });
      return false;
    } finally {
      this.busy = false;
      $('#ex-board').classList.remove('busy');
    }
  }

  showError(text) {
    $('#ex-error').textContent = text;
    $('#ex-error').hidden = !text;
  }

  // every piece's moves (passes and moves without a piece to click are left out)
  allMoves() {
    const out = [];
    this.seatMoves.forEach((ms, s) => {
      if (!Array.isArray(ms)) return;
      for (const m of ms) if (m.from != null && this.st.board[m.from]?.owner === s) out.push(m);
    });
    return out;
  }

  render() {
    const st = this.st;
    this.board.set({
      game: this.game, players: st.players, pieces: st.board, legal: this.allMoves(),
      toMove: st.to_move, checkCells: st.outcome ? [] : st.check_cells || [], lastMove: null, movable: true,
    });
    $('#ex-pos').value = st.position;
    $('#ex-analyse').href = `/analysis?game=${encodeURIComponent(this.game)}&position=${encodeURIComponent(st.position)}`;
    $('#ex-tomove').innerHTML = st.players.map((p, i) => `<label><input type="radio" name="ex-tomove" value="${i}"${st.to_move === i ? ' checked' : ''}>`
      + `<span><svg class="seat-icon" viewBox="0 0 100 100" aria-hidden="true">${emblemSvg(infoOf(this.game), i)}</svg>${esc(p)}</span></label>`).join('');
    this.renderTools();
    this.describe();
  }

  renderTools() {
    const st = this.st;
    const byOwner = new Map();
    for (const p of st.palette || []) {
      if (!byOwner.has(p.owner)) byOwner.set(p.owner, []);
      byOwner.get(p.owner).push(p);
    }
    const t = this.tool;
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('#explorer .ex-mode'))) b.setAttribute('aria-pressed', String(t.type === b.dataset.mode));
    let html = '';
    for (const [owner, list] of byOwner) {
      html += `<div class="ex-tool-row"><span class="ex-tool-label">${esc(st.players[owner] ?? `Player ${owner + 1}`)}</span>`
        + list.map((p) => {
          const on = t.type === 'put' && t.owner === p.owner && t.kind === p.kind;
          const name = `${st.players[p.owner] ?? ''} ${p.name}`.trim();
          return `<button type="button" class="ex-piece" data-owner="${p.owner}" data-kind="${esc(p.kind)}" aria-pressed="${on}" title="Put a ${esc(name)}" aria-label="Put a ${esc(name)}">`
            + `<svg viewBox="0 0 100 100" aria-hidden="true">${pieceSvg(this.game, p.kind, p.owner)}</svg></button>`;
        }).join('') + `</div>`;
    }
    $('#ex-tools').innerHTML = html;
  }

  setTool(t) {
    this.tool = t;
    this.board.cancel();
    this.renderTools();
    this.describe();
    $('#ex-board').classList.toggle('putting', t.type !== 'select');
  }

  pieceName(p) {
    const name = this.info.pieces.find((x) => x.letter === p.kind)?.name || p.kind;
    return `${this.st.players[p.owner] ?? `Player ${p.owner + 1}`} ${name}`;
  }
  cellName(c) { return this.info.board.cells[c] ?? String(c); }

  // The line under the board: the selected piece and its moves, or what a click will do.
  describe() {
    const el = $('#ex-info');
    if (!this.st) { el.textContent = ''; return; }
    const st = this.st;
    const t = this.tool;
    const status = st.outcome ? `In this position the game is over: ${st.outcome.text}.`
      : `${st.players[st.to_move]} to move${st.check ? ', in check' : ''}.`;
    if (t.type === 'put') {
      el.innerHTML = `Click a cell to put a <b>${esc(this.pieceName(t))}</b> there. <span class="muted">${esc(status)}</span>`;
      return;
    }
    if (t.type === 'erase') {
      el.innerHTML = `Click a piece to take it off the board. <span class="muted">${esc(status)}</span>`;
      return;
    }
    const c = this.board.selected ?? (this.lastCell != null && st.board[this.lastCell] ? this.lastCell : null);
    if (c == null || !st.board[c]) {
      el.innerHTML = `${esc(status)} <span class="muted">Click a piece to see its moves.</span>`;
      return;
    }
    const p = st.board[c];
    const moves = this.seatMoves[p.owner];
    if (!Array.isArray(moves)) {
      el.textContent = `${this.pieceName(p)} on ${this.cellName(c)}: its moves cannot be shown here (${moves?.message || 'no answer'}).`;
      return;
    }
    const mine = moves.filter((m) => m.from === c);
    const dests = new Set(mine.filter((m) => m.to != null).map((m) => m.to));
    const caps = mine.filter((m) => (m.captures || []).length).length;
    let text = `<b>${esc(this.pieceName(p))}</b> on ${esc(this.cellName(c))}: `;
    if (!mine.length) text += 'no move from here.';
    else {
      text += `${dests.size} ${dests.size === 1 ? 'cell' : 'cells'} to go to`;
      text += caps ? `, ${caps} ${caps === 1 ? 'move captures' : 'moves capture'}.` : ', no capture.';
      const list = mine.map((m) => m.text);
      text += ` <span class="ex-moves">${esc(list.slice(0, 24).join(' '))}${list.length > 24 ? ' …' : ''}</span>`;
    }
    if (p.owner !== st.to_move && st.to_move != null) text += ` <span class="muted">(as if ${esc(st.players[p.owner])} were to move)</span>`;
    el.innerHTML = text;
  }

  useTool(c) {
    if (this.busy) return;
    const t = this.tool;
    if (t.type === 'erase') { if (this.st.board[c]) this.putAt(c, null); return; }
    const cur = this.st.board[c];
    // the same piece again: take it off
    if (cur && cur.owner === t.owner && cur.kind === t.kind) { this.putAt(c, null); return; }
    this.putAt(c, { owner: t.owner, kind: t.kind });
  }

  async putAt(c, piece) {
    const ok = await this.request({ put: [{ cell: this.cellName(c), piece }] });
    if (ok && piece) { this.board.selectCell(c); this.lastCell = c; this.describe(); }
  }

  // A move clicked on the board: the piece goes there (the pieces it takes go away); the explorer
  // moves pieces about, it does not play the game (whose turn it is stays).
  async relocate(m) {
    const p = this.st.board[m.from];
    if (!p || m.to == null) { this.render(); return; }
    if (m.pieces_moved > 1) {
      this.render();
      this.showError('This move carries a whole line of pieces: set the pieces up with the tools instead.');
      return;
    }
    const kind = m.promotion || p.kind;
    const put = [{ cell: this.cellName(m.from), piece: null }];
    for (const c of m.captures || []) if (c !== m.from && c !== m.to) put.push({ cell: this.cellName(c), piece: null });
    put.push({ cell: this.cellName(m.to), piece: { owner: p.owner, kind } });
    const ok = await this.request({ put });
    if (!ok) this.render();
    else { this.board.selectCell(m.to); this.lastCell = m.to; this.describe(); }
  }
}

let explorer = null;

// ---------------------------------------------------------------- start
async function main() {
  try {
    games = await api('/api/games');
  } catch (ex) {
    $('#rules').innerHTML = `<p class="message error">Could not load the games: ${esc(ex.message)}</p>`;
    return;
  }
  renderTabs();
  if (!infoOf(pageGame)) {
    $('#rules').innerHTML = `<h1>No such game</h1><p class="message error">There is no game "${esc(pageGame)}" here. `
      + `The rules of: ${games.map((g) => `<a href="/rules/${encodeURIComponent(g.id)}">${esc(g.name)}</a>`).join(', ')}.</p>`;
    $('#explorer').hidden = true;
    return;
  }
  $('#analysis-link').href = `/analysis?game=${encodeURIComponent(pageGame)}`;
  explorer = new Explorer();
  const started = explorer.load(pageGame, { game: pageGame });
  try {
    renderText(await api(`/api/rules/${encodeURIComponent(pageGame)}`));
  } catch (ex) {
    $('#rules').innerHTML = `<p class="message error">Could not load the rules: ${esc(ex.message)}</p>`;
  }
  await renderDiagrams();
  await started;
  // a link to a heading: the text above it has changed height meanwhile
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  document.body.dataset.ready = '1';
}

main();
