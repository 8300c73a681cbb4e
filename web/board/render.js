// @ts-check
// Drawing (as chessground's render.ts): the SVG's layers from the state. The static layers
// (cells, marked cells, coordinates, names, the hit targets) change with the board and its
// orientation; the others (marks, pieces, destinations, the hit targets' labels) with
// everything else.

import { esc } from '../common.js';
import { pieceSvg } from '../pieces.js';
import { isFlipped, layout } from './geometry.js';
import { slideOffset, startSlide } from './anim.js';
import { cellName, checkCells, describePiece, destsOf, lastMove, movable, movesFrom, pieces } from './state.js';
import { t } from '../i18n.js';

/** @typedef {import('./state.js').State} State */
/** @typedef {import('./state.js').Dom} Dom */
/** @typedef {import('./state.js').LayerName} LayerName */

const SVGNS = 'http://www.w3.org/2000/svg';

/** @type {LayerName[]} */
const LAYERS = ['cells', 'special', 'marks', 'coords', 'pieces', 'dests', 'names', 'hit', 'drag'];

/**
 * Makes the board's elements in `element` (emptied first): the SVG and its layers, and the
 * chooser.
 * @param {HTMLElement} element @param {string} id @returns {Dom}
 */
export function createDom(element, id) {
  element.classList.add('mb-wrap');
  element.innerHTML = '';
  const svg = document.createElementNS(SVGNS, 'svg');
  svg.setAttribute('class', 'mb-board');
  svg.setAttribute('role', 'group');
  svg.setAttribute('aria-label', t('board-label'));
  element.appendChild(svg);
  const chooserEl = document.createElement('div');
  chooserEl.className = 'mb-chooser';
  chooserEl.hidden = true;
  element.appendChild(chooserEl);
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
  const layer = /** @type {Record<LayerName, SVGGElement>} */ ({});
  for (const name of LAYERS) layer[name] = /** @type {SVGGElement} */ (svg.querySelector(`.mb-${name}`));
  return { id, element, svg, chooserEl, layer };
}

// ---- static layers ----

