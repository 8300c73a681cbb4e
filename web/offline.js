// @ts-check
// The app installable (manifest.json) and opened with no network: the service worker (sw.js)
// keeps the pages, scripts, styles and the engine's module. And the games finished in this
// browser while the server could not be reached are saved to it once it answers
// (local-game.js).
import { saveFinished } from './local-game.js';

// (registered once the page has loaded: installing it asks for every page and file, which
// would compete with the page's own requests and scripts)
if ('serviceWorker' in navigator) {
  const register = () => { navigator.serviceWorker.register('/sw.js').catch(() => { /* (no offline use then) */ }); };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
const save = () => { saveFinished().catch(() => {}); };
window.addEventListener('online', save);
save();
