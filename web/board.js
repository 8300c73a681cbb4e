// The board of every game: one SVG, driven by one config object and callbacks (in the manner
// of lichess's chessground).
//
//   const b = createBoard(element, {
//     game: 'ackenhead',            // game id (chooses the piece drawings)
//     board: {...},                 // the `board` description from GET /api/games
//     pieceNames: [{letter, name}], // the game's `pieces` (for labels), optional
//     pieces: [...],                // the state's `board` array: {owner, kind} or null
//     players: ['White', 'Black'],
//     orientation: false,           // true / 'flipped': rotated 180 degrees
//     rotation: 0,                  // hexagons: turned by this many degrees more (a multiple of 60)
//     legal: [...],                 // the state's `legal_cells`
//     lastMove: {from, to, captures} | null,
//     checkCells: [], toMove: 0,   // the state's `check_cells`: cells that glow, in check
//     movable: true,                // may the user move now
//     onMove: (text) => {},         // a move chosen by the user
//     showNames: false,             // cell names on every cell (the hexagon)
//     coordinates: true,            // files and ranks along the edges (square boards)
//     animation: true, optimistic: true, // a move of one piece shown before the server answers
//     preview: null,                // cells to outline (e.g. a move hovered in the move list)
//   });
//   b.set({pieces, legal, ...});    // change any part of the config
//   b.cancel();                     // drop the selection and close the chooser
//   b.selectCell(c);                // select the piece on cell c (its destinations shown)
//   b.destroy();

import { pieceSvg, pieceDataUrl } from './pieces.js';

const SVGNS = 'http://www.w3.org/2000/svg';
let instances = 0;

const DEFAULTS = {
  game: '', board: null, pieceNames: [], pieces: [], players: [], orientation: false, rotation: 0,
  legal: [], lastMove: null, checkCells: [], toMove: null, movable: false, onMove: null,
  showNames: false, coordinates: true, animation: true, optimistic: true, preview: null,
};

function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

export function isFlipped(orientation) {
  return orientation === true || orientation === 'flipped' || orientation === 1 || orientation === 'black';
}

// Geometry: each cell's centre and outline, in viewBox units, for a board description.
export function layout(board, flipped, rotation = 0) {
  const rows = board.rows;
  const n = board.cells.length;
  const cells = new Array(n);
  let W, H;
  if (board.kind === 'hex') {
    const w = 100, s = w / Math.sqrt(3), h = 2 * s, dy = 1.5 * s;
    const rot = ((Math.round((+rotation || 0) / 60) * 60) % 360) * Math.PI / 180; // (the cells stay pointy-topped)
    W = Math.max(...rows.map((r) => (r.indent + 2 * r.cells.length) * (w / 2)));
    H = (rows.length - 1) * dy + h;
    rows.forEach((row, ri) => {
      row.cells.forEach((c, k) => {
        const u = row.indent + 2 * k;
        let x = u * (w / 2) + w / 2, y = ri * dy + h / 2;
        if (flipped) { x = W - x; y = H - y; }
        if (rot) {
          const dx = x - W / 2, dy2 = y - H / 2;
          [x, y] = [W / 2 + dx * Math.cos(rot) - dy2 * Math.sin(rot), H / 2 + dx * Math.sin(rot) + dy2 * Math.cos(rot)];
        }
        const q = (u - ri) / 2;
        const tone = (((q - ri) % 3) + 3) % 3;
        const pts = [];
        for (let i = 0; i < 6; i++) {
          const a = (Math.PI / 180) * (60 * i - 90);
          pts.push(`${(x + s * Math.cos(a)).toFixed(2)},${(y + s * Math.sin(a)).toFixed(2)}`);
        }
        cells[c] = { x, y, tone, points: pts.join(' '), row: ri, k };
      });
    });
    return { kind: 'hex', W, H, cells, unit: w, pieceScale: 0.9, hitR: s };
  }
  const cols = Math.max(...rows.map((r) => r.cells.length));
  W = cols * 100;
  H = rows.length * 100;
  rows.forEach((row, ri) => {
    row.cells.forEach((c, k) => {
      let x = k * 100 + 50 + (row.indent || 0) * 50, y = ri * 100 + 50;
      if (flipped) { x = W - x; y = H - y; }
      const fromBottom = rows.length - 1 - ri;
      cells[c] = { x, y, tone: (fromBottom + k) % 2 === 0 ? 0 : 1, row: ri, k };
    });
  });
  return { kind: 'square', W, H, cells, unit: 100, pieceScale: 1, hitR: 50 };
}

