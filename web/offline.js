// @ts-check
// The app installable (manifest.json) and opened with no network: the service worker (sw.js)
// keeps the pages, scripts, styles and the engine's module. And the games finished in this
// browser while the server could not be reached are saved to it once it answers
// (local-game.js).
import { saveFinished } from './local-game.js';

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('/sw.js').catch(() => { /* (no offline use then) */ });
}
const save = () => { saveFinished().catch(() => {}); };
window.addEventListener('online', save);
save();
