// @ts-check
/// <reference lib="webworker" />
// The service worker: the app opens and plays with no network. When installed it keeps what
// the pages need (the list comes from the server, /offline.json): the pages — the home page,
// the analysis board, a game page's shell, every game's rules page —, each in every language,
// and the files: every script and style, the engine's module, the games' descriptions, their
// rules texts in every language. Every request still goes to the server first, and what it
// answers is kept; the kept copy answers only when the server cannot be reached. A page is
// kept by its language (the server says it: Content-Language), and with no network it is
// opened in the language chosen: the header's switch (the `lang` cookie), else the language
// of the last page the server served, as the server chose it. A game page is kept as one shell
// (/game/local): the page asks the server for its game, else plays the game kept in this
// browser (local-game.js). The API is never answered from here, but for the games'
// descriptions and rules texts.

const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
// (a new name when what is kept changes: the pages' scripts as one, /bundle/<page>.js, since
// -3; installing this worker keeps everything anew)
const CACHE = 'myrmidon-offline-3';
const SHELL = '/game/local';
/** Where the language of the last page served is kept (in the cache, as a text). */
const LAST_LANG = '/offline/last-lang';

sw.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const res = await fetch('/offline.json', { cache: 'no-cache' });
    const list = /** @type {{languages: string[], lang: string, pages: string[], files: string[]}} */ (await res.json());
    const cache = await caches.open(CACHE);
    await cache.addAll(list.files);
    // each page in each language: asked without the cookie, in that language
    await Promise.all(list.languages.flatMap((lang) => list.pages.map(async (page) => {
      const got = await fetch(page, { credentials: 'omit', cache: 'no-cache', headers: { 'Accept-Language': lang } });
      if (!got.ok) throw new Error(`${page} (${lang}): ${got.status}`);
      await cache.put(pageKey(lang, page), got);
    })));
    await cache.put('/offline/languages', new Response(JSON.stringify(list.languages)));
    // (the language the server chose for this browser, until a page says otherwise)
    if (!(await cache.match(LAST_LANG))) await cache.put(LAST_LANG, new Response(list.lang));
    await sw.skipWaiting();
  })());
});

sw.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await sw.clients.claim();
  })());
});

/** The copy of a page in a language. @param {string} lang @param {string} path */
const pageKey = (lang, path) => `/offline/${lang}${path}`;

/** A page's path as kept: a game page's is the shell. @param {URL} url */
const pagePath = (url) => (url.pathname.startsWith('/game/') ? SHELL : url.pathname);

sw.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== sw.location.origin) return;
  if (url.pathname.startsWith('/api/') && url.pathname !== '/api/games' && !url.pathname.startsWith('/api/rules/')) return;
  event.respondWith(req.mode === 'navigate' ? pageFirst(req, url) : networkFirst(req, url));
});

/** A file: from the server, else its copy. @param {Request} req @param {URL} url */
async function networkFirst(req, url) {
  const cache = await caches.open(CACHE);
  const key = url.pathname + url.search;
  try {
    const res = await fetch(req);
    if (res.status === 200) await cache.put(key, res.clone());
    return res;
  } catch (ex) {
    const kept = await cache.match(key, { ignoreVary: true });
    if (kept) return kept;
    throw ex;
  }
}

/** A page: from the server (kept in its language), else its copy in the language chosen.
 * @param {Request} req @param {URL} url */
async function pageFirst(req, url) {
  const cache = await caches.open(CACHE);
  const path = pagePath(url);
  try {
    const res = await fetch(req);
    const lang = res.headers.get('Content-Language');
    if (res.status === 200 && lang) {
      await cache.put(pageKey(lang, path), res.clone());
      await cache.put(LAST_LANG, new Response(lang));
    }
    return res;
  } catch (ex) {
    const lang = await chosenLanguage(cache);
    const kept = await cache.match(pageKey(lang, path), { ignoreVary: true })
      || await cache.match(pageKey(lang, '/'), { ignoreVary: true });
    if (kept) return kept;
    throw ex;
  }
}

/** The language to open a page in with no server: as the server would choose it (its
 * `lang` cookie), else the last page's. @param {Cache} cache */
async function chosenLanguage(cache) {
  /** @type {string[]} */
  const languages = await (await cache.match('/offline/languages'))?.json() ?? [];
  /** @type {any} */
  const cookies = /** @type {any} */ (sw).cookieStore;
  const cookie = cookies ? (await cookies.get('lang').catch(() => null))?.value : undefined;
  if (cookie && languages.includes(cookie)) return cookie;
  return await (await cache.match(LAST_LANG))?.text() ?? languages[0] ?? 'en';
}
