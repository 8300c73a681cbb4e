// @ts-check
// The board's geometry: each cell's centre and outline in viewBox units, for a board
// description, and the questions asked of it (which cell is under a point, which is the next
// one in a direction). No DOM.

/**
 * A cell as drawn: its centre, its tone (the colour of its square or hexagon), its outline
 * (hexagons) and its place in the rows.
 * @typedef {{x: number, y: number, tone: number, points?: string, row: number, k: number}} CellGeo
 */

/**
 * @typedef {Object} Geometry
 * @property {'hex' | 'square'} kind
 * @property {number} W  the width of the board
 * @property {number} H  its height
 * @property {CellGeo[]} cells  by cell index (a sparse array: a cell not drawn has none)
 * @property {number} unit  the width of a cell
 * @property {number} pieceScale  a piece's size in a cell
 * @property {number} hitR  how far from its centre a cell takes a pointer (hexagons)
 */

/** Whether an orientation turns the board round. @param {unknown} orientation */
export function isFlipped(orientation) {
  return orientation === true || orientation === 'flipped' || orientation === 1 || orientation === 'black';
}

/**
 * Geometry: each cell's centre and outline, in viewBox units, for a board description.
 * @param {import('./state.js').BoardDesc} board
 * @param {boolean} flipped
 * @param {number} [rotation]
 * @returns {Geometry}
 */
export function layout(board, flipped, rotation = 0) {
  const rows = board.rows;
  const n = board.cells.length;
  const cells = new Array(n);
  /** @type {number} */
  let W;
  /** @type {number} */
  let H;
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

/**
 * The cell under point `p` (viewBox units), or null.
 * @param {Geometry | null} geo @param {{x: number, y: number}} p @returns {number | null}
 */
export function cellAt(geo, p) {
  if (!geo) return null;
  /** @type {number | null} */
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

/**
 * The nearest cell from `c` in the direction (dx, dy) as drawn, or null.
 * @param {Geometry} geo @param {number} c @param {number} dx @param {number} dy @returns {number | null}
 */
export function neighbourIn(geo, c, dx, dy) {
  const g0 = geo.cells[c];
  /** @type {number | null} */
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
