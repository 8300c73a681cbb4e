// @ts-check
// The board's state (as chessground's state.ts): the config it is driven by, what the user is
// doing (a selection, a drag, the chooser of the moves that share their cells), a move of ours
// shown before the server answers; and the questions the other modules ask of it. Nothing here
// draws or listens.

import { t } from '../i18n.js';

/** @typedef {{owner: number, kind: string}} Piece  a piece on a cell */

/**
 * A legal move as the server describes it (a state's `legal_cells`, docs/api.md).
 * @typedef {Object} Move
 * @property {string} text  the game's move text
 * @property {number | null} [from]
 * @property {number | null} [to]
 * @property {number[]} [captures]  the cells whose pieces it takes
 * @property {string | null} [promotion]  the kind the moving piece becomes
 * @property {number} [pieces_moved]
 */

/**
 * The last move's cells to mark: a move's (from, to and captures), or a plain list of cells.
 * @typedef {{from?: number | null, to?: number | null, captures?: number[]} | number[]} LastMove
 */

/**
 * A board's shape (the `board` of a game in GET /api/games).
 * @typedef {Object} BoardDesc
 * @property {string} kind  `square` or `hex`
 * @property {number} [files]  a square board's files
 * @property {number} [ranks]  and ranks
 * @property {number} [radius]  a hexagon's radius
 * @property {string[]} cells  the cells' names
 * @property {{indent: number, cells: number[]}[]} rows  the rows as drawn, from the first player's side
 * @property {{cell: number, name?: string}[]} [special]  cells with a role in the rules
 */

/**
 * What a board is driven by: `createBoard` and `set` take any part of it.
 * @typedef {Object} Config
 * @property {string} game  the game id (chooses the piece drawings)
 * @property {BoardDesc | null} board
 * @property {{letter: string, name: string}[] | Record<string, string>} pieceNames  the game's `pieces` (for labels)
 * @property {(Piece | null)[]} pieces  the state's `board` array
 * @property {string[]} players
 * @property {string[]} playerNumbers  how a sentence takes each player's name: `singular` or
 *   `plural` ("Pion des Noirs"), as the page's catalogue says it (common.js's playerNumbers)
 * @property {boolean | number | string} orientation  true, 1, 'flipped' or 'black': rotated 180 degrees
 * @property {number} rotation  hexagons: turned by this many degrees more (a multiple of 60)
 * @property {Move[]} legal  the state's `legal_cells`
 * @property {LastMove | null} lastMove
 * @property {number[]} checkCells  the state's `check_cells`: cells that glow, in check
 * @property {number | null} toMove
 * @property {boolean} movable  may the user move now
 * @property {((text: string, move: Move) => void) | null} onMove  a move chosen by the user
 * @property {boolean} showNames  cell names on every cell
 * @property {boolean} coordinates  files and ranks along the edges (square boards)
 * @property {boolean} animation  moves slide
 * @property {boolean} optimistic  a move of one piece shown before the server answers
 * @property {{from?: number | null, to?: number | null} | null} preview  cells to outline
 * @property {number | null} premoveSeat  while another player moves, the seat whose next move may
 *   be chosen ahead (a premove: a piece of that seat, then a cell), else null
 * @property {{from: number, to: number} | null} premove  the premove chosen, shown until it is played
 * @property {((pm: {from: number, to: number} | null) => void) | null} onPremove  a premove chosen, or dropped
 */

/** @typedef {'cells' | 'special' | 'marks' | 'coords' | 'pieces' | 'dests' | 'names' | 'hit' | 'drag'} LayerName */

/**
 * The elements a board is drawn into.
 * @typedef {Object} Dom
 * @property {string} id  unique to the board: the prefix of its SVG definitions' ids
 * @property {HTMLElement} element  the caller's element
 * @property {SVGSVGElement} svg
 * @property {HTMLDivElement} chooserEl  the chooser of moves that share their cells
 * @property {Record<LayerName, SVGGElement>} layer  the SVG's layers, bottom to top
 */

/**
 * A piece held by the pointer: the cell it came from, where the pointer went down, whether it
 * has moved far enough to be a drag, and whether the piece was selected before.
 * @typedef {{cell: number, x0: number, y0: number, started: boolean, pointerId: number, wasSelected: boolean, premove?: boolean}} Drag
 */

