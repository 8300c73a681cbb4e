// @ts-check
// The game page, /game/<id>: the board, the players, the moves, live updates.
import { createBoard } from './board.js';
import { $, errorText, esc, infoText, localGame, localState, moveListHtml, outcomeText, playerArgs, playerNumbers } from './common.js';
import { emblemSvg, learnDrawings, palette, pieceSvg } from './pieces.js';
import { num, t } from './i18n.js';
import { muted, play, setMuted } from './sound.js';
import { setBoardTheme } from './theme.js';
import { canPlayHere, LocalGame, loadLocal, playableHere, prepareHere, saveFinished } from './local-game.js';

/** @typedef {import('./board/state.js').Move} Move */
/** @typedef {import('./board/state.js').Piece} Piece */
/** A game's clock (docs/api.md). @typedef {{initial_ms?: number, increment_ms?: number, remaining_ms: number[], running?: number | null, as_of_ms?: number | null}} Clock */
/** A move of a game's history (docs/api.md). @typedef {{player: number, text: string, from?: number | null, to?: number | null, captures?: number[]}} Played */
/**
 * A game's state as GET /api/games/{id} and the game's socket send it (docs/api.md): the
 * fields this page reads typed, the others read by key.
 * @typedef {{
 *   id: string, game: string, players: string[], seats: string[], to_move: number | null,
 *   board: (Piece | null)[], legal: string[], legal_cells: Move[], history: Played[],
 *   moves: string[], clock?: Clock | null, eliminated?: {seat: number}[], captured?: string[][],
 *   info?: import('./common.js').InfoMessage[], rematch_offers?: number[], takeback_agreed?: number[],
 *   [key: string]: any,
 * }} State
 */

