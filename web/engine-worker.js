// @ts-check
// The engine in the browser: a Web Worker running /engine.wasm (crates/wasm: the same Rust rules
// and search as the server's), so that the page never freezes while it thinks.
//
// It speaks the protocol of the server's analysis socket (docs/api.md, "Analysis"), as messages:
//   {op: 'analyse', id, game, position?, settings?, moves?, movetime?, multipv?}
//   {op: 'evals', id, game, position?, settings?, moves, movetime?}
//   {op: 'stop'}
// answered by {type: 'info' | 'done' | 'eval' | 'evals_done' | 'error', id, …} as there; and
//   {op: 'call', id, request: {op: …}}  → {type: 'result', id, result} (or an error):
// one request of the module itself (crates/wasm/src/lib.rs: games, new, state, play, undo,
// free, search, new_game). On start it posts {type: 'ready'}, or {type: 'fatal', error} when
// the module cannot be had (the page then uses the server). A worker named `module-from-page`
// waits for the compiled module as its first message, {op: 'module', module} (a page with
// several workers fetches and compiles it once); any other fetches it itself.
//
// A search runs depth by depth: between two depths the worker reads its messages, so a `stop`
// or a new request ends it there; the time limit is kept inside the search too. The searcher
// keeps its transposition table from one depth (and one request) to the next.

/** @type {any} */
let wasm = null;
/** @type {((line: any) => void) | null} */
let onLine = null;
const enc = new TextEncoder();
const dec = new TextDecoder();

/** @type {WebAssembly.Module | null} the module given by the page */
let given = null;