export function createBoard(element, config) {
  const id = `mb${++instances}`;
  const st = { ...DEFAULTS, ...config };
  let geo = null;
  let selected = null;
  let hover = null;
  let chooser = null; // {moves, to}
  let chooserPreview = null;
  let drag = null; // {cell, x0, y0, started, pointerId, wasSelected}
  let anim = null; // {from, to} of a move to slide
  let localPieces = null; // optimistic position after a move of ours
  let localLast = null;
  let pendingMove = false;

  element.classList.add('mb-wrap');
  element.innerHTML = '';
  const svg = document.createElementNS(SVGNS, 'svg');
  svg.setAttribute('class', 'mb-board');
  svg.setAttribute('role', 'group');
  svg.setAttribute('aria-label', 'Board: arrow keys move between cells, Enter or Space selects a piece and plays a move');
  element.appendChild(svg);
  const chooserEl = document.createElement('div');
  chooserEl.className = 'mb-chooser';
  chooserEl.hidden = true;
  element.appendChild(chooserEl);

  const layer = {};
  function buildSkeleton() {
    svg.innerHTML = `<defs>
        <radialGradient id="${id}-check" r="0.6">
          <stop offset="0%" stop-color="#ff0000" stop-opacity="1"/>
          <stop offset="30%" stop-color="#e70000" stop-opacity="0.9"/>
          <stop offset="75%" stop-color="#a90000" stop-opacity="0.25"/>
          <stop offset="100%" stop-color="#9e0000" stop-opacity="0"/>
        </radialGradient>
      </defs>
      <g class="mb-cells"></g><g class="mb-special"></g><g class="mb-marks"></g>
      <g class="mb-pieces"></g><g class="mb-coords"></g><g class="mb-dests"></g><g class="mb-names"></g>
      <g class="mb-hit"></g><g class="mb-drag"></g>`;
    for (const name of ['cells', 'special', 'marks', 'coords', 'pieces', 'dests', 'names', 'hit', 'drag']) {
      layer[name] = svg.querySelector(`.mb-${name}`);
    }
  }
  buildSkeleton();

  // ---- helpers ----
  const pieces = () => localPieces ?? st.pieces ?? [];
  const lastMove = () => (localPieces ? localLast : st.lastMove);
  const movable = () => !!st.movable && !pendingMove && !!st.legal;
  const cellName = (c) => st.board?.cells?.[c] ?? String(c);
  function pieceName(kind) {
    const list = st.pieceNames || [];
    const found = Array.isArray(list) ? list.find((p) => p.letter === kind) : null;
    return found ? found.name : (list && !Array.isArray(list) && list[kind]) || kind;
  }
  function describePiece(p) {
    if (!p) return 'empty';
    const who = st.players?.[p.owner] ?? `player ${p.owner + 1}`;
    return `${who} ${pieceName(p.kind)}`;
  }
  function movesFrom(c) { return (st.legal || []).filter((m) => m.from === c); }
  function destsOf(c) {
    const map = new Map();
    for (const m of movesFrom(c)) if (m.to != null) {
      if (!map.has(m.to)) map.set(m.to, []);
      map.get(m.to).push(m);
    }
    return map;
  }
  function canSelect(c) {
    if (!movable()) return false;
    if (movesFrom(c).length) return true;
    const p = pieces()[c];
    return !!p && p.owner === st.toMove;
  }
  const checkCells = () => new Set(st.checkCells || []);

  // ---- static layers ----
  function renderStatic() {
    if (!st.board) { svg.removeAttribute('viewBox'); return; }
    geo = layout(st.board, isFlipped(st.orientation), st.rotation || 0);
    const pad = geo.kind === 'hex' ? 4 : 0;
    svg.setAttribute('viewBox', `${-pad} ${-pad} ${geo.W + 2 * pad} ${geo.H + 2 * pad}`);
    svg.dataset.kind = geo.kind;
    element.dataset.kind = geo.kind;
    element.style.setProperty('--mb-aspect', `${geo.W + 2 * pad} / ${geo.H + 2 * pad}`);
    element.style.setProperty('--ar', ((geo.W + 2 * pad) / (geo.H + 2 * pad)).toFixed(4));
    let cells = '', hit = '';
    geo.cells.forEach((g, c) => {
      if (!g) return;
      if (geo.kind === 'hex') {
        cells += `<polygon class="mb-cell t${g.tone}" points="${g.points}"/>`;
        hit += `<polygon class="mb-hitcell" data-cell="${c}" tabindex="-1" role="button" points="${g.points}"/>`;
      } else {
        cells += `<rect class="mb-cell ${g.tone ? 'light' : 'dark'}" x="${g.x - 50}" y="${g.y - 50}" width="100" height="100"/>`;
        hit += `<rect class="mb-hitcell" data-cell="${c}" tabindex="-1" role="button" x="${g.x - 50}" y="${g.y - 50}" width="100" height="100"/>`;
      }
    });
    layer.cells.innerHTML = cells;
    layer.hit.innerHTML = hit;
    let special = '';
    for (const sp of st.board.special || []) {
      const g = geo.cells[sp.cell];
      if (!g) continue;
      // a marked cell (the anthill, a Ponte): a shaded disc with rings, under the pieces
      // (an outline along the cell's edge stays in sight when a piece stands there)
      let edge;
      if (geo.kind === 'hex') {
        const r = (geo.unit / Math.sqrt(3)) * 0.84;
        const pts = [];
        for (let i = 0; i < 6; i++) { const an = (Math.PI / 180) * (60 * i - 90); pts.push(`${(r * Math.cos(an)).toFixed(2)},${(r * Math.sin(an)).toFixed(2)}`); }
        edge = `<polygon class="mb-special-edge" points="${pts.join(' ')}"/>`;
      } else {
        edge = `<rect class="mb-special-edge" x="-44" y="-44" width="88" height="88" rx="9"/>`;
      }
      special += `<g class="mb-special-cell" transform="translate(${g.x} ${g.y})">${edge}<circle class="mb-special-bg" r="38"/>`
        + `<circle class="mb-special-outer" r="36"/><circle r="24"/><circle r="12"/>`
        + `<title>${esc(sp.name || '')}</title></g>`;
    }
    layer.special.innerHTML = special;
    // one cell in the tab order: the focused one, or a piece of the side to move
    renderCoords();
    renderNames();
  }

  function renderCoords() {
    let out = '';
    if (geo && geo.kind === 'square' && st.coordinates) {
      const maxY = Math.max(...geo.cells.filter(Boolean).map((g) => g.y));
      const minX = Math.min(...geo.cells.filter(Boolean).map((g) => g.x));
      geo.cells.forEach((g, c) => {
        if (!g) return;
        const name = cellName(c);
        const cls = g.tone ? 'on-light' : 'on-dark';
        if (g.y === maxY) {
          const file = (name.match(/^[a-z]+/i) || [''])[0];
          out += `<text class="mb-coord ${cls}" x="${g.x + 45}" y="${g.y + 44}" text-anchor="end">${esc(file)}</text>`;
        }
        if (g.x === minX) {
          const rank = (name.match(/\d+$/) || [''])[0];
          out += `<text class="mb-coord ${cls}" x="${g.x - 45}" y="${g.y - 25}">${esc(rank)}</text>`;
        }
      });
    }
    layer.coords.innerHTML = out;
  }

  function renderNames() {
    let out = '';
    if (geo && st.showNames) {
      geo.cells.forEach((g, c) => {
        if (!g) return;
        const y = geo.kind === 'hex' ? g.y + 40 : g.y + 42;
        const x = geo.kind === 'hex' ? g.x : g.x - 44;
        out += `<text class="mb-name" x="${x}" y="${y}" text-anchor="${geo.kind === 'hex' ? 'middle' : 'start'}">${esc(cellName(c))}</text>`;
      });
    }
    layer.names.innerHTML = out;
  }

  // ---- dynamic layers ----
  function shape(c, cls, extra = '') {
    const g = geo.cells[c];
    if (!g) return '';
    if (geo.kind === 'hex') return `<polygon class="${cls}" points="${g.points}" ${extra}/>`;
    return `<rect class="${cls}" x="${g.x - 50}" y="${g.y - 50}" width="100" height="100" ${extra}/>`;
  }

  function pieceMarkup(c, p, opts = {}) {
    const g = geo.cells[c];
    const sc = geo.pieceScale;
    let inner = `<g transform="scale(${sc}) translate(-50 -50)">${pieceSvg(st.game, p.kind, p.owner)}</g>`;
    let style = '';
    if (opts.fromX != null) style = ` style="transform: translate(${opts.fromX}px, ${opts.fromY}px)"`;
    return `<g class="mb-piece${opts.cls ? ' ' + opts.cls : ''}" data-cell="${c}" transform="translate(${g.x} ${g.y})"><g class="mb-slide"${style}>${inner}</g></g>`;
  }

  function render() {
    if (!geo) return;
    const ps = pieces();
    const lm = lastMove();
    let marks = '';
    if (lm) {
      const cells = Array.isArray(lm) ? lm : [lm.from, lm.to];
      for (const c of cells) if (c != null) marks += shape(c, 'mb-last');
      if (!Array.isArray(lm)) for (const c of lm.captures || []) if (c !== lm.to && c != null) marks += shape(c, 'mb-last-capt');
    }
    const kc = checkCells();
    for (const c of kc) marks += shape(c, 'mb-check', `fill="url(#${id}-check)"`);
    if (selected != null) marks += shape(selected, 'mb-selected');
    const dests = selected != null ? destsOf(selected) : new Map();
    if (selected != null) {
      const capt = new Set();
      for (const m of movesFrom(selected)) for (const c of m.captures || []) if (!dests.has(c)) capt.add(c);
      for (const c of capt) marks += shape(c, 'mb-capt');
      if (hover != null && dests.has(hover)) {
        marks += shape(hover, 'mb-hover');
        for (const m of dests.get(hover)) for (const c of m.captures || []) if (c !== hover) marks += shape(c, 'mb-capt-strong');
      }
    }
    if (chooserPreview) for (const c of chooserPreview.captures || []) marks += shape(c, 'mb-capt-strong');
    if (st.preview) for (const c of [st.preview.from, st.preview.to]) if (c != null) marks += shape(c, 'mb-preview');
    layer.marks.innerHTML = marks;

    let out = '';
    ps.forEach((p, c) => {
      if (!p || !geo.cells[c]) return;
      const opts = {};
      if (drag && drag.started && drag.cell === c) opts.cls = 'mb-ghost';
      if (anim && anim.to === c && geo.cells[anim.from]) {
        opts.fromX = (geo.cells[anim.from].x - geo.cells[c].x).toFixed(1);
        opts.fromY = (geo.cells[anim.from].y - geo.cells[c].y).toFixed(1);
        opts.cls = ((opts.cls || '') + ' mb-animating').trim();
      }
      out += pieceMarkup(c, p, opts);
    });
    layer.pieces.innerHTML = out;
    if (anim) {
      anim = null;
      const moving = layer.pieces.querySelector('.mb-animating .mb-slide');
      if (moving) {
        moving.getBoundingClientRect();
        requestAnimationFrame(() => requestAnimationFrame(() => {
          moving.style.transition = 'transform 0.18s ease-out';
          moving.style.transform = 'translate(0px, 0px)';
        }));
      }
    }

    let d = '';
    for (const [c, ms] of dests) {
      const g = geo.cells[c];
      const captures = ms.some((m) => (m.captures || []).includes(c)) || (ps[c] && ps[c].owner !== ps[selected]?.owner);
      if (captures) d += `<circle class="mb-ring" cx="${g.x}" cy="${g.y}" r="${geo.kind === 'hex' ? 42 : 44}"/>`;
      else d += `<circle class="mb-dot" cx="${g.x}" cy="${g.y}" r="14"/>`;
    }
    // a move with a `from` and no `to`: click the piece twice; show it as a ring on the piece
    if (selected != null && movesFrom(selected).some((m) => m.to == null)) {
      const g = geo.cells[selected];
      d += `<circle class="mb-self" cx="${g.x}" cy="${g.y}" r="30"/>`;
    }
    layer.dests.innerHTML = d;

    // labels of the hit layer
    let tabbable = null;
    const active = document.activeElement;
    for (const el of layer.hit.children) {
      const c = +el.dataset.cell;
      let label = `${cellName(c)}, ${describePiece(ps[c])}`;
      const sp = (st.board.special || []).find((x) => x.cell === c);
      if (sp && sp.name) label += `, ${sp.name}`;
      if (c === selected) label += ', selected';
      else if (dests.has(c)) label += ', move here';
      if (kc.has(c)) label += ', in check';
      el.setAttribute('aria-label', label);
      if (el === active) tabbable = el;
    }
    if (!tabbable) {
      tabbable = (selected != null && layer.hit.querySelector(`[data-cell="${selected}"]`))
        || [...layer.hit.children].find((el) => (st.legal || []).some((m) => m.from === +el.dataset.cell))
        || layer.hit.firstElementChild;
    }
    for (const el of layer.hit.children) el.setAttribute('tabindex', el === tabbable ? '0' : '-1');
    svg.classList.toggle('mb-movable', movable());
  }

  // ---- selection and moves ----
  function select(c) {
    selected = c;
    closeChooser();
    render();
  }
  function deselect() {
    if (selected == null && !chooser) return;
    selected = null;
    hover = null;
    closeChooser();
    render();
  }
  function uniqueByText(ms) {
    const seen = new Set();
    return ms.filter((m) => (seen.has(m.text) ? false : (seen.add(m.text), true)));
  }
  function tryMove(from, to, viaDrag = false) {
    const ms = uniqueByText((st.legal || []).filter((m) => m.from === from && m.to === to));
    if (ms.length === 0) return false;
    if (ms.length === 1) { commit(ms[0], viaDrag); return true; }
    openChooser(ms, to ?? from);
    return true;
  }
  function commit(m, viaDrag = false) {
    closeChooser();
    selected = null;
    hover = null;
    // (shown at once when it moves one piece: a phalanx of several waits for the server)
    if (st.optimistic && m.to != null && m.from != null && m.pieces_moved === 1) {
      const ps = pieces().slice();
      const mover = ps[m.from];
      for (const c of m.captures || []) if (c !== m.from) ps[c] = null;
      ps[m.from] = null;
      ps[m.to] = mover && m.promotion ? { ...mover, kind: m.promotion } : mover;
      localPieces = ps;
      localLast = { from: m.from, to: m.to, captures: m.captures || [] };
      if (!viaDrag && st.animation) anim = { from: m.from, to: m.to };
    }
    pendingMove = true;
    render();
    if (typeof st.onMove === 'function') st.onMove(m.text, m);
  }

  function promotionIcon(m) {
    if (!m.promotion) return '';
    const owner = pieces()[m.from]?.owner ?? st.toMove ?? 0;
    return `<img alt="" src="${pieceDataUrl(st.game, m.promotion, owner)}">`;
  }
  function openChooser(ms, at) {
    chooser = { moves: ms, at };
    const g = geo.cells[at];
    const vb = svg.viewBox.baseVal;
    const left = ((g.x - vb.x) / vb.width) * 100;
    const top = ((g.y - vb.y) / vb.height) * 100;
    chooserEl.innerHTML = `<div class="mb-chooser-title">Which move?</div>` + ms.map((m, i) => {
      const caps = (m.captures || []).filter((c) => c != null).map(cellName);
      const capText = caps.length ? `<span class="mb-chooser-caps">takes ${esc(caps.join(', '))}</span>` : '';
      return `<button type="button" data-i="${i}">${promotionIcon(m)}<span class="mb-chooser-text">${esc(m.text)}</span>${capText}</button>`;
    }).join('') + `<button type="button" class="mb-chooser-cancel" data-cancel="1">Cancel</button>`;
    chooserEl.hidden = false;
    // place it next to the cell, kept inside the board
    chooserEl.style.left = '0px';
    chooserEl.style.top = '0px';
    const box = element.getBoundingClientRect();
    const cw = chooserEl.offsetWidth, ch = chooserEl.offsetHeight;
    let x = (left / 100) * box.width - cw / 2;
    let y = (top / 100) * box.height + 20;
    if (y + ch > box.height) y = (top / 100) * box.height - ch - 20;
    x = Math.max(4, Math.min(x, box.width - cw - 4));
    y = Math.max(4, Math.min(y, box.height - ch - 4));
    chooserEl.style.left = `${x}px`;
    chooserEl.style.top = `${y}px`;
    chooserEl.querySelector('button')?.focus();
    render();
  }
  function closeChooser() {
    if (!chooser) return;
    chooser = null;
    chooserPreview = null;
    chooserEl.hidden = true;
    chooserEl.innerHTML = '';
  }
  chooserEl.addEventListener('click', (e) => {
    const b = e.target.closest('button');
    if (!b || !chooser) return;
    if (b.dataset.cancel) { deselect(); focusCell(chooser?.at ?? selected); return; }
    commit(chooser.moves[+b.dataset.i]);
  });
  const previewFrom = (e) => {
    const b = e.target.closest('button[data-i]');
    chooserPreview = b && chooser ? chooser.moves[+b.dataset.i] : null;
    render();
  };
  chooserEl.addEventListener('pointerover', previewFrom);
  chooserEl.addEventListener('focusin', previewFrom);
  chooserEl.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { e.preventDefault(); const at = chooser?.at; deselect(); focusCell(at); }
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const bs = [...chooserEl.querySelectorAll('button')];
      const i = bs.indexOf(document.activeElement);
      bs[(i + (e.key === 'ArrowDown' ? 1 : bs.length - 1)) % bs.length].focus();
    }
  });

  // a click (or Enter) on a cell
  function clickCell(c) {
    if (!movable()) { deselect(); return; }
    if (selected != null) {
      if (destsOf(selected).has(c)) { tryMove(selected, c); return; }
      if (c === selected) {
        if (movesFrom(c).some((m) => m.to == null)) { tryMove(c, null); return; }
        deselect();
        return;
      }
    }
    if (canSelect(c)) { select(c); return; }
    if ((st.legal || []).some((m) => m.from == null && m.to === c)) { tryMove(null, c); return; }
    deselect();
  }

  // ---- pointer input ----
  function svgPoint(e) {
    const pt = svg.createSVGPoint();
    pt.x = e.clientX;
    pt.y = e.clientY;
    const m = svg.getScreenCTM();
    return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
  }
  function cellAt(p) {
    if (!geo) return null;
    let best = null, bd = Infinity;
    geo.cells.forEach((g, c) => {
      if (!g) return;
      const dx = p.x - g.x, dy = p.y - g.y;
      if (geo.kind === 'square' && (Math.abs(dx) > 50 || Math.abs(dy) > 50)) return;
      const d = dx * dx + dy * dy;
      if (d < bd) { bd = d; best = c; }
    });
    if (geo.kind === 'hex' && bd > geo.hitR * geo.hitR) return null;
    return best;
  }

  svg.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    const c = cellAt(svgPoint(e));
    if (c == null) { deselect(); return; }
    if (chooser) { deselect(); }
    if (!movable()) return;
    if (selected != null && selected !== c && destsOf(selected).has(c)) {
      e.preventDefault();
      tryMove(selected, c);
      return;
    }
    if (canSelect(c) && pieces()[c]) {
      e.preventDefault();
      const wasSelected = selected === c;
      if (!wasSelected) select(c);
      drag = { cell: c, x0: e.clientX, y0: e.clientY, started: false, pointerId: e.pointerId, wasSelected };
      try { svg.setPointerCapture(e.pointerId); } catch { /* ignore */ }
      return;
    }
    clickCell(c);
  });

  svg.addEventListener('pointermove', (e) => {
    if (drag && e.pointerId === drag.pointerId) {
      if (!drag.started) {
        if (Math.hypot(e.clientX - drag.x0, e.clientY - drag.y0) < 5) return;
        drag.started = true;
        const p = pieces()[drag.cell];
        layer.drag.innerHTML = `<g class="mb-dragging"><g transform="scale(${geo.pieceScale * 1.12}) translate(-50 -50)">${pieceSvg(st.game, p.kind, p.owner)}</g></g>`;
        render();
      }
      const pt = svgPoint(e);
      layer.drag.firstElementChild?.setAttribute('transform', `translate(${pt.x} ${pt.y})`);
      const over = cellAt(pt);
      if (over !== hover) { hover = over; render(); }
      return;
    }
    if (selected != null && e.pointerType === 'mouse') {
      const over = cellAt(svgPoint(e));
      if (over !== hover) { hover = over; render(); }
    }
  });

  function endDrag(e, cancelled) {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const d = drag;
    drag = null;
    layer.drag.innerHTML = '';
    try { svg.releasePointerCapture(e.pointerId); } catch { /* ignore */ }
    if (cancelled) { render(); return; }
    const target = cellAt(svgPoint(e));
    if (d.started) {
      hover = null;
      if (target != null && target !== d.cell && destsOf(d.cell).has(target)) {
        if (tryMove(d.cell, target, true)) return;
      }
      render();
      return;
    }
    // a plain click on a piece already selected: a second click
    if (d.wasSelected && target === d.cell) {
      if (movesFrom(d.cell).some((m) => m.to == null)) tryMove(d.cell, null);
      else deselect();
    }
  }
  svg.addEventListener('pointerup', (e) => endDrag(e, false));
  svg.addEventListener('pointercancel', (e) => endDrag(e, true));
  svg.addEventListener('pointerleave', (e) => {
    if (!drag && hover != null) { hover = null; render(); }
  });
  svg.addEventListener('contextmenu', (e) => { if (drag) e.preventDefault(); });

  // ---- keyboard ----
  function focusCell(c) {
    if (c == null) return;
    const el = layer.hit.querySelector(`[data-cell="${c}"]`);
    if (!el) return;
    for (const o of layer.hit.children) o.setAttribute('tabindex', o === el ? '0' : '-1');
    el.focus();
  }
  function neighbourIn(c, dx, dy) {
    const g0 = geo.cells[c];
    let best = null, bd = Infinity;
    geo.cells.forEach((g, i) => {
      if (!g || i === c) return;
      const vx = g.x - g0.x, vy = g.y - g0.y;
      const along = vx * dx + vy * dy;
      if (along <= 1) return;
      const across = Math.abs(vx * dy - vy * dx);
      const score = along + across * 2.5;
      if (score < bd) { bd = score; best = i; }
    });
    return best;
  }
  svg.addEventListener('keydown', (e) => {
    const el = e.target.closest?.('[data-cell]');
    if (!el) return;
    const c = +el.dataset.cell;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      clickCell(c);
      if (!chooser) focusCell(c);
      return;
    }
    if (e.key === 'Escape') { deselect(); return; }
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[e.key]) {
      e.preventDefault();
      const n = neighbourIn(c, ...dirs[e.key]);
      if (n != null) {
        if (selected != null) { hover = n; render(); }
        focusCell(n);
      }
    }
  });

  document.addEventListener('pointerdown', onOutside, true);
  function onOutside(e) {
    if (chooser && !element.contains(e.target)) deselect();
  }

  // ---- config updates ----
  function set(partial) {
    const prev = { ...st };
    Object.assign(st, partial);
    const staticChanged = 'board' in partial && partial.board !== prev.board
      || 'orientation' in partial && isFlipped(partial.orientation) !== isFlipped(prev.orientation)
      || 'rotation' in partial && (partial.rotation || 0) !== (prev.rotation || 0);
    if ('pieces' in partial || 'legal' in partial) {
      // a new position from outside replaces our optimistic one
      if ('pieces' in partial && st.animation && !staticChanged && geo) {
        const lm = st.lastMove;
        const before = localPieces ?? prev.pieces ?? [];
        if (lm && !Array.isArray(lm) && lm.from != null && lm.to != null) {
          const a = before[lm.from], b = (partial.pieces || [])[lm.to];
          if (a && b && a.owner === b.owner && !(before[lm.to] && before[lm.to].owner === b.owner && before[lm.to].kind === b.kind)) anim = { from: lm.from, to: lm.to };
        }
      }
      localPieces = null;
      localLast = null;
      pendingMove = false;
      if (selected != null && !movesFrom(selected).length && !(canSelect(selected))) selected = null;
      if (selected != null && (!movable())) selected = null;
    }
    if ('movable' in partial && !partial.movable) { selected = null; closeChooser(); }
    if (chooser && !movable()) closeChooser();
    if (staticChanged || !geo) { selected = staticChanged ? null : selected; renderStatic(); }
    else {
      if ('showNames' in partial && partial.showNames !== prev.showNames) renderNames();
      if ('coordinates' in partial && partial.coordinates !== prev.coordinates) renderCoords();
    }
    render();
  }

  renderStatic();
  render();

  return {
    set,
    cancel: deselect,
    /** Select the piece on cell c (as a click would), if it may be selected; null: deselect. */
    selectCell(c) { if (c == null) deselect(); else if (canSelect(c)) select(c); },
    get selected() { return selected; },
    get config() { return { ...st }; },
    focus() { focusCell(selected ?? +layer.hit.querySelector('[tabindex="0"]')?.dataset.cell); },
    /** Revert an optimistic move (the server refused it). */
    revert() { localPieces = null; localLast = null; pendingMove = false; render(); },
    destroy() {
      document.removeEventListener('pointerdown', onOutside, true);
      element.innerHTML = '';
      element.classList.remove('mb-wrap');
    },
  };
}
