// @ts-check
// The pieces of every game, drawn as SVG shapes in a 100x100 box (no font glyphs).
//
// pieceSvg(gameId, kind, owner) -> an SVG <g> element's markup (a string), to be placed in a
// 100x100 box (scale and translate it into a cell).
// pieceDataUrl(gameId, kind, owner) -> a data: URL of a standalone SVG image of the piece (for
// <img> in menus and choosers).
// palette(gameId, owner) -> the colours used for that owner ({fill, line, detail, name}).

/** @typedef {{fill: string, line: string, detail: string, name: string}} Colours  a player's colours */

/** @type {Record<string, Colours[]>} */
const PALETTES = {
  // two-sided classic sets: white and black
  classic: [
    { fill: '#fbfbf8', line: '#1d1d1d', detail: '#1d1d1d', name: 'white' },
    { fill: '#2b2b2b', line: '#0a0a0a', detail: '#ececec', name: 'black' },
  ],
  // Ant Chess: Black, Red, Green
  ant: [
    { fill: '#2a2a2a', line: '#000000', detail: '#f2f2f2', name: 'black' },
    { fill: '#d8281c', line: '#4d0804', detail: '#fff4ea', name: 'red' },
    { fill: '#2c9c3c', line: '#0b3a12', detail: '#f0fff0', name: 'green' },
  ],
  // Jeu de Reines: seat 0 ivory, seat 1 dark brown
  reines: [
    { fill: '#fffaf0', line: '#3a2813', detail: '#3a2813', name: 'ivory' },
    { fill: '#5a3820', line: '#1c0f05', detail: '#f6ecd2', name: 'brown' },
  ],
};

/** The colours of a player of a game. @param {string} gameId @param {number | null | undefined} owner @returns {Colours} */
export function palette(gameId, owner) {
  const set = gameId === 'antchess' || gameId === 'antchess3' ? PALETTES.ant
    : gameId === 'reines' ? PALETTES.reines : PALETTES.classic;
  return set[((owner ?? 0) % set.length + set.length) % set.length];
}

const SW = 'stroke-linejoin="round" stroke-linecap="round"';

// ---- Ackenhead ----------------------------------------------------------------------------

/** @param {Colours} c */
function base(c) {
  return `<rect x="19" y="77" width="62" height="12" rx="4" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5"/>`;
}
/** @param {Colours} c */
function torso(c) {
  return `<path d="M31 78 L35 59 L65 59 L69 78 Z" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5" ${SW}/>`
    + `<rect x="29" y="54" width="42" height="8" rx="3" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5"/>`;
}

/** @param {Colours} c */
function king(c) {
  return base(c) + torso(c)
    + `<path d="M28 55 C22 40 34 31 50 33 C66 31 78 40 72 55 Z" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5" ${SW}/>`
    + `<path d="M46 7 h8 v8 h8 v8 h-8 v11 h-8 v-11 h-8 v-8 h8 z" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5" ${SW}/>`
    + `<path d="M36 45 Q50 40 64 45" fill="none" stroke="${c.detail}" stroke-width="2.5" ${SW}/>`;
}