const gameId = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || '');
/** @type {(string | null)[]} the seats' tokens this browser holds, by seat */
let tokens = [];
try { tokens = JSON.parse(localStorage.getItem(`myrmidon:token:${gameId}`) || '[]') || []; } catch { tokens = []; }
if (!Array.isArray(tokens)) tokens = [];
function saveTokens() {
  for (let i = 0; i < tokens.length; i++) if (tokens[i] === undefined) tokens[i] = null;
  localStorage.setItem(`myrmidon:token:${gameId}`, JSON.stringify(tokens));
}
// An invitation link, /game/<id>#seat=<i>&token=<t>: this browser holds that seat from now on;
// the fragment leaves the address bar (and the history) at once.
let invitedNow = false; // this page opened an invitation link
if (gameId && /(^#|&)(seat|token)=/.test(location.hash)) {
  const h = new URLSearchParams(location.hash.slice(1));
  const seat = h.get('seat');
  const token = h.get('token');
  if (seat != null && /^\d+$/.test(seat) && +seat < 16 && token) {
    tokens[+seat] = token;
    saveTokens();
    invitedNow = true;
  }
  history.replaceState(history.state, '', location.pathname + location.search);
}
// The creator's invitation tokens of an online game's other seats (by seat), to show as links.
/** @type {(string | null)[]} */
let invites = [];
try { invites = JSON.parse(localStorage.getItem(`myrmidon:invites:${gameId}`) || '[]') || []; } catch { invites = []; }
if (!Array.isArray(invites)) invites = [];

/** @type {import('./common.js').GameInfo | null} */
let info = null; // the game's description from GET /api/games
/** @type {State | null} */
let live = null; // the latest state
/** @type {number | null} */
let viewPly = null; // null: the live position; else the ply shown (0 = the start)
/** @type {Map<number, State>} */
const atCache = new Map(); // ply -> state
/** @type {ReturnType<typeof createBoard> | null} */
let board = null;
let flipped = false;
let flipChosen = false;
let showNames = localStorage.getItem('myrmidon:names') === '1';
let posting = false;
// a note: {text, ply, kind}; a draw or a takeback declined ('draw', 'takeback'): shown until
// the next move; a rematch declined ('rematch'): until the next offer
/** @type {{text: string, ply: number, kind: string} | null} */
let notice = null;
/** @type {number | null} */
let myOfferSeen = null; // the seat of ours whose draw offer is pending, as last seen
/** @type {number | null} */
let myTakebackSeen = null; // the seat of ours whose takeback proposal is pending, as last seen
let myRematchSeen = false; // an offer of ours of a rematch is pending, as last seen
/** @type {string | null} */
let withdrawing = null; // 'rematch': our own offer is being withdrawn (no notice)
let leaving = false; // on the way to the rematch
/** @type {number | null} */
let clockSkew = null; // Date.now() minus the server's epoch time (plus the delivery time), smallest seen
/** @type {ReturnType<typeof setTimeout> | null} */
let clockTimer = null;
let flagNudged = false; // a clock reached zero here: the state was asked for once

/** @param {number | null | undefined} seat */
const tokenOf = (seat) => (seat == null ? null : tokens[seat] || null);
const anyToken = () => tokens.find((t) => t) || null;
// the seats of players who left a rated game that ours may claim against (the server says)
/** @type {number[]} */
let claimable = [];
const mySeats = () => tokens.map((t, i) => (t ? i : -1)).filter((i) => i >= 0);
// a seat a person plays: on this screen ("human") or elsewhere ("online"); "open": nobody yet
/** @param {string} kind */
const isPerson = (kind) => kind === 'human' || kind === 'online';
/** @param {State} state */
const openSeats = (state) => state.open_seats ?? state.seats.map((k, i) => (k === 'open' ? i : -1)).filter((i) => i >= 0);
/** @param {State} state */
const isOnlineGame = (state) => state.seats.some((k) => k === 'online' || k === 'open');
// a viewer holding no seat of this game watches it
/** @param {State} state */
const spectating = (state) => !state.seats.some((k, i) => isPerson(k) && tokenOf(i));
// a seat out of a three-player game (resigned, or out of time)
/** @param {State} state @param {number} i */
const isOut = (state, i) => (state.eliminated || []).some((e) => e.seat === i);

/** @param {State} state */
function canMove(state) {
  return !!state && !state.outcome && state.to_move != null && isPerson(state.seats[state.to_move])
    && !state.thinking && !!tokenOf(state.to_move);
}

/** @param {State} state @param {number} i */
function seatText(state, i) {
  const text = seatKindText(state, i);
  return isOut(state, i) && !state.outcome ? `${text} · ${t('seat-out')}` : text;
}
/** @param {State} state @param {number} i */
function seatKindText(state, i) {
  const s = state.seats[i];
  if (isPerson(s) && tokenOf(i)) return mySeats().length === state.seats.length ? t('seat-local') : t('seat-you');
  if (s === 'open') return t('seat-open');
  if (s === 'online' || (s === 'human' && isOnlineGame(state))) return t('seat-online');
  if (s === 'human') return t('seat-one-screen');
  const m = /^computer:(\d+)/.exec(s);
  return m ? t('seat-computer', { level: +m[1] }) : s;
}

/** @param {string} text */
function showMessage(text) {
  const el = $('#message');
  el.textContent = text;
  el.hidden = !text;
}

// ---- rendering ----
// The pieces seat `i` has lost (state.captured), grouped by kind in the game's order of pieces,
// drawn small and overlapping (as lichess's material strip).
/** @param {string} kind */
function pieceName(kind) {
  return info?.pieces?.find((x) => x.letter === kind)?.name || kind;
}
/** @param {State} state @param {number} i */
function capturedHtml(state, i) {
  const lost = (state.captured || [])[i] || [];
  if (!lost.length) return '';
  const order = (info?.pieces || []).map((x) => x.letter);
  const counts = new Map();
  for (const k of lost) counts.set(k, (counts.get(k) || 0) + 1);
  /** @param {string} k */
  const rank = (k) => (order.includes(k) ? order.indexOf(k) : order.length);
  const groups = [...counts].sort((a, b) => rank(a[0]) - rank(b[0]));
  const label = groups.map(([k, n]) => (n > 1 ? `${n} × ${pieceName(k)}` : pieceName(k))).join(', ');
  const lostLabel = t('captured-label', { ...playerArgs(state, i), pieces: label });
  const html = groups.map(([k, n]) => {
    const shown = n > 8 ? 3 : n;
    const icon = `<svg class="cap-piece" viewBox="0 0 100 100" aria-hidden="true">${pieceSvg(state.game, k, i)}</svg>`;
    return `<span class="cap-group" data-kind="${esc(k)}" data-count="${n}" title="${esc(n > 1 ? `${n} × ${pieceName(k)}` : pieceName(k))}">${icon.repeat(shown)}${n > shown ? `<span class="cap-count">×${n}</span>` : ''}</span>`;
  }).join('');
  return `<span class="captured" role="img" aria-label="${esc(lostLabel)}">${html}</span>`;
}

// ---- the clock ----
// The time left of seat i now: the running seat's counts down from the server's measure.
/** @param {Clock} clock @param {number} i */
function clockLeft(clock, i) {
  let ms = clock.remaining_ms[i] ?? 0;
  if (clock.running === i && clock.as_of_ms != null && !live?.outcome) {
    ms -= Math.max(0, Date.now() - (clockSkew ?? 0) - clock.as_of_ms);
  }
  return Math.max(0, ms);
}
/** @param {number} ms */
function fmtClock(ms) {
  if (ms < 10000) {
    const t = Math.floor(ms / 100);
    return `00:0${Math.floor(t / 10)}.${t % 10}`;
  }
  const s = Math.floor(ms / 1000); // (a clock shows the whole seconds left, as lichess)
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  /** @param {number} x */
  const two = (x) => String(x).padStart(2, '0');
  return h ? `${h}:${two(m)}:${two(sec)}` : `${two(m)}:${two(sec)}`;
}
/** @param {Clock} clock @param {number} ms */
function lowTime(clock, ms) {
  return ms < Math.max(10000, Math.min(30000, (clock.initial_ms || 0) / 10));
}
/** @param {State} state @param {number} i */
function clockHtml(state, i) {
  const clock = state.clock;
  if (!clock || !Array.isArray(clock.remaining_ms)) return '';
  const ms = clockLeft(clock, i);
  const running = clock.running === i && !state.outcome;
  return `<span class="clock${running ? ' running' : ''}${lowTime(clock, ms) ? ' low' : ''}${ms <= 0 ? ' flagged' : ''}" data-seat="${i}" role="timer" aria-label="${esc(t('clock-label', playerArgs(state, i)))}">${fmtClock(ms)}</span>`;
}
// Every tenth of a second while a clock runs: the running clock's text (and nothing else).
function tickClock() {
  const clock = live?.clock;
  if (!clock || clock.running == null || live?.outcome) { stopClock(); return; }
  const el = document.querySelector(`#players .clock[data-seat="${clock.running}"]`);
  if (!el) return;
  const ms = clockLeft(clock, clock.running);
  const text = fmtClock(ms);
  if (el.textContent !== text) el.textContent = text;
  el.classList.toggle('low', lowTime(clock, ms));
  el.classList.toggle('flagged', ms <= 0);
  // the time is up here: the server decides; ask it once for the state (it may then say so)
  if (ms <= 0 && !flagNudged) {
    flagNudged = true;
    setTimeout(() => {
      fetch(`/api/games/${encodeURIComponent(gameId)}`).then((r) => (r.ok ? r.json() : null))
        .then((st) => st && applyState(st)).catch(() => {});
    }, 400);
  }
}
function stopClock() { if (clockTimer) { clearInterval(clockTimer); clockTimer = null; } }
/** @param {State} state */
function syncClock(state) {
  const clock = state.clock;
  if (!clock || clock.running == null || state.outcome) { stopClock(); return; }
  if (!clockTimer) clockTimer = setInterval(tickClock, 100);
}

/** @param {State} state */
function renderPlayers(state) {
  const clocked = !!(state.clock && Array.isArray(state.clock.remaining_ms));
  $('#players').classList.toggle('clocked', clocked);
  $('#players').innerHTML = state.players.map((p, i) => {
    const turn = state.to_move === i && !state.outcome;
    const won = state.outcome && (state.outcome.winner === i || (Array.isArray(state.outcome.winner) && state.outcome.winner.includes(i)));
    const flag = turn ? `<span class="turn-flag">${state.thinking ? `${esc(t('flag-thinking'))}<span class="dots"></span>` : esc(t('flag-to-move'))}</span>`
      : won ? `<span class="turn-flag win">${esc(t('flag-winner'))}</span>` : '';
    return `<div class="player${turn ? ' turn' : ''}${won ? ' won' : ''}" data-seat="${i}" style="--owner:${palette(state.game, i).fill}">
      <svg class="seat-icon" viewBox="0 0 100 100" aria-hidden="true">${info ? emblemSvg(info, i) : ''}</svg>
      <span class="player-name">${esc(p)}</span>
      <span class="player-seat">${esc(seatText(state, i))}</span>
      ${capturedHtml(state, i)}
      <span class="player-side">${flag}${clockHtml(state, i)}</span>
    </div>`;
  }).join('');
}

/** @param {State} state */
function statusText(state) {
  if (state.outcome) return outcomeText(state);
  const mover = state.to_move;
  if (mover == null) return '';
  const who = playerArgs(state, mover);
  if (state.thinking) return t('status-thinking', who);
  if (canMove(state)) {
    const mine = mySeats().length;
    if (mine === state.seats.length || state.seats.filter((s) => s === 'human').length > 1 && mine > 1) return t('status-to-move', who);
    return t('status-your-turn', who);
  }
  if (state.seats[mover] === 'open') return t('status-open-seat', who);
  if (isPerson(state.seats[mover]) && !tokenOf(mover)) return spectating(state) ? t('status-watching', who) : t('status-to-move', who);
  return t('status-to-move', who);
}

/** @param {State} state */
function renderStatus(state) {
  const st = $('#status');
  st.textContent = statusText(state) + (state.check && !state.outcome ? t('status-check') : '');
  st.classList.toggle('over', !!state.outcome);
  st.classList.toggle('thinking', !!state.thinking && !state.outcome);
  $('#info').innerHTML = (state.info || []).map((l) => `<li>${esc(infoText(l, state.players))}</li>`).join('');
  // a pass: the only move (Jeu de Reines without a move) is shown big; a pass among other moves
  // (Ant Chess, where it is always allowed and seldom wise) as a small button
  const passes = canMove(state) && viewPly == null ? state.legal_cells.filter((m) => m.from == null && m.to == null) : [];
  const onlyPass = passes.length > 0 && passes.length === state.legal_cells.length;
  $('#pass-box').hidden = passes.length === 0;
  $('#pass-box').classList.toggle('only', onlyPass);
  $('#pass').classList.toggle('primary', onlyPass);
  $('#pass').classList.toggle('small', !onlyPass);
  $('#pass-hint').textContent = onlyPass ? t('pass-only') : t('pass-instead');
  $('#pass').textContent = passes.length === 1 && passes[0].text.toLowerCase() !== 'pass' ? t('pass-with', { move: passes[0].text }) : t('pass');
  $('#pass').dataset.move = passes[0]?.text || '';
  // the position once more, and the game is drawn: said (the server counts)
  const repeats = !state.outcome && state.repetitions_to_draw != null && state.repetitions === state.repetitions_to_draw - 1;
  $('#repeat-note').hidden = !repeats;
  if (repeats) $('#repeat-note').textContent = t('repeat-note', { n: state.repetitions });
  renderDraw(state);
  renderOver(state);
  renderSeats(state);
  renderInvites(state);
  const watching = spectating(state);
  $('#spectating').hidden = !watching;
  document.body.classList.toggle('spectator', watching);
  const entry = $('#entry');
  entry.hidden = watching;
  entry.classList.toggle('disabled', !canMove(state) || viewPly != null);
  $('#move-text').disabled = !canMove(state) || viewPly != null;
  entry.querySelector('button').disabled = !canMove(state) || viewPly != null;
  $('#legal-list').innerHTML = canMove(state) ? state.legal.slice(0, 400).map((t) => `<option value="${esc(t)}">`).join('') : '';
  $('#resign').hidden = !!state.outcome || !anyToken() || !state.seats.some((s, i) => isPerson(s) && tokenOf(i) && !isOut(state, i));
  renderTakeback(state);
  const gone = state.outcome ? null : claimable.find((i) => !isOut(state, i));
  $('#claim-win').hidden = gone == null;
  $('#claim-draw').hidden = gone == null || state.seats.length !== 2;
  // (the player who left, by their account's name, a person's (singular): the side's name is
  // both players' game)
  const account = gone != null ? state.accounts?.[gone] : null;
  if (gone != null) $('#claim-win').textContent = t('claim-win', account != null ? { player: account, number: 'singular' } : playerArgs(state, gone));
  // (the tab's title says when it is our turn, in a game with others: first, with a mark)
  const ourTurn = canMove(state) && mySeats().length < state.seats.length;
  document.title = ourTurn ? `● ${statusText(state)} · ${info?.name || state.game} · myrmidon` : `${info?.name || state.game} · ${statusText(state)} · myrmidon`;
}

// ---- draws, the end of the game, notices ----
/** @param {State} state */
const myHumanSeats = (state) => mySeats().filter((i) => isPerson(state.seats[i]));
// the seat of ours that offers a draw: the one to move when every seat is ours, else ours
/** @param {State} state */
function offeringSeat(state) {
  const mine = myHumanSeats(state);
  if (!mine.length) return null;
  return state.to_move != null && mine.includes(state.to_move) ? state.to_move : mine[0];
}
/** @param {State} state @param {number} i */
const isComputer = (state, i) => /^computer/.test(state.seats[i] || '');

/** @param {State} state */
function renderDraw(state) {
  const two = state.players.length === 2;
  const offer = state.outcome ? null : state.draw_offer ?? null;
  const mine = myHumanSeats(state);
  // the offer button: a running two-player game, a seat of ours, no offer pending from the other side
  const btn = $('#offer-draw');
  const seat = offeringSeat(state);
  const answerSeat = offer != null ? mine.find((i) => i !== offer) : undefined;
  btn.hidden = !two || !!state.outcome || seat == null || answerSeat != null || !('draw_offer' in state) || openSeats(state).length > 0;
  const pendingOurs = offer != null && mine.includes(offer);
  btn.disabled = pendingOurs || posting;
  btn.textContent = pendingOurs ? t('draw-offered') : mine.length > 1 && seat != null ? t('draw-offer-for', playerArgs(state, seat)) : t('draw-offer');
  btn.dataset.seat = seat ?? '';
  // a pending offer: the answer, if a seat of ours may give it
  const box = $('#draw-box');
  box.hidden = offer == null || !two;
  if (offer != null) {
    const who = playerArgs(state, offer);
    if (answerSeat != null) {
      $('#draw-text').textContent = mine.length > 1 ? `${t('draw-offers', who)} ${t('do-you-accept', playerArgs(state, answerSeat))}` : t('draw-offers', who);
      $('#draw-accept').dataset.seat = answerSeat;
      $('#draw-decline').dataset.seat = answerSeat;
    } else if (pendingOurs) {
      $('#draw-text').textContent = t('draw-waiting', who);
    } else {
      $('#draw-text').textContent = t('draw-offers', who);
    }
    box.querySelector('.draw-buttons').hidden = answerSeat == null;
    $('#draw-accept').disabled = posting;
    $('#draw-decline').disabled = posting;
  }
  // a note: a draw or a takeback declined (until the next move, or the next proposal), a
  // rematch declined (until the next offer)
  const n = $('#notice');
  const show = !!notice && (notice.kind === 'rematch'
    ? !!state.outcome && !state.rematch && !(state.rematch_offers || []).length
    : !state.outcome && state.history.length === notice.ply && !(notice.kind === 'takeback' && state.takeback_offer != null));
  n.hidden = !show;
  if (show && notice) n.textContent = notice.text;
}

// ---- takebacks and rematches ----
// Against the computer and on one screen they are immediate; with people on other devices
// (online seats this browser does not hold) they are proposals the others answer. (The server
// decides: this only says which buttons and words to show.)
/** @param {State} state */
const othersOnline = (state) => state.seats.map((k, i) => (k === 'online' && !tokenOf(i) ? i : -1)).filter((i) => i >= 0);
// The names of `seats` in a list ("Red and Green"), each as the message `item` says it in the
// sentence ("des Rouges et des Verts" after "en attente").
/** @param {State} state @param {number[]} seats @param {string} item */
const namesOf = (state, seats, item) => {
  const names = seats.map((i) => t(item, playerArgs(state, i)));
  return names.length > 1 ? t('names-and', { first: names.slice(0, -1).join(', '), last: names.at(-1) }) : names[0] || '';
};
// the seats of people elsewhere who must still agree to `seat`'s takeback proposal
/** @param {State} state @param {number | null | undefined} seat */
const takebackWaiting = (state, seat) => state.seats.map((k, i) => (k === 'online' && i !== seat && !(state.takeback_agreed || []).includes(i) ? i : -1)).filter((i) => i >= 0);
// the seats of people elsewhere who have not offered or accepted the rematch
/** @param {State} state */
const rematchWaiting = (state) => state.seats.map((k, i) => (k === 'online' && !(state.rematch_offers || []).includes(i) ? i : -1)).filter((i) => i >= 0);

/** @param {State} state */
function renderTakeback(state) {
  const mine = myHumanSeats(state);
  const consent = othersOnline(state).length > 0;
  const offer = state.outcome ? null : state.takeback_offer ?? null;
  const agreed = state.takeback_agreed || [];
  const ours = offer != null && mine.includes(offer);
  // a seat of ours that has not agreed to the proposal yet (of another seat: this browser may
  // hold several seats, each with its own token)
  const answerSeat = offer != null ? mine.find((i) => i !== offer && !agreed.includes(i)) : undefined;
  // a move of ours to take back: one of our seats has moved (the server checks the rest); with
  // a proposal pending, the box has the buttons
  const btn = $('#takeback');
  btn.hidden = !mine.length || !!state.outcome || !state.history.some((m) => tokenOf(m.player)) || (consent && offer != null);
  btn.textContent = consent ? t('takeback-propose') : t('tool-takeback');
  btn.disabled = posting;
  const box = $('#takeback-box');
  box.hidden = offer == null;
  if (offer == null) return;
  const who = playerArgs(state, offer);
  const waiting = namesOf(state, takebackWaiting(state, offer), 'awaited-player');
  const text = answerSeat != null ? `${t('takeback-proposes', who)}${ours ? ` ${t('do-you-accept', playerArgs(state, answerSeat))}` : ''}`
    : ours ? t('takeback-waiting', { names: waiting || t('awaited-answer') })
    : waiting ? t('takeback-proposes-waiting', { ...who, names: waiting }) : t('takeback-proposes', who);
  $('#takeback-text').textContent = text;
  $('#takeback-answer').hidden = answerSeat == null;
  $('#takeback-mine').hidden = !ours || answerSeat != null;
  for (const b of box.querySelectorAll('button')) b.disabled = posting;
}

/** @param {State} state */
function renderOver(state) {
  const box = $('#over-box');
  box.hidden = !state.outcome;
  if (!state.outcome) return;
  renderRatingChange(state);
  const mine = myHumanSeats(state);
  const offers = state.rematch_offers || [];
  const ours = mine.some((i) => offers.includes(i));
  const others = offers.filter((i) => !mine.includes(i));
  // (a server without rematches has no `rematch` field)
  const btn = $('#rematch');
  btn.hidden = !!state.rematch || !mine.length || !('rematch' in state) || offers.length > 0;
  btn.disabled = posting || leaving;
  // an offer pending (between people on different devices): the players' answer; a spectator
  // sees the rematch once it is made, the link only
  const rbox = $('#rematch-box');
  rbox.hidden = !!state.rematch || !mine.length || !offers.length;
  if (!rbox.hidden) {
    // a seat of ours that has not offered or accepted yet (this browser may hold several)
    const answerSeat = mine.find((i) => !offers.includes(i));
    const waiting = namesOf(state, rematchWaiting(state).filter((i) => !mine.includes(i)), 'awaited-player');
    $('#rematch-text').textContent = answerSeat == null ? t('rematch-waiting', { names: waiting || t('awaited-answer') })
      : others.length ? t('rematch-offers', { names: namesOf(state, others, 'offered-by-player'), n: others.length })
      : `${t('rematch-offers', { names: namesOf(state, offers, 'offered-by-player'), n: offers.length })} ${t('do-you-accept', playerArgs(state, answerSeat))}`;
    $('#rematch-answer').hidden = answerSeat == null;
    $('#rematch-mine').hidden = !ours || answerSeat != null;
    for (const b of rbox.querySelectorAll('button')) b.disabled = posting || leaving;
  }
  const link = $('#rematch-link');
  link.hidden = !state.rematch;
  if (state.rematch) link.href = `/game/${encodeURIComponent(state.rematch)}`;
}

// What a rated game did to its players' ratings, once it is rated (`rating_change`,
// docs/api.md): each player's rating before and after, and the change.
/** @param {State} state */
function renderRatingChange(state) {
  const change = state.rating_change;
  $('#rating-change').hidden = !change;
  if (!change) return;
  $('#rating-change-title').textContent = t('rating-change-title', { speed: t(`speed-${change.speed}`) });
  $('#rating-change-list').innerHTML = change.seats.map((/** @type {{name: string | null, before: number, after: number, change: number, provisional: boolean}} */ s) =>
    `<li data-name="${esc(s.name)}">${esc(t('rating-change-line', {
      name: s.name ?? t('rating-change-deleted'),
      before: num(s.before),
      after: `${num(s.after)}${s.provisional ? '?' : ''}`,
      change: num(s.change, { signDisplay: 'always' }),
    }))}</li>`).join('');
  $('#rating-provisional').hidden = !change.seats.some((/** @type {{provisional: boolean}} */ s) => s.provisional);
}

// What a new state says about offers, to keep as a note: an offer of ours (a draw, a takeback,
// a rematch) declined by a player on another screen; and a rematch made, to follow.
/** @param {State} state @param {State | null} prev */
function noteOffers(state, prev) {
  noteRematch(state, prev);
  noteTakeback(state, prev);
  noteDraw(state, prev);
}

// (The computer's answer to a draw comes with the answer to the offer: drawAction.)
/** @param {State} state @param {State | null} prev */
function noteDraw(state, prev) {
  const ply = state.history.length;
  if (state.outcome) {
    if (notice?.kind !== 'rematch') notice = null;
    myOfferSeen = null;
    return;
  }
  const offer = state.draw_offer ?? null;
  const ours = offer != null && myHumanSeats(state).includes(offer) && myHumanSeats(state).length === 1;
  // an offer of ours gone with no move and no end: the other side declined it
  if (myOfferSeen != null && offer == null && prev && prev.history.length === ply && state.draw_declined == null) {
    const other = state.players.findIndex((_, i) => i !== myOfferSeen);
    notice = { text: t('draw-declined', playerArgs(state, other)), ply, kind: 'draw' };
  }
  myOfferSeen = ours ? offer : null;
}

/** @param {unknown[] | null | undefined} a @param {unknown[] | null | undefined} b */
const sameList = (a, b) => (a || []).length === (b || []).length && (a || []).every((x, i) => x === (b || [])[i]);

// A takeback proposal of ours declined: the server says by which seat (a seat of ours: we
// withdrew it).
/** @param {State} state @param {State | null} prev */
function noteTakeback(state, prev) {
  const offer = state.outcome ? null : state.takeback_offer ?? null;
  const declined = state.takeback_declined ?? null;
  if (myTakebackSeen != null && offer == null && declined != null && !myHumanSeats(state).includes(declined)) {
    notice = { text: t('takeback-declined', playerArgs(state, declined)), ply: state.history.length, kind: 'takeback' };
  }
  if (offer != null && notice?.kind === 'takeback') notice = null; // (a new proposal)
  myTakebackSeen = offer != null && myHumanSeats(state).includes(offer) ? offer : null;
}

// A rematch offer of ours gone with no rematch: declined (or withdrawn by us). A rematch made
// while this page shows the game, that a seat of ours wanted: this page goes to it.
/** @param {State} state @param {State | null} prev */
function noteRematch(state, prev) {
  const mine = myHumanSeats(state);
  const offers = state.rematch_offers || [];
  // (a rematch made by a server of before the offers, with no offers kept, gave new tokens)
  if (state.rematch && mine.length && offers.length) {
    rematchTokens(state);
    if (prev && !prev.rematch && mine.some((i) => offers.includes(i))) goToRematch(state.rematch);
  }
  if (state.rematch) return;
  if (myRematchSeen && !offers.length && state.outcome && !state.rematch) {
    if (withdrawing !== 'rematch') {
      const others = (prev ? rematchWaiting(prev) : []).filter((i) => !mine.includes(i));
      notice = { text: others.length === 1 ? t('rematch-declined-by', playerArgs(state, others[0])) : t('rematch-declined'), ply: state.history.length, kind: 'rematch' };
    }
  }
  if (offers.length && notice?.kind === 'rematch') notice = null; // (a new offer)
  if (!offers.length && withdrawing === 'rematch') withdrawing = null;
  myRematchSeen = !!state.outcome && mine.some((i) => offers.includes(i));
}

// Our tokens for the rematch of this game (`state.rematch`): each seat keeps its player's token,
// the seats turned by one (new seat j is old seat j-1's); `given`: the server's answer to our
// request, which has our token at our new seats. Kept with those already stored.
/** @param {State} state */
function rematchTokens(state, given = null) {
  const id = state.rematch;
  const n = state.players.length;
  const key = `myrmidon:token:${id}`;
  let stored = [];
  try { stored = JSON.parse(localStorage.getItem(key) || '[]') || []; } catch { stored = []; }
  if (!Array.isArray(stored)) stored = [];
  const tk = Array.from({ length: n }, (_, j) => given?.[j] || stored[j] || tokenOf((j + n - 1) % n) || null);
  if (!tk.some((t) => t)) return;
  if (sameList(tk, stored)) return;
  localStorage.setItem(key, JSON.stringify(tk));
  rememberGame(id, Array.from({ length: n }, (_, j) => state.seats[(j + n - 1) % n]));
}

/** @param {string} id */
function goToRematch(id) {
  if (leaving) return;
  leaving = true;
  location.href = `/game/${encodeURIComponent(id)}`;
}

/** @param {State} state */
function renderMoves(state) {
  const html = moveListHtml(state, viewPly ?? (state.history || []).length, t('moves-none'));
  const list = $('#moves');
  // (the first time, nothing is read from the layout before the page is first drawn: the
  // scrolling waits for the next frame, whose layout the drawing then uses)
  const first = !list.dataset.drawn;
  const atBottom = first || list.scrollTop + list.clientHeight >= list.scrollHeight - 30;
  list.innerHTML = html;
  list.dataset.drawn = '1';
  const scroll = () => {
    const cur = list.querySelector('.move.current');
    if (viewPly != null && cur) cur.scrollIntoView({ block: 'nearest' });
    else if (atBottom || viewPly == null) list.scrollTop = list.scrollHeight;
  };
  if (first) requestAnimationFrame(scroll);
  else scroll();
}

// A new move or the end: its sound (a takeback and the first state shown make none).
/** @param {State | null} prev @param {State} state */
function soundOf(prev, state) {
  if (!prev) return;
  const n = state.history.length;
  if (state.outcome && !prev.outcome) play('end');
  else if (n > prev.history.length) play(state.check ? 'check' : (state.history[n - 1].captures || []).length ? 'capture' : 'move');
}
function renderSound() {
  $('#sound').setAttribute('aria-pressed', String(!muted()));
  $('#sound').textContent = muted() ? t('tool-sound-off') : t('tool-sound-on');
}

// ---- premoves ----
// While another player moves, our next move may be chosen ahead on the board (a piece, then a
// cell: one move, as lichess): it is played as soon as our turn comes if a legal move goes
// between those two cells (and only one), else dropped. The server judges it as any move.
/** @type {{from: number, to: number} | null} */
let premove = null;
// the seat of ours that may premove: the one seat this browser plays, when another is to move
/** @param {State} state */
function premoveSeat(state) {
  const mine = myHumanSeats(state);
  if (mine.length !== 1 || state.outcome || state.to_move == null || state.to_move === mine[0] || isOut(state, mine[0])) return null;
  return openSeats(state).length ? null : mine[0];
}
// Our turn has come: the premove, if any, played (or dropped).
/** @param {State} state */
function playPremove(state) {
  if (!premove || !canMove(state) || viewPly != null || posting) return;
  const pm = premove;
  premove = null;
  const texts = [...new Set(state.legal_cells.filter((m) => m.from === pm.from && m.to === pm.to).map((m) => m.text))];
  board?.set({ premove: null });
  if (texts.length === 1) playMove(texts[0]);
}

/** @param {State} state @param {boolean} readOnly */
function boardConfig(state, readOnly) {
  const last = state.history && state.history.length ? state.history[state.history.length - 1] : null;
  const pmSeat = readOnly ? null : premoveSeat(state);
  if (pmSeat == null && !canMove(state)) premove = null;
  return {
    premoveSeat: pmSeat,
    premove,
    pieces: state.board,
    players: state.players,
    playerNumbers: playerNumbers(state),
    legal: readOnly ? [] : state.legal_cells,
    lastMove: last ? { from: last.from, to: last.to, captures: last.captures || [] } : null,
    checkCells: state.outcome ? [] : state.check_cells || [],
    toMove: state.to_move,
    movable: !readOnly && canMove(state) && !posting,
  };
}

function render() {
  if (!live) return;
  const shownState = viewPly == null ? live : atCache.get(viewPly);
  renderPlayers(live);
  renderStatus(live);
  renderMoves(live);
  // while our move is on its way, keep the board as it is (the move shown at once)
  if (posting && viewPly == null) board?.set({ movable: false });
  else if (shownState) board?.set(boardConfig(shownState, viewPly != null));
  const v = $('#viewing');
  v.hidden = viewPly == null;
  if (viewPly != null) {
    const h = live.history[viewPly - 1];
    $('#viewing-text').textContent = viewPly === 0 ? t('viewing-start') : t('viewing-move', { n: viewPly, move: h ? h.text : '' });
  }
  document.body.classList.toggle('viewing-past', viewPly != null);
}

// Show a state from the server; false when it is dropped (another game's, or older than the one
// shown). `force`: show it even so (a takeback goes back: its state may have a lower version).
/** @param {State} state */
function applyState(state, { force = false } = {}) {
  state = localState(state); // (the players named in the page's language)
  if (!state || state.id !== gameId && state.id != null && gameId) return false;
  if (!force && live && state.version != null && live.version != null && state.version < live.version) return false;
  const firstTime = !live;
  // the positions of moves taken back are no longer the game's: forget them
  const moves = state.moves || [];
  for (const [k, st] of atCache) if (k > moves.length || (st.moves || []).some((m, i) => m !== moves[i])) atCache.delete(k);
  if (viewPly != null && viewPly >= moves.length) viewPly = null;
  const prev = live;
  if (state.clock && state.clock.as_of_ms != null) {
    const lag = Date.now() - state.clock.as_of_ms;
    clockSkew = clockSkew == null ? lag : Math.min(clockSkew, lag);
  }
  if (!state.clock || state.clock.running == null || prev?.clock?.running !== state.clock.running) flagNudged = false;
  noteOffers(state, prev);
  live = state;
  document.body.dataset.version = state.version ?? ''; // (the state shown: for tests and bug reports)
  syncClock(state);
  if (firstTime || turnToMover && canTurn(state) && prev?.to_move !== state.to_move) orient(state);
  renderTurn(state);
  render();
  if (!prev || prev.to_move !== state.to_move || !!prev.outcome !== !!state.outcome) followZoom(state);
  soundOf(prev, state);
  playPremove(state);
  return true;
}

// The board as seen from our seat, when this browser holds one seat only: with two players the
// second one's side at the bottom; on the hexagon of three, our corner at the bottom (the lower
// left one, the first player's turned by 300 degrees; the others then follow clockwise); with
// every seat on this screen, the corner of the player to move when the switch says so.
let turnToMover = localStorage.getItem('myrmidon:turn-to-mover') === '1';
/** @param {State} state */
const canTurn = (state) => state.players.length > 2 && info?.board?.kind === 'hex' && mySeats().length === state.players.length;
/** The board's orientation for `state` (null: the one chosen stays). @param {State} state */
function orientationOf(state) {
  if (flipChosen) return null;
  const mine = mySeats().filter((i) => i < state.players.length);
  const seat = mine.length === 1 ? mine[0] : canTurn(state) && turnToMover ? state.to_move ?? 0 : 0;
  if (state.players.length === 2) return { orientation: seat === 1, rotation: 0 };
  return { orientation: false, rotation: info?.board?.kind === 'hex' ? (300 + 360 - 120 * seat) % 360 : 0 };
}
/** @param {State} state */
function orient(state) {
  const o = orientationOf(state);
  if (!o) return;
  flipped = o.orientation;
  board?.set(o);
}
/** @param {State} state */
function renderTurn(state) {
  $('#turn').hidden = !canTurn(state);
  $('#turn').setAttribute('aria-pressed', String(turnToMover));
}

// ---- online games: seats to take, invitations ----
/** @param {State} state */
function renderSeats(state) {
  const open = state.outcome ? [] : openSeats(state);
  const box = $('#seats-box');
  box.hidden = !open.length;
  if (!open.length) return;
  const names = open.map((/** @type {number} */ i) => state.players[i]).join(', ');
  $('#waiting').textContent = t('waiting-players', { names });
  // anyone without a seat may take one; a player here may pass the game's address on
  const key = `${spectating(state)}|${open.join(',')}|${posting}`;
  const jb = $('#join-buttons');
  if (jb.dataset.key === key) return;
  jb.dataset.key = key;
  if (spectating(state)) {
    jb.innerHTML = open.map((/** @type {number} */ i) => `<button type="button" class="button primary" data-join="${i}">${esc(t('join-as', playerArgs(state, i)))}</button>`).join('');
  } else {
    jb.innerHTML = `<button type="button" class="button small" id="copy-address">${esc(t('copy-address'))}</button><span class="hint">${esc(t('copy-address-hint'))}</span>`;
  }
  for (const b of jb.querySelectorAll('button[data-join]')) b.disabled = posting;
}

/** @param {number} seat */
function inviteLink(seat) {
  return `${location.origin}/game/${encodeURIComponent(gameId)}#seat=${seat}&token=${encodeURIComponent(invites[seat] ?? '')}`;
}
// The creator's links for the other seats: shown until that seat has moved (nobody can tell
// whether a link was opened before), and not after the end.
/** @param {State} state */
function renderInvites(state) {
  const box = $('#invites');
  const seats = state.outcome ? [] : invites.map((t, i) => (t && isPerson(state.seats[i]) && !tokenOf(i) && !state.history.some((m) => m.player === i) ? i : -1)).filter((i) => i >= 0);
  box.hidden = !seats.length;
  const key = seats.join(',');
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  $('#invite-list').innerHTML = seats.map((i) => `<div class="invite" data-seat="${i}">
      <span class="invite-who"><svg class="seat-icon" viewBox="0 0 100 100" aria-hidden="true">${info ? emblemSvg(info, i) : ''}</svg>${esc(state.players[i])}</span>
      <input type="text" readonly value="${esc(inviteLink(i))}" aria-label="${esc(t('invite-link-for', playerArgs(state, i)))}">
      <button type="button" class="button small" data-copy-invite="${i}">${esc(t('copy'))}</button>
    </div>`).join('');
}

/** @param {string} text @param {HTMLElement} btn @param {string} label */
async function copyText(text, btn, label) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const ta = document.createElement('textarea');
    ta.value = text;
    document.body.appendChild(ta);
    ta.select();
    try { document.execCommand('copy'); } catch { /* ignore */ }
    ta.remove();
  }
  btn.textContent = t('copied');
  setTimeout(() => { btn.textContent = label; }, 1500);
}

