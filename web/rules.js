// @ts-check
// The rules page, /rules/<game>: the rules text in the page's language (GET
// /api/rules/<game>?lang=…), its diagrams drawn as boards, and the explorer: put any piece
// anywhere and see where it moves (POST /api/explore). The rules themselves stay in the rules
// library: every board and every move shown comes from the server, or, when it cannot be
// reached (the installed app offline), from the engine's module in this browser. Every word of the page's own is a key of the
// catalogues (web/i18n/<lang>.ftl); the games' words come from their folders (localGame).
import { createBoard } from './board.js';
import { $, api, errorText, esc, localGame, localState, outcomeText, playerArgs, playerNumbers } from './common.js';
import { lang, t } from './i18n.js';
import { canPlayHere, viewHere } from './local-game.js';
import { pieceSvg, emblemSvg, iconSvg, learnDrawings } from './pieces.js';

const pageGame = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || '');
/** @type {import('./common.js').GameInfo[]} */
let games = []; // GET /api/games
/** @param {string} id */
const infoOf = (id) => games.find((g) => g.id === id);

/** @typedef {import('./common.js').GameInfo} GameInfo */
/** @typedef {import('./board/state.js').Move} Move */
/** @typedef {import('./board/state.js').Piece} Piece */
/** @typedef {ReturnType<typeof createBoard>} Board */
/**
 * A position as POST /api/explore answers (docs/api.md).
 * @typedef {Object} Explored
 * @property {string} game
 * @property {string} position
 * @property {string[]} players
 * @property {string} [players_number]  how a sentence takes the (English) names: singular or plural
 * @property {(Piece | null)[]} board
 * @property {number | null} to_move
 * @property {Move[]} legal_cells
 * @property {number[]} [check_cells]
 * @property {boolean} [check]
 * @property {import('./common.js').GameState['outcome']} [outcome]
 * @property {Piece[]} [palette]  the pieces that may be put on the board
 */
/** What a click on the explorer's board does. @typedef {{type: 'select' | 'erase'} | {type: 'put', owner: number, kind: string}} Tool */

/**
 * A position as POST /api/explore answers it: from the server, else (it cannot be reached: the
 * app offline) from the rules in this browser, which answer the same.
 * @param {Record<string, unknown>} body @returns {Promise<Explored>}
 */
async function explore(body) {
  try {
    return await api('/api/explore', body);
  } catch (ex) {
    if (!(/** @type {any} */ (ex)).unreachable || !canPlayHere()) throw ex;
    return /** @type {Promise<Explored>} */ (viewHere(/** @type {Parameters<typeof viewHere>[0]} */ (body)));
  }
}

// ---------------------------------------------------------------- the page around
function renderTabs() {
  $('#game-tabs').innerHTML = games.map((g) => {
    const cur = g.id === pageGame ? ' aria-current="page"' : '';
    return `<a href="/rules/${encodeURIComponent(g.id)}"${cur}><svg viewBox="0 0 100 100" aria-hidden="true">${iconSvg(g)}</svg>${esc(g.name)}</a>`;
  }).join('');
}

/** @param {string} s */
const slug = (s) => s.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'section';

