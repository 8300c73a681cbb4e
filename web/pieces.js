// @ts-check
// The pieces, drawn as SVG shapes in a 100x100 box (no font glyphs), as each game's entry of
// GET /api/games describes them (`drawings`: each player's colours, and each kind's markup with
// `{name}` placeholders for its owner's colours; docs/api.md). This module knows no game: a page
// hands it the games it received (learnDrawings), then draws by game id.
//
// pieceSvg(gameId, kind, owner) -> an SVG <g> element's markup (a string), to be placed in a
// 100x100 box (scale and translate it into a cell).
// pieceDataUrl(gameId, kind, owner) -> a data: URL of a standalone SVG image of the piece (for
// <img> in menus and choosers).
// palette(gameId, owner) -> the colours of that owner ({fill, line, detail, …}).

/** @typedef {Record<string, string> & {fill: string}} Colours  a player's colours, by name */
/** @typedef {{colours: Colours[], pieces: Record<string, string>}} Drawings  how a game's pieces are drawn */

/** The drawings of the games the page has received, by game id. @type {Map<string, Drawings>} */
const known = new Map();

/** The colours of a piece of a game whose drawings are unknown. @type {Colours} */
const PLAIN = { fill: '#d8d8d8', line: '#1d1d1d', detail: '#1d1d1d' };

/**
 * Keeps the drawings of these games (entries of GET /api/games) for what the page draws next.
 * @param {{id: string, drawings?: Drawings}[]} games
 */
export function learnDrawings(games) {
  for (const g of games) if (g.drawings) known.set(g.id, g.drawings);
  drawn.clear();
}

/** The markup of the pieces drawn so far, by game, kind and owner (a board draws each kind
 * many times). @type {Map<string, string>} */
const drawn = new Map();

/** The colours of a player of a game. @param {string} gameId @param {number | null | undefined} owner @returns {Colours} */
export function palette(gameId, owner) {
  const set = known.get(gameId)?.colours;
  if (!set?.length) return PLAIN;
  return set[((owner ?? 0) % set.length + set.length) % set.length];
}

/** @param {Colours} c @param {string} kind */
function fallback(c, kind) {
  return `<circle cx="50" cy="50" r="36" fill="${c.fill}" stroke="${c.line}" stroke-width="4"/>`
    + `<text x="50" y="63" text-anchor="middle" font-size="38" font-family="sans-serif" font-weight="700" fill="${c.detail}">${String(kind).slice(0, 2).replace(/[<&]/g, '')}</text>`;
}

/**
 * A piece's drawing, an SVG <g> element's markup in a 100x100 box: the game's drawing of the
 * kind in the owner's colours, else the kind's letter in a disc.
 * @param {string} gameId @param {string} kind @param {number} owner
 */
export function pieceSvg(gameId, kind, owner) {
  const key = `${gameId}\n${kind}\n${owner}`;
  const done = drawn.get(key);
  if (done !== undefined) return done;
  const c = palette(gameId, owner);
  const drawing = known.get(gameId)?.pieces[kind];
  const body = drawing === undefined ? fallback(c, kind) : drawing.replace(/\{(\w+)\}/g, (m, name) => c[name] ?? m);
  const markup = `<g class="piece-art" data-kind="${String(kind).replace(/[^A-Za-z]/g, '')}">${body}</g>`;
  drawn.set(key, markup);
  return markup;
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