/** @param {number} seat */
async function join(seat) {
  if (!live || posting) return;
  const who = playerArgs(live, seat);
  showMessage('');
  posting = true;
  render();
  try {
    const data = await post('join', { seat });
    posting = false;
    tokens[seat] = data.token;
    saveTokens();
    sayHere();
    rememberGame(gameId, data.state?.seats || live.seats);
    orient(data.state || live);
    if (!data.state || !applyState(data.state)) render();
  } catch (ex) {
    posting = false;
    showMessage(t('join-error', { ...who, error: errorText(ex) }));
    render();
  }
}

// ---- navigation through the moves ----
/** @param {number | null} ply  null: the live position */
async function view(ply) {
  if (!live) return;
  const max = live.history.length;
  if (ply == null || ply >= max) { viewPly = null; render(); return; }
  ply = Math.max(0, ply);
  viewPly = ply;
  if (!atCache.has(ply)) {
    render();
    try {
      if (local) atCache.set(ply, localState(await local.at(ply)));
      else {
        const res = await fetch(`/api/games/${encodeURIComponent(gameId)}?at=${ply}`);
        const data = await res.json();
        if (!res.ok) throw new Error(data.error || t('error-status', { status: res.status }));
        atCache.set(ply, localState(data));
      }
    } catch (ex) {
      showMessage(t('view-error', { n: ply, error: errorText(ex) }));
      viewPly = null;
    }
    if (viewPly !== ply) return;
  }
  render();
}