// The rules text: headings get anchors, a table of contents, links to play. Each h3 section
// (a piece) becomes a card, its diagram in it; the cards of an h2 section stand in a grid.
/** @param {{html: string, lang: string, name?: string}} data  GET /api/rules/<game> */
function renderText(data) {
  const art = $('#rules');
  art.innerHTML = data.html;
  art.lang = data.lang;
  const info = infoOf(pageGame);
  const name = info?.name || data.name;
  const h1 = art.querySelector('h1');
  const cta = document.createElement('div');
  cta.className = 'rules-cta';
  cta.innerHTML = `<a class="button primary" href="/?game=${encodeURIComponent(pageGame)}">${esc(t('rules-play', { game: name }))}</a>`
    + `<a class="button" href="#explorer">${esc(t('rules-try'))}</a>`
    + `<a class="button" href="/analysis?game=${encodeURIComponent(pageGame)}">${esc(t('rules-nav-analysis'))}</a>`;
  if (h1) h1.after(cta); else art.prepend(cta);
  for (const h3 of [...art.querySelectorAll(':scope > h3')]) {
    const card = document.createElement('section');
    card.className = 'rules-card';
    h3.before(card);
    let next = h3.nextSibling;
    card.append(h3);
    while (next && !(next instanceof HTMLElement && /^H[1-3]$/.test(next.tagName))) {
      const after = next.nextSibling;
      card.append(next);
      next = after;
    }
  }
  for (const card of [...art.querySelectorAll(':scope > .rules-card')]) {
    const prev = card.previousElementSibling;
    if (prev?.classList.contains('rules-cards')) prev.append(card);
    else {
      const grid = document.createElement('div');
      grid.className = 'rules-cards';
      card.before(grid);
      grid.append(card);
    }
  }
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
    toc.setAttribute('aria-label', t('rules-toc'));
    toc.innerHTML = `<p class="toc-title">${esc(t('rules-toc'))}</p><ol>${heads.map((h) => `<li><a href="#${h.id}">${esc(h.textContent)}</a></li>`).join('')}</ol>`;
    heads[0].before(toc);
  }
  // each h2 section in a <section>: its heading, its own diagrams, then its text, beside
  // which the diagrams stand when the page is wide enough, else below it (learn.css)
  for (const h2 of heads) {
    const section = document.createElement('section');
    section.className = 'rules-section';
    h2.before(section);
    const text = document.createElement('div');
    text.className = 'rules-section-text';
    const boards = [];
    let next = h2.nextElementSibling;
    while (next && next.tagName !== 'H2') {
      const after = next.nextElementSibling;
      if (next.tagName === 'PRE' && next.querySelector('code[class*="language-board"]')) boards.push(next);
      else text.append(next);
      next = after;
    }
    section.append(h2, ...boards, text);
    if (boards.length) section.classList.add('beside');
  }
  document.title = `${t('rules-title', { game: name })} · myrmidon`;
  $('#page-title').textContent = t('rules-title', { game: name });
}

// ---------------------------------------------------------------- diagrams
// A ```board block: first line the position, then "marks: <cells>" (cells to highlight),
// "show: <cell>" (the piece whose moves are drawn) and "caption: <text>".
/** @param {string} text */
function parseDiagram(text) {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  /** @type {{position: string, marks: string[], show: string, caption: string}} */
  const d = { position: lines[0] || '', marks: [], show: '', caption: '' };
  for (const l of lines.slice(1)) {
    const m = /^(marks|show|caption)\s*:\s*(.*)$/i.exec(l);
    if (!m) continue;
    const key = m[1].toLowerCase();
    if (key === 'marks') d.marks.push(...m[2].split(/[\s,]+/).filter(Boolean));
    else if (key === 'show') d.show = m[2].trim();
    else d.caption = d.caption ? `${d.caption} ${m[2]}` : m[2];
  }
  return d;
}

// The moves of every piece of seat `seat` in a diagram's position (asked of the server as if
// that seat were to move), or [] when it has none to show.
/** @param {string} game @param {Explored} st @param {number} seat @returns {Promise<Move[]>} */
const seatMovesOf = (game, st, seat) => explore({ game, position: st.position, to_move: seat })
  .then((x) => x.legal_cells.filter((m) => m.from != null && st.board[m.from]?.owner === seat), () => []);

