// The engine in the browser against the native one, for docs/performance.md: for each game, the
// search of `myrmidon bench` (one thread, 16 MiB, `MOVETIME` ms on the start position and on
// its middlegame position) run natively and in a Web Worker of Debian's Chromium (the module
// the server embeds, /engine.wasm), side by side; the module's size, raw and gzip-compressed;
// and the time from a click on Start on the analysis board to its first line.
//
//   MYRMIDON_BIN=target/release/myrmidon node tests/browser/engine-bench.mjs [MOVETIME] [game…]
//
// MYRMIDON_BIN serves the page (the module it embeds is always built optimised); NATIVE_BIN
// (default: the same) runs `myrmidon bench`: a release build.
// (from the repository; run.sh first, for playwright-core). Nothing here is a test: it prints.

import { execFileSync, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { installEngine } from './engine-page.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.resolve(ROOT, process.env.MYRMIDON_BIN || 'target/release/myrmidon');
const NATIVE = path.resolve(ROOT, process.env.NATIVE_BIN || BIN);
const MOVETIME = +(process.argv[2] || 1000);
const wanted = process.argv.slice(3);
const GAMES = execFileSync(BIN, ['games'], { encoding: 'utf8' }).trim().split('\n').filter((g) => !wanted.length || wanted.includes(g));

// ---- native: `myrmidon bench <game>`, its search table and middlegame position
function native(game) {
  const out = execFileSync(NATIVE, ['bench', game, '--movetime', String(MOVETIME)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const rows = {};
  let middlegame = null;
  let section = '';
  for (const line of out.split('\n')) {
    if (/^search /.test(line)) section = 'search';
    else if (/^middlegame positions/.test(line)) section = 'positions';
    else if (line.trim() === '') section = section === 'positions' ? '' : section;
    else if (section === 'search') {
      const m = /^(\S+)\s+(start|middlegame)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)/.exec(line);
      if (m && m[1] === game) rows[m[2]] = { depth: +m[3], nodes: +m[5], seconds: +m[6] };
    } else if (section === 'positions' && line.startsWith(`${game} `)) middlegame = line.slice(game.length).trim();
  }
  return { rows, middlegame };
}

// ---- the browser
const server = spawn(BIN, ['serve', '--port', '0', '--db', path.join(os.tmpdir(), `engine-bench-${process.pid}.db`)], { stdio: ['ignore', 'pipe', 'inherit'] });
const first = await new Promise((resolve) => readline.createInterface({ input: server.stdout }).once('line', resolve));
const base = /serving on (http:\/\/[^\s/]+\/)/.exec(first)[1];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  await page.goto(base);
  await page.evaluate(installEngine);
  const call = (request) => page.evaluate((r) => window.engineCall(r), request);

  const bytes = Buffer.from(await (await fetch(`${base}engine.wasm`)).arrayBuffer());
  console.log(`module: ${bytes.length} bytes, ${zlib.gzipSync(bytes, { level: 9 }).length} gzip -9, ${zlib.brotliCompressSync(bytes).length} brotli`);
  console.log(`\n| game | position | native depth | native nodes/s | worker depth | worker nodes/s | worker / native |`);
  console.log('|---|---|---|---|---|---|---|');
  for (const game of GAMES) {
    const { rows, middlegame } = native(game);
    // WebAssembly starts in the browser's baseline compiler and moves its hot functions to the
    // optimising one as they run: one search first, not counted, measures the engine as it
    // runs after its first second (the first line's time below counts the start).
    {
      const st = await call({ op: 'new', game });
      await call({ op: 'search', handle: st.handle, movetime: MOVETIME });
      await call({ op: 'free', handle: st.handle });
    }
    for (const [name, position] of [['start', undefined], ['middlegame', middlegame]]) {
      const st = await call({ op: 'new', game, position });
      await call({ op: 'new_game', game });
      const found = await call({ op: 'search', handle: st.handle, movetime: MOVETIME });
      await call({ op: 'free', handle: st.handle });
      const last = found.lines.at(-1);
      const nps = (last.nodes * 1000) / Math.max(1, last.time_ms);
      const nat = rows[name];
      const natNps = nat.nodes / nat.seconds;
      const k = (x) => `${(x / 1000).toFixed(1)}k`;
      console.log(`| ${game} | ${name} | ${nat.depth} | ${k(natNps)} | ${last.depth} | ${k(nps)} | ${(nps / natNps).toFixed(2)} |`);
    }
  }

  // the first line of the analysis board, from a click on Start (a fresh page: the worker
  // starts with it and compiles the module)
  console.log('\n| game | first line after the click | after opening the page |');
  console.log('|---|---|---|');
  for (const game of GAMES) {
    const p = await browser.newPage();
    await p.goto(`${base}analysis?game=${game}`);
    await p.waitForFunction(() => document.body.dataset.ready === '1');
    const ms = await p.evaluate(() => new Promise((resolve) => {
      const t = performance.now();
      const log = document.querySelector('#log-count');
      new MutationObserver(() => { if (+log.textContent >= 1) resolve([performance.now() - t, performance.now()].map(Math.round)); })
        .observe(log, { childList: true, characterData: true, subtree: true });
      /** @type {HTMLButtonElement} */ (document.querySelector('#go')).click();
    }));
    console.log(`| ${game} | ${ms[0]} ms | ${ms[1]} ms |`);
    await p.close();
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
