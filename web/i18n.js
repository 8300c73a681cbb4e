// @ts-check
// The page's language and its messages: `t(key, args)`. The server puts the catalogue of the
// request's language (web/i18n/<lang>.ftl, compiled by crates/server/src/i18n.rs) in the page as
// <script id="i18n" type="application/json">{"lang": "fr", "messages": {…}}</script>. A message
// is a pattern string with `{ $name }` placeables, or an array of strings and selections
// ({select, variants, default}: a variant named by the value itself, else by its plural
// category in the page's language, else the default). Elements with `data-i18n="key"` get the
// message as their text (the last text of an element with children, as a button with an icon),
// `data-i18n-title`, `data-i18n-aria-label` and `data-i18n-placeholder` the attribute. The
// header's switch (`[data-lang]`) sets the `lang` cookie for a year and reloads.

/** @typedef {string | Array<string | Selection>} Pattern */
/** @typedef {{select: string, variants: Record<string, Pattern>, default: string}} Selection */

/** @type {{lang: string, messages: Record<string, Pattern>}} */
const data = (() => {
  const el = document.getElementById('i18n');
  try {
    if (el?.textContent) return JSON.parse(el.textContent);
  } catch { /* a page served without its catalogue: the keys show */ }
  return { lang: document.documentElement.lang || 'en', messages: {} };
})();

/** The page's language: `en` or `fr`. */
export const lang = data.lang;

const plurals = new Intl.PluralRules(lang);

/** The keys asked for that the catalogue lacks (the browser tests read them). */
export const missing = /** @type {Set<string>} */ (new Set());
/** @type {any} */ (window).myrmidonMissingKeys = missing;

/**
 * @param {Pattern} pattern
 * @param {Record<string, unknown>} args
 * @returns {string}
 */
function fill(pattern, args) {
  if (typeof pattern === 'string') {
    return pattern.replace(/\{ *\$([A-Za-z][\w-]*) *\}/g, (_, name) => (args[name] === undefined ? `{$${name}}` : String(args[name])));
  }
  return pattern.map((part) => {
    if (typeof part === 'string') return fill(part, args);
    const value = args[part.select];
    let key = String(value);
    if (!(key in part.variants) && typeof value === 'number') key = plurals.select(value);
    return fill(part.variants[key] ?? part.variants[part.default] ?? '', args);
  }).join('');
}

/**
 * The message `key` in the page's language, its placeables filled from `args`.
 * @param {string} key
 * @param {Record<string, unknown>} [args]
 * @returns {string}
 */
export function t(key, args = {}) {
  const pattern = data.messages[key];
  if (pattern === undefined) {
    missing.add(key);
    return key;
  }
  return fill(pattern, args);
}

/** Whether the catalogue has `key`. @param {string} key */
export const has = (key) => key in data.messages;

/** A number written the page's way (1 234,5 in French). @param {number} n @param {Intl.NumberFormatOptions} [opts] */
export const num = (n, opts) => n.toLocaleString(lang, opts);

const ATTRS = ['title', 'aria-label', 'placeholder'];

/**
 * Fills the `data-i18n…` elements under `root`.
 * @param {ParentNode} [root]
 */
export function translate(root = document) {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-i18n]'))) {
    const text = t(/** @type {string} */ (el.dataset.i18n));
    // (what reads as the message already is left as it is: no change for the page to redraw)
    const only = el.childNodes.length === 1 ? el.firstChild : null;
    if (only?.nodeType === Node.TEXT_NODE && only.textContent === text) continue;
    const nodes = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
    if (el.children.length && nodes.length) {
      if (nodes[nodes.length - 1].textContent !== text) nodes[nodes.length - 1].textContent = text;
    } else el.textContent = text;
  }
  for (const attr of ATTRS) {
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      const text = t(/** @type {string} */ (el.getAttribute(`data-i18n-${attr}`)));
      if (el.getAttribute(attr) !== text) el.setAttribute(attr, text);
    }
  }
}

/** Chooses a language: the cookie for a year, then the page again. @param {string} code */
export function choose(code) {
  document.cookie = `lang=${encodeURIComponent(code)}; Path=/; Max-Age=31536000; SameSite=Lax`;
  location.reload();
}

translate();
for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.lang-switch [data-lang]'))) {
  const on = el.dataset.lang === lang;
  el.setAttribute('aria-pressed', String(on));
  el.addEventListener('click', () => { if (!on) choose(/** @type {string} */ (el.dataset.lang)); });
}