async function renderDiagrams() {
  const blocks = /** @type {HTMLElement[]} */ ([...$('#rules').querySelectorAll('pre > code[class*="language-board"]')]);
  await Promise.all(blocks.map(async (code, i) => {
    const cls = [...code.classList].find((c) => c.startsWith('language-board')) ?? '';
    const game = cls.includes(':') ? cls.slice(cls.indexOf(':') + 1) : pageGame;
    const d = parseDiagram(code.textContent ?? '');
    const pre = /** @type {HTMLElement} */ (code.parentElement);
    const fig = document.createElement('figure');
    fig.className = 'diagram';
    fig.dataset.game = game;
    fig.dataset.position = d.position;
    const info = infoOf(game);
    try {
      if (!info) throw new Error(t('unknown-game', { game }));
      const st = await explore({ game, position: d.position });
      const named = localState(st); // (the players named in the page's language)
      /** @param {string} name */
      const cellIx = (name) => info.board.cells.indexOf(name);
      const marks = d.marks.map(cellIx).filter((c) => c >= 0);
      fig.classList.add(info.board.kind === 'hex' ? 'hex' : (info.board.files ?? 0) > 10 ? 'wide' : 'square');
      // who is to move and what a click does, but on a diagram of one piece's moves
      const mover = st.to_move != null ? t('status-to-move', playerArgs(named, st.to_move)) : '';
      const foot = d.show ? '' : `<span>${esc([mover, t('rules-diagram-click')].filter(Boolean).join(' · '))}</span>`;
      if (!d.caption) fig.setAttribute('aria-label', t('rules-diagram-n', { n: i + 1 }));
      fig.innerHTML = `<div class="diagram-board"></div>`
        + (d.caption ? `<figcaption>${esc(d.caption)}</figcaption>` : '')
        + `<div class="diagram-foot">${foot}<button type="button" class="button small try">${esc(t('rules-diagram-try'))}</button></div>`;
      pre.replaceWith(fig);
      const b = createBoard(/** @type {HTMLElement} */ (fig.querySelector('.diagram-board')), {
        game, board: info.board, pieceNames: info.pieces, players: named.players, playerNumbers: playerNumbers(named), pieces: st.board,
        lastMove: marks.length ? marks : null, movable: false, animation: false, optimistic: false,
        checkCells: st.check_cells || [], toMove: st.to_move,
        // nothing is played on a diagram: a move chosen only puts the board back
        onMove: () => b.set({ pieces: st.board }),
      });
      const bySeat = showMovesOnClick(fig, b, game, st);
      // "show": that piece selected, its moves drawn (the server's)
      const shown = d.show ? cellIx(d.show) : -1;
      const p = shown >= 0 ? st.board[shown] : null;
      if (d.show && !p) throw new Error(t('rules-diagram-no-piece', { cell: d.show }));
      if (p) {
        const moves = await seatMovesOf(game, st, p.owner);
        bySeat.set(p.owner, moves);
        fig.dataset.show = String(shown);
        b.set({ legal: moves, movable: true, toMove: null });
        b.selectCell(shown);
      }
      fig.querySelector('.try')?.addEventListener('click', () => {
        explorer?.load(game, { game, position: st.position });
        $('#explorer').scrollIntoView({ behavior: 'smooth', block: 'nearest' });
      });
    } catch (ex) {
      fig.classList.add('failed');
      fig.innerHTML = '';
      if (pre.isConnected) pre.replaceWith(fig);
      fig.append(pre);
      const msg = document.createElement('figcaption');
      msg.className = 'message error';
      msg.textContent = t('rules-diagram-failed', { error: errorText(ex) });
      fig.append(msg);
    }
  }));
}

// A click on a piece of a diagram shows its moves (asked of the server for its owner, once).
// Returns the moves known by seat, for the caller to add to.
/** @param {HTMLElement} fig @param {Board} b @param {string} game @param {Explored} st */
function showMovesOnClick(fig, b, game, st) {
  /** @type {Map<number, Move[] | Promise<Move[]>>} */
  const bySeat = new Map(); // seat -> its moves (from a piece), or a Promise of them
  fig.querySelector('.diagram-board')?.addEventListener('pointerdown', async (e) => {
    const hit = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest('[data-cell]'));
    const c = hit ? Number(hit.dataset.cell) : null;
    const p = c != null ? st.board[c] : null;
    if (!p || bySeat.has(p.owner)) return; // board.js has done the rest
    const ask = seatMovesOf(game, st, p.owner);
    bySeat.set(p.owner, ask);
    bySeat.set(p.owner, await ask);
    const legal = [...bySeat.values()].filter(Array.isArray).flat();
    b.set({ legal, movable: true, toMove: null });
    b.selectCell(c);
  });
  return bySeat;
}

// ---------------------------------------------------------------- the explorer
class Explorer {
  /** @param {GameInfo} info  the game it starts with (`load` sets its position) */
  constructor(info) {
    this.game = '';
    this.info = info;
    /** @type {Explored | null} */
    this.st = null; // the last answer of /api/explore
    /** @type {(Move[] | Error)[]} */
    this.seatMoves = []; // per seat: its legal_cells in this position (as if it were to move), or an Error
    /** @type {Tool} */
    this.tool = { type: 'select' };
    this.busy = false;
    /** @type {number | null} */
    this.lastCell = null;
    this.board = createBoard($('#ex-board'), { movable: true, optimistic: false, onMove: (t, m) => this.relocate(m) });
    this.bindEvents();
  }