// ---- actions ----
/** A refusal of a request: `unreachable` when no answer came, else the answer's `status`. @typedef {Error & {unreachable?: boolean, status?: number}} RequestError */
/** What a `catch` caught, as a refusal of a request. @param {unknown} ex @returns {RequestError} */
const requestError = (ex) => (ex instanceof Error ? ex : new Error(String(ex)));

/** @param {string} path @param {Record<string, unknown>} body */
async function post(path, body) {
  let res;
  try {
    res = await fetch(`/api/games/${encodeURIComponent(gameId)}/${path}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
  } catch {
    throw Object.assign(new Error(t('error-unreachable')), { unreachable: true });
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(data.error || t('error-status', { status: res.status })), { status: res.status });
  return data;
}

/** @param {string} text */
async function playMove(text) {
  if (!live || posting) return;
  const here = playingHere();
  if (here) { localAction(() => here.play(text)); return; }
  const token = tokenOf(live.to_move) || anyToken();
  if (!token) { showMessage(t('no-seat-here')); board?.revert(); return; }
  showMessage('');
  posting = true;
  try {
    const state = await post('moves', { move: text, token });
    posting = false;
    // a newer state may have come by the WebSocket meanwhile (the computer's reply): then this
    // one is dropped, and the board, held still while posting, must show the newer one
    if (!applyState(state)) { render(); playPremove(live); }
    $('#move-text').value = '';
  } catch (ex) {
    posting = false;
    // the server cannot be reached: a game of this screen goes on here, with this move
    const now = requestError(ex).unreachable && await goLocal() ? playingHere() : null;
    if (now) { localAction(() => now.play(text)); return; }
    showMessage(errorText(ex));
    board?.revert();
    render();
  }
}

// A takeback: proposed (immediate against the computer and on one screen), accepted, declined,
// or withdrawn (our own proposal declined).
async function takeback(action = 'propose') {
  if (!live || posting) return;
  const here = playingHere();
  if (here) { viewPly = null; localAction(() => here.takeback()); return; }
  const mine = myHumanSeats(live);
  const offer = live.takeback_offer ?? null;
  const agreed = live.takeback_agreed || [];
  let seat;
  if (action === 'propose') seat = [...live.history].reverse().find((m) => mine.includes(m.player))?.player;
  else if (action === 'decline' && offer != null && mine.includes(offer)) seat = offer;
  else seat = mine.find((i) => i !== offer && !agreed.includes(i));
  const token = tokenOf(seat) || anyToken();
  if (!token) return;
  showMessage('');
  posting = true;
  render();
  try {
    const state = await post('takeback', { token, action });
    posting = false;
    if (action === 'propose') viewPly = null;
    if (!applyState(state)) render();
  } catch (ex) {
    posting = false;
    failed(ex);
  }
}

// A refusal: the server's words; a change that came first (409): the state read again.
/** @param {unknown} ex */
function failed(ex) {
  showMessage(errorText(ex));
  render();
  if (requestError(ex).status === 409) {
    fetch(`/api/games/${encodeURIComponent(gameId)}`).then((r) => (r.ok ? r.json() : null))
      .then((st) => st && applyState(st)).catch(() => {});
  }
}

/** @type {ReturnType<typeof setTimeout> | null} */
let resignArmed = null;
async function resign() {
  const state = live;
  if (!state || state.outcome) return;
  const mine = mySeats().filter((i) => isPerson(state.seats[i]) && !isOut(state, i));
  if (!mine.length) return;
  // with every seat here, the player to move resigns; else our seat
  const seat = state.to_move != null && mine.includes(state.to_move) ? state.to_move : mine[0];
  const btn = $('#resign');
  if (!resignArmed) {
    btn.textContent = t('resign-confirm', playerArgs(state, seat));
    btn.classList.add('armed');
    resignArmed = setTimeout(() => { resignArmed = null; btn.textContent = t('resign'); btn.classList.remove('armed'); }, 4000);
    return;
  }
  clearTimeout(resignArmed);
  resignArmed = null;
  btn.textContent = t('resign');
  btn.classList.remove('armed');
  const here = playingHere();
  if (here) { localAction(() => here.resign(seat)); return; }
  try {
    applyState(await post('resign', { token: tokenOf(seat), seat }));
  } catch (ex) {
    showMessage(errorText(ex));
  }
}

async function offerDraw() {
  if (!live || live.outcome || posting) return;
  const seat = offeringSeat(live);
  if (seat == null) return;
  await drawAction(seat, 'offer');
}

/** @param {number} seat @param {string} action */
async function drawAction(seat, action) {
  showMessage('');
  posting = true;
  render();
  try {
    const state = await post('draw', { seat, token: tokenOf(seat), action });
    posting = false;
    if (action === 'offer' && state.draw_declined != null && !state.outcome) {
      const d = state.draw_declined;
      const who = playerArgs(localState(state), d);
      notice = { text: isComputer(state, d) ? t('draw-declined-computer', who) : t('draw-declined', who), ply: state.history.length, kind: 'draw' };
    }
    if (!applyState(state)) render();
  } catch (ex) {
    posting = false;
    showMessage(errorText(ex));
    render();
  }
}

// A rematch: offered (made at once against the computer and on one screen; else once every
// person wants it), accepted, declined, or withdrawn (our own offer declined). The new game
// seats the same players, turned by one, each with the token they had.
async function rematch(action = 'offer') {
  if (!live || !live.outcome || posting || leaving) return;
  const mine = myHumanSeats(live);
  const offers = live.rematch_offers || [];
  const own = action === 'decline' && mine.some((i) => offers.includes(i));
  const seat = action === 'accept' ? mine.find((i) => !offers.includes(i)) : own ? mine.find((i) => offers.includes(i)) : mine[0];
  const token = tokenOf(seat) || anyToken();
  if (!token) return;
  showMessage('');
  posting = true;
  if (own) withdrawing = 'rematch';
  render();
  try {
    const old = live;
    const data = await post('rematch', { token, action });
    posting = false;
    if (data.tokens && data.id) {
      // 201: the new game
      rematchTokens({ ...old, rematch: data.id }, data.tokens);
      goToRematch(data.id);
      return;
    }
    if (!applyState(data)) render();
  } catch (ex) {
    posting = false;
    if (withdrawing === 'rematch') withdrawing = null;
    failed(ex);
  }
}

// the new game in the home page's list of recent games (as home.js does)
/** @param {string} id @param {string[]} seats */
function rememberGame(id, seats) {
  let list = [];
  try { list = JSON.parse(localStorage.getItem('myrmidon:recent') || '[]'); } catch { list = []; }
  if (!Array.isArray(list)) list = [];
  list = list.filter((g) => g.id !== id);
  list.unshift({ id, game: info?.id || live?.game, name: info?.name || live?.game, seats, at: Date.now() });
  localStorage.setItem('myrmidon:recent', JSON.stringify(list.slice(0, 12)));
}

async function copyPosition() {
  const state = viewPly == null ? live : atCache.get(viewPly);
  if (!state) return;
  const btn = $('#copy');
  try {
    await navigator.clipboard.writeText(state.position);
  } catch {
    const ta = document.createElement('textarea');
    ta.value = state.position;
    document.body.appendChild(ta);
    ta.select();
    try { document.execCommand('copy'); } catch { /* ignore */ }
    ta.remove();
  }
  btn.textContent = t('copied');
  setTimeout(() => { btn.textContent = t('tool-copy'); }, 1500);
}

// ---- live updates ----
/** @type {WebSocket | null} */
let ws = null;

// tells the server, on the WebSocket, that our seats are here (rated games: docs/api.md, "A
// player who left")
function sayHere() {
  const token = anyToken();
  if (token && ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ token }));
}

// a claim against the player of `seat`, who left: the win, or a draw
/** @param {string} result */
async function claimLeft(result) {
  const seat = claimable[0];
  if (!live || live.outcome || seat == null || posting) return;
  showMessage('');
  try {
    claimable = [];
    applyState(await post('claim-left', { seat, token: anyToken(), result }));
  } catch (ex) {
    failed(ex);
  }
}
let backoff = 500;
/** @type {number | null} */
let wsVersion = null; // the version of the last state the WebSocket brought

let failedTries = 0; // tries in a row of the WebSocket that did not open
function connect() {
  if (local) return;
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(`${proto}//${location.host}/api/games/${encodeURIComponent(gameId)}/ws`);
  ws = socket;
  let opened = false;
  socket.onopen = () => { backoff = 500; opened = true; failedTries = 0; $('#conn').hidden = true; sayHere(); };
  socket.onmessage = (e) => {
    let state;
    try { state = JSON.parse(e.data); } catch { return; /* not a state */ }
    // (not a state: the seats of players who left that ours may claim against)
    if (Array.isArray(state.claimable)) { claimable = state.claimable; render(); return; }
    // the WebSocket brings the states in order: one older than the one before is a step back
    // (a takeback), to show even if a newer state came by another way
    const back = wsVersion != null && state.version != null && state.version < wsVersion;
    if (state.version != null) wsVersion = state.version;
    applyState(state, { force: back });
  };
  socket.onclose = async () => {
    $('#conn').hidden = false;
    // the server is gone (offline, or three tries in a row failed, some 3.5 s): a game of this
    // screen goes on here
    if (!opened) failedTries++;
    if ((!navigator.onLine || failedTries >= 3) && await goLocal()) return;
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 10000);
  };
}

// ---- start ----
// The games' descriptions and the game's state, inlined in the page by the server (web.rs:
// <script id="boot" type="application/json">), so that the board is drawn without a request.
function bootData() {
  try {
    const data = JSON.parse(document.getElementById('boot')?.textContent || '{}');
    return data && typeof data === 'object' ? data : {};
  } catch {
    return {};
  }
}

// ---- a board too small for a finger (a phone): the zoom ----
// Cells under 40 px wide offer a zoom: the cells 44 px wide (style.css), the board scrolled
// within its box. The choice is remembered.
const ZOOM_BELOW = 40;
let zoomed = localStorage.getItem('myrmidon:zoom') === '1';
function naturalCell() {
  const box = $('#board');
  const cols = parseFloat(box.style.getPropertyValue('--mb-cols')) || 0;
  return cols ? box.clientWidth / cols : Infinity;
}
function syncZoom() {
  const box = $('#board');
  const small = naturalCell() < ZOOM_BELOW;
  $('#board-bar').hidden = !small;
  const on = small && zoomed;
  const was = box.classList.contains('zoomed');
  box.classList.toggle('zoomed', on);
  $('#zoom').setAttribute('aria-pressed', String(on));
  $('#zoom').textContent = on ? t('board-unzoom') : t('board-zoom');
  if (on && !was && live) followZoom(live);
}
// A zoomed board scrolled to the pieces of the player to move, when this screen plays them (on
// one screen, each player in turn finds their army in sight).
/** @param {State} state */
function followZoom(state) {
  const box = $('#board');
  if (!box.classList.contains('zoomed') || !canMove(state)) return;
  const bx = box.getBoundingClientRect();
  /** @type {number[]} */
  const xs = [];
  /** @type {number[]} */
  const ys = [];
  state.board.forEach((p, c) => {
    if (!p || p.owner !== state.to_move) return;
    const r = box.querySelector(`.mb-hit [data-cell="${c}"]`)?.getBoundingClientRect();
    if (r) { xs.push(r.left + r.width / 2 - bx.left + box.scrollLeft); ys.push(r.top + r.height / 2 - bx.top + box.scrollTop); }
  });
  if (!xs.length) return;
  /** @param {number[]} v */
  const mid = (v) => (Math.min(...v) + Math.max(...v)) / 2;
  box.scrollLeft = mid(xs) - box.clientWidth / 2;
  box.scrollTop = mid(ys) - box.clientHeight / 2;
}

async function main() {
  board = createBoard($('#board'), {
    onMove: playMove, showNames,
    onPremove: (pm) => { premove = pm; },
  });
  $('#zoom').addEventListener('click', () => {
    zoomed = !$('#board').classList.contains('zoomed');
    localStorage.setItem('myrmidon:zoom', zoomed ? '1' : '0');
    syncZoom();
  });
  window.addEventListener('resize', syncZoom);
  $('#names').setAttribute('aria-pressed', String(showNames));
  $('#flip').addEventListener('click', () => { flipped = !flipped; flipChosen = true; board?.set({ orientation: flipped }); });
  $('#turn').addEventListener('click', () => {
    turnToMover = !turnToMover;
    localStorage.setItem('myrmidon:turn-to-mover', turnToMover ? '1' : '0');
    flipChosen = false;
    if (live) { orient(live); renderTurn(live); }
  });
  $('#names').addEventListener('click', () => {
    showNames = !showNames;
    localStorage.setItem('myrmidon:names', showNames ? '1' : '0');
    $('#names').setAttribute('aria-pressed', String(showNames));
    board?.set({ showNames });
  });
  $('#copy').addEventListener('click', copyPosition);
  // the game's address (no token in it): the phone's share sheet, else the clipboard
  $('#share').addEventListener('click', async () => {
    const url = `${location.origin}/game/${encodeURIComponent(gameId)}`;
    if (navigator.share && matchMedia('(pointer: coarse)').matches) {
      try { await navigator.share({ title: document.title, url }); return; } catch (e) { if (/** @type {Error} */ (e).name === 'AbortError') return; }
    }
    copyText(url, $('#share'), t('tool-share'));
  });
  renderSound();
  $('#sound').addEventListener('click', () => { setMuted(!muted()); renderSound(); });
  $('#board-theme').value = document.documentElement.dataset.board || 'wood';
  $('#board-theme').addEventListener('change', () => setBoardTheme($('#board-theme').value));
  $('#resign').addEventListener('click', resign);
  $('#claim-win').addEventListener('click', () => claimLeft('win'));
  $('#claim-draw').addEventListener('click', () => claimLeft('draw'));
  $('#takeback').addEventListener('click', () => takeback('propose'));
  $('#takeback-accept').addEventListener('click', () => takeback('accept'));
  $('#takeback-decline').addEventListener('click', () => takeback('decline'));
  $('#takeback-withdraw').addEventListener('click', () => takeback('decline'));
  $('#offer-draw').addEventListener('click', offerDraw);
  $('#draw-accept').addEventListener('click', () => drawAction(Number($('#draw-accept').dataset.seat), 'accept'));
  $('#draw-decline').addEventListener('click', () => drawAction(Number($('#draw-decline').dataset.seat), 'decline'));
  /** The element under an event that `sel` selects. @param {Event} e @param {string} sel */
  const under = (e, sel) => /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest(sel));
  $('#rematch').addEventListener('click', () => rematch('offer'));
  $('#rematch-accept').addEventListener('click', () => rematch('accept'));
  $('#rematch-decline').addEventListener('click', () => rematch('decline'));
  $('#rematch-withdraw').addEventListener('click', () => rematch('decline'));
  $('#join-buttons').addEventListener('click', (/** @type {MouseEvent} */ e) => {
    const b = under(e, 'button[data-join]');
    if (b) join(Number(b.dataset.join));
    const c = under(e, '#copy-address');
    if (c) copyText(`${location.origin}/game/${encodeURIComponent(gameId)}`, c, t('copy-address'));
  });
  $('#invite-list').addEventListener('click', (/** @type {MouseEvent} */ e) => {
    const b = under(e, 'button[data-copy-invite]');
    if (b) copyText(inviteLink(Number(b.dataset.copyInvite)), b, t('copy'));
  });
  $('#invite-list').addEventListener('focusin', (/** @type {FocusEvent} */ e) => { if (e.target instanceof HTMLInputElement) e.target.select(); });
  $('#analyse').href = `/analysis?from=${encodeURIComponent(gameId)}`;
  $('#over-analyse').href = `/analysis?from=${encodeURIComponent(gameId)}`;
  $('#download').href = `/api/games/${encodeURIComponent(gameId)}/record`;
  $('#download').setAttribute('download', `myrmidon-${gameId}.pgn`);
  $('#pass').addEventListener('click', () => { if ($('#pass').dataset.move) playMove($('#pass').dataset.move); });
  $('#entry').addEventListener('submit', (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    const t = $('#move-text').value.trim();
    if (t) playMove(t);
  });
  $('#moves').addEventListener('click', (/** @type {MouseEvent} */ e) => {
    const b = under(e, '[data-ply]');
    if (b) view(Number(b.dataset.ply));
  });
  // a move of the list under the pointer or the focus: its cells outlined on the board
  /** @param {Event} e */
  const previewFrom = (e) => {
    const b = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest?.('[data-ply]'));
    const m = b && live ? live.history[+(b.dataset.ply ?? 0) - 1] : null;
    board?.set({ preview: m ? { from: m.from, to: m.to } : null });
  };
  $('#moves').addEventListener('pointerover', previewFrom);
  $('#moves').addEventListener('focusin', previewFrom);
  $('#moves').addEventListener('pointerleave', () => board?.set({ preview: null }));
  $('#moves').addEventListener('focusout', () => board?.set({ preview: null }));
  $('#back-live').addEventListener('click', () => view(null));
  $('#nav-first').addEventListener('click', () => view(0));
  $('#nav-prev').addEventListener('click', () => { if (live) view((viewPly ?? live.history.length) - 1); });
  $('#nav-next').addEventListener('click', () => viewPly != null && view(viewPly + 1));
  $('#nav-last').addEventListener('click', () => view(null));
  document.addEventListener('keydown', (e) => {
    if (!live || /** @type {Element} */ (e.target).closest('input, textarea, select, [data-cell], .mb-chooser')) return;
    if (e.key === 'ArrowLeft') { e.preventDefault(); view((viewPly ?? live.history.length) - 1); }
    if (e.key === 'ArrowRight') { e.preventDefault(); if (viewPly != null) view(viewPly + 1); }
    if (e.key === 'Home') { e.preventDefault(); view(0); }
    if (e.key === 'End') { e.preventDefault(); view(null); }
    if (e.key === 'f' && !e.ctrlKey && !e.metaKey) $('#flip').click();
  });

  if (!gameId) { $('#status').textContent = t('no-game-id'); return; }
  window.addEventListener('offline', () => { goLocal(); });
  const kept = loadLocal(gameId);
  if (gameId.startsWith('local-') || kept?.saved) {
    if (kept?.saved) { location.replace(`/game/${encodeURIComponent(kept.saved)}`); return; }
    await startLocal(kept);
    return;
  }
  try {
    // what the server put in the page (web.rs), else asked for, both at once
    const boot = bootData();
    const [games, state] = await Promise.all([
      Array.isArray(boot.games) ? boot.games : fetch('/api/games').then((r) => r.json()),
      boot.state?.id === gameId ? boot.state : fetch(`/api/games/${encodeURIComponent(gameId)}`).then(async (r) => {
        const st = await r.json().catch(() => ({}));
        if (!r.ok) throw new Error(st.error || t('error-status', { status: r.status }));
        return st;
      }),
    ]);
    learnDrawings(games);
    info = games.find((/** @type {import('./common.js').GameInfo} */ g) => g.id === state.game) ?? null;
    if (info) info = localGame(info);
    if (!info) throw new Error(t('unknown-game', { game: state.game }));
    $('#game-title').textContent = info.name;
    $('#rules-link').href = `/rules/${encodeURIComponent(state.game)}`;
    $('#rules-link').title = t('rules-of', { game: info.name });
    $('#rules-link').hidden = false;
    $('#move-text').placeholder = t('entry-example', { move: state.legal?.[0] || info.pieces?.[0]?.letter || '' });
    // (drawn once as it will be seen: turned for our seat already)
    board?.set({
      game: info.id, board: info.board, pieceNames: info.pieces, ...orientationOf(localState(state)),
    });
    applyState(state);
    // (the board's size read when the browser lays the page out to show it: no layout of its
    // own before the first one, with the board drawn)
    requestAnimationFrame(syncZoom);
    // a game of this screen can go on here should the server go: the engine made ready
    if (!state.outcome && canPlayHere() && playableHere(state, tokenOf)) prepareHere();
    if (invitedNow) rememberGame(gameId, state.seats); // (in the home page's list of our games)
  } catch (ex) {
    // not reachable, and this game went on here before: it goes on
    if (kept && !kept.saved && !requestError(ex).status) { await startLocal(kept); return; }
    $('#status').textContent = t('game-load-error', { error: errorText(ex) });
    return;
  }
  connect();
}

