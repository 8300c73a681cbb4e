// @ts-check
/// <reference lib="webworker" />
// The service worker: the app opens and plays with no network. When installed it keeps what
// the pages need (the list comes from the server, /offline.json: the home page, the analysis
// board, a game page's shell, every script and style, the translations inside the pages, the
// engine's module, the games' descriptions). Every request still goes to the server first, and
// what it answers is kept; the kept copy answers only when the server cannot be reached. A game
// page is kept as one shell (/game/local, from the last game page opened): the page asks the
// server for its game, else plays the game kept in this browser (local-game.js).
// The API is never answered from here, but for the games' descriptions.

const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const CACHE = 'myrmidon-offline-1';
const SHELL = '/game/local';

sw.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const res = await fetch('/offline.json', { cache: 'no-cache' });
    const list = /** @type {{files: string[]}} */ (await res.json());
    const cache = await caches.open(CACHE);
    await cache.addAll(list.files);
    await sw.skipWaiting();
  })());
});

sw.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await sw.clients.claim();
  })());
});

/** The copy a request is kept under: a game page's is the shell; a page's, its path. @param {Request} req @param {URL} url */
function keyOf(req, url) {
  if (req.mode === 'navigate' && url.pathname.startsWith('/game/')) return SHELL;
  return url.pathname;
}

sw.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== sw.location.origin) return;
  if (url.pathname.startsWith('/api/') && url.pathname !== '/api/games') return;
  event.respondWith(networkFirst(req, url));
});

/** @param {Request} req @param {URL} url */
async function networkFirst(req, url) {
  const cache = await caches.open(CACHE);
  const key = keyOf(req, url);
  try {
    const res = await fetch(req);
    if (res.status === 200) await cache.put(key, res.clone());
    return res;
  } catch (ex) {
    const kept = await cache.match(key) || (req.mode === 'navigate' ? await cache.match('/') : undefined);
    if (kept) return kept;
    throw ex;
  }
}