  bindEvents() {
    const el = $('#ex-board');
    /** @param {Event} e */
    const cellOf = (e) => { const h = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest('[data-cell]')); return h ? Number(h.dataset.cell) : null; };
    // with a piece or the eraser in hand, a click puts (before board.js sees it)
    el.addEventListener('pointerdown', (/** @type {PointerEvent} */ e) => {
      if (this.tool.type === 'select') return;
      const c = cellOf(e);
      if (c == null) return;
      e.stopPropagation();
      e.preventDefault();
      if (e.button === 0 || e.pointerType !== 'mouse') this.useTool(c);
    }, true);
    el.addEventListener('keydown', (/** @type {KeyboardEvent} */ e) => {
      const c = cellOf(e);
      if (c == null) return;
      if (e.key === 'Delete' || e.key === 'Backspace') { e.preventDefault(); e.stopPropagation(); this.putAt(c, null); return; }
      if (this.tool.type !== 'select' && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); e.stopPropagation(); this.useTool(c); }
    }, true);
    el.addEventListener('contextmenu', (/** @type {MouseEvent} */ e) => {
      const c = cellOf(e);
      if (c == null) return;
      e.preventDefault();
      if (this.st?.board[c]) this.putAt(c, null);
    });
    // after board.js has handled a click: say what is selected
    el.addEventListener('pointerdown', (/** @type {PointerEvent} */ e) => { const c = cellOf(e); if (c != null) this.lastCell = c; });
    el.addEventListener('pointerup', () => this.describe());
    el.addEventListener('keyup', (/** @type {KeyboardEvent} */ e) => { const c = cellOf(e); if (c != null && (e.key === 'Enter' || e.key === ' ')) { this.lastCell = c; this.describe(); } });

    $('#ex-start').addEventListener('click', () => this.load(this.game, { game: this.game, settings: this.settings() }));
    $('#ex-clear').addEventListener('click', () => this.request({ clear: true }));
    $('#ex-load').addEventListener('click', () => {
      const p = $('#ex-pos').value.trim();
      if (p) this.load(this.game, { game: this.game, position: p });
    });
    $('#ex-pos').addEventListener('keydown', (/** @type {KeyboardEvent} */ e) => { if (e.key === 'Enter') { e.preventDefault(); $('#ex-load').click(); } });
    $('#ex-copy').addEventListener('click', async () => {
      try { await navigator.clipboard.writeText(this.st?.position ?? ''); $('#ex-copy').textContent = t('copied'); } catch { $('#ex-pos').select(); $('#ex-copy').textContent = t('rules-ex-select-copy'); }
      setTimeout(() => { $('#ex-copy').textContent = t('copy'); }, 1500);
    });
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('#explorer .ex-mode'))) b.addEventListener('click', () => this.setTool({ type: b.dataset.mode === 'erase' ? 'erase' : 'select' }));
    $('#ex-error').addEventListener('click', () => this.showError(''));
    $('#ex-tools').addEventListener('click', (/** @type {MouseEvent} */ e) => {
      const b = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest('button.ex-piece'));
      if (!b) return;
      // a piece in hand; the same piece again: back to showing moves
      /** @type {Tool} */
      const tool = { type: 'put', owner: Number(b.dataset.owner), kind: b.dataset.kind ?? '' };
      const same = this.tool.type === 'put' && this.tool.owner === tool.owner && this.tool.kind === tool.kind;
      this.setTool(same ? { type: 'select' } : tool);
    });
    $('#ex-tomove').addEventListener('change', (/** @type {Event} */ e) => {
      const input = /** @type {HTMLInputElement} */ (e.target);
      if (input.name === 'ex-tomove') this.request({ to_move: +input.value });
    });
  }

  settings() {
    /** @type {Record<string, string>} */
    const out = {};
    for (const s of this.info.settings || []) {
      const el = /** @type {HTMLSelectElement | null} */ (document.querySelector(`#ex-settings select[name="${s.name}"]`));
      out[s.name] = el ? el.value : s.default;
    }
    return out;
  }

  // A new game (or the same) from `body` (with game and position or settings).
  /** @param {string} game @param {Record<string, unknown>} body */
  async load(game, body) {
    if (game !== this.game) {
      const info = infoOf(game);
      if (!info) { this.showError(t('unknown-game', { game })); return false; }
      this.game = game;
      this.info = info;
      this.st = null;
      this.tool = { type: 'select' };
      this.board.set({ game, board: this.info.board, pieceNames: this.info.pieces, pieces: [], legal: [] });
      $('#ex-game').textContent = game !== pageGame || sharedPage ? this.info.name : '';
      $('#ex-settings').innerHTML = (this.info.settings || []).map((s) => `<label class="ex-setting">`
        + `<select name="${esc(s.name)}" aria-label="${esc(s.label)}" title="${esc(s.help || s.label)}">`
        + s.values.map((v) => `<option value="${esc(v)}"${v === s.default ? ' selected' : ''}>${esc(s.valueLabels?.[v] ?? v)}</option>`).join('')
        + `</select></label>`).join('');
    }
    return this.send(body);
  }

  // A change of the current position (clear, put, to_move).
  /** @param {Record<string, unknown>} change */
  request(change) {
    if (!this.st) return Promise.resolve(false);
    return this.send({ game: this.game, position: this.st.position, ...change });
  }

  /** @param {Record<string, unknown>} body */
  async send(body) {
    this.showError('');
    this.busy = true;
    $('#ex-board').classList.add('busy');
    try {
      const st = await explore(body);
      // the moves of every seat, as if it were to move (to show any piece's moves)
      const seatMoves = await Promise.all(st.players.map((_, s) => (s === st.to_move ? st.legal_cells
        : explore({ game: this.game, position: st.position, to_move: s }).then((x) => x.legal_cells, (e) => (e instanceof Error ? e : new Error(String(e)))))));
      this.st = localState(st); // (the players named in the page's language)
      this.seatMoves = seatMoves;
      this.render();
      return true;
    } catch (ex) {
      this.showError(t('rules-ex-refused', { error: errorText(ex) }));
      if (this.board.config.pieces !== this.st?.board) this.board.set({ pieces: this.st?.board || [] });
      return false;
    } finally {
      this.busy = false;
      $('#ex-board').classList.remove('busy');
    }
  }

  /** @param {string} text */
  showError(text) {
    $('#ex-error').textContent = text;
    $('#ex-error').hidden = !text;
  }

  // every piece's moves (passes and moves without a piece to click are left out)
  allMoves() {
    /** @type {Move[]} */
    const out = [];
    const board = this.st?.board ?? [];
    this.seatMoves.forEach((ms, s) => {
      if (!Array.isArray(ms)) return;
      for (const m of ms) if (m.from != null && board[m.from]?.owner === s) out.push(m);
    });
    return out;
  }

  render() {
    const st = this.st;
    if (!st) return;
    this.board.set({
      game: this.game, players: st.players, playerNumbers: playerNumbers(st), pieces: st.board, legal: this.allMoves(),
      toMove: st.to_move, checkCells: st.outcome ? [] : st.check_cells || [], lastMove: null, movable: true,
    });
    $('#ex-pos').value = st.position;
    $('#ex-analyse').href = `/analysis?game=${encodeURIComponent(this.game)}&position=${encodeURIComponent(st.position)}`;
    $('#ex-tomove').innerHTML = st.players.map((p, i) => `<label><input type="radio" name="ex-tomove" value="${i}"${st.to_move === i ? ' checked' : ''}>`
      + `<span><svg class="seat-icon" viewBox="0 0 100 100" aria-hidden="true">${emblemSvg(this.info, i)}</svg>${esc(p)}</span></label>`).join('');
    this.renderTools();
    this.describe();
  }

  renderTools() {
    /** @type {Map<number, Piece[]>} */
    const byOwner = new Map();
    for (const p of this.st?.palette || []) byOwner.set(p.owner, [...byOwner.get(p.owner) ?? [], p]);
    const tool = this.tool;
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('#explorer .ex-mode'))) b.setAttribute('aria-pressed', String(tool.type === b.dataset.mode));
    let html = '';
    for (const [owner, list] of byOwner) {
      html += `<div class="ex-tool-row"><span class="ex-tool-label">${esc(this.playerOf(owner).player)}</span>`
        + list.map((p) => {
          const on = tool.type === 'put' && tool.owner === p.owner && tool.kind === p.kind;
          const put = t('rules-ex-put', { piece: this.pieceName(p) });
          return `<button type="button" class="ex-piece" data-owner="${p.owner}" data-kind="${esc(p.kind)}" aria-pressed="${on}" title="${esc(put)}" aria-label="${esc(put)}">`
            + `<svg viewBox="0 0 100 100" aria-hidden="true">${pieceSvg(this.game, p.kind, p.owner)}</svg></button>`;
        }).join('') + `</div>`;
    }
    $('#ex-tools').innerHTML = html;
  }

  /** @param {Tool} tool */
  setTool(tool) {
    this.tool = tool;
    this.board.cancel();
    this.renderTools();
    this.describe();
    $('#ex-board').classList.toggle('putting', tool.type !== 'select');
  }

  // A seat's name and grammatical number, as a message's arguments (`player`, `number`).
  /** @param {number | null} seat */
  playerOf(seat) { return seat == null || !this.st ? { player: '', number: 'singular' } : playerArgs(this.st, seat); }

  // A piece's name with its owner's ("Red Beetle"), or alone when only one player has that
  // kind of piece and its name says whose it is (Epaminondas' "White piece").
  /** @param {Piece} p */
  pieceName(p) {
    const name = this.info.pieces.find((x) => x.letter === p.kind)?.name || p.kind;
    const owners = new Set((this.st?.palette || []).filter((x) => x.kind === p.kind).map((x) => x.owner));
    return owners.size === 1 ? name : t('piece-of', { ...this.playerOf(p.owner), piece: name });
  }
  /** @param {number} c */
  cellName(c) { return this.info.board.cells[c] ?? String(c); }

  // The line under the board: the selected piece and its moves, or what a click will do.
  describe() {
    const el = $('#ex-info');
    if (!this.st) { el.textContent = ''; return; }
    const st = this.st;
    const tool = this.tool;
    const status = st.outcome ? t('rules-ex-over', { outcome: outcomeText(localState({ ...st, eliminated: [] })) })
      : t(st.check ? 'rules-ex-to-move-check' : 'rules-ex-to-move', this.playerOf(st.to_move));
    const muted = `<span class="muted">${esc(status)}</span>`;
    if (tool.type === 'put') {
      el.innerHTML = `${bold('rules-ex-put-hint', 'piece', this.pieceName(tool))} ${muted}`;
      return;
    }
    if (tool.type === 'erase') {
      el.innerHTML = `${esc(t('rules-ex-erase-hint'))} ${muted}`;
      return;
    }
    const c = this.board.selected ?? (this.lastCell != null && st.board[this.lastCell] ? this.lastCell : null);
    if (c == null || !st.board[c]) {
      el.innerHTML = `${esc(status)} <span class="muted">${esc(t('rules-ex-click-hint'))}</span>`;
      return;
    }
    const p = /** @type {Piece} */ (st.board[c]);
    const moves = this.seatMoves[p.owner];
    const on = bold('rules-ex-piece-on', 'piece', this.pieceName(p), { cell: this.cellName(c) });
    if (!Array.isArray(moves)) {
      el.innerHTML = `${on} ${esc(t('rules-ex-no-answer', { error: moves?.message || '' }))}`;
      return;
    }
    const mine = moves.filter((m) => m.from === c);
    const dests = new Set(mine.filter((m) => m.to != null).map((m) => m.to));
    const caps = mine.filter((m) => (m.captures || []).length).length;
    let text = `${on} `;
    if (!mine.length) text += esc(t('rules-ex-no-move'));
    else {
      text += esc(t('rules-ex-moves', { cells: dests.size, captures: caps }));
      const list = mine.map((m) => m.text);
      text += ` <span class="ex-moves">${esc(list.slice(0, 24).join(' '))}${list.length > 24 ? ' …' : ''}</span>`;
    }
    if (p.owner !== st.to_move && st.to_move != null) text += ` <span class="muted">${esc(t('rules-ex-as-if', this.playerOf(p.owner)))}</span>`;
    el.innerHTML = text;
  }

  /** @param {number} c */
  useTool(c) {
    if (this.busy || !this.st) return;
    const tool = this.tool;
    if (tool.type === 'erase') { if (this.st.board[c]) this.putAt(c, null); return; }
    if (tool.type !== 'put') return;
    const cur = this.st.board[c];
    // the same piece again: take it off
    if (cur && cur.owner === tool.owner && cur.kind === tool.kind) { this.putAt(c, null); return; }
    this.putAt(c, { owner: tool.owner, kind: tool.kind });
  }

  /** @param {number} c @param {Piece | null} piece */
  async putAt(c, piece) {
    const ok = await this.request({ put: [{ cell: this.cellName(c), piece }] });
    if (ok && piece) { this.board.selectCell(c); this.lastCell = c; this.describe(); }
  }

  // A move clicked on the board: the piece goes there (the pieces it takes go away); the explorer
  // moves pieces about, it does not play the game (whose turn it is stays).
  /** @param {Move} m */
  async relocate(m) {
    const p = m.from == null ? null : this.st?.board[m.from];
    if (!p || m.from == null || m.to == null) { this.render(); return; }
    if ((m.pieces_moved ?? 1) > 1) {
      this.render();
      this.showError(t('rules-ex-line'));
      return;
    }
    const kind = m.promotion || p.kind;
    /** @type {{cell: string, piece: Piece | null}[]} */
    const put = [{ cell: this.cellName(m.from), piece: null }];
    for (const c of m.captures || []) if (c !== m.from && c !== m.to) put.push({ cell: this.cellName(c), piece: null });
    put.push({ cell: this.cellName(m.to), piece: { owner: p.owner, kind } });
    const ok = await this.request({ put });
    if (!ok) this.render();
    else { const to = m.to; this.board.selectCell(to); this.lastCell = to; this.describe(); }
  }
}