/**
 * A finger that went down on a cell with no piece to move, on a board bigger than its box (a
 * zoomed board): sliding, it scrolls the box; lifted where it went down, it is a tap on `cell`.
 * @typedef {{cell: number | null, x0: number, y0: number, left0: number, top0: number, moved: boolean, pointerId: number}} Pan
 */

/**
 * @typedef {Object} State
 * @property {Config} cfg
 * @property {Dom} dom
 * @property {import('./geometry.js').Geometry | null} geo  the layout of the cells, once there is a board
 * @property {number | null} selected  the cell whose piece is selected
 * @property {number | null} hover  the destination under the pointer or the keyboard's focus
 * @property {{moves: Move[], at: number} | null} chooser  the moves offered, next to cell `at`
 * @property {Move | null} chooserPreview  the chooser's move under the pointer or the focus
 * @property {Drag | null} drag
 * @property {Pan | null} pan  a finger scrolling a board bigger than its box
 * @property {{from: number, to: number} | null} anim  a move to slide at the next drawing
 * @property {(Piece | null)[] | null} localPieces  the position after a move of ours, until the server's
 * @property {LastMove | null} localLast  that move
 * @property {boolean} pendingMove  a move of ours waits for the server
 */

/** @type {Config} */
export const DEFAULTS = {
  game: '', board: null, pieceNames: [], pieces: [], players: [], playerNumbers: [], orientation: false, rotation: 0,
  legal: [], lastMove: null, checkCells: [], toMove: null, movable: false, onMove: null,
  showNames: false, coordinates: true, animation: true, optimistic: true, preview: null,
  premoveSeat: null, premove: null, onPremove: null,
};

/**
 * @param {Partial<Config>} config
 * @param {Dom} dom
 * @returns {State}
 */
export function createState(config, dom) {
  return {
    cfg: { ...DEFAULTS, ...config },
    dom,
    geo: null,
    selected: null,
    hover: null,
    chooser: null,
    chooserPreview: null,
    drag: null,
    pan: null,
    anim: null,
    localPieces: null,
    localLast: null,
    pendingMove: false,
  };
}

/** The pieces shown: ours after a move of ours, else the config's. @param {State} s */
export const pieces = (s) => s.localPieces ?? s.cfg.pieces ?? [];

/** The last move shown. @param {State} s */
export const lastMove = (s) => (s.localPieces ? s.localLast : s.cfg.lastMove);

/** May the user move now. @param {State} s */
export const movable = (s) => !!s.cfg.movable && !s.pendingMove && !!s.cfg.legal;

/** @param {State} s @param {number} c */
export const cellName = (s, c) => s.cfg.board?.cells?.[c] ?? String(c);

/** @param {State} s @param {string} kind */
function pieceName(s, kind) {
  const list = s.cfg.pieceNames || [];
  const found = Array.isArray(list) ? list.find((p) => p.letter === kind) : null;
  return found ? found.name : (list && !Array.isArray(list) && list[kind]) || kind;
}

/** A piece in words ('White Knight'), or 'empty'. @param {State} s @param {Piece | null | undefined} p */
export function describePiece(s, p) {
  if (!p) return t('cell-empty');
  const name = s.cfg.players?.[p.owner];
  const who = name != null ? { player: name, number: s.cfg.playerNumbers?.[p.owner] ?? 'singular' }
    : { player: t('player-n', { n: p.owner + 1 }), number: 'singular' };
  return t('piece-of', { ...who, piece: pieceName(s, p.kind) });
}

/** The legal moves from cell `c`. @param {State} s @param {number | null} c @returns {Move[]} */
export function movesFrom(s, c) { return (s.cfg.legal || []).filter((m) => m.from === c); }

/**
 * The destinations of the moves from cell `c`, each with its moves.
 * @param {State} s @param {number} c @returns {Map<number, Move[]>}
 */
export function destsOf(s, c) {
  /** @type {Map<number, Move[]>} */
  const map = new Map();
  for (const m of movesFrom(s, c)) if (m.to != null) {
    if (!map.has(m.to)) map.set(m.to, []);
    map.get(m.to)?.push(m);
  }
  return map;
}

/** May the piece on cell `c` be selected. @param {State} s @param {number} c */
export function canSelect(s, c) {
  if (!movable(s)) return false;
  if (movesFrom(s, c).length) return true;
  const p = pieces(s)[c];
  return !!p && p.owner === s.cfg.toMove;
}

/** @param {State} s */
export const checkCells = (s) => new Set(s.cfg.checkCells || []);
