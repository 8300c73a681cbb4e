// @ts-check
// Pointer input (as chessground's drag.ts): a press on a cell selects, plays or clicks; a
// press on a piece that may move starts a drag, which becomes a move where it is dropped (or
// a second click, when the pointer hardly moved); the destination under the pointer is
// outlined.

import { cellAt } from './geometry.js';
import { clickCell, deselect, select, tryMove } from './moves.js';
import { render } from './render.js';
import { canSelect, destsOf, movable, movesFrom, pieces } from './state.js';
import { pieceSvg } from '../pieces.js';

/** @typedef {import('./state.js').State} State */

/**
 * The pointer's place in the SVG's viewBox units.
 * @param {SVGSVGElement} svg @param {PointerEvent} e @returns {{x: number, y: number}}
 */
function svgPoint(svg, e) {
  const pt = svg.createSVGPoint();
  pt.x = e.clientX;
  pt.y = e.clientY;
  const m = svg.getScreenCTM();
  return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
}

/** Listens to the pointer on the board. @param {State} s */
export function bindPointer(s) {
  const { svg, layer } = s.dom;
  /** @param {PointerEvent} e */
  const cellOf = (e) => cellAt(s.geo, svgPoint(svg, e));

  svg.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    const c = cellOf(e);
    if (c == null) { deselect(s); return; }
    if (s.chooser) { deselect(s); }
    if (!movable(s)) return;
    const selected = s.selected;
    if (selected != null && selected !== c && destsOf(s, selected).has(c)) {
      e.preventDefault();
      tryMove(s, selected, c);
      return;
    }
    if (canSelect(s, c) && pieces(s)[c]) {
      e.preventDefault();
      const wasSelected = selected === c;
      if (!wasSelected) select(s, c);
      s.drag = { cell: c, x0: e.clientX, y0: e.clientY, started: false, pointerId: e.pointerId, wasSelected };
      try { svg.setPointerCapture(e.pointerId); } catch { /* ignore */ }
      return;
    }
    clickCell(s, c);
  });

  svg.addEventListener('pointermove', (e) => {
    const drag = s.drag;
    if (drag && e.pointerId === drag.pointerId) {
      if (!drag.started) {
        if (Math.hypot(e.clientX - drag.x0, e.clientY - drag.y0) < 5) return;
        drag.started = true;
        const p = /** @type {import('./state.js').Piece} */ (pieces(s)[drag.cell]);
        const scale = /** @type {import('./geometry.js').Geometry} */ (s.geo).pieceScale * 1.12;
        layer.drag.innerHTML = `<g class="mb-dragging"><g transform="scale(${scale}) translate(-50 -50)">${pieceSvg(s.cfg.game, p.kind, p.owner)}</g></g>`;
        render(s);
      }
      const pt = svgPoint(svg, e);
      layer.drag.firstElementChild?.setAttribute('transform', `translate(${pt.x} ${pt.y})`);
      const over = cellAt(s.geo, pt);
      if (over !== s.hover) { s.hover = over; render(s); }
      return;
    }
    if (s.selected != null && e.pointerType === 'mouse') {
      const over = cellOf(e);
      if (over !== s.hover) { s.hover = over; render(s); }
    }
  });

  /** @param {PointerEvent} e @param {boolean} cancelled */
  function endDrag(e, cancelled) {
    const d = s.drag;
    if (!d || e.pointerId !== d.pointerId) return;
    s.drag = null;
    layer.drag.innerHTML = '';
    try { svg.releasePointerCapture(e.pointerId); } catch { /* ignore */ }
    if (cancelled) { render(s); return; }
    const target = cellOf(e);
    if (d.started) {
      s.hover = null;
      if (target != null && target !== d.cell && destsOf(s, d.cell).has(target)) {
        if (tryMove(s, d.cell, target, true)) return;
      }
      render(s);
      return;
    }
    // a plain click on a piece already selected: a second click
    if (d.wasSelected && target === d.cell) {
      if (movesFrom(s, d.cell).some((m) => m.to == null)) tryMove(s, d.cell, null);
      else deselect(s);
    }
  }
  svg.addEventListener('pointerup', (e) => endDrag(e, false));
  svg.addEventListener('pointercancel', (e) => endDrag(e, true));
  svg.addEventListener('pointerleave', () => {
    if (!s.drag && s.hover != null) { s.hover = null; render(s); }
  });
  svg.addEventListener('contextmenu', (e) => { if (s.drag) e.preventDefault(); });
}