// A message with one argument in bold (the rest of it escaped).
/** @param {string} key @param {string} name @param {string} value @param {Record<string, string>} [args] */
function bold(key, name, value, args = {}) {
  const mark = '\u0001';
  return esc(t(key, { ...args, [name]: mark })).replace(mark, `<b>${esc(value)}</b>`);
}

/** @type {Explorer | null} */
let explorer = null;

// ---------------------------------------------------------------- start
let sharedPage = false;
async function main() {
  try {
    games = (await api('/api/games')).map(localGame);
    learnDrawings(games);
  } catch (ex) {
    $('#rules').innerHTML = `<p class="message error">${esc(t('games-error', { error: errorText(ex) }))}</p>`;
    return;
  }
  renderTabs();
  const info = infoOf(pageGame);
  if (!info) {
    const list = games.map((g) => `<a href="/rules/${encodeURIComponent(g.id)}">${esc(g.name)}</a>`).join(', ');
    $('#rules').innerHTML = `<h1>${esc(t('rules-no-game-title'))}</h1><p class="message error">${esc(t('rules-no-game', { game: pageGame }))} `
      + `${esc(t('rules-no-game-list'))} ${list}.</p>`;
    $('#explorer').hidden = true;
    return;
  }
  $('#analysis-link').href = `/analysis?game=${encodeURIComponent(pageGame)}`;
  const shown = new Explorer(info);
  explorer = shown;
  const started = shown.load(pageGame, { game: pageGame });
  try {
    renderText(await api(`/api/rules/${encodeURIComponent(pageGame)}?lang=${encodeURIComponent(lang)}`));
  } catch (ex) {
    $('#rules').innerHTML = `<p class="message error">${esc(t('rules-load-error', { error: errorText(ex) }))}</p>`;
  }
  await renderDiagrams();
  await started;
  // a page whose diagrams show several games (Ant Chess for two and three): the explorer says
  // which it plays
  sharedPage = new Set([...document.querySelectorAll('#rules figure.diagram')].map((f) => /** @type {HTMLElement} */ (f).dataset.game)).size > 1;
  if (sharedPage) $('#ex-game').textContent = shown.info.name;
  // a link to a heading: the text above it has changed height meanwhile
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  document.body.dataset.ready = '1';
}

main();
