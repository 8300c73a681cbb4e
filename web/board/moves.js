// @ts-check
// Selection and moves (as chessground's board.ts): selecting a piece, playing a move (shown at
// once when it moves one piece), the chooser of the moves that share their cells, and what a
// click on a cell means.

import { esc } from '../common.js';
import { pieceDataUrl } from '../pieces.js';
import { focusCell, render } from './render.js';
import { canSelect, cellName, destsOf, movable, movesFrom, pieces } from './state.js';
import { t } from '../i18n.js';

/** @typedef {import('./state.js').State} State */
/** @typedef {import('./state.js').Move} Move */

/** Selects the piece on cell `c`. @param {State} s @param {number} c */
export function select(s, c) {
  s.selected = c;
  closeChooser(s);
  render(s);
}

/** Drops the selection and closes the chooser. @param {State} s */
export function deselect(s) {
  if (s.selected == null && !s.chooser) return;
  s.selected = null;
  s.hover = null;
  closeChooser(s);
  render(s);
}

/** @param {Move[]} ms */
function uniqueByText(ms) {
  const seen = new Set();
  return ms.filter((m) => (seen.has(m.text) ? false : (seen.add(m.text), true)));
}

/**
 * Plays the move from `from` to `to`, or offers the chooser when several share those cells;
 * false if there is none.
 * @param {State} s @param {number | null} from @param {number | null} to @param {boolean} [viaDrag]
 */
export function tryMove(s, from, to, viaDrag = false) {
  const ms = uniqueByText((s.cfg.legal || []).filter((m) => m.from === from && m.to === to));
  if (ms.length === 0) return false;
  if (ms.length === 1) { commit(s, ms[0], viaDrag); return true; }
  openChooser(s, ms, /** @type {number} */ (to ?? from));
  return true;
}

/**
 * Plays move `m`: shows it at once when it moves one piece (and the board is optimistic),
 * then tells the caller.
 * @param {State} s @param {Move} m @param {boolean} [viaDrag]
 */
function commit(s, m, viaDrag = false) {
  closeChooser(s);
  s.selected = null;
  s.hover = null;
  // (shown at once when it moves one piece: a phalanx of several waits for the server)
  if (s.cfg.optimistic && m.to != null && m.from != null && m.pieces_moved === 1) {
    const ps = pieces(s).slice();
    const mover = ps[m.from];
    for (const c of m.captures || []) if (c !== m.from) ps[c] = null;
    ps[m.from] = null;
    ps[m.to] = mover && m.promotion ? { ...mover, kind: m.promotion } : mover;
    s.localPieces = ps;
    s.localLast = { from: m.from, to: m.to, captures: m.captures || [] };
    if (!viaDrag && s.cfg.animation) s.anim = { from: m.from, to: m.to };
  }
  s.pendingMove = true;
  render(s);
  if (typeof s.cfg.onMove === 'function') s.cfg.onMove(m.text, m);
}

/** The picture of the piece a move promotes to, for the chooser. @param {State} s @param {Move} m */
function promotionIcon(s, m) {
  if (!m.promotion) return '';
  const owner = (m.from != null ? pieces(s)[m.from]?.owner : undefined) ?? s.cfg.toMove ?? 0;
  return `<img alt="" src="${pieceDataUrl(s.cfg.game, m.promotion, owner)}">`;
}

/**
 * Offers moves `ms` in the chooser, next to cell `at` and inside the board, covering none of the
 * cells it names (the moves' cells and the cells they take) when there is room.
 * @param {State} s @param {Move[]} ms @param {number} at
 */
