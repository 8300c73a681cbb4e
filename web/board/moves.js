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
 * Offers moves `ms` in the chooser, next to cell `at` and inside the board.
 * @param {State} s @param {Move[]} ms @param {number} at
 */
function openChooser(s, ms, at) {
  const { element, svg, chooserEl } = s.dom;
  s.chooser = { moves: ms, at };
  const g = /** @type {import('./geometry.js').Geometry} */ (s.geo).cells[at];
  const vb = svg.viewBox.baseVal;
  const left = ((g.x - vb.x) / vb.width) * 100;
  const top = ((g.y - vb.y) / vb.height) * 100;
  chooserEl.innerHTML = `<div class="mb-chooser-title">${esc(t('chooser-title'))}</div>` + ms.map((m, i) => {
    const caps = (m.captures || []).filter((c) => c != null).map((c) => cellName(s, c));
    const capText = caps.length ? `<span class="mb-chooser-caps">${esc(t('chooser-takes', { cells: caps.join(', ') }))}</span>` : '';
    return `<button type="button" data-i="${i}">${promotionIcon(s, m)}<span class="mb-chooser-text">${esc(m.text)}</span>${capText}</button>`;
  }).join('') + `<button type="button" class="mb-chooser-cancel" data-cancel="1">${esc(t('cancel'))}</button>`;
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

/** A click (or Enter) on cell `c`. @param {State} s @param {number} c */
export function clickCell(s, c) {
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
