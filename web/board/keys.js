// @ts-check
// Keyboard input: the arrow keys move the focus between cells (outlining the destination when
// a piece is selected), Enter or Space clicks the focused cell, Escape drops the selection.

import { neighbourIn } from './geometry.js';
import { clickCell, deselect } from './moves.js';
import { focusCell, render } from './render.js';

/** @type {Record<string, [number, number]>} */
const DIRECTIONS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** Listens to the keys on the board's cells. @param {import('./state.js').State} s */
export function bindKeys(s) {
  s.dom.svg.addEventListener('keydown', (e) => {
    const el = /** @type {SVGElement | null | undefined} */ (/** @type {Element} */ (e.target).closest?.('[data-cell]'));
    if (!el) return;
    const c = Number(el.dataset.cell);
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      clickCell(s, c);
      if (!s.chooser) focusCell(s, c);
      return;
    }
    if (e.key === 'Escape') { deselect(s); return; }
    const dir = DIRECTIONS[e.key];
    if (dir && s.geo) {
      e.preventDefault();
      const n = neighbourIn(s.geo, c, ...dir);
      if (n != null) {
        if (s.selected != null) { s.hover = n; render(s); }
        focusCell(s, n);
      }
    }
  });
}