function openChooser(s, ms, at) {
  const { element, svg, chooserEl } = s.dom;
  s.chooser = { moves: ms, at };
  const geo = /** @type {import('./geometry.js').Geometry} */ (s.geo);
  chooserEl.innerHTML = `<div class="mb-chooser-title">${esc(t('chooser-title'))}</div>` + ms.map((m, i) => {
    const caps = (m.captures || []).filter((c) => c != null).map((c) => cellName(s, c));
    const capText = caps.length ? `<span class="mb-chooser-caps">${esc(t('chooser-takes', { cells: caps.join(', ') }))}</span>` : '';
    return `<button type="button" data-i="${i}">${promotionIcon(s, m)}<span class="mb-chooser-text">${esc(m.text)}</span>${capText}</button>`;
  }).join('') + `<button type="button" class="mb-chooser-cancel" data-cancel="1">${esc(t('cancel'))}</button>`;
  chooserEl.hidden = false;
  chooserEl.style.left = '0px';
  chooserEl.style.top = '0px';
  // the cells, in the element's pixels (it may be scrolled: a zoomed board)
  const vb = svg.viewBox.baseVal;
  const sr = svg.getBoundingClientRect(), er = element.getBoundingClientRect();
  const k = sr.width / vb.width;
  const ox = sr.left - er.left + element.scrollLeft, oy = sr.top - er.top + element.scrollTop;
  const half = (geo.kind === 'hex' ? geo.hitR : 50) * k;
  /** @param {number} c */
  const rectOf = (c) => {
    const g = geo.cells[c];
    const x = ox + (g.x - vb.x) * k, y = oy + (g.y - vb.y) * k;
    return { l: x - half, t: y - half, r: x + half, b: y + half, x, y };
  };
  const named = new Set([at]);
  for (const m of ms) for (const c of [m.from, m.to, ...(m.captures || [])]) if (c != null && geo.cells[c]) named.add(c);
  const rects = [...named].map(rectOf);
  const cw = chooserEl.offsetWidth, ch = chooserEl.offsetHeight;
  // the part of the board in sight
  const view = { l: element.scrollLeft, t: element.scrollTop, r: element.scrollLeft + element.clientWidth, b: element.scrollTop + element.clientHeight };
  const a = rectOf(at);
  const gap = 6;
  /** @type {[number, number][]} */
  const candidates = [
    [a.x - cw / 2, a.b + gap], [a.x - cw / 2, a.t - ch - gap], [a.r + gap, a.y - ch / 2], [a.l - cw - gap, a.y - ch / 2],
  ];
  // then along the edges of what is in sight
  for (const fy of [0, 0.5, 1]) for (const fx of [0, 0.5, 1]) candidates.push([view.l + 4 + fx * (view.r - view.l - cw - 8), view.t + 4 + fy * (view.b - view.t - ch - 8)]);
  /** @param {[number, number]} p */
  const clamp = ([x, y]) => [Math.max(view.l + 4, Math.min(x, view.r - cw - 4)), Math.max(view.t + 4, Math.min(y, view.b - ch - 4))];
  /** @param {number[]} p */
  const covered = ([x, y]) => rects.reduce((sum, r) => sum + Math.max(0, Math.min(r.r, x + cw) - Math.max(r.l, x)) * Math.max(0, Math.min(r.b, y + ch) - Math.max(r.t, y)), 0);
  let best = clamp(candidates[0]), bestCover = covered(best);
  for (const p of candidates) {
    if (bestCover === 0) break;
    const q = clamp(p);
    const c = covered(q);
    if (c < bestCover) { best = q; bestCover = c; }
  }
  chooserEl.style.left = `${best[0]}px`;
  chooserEl.style.top = `${best[1]}px`;
  chooserEl.querySelector('button')?.focus();
  render(s);
}

/** @param {State} s */
export function closeChooser(s) {
  if (!s.chooser) return;
  s.chooser = null;
  s.chooserPreview = null;
  s.dom.chooserEl.hidden = true;
  s.dom.chooserEl.innerHTML = '';
}

/** The chooser's clicks, the preview of the move under the pointer or the focus, its keys. @param {State} s */
export function bindChooser(s) {
  const chooserEl = s.dom.chooserEl;
  /** @param {Event} e @param {string} selector */
  const buttonOf = (e, selector) => /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (e.target).closest(selector));
  chooserEl.addEventListener('click', (e) => {
    const b = buttonOf(e, 'button');
    if (!b || !s.chooser) return;
    if (b.dataset.cancel) { deselect(s); focusCell(s, s.chooser?.at ?? s.selected); return; }
    commit(s, s.chooser.moves[Number(b.dataset.i)]);
  });
  /** @param {Event} e */
  const previewFrom = (e) => {
    const b = buttonOf(e, 'button[data-i]');
    s.chooserPreview = b && s.chooser ? s.chooser.moves[Number(b.dataset.i)] : null;
    render(s);
  };
  chooserEl.addEventListener('pointerover', previewFrom);
  chooserEl.addEventListener('focusin', previewFrom);
  chooserEl.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { e.preventDefault(); const at = s.chooser?.at; deselect(s); focusCell(s, at); }
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const bs = [...chooserEl.querySelectorAll('button')];
      const i = bs.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
      bs[(i + (e.key === 'ArrowDown' ? 1 : bs.length - 1)) % bs.length].focus();
    }
  });
}

/**
 * A click on cell `c` while another player moves (`premoveSeat`): a piece of that seat is
 * selected, then the cell clicked is where it is to go (a premove, which the caller plays when
 * its turn comes, if it is legal then); any click drops a premove chosen before.
 * @param {State} s @param {number} c
 */
function premoveClick(s, c) {
  const seat = s.cfg.premoveSeat;
  const own = (/** @type {number} */ x) => pieces(s)[x]?.owner === seat;
  const notify = (/** @type {{from: number, to: number} | null} */ pm) => { s.cfg.premove = pm; s.cfg.onPremove?.(pm); };
  if (s.cfg.premove) { notify(null); if (!own(c)) { deselect(s); render(s); return; } }
  if (s.selected != null && s.selected !== c && !own(c)) {
    const pm = { from: s.selected, to: c };
    s.selected = null;
    notify(pm);
    render(s);
    return;
  }
  if (own(c) && s.selected !== c) { select(s, c); return; }
  deselect(s);
}

/** A click (or Enter) on cell `c`. @param {State} s @param {number} c */
export function clickCell(s, c) {
  if (!movable(s) && s.cfg.premoveSeat != null && !s.pendingMove) { premoveClick(s, c); return; }
  if (!movable(s)) { deselect(s); return; }
  const selected = s.selected;
  if (selected != null) {
    if (destsOf(s, selected).has(c)) { tryMove(s, selected, c); return; }
    if (c === selected) {
      if (movesFrom(s, c).some((m) => m.to == null)) { tryMove(s, c, null); return; }
      deselect(s);
      return;
    }
  }
  if (canSelect(s, c)) { select(s, c); return; }
  if ((s.cfg.legal || []).some((m) => m.from == null && m.to === c)) { tryMove(s, null, c); return; }
  deselect(s);
}
