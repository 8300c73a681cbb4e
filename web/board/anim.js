// @ts-check
// Animation (as chessground's anim.ts): the piece of a move slides from its cell to its
// destination, by a CSS transition of its inner group from the offset it is drawn at.

/** @typedef {import('./state.js').State} State */
/** @typedef {import('./state.js').Piece} Piece */

/**
 * Where the piece drawn on cell `c` starts its slide from, relative to the cell, if it is the
 * piece of the move to slide.
 * @param {State} s @param {number} c @returns {{x: string, y: string} | null}
 */
export function slideOffset(s, c) {
  const geo = s.geo, anim = s.anim;
  if (!geo || !anim || anim.to !== c || !geo.cells[anim.from]) return null;
  return {
    x: (geo.cells[anim.from].x - geo.cells[c].x).toFixed(1),
    y: (geo.cells[anim.from].y - geo.cells[c].y).toFixed(1),
  };
}

/**
 * Once the pieces are drawn: starts the slide of the piece drawn at its offset, and forgets
 * the move (it slides once).
 * @param {State} s
 */
export function startSlide(s) {
  if (!s.anim) return;
  s.anim = null;
  const moving = /** @type {SVGGElement | null} */ (s.dom.layer.pieces.querySelector('.mb-animating .mb-slide'));
  if (moving) {
    moving.getBoundingClientRect();
    requestAnimationFrame(() => requestAnimationFrame(() => {
      moving.style.transition = 'transform 0.18s ease-out';
      moving.style.transform = 'translate(0px, 0px)';
    }));
  }
}

/**
 * The move to slide when a new position comes from outside: the last move's, if its piece was
 * on its start cell before and a piece of the same player is now on its destination that was
 * not there already.
 * @param {import('./state.js').LastMove | null} lm  the new last move
 * @param {(Piece | null)[]} before  the pieces shown until now
 * @param {(Piece | null)[]} after  the new pieces
 * @returns {{from: number, to: number} | null}
 */
export function slideOfUpdate(lm, before, after) {
  if (lm && !Array.isArray(lm) && lm.from != null && lm.to != null) {
    const a = before[lm.from], b = after[lm.to];
    if (a && b && a.owner === b.owner && !(before[lm.to] && before[lm.to]?.owner === b.owner && before[lm.to]?.kind === b.kind)) return { from: lm.from, to: lm.to };
  }
  return null;
}