// ---- a game going on in this browser (local-game.js) ----
/** @type {LocalGame | null} */
let local = null;
/** The game going on in this browser, if any (a call: what it answers may change meanwhile). */
const playingHere = () => local;

// The games' descriptions, for a page opened with no server (it plays a game kept in this
// browser): asked first (the service worker keeps GET /api/games, with every game's pieces'
// drawings), else those of the page (a game page carries its own game's drawings only).
/** @returns {Promise<import('./common.js').GameInfo[]>} */
async function gamesList() {
  const boot = bootData();
  const inPage = Array.isArray(boot.games) ? boot.games : [];
  const games = await fetch('/api/games').then((r) => (r.ok ? r.json() : inPage), () => inPage);
  learnDrawings(games);
  return games;
}

// A game of this screen (against the computer or on one screen) goes on here from its last
// state: false when it cannot (people elsewhere, no engine here, over).
async function goLocal() {
  if (local) return true;
  if (!live || live.outcome || live.local || !canPlayHere() || !playableHere(live, tokenOf)) return false;
  if (ws) { ws.onclose = null; ws.close(); }
  await startLocal(LocalGame.from(gameId, live));
  return true;
}

/** @param {import('./local-game.js').LocalRecord | null} kept */
async function startLocal(kept) {
  if (!kept) { $('#status').textContent = t('local-missing'); return; }
  if (!info) {
    try {
      info = (await gamesList()).find((g) => g.id === kept.game) || null;
    } catch { info = null; }
    if (info) info = localGame(info);
    if (!info) { $('#status').textContent = t('unknown-game', { game: kept.game }); return; }
    $('#game-title').textContent = info.name;
    board?.set({ game: info.id, board: info.board, pieceNames: info.pieces });
    syncZoom();
  }
  // every person's seat is played here
  const token = anyToken() || 'local';
  tokens = kept.seats.map((k, i) => (k === 'human' ? tokenOf(i) || token : null));
  local = new LocalGame(kept, (state) => { applyState(state, { force: true }); renderLocal(state); });
  $('#conn').hidden = true;
  document.body.classList.add('local-play');
  try {
    await local.open();
  } catch (ex) {
    $('#status').textContent = t('game-load-error', { error: errorText(ex) });
    return;
  }
  window.addEventListener('online', saveLocal);
  setInterval(saveLocal, 5000);
}