/** The layout, the cells, the marked cells, the hit targets, the coordinates and names. @param {State} s */
export function renderStatic(s) {
  const { svg, element, layer } = s.dom;
  const board = s.cfg.board;
  if (!board) { svg.removeAttribute('viewBox'); return; }
  const geo = layout(board, isFlipped(s.cfg.orientation), s.cfg.rotation || 0);
  s.geo = geo;
  // the margin: the coordinates are drawn there, outside the cells (never over a piece)
  const coords = !!s.cfg.coordinates;
  const pad = geo.kind === 'hex' ? (coords ? HEX_COORD_PAD : 4) : 0;
  const left = geo.kind === 'square' && coords ? SQUARE_COORD_PAD : pad;
  const bottom = left;
  const vbW = geo.W + pad + left, vbH = geo.H + pad + bottom;
  svg.setAttribute('viewBox', `${-left} ${-pad} ${vbW} ${vbH}`);
  svg.dataset.kind = geo.kind;
  element.dataset.kind = geo.kind;
  element.style.setProperty('--mb-aspect', `${vbW} / ${vbH}`);
  element.style.setProperty('--ar', (vbW / vbH).toFixed(4));
  // (how many cells wide the board is: a zoomed board's width, in cells of a fixed size)
  element.style.setProperty('--mb-cols', (vbW / geo.unit).toFixed(3));
  let cells = geo.kind === 'square' ? `<rect class="mb-frame" x="0" y="0" width="${geo.W}" height="${geo.H}"/>` : '', hit = '';
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
  for (const sp of board.special || []) {
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
  renderCoords(s);
  renderNames(s);
}

// The margins that hold the coordinates (viewBox units; a cell is 100 wide).
const SQUARE_COORD_PAD = 34;
const HEX_COORD_PAD = 40;

/** A cell's name split into its letters and its number ('e11': ['e', '11']). @param {string} name */
const nameParts = (name) => /^([a-z]+)(\d+)$/i.exec(name)?.slice(1) ?? [name, ''];

/**
 * The coordinates along the edges, outside the cells: on a square board the files below it and
 * the ranks on its left; on the hexagon each row's letters on its left end and the numbers above
 * the cells where they start (the top edges) and below those where they end (the bottom edges),
 * all as drawn (flipped or turned with the board).
 * @param {State} s
 */
export function renderCoords(s) {
  const geo = s.geo;
  let out = '';
  if (geo && s.cfg.coordinates) {
    const drawn = geo.cells.filter(Boolean);
    if (geo.kind === 'square') {
      const maxY = Math.max(...drawn.map((g) => g.y));
      const minX = Math.min(...drawn.map((g) => g.x));
      geo.cells.forEach((g, c) => {
        if (!g) return;
        const [file, rank] = nameParts(cellName(s, c));
        if (g.y === maxY) out += `<text class="mb-coord" x="${g.x}" y="${g.y + 50 + SQUARE_COORD_PAD * 0.72}" text-anchor="middle">${esc(file)}</text>`;
        if (g.x === minX) out += `<text class="mb-coord" x="${g.x - 50 - SQUARE_COORD_PAD / 2}" y="${g.y + 7}" text-anchor="middle">${esc(rank)}</text>`;
      });
    } else if (s.cfg.board) {
      out = hexCoords(s, geo);
    }
  }
  s.dom.layer.coords.innerHTML = out;
}

/**
 * The hexagon's coordinates (see renderCoords): chosen on the board as described (unturned),
 * then drawn where the board's turn puts them.
 * @param {State} s @param {import('./geometry.js').Geometry} geo
 */
function hexCoords(s, geo) {
  const board = /** @type {import('./state.js').BoardDesc} */ (s.cfg.board);
  const base = layout(board, false, 0);
  const cx = geo.W / 2, cy = geo.H / 2;
  // the turn of the drawn board from the described one: from any two cells far apart
  const ids = base.cells.map((g, c) => (g ? c : -1)).filter((c) => c >= 0);
  const c1 = ids[ids.length - 1];
  const angle = (/** @type {{x: number, y: number}} */ g) => Math.atan2(g.y - cy, g.x - cx);
  const turn = angle(geo.cells[c1]) - angle(base.cells[c1]);
  /** @param {number} x @param {number} y */
  const place = (x, y) => {
    const dx = x - cx, dy = y - cy;
    return [cx + dx * Math.cos(turn) - dy * Math.sin(turn), cy + dx * Math.sin(turn) + dy * Math.cos(turn)];
  };
  const off = geo.unit * 0.76;
  /**
   * @param {number} c @param {number[]} normals  the edges' outward directions, in degrees, to choose from
   * @param {string} text
   */
  const label = (c, normals, text) => {
    const g = base.cells[c];
    const a = angle(g) * 180 / Math.PI;
    const diff = (/** @type {number} */ n) => Math.abs(((a - n + 540) % 360) - 180);
    const n = normals.reduce((best, x) => (diff(x) < diff(best) ? x : best));
    const r = n * Math.PI / 180;
    const [x, y] = place(g.x + off * Math.cos(r), g.y + off * Math.sin(r));
    return `<text class="mb-coord" x="${x.toFixed(1)}" y="${(y + 7).toFixed(1)}" text-anchor="middle">${esc(text)}</text>`;
  };
  let out = '';
  // each row's letters, left of its first cell
  for (const row of board.rows) {
    const first = row.cells[0];
    if (first != null && base.cells[first]) out += label(first, [150, 180, 210], nameParts(cellName(s, first))[0]);
  }
  // each number above its highest cell and below its lowest
  /** @type {Map<string, number[]>} */
  const byNumber = new Map();
  for (const c of ids) {
    const num = nameParts(cellName(s, c))[1];
    if (!num) continue;
    if (!byNumber.has(num)) byNumber.set(num, []);
    byNumber.get(num)?.push(c);
  }
  for (const [num, cs] of byNumber) {
    const top = cs.reduce((a, b) => (base.cells[b].y < base.cells[a].y ? b : a));
    const bottom = cs.reduce((a, b) => (base.cells[b].y > base.cells[a].y ? b : a));
    out += label(top, [-90, -30], num);
    out += label(bottom, [90, 30], num);
  }
  return out;
}

/** The name of every cell on it (`showNames`). @param {State} s */
export function renderNames(s) {
  const geo = s.geo;
  let out = '';
  if (geo && s.cfg.showNames) {
    geo.cells.forEach((g, c) => {
      if (!g) return;
      const y = geo.kind === 'hex' ? g.y + 40 : g.y + 42;
      const x = geo.kind === 'hex' ? g.x : g.x - 44;
      out += `<text class="mb-name" x="${x}" y="${y}" text-anchor="${geo.kind === 'hex' ? 'middle' : 'start'}">${esc(cellName(s, c))}</text>`;
    });
  }
  s.dom.layer.names.innerHTML = out;
}

// ---- dynamic layers ----

/**
 * The outline of cell `c` with class `cls`.
 * @param {import('./geometry.js').Geometry} geo @param {number} c @param {string} cls @param {string} [extra]
 */
function shape(geo, c, cls, extra = '') {
  const g = geo.cells[c];
  if (!g) return '';
  if (geo.kind === 'hex') return `<polygon class="${cls}" points="${g.points}" ${extra}/>`;
  return `<rect class="${cls}" x="${g.x - 50}" y="${g.y - 50}" width="100" height="100" ${extra}/>`;
}

/**
 * A piece on cell `c`, drawn at an offset when it is to slide from there.
 * @param {State} s @param {number} c @param {import('./state.js').Piece} p
 * @param {{cls?: string, fromX?: string, fromY?: string}} [opts]
 */
function pieceMarkup(s, c, p, opts = {}) {
  const geo = /** @type {import('./geometry.js').Geometry} */ (s.geo);
  const g = geo.cells[c];
  const sc = geo.pieceScale;
  let inner = `<g transform="scale(${sc}) translate(-50 -50)">${pieceSvg(s.cfg.game, p.kind, p.owner)}</g>`;
  let style = '';
  if (opts.fromX != null) style = ` style="transform: translate(${opts.fromX}px, ${opts.fromY}px)"`;
  return `<g class="mb-piece${opts.cls ? ' ' + opts.cls : ''}" data-cell="${c}" transform="translate(${g.x} ${g.y})"><g class="mb-slide"${style}>${inner}</g></g>`;
}

/**
 * The dynamic layers: the marks (last move, check, selection, captures, hover, preview), the
 * pieces, the destinations of the selected piece, and the hit targets' labels and tab order.
 * @param {State} s
 */
export function render(s) {
  const geo = s.geo;
  if (!geo) return;
  const { layer, svg } = s.dom;
  const selected = s.selected, hover = s.hover;
  const ps = pieces(s);
  const lm = lastMove(s);
  let marks = '';
  if (lm) {
    const cells = Array.isArray(lm) ? lm : [lm.from, lm.to];
    for (const c of cells) if (c != null) marks += shape(geo, c, 'mb-last');
    if (!Array.isArray(lm)) for (const c of lm.captures || []) if (c !== lm.to && c != null) marks += shape(geo, c, 'mb-last-capt');
  }
  const kc = checkCells(s);
  for (const c of kc) marks += shape(geo, c, 'mb-check', `fill="url(#${s.dom.id}-check)"`);
  if (selected != null) marks += shape(geo, selected, 'mb-selected');
  const dests = selected != null ? destsOf(s, selected) : new Map();
  if (selected != null) {
    const capt = new Set();
    for (const m of movesFrom(s, selected)) for (const c of m.captures || []) if (!dests.has(c)) capt.add(c);
    for (const c of capt) marks += shape(geo, c, 'mb-capt');
    if (hover != null && dests.has(hover)) {
      marks += shape(geo, hover, 'mb-hover');
      for (const m of dests.get(hover)) for (const c of m.captures || []) if (c !== hover) marks += shape(geo, c, 'mb-capt-strong');
    }
  }
  if (s.chooserPreview) for (const c of s.chooserPreview.captures || []) marks += shape(geo, c, 'mb-capt-strong');
  const pm = s.cfg.premove;
  if (pm) for (const c of [pm.from, pm.to]) marks += shape(geo, c, 'mb-premove');
  const preview = s.cfg.preview;
  if (preview) for (const c of [preview.from, preview.to]) if (c != null) marks += shape(geo, c, 'mb-preview');
  layer.marks.innerHTML = marks;

  let out = '';
  ps.forEach((p, c) => {
    if (!p || !geo.cells[c]) return;
    /** @type {{cls?: string, fromX?: string, fromY?: string}} */
    const opts = {};
    if (s.drag && s.drag.started && s.drag.cell === c) opts.cls = 'mb-ghost';
    const from = slideOffset(s, c);
    if (from) {
      opts.fromX = from.x;
      opts.fromY = from.y;
      opts.cls = ((opts.cls || '') + ' mb-animating').trim();
    }
    out += pieceMarkup(s, c, p, opts);
  });
  layer.pieces.innerHTML = out;
  startSlide(s);

  let d = '';
  const mover = selected != null ? ps[selected] : null;
  for (const [c, ms] of dests) {
    const g = geo.cells[c];
    const captures = ms.some((/** @type {import('./state.js').Move} */ m) => (m.captures || []).includes(c)) || (ps[c] && ps[c]?.owner !== mover?.owner);
    if (captures) d += `<circle class="mb-ring" cx="${g.x}" cy="${g.y}" r="${geo.kind === 'hex' ? 42 : 44}"/>`;
    else d += `<circle class="mb-dot" cx="${g.x}" cy="${g.y}" r="14"/>`;
  }
  // a move with a `from` and no `to`: click the piece twice; show it as a ring on the piece
  if (selected != null && movesFrom(s, selected).some((m) => m.to == null)) {
    const g = geo.cells[selected];
    d += `<circle class="mb-self" cx="${g.x}" cy="${g.y}" r="30"/>`;
  }
  layer.dests.innerHTML = d;

  // labels of the hit layer; one cell in the tab order: the focused one, else the selected
  // one, else one with a piece that can move
  /** @type {Element | null} */
  let tabbable = null;
  const active = document.activeElement;
  for (const el of hitCells(s)) {
    const c = Number(el.dataset.cell);
    let label = `${cellName(s, c)}, ${describePiece(s, ps[c])}`;
    const sp = (s.cfg.board?.special || []).find((x) => x.cell === c);
    if (sp && sp.name) label += `, ${sp.name}`;
    if (c === selected) label += `, ${t('cell-selected')}`;
    else if (dests.has(c)) label += `, ${t('cell-move-here')}`;
    if (kc.has(c)) label += `, ${t('cell-in-check')}`;
    el.setAttribute('aria-label', label);
    if (el === active) tabbable = el;
  }
  if (!tabbable) {
    tabbable = (selected != null ? layer.hit.querySelector(`[data-cell="${selected}"]`) : null)
      || hitCells(s).find((el) => (s.cfg.legal || []).some((m) => m.from === Number(el.dataset.cell)))
      || layer.hit.firstElementChild;
  }
  for (const el of layer.hit.children) el.setAttribute('tabindex', el === tabbable ? '0' : '-1');
  svg.classList.toggle('mb-movable', movable(s));
}

/** The hit targets, one a cell. @param {State} s @returns {SVGElement[]} */
function hitCells(s) {
  return /** @type {SVGElement[]} */ ([...s.dom.layer.hit.children]);
}

/** Moves the keyboard's focus (and the one tab stop) to cell `c`. @param {State} s @param {number | null | undefined} c */
export function focusCell(s, c) {
  if (c == null) return;
  const hit = s.dom.layer.hit;
  const el = /** @type {SVGElement | null} */ (hit.querySelector(`[data-cell="${c}"]`));
  if (!el) return;
  for (const o of hit.children) o.setAttribute('tabindex', o === el ? '0' : '-1');
  el.focus();
}
