// @ts-check
// Pointer input (as chessground's drag.ts): a press on a cell selects, plays or clicks; a
// press on a piece that may move starts a drag, which becomes a move where it is dropped (or
// a second click, when the pointer hardly moved), or a premove while another player moves;
// the destination under the pointer is outlined.

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

  // a touch screen: bigger destination marks (CSS), a dragged piece drawn above the finger
  if (window.matchMedia?.('(pointer: coarse)').matches) s.dom.element.classList.add('touch');

  svg.addEventListener('pointerdown', (e) => {
    s.dom.element.classList.toggle('touch', e.pointerType === 'touch' || e.pointerType === 'pen');
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    const c = cellOf(e);
    // (a board bigger than its box, under a finger: what is not a move may scroll it)
    const el = s.dom.element;
    const pan = e.pointerType !== 'mouse' && (el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight);
    const startPan = () => {
      s.pan = { cell: c, x0: e.clientX, y0: e.clientY, left0: el.scrollLeft, top0: el.scrollTop, moved: false, pointerId: e.pointerId };
      try { svg.setPointerCapture(e.pointerId); } catch { /* ignore */ }
    };
    if (c == null) { if (pan) startPan(); else deselect(s); return; }
    if (s.chooser) { deselect(s); }
    if (!movable(s)) {
      if (pan) startPan();
      else if (s.cfg.premoveSeat != null) {
        e.preventDefault();
        clickCell(s, c);
        // a piece of that seat picked for a premove: dragged, it is dropped where it is to go
        if (s.selected === c) {
          s.drag = { cell: c, x0: e.clientX, y0: e.clientY, started: false, pointerId: e.pointerId, wasSelected: false, premove: true };
          try { svg.setPointerCapture(e.pointerId); } catch { /* ignore */ }
        }
      }
      return;
    }
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
    if (pan) { startPan(); return; }
    clickCell(s, c);
  });

  svg.addEventListener('pointermove', (e) => {
    const p = s.pan;
    if (p && e.pointerId === p.pointerId) {
      const dx = e.clientX - p.x0, dy = e.clientY - p.y0;
      if (!p.moved && Math.hypot(dx, dy) < 8) return;
      p.moved = true;
      s.dom.element.scrollLeft = p.left0 - dx;
      s.dom.element.scrollTop = p.top0 - dy;
      return;
    }
    const drag = s.drag;
    if (drag && e.pointerId === drag.pointerId) {
      if (!drag.started) {
        if (Math.hypot(e.clientX - drag.x0, e.clientY - drag.y0) < 5) return;
        drag.started = true;
        const p = /** @type {import('./state.js').Piece} */ (pieces(s)[drag.cell]);
        const scale = /** @type {import('./geometry.js').Geometry} */ (s.geo).pieceScale * (e.pointerType === 'mouse' ? 1.12 : 1.5);
        layer.drag.innerHTML = `<g class="mb-dragging"><g transform="scale(${scale}) translate(-50 -50)">${pieceSvg(s.cfg.game, p.kind, p.owner)}</g></g>`;
        render(s);
      }
      const pt = svgPoint(svg, e);
      // (under a finger, the piece is drawn above it, where it can be seen; the cell it would go
      // to is still the one under the finger, outlined)
      const lift = e.pointerType === 'mouse' ? 0 : /** @type {import('./geometry.js').Geometry} */ (s.geo).unit * 0.95;
      layer.drag.firstElementChild?.setAttribute('transform', `translate(${pt.x} ${pt.y - lift})`);
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
    const p = s.pan;
    if (p && e.pointerId === p.pointerId) {
      s.pan = null;
      try { svg.releasePointerCapture(e.pointerId); } catch { /* ignore */ }
      // lifted where it went down: a tap
      if (!p.moved && !cancelled) {
        if (p.cell == null) deselect(s);
        else clickCell(s, p.cell);
      }
      return;
    }
    const d = s.drag;
    if (!d || e.pointerId !== d.pointerId) return;
    s.drag = null;
    layer.drag.innerHTML = '';
    try { svg.releasePointerCapture(e.pointerId); } catch { /* ignore */ }
    if (cancelled) { render(s); return; }
    const target = cellOf(e);
    if (d.started && d.premove) {
      s.hover = null;
      if (target != null && target !== d.cell) clickCell(s, target);
      else render(s);
      return;
    }
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
