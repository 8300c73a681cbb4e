// @ts-check
// The engine of the pages, in this browser: a Web Worker (engine-worker.js) running the same
// rules and search as the server, compiled to WebAssembly. It speaks the messages of the
// server's analysis socket (docs/api.md, "Analysis"), so a page uses either the same way:
// `send(request)`, and `onMessage(answer)` for each answer.

/** True when this browser can run the engine itself (and the address does not ask for the
 * server's: `?engine=server`). */
export function localEngineAvailable() {
  if (new URLSearchParams(location.search).get('engine') === 'server') return false;
  return typeof WebAssembly === 'object' && typeof WebAssembly.instantiate === 'function' && typeof Worker === 'function';
}

/** @type {Promise<WebAssembly.Module> | null} the module, fetched and compiled once a page */
let compiled = null;
function compiledModule() {
  compiled ??= WebAssembly.compileStreaming(fetch('/engine.wasm')).catch(async () => {
    const res = await fetch('/engine.wasm');
    if (!res.ok) throw new Error(`/engine.wasm: ${res.status}`);
    return WebAssembly.compile(await res.arrayBuffer());
  });
  return compiled;
}

// How long a job may take to end once told to (it stops between two depths of its search):
// past this the worker is replaced by a new one.
const STOP_GRACE_MS = 1500;

export class WorkerEngine {
  /**
   * @param {(m: any) => void} onMessage  each answer
   * @param {(error: string) => void} onFatal  the module cannot run here: use the server
   */
  constructor(onMessage, onFatal) {
    this.onMessage = onMessage;
    this.onFatal = onFatal;
    this.up = true;
    this.connecting = false;
    /** @type {{id: any, op: string}[]} jobs sent whose end has not come */
    this.pending = [];
    /** @type {any} the last job sent, for a new worker */
    this.latest = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.grace = undefined;
    this.dead = false;
    this.worker = this.start();
  }

  /** A new worker, answering to this engine once it is `this.worker`. @returns {Worker} */
  start() {
    const w = new Worker('/engine-worker.js', { name: 'module-from-page' });
    compiledModule().then((module) => w.postMessage({ op: 'module', module }), (ex) => { if (w === this.worker) this.fail(ex.message); });
    w.onmessage = (e) => {
      if (w !== this.worker) return;
      const m = e.data;
      if (m.type === 'fatal') { this.fail(m.error); return; }
      if (m.type === 'ready') return;
      if (['done', 'evals_done', 'error'].includes(m.type)) this.pending = this.pending.filter((j) => j.id !== m.id);
      this.onMessage(m);
    };
    w.onerror = (e) => { if (w === this.worker) this.fail(e.message || 'the engine worker could not start'); };
    return w;
  }

  /** @param {string} error */
  fail(error) {
    if (this.dead) return;
    this.dead = true;
    this.up = false;
    clearTimeout(this.grace);
    this.worker.terminate();
    this.onFatal(error);
  }

  /** @param {any} request */
  send(request) {
    if (this.dead) return;
    const earlier = this.pending.slice();
    if (request.op === 'analyse' || request.op === 'evals') {
      this.pending.push({ id: request.id, op: request.op });
      this.latest = request;
    } else if (request.op === 'stop') this.latest = null;
    this.worker.postMessage(request);
    if (earlier.length) {
      clearTimeout(this.grace);
      this.grace = setTimeout(() => this.rescue(earlier), STOP_GRACE_MS);
    }
  }

  // Jobs told to end that did not (a long depth of a search): a new worker instead.
  /** @param {{id: any, op: string}[]} earlier */
  rescue(earlier) {
    const stuck = earlier.filter((j) => this.pending.includes(j));
    if (!stuck.length || this.dead) return;
    this.worker.terminate();
    this.pending = this.pending.filter((j) => !stuck.includes(j));
    this.worker = this.start();
    for (const j of stuck) this.onMessage(j.op === 'evals' ? { type: 'evals_done', id: j.id } : { type: 'done', id: j.id, best: null, outcome: null });
    if (this.latest && this.pending.some((j) => j.id === this.latest.id)) this.worker.postMessage(this.latest);
  }
}
