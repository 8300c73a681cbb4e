// The first load of each page of the web app, for docs/performance.md: bytes transferred (as
// the network carried them: headers and compressed bodies, WebSockets left out), the number of
// requests and the time to the page's load event, in a fresh browser (no cache) against a
// server of its own on loopback. Each page is loaded RUNS times; the table gives the median.
//
//   MYRMIDON_BIN=target/release/myrmidon node tests/browser/page-weight.mjs [RUNS]
//
// With LATENCY_MS=<ms> every request waits that long for its answer, as on a phone's network
// (Chromium's network emulation: the latency added, the bandwidth left as it is), where a
// page's time is mostly its round trips.
//
// (from the repository; run.sh first, for playwright-core). Nothing here is a test: it prints.

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.resolve(ROOT, process.env.MYRMIDON_BIN || 'target/release/myrmidon');
const RUNS = +(process.argv[2] || 5);
const GAMES = execFileSync(BIN, ['games'], { encoding: 'utf8' }).trim().split('\n');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'myrmidon-weight-'));
const server = spawn(BIN, ['serve', '--port', '0', '--db', path.join(tmp, 'games.db'), '--no-rate-limits'], { stdio: ['ignore', 'pipe', 'inherit'] });
const first = await new Promise((resolve) => readline.createInterface({ input: server.stdout }).once('line', resolve));
const base = /serving on (http:\/\/[^\s/]+\/)/.exec(first)[1];
const post = async (p, body) => (await fetch(base + p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();

const pages = [['home', '']];
for (const game of GAMES) {
  const info = (await (await fetch(`${base}api/games`)).json()).find((g) => g.id === game);
  const c = await post('api/games', { game, seats: info.players.map(() => 'human') });
  pages.push([`game (${game})`, `game/${c.id}`]);
}
pages.push([`rules (${GAMES[0]})`, `rules/${GAMES[0]}`], [`analysis (${GAMES[0]})`, `analysis?game=${GAMES[0]}`], ['account', 'account']);

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium' });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
for (const [name, url] of pages) {
  const bytes = [], requests = [], times = [];
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (process.env.LATENCY_MS) {
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: +process.env.LATENCY_MS, downloadThroughput: -1, uploadThroughput: -1 });
    }
    let total = 0, count = 0;
    cdp.on('Network.loadingFinished', (e) => { total += e.encodedDataLength; count++; });
    cdp.on('Network.requestWillBeSent', () => {});
    await page.goto(base + url, { waitUntil: 'networkidle' });
    const load = await page.evaluate(() => { const n = /** @type {PerformanceNavigationTiming} */ (performance.getEntriesByType('navigation')[0]); return n.loadEventEnd - n.startTime; });
    bytes.push(total); requests.push(count); times.push(load);
    await context.close();
  }
  rows.push({ name, kb: (median(bytes) / 1024).toFixed(1), requests: median(requests), ms: Math.round(median(times)) });
}
await browser.close();
server.kill();
fs.rmSync(tmp, { recursive: true, force: true });
console.log('| page | transferred (KiB) | requests | load event (ms) |');
console.log('|---|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.name} | ${r.kb} | ${r.requests} | ${r.ms} |`);
