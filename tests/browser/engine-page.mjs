// The engine worker of a page (web/engine-worker.js), for the browser tests and engine-bench.mjs:
// `await page.evaluate(installEngine)` starts one and gives the page `window.engineCall(request)`
// (one request of the module, crates/wasm/src/lib.rs: its answer, or a rejection with its
// error) and `window.engineJob(message, lastType)` (a job's messages up to the one of type
// `lastType`, or an error). It resolves once the module is loaded.
export function installEngine() {
  return new Promise((resolve, reject) => {
    const w = new Worker('/engine-worker.js');
    let n = 0;
    const waiting = new Map();
    w.onmessage = (e) => {
      const m = e.data;
      if (m.type === 'ready') resolve(undefined);
      else if (m.type === 'fatal') reject(new Error(m.error));
      else waiting.get(m.id)?.(m);
    };
    window.engineCall = (request) => new Promise((res, rej) => {
      const id = ++n;
      waiting.set(id, (m) => { waiting.delete(id); if (m.type === 'result') res(m.result); else rej(new Error(m.error)); });
      w.postMessage({ op: 'call', id, request });
    });
    window.engineJob = (message, last) => new Promise((res) => {
      const id = ++n;
      const got = [];
      waiting.set(id, (m) => { got.push(m); if (m.type === last || m.type === 'error') { waiting.delete(id); res(got); } });
      w.postMessage({ ...message, id });
    });
  });
}