/** @param {number} cx @param {number} cy @param {number} n @param {number} ro @param {number} ri @param {number} [rot] */
function starPoints(cx, cy, n, ro, ri, rot = -90) {
  const pts = [];
  for (let i = 0; i < 2 * n; i++) {
    const r = i % 2 ? ri : ro;
    const a = ((rot + (i * 180) / n) * Math.PI) / 180;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(' ');
}

/** @param {Colours} c */
function leo(c) {
  // a lion's head with a spiky mane on the torso
  return base(c) + torso(c)
    + `<polygon points="${starPoints(50, 32, 11, 28, 19)}" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5" ${SW}/>`
    + `<circle cx="50" cy="33" r="13" fill="${c.fill}" stroke="${c.line}" stroke-width="3"/>`
    + `<circle cx="45" cy="30" r="2.3" fill="${c.detail}"/><circle cx="55" cy="30" r="2.3" fill="${c.detail}"/>`
    + `<path d="M46 37 L54 37 L50 41 Z" fill="${c.detail}" stroke="${c.detail}" stroke-width="1.5" ${SW}/>`;
}

/** @param {Colours} c @param {number} angle @param {boolean} diagonalSpokes */
function cannon(c, angle, diagonalSpokes) {
  const spokes = diagonalSpokes
    ? `<path d="M41 56 L59 74 M59 56 L41 74" stroke="${c.detail}" stroke-width="3" ${SW}/>`
    : `<path d="M50 52 L50 78 M37 65 L63 65" stroke="${c.detail}" stroke-width="3" ${SW}/>`;
  return base(c)
    + `<g transform="rotate(${angle} 50 65)">`
    + `<rect x="41" y="13" width="18" height="52" rx="8" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5"/>`
    + `<rect x="37" y="10" width="26" height="10" rx="4" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5"/>`
    + `<path d="M44 30 L56 30" stroke="${c.detail}" stroke-width="2.5" ${SW}/>`
    + `</g>`
    + `<circle cx="50" cy="65" r="17" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5"/>`
    + spokes
    + `<circle cx="50" cy="65" r="4.5" fill="${c.detail}"/>`;
}

/** @param {Colours} c */
function mao(c) {
  return base(c)
    + `<path d="M30 78 C30 66 36 60 42 54 C36 56 30 60 25 62 C18 64 13 58 17 52 L29 36 C32 29 38 24 45 22 L47 12 L54 20 C66 24 72 38 72 54 L70 78 Z" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5" ${SW}/>`
    + `<circle cx="40" cy="35" r="3" fill="${c.detail}"/>`
    + `<path d="M56 26 C64 34 66 48 64 62" fill="none" stroke="${c.detail}" stroke-width="2.5" ${SW}/>`
    + `<path d="M21 55 L25 54" stroke="${c.detail}" stroke-width="2.5" ${SW}/>`;
}

/** @param {Colours} c */
function pawn(c) {
  return base(c)
    + `<path d="M35 78 C35 63 41 55 45 48 L55 48 C59 55 65 63 65 78 Z" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5" ${SW}/>`
    + `<rect x="37" y="44" width="26" height="7" rx="3" fill="${c.fill}" stroke="${c.line}" stroke-width="3"/>`
    + `<circle cx="50" cy="32" r="13" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5"/>`
    // Berolina: two small diagonal strokes (it moves diagonally)
    + `<path d="M44 70 L50 63 L56 70" fill="none" stroke="${c.detail}" stroke-width="2.5" ${SW}/>`;
}

/** @type {Record<string, (c: Colours) => string>} */
const ACKENHEAD = {
  K: king, L: leo, C: (c) => cannon(c, 0, false), V: (c) => cannon(c, 40, true), M: mao, P: pawn,
};

// ---- Ant Chess ----------------------------------------------------------------------------

/** @param {Colours} c @param {number} [w] */
function legs(c, w = 4) {
  const l = `M44 40 L32 33 L25 22 M44 47 L28 48 L17 45 M45 53 L32 63 L26 76`;
  return `<path d="${l}" fill="none" stroke="${c.line}" stroke-width="${w}" ${SW}/>`
    + `<path d="${l}" transform="translate(100 0) scale(-1 1)" fill="none" stroke="${c.line}" stroke-width="${w}" ${SW}/>`;
}
/** @param {Colours} c */
function antennae(c) {
  const a = `M46 18 L40 9 L31 7`;
  return `<path d="${a}" fill="none" stroke="${c.line}" stroke-width="3.2" ${SW}/>`
    + `<path d="${a}" transform="translate(100 0) scale(-1 1)" fill="none" stroke="${c.line}" stroke-width="3.2" ${SW}/>`;
}
/** @param {Colours} c @param {[number, number]} [abdomen] @param {boolean} [detail] */
function antBody(c, abdomen = [13, 17], detail = true) {
  const [rx, ry] = abdomen;
  return `<ellipse cx="50" cy="${60 + ry}" rx="${rx}" ry="${ry}" fill="${c.fill}" stroke="${c.line}" stroke-width="3.2"/>`
    + `<ellipse cx="50" cy="46" rx="7.5" ry="10" fill="${c.fill}" stroke="${c.line}" stroke-width="3.2"/>`
    + `<circle cx="50" cy="25" r="10" fill="${c.fill}" stroke="${c.line}" stroke-width="3.2"/>`
    + (detail
      ? `<circle cx="45.5" cy="23" r="2.2" fill="${c.detail}"/><circle cx="54.5" cy="23" r="2.2" fill="${c.detail}"/>`
        + `<path d="M${50 - rx + 5} ${60 + ry} Q50 ${64 + ry} ${50 + rx - 5} ${60 + ry} M${50 - rx + 7} ${66 + ry} Q50 ${70 + ry} ${50 + rx - 7} ${66 + ry}" fill="none" stroke="${c.detail}" stroke-width="2" ${SW}/>`
      : '');
}

/** @param {Colours} c */
function warrior(c) {
  return legs(c) + antennae(c) + antBody(c, [13, 16])
    + `<path d="M45 33 L42 37 M55 33 L58 37" stroke="${c.line}" stroke-width="3" ${SW}/>`;
}

/** @param {Colours} c */
function antQueen(c) {
  const wing = `M46 42 C30 30 8 36 10 52 C12 62 30 58 46 48 Z`;
  return legs(c, 3.5)
    + `<path d="${wing}" fill="#ffffff" fill-opacity="0.85" stroke="${c.line}" stroke-width="3" ${SW}/>`
    + `<path d="${wing}" transform="translate(100 0) scale(-1 1)" fill="#ffffff" fill-opacity="0.85" stroke="${c.line}" stroke-width="3" ${SW}/>`
    + `<path d="M20 46 C28 45 36 45 44 46 M80 46 C72 45 64 45 56 46" fill="none" stroke="${c.line}" stroke-width="1.6" ${SW}/>`
    + antBody(c, [16, 19])
    // crown on the head
    + `<path d="M40 17 L38 4 L45 10 L50 1 L55 10 L62 4 L60 17 Z" fill="#f4c430" stroke="${c.line}" stroke-width="2.8" ${SW}/>`;
}

/** @param {Colours} c */
function superant(c) {
  return `<polygon points="${starPoints(50, 52, 5, 48, 22)}" fill="#f4c430" stroke="${c.line}" stroke-width="3.2" ${SW}/>`
    + `<g transform="translate(50 52) scale(0.78) translate(-50 -50)">${warrior(c)}</g>`;
}

/** @param {Colours} c */
function beetle(c) {
  // stag beetle: big pincers, long shell
  const mand = `M44 22 C36 18 32 10 36 3 C40 8 44 10 47 14`;
  const lg = `M30 44 L18 38 L12 28 M28 58 L14 60 L8 58 M30 72 L18 82 L14 92`;
  return `<path d="${lg}" fill="none" stroke="${c.line}" stroke-width="4" ${SW}/>`
    + `<path d="${lg}" transform="translate(100 0) scale(-1 1)" fill="none" stroke="${c.line}" stroke-width="4" ${SW}/>`
    + `<path d="${mand}" fill="${c.fill}" stroke="${c.line}" stroke-width="3.2" ${SW}/>`
    + `<path d="${mand}" transform="translate(100 0) scale(-1 1)" fill="${c.fill}" stroke="${c.line}" stroke-width="3.2" ${SW}/>`
    + `<path d="M40 26 Q50 14 60 26 L60 30 L40 30 Z" fill="${c.fill}" stroke="${c.line}" stroke-width="3.2" ${SW}/>`
    + `<path d="M32 32 Q50 26 68 32 L66 42 L34 42 Z" fill="${c.fill}" stroke="${c.line}" stroke-width="3.2" ${SW}/>`
    + `<path d="M33 44 L67 44 C72 62 68 86 50 94 C32 86 28 62 33 44 Z" fill="${c.fill}" stroke="${c.line}" stroke-width="3.2" ${SW}/>`
    + `<path d="M50 46 L50 90" stroke="${c.detail}" stroke-width="2.5" ${SW}/>`
    + `<path d="M38 52 Q40 68 44 80 M62 52 Q60 68 56 80" fill="none" stroke="${c.detail}" stroke-width="1.8" ${SW}/>`;
}

/** @param {Colours} c */
function grasshopper(c) {
  // side view, facing right: long body, big folded hind leg
  return `<path d="M62 64 L64 82 L70 84 M72 60 L78 78 L84 80" fill="none" stroke="${c.line}" stroke-width="3.5" ${SW}/>`
    + `<path d="M40 62 L14 86 L6 86" fill="none" stroke="${c.line}" stroke-width="4" ${SW}/>`
    + `<path d="M16 62 C24 50 52 44 74 46 L80 56 C64 66 34 72 20 70 C14 69 13 65 16 62 Z" fill="${c.fill}" stroke="${c.line}" stroke-width="3.2" ${SW}/>`
    + `<path d="M22 63 C38 58 54 54 72 52" fill="none" stroke="${c.detail}" stroke-width="2" ${SW}/>`
    // hind femur, raised
    + `<path d="M52 60 C44 44 34 30 24 26 C20 26 20 31 23 34 C32 42 40 54 44 64 Z" fill="${c.fill}" stroke="${c.line}" stroke-width="3.2" ${SW}/>`
    + `<path d="M24 30 L40 62" stroke="${c.detail}" stroke-width="1.8" ${SW}/>`
    + `<path d="M24 30 L36 64" fill="none" stroke="${c.line}" stroke-width="3" ${SW}/>`
    // head and antennae
    + `<path d="M84 30 C90 18 94 10 96 6 M80 32 C82 20 82 12 80 6" fill="none" stroke="${c.line}" stroke-width="2.8" ${SW}/>`
    + `<ellipse cx="82" cy="45" rx="11" ry="13" transform="rotate(-20 82 45)" fill="${c.fill}" stroke="${c.line}" stroke-width="3.2"/>`
    + `<circle cx="85" cy="41" r="3" fill="${c.detail}"/>`;
}

/** @param {Colours} c */
function ladybird(c) {
  const spot = c.name === 'black' ? '#f2f2f2' : '#151515';
  const head = c.name === 'black' ? '#0d0d0d' : '#151515';
  const lg = `M24 46 L12 40 M20 62 L8 64 M26 78 L16 88`;
  const spots = [[36, 46, 5.5], [34, 66, 6.5], [44, 80, 4.5], [64, 46, 5.5], [66, 66, 6.5], [56, 80, 4.5]]
    .map(([x, y, r]) => `<circle cx="${x}" cy="${y}" r="${r}" fill="${spot}"/>`).join('');
  return `<path d="${lg}" fill="none" stroke="${c.line}" stroke-width="4" ${SW}/>`
    + `<path d="${lg}" transform="translate(100 0) scale(-1 1)" fill="none" stroke="${c.line}" stroke-width="4" ${SW}/>`
    + `<path d="M38 22 Q50 10 62 22 L64 32 L36 32 Z" fill="${head}" stroke="${c.line}" stroke-width="3" ${SW}/>`
    + `<circle cx="44" cy="24" r="3" fill="#fff"/><circle cx="56" cy="24" r="3" fill="#fff"/>`
    + `<circle cx="50" cy="60" r="33" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5"/>`
    + `<path d="M50 28 L50 93" stroke="${spot}" stroke-width="2.5"/>`
    + spots;
}

/** @param {Colours} c */
function worm(c) {
  const d = 'M16 84 C12 62 40 64 44 50 C48 36 34 26 48 16 C58 10 72 14 78 22';
  return `<path d="${d}" fill="none" stroke="${c.line}" stroke-width="19" ${SW}/>`
    + `<path d="${d}" fill="none" stroke="${c.fill}" stroke-width="12.5" ${SW}/>`
    + `<path d="${d}" fill="none" stroke="${c.detail}" stroke-width="12.5" stroke-dasharray="1.6 7.5" stroke-dashoffset="-3" opacity="0.75"/>`
    + `<circle cx="80" cy="25" r="10" fill="${c.fill}" stroke="${c.line}" stroke-width="3.2"/>`
    + `<circle cx="83" cy="21" r="2.4" fill="${c.detail}"/>`;
}

/** @type {Record<string, (c: Colours) => string>} */
const ANTCHESS = { Q: antQueen, A: warrior, S: superant, B: beetle, G: grasshopper, L: ladybird, W: worm };

// ---- Epaminondas --------------------------------------------------------------------------

/** @param {boolean} white */
function stone(white) {
  const fill = white ? '#f7f6f1' : '#262626';
  const line = white ? '#3a3a3a' : '#000';
  return `<circle cx="50" cy="52" r="38" fill="#000" opacity="0.18"/>`
    + `<circle cx="50" cy="49" r="38" fill="${fill}" stroke="${line}" stroke-width="3.5"/>`
    + `<circle cx="50" cy="49" r="28" fill="none" stroke="${white ? '#cfcac0' : '#4a4a4a'}" stroke-width="2.5"/>`
    + `<ellipse cx="38" cy="34" rx="12" ry="7" transform="rotate(-30 38 34)" fill="#fff" opacity="${white ? 0.9 : 0.28}"/>`;
}

// ---- Jeu de Reines ------------------------------------------------------------------------

/** @param {Colours} c */
function rBase(c) {
  return `<rect x="18" y="78" width="64" height="11" rx="4" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5"/>`;
}
/** @param {Colours} c */
function rQueen(c) {
  return rBase(c)
    + `<path d="M22 78 L14 30 L34 50 L50 18 L66 50 L86 30 L78 78 Z" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5" ${SW}/>`
    + `<circle cx="14" cy="28" r="5" fill="${c.fill}" stroke="${c.line}" stroke-width="3"/>`
    + `<circle cx="50" cy="15" r="5" fill="${c.fill}" stroke="${c.line}" stroke-width="3"/>`
    + `<circle cx="86" cy="28" r="5" fill="${c.fill}" stroke="${c.line}" stroke-width="3"/>`
    + `<path d="M26 68 Q50 62 74 68" fill="none" stroke="${c.detail}" stroke-width="2.5" ${SW}/>`
    + `<ellipse cx="50" cy="56" rx="6" ry="8" fill="${c.detail}"/>`;
}
/** @param {Colours} c */
function rCounsellor(c) {
  return rBase(c)
    + `<path d="M28 78 L33 44 L67 44 L72 78 Z" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5" ${SW}/>`
    + `<path d="M25 44 L25 16 L35 16 L35 24 L45 24 L45 16 L55 16 L55 24 L65 24 L65 16 L75 16 L75 44 Z" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5" ${SW}/>`
    + `<path d="M31 37 L69 37" stroke="${c.detail}" stroke-width="2.5" ${SW}/>`
    + `<path d="M45 58 Q50 52 55 58 L55 70 L45 70 Z" fill="${c.detail}"/>`;
}
/** @param {Colours} c */
function rSoldier(c) {
  return `<path d="M16 92 L78 16" stroke="${c.line}" stroke-width="7" ${SW}/>`
    + `<path d="M16 92 L78 16" stroke="${c.fill}" stroke-width="3" ${SW}/>`
    + `<path d="M76 6 L92 4 L90 20 L80 24 L72 16 Z" fill="${c.fill}" stroke="${c.line}" stroke-width="3.2" ${SW}/>`
    + `<path d="M50 18 C60 24 72 24 80 22 C80 56 70 78 50 92 C30 78 20 56 20 22 C28 24 40 24 50 18 Z" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5" ${SW}/>`
    + `<path d="M32 40 L50 56 L68 40 M36 56 L50 70 L64 56" fill="none" stroke="${c.detail}" stroke-width="3.5" ${SW}/>`;
}
/** @param {Colours} c */
function rWorker(c) {
  const ant = `M44 30 C40 20 34 14 26 10`;
  return `<path d="${ant}" fill="none" stroke="${c.line}" stroke-width="3.5" ${SW}/><circle cx="25" cy="9" r="4" fill="${c.fill}" stroke="${c.line}" stroke-width="2.5"/>`
    + `<path d="${ant}" transform="translate(100 0) scale(-1 1)" fill="none" stroke="${c.line}" stroke-width="3.5" ${SW}/><circle cx="75" cy="9" r="4" fill="${c.fill}" stroke="${c.line}" stroke-width="2.5"/>`
    + `<path d="M26 88 C26 70 36 62 50 62 C64 62 74 70 74 88 Z" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5" ${SW}/>`
    + `<circle cx="50" cy="42" r="17" fill="${c.fill}" stroke="${c.line}" stroke-width="3.5"/>`
    + `<circle cx="43" cy="39" r="3" fill="${c.detail}"/><circle cx="57" cy="39" r="3" fill="${c.detail}"/>`
    + `<path d="M43 50 L47 54 M57 50 L53 54" stroke="${c.detail}" stroke-width="2.5" ${SW}/>`
    + `<path d="M38 76 L62 76" stroke="${c.detail}" stroke-width="2.5" ${SW}/>`;
}
/** @type {Record<string, (c: Colours) => string>} */
const REINES = { Q: rQueen, C: rCounsellor, S: rSoldier, W: rWorker };

// ---- entry points -------------------------------------------------------------------------

/** @param {Colours} c @param {string} kind */
function fallback(c, kind) {
  return `<circle cx="50" cy="50" r="36" fill="${c.fill}" stroke="${c.line}" stroke-width="4"/>`
    + `<text x="50" y="63" text-anchor="middle" font-size="38" font-family="sans-serif" font-weight="700" fill="${c.detail}">${String(kind).slice(0, 2).replace(/[<&]/g, '')}</text>`;
}

/**
 * A piece's drawing, an SVG <g> element's markup in a 100x100 box.
 * @param {string} gameId @param {string} kind @param {number} owner
 */
export function pieceSvg(gameId, kind, owner) {
  const c = palette(gameId, owner);
  let body;
  if (gameId === 'ackenhead') body = ACKENHEAD[kind]?.(c);
  else if (gameId === 'antchess' || gameId === 'antchess3') body = ANTCHESS[kind]?.(c);
  else if (gameId === 'epaminondas') body = kind === 'W' || kind === 'B' ? stone(kind === 'W') : undefined;
  else if (gameId === 'reines') body = REINES[kind]?.(c);
  return `<g class="piece-art" data-kind="${String(kind).replace(/[^A-Za-z]/g, '')}">${body ?? fallback(c, kind)}</g>`;
}

/** @typedef {{id: string, emblems: string[], icon: {kind: string, owner: number}}} GameIcons  what a game's entry of GET /api/games says of its pictures */

// The piece that stands for a player of a game (in player lists and menus): `info` is the
// game's entry of GET /api/games.
/** @param {GameIcons} info @param {number} seat */
export function emblemSvg(info, seat) {
  return pieceSvg(info.id, info.emblems[seat] ?? info.emblems[0], seat);
}

// The piece that stands for a game in a list of games.
/** @param {GameIcons} info */
export function iconSvg(info) {
  return pieceSvg(info.id, info.icon.kind, info.icon.owner);
}

/** @param {string} gameId @param {string} kind @param {number} owner */
export function pieceSvgDocument(gameId, kind, owner) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">${pieceSvg(gameId, kind, owner)}</svg>`;
}

/** @param {string} gameId @param {string} kind @param {number} owner */
export function pieceDataUrl(gameId, kind, owner) {
  return 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(pieceSvgDocument(gameId, kind, owner));
}