async function load() {
  const imports = {
    myrmidon: {
      now_ms: () => performance.now(),
      report: (/** @type {number} */ ptr, /** @type {number} */ len) => {
        const text = dec.decode(new Uint8Array(wasm.memory.buffer, ptr, len));
        if (onLine) onLine(JSON.parse(text));
      },
    },
  };
  if (given) {
    wasm = (await WebAssembly.instantiate(given, imports)).exports;
    return;
  }
  const url = new URL('/engine.wasm', self.location.href);
  let instance;
  try {
    instance = (await WebAssembly.instantiateStreaming(fetch(url), imports)).instance;
  } catch {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url.pathname}: ${res.status}`);
    instance = (await WebAssembly.instantiate(await res.arrayBuffer(), imports)).instance;
  }
  wasm = instance.exports;
}

/**
 * A request of the module (a message of the engine's protocol, docs/api.md); throws its error.
 * @typedef {Record<string, any>} Message
 * @param {Message} request @param {((line: any) => void) | null} [lines]  each line of a search
 * @returns {any}
 */
function call(request, lines = null) {
  const bytes = enc.encode(JSON.stringify(request));
  const ptr = wasm.mm_input(bytes.length);
  new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
  onLine = lines;
  let n;
  try {
    n = wasm.mm_call(bytes.length);
  } catch (ex) {
    // a trap leaves the module's memory as it was mid-call: start afresh
    wasm = null;
    ready = load();
    throw new Error(`the engine failed: ${ex instanceof Error ? ex.message : String(ex)}`);
  } finally {
    onLine = null;
  }
  const answer = JSON.parse(dec.decode(new Uint8Array(wasm.memory.buffer, wasm.mm_output(), n)));
  if (answer && typeof answer === 'object' && !Array.isArray(answer) && 'error' in answer) throw new Error(answer.error);
  return answer;
}

// ---------------------------------------------------------------- jobs
let job = 0; // the running job's number: a new message ends the one before
/** @type {Message[]} */
const inbox = [];
let draining = false;
const post = (/** @type {Message} */ m) => self.postMessage(m);

// Gives the messages waiting their turn (a stop, a new request) between two depths.
const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

/** @param {Message} m */
function newGame(m) {
  return call({ op: 'new', game: m.game, position: m.position ?? undefined, settings: m.settings || {}, moves: m.moves || [] });
}

/** @param {Message} m @param {number} mine  the job's number */
async function analyse(m, mine) {
  const movetime = Math.max(1, Math.min(300000, m.movetime ?? 30000));
  const start = performance.now();
  const st = newGame(m);
  try {
    if (st.outcome) { post({ type: 'done', id: m.id, best: null, outcome: st.outcome.text }); return; }
    let best = null, nodes = 0, shown = 0;
    for (let depth = 1; depth <= 128; depth++) {
      const left = movetime - (performance.now() - start);
      if (left < 1 || job !== mine) break;
      let reached = 0, last = 0;
      const found = call({ op: 'search', handle: st.handle, depth, movetime: Math.ceil(left), multipv: m.multipv || 1 }, (/** @type {any} */ l) => {
        last = l.nodes;
        // the depths before this one come back from the table: only new ones are shown
        if (l.depth <= shown && l.depth < depth) return;
        reached = Math.max(reached, l.depth);
        const time = performance.now() - start;
        post({
          type: 'info', id: m.id, ...l, nodes: nodes + l.nodes,
          nps: Math.round(((nodes + l.nodes) * 1000) / Math.max(1, time)), time_ms: Math.round(time),
        });
      });
      nodes += last;
      if (found.best) best = found.best;
      if (reached < depth) break; // out of time, or nothing deeper to find (a forced end)
      shown = depth;
      await pause();
    }
    post({ type: 'done', id: m.id, best, outcome: null });
  } finally {
    call({ op: 'free', handle: st.handle });
  }
}

/** @param {Message} m @param {number} mine  the job's number */
async function evals(m, mine) {
  const movetime = Math.max(1, Math.min(2000, m.movetime ?? 100));
  const moves = m.moves || [];
  call({ op: 'free', handle: newGame(m).handle }); // every move checked before the first search
  const st = newGame({ ...m, moves: [] });
  try {
    for (let ply = 0; ply <= moves.length && job === mine; ply++) {
      const now = ply ? call({ op: 'play', handle: st.handle, move: moves[ply - 1] }) : st;
      if (now.outcome) {
        post({ type: 'eval', id: m.id, ply, score: null, first: null, outcome: now.outcome.text });
        break;
      }
      const found = call({ op: 'search', handle: st.handle, movetime });
      const top = found.lines.find((/** @type {any} */ l) => l.multipv <= 1) || found.lines[0];
      post({ type: 'eval', id: m.id, ply, score: top?.score ?? null, first: top?.first ?? null });
      await pause();
    }
  } finally {
    call({ op: 'free', handle: st.handle });
  }
  post({ type: 'evals_done', id: m.id });
}

// A request of the module, answered at once (between two depths of a running search).
/** @param {Message} m */
function answerCall(m) {
  try {
    post({ type: 'result', id: m.id, result: call(m.request) });
  } catch (ex) {
    post({ type: 'error', id: m.id ?? null, error: ex instanceof Error ? ex.message : String(ex) });
  }
}

/** @param {Message} m */
async function handle(m) {
  if (m.op === 'call') { answerCall(m); return; }
  const mine = ++job;
  try {
    if (m.op === 'stop') return;
    if (m.op === 'analyse') await analyse(m, mine);
    else if (m.op === 'evals') await evals(m, mine);
    else post({ type: 'error', id: m.id ?? null, error: `op: ${JSON.stringify(m.op)} is not one of analyse, evals, stop, call` });
  } catch (ex) {
    post({ type: 'error', id: m.id ?? null, error: ex instanceof Error ? ex.message : String(ex) });
  }
}

/** @type {(module: WebAssembly.Module) => void} */
let takeModule = () => {};
let ready = self.name === 'module-from-page'
  ? new Promise((resolve) => { takeModule = resolve; }).then((module) => { given = module; return load(); })
  : load();

self.onmessage = (e) => {
  const m = e.data;
  if (m?.op === 'module') { takeModule(m.module); return; }
  if (m?.op === 'call' && wasm) { answerCall(m); return; }
  // a new request ends the running job at its next depth (calls, which are quick, do not)
  if (m?.op !== 'call') job++;
  inbox.push(m);
  if (!draining) drain();
};

async function drain() {
  draining = true;
  try {
    while (inbox.length) {
      await ready;
      const m = /** @type {Message} */ (inbox.shift());
      await handle(m);
    }
  } finally {
    draining = false;
  }
}

ready.then(() => post({ type: 'ready' }), (ex) => post({ type: 'fatal', error: ex instanceof Error ? ex.message : String(ex) }));
