// The server's CPU while many analysis boards think, for docs/performance.md: `PAGES` analysis
// boards (/analysis) open at once in Debian's Chromium, each analysing the start position of a
// game (the games in turn) with Start, for `SECONDS`; the CPU time the server's process and
// the browser's processes used meanwhile (from /proc: Linux only), as a share of one core.
// Then the same with the server's engine (`?engine=server`, as where WebAssembly is missing),
// for comparison.
//
//   MYRMIDON_BIN=target/release/myrmidon node tests/browser/analysis-load.mjs [PAGES] [SECONDS]
//
// (from the repository; tests/browser/run.sh first, for playwright-core). Nothing here is a
// test: it prints.

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.resolve(ROOT, process.env.MYRMIDON_BIN || 'target/release/myrmidon');
const PAGES = +(process.argv[2] || 8);
const SECONDS = +(process.argv[3] || 10);
const GAMES = execFileSync(BIN, ['games'], { encoding: 'utf8' }).trim().split('\n');
const TICK = +execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100;

/** CPU seconds (user + system) of a process and its threads, from /proc/<pid>/stat. */
function cpuOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (+fields[11] + +fields[12]) / TICK; // utime, stime
  } catch {
    return 0; // (gone)
  }
}
/** Every process descending from `root` (the browser's renderers and helpers), with it. */
function tree(root) {
  const children = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = +stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(+d);
    } catch { /* gone */ }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]) || []));
  return out;
}

const server = spawn(BIN, ['serve', '--port', '0', '--no-rate-limits', '--db', path.join(os.tmpdir(), `analysis-load-${process.pid}.db`)], { stdio: ['ignore', 'pipe', 'inherit'] });
const first = await new Promise((resolve) => readline.createInterface({ input: server.stdout }).once('line', resolve));
const base = /serving on (http:\/\/[^\s/]+\/)/.exec(first)[1];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
// the browser's processes: this script's descendants but the server
const browserCpu = () => tree(process.pid).filter((pid) => pid !== process.pid && pid !== server.pid).reduce((sum, pid) => sum + cpuOf(pid), 0);

async function run(engine) {
  const context = await browser.newContext();
  const pages = [];
  for (let i = 0; i < PAGES; i++) {
    const page = await context.newPage();
    await page.goto(`${base}analysis?game=${GAMES[i % GAMES.length]}${engine === 'server' ? '&engine=server' : ''}`);
    await page.waitForFunction(() => document.body.dataset.ready === '1');
    pages.push(page);
  }
  for (const page of pages) await page.locator('#go').click();
  // the engines think: in the browser every board has its first line; on the server the
  // first board (its engine pool runs as many analyses as it has engines but one; the others
  // wait in its queue)
  for (const page of engine === 'server' ? pages.slice(0, 1) : pages) await page.waitForFunction(() => +document.querySelector('#log-count').textContent >= 1, null, { timeout: 120000 });
  const where = await Promise.all(pages.map((p) => p.locator('#engine-where').getAttribute('data-where')));
  const s0 = cpuOf(server.pid), b0 = browserCpu(), t0 = Date.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const s1 = cpuOf(server.pid), b1 = browserCpu(), t1 = Date.now();
  const wall = (t1 - t0) / 1000;
  const lines = await Promise.all(pages.map((p) => p.locator('#lines .an-line').count()));
  await context.close();
  const pct = (x) => `${((x / wall) * 100).toFixed(1)} %`;
  console.log(`| ${engine} | ${PAGES} | ${[...new Set(where)].join(', ')} | ${wall.toFixed(1)} s | ${pct(s1 - s0)} | ${pct(b1 - b0)} | ${lines.filter((n) => n > 0).length} |`);
}

try {
  console.log(`load average: ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; ${os.cpus().length} cores`);
  console.log('\n| engine | boards | engine used | measured | server CPU (of one core) | browser CPU | boards with lines |');
  console.log('|---|---|---|---|---|---|---|');
  await run('browser');
  await run('server');
  console.log(`load average: ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
