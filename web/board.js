// @ts-check
// The board of every game: one SVG, driven by one config object and callbacks (in the manner
// of lichess's chessground).
//
//   const b = createBoard(element, {
//     game: 'ackenhead',            // game id (chooses the piece drawings)
//     board: {...},                 // the `board` description from GET /api/games
//     pieceNames: [{letter, name}], // the game's `pieces` (for labels), optional
//     pieces: [...],                // the state's `board` array: {owner, kind} or null
//     players: ['White', 'Black'],
//     playerNumbers: ['singular', 'singular'], // how a sentence takes each name ("des Noirs")
//     orientation: false,           // true / 'flipped': rotated 180 degrees
//     rotation: 0,                  // hexagons: turned by this many degrees more (a multiple of 60)
//     legal: [...],                 // the state's `legal_cells`
//     lastMove: {from, to, captures} | null,
//     checkCells: [], toMove: 0,   // the state's `check_cells`: cells that glow, in check
//     movable: true,                // may the user move now
//     onMove: (text) => {},         // a move chosen by the user
//     showNames: false,             // cell names on every cell (the hexagon)
//     coordinates: true,            // files and ranks (rows and numbers) along the edges, outside
//     animation: true, optimistic: true, // a move of one piece shown before the server answers
//     preview: null,                // cells to outline (e.g. a move hovered in the move list)
//     premoveSeat: null,            // while another moves: the seat whose next move may be chosen ahead
//     premove: null, onPremove: (pm) => {}, // that move ({from, to}), shown; chosen or dropped
//   });
//   b.set({pieces, legal, ...});    // change any part of the config
//   b.cancel();                     // drop the selection and close the chooser
//   b.selectCell(c);                // select the piece on cell c (its destinations shown)
//   b.destroy();
//
// The config and its types are in board/state.js. The parts, as chessground's: board/state.js
// the state and the questions asked of it, board/geometry.js the cells' layout,
// board/render.js the drawing, board/anim.js the sliding of moved pieces, board/moves.js the
// selection, the moves and the chooser, board/drag.js the pointer, board/keys.js the keyboard.
// This file makes a board of them and applies changes of its config.

import { slideOfUpdate } from './board/anim.js';
import { bindPointer } from './board/drag.js';
import { isFlipped } from './board/geometry.js';
import { bindKeys } from './board/keys.js';
import { bindChooser, closeChooser, deselect, select } from './board/moves.js';
import { createDom, focusCell, render, renderNames, renderStatic } from './board/render.js';
import { canSelect, createState, movable, movesFrom } from './board/state.js';

export { isFlipped, layout } from './board/geometry.js';

/** @typedef {import('./board/state.js').Config} Config */

let instances = 0;

/**
 * A board in `element`, driven by `config` (any part of a {@link Config}).
 * @param {HTMLElement} element
 * @param {Partial<Config>} config
 */
export function createBoard(element, config) {
  const s = createState(config, createDom(element, `mb${++instances}`));
  const st = s.cfg;
  bindChooser(s);
  bindPointer(s);
  bindKeys(s);

  document.addEventListener('pointerdown', onOutside, true);
  /** @param {PointerEvent} e */
  function onOutside(e) {
    if (s.chooser && !element.contains(/** @type {Node} */ (e.target))) deselect(s);
  }

  /** Changes any part of the config. @param {Partial<Config>} partial */
  function set(partial) {
    // nothing to draw when every value given is one it has already (a number, a string…)
    const same = Object.entries(partial).every(([k, v]) => (v === null || (typeof v !== 'object' && typeof v !== 'function'))
      && v === st[/** @type {keyof Config} */ (k)]);
    if (same) return;
    const prev = { ...st };
    Object.assign(st, partial);
    const staticChanged = 'board' in partial && partial.board !== prev.board
      || 'orientation' in partial && isFlipped(partial.orientation) !== isFlipped(prev.orientation)
      || 'rotation' in partial && (partial.rotation || 0) !== (prev.rotation || 0)
      || 'coordinates' in partial && !!partial.coordinates !== !!prev.coordinates;
    if ('pieces' in partial || 'legal' in partial) {
      // a new position from outside replaces our optimistic one
      if ('pieces' in partial && st.animation && !staticChanged && s.geo) {
        const slide = slideOfUpdate(st.lastMove, s.localPieces ?? prev.pieces ?? [], partial.pieces || []);
        if (slide) s.anim = slide;
      }
      s.localPieces = null;
      s.localLast = null;
      s.pendingMove = false;
      if (s.selected != null && !movesFrom(s, s.selected).length && !(canSelect(s, s.selected))) s.selected = null;
      if (s.selected != null && (!movable(s))) s.selected = null;
    }
    // (a piece selected for a premove stays selected while the other player thinks)
    if ('movable' in partial && !partial.movable && prev.movable) { s.selected = null; closeChooser(s); }
    if ('premoveSeat' in partial && partial.premoveSeat == null && prev.premoveSeat != null && !movable(s)) s.selected = null;
    if (s.chooser && !movable(s)) closeChooser(s);
    if (staticChanged || !s.geo) { s.selected = staticChanged ? null : s.selected; renderStatic(s); }
    else {
      if ('showNames' in partial && partial.showNames !== prev.showNames) renderNames(s);
    }
    render(s);
  }

  renderStatic(s);
  render(s);

  return {
    set,
    cancel: () => deselect(s),
    /** Select the piece on cell c (as a click would), if it may be selected; null: deselect. @param {number | null} c */
    selectCell(c) { if (c == null) deselect(s); else if (canSelect(s, c)) select(s, c); },
    get selected() { return s.selected; },
    get config() { return { ...st }; },
    focus() {
      const tab = /** @type {SVGElement | null} */ (s.dom.layer.hit.querySelector('[tabindex="0"]'));
      focusCell(s, s.selected ?? +(/** @type {string} */ (tab?.dataset.cell)));
    },
    /** Revert an optimistic move (the server refused it). */
    revert() { s.localPieces = null; s.localLast = null; s.pendingMove = false; render(s); },
    destroy() {
      document.removeEventListener('pointerdown', onOutside, true);
      element.innerHTML = '';
      element.classList.remove('mb-wrap');
    },
  };
}