// A local action: its refusal shown, the board back as it was.
/** @param {() => Promise<void>} action */
async function localAction(action) {
  showMessage('');
  try {
    await action();
    $('#move-text').value = '';
  } catch (ex) {
    showMessage(errorText(ex));
    board?.revert();
    render();
  }
}

let saving = false;
async function saveLocal() {
  if (!local || !live?.outcome || local.g.saved || saving) return;
  saving = true;
  try {
    await saveFinished();
    const now = loadLocal(local.g.id);
    if (now?.saved) { local.g.saved = now.saved; renderLocal(local.state()); }
    else if (now?.refused) { local.g.refused = now.refused; renderLocal(local.state()); }
  } finally {
    saving = false;
  }
}

/** @param {any} state */
function renderLocal(state) {
  const note = $('#local-note');
  note.hidden = false;
  const saved = local?.g.saved;
  const refused = local?.g.refused;
  if (saved) {
    note.innerHTML = `${esc(t('local-saved'))} <a id="local-saved" href="/game/${encodeURIComponent(saved)}">${esc(t('local-open-saved'))}</a>`;
  } else if (refused) {
    note.textContent = t('local-refused', { error: refused });
  } else {
    note.textContent = state.outcome ? t('local-save-pending') : t('local-playing');
  }
  if (state.outcome && !saved) saveLocal();
}

main();
